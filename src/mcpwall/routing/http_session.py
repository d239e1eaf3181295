"""One client session of the HTTP front: an `Aggregate`, and the queues its answers go to.

The aggregate writes lines; a line that answers a pending POST resolves that POST's future, and
everything else (notifications, server-to-client requests, answers nobody waits for) goes to the
session's event queue, streamed on the POST's SSE response or on the GET stream.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator
from typing import Any

import orjson

from mcpwall.routing.aggregate import Aggregate


class HttpClientSession:
    """The state of one ``Mcp-Session-Id``.

    Args:
        session_id: the id given to the client.
        subject: the authenticated agent (None when the front needs no identity).
    """

    def __init__(self, session_id: str, subject: str | None) -> None:
        self.id = session_id
        self.subject = subject
        self.aggregate: Aggregate | None = None
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=10_000)
        self.arrived = asyncio.Event()
        self.last_used = time.monotonic()

    def touch(self) -> None:
        """The client used the session now (an idle session is closed after a while)."""
        self.last_used = time.monotonic()

    def send(self, line: bytes) -> None:
        """Receive one line the aggregate sends toward the client."""
        message = orjson.loads(line)
        future = self.waiting.get(_key(message.get("id"))) if "method" not in message else None
        if future is not None and not future.done():
            future.set_result(message)
        elif not self.events.full():
            self.events.put_nowait(message)
        self.arrived.set()

    async def stream_until(
        self, answer: asyncio.Future[dict[str, Any]], within: float
    ) -> AsyncGenerator[dict[str, Any], None]:
        """The session's other messages while ``answer`` is awaited, then the answer itself.

        Raises:
            TimeoutError: when ``answer`` has not come within ``within`` seconds.
        """
        deadline = asyncio.get_running_loop().time() + within
        while True:
            if not self.events.empty():
                yield self.events.get_nowait()
            elif answer.done():
                yield answer.result()
                return
            else:
                self.arrived.clear()
                async with asyncio.timeout_at(deadline):
                    await self.arrived.wait()

    def in_flight(self, request_id: object) -> bool:
        """Whether a request with this id is still waiting for its answer (the id is taken)."""
        return _key(request_id) in self.waiting

    def expect(self, request_id: object) -> asyncio.Future[dict[str, Any]]:
        """A future for the answer to a request the client just posted."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[_key(request_id)] = future
        return future

    def done(self, request_id: object) -> None:
        self.waiting.pop(_key(request_id), None)

    def flush(self) -> None:
        """Audit records, then what goes to the servers (answers go out through the queues)."""
        if self.aggregate is not None:
            self.aggregate.flush()

    async def close(self, grace: float) -> None:
        """Detach from every server (the pool stops those no session uses any more)."""
        if self.aggregate is None:
            return
        self.aggregate.closing = True
        for task in self.aggregate.tasks:
            task.cancel()
        for link in self.aggregate.links.values():
            if link.running:
                await link.stop(grace)
        self.aggregate.audit.emit("session_ended", reason="closed")
        self.flush()


def _key(request_id: object) -> str:
    return orjson.dumps(request_id).decode()
