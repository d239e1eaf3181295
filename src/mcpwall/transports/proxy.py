"""The forward proxy an HTTP upstream is reached through, chosen from the environment.

The variables are those curl, httpx and urllib read, read by the standard library
(`urllib.request.getproxies_environment`: a lowercase name wins over its uppercase form, an
empty value unsets, and ``HTTP_PROXY`` is ignored under CGI, where a client can set it):

- ``HTTP_PROXY`` for ``http://`` upstreams, ``HTTPS_PROXY`` for ``https://`` ones, ``ALL_PROXY``
  for either when its own is unset. A proxy URL without a scheme is ``http://``; only ``http://``
  proxies are spoken to (any other scheme is an error, never a silent direct connection). The
  user and password of the proxy URL become a ``Proxy-Authorization: Basic`` header sent to the
  proxy alone; they never appear in a message, a log line or an audit record (`Proxy.label`).
- ``NO_PROXY``: a comma list of hosts reached directly. ``*`` is every host; ``example.com`` and
  ``.example.com`` match that domain and its subdomains; ``host:port`` matches that port only
  (all three by `urllib.request.proxy_bypass`); an address block such as
  ``10.0.0.0/8`` matches the addresses in it (as httpx does).
- Loopback (``localhost``, ``*.localhost``, 127.0.0.0/8, ``::1``) is reached directly while
  ``NO_PROXY`` is unset: a proxy elsewhere cannot reach this machine's loopback. Once
  ``NO_PROXY`` is set it is followed as written, so an operator can send loopback through a proxy.

Through a proxy, an ``http://`` request goes to the proxy in absolute form; an ``https://`` one
opens a ``CONNECT`` tunnel and then TLS to the upstream, verified against the upstream's host
name, never the proxy's (`HttpWire`).
"""

from __future__ import annotations

import base64
import ipaddress
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit
from urllib.request import getproxies_environment, proxy_bypass


class ProxyError(ConnectionError):
    """The proxy could not be reached, or refused to carry a request."""


@dataclass(frozen=True, slots=True)
class Proxy:
    """A forward proxy: where it listens and the credentials it is given.

    Args:
        host: its host name or address.
        port: its port.
        authorization: the ``Proxy-Authorization`` value, when the proxy URL had credentials.
        password: the password of the proxy URL (to be redacted wherever it might be echoed).
    """

    host: str
    port: int
    authorization: str | None = field(default=None, repr=False)
    password: str | None = field(default=None, repr=False)

    @property
    def label(self) -> str:
        """Where the proxy is, for messages: never its credentials."""
        return f"{bracketed(self.host)}:{self.port}"


def proxy_for(scheme: str, host: str, port: int) -> Proxy | None:
    """The proxy the environment names for an upstream at ``scheme://host:port``, or None.

    Raises:
        ValueError: when the proxy URL is not an ``http://`` URL with a host.
    """
    proxies = getproxies_environment()
    url = proxies.get(scheme) or proxies.get("all")
    if not url or _direct(host, port, proxies):
        return None
    return parse_proxy(url)


def parse_proxy(url: str) -> Proxy:
    """The proxy at ``url`` (``http://[user:password@]host[:port]``; the scheme may be left out).

    Raises:
        ValueError: for another scheme, or no host (the message never repeats the credentials).
    """
    parts = urlsplit(url if "://" in url else f"http://{url}")
    if parts.scheme.lower() != "http":
        raise ValueError(f"a proxy URL of scheme {parts.scheme}:// (only http:// proxies are supported)")
    try:
        port = parts.port or 80
    except ValueError:
        raise ValueError("the proxy URL has an invalid port") from None
    if not parts.hostname:
        raise ValueError("the proxy URL names no host")
    if parts.username is None:
        return Proxy(parts.hostname, port)
    password = unquote(parts.password or "")
    pair = f"{unquote(parts.username)}:{password}"
    return Proxy(parts.hostname, port, "Basic " + base64.b64encode(pair.encode()).decode("ascii"), password or None)


def _direct(host: str, port: int, proxies: dict[str, str]) -> bool:
    """Whether ``NO_PROXY`` (or, without it, loopback) sends this host around the proxy."""
    no_proxy = proxies.get("no")
    if no_proxy is None:
        return _is_loopback(host)
    candidates = (f"{bracketed(host)}:{port}", host)
    # With proxies in the environment, `proxy_bypass` is `proxy_bypass_environment` on every platform.
    if any(proxy_bypass(candidate) for candidate in candidates):
        return True
    return _in_blocks(host, no_proxy)


def _in_blocks(host: str, no_proxy: str) -> bool:
    """Whether ``host`` is an address inside one of the address blocks ``NO_PROXY`` lists."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    for entry in no_proxy.split(","):
        if "/" in entry:
            try:
                if address in ipaddress.ip_network(entry.strip(), strict=False):
                    return True
            except ValueError:
                continue
    return False


def _is_loopback(host: str) -> bool:
    name = host.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def bracketed(host: str) -> str:
    """A host as it is written before ``:port`` (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host else host
