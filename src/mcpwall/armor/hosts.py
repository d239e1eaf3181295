"""Host names and IP literals, read the strict way.

A host is reduced to one canonical form before any policy sees it:

- IP literals in every notation a resolver or browser accepts (inet_aton / WHATWG): dotted,
  single decimal (``2130706433``), hex (``0x7f.1``), octal (``0177.0.0.1``), short forms
  (``127.1``), bracketed IPv6 with or without a zone. A host whose last label is numeric must
  parse as IPv4, or it is refused (WHATWG "ends in a number").
- Non-ASCII hosts are first mapped to ASCII (IDNA UTS #46, as browsers do), so fullwidth digits
  and ideographic dots reach the IP-literal reading too.
- Names in IDNA A-label form (``bücher.de`` → ``xn--bcher-kva.de``), lower case, one trailing dot
  removed. A label that mixes scripts, or that is written entirely in Latin look-alikes of
  another script (Cyrillic ``\u0430\u0440\u0440\u04cf\u0435``), is refused: compare ``xn--``
  forms, never what a human sees.

Addresses count as *public* only when Python's ``ipaddress`` calls them global and not
private, loopback, link-local, multicast, reserved or unspecified, including the IPv4 address
embedded in IPv4-mapped, IPv4-compatible, 6to4, Teredo and NAT64 IPv6 forms. Names count as
*local* when they are single-label (``metadata``, resolved through search domains) or end in
``localhost``, ``local``, ``localdomain``, ``internal`` or ``home.arpa``. No DNS lookups: a public
name that resolves to a private address (DNS rebinding) is not caught here; the domain allowlist
is the defence for that.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import idna

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_NUMERIC_LABEL = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)\Z")
_ASCII_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\Z")
_LOCAL_SUFFIXES = ("localhost", "local", "localdomain", "internal", "home.arpa")
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")
# Cyrillic and Greek letters that render like Latin ones: a label made only of these is a
# whole-script homograph of a Latin name.
_LATIN_LOOKALIKES = frozenset("аеорсухіјѕԁӏԛԝһкмнтвьгпαβεικνορτυχωϲ")
_COMPATIBLE_SCRIPTS = (frozenset({"CJK", "HIRAGANA", "KATAKANA"}), frozenset({"CJK", "HANGUL"}))


class HostError(ValueError):
    """A host that cannot be read unambiguously; ``str(error)`` is the operator reason."""


@dataclass(frozen=True, slots=True)
class Host:
    """A canonical host: ``name`` is the A-label name or the compressed IP literal."""

    name: str
    ip: IPAddress | None = None


@lru_cache(maxsize=4096)
def parse_host(text: str) -> Host:
    """Reduce a host (no scheme, userinfo or port) to its canonical form.

    Args:
        text: the host as written; IPv6 may be bracketed.

    Returns:
        The canonical host.

    Raises:
        HostError: the host is empty, malformed, confusable or not valid IDNA.
    """
    host = text.lower() if text.isascii() else _uts46(text)
    if host.startswith("[") or ":" in host:
        return _ipv6_host(host)
    if host.endswith("."):
        host = host[:-1]
    if not host or len(host) > 253:
        raise HostError(f"malformed host {text!r}")
    ipv4 = parse_ipv4(host)
    if ipv4 is not None:
        return Host(str(ipv4), ipv4)
    return Host(_a_label_name(host))


def _uts46(host: str) -> str:
    """Map a non-ASCII host to ASCII first, so fullwidth digits are read as the address they spell."""
    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError) as error:
        raise HostError(f"invalid internationalized host {host!r}: {error}") from None


def parse_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """Read an IPv4 literal in any inet_aton notation.

    Args:
        host: a lower-case host without a trailing dot.

    Returns:
        The address, or None when the last label is not numeric (a name, not an address).

    Raises:
        HostError: the last label is numeric but the whole is not a valid address.
    """
    parts = host.split(".")
    if not _NUMERIC_LABEL.match(parts[-1]):
        return None
    try:
        numbers = [_ipv4_part(part) for part in parts]
    except ValueError:
        raise HostError(f"malformed IPv4 literal {host!r}") from None
    *head, last = numbers
    if len(numbers) > 4 or any(n > 255 for n in head) or last >= 256 ** (5 - len(numbers)):
        raise HostError(f"IPv4 literal out of range {host!r}")
    value = sum(n << (8 * (3 - i)) for i, n in enumerate(head)) + last
    return ipaddress.IPv4Address(value)


def _ipv4_part(part: str) -> int:
    if part.startswith("0x"):
        return int(part[2:] or "0", 16)
    if len(part) > 1 and part.startswith("0"):
        return int(part[1:], 8)
    return int(part)


def _ipv6_host(host: str) -> Host:
    inner = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    address, _, _zone = inner.partition("%")
    try:
        ip = ipaddress.IPv6Address(address)
    except ValueError:
        raise HostError(f"malformed IPv6 literal {host!r}") from None
    return Host(str(ip), ip)


def _a_label_name(host: str) -> str:
    labels = host.split(".")
    if not all(_ASCII_LABEL.match(label) for label in labels):
        raise HostError(f"malformed host {host!r}")
    for label in labels:
        if label.startswith("xn--"):
            _check_u_label(label)
    return host


def _check_u_label(label: str) -> None:
    try:
        unicode_label = idna.decode(label)
    except (idna.IDNAError, UnicodeError) as error:
        raise HostError(f"invalid punycode label {label!r}: {error}") from None
    scripts = {_script(ch) for ch in unicode_label if ch.isalpha()}
    if len(scripts) > 1 and not any(scripts <= allowed for allowed in _COMPATIBLE_SCRIPTS):
        raise HostError(f"mixed-script label {label!r} ({unicode_label})")
    letters = [ch for ch in unicode_label if ch.isalpha()]
    if letters and scripts != {"LATIN"} and all(ch in _LATIN_LOOKALIKES for ch in letters):
        raise HostError(f"confusable label {label!r} ({unicode_label}) looks Latin")


def _script(ch: str) -> str:
    return unicodedata.name(ch, "UNKNOWN").split(" ", 1)[0]


def is_public_ip(ip: IPAddress) -> bool:
    """Tell whether an address is globally routable, embedded IPv4 forms included.

    Args:
        ip: the address.

    Returns:
        True only for global unicast addresses.
    """
    special = (
        ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_reserved or ip.is_unspecified
    )
    if special or not ip.is_global:
        return False
    return all(is_public_ip(inner) for inner in _embedded_ipv4(ip))


def _embedded_ipv4(ip: IPAddress) -> Iterator[ipaddress.IPv4Address]:
    if isinstance(ip, ipaddress.IPv4Address):
        return
    if ip.ipv4_mapped is not None:
        yield ip.ipv4_mapped
    if ip.sixtofour is not None:
        yield ip.sixtofour
    if ip.teredo is not None:
        yield from ip.teredo
    if ip in _NAT64 or ip in _IPV4_COMPATIBLE:
        yield ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)


def is_local_name(name: str) -> bool:
    """Tell whether a canonical name points into a local network by convention.

    Args:
        name: an A-label host name.

    Returns:
        True for single-label names and local-only suffixes (``localhost``, ``.internal``...).
    """
    if "." not in name:
        return True
    return any(name == suffix or name.endswith("." + suffix) for suffix in _LOCAL_SUFFIXES)
