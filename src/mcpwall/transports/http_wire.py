"""A lean HTTP/1.1 client for Streamable HTTP upstreams: keep-alive connections on asyncio streams.

Why not httpx: its connection pool costs over a millisecond of CPU per request under the 32-way
concurrency the HTTP front sees, more than everything else mcpwall does for a call. This client
does only what an MCP endpoint needs: ``POST``/``GET``/``DELETE`` to one origin, bodies by
``Content-Length``, ``chunked`` or until close, and bodies streamed as they arrive (SSE); through
a forward proxy (`proxy`) when one is given: an ``http://`` origin's requests in absolute form to
the proxy, an ``https://`` origin's through a ``CONNECT`` tunnel, TLS then verified against the
origin's host name.

Errors: connecting and reading raise `OSError` (``ConnectionError``, ``asyncio.IncompleteReadError``
is turned into ``ConnectionError``) or `ValueError` for a malformed answer; the caller turns them
into JSON-RPC errors at its edge. A proxy that cannot be reached, refuses a tunnel or asks for
credentials raises `ProxyError` (a ``ConnectionError``).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import ssl
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from http import HTTPStatus
from urllib.parse import urlsplit

from mcpwall.transports.proxy import Proxy, ProxyError, bracketed

MAX_HEADER_BYTES = 64 * 1024
READ_CHUNK = 1 << 16
LIMIT = 1 << 20
"""The stream buffer limit of a connection (response heads longer than this are refused)."""
_EVENT_END = re.compile(rb"\r?\n\r?\n")
_LINE_END = re.compile(rb"\r\n|\r|\n")
MAX_CHUNK_BYTES = 16 * 1024 * 1024
"""The largest chunk of a chunked body accepted from a server (a larger size is refused before
anything is read: the size line alone must not make mcpwall buffer gigabytes)."""

Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]


class WireResponse:
    """One answer: its status and headers at once, its body as it arrives.

    Args:
        status: the HTTP status code.
        headers: the header fields, names lower-cased (repeated fields joined with ``, ``).
        body: the body's chunks (consumed once).
    """

    def __init__(self, status: int, headers: dict[str, str], body: AsyncGenerator[bytes, None]) -> None:
        self.status = status
        self.headers = headers
        self.chunks = body

    @property
    def media_type(self) -> str:
        return self.headers.get("content-type", "").split(";", 1)[0].strip().lower()

    async def read(self, limit: int) -> bytes:
        """The whole body.

        Raises:
            ValueError: when it is longer than ``limit``.
        """
        body = bytearray()
        async for chunk in self.chunks:
            body += chunk
            if len(body) > limit:
                await self.aclose()
                raise ValueError(f"response body longer than {limit} bytes")
        return bytes(body)

    async def aclose(self) -> None:
        """Stop reading the body (its connection is closed unless the body was read whole)."""
        await self.chunks.aclose()


class HttpWire:
    """Keep-alive connections to the origin of ``url``; one request at a time on each.

    Args:
        url: an ``http://`` or ``https://`` URL; requests go to its path and query.
        connect_timeout: seconds to open a connection (through the proxy, the tunnel and TLS too).
        proxy: the forward proxy to go through, if any.
    """

    def __init__(self, url: str, connect_timeout: float = 30.0, proxy: Proxy | None = None) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {url!r}")
        self.host = parts.hostname
        self.port = parts.port or (443 if parts.scheme == "https" else 80)
        self.target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        default_port = self.port == (443 if parts.scheme == "https" else 80)
        self.authority = parts.netloc.rsplit("@", 1)[-1] if not default_port else bracketed(self.host)
        self.tls = ssl.create_default_context() if parts.scheme == "https" else None
        self.connect_timeout = connect_timeout
        self.proxy = proxy
        self._forward = proxy is not None and self.tls is None  # absolute-form requests to the proxy
        if self._forward:
            self.target = f"http://{self.authority}{self.target}"
        self._idle: list[Streams] = []
        self._open: set[asyncio.StreamWriter] = set()

    async def request(self, method: str, headers: Mapping[str, str], body: bytes = b"") -> WireResponse:
        """Send one request; its response once the status and headers are in.

        A reused keep-alive connection the server had already closed is retried once on a new one.

        Raises:
            OSError: when the origin cannot be reached or the connection breaks.
            ValueError: when the answer is not HTTP/1.x.
        """
        head = self._head(method, headers, len(body))
        response = await self._send(head, body)
        if self._forward and response.status == 407:
            await response.aclose()
            raise ProxyError(f"the proxy {self._proxy_label} refused the request: {_status_text(407)}")
        return response

    async def _send(self, head: bytes, body: bytes) -> WireResponse:
        while self._idle:
            streams = self._idle.pop()
            try:
                return await self._exchange(streams, head, body)
            except ConnectionError:
                self._discard(streams)
        return await self._exchange(await self._connect(), head, body)

    async def aclose(self) -> None:
        """Close every connection, waiting until each socket is closed (a transport only closed
        is torn down by a later loop iteration, which a loop about to stop may never run)."""
        writers = list(self._open)
        self._open.clear()
        self._idle.clear()
        for writer in writers:
            writer.close()
        for writer in writers:
            await _closed(writer)

    def _head(self, method: str, headers: Mapping[str, str], length: int) -> bytes:
        lines = [f"{method} {self.target} HTTP/1.1", f"Host: {self.authority}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if self._forward and self.proxy is not None and self.proxy.authorization:
            lines.append(f"Proxy-Authorization: {self.proxy.authorization}")
        if method in ("POST", "PUT") or length:
            lines.append(f"Content-Length: {length}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def _connect(self) -> Streams:
        try:
            reader, writer = await asyncio.wait_for(self._open_streams(), self.connect_timeout)
        except TimeoutError as exc:
            through = f" through the proxy {self._proxy_label}" if self.proxy else ""
            raise ConnectionError(f"no connection to {self._origin}{through} within {self.connect_timeout} s") from exc
        self._open.add(writer)
        return reader, writer

    async def _open_streams(self) -> Streams:
        if self.proxy is None:
            name = self.host if self.tls else None
            return await asyncio.open_connection(self.host, self.port, ssl=self.tls, server_hostname=name, limit=LIMIT)
        try:
            reader, writer = await asyncio.open_connection(self.proxy.host, self.proxy.port, limit=LIMIT)
        except OSError as exc:
            raise ProxyError(f"no connection to the proxy {self._proxy_label}: {exc}") from exc
        if self.tls is None:
            return reader, writer
        try:
            await self._tunnel(reader, writer)
            await writer.start_tls(self.tls, server_hostname=self.host)  # the origin's name is verified
        except BaseException:
            writer.close()
            raise
        return reader, writer

    async def _tunnel(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Ask the proxy for a ``CONNECT`` tunnel to the origin (credentials go to the proxy only)."""
        assert self.proxy is not None  # noqa: S101 -- only with a proxy
        lines = [f"CONNECT {self._origin} HTTP/1.1", f"Host: {self._origin}"]
        if self.proxy.authorization:
            lines.append(f"Proxy-Authorization: {self.proxy.authorization}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        try:
            status = _parse_head(await reader.readuntil(b"\r\n\r\n"))[0]
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
            raise ProxyError(f"the proxy {self._proxy_label} gave no usable answer to CONNECT") from exc
        if not 200 <= status < 300:
            refused = f"the proxy {self._proxy_label} refused the tunnel to {self._origin}: {_status_text(status)}"
            raise ProxyError(refused)

    @property
    def _origin(self) -> str:
        return f"{bracketed(self.host)}:{self.port}"

    @property
    def _proxy_label(self) -> str:
        return self.proxy.label if self.proxy is not None else ""

    async def _exchange(self, streams: Streams, head: bytes, body: bytes) -> WireResponse:
        reader, writer = streams
        writer.write(head + body if len(body) < READ_CHUNK else head)
        if len(body) >= READ_CHUNK:
            writer.write(body)
        try:
            raw = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as exc:
            raise ConnectionError("the connection closed before an answer") from exc
        except asyncio.LimitOverrunError as exc:
            self._discard(streams)
            raise ValueError("response headers too long") from exc
        status, headers, keep = _parse_head(raw)
        return WireResponse(status, headers, self._body(streams, headers, keep, status))

    async def _body(
        self, streams: Streams, headers: dict[str, str], keep: bool, status: int
    ) -> AsyncGenerator[bytes, None]:
        reader = streams[0]
        reusable = False
        try:
            if status in (204, 304) or 100 <= status < 200:
                reusable = keep
            elif "chunked" in headers.get("transfer-encoding", "").lower():
                async for chunk in _chunked(reader):
                    yield chunk
                reusable = keep
            elif (length := headers.get("content-length")) is not None:
                remaining = int(length)
                while remaining > 0:
                    chunk = await reader.read(min(remaining, READ_CHUNK))
                    if not chunk:
                        raise ConnectionError("the connection closed inside a body")
                    remaining -= len(chunk)
                    yield chunk
                reusable = keep
            else:
                while chunk := await reader.read(READ_CHUNK):
                    yield chunk
        finally:
            self._release(streams, reusable)

    def _release(self, streams: Streams, reusable: bool) -> None:
        if reusable and not streams[1].is_closing():
            self._idle.append(streams)
        else:
            self._discard(streams)

    def _discard(self, streams: Streams) -> None:
        self._open.discard(streams[1])
        with contextlib.suppress(Exception):
            streams[1].close()


def _status_text(status: int) -> str:
    try:
        return f"HTTP {status} {HTTPStatus(status).phrase}"
    except ValueError:
        return f"HTTP {status}"


def _parse_head(raw: bytes) -> tuple[int, dict[str, str], bool]:
    lines = raw.decode("latin-1").split("\r\n")
    version, _, rest = lines[0].partition(" ")
    if not version.startswith("HTTP/1.") or not rest[:3].isdigit():
        raise ValueError(f"not an HTTP/1.x status line: {lines[0][:80]!r}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            key = name.strip().lower()
            headers[key] = f"{headers[key]}, {value.strip()}" if key in headers else value.strip()
    connection = headers.get("connection", "").lower()
    keep = "close" not in connection and (version == "HTTP/1.1" or "keep-alive" in connection)
    return int(rest[:3]), headers, keep


async def _chunked(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
    try:
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0].strip(), 16)
            if size > MAX_CHUNK_BYTES:
                raise ValueError(f"a chunk of {size} bytes (at most {MAX_CHUNK_BYTES} are accepted)")
            if size == 0:
                while await reader.readuntil(b"\r\n") != b"\r\n":
                    pass  # trailers are not used
                return
            yield await reader.readexactly(size)
            await reader.readexactly(2)
    except asyncio.IncompleteReadError as exc:
        raise ConnectionError("the connection closed inside a chunked body") from exc


def sse_events(buffer: bytearray, chunk: bytes) -> list[tuple[str, bytes]]:
    """Append ``chunk`` to ``buffer`` and take every complete SSE event out: (event, data) pairs.

    The data stays bytes, exactly as the server sent them: it is parsed once, strictly, by the
    session (invalid UTF-8 is refused there, never replaced). Comments and ``id``/``retry``
    fields are dropped; an event without ``event:`` is ``message``.
    """
    buffer += chunk
    events: list[tuple[str, bytes]] = []
    while (end := _EVENT_END.search(buffer)) is not None:
        block = bytes(buffer[: end.start()])
        del buffer[: end.end()]
        kind, data = "message", []
        for line in _LINE_END.split(block):
            field, _, value = line.partition(b":")
            value = value.removeprefix(b" ")
            if field == b"event":
                kind = value.decode("latin-1")
            elif field == b"data":
                data.append(value)
        if data:
            events.append((kind, b"\n".join(data)))
    return events


CLOSE_GRACE = 1.0
"""Seconds a closing connection may take to flush; then it is aborted (nothing hangs)."""


async def _closed(writer: asyncio.StreamWriter) -> None:
    try:
        async with asyncio.timeout(CLOSE_GRACE):
            await writer.wait_closed()
    except TimeoutError:
        writer.transport.abort()
    except OSError:
        pass  # the peer reset the connection first: it is closed all the same
