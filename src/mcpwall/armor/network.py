"""Network arguments: URLs and bare hosts, parsed strictly and checked against policy.

Parsing (one reading, the strictest one):

- ``scheme://authority/...``; for the special schemes (http, https, ws, wss, ftp, ftps) any
  run of ``/`` and ``\\`` after the colon is accepted as the separator, as browsers do
  (``https:\\\\evil.com`` is evil.com). ``file:`` URLs are paths, not network values.
- The authority ends at the first ``/``, ``?`` or ``#``. In web URLs (the special schemes)
  userinfo is refused outright: ``https://good.com@evil.com`` is the classic disguise and
  credentials in web URLs are almost never legitimate. In other schemes (``ssh://git@host``) the
  host is what follows the last ``@``, as every parser reads it. A ``\\`` in the authority is
  always refused (``https://good.com\\@evil.com`` is good.com to some parsers, evil.com to others).
- The authority is percent-decoded once (browsers decode hosts); control characters, spaces and
  ports that are not a number up to 65535 are refused.
- Bare values (a ``host``/``address`` key without a scheme) are read as ``[user@]host[:port]``:
  the host is what follows the last ``@`` (``user@10.0.0.1`` for ssh, ``a@example.com`` for
  mail); scp-like ``git@github.com:org/repo`` names github.com. Values with whitespace or that
  start like a path are not hosts.

Checks, in order: ``allow_network`` off → ``NetworkNotAllowed``; unreadable or ambiguous host →
``DomainNotAllowed``; non-public address or local-only name (see :mod:`mcpwall.armor.hosts`)
without ``allow_private_networks`` → ``NetworkNotAllowed`` (even if listed in
``allowed_domains``: both settings must admit it); host not matched by ``allowed_domains`` →
``DomainNotAllowed``. Ports are not part of the allowlist.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

from mcpwall.armor.hosts import Host, HostError, is_local_name, is_public_ip, parse_host
from mcpwall.armor.identity_cache import IdentityCache
from mcpwall.armor.settings import ArmorSettings
from mcpwall.armor.violations import Violation, ViolationType, violation

_SCHEME = re.compile(r"([a-z][a-z0-9+.-]*):([/\\]*)", re.IGNORECASE)
_SPECIAL_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp", "ftps"})
_AUTHORITY_END = re.compile(r"[/?#]")
_FORBIDDEN_IN_HOST = re.compile(r"[\x00-\x20\x7f@\\/?#%]")
_PORT = re.compile(r"[0-9]{0,5}\Z")


class UnreadableURLError(ValueError):
    """The authority of a URL cannot be read unambiguously; ``str(error)`` is the reason."""


@dataclass(frozen=True, slots=True)
class NetworkPolicy:
    """Network settings compiled for matching: exact names and wildcard bases in A-label form."""

    allow_network: bool
    allow_private: bool
    exact: frozenset[str] | None
    wildcard: frozenset[str]


def compile_network(settings: ArmorSettings) -> NetworkPolicy:
    """Compile the network part of settings (domains to canonical A-label / IP form).

    Args:
        settings: validated settings.

    Returns:
        The compiled policy.
    """
    exact: set[str] | None = None
    wildcard: set[str] = set()
    if settings.allowed_domains is not None:
        exact = set()
        for entry in settings.allowed_domains:
            target = wildcard if entry.startswith("*.") else exact
            target.add(parse_host(entry.removeprefix("*.")).name)
    return NetworkPolicy(
        allow_network=settings.allow_network,
        allow_private=settings.allow_private_networks,
        exact=frozenset(exact) if exact is not None else None,
        wildcard=frozenset(wildcard),
    )


_POLICIES: IdentityCache[ArmorSettings, NetworkPolicy] = IdentityCache()


def check_network(value: str, settings: ArmorSettings | NetworkPolicy) -> Violation | None:
    """Check one URL or bare host against the network policy.

    Args:
        value: a URL (``https://...``), scheme-relative URL or bare ``host[:port]``.
        settings: the settings, or a policy compiled by :func:`compile_network`.

    Returns:
        A ``NetworkNotAllowed`` or ``DomainNotAllowed`` violation, or None.
    """
    policy = settings if isinstance(settings, NetworkPolicy) else _POLICIES.get(settings, compile_network)
    if not policy.allow_network:
        return violation(ViolationType.NETWORK_NOT_ALLOWED, f"network access is off: {value!r}", url=value)
    try:
        host_text = network_host(value)
        host = parse_host(host_text) if host_text is not None else None
    except (UnreadableURLError, HostError) as error:
        return violation(ViolationType.DOMAIN_NOT_ALLOWED, f"{value!r}: {error}", url=value)
    return _host_violation(value, host, policy) if host is not None else None


def network_host(value: str) -> str | None:
    """The host a URL or bare host value names, as written (not yet canonical).

    Args:
        value: a URL or bare host.

    Returns:
        The host text, or None when the value is not a network value (``file:`` URL, a path,
        text with spaces).

    Raises:
        UnreadableURLError: the authority is ambiguous or malformed.
    """
    match = _SCHEME.match(value)
    scheme = match.group(1).lower() if match is not None else ""
    if scheme == "file":
        return None
    special = scheme in _SPECIAL_SCHEMES
    if match is None or not (special or match.group(2).startswith("//")):
        return _bare_host(value)
    rest = value[match.end() :] if special else value[match.start(2) + 2 :]
    authority = _AUTHORITY_END.split(rest, maxsplit=1)[0]
    if "\\" in authority:
        raise UnreadableURLError("backslash in the URL authority")
    if special and "@" in authority:
        raise UnreadableURLError("userinfo in a web URL authority")
    return _authority_host(_checked_authority(authority.rpartition("@")[2]))


def _checked_authority(authority: str) -> str:
    if "\\" in authority:
        raise UnreadableURLError("backslash in the URL authority")
    decoded = unquote(authority)
    if _FORBIDDEN_IN_HOST.search(decoded):
        raise UnreadableURLError("forbidden character in the URL authority")
    if not decoded:
        raise UnreadableURLError("URL without a host")
    return decoded


def _bare_host(value: str) -> str | None:
    text = value.strip()
    if value.startswith("//"):
        text = value[2:]
    elif not text or text.startswith(("/", ".", "~", "\\")) or any(ch.isspace() for ch in text):
        return None
    authority = _AUTHORITY_END.split(text, maxsplit=1)[0].rpartition("@")[2]
    host, colon, port = authority.partition(":")
    if colon and not authority.startswith("[") and ":" not in port and not port.isdigit():
        authority = host  # scp-like "git@github.com:org/repo": what follows ':' is a path
    return _authority_host(_checked_authority(authority)) if authority else None


def _authority_host(authority: str) -> str:
    if authority.startswith("["):
        host, bracket, port = authority.partition("]")
        host += bracket
        port = port.removeprefix(":") if port.startswith(":") else port
    elif authority.count(":") == 1:
        host, _, port = authority.partition(":")
    else:
        host, port = authority, ""
    if not _PORT.match(port) or (port and int(port) > 65535):
        raise UnreadableURLError(f"invalid port {port!r}")
    if not host:
        raise UnreadableURLError("URL without a host")
    return host


def _host_violation(value: str, host: Host, policy: NetworkPolicy) -> Violation | None:
    if not policy.allow_private:
        local = not is_public_ip(host.ip) if host.ip is not None else is_local_name(host.name)
        if local:
            reason = f"{value!r}: {host.name} is a private, loopback, link-local or local-only host"
            return violation(ViolationType.NETWORK_NOT_ALLOWED, reason, url=value, host=host.name)
    if policy.exact is not None and not _listed(host.name, policy):
        reason = f"{value!r}: host {host.name} is not in allowed_domains"
        return violation(ViolationType.DOMAIN_NOT_ALLOWED, reason, url=value, host=host.name)
    return None


def _listed(name: str, policy: NetworkPolicy) -> bool:
    if policy.exact is not None and name in policy.exact:
        return True
    labels = name.split(".")
    return any(".".join(labels[i:]) in policy.wildcard for i in range(1, len(labels)))
