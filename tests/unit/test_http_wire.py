"""mcpwall's own HTTP/1.1 client for Streamable HTTP upstreams, against a real local socket."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import pytest

from mcpwall.transports.http_wire import MAX_CHUNK_BYTES, HttpWire, sse_events

pytestmark = pytest.mark.anyio
Serve = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@asynccontextmanager
async def origin(answer: bytes) -> AsyncIterator[str]:
    """A TCP server on 127.0.0.1 that answers every request with ``answer`` (raw bytes)."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(answer)
        await writer.drain()
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        yield f"http://127.0.0.1:{port}/mcp"


async def test_a_chunk_size_past_the_cap_is_refused_before_its_body_is_read() -> None:
    huge = MAX_CHUNK_BYTES + 1
    answer = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n"
    answer += f"{huge:x}\r\n".encode() + b"{" * 1024
    async with origin(answer) as url:
        wire = HttpWire(url)
        response = await wire.request("POST", {"Content-Type": "application/json"}, b"{}")
        with pytest.raises(ValueError, match="chunk of"):
            async for _ in response.chunks:
                pass
        await wire.aclose()


async def test_a_chunked_body_within_the_cap_arrives_whole() -> None:
    body = b'{"jsonrpc":"2.0","id":1,"result":{}}'
    answer = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n"
    answer += f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n"
    async with origin(answer) as url:
        wire = HttpWire(url)
        response = await wire.request("POST", {}, b"{}")
        received = b"".join([chunk async for chunk in response.chunks])
        await wire.aclose()
    assert received == body


def test_sse_data_is_kept_as_the_bytes_the_server_sent() -> None:
    buffer = bytearray()
    invalid = b'{"jsonrpc":"2.0","id":1,"result":{"text":"\xff\xfe"}}'
    events = sse_events(
        buffer, b"event: message\ndata: " + invalid + b"\n\n: comment\n\ndata: a\r\ndata: b\r\n\r\ndata: tail"
    )
    assert events == [("message", invalid), ("message", b"a\nb")]
    assert bytes(buffer) == b"data: tail"
