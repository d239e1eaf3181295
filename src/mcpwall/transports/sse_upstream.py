"""A server on the legacy 2024-11-05 HTTP+SSE transport, through the MCP SDK's client.

The SDK does the HTTP work (the event stream, the POST endpoint it announces); this adapter turns
it into the same line streams a stdio server gives, so the server's `Session` checks and records
its messages exactly as for a spawned process. Streamable HTTP servers do not come here: they use
mcpwall's own lean client (`http_upstream`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from contextlib import AsyncExitStack
from typing import Any

import orjson

from mcpwall.errors import UpstreamStartError

log = logging.getLogger(__name__)


class SseUpstream:
    """A legacy HTTP+SSE server at a URL.

    Args:
        url: the SSE endpoint.
        headers: extra request headers (already resolved).
    """

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        self.url = url
        self.headers = headers
        self._stack: AsyncExitStack | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.closed = asyncio.Event()

    async def start(self, stdout_limit: int) -> tuple[asyncio.StreamReader, _MessageWriter]:
        """Connect; the server's messages as lines, and a writer that takes lines.

        Raises:
            UpstreamStartError: when the transport cannot be opened.
        """
        from mcp.client.sse import sse_client  # the SDK, imported only for legacy SSE servers

        self._stack = AsyncExitStack()
        try:
            read, write = await self._stack.enter_async_context(sse_client(self.url, headers=self.headers))
        except Exception as exc:  # third-party transport errors are translated at this edge
            await self._stack.aclose()
            raise UpstreamStartError(f"cannot reach {self.url}: {exc}") from exc
        reader = asyncio.StreamReader(limit=stdout_limit)
        writer = _MessageWriter(write)
        self._tasks = [asyncio.create_task(self._pump(read, reader)), asyncio.create_task(writer.run())]
        return reader, writer

    async def _pump(self, read: Any, reader: asyncio.StreamReader) -> None:
        try:
            async for item in read:
                if isinstance(item, Exception):
                    log.warning("mcpwall: %s sent something unreadable: %s", self.url, item)
                    continue
                message = item.message.model_dump(by_alias=True, exclude_none=True, mode="json")
                reader.feed_data(orjson.dumps(message) + b"\n")
        finally:
            reader.feed_eof()
            self.closed.set()

    async def stop(self, grace: float) -> None:
        """Close the connection."""
        for task in self._tasks:
            task.cancel()
        if self._stack is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._stack.aclose(), grace)
        self.closed.set()


class _MessageWriter:
    """Takes JSON lines (what the session forwards) and sends them as SDK messages, in order."""

    def __init__(self, write: Any) -> None:
        self._write = write
        self._queue: asyncio.Queue[bytes] = asyncio.Queue()
        self._closing = False

    def write(self, data: bytes) -> None:
        for line in data.splitlines():
            if line.strip():
                self._queue.put_nowait(line)

    async def drain(self) -> None:
        return None

    def is_closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        self._closing = True

    async def run(self) -> None:
        from mcp.shared.message import SessionMessage
        from mcp_types import JSONRPCMessage
        from pydantic import TypeAdapter

        adapter: TypeAdapter[Any] = TypeAdapter(JSONRPCMessage)
        while True:
            line = await self._queue.get()
            await self._write.send(SessionMessage(adapter.validate_json(line)))
