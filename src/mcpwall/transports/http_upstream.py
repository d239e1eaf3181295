"""An upstream reached over HTTP (Streamable HTTP, or the legacy 2024-11-05 HTTP+SSE transport).

The MCP SDK's client transports do the HTTP work (sessions, SSE streams, protocol headers);
this adapter turns them into the same line streams a stdio server gives, so the server's
`Session` checks and records its messages exactly as for a spawned process. Header values may
be credential references: they are resolved here, sent only to this server, and redacted if it
echoes them back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from contextlib import AsyncExitStack
from typing import Any, Literal

import orjson

from mcpwall.credentials import Secrets
from mcpwall.errors import UpstreamStartError

log = logging.getLogger(__name__)

Kind = Literal["streamable-http", "sse"]


class HttpUpstream:
    """A server at a URL.

    Args:
        url: the MCP endpoint.
        headers: extra request headers (already resolved).
        kind: ``streamable-http`` or ``sse`` (legacy).
        secrets: the credentials among the header values.
    """

    def __init__(self, url: str, headers: dict[str, str], kind: Kind, secrets: Secrets) -> None:
        self.argv = [url]
        self.url = url
        self.headers = headers
        self.kind = kind
        self.secrets = secrets
        self.pid: int | None = None
        self._stack: AsyncExitStack | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._closed = asyncio.Event()

    async def start(self, stdout_limit: int) -> tuple[asyncio.StreamReader, _MessageWriter]:
        """Connect; the server's messages as lines, and a writer that takes lines.

        Raises:
            UpstreamStartError: when the transport cannot be opened.
        """
        self._stack = AsyncExitStack()
        try:
            read, write = await self._stack.enter_async_context(self._transport())
        except Exception as exc:  # third-party transport errors are translated at this edge
            await self._stack.aclose()
            raise UpstreamStartError(f"cannot reach {self.url}: {exc}") from exc
        reader = asyncio.StreamReader(limit=stdout_limit)
        writer = _MessageWriter(write)
        self._tasks = [asyncio.create_task(self._pump(read, reader)), asyncio.create_task(writer.run())]
        return reader, writer

    def _transport(self) -> Any:
        import httpx2  # the SDK's HTTP client, imported only for HTTP upstreams

        if self.kind == "sse":
            from mcp.client.sse import sse_client

            return sse_client(self.url, headers=self.headers)
        from mcp.client.streamable_http import streamable_http_client

        client = httpx2.AsyncClient(headers=self.headers, timeout=httpx2.Timeout(30.0, read=300.0))
        return _owning(client, streamable_http_client(self.url, http_client=client))

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
            self._closed.set()

    async def wait(self) -> int | None:
        """Wait until the connection is closed."""
        await self._closed.wait()
        return None

    def close_stdin(self) -> None:
        """Nothing to close before stopping: the connection closes in `stop`."""

    async def stop(self, grace: float) -> int | None:
        """Close the connection (the SDK ends the HTTP session)."""
        for task in self._tasks:
            task.cancel()
        if self._stack is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._stack.aclose(), grace)
        self._closed.set()
        return None


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


@contextlib.asynccontextmanager
async def _owning(client: Any, transport: Any) -> Any:
    async with client, transport as streams:
        yield streams
