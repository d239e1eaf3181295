"""HTTP upstreams through a forward proxy: which proxy the environment names (``HTTP_PROXY``,
``HTTPS_PROXY``, ``NO_PROXY``), and mcpwall's own HTTP client through a real proxy (``proxy.py``):
absolute-form requests for ``http://``, a ``CONNECT`` tunnel and TLS verified against the
upstream's own name for ``https://``, credentials for the proxy alone."""

from __future__ import annotations

import asyncio
import contextlib
import os
import ssl
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
import trustme

from conftest import free_port
from forward_proxy import ForwardProxy, forward_proxy
from mcpwall.transports.http_wire import HttpWire
from mcpwall.transports.proxy import Proxy, ProxyError, parse_proxy, proxy_for

pytestmark = pytest.mark.anyio
ANSWER = b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"ok":true}'


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def environ(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """The process environment with every ``*_proxy`` variable of the machine removed."""
    for name in list(os.environ):
        if name.lower().endswith("_proxy"):
            monkeypatch.delenv(name)
    return monkeypatch


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[ForwardProxy]:
    with forward_proxy(tmp_path) as running:
        yield running


@pytest.fixture
def guarded_proxy(tmp_path: Path) -> Iterator[ForwardProxy]:
    with forward_proxy(tmp_path, credentials="agent:s3cret-pass") as running:
        yield running


@pytest.mark.parametrize(
    ("variables", "url", "expected"),
    [
        ({"HTTP_PROXY": "http://proxy.corp:3128"}, "http://mcp.example.com/mcp", "proxy.corp:3128"),
        ({"HTTP_PROXY": "proxy.corp:3128"}, "http://mcp.example.com/mcp", "proxy.corp:3128"),
        ({"HTTP_PROXY": "http://proxy.corp"}, "http://mcp.example.com/mcp", "proxy.corp:80"),
        ({"HTTP_PROXY": "http://proxy.corp:3128"}, "https://mcp.example.com/mcp", None),
        ({"HTTPS_PROXY": "http://tls.corp:8080"}, "https://mcp.example.com/mcp", "tls.corp:8080"),
        ({"ALL_PROXY": "http://all.corp:1"}, "https://mcp.example.com/mcp", "all.corp:1"),
        ({"HTTP_PROXY": "http://upper:1", "http_proxy": "http://lower:2"}, "http://a.example/", "lower:2"),
        ({"HTTP_PROXY": "http://p:1"}, "http://127.0.0.1:8000/mcp", None),
        ({"HTTP_PROXY": "http://p:1"}, "http://localhost:8000/mcp", None),
        ({"HTTP_PROXY": "http://p:1"}, "http://[::1]:8000/mcp", None),
        ({"HTTP_PROXY": "http://p:1", "NO_PROXY": "other.example"}, "http://127.0.0.1:8000/mcp", "p:1"),
        ({"HTTP_PROXY": "http://p:1", "NO_PROXY": "*"}, "http://a.example/", None),
        ({"HTTP_PROXY": "http://p:1", "NO_PROXY": "x.test, .example.com"}, "http://mcp.example.com/", None),
        ({"HTTP_PROXY": "http://p:1", "NO_PROXY": "example.com"}, "http://example.com/", None),
        ({"HTTP_PROXY": "http://p:1", "NO_PROXY": "example.com"}, "http://notexample.com/", "p:1"),
        ({"HTTPS_PROXY": "http://p:1", "no_proxy": "example.com:8443"}, "https://example.com:8443/", None),
        ({"HTTPS_PROXY": "http://p:1", "no_proxy": "example.com:8443"}, "https://example.com/", "p:1"),
        ({"HTTP_PROXY": "http://p:1", "NO_PROXY": "10.0.0.0/8"}, "http://10.1.2.3/mcp", None),
        ({"HTTP_PROXY": "http://p:1", "NO_PROXY": "10.0.0.0/8"}, "http://11.1.2.3/mcp", "p:1"),
        ({"HTTP_PROXY": "http://p:1", "NO_PROXY": "::1"}, "http://[::1]:9/mcp", None),
    ],
)
def test_the_environment_names_the_proxy_of_each_upstream(
    environ: pytest.MonkeyPatch, variables: dict[str, str], url: str, expected: str | None
) -> None:
    for name, value in variables.items():
        environ.setenv(name, value)
    wire = HttpWire(url)
    chosen = proxy_for(url.split(":", 1)[0], wire.host, wire.port)
    assert (chosen.label if chosen else None) == expected


@pytest.mark.parametrize("url", ["socks5://proxy.corp:1080", "https://proxy.corp:443", "http://user:pw@:3128"])
def test_a_proxy_that_cannot_be_spoken_to_is_an_error_that_names_no_credential(url: str) -> None:
    with pytest.raises(ValueError, match="proxy") as refused:
        parse_proxy(url)
    assert "pw" not in str(refused.value)


def test_proxy_credentials_become_a_basic_header_and_never_show() -> None:
    proxy = parse_proxy("http://agent%40corp:p%3Ass@proxy.corp:3128")
    assert proxy.authorization == "Basic YWdlbnRAY29ycDpwOnNz"  # base64("agent@corp:p:ss")
    assert proxy.password == "p:ss"
    assert "p:ss" not in repr(proxy)
    assert "YWdl" not in repr(proxy)
    assert proxy.label == "proxy.corp:3128"


@asynccontextmanager
async def origin(tls: ssl.SSLContext | None = None) -> AsyncIterator[tuple[int, list[bytes]]]:
    """A local HTTP(S) server answering every request with `ANSWER`; its port and the heads it received."""
    heads: list[bytes] = []
    connections: dict[asyncio.StreamWriter, asyncio.Task[object]] = {}

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections[writer] = asyncio.current_task()  # type: ignore[assignment] # always inside a task
        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError, ssl.SSLError):
            while head := await reader.readuntil(b"\r\n\r\n"):
                heads.append(head)
                writer.write(ANSWER)
                await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0, ssl=tls)
    try:
        async with server:
            yield server.sockets[0].getsockname()[1], heads
    finally:
        for writer in connections:
            writer.close()
        await asyncio.gather(*connections.values(), return_exceptions=True)


def _tls(certificate_for: str, tmp_path: Path, environ: pytest.MonkeyPatch) -> ssl.SSLContext:
    """A server context with a certificate for one name, from a CA this process trusts."""
    authority = trustme.CA()
    bundle = tmp_path / "ca.pem"
    authority.cert_pem.write_to_path(str(bundle))
    environ.setenv("SSL_CERT_FILE", str(bundle))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert(certificate_for).configure_cert(context)
    return context


async def _body(wire: HttpWire) -> bytes:
    answer = await wire.request("POST", {"Content-Type": "application/json"}, b"{}")
    return await answer.read(1024)


async def _once(url: str, proxy: Proxy) -> bytes:
    """One request on a client of its own (closed afterwards)."""
    wire = HttpWire(url, proxy=proxy)
    try:
        return await _body(wire)
    finally:
        await wire.aclose()


async def test_an_http_upstream_is_reached_through_the_proxy_in_absolute_form(proxy: ForwardProxy) -> None:
    async with origin() as (port, heads):
        wire = HttpWire(f"http://127.0.0.1:{port}/mcp", proxy=parse_proxy(proxy.url))
        with anyio.fail_after(30):
            first, second = await _body(wire), await _body(wire)
        await wire.aclose()
    assert first == second == b'{"ok":true}'
    assert await proxy.saw(f"POST 127.0.0.1:{port}/mcp")
    assert len(heads) == 2
    assert heads[0].startswith(b"POST /mcp HTTP/1.1\r\n")  # the proxy passed it on in origin form
    assert all(b"proxy-authorization" not in head.lower() for head in heads)


async def test_an_https_upstream_is_tunnelled_and_its_own_name_verified(
    proxy: ForwardProxy, tmp_path: Path, environ: pytest.MonkeyPatch
) -> None:
    async with origin(_tls("localhost", tmp_path, environ)) as (port, heads):
        wire = HttpWire(f"https://localhost:{port}/mcp", proxy=parse_proxy(proxy.url))
        with anyio.fail_after(30):
            body = await _body(wire)
        await wire.aclose()
    assert body == b'{"ok":true}'
    assert await proxy.saw(f"CONNECT localhost:{port}")
    assert heads[0].startswith(b"POST /mcp HTTP/1.1\r\nHost: localhost:")


async def test_a_tunnelled_upstream_whose_certificate_names_another_host_is_refused(
    proxy: ForwardProxy, tmp_path: Path, environ: pytest.MonkeyPatch
) -> None:
    # The certificate names the proxy's address, not the upstream's: verifying against the
    # proxy would accept it.
    async with origin(_tls("127.0.0.1", tmp_path, environ)) as (port, heads):
        wire = HttpWire(f"https://localhost:{port}/mcp", proxy=parse_proxy(proxy.url))
        with anyio.fail_after(30), pytest.raises(ssl.SSLCertVerificationError, match="localhost"):
            await _body(wire)
        await wire.aclose()
    assert heads == []


@pytest.mark.parametrize("scheme", ["http", "https"])
async def test_proxy_credentials_go_to_the_proxy_and_a_refusal_is_a_clear_error(
    guarded_proxy: ForwardProxy, tmp_path: Path, environ: pytest.MonkeyPatch, scheme: str
) -> None:
    tls = _tls("localhost", tmp_path, environ) if scheme == "https" else None
    async with origin(tls) as (port, heads):
        url = f"{scheme}://localhost:{port}/mcp"
        anonymous = parse_proxy(guarded_proxy.url.replace("agent:s3cret-pass@", ""))
        with anyio.fail_after(30):
            admitted = await _once(url, parse_proxy(guarded_proxy.url))
            with pytest.raises(ProxyError, match="407") as refused:
                await _once(url, anonymous)
    assert admitted == b'{"ok":true}'
    assert f"proxy 127.0.0.1:{guarded_proxy.port}" in str(refused.value)
    assert len(heads) == 1
    assert b"s3cret" not in heads[0]
    assert all("s3cret" not in line for line in guarded_proxy.carried())


async def test_a_proxy_that_is_not_there_is_a_clear_error() -> None:
    nowhere = parse_proxy(f"http://127.0.0.1:{free_port()}")
    for url in ("http://localhost:9/mcp", "https://localhost:9/mcp"):
        with anyio.fail_after(30), pytest.raises(ProxyError, match=r"no connection to the proxy 127\.0\.0\.1"):
            await _once(url, nowhere)
