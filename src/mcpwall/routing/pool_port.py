"""One client session's view of a shared upstream: what an `UpstreamLink` starts and talks to.

To the link a port looks like a server of its own (the interface of `StdioUpstream`: ``start``
gives a line stream from the server and a writer for lines to it; ``stop``, ``wait``, ``pid``).
Behind it is the pool's `SharedConnection`. What the link writes has already passed its
session's checks; the port only renames ids (`SharedConnection.forward_request`), answers the
initialize of a server that is already initialized with the answer it gave first, and sends
``notifications/initialized`` only once.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import orjson

from mcpwall import jsonrpc
from mcpwall.credentials import Secrets

if TYPE_CHECKING:
    from mcpwall.routing.pool import UpstreamPool
    from mcpwall.routing.pool_connection import SharedConnection


class PoolPort:
    """A client session's attachment to one pooled server.

    Args:
        pool: the gateway's pool.
        name: the server's name in the config.
    """

    def __init__(self, pool: UpstreamPool, name: str) -> None:
        self.pool = pool
        self.name = name
        self.connection: SharedConnection | None = None
        self.evicted = False
        self._reader: asyncio.StreamReader | None = None
        self._sent: dict[str, str] = {}
        self._init_id: str | None = None
        self._ended = True
        self._waits: set[asyncio.Task[None]] = set()

    @property
    def argv(self) -> list[str]:
        return self.pool.connections[self.name].upstream.argv

    @property
    def pid(self) -> int | None:
        return self.pool.connections[self.name].pid

    @property
    def secrets(self) -> Secrets:
        return self.pool.connections[self.name].upstream.secrets

    async def start(self, stdout_limit: int) -> tuple[asyncio.StreamReader, PoolPort]:
        """Attach to the server (started by the pool if it is not running).

        Raises:
            UpstreamStartError: when the server cannot be started.
        """
        self.evicted = False
        self._reader = asyncio.StreamReader(limit=stdout_limit)
        self._ended = False
        self._sent.clear()
        self.connection = await self.pool.attach(self)
        return self._reader, self

    async def stop(self, grace: float) -> int | None:
        """Detach; the pool stops the server when no session uses it any more."""
        for task in self._waits:
            task.cancel()
        await self.pool.detach(self, grace)
        self.ended()
        return None

    async def wait(self) -> int | None:
        return None

    def close_stdin(self) -> None:
        """Nothing to close: the server is shared."""

    # ----- the writer the link's session output goes to -----------------------------------------

    def write(self, data: bytes) -> None:
        """Take the lines the session let through."""
        for line in data.split(b"\n"):
            if line.strip():
                self._out(orjson.loads(line))

    def is_closing(self) -> bool:
        return self.connection is None or not self.connection.running

    async def drain(self) -> None:
        return None

    def close(self) -> None:
        """Nothing to close: the server is shared."""

    def _out(self, message: dict[str, Any]) -> None:
        connection = self.connection
        if connection is None or not isinstance(message, dict):
            return
        method = message.get("method")
        if method == "initialize" and "id" in message:
            self._initialize(connection, message)
        elif method is not None and "id" in message:
            self._sent[_key(message["id"])] = connection.forward_request(self, message)
        elif method == "notifications/initialized":
            if not connection.initialized_sent:
                connection.initialized_sent = True
                connection.send(message)
        elif method == "notifications/cancelled":
            self._cancel(connection, message)
        elif method is not None or connection.server_requests.pop(_key(message.get("id")), None) is self:
            connection.send(message)

    def _cancel(self, connection: SharedConnection, message: dict[str, Any]) -> None:
        params = message.get("params")
        params = params if isinstance(params, dict) else {}
        wire_id = self._sent.get(_key(params.get("requestId")))
        if wire_id is not None:
            connection.send({**message, "params": {**params, "requestId": wire_id}})

    def _initialize(self, connection: SharedConnection, message: dict[str, Any]) -> None:
        """The first session's initialize goes to the server; later ones get its answer."""
        if connection.init is None:
            connection.init = asyncio.get_running_loop().create_future()
            self._init_id = _key(message["id"])
            self._sent[_key(message["id"])] = connection.forward_request(self, message)
            return
        task = asyncio.create_task(self._initialized(connection.init, message["id"]))
        self._waits.add(task)
        task.add_done_callback(self._waits.discard)

    async def _initialized(self, answer: asyncio.Future[dict[str, Any]], request_id: Any) -> None:
        self.deliver({**(await answer), "id": request_id})
        self.flush()

    # ----- from the connection ----------------------------------------------------------------

    def answered(self, message: dict[str, Any]) -> None:
        """The answer to one of this port's requests (with this port's id)."""
        key = _key(message.get("id"))
        self._sent.pop(key, None)
        connection = self.connection
        if key == self._init_id and connection is not None and connection.init is not None:
            self._init_id = None
            if not connection.init.done():
                connection.init.set_result(message)
            if "result" not in message:
                connection.init = None  # the next session tries again
        self.deliver(message)

    def deliver(self, message: dict[str, Any]) -> None:
        """A message for this port's session."""
        if self._reader is not None and not self._ended:
            self._reader.feed_data(jsonrpc.dump(message))

    def flush(self) -> None:
        """Nothing buffered here: the link reads what was delivered."""

    def ended(self) -> None:
        """The server is gone (or this port detached): the link sees its stream end."""
        if self._reader is not None and not self._ended:
            self._reader.feed_eof()
        self._ended = True
        self.connection = None


def _key(request_id: Any) -> str:
    return orjson.dumps(request_id).decode()
