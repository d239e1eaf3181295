"""`CorkedTransport` over a real socket pair: writes wait for the end of the loop's turn (or a
complete response, or `FLUSH_BYTES`), leave together and in order, and close() loses nothing."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from mcpwall.transports.http_cork import FLUSH_BYTES, CorkedTransport

pytestmark = pytest.mark.anyio


@asynccontextmanager
async def corked_pair() -> AsyncIterator[tuple[CorkedTransport, socket.socket]]:
    """A corked transport on one end of a socket pair, and the other end (non-blocking)."""
    ours, theirs = socket.socketpair()
    theirs.setblocking(False)
    transport, _ = await asyncio.get_running_loop().connect_accepted_socket(asyncio.Protocol, ours)
    corked = CorkedTransport(transport)
    try:
        yield corked, theirs
    finally:
        transport.close()
        theirs.close()


def _received(peer: socket.socket) -> bytes:
    try:
        return peer.recv(1 << 20)
    except BlockingIOError:
        return b""


async def test_writes_leave_together_at_the_end_of_the_turn() -> None:
    async with corked_pair() as (corked, peer):
        corked.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
        corked.write(b"{}")
        assert corked.get_write_buffer_size() == 40
        assert _received(peer) == b""
        await asyncio.sleep(0.05)
        assert _received(peer) == b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"


async def test_an_explicit_flush_and_a_large_write_leave_at_once() -> None:
    async with corked_pair() as (corked, peer):
        corked.write(b"head ")
        corked.flush()
        await asyncio.sleep(0)  # let the transport write, but not a whole turn of ours
        first = _received(peer)
        corked.write(b"x" * FLUSH_BYTES)
        received = b""
        for _ in range(100):
            received += _received(peer)
            if len(received) == FLUSH_BYTES:
                break
            await asyncio.sleep(0.01)
    assert first == b"head "
    assert received == b"x" * FLUSH_BYTES


async def test_close_sends_what_is_pending_and_abort_drops_it() -> None:
    async with corked_pair() as (corked, peer):
        corked.write(b"last words")
        corked.close()
        await asyncio.sleep(0.05)
        assert _received(peer) == b"last words"
        assert corked.is_closing()
    async with corked_pair() as (corked, peer):
        corked.write(b"never sent")
        corked.abort()
        await asyncio.sleep(0.05)
        assert _received(peer) == b""
