"""One running upstream (a process, or an HTTP session) shared by every client session.

Each client session speaks to the server through its own `PoolPort` (and behind it its own
policy `Session`, so every message is checked and audited per agent session and per real
server). The connection multiplexes the ports on one wire:

- a port's request goes out under an id of the connection's (``p1``, ``p2`` ...) and its answer
  comes back to that port under the port's own id; a progress token is renamed the same way, so
  progress reaches the session that asked;
- a request or notification the server starts on its own (sampling, elicitation, roots, log
  messages) that came on the SSE stream answering one request (Streamable HTTP) goes to the port
  that sent that request, however many others are in flight; one from stdio or the GET stream
  goes to the one port with requests in flight; when several have (that wire does not tell
  which caused it), or the request it came with is nobody's any more, a request is refused with
  an error to the server and a notification dropped, both audited (fail closed: never shown to
  the wrong agent);
- ``list_changed`` notifications go to every port;
- the initialize handshake happens once; later ports get the same answer (`PoolPort`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections import deque
from typing import TYPE_CHECKING, Any

import orjson

from mcpwall import jsonrpc
from mcpwall.audit import Auditor
from mcpwall.transports.http_upstream import HttpUpstream, Origin
from mcpwall.transports.lines import LineReader, Oversized
from mcpwall.transports.stdio import StdioUpstream

if TYPE_CHECKING:
    from mcpwall.routing.pool_port import PoolPort

log = logging.getLogger(__name__)

_SNIFF_ID = re.compile(rb'"id"\s*:\s*"(p\d+)"')


class SharedConnection:
    """A configured server, started at most once for the whole gateway.

    Args:
        name: the server's name in the config.
        upstream: its transport (not started).
        auditor: the pool's audit trail.
        max_line: the longest line accepted from the server (``wire.max_line_bytes``).
    """

    def __init__(self, name: str, upstream: StdioUpstream | HttpUpstream, auditor: Auditor, max_line: int) -> None:
        self.name = name
        self.upstream = upstream
        self.audit = auditor
        self.max_line = max_line
        self._origins: deque[Origin] | None = None
        self.ports: set[PoolPort] = set()
        self.requests: dict[str, tuple[PoolPort, jsonrpc.RequestId]] = {}
        self.progress: dict[str, tuple[PoolPort, Any]] = {}
        self.server_requests: dict[str, PoolPort] = {}
        self.init: asyncio.Future[dict[str, Any]] | None = None
        self.initialized_sent = False
        self.last_used = time.monotonic()
        self.pid: int | None = None
        self._writer: Any = None
        self._pump: asyncio.Task[None] | None = None
        self._ids = 0

    @property
    def running(self) -> bool:
        return self._pump is not None and not self._pump.done()

    @property
    def busy(self) -> bool:
        return bool(self.requests) or (self.init is not None and not self.init.done())

    async def start(self) -> None:
        """Start the server (or connect); its handshake is done by the first port.

        Raises:
            UpstreamStartError: when it cannot be started.
        """
        if self._pump is not None:  # it ended on its own (crashed): reap it before starting again
            await self.upstream.stop(1.0)
        reader, self._writer = await self.upstream.start(stdout_limit=1 << 20)
        self.pid = self.upstream.pid
        self.init, self.initialized_sent = None, False
        self._origins = None
        if isinstance(self.upstream, HttpUpstream) and self.upstream.kind == "streamable-http":
            self._origins = self.upstream.track_origins()
        self._pump = asyncio.create_task(self._read(LineReader(reader, self.max_line)))

    async def stop(self, grace: float) -> int | None:
        """Stop the server; every attached port sees its stream end."""
        code = await self.upstream.stop(grace)
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
        self._pump = None
        return code

    # ----- toward the server ------------------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        """Write one message to the server."""
        self.last_used = time.monotonic()
        if self._writer is not None and not self._writer.is_closing():
            self._writer.write(jsonrpc.dump(message))

    def forward_request(self, port: PoolPort, message: dict[str, Any]) -> str:
        """Send a port's request under an id of the connection's; that id."""
        self._ids += 1
        wire_id = f"p{self._ids}"
        self.requests[wire_id] = (port, message["id"])
        params = message.get("params")
        meta = params.get("_meta") if isinstance(params, dict) else None
        if isinstance(params, dict) and isinstance(meta, dict) and "progressToken" in meta:
            token = f"mcpwall-progress-{self._ids}"
            self.progress[token] = (port, meta["progressToken"])
            params = {**params, "_meta": {**meta, "progressToken": token}}
            message = {**message, "params": params}
        self.send({**message, "id": wire_id})
        return wire_id

    def forget(self, port: PoolPort) -> None:
        """A port went away: its requests and server requests are nobody's now."""
        self.ports.discard(port)
        for table in (self.requests, self.progress):
            for key in [k for k, (owner, _) in table.items() if owner is port]:
                del table[key]
        for key in [k for k, owner in self.server_requests.items() if owner is port]:
            del self.server_requests[key]

    # ----- from the server --------------------------------------------------------------------

    async def _read(self, reader: LineReader) -> None:
        try:
            while (lines := await reader.batch()) is not None:
                for line in lines:
                    self._route(line, self._origin(line))
                for port in list(self.ports):
                    port.flush()
        finally:
            self._gone()

    def _origin(self, line: bytes | Oversized) -> Any:
        """The wire id of the request whose SSE stream carried ``line`` (None: stdio or GET stream).

        The upstream records one origin per line it hands over, with the line's length; a length
        that does not match means the two are out of step: origins are not used again (the rule
        for stdio applies, which refuses what it cannot attribute).
        """
        if not self._origins:
            return None
        origin, size = self._origins.popleft()
        if size != (line.size if isinstance(line, Oversized) else len(line)):
            log.error("mcpwall: the origins of %s's messages are out of step; no longer used", self.name)
            self._origins = None
            return None
        return origin

    def _route(self, line: bytes | Oversized, origin: Any = None) -> None:
        if isinstance(line, Oversized):
            self._oversized(line)
            return
        try:
            message = orjson.loads(line)
        except orjson.JSONDecodeError:
            message = None
        if not isinstance(message, dict):
            self.audit.emit("message_rejected", direction="server", upstream=self.name, reason="not a JSON object")
            return
        method = message.get("method")
        if method is None:
            self._answer(message)
        elif "id" in message:
            self._server_request(message, origin)
        else:
            self._notification(message, method, origin)

    def _answer(self, message: dict[str, Any]) -> None:
        wire_id = str(message.get("id"))
        owner = self.requests.pop(wire_id, None)
        if owner is None:
            self.audit.emit("response_dropped", direction="server", upstream=self.name, id=message.get("id"))
            return
        self.progress.pop(f"mcpwall-progress-{wire_id[1:]}", None)
        owner[0].answered({**message, "id": owner[1]})

    def _server_request(self, message: dict[str, Any], origin: Any) -> None:
        port = self._recipient(origin)
        if port is None:
            self.audit.emit("message_rejected", direction="server", upstream=self.name, reason=_unowned(origin))
            text = "mcpwall cannot tell which client session this request belongs to"
            self.send(jsonrpc.error(message["id"], jsonrpc.MESSAGE_REJECTED, text))
            return
        self.server_requests[_key(message["id"])] = port
        port.deliver(message)

    def _notification(self, message: dict[str, Any], method: Any, origin: Any) -> None:
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        if isinstance(method, str) and method.endswith("/list_changed"):
            for port in list(self.ports):
                port.deliver(message)
        elif method == "notifications/progress" and isinstance(params, dict):
            owner = self.progress.get(str(params.get("progressToken")))
            if owner is not None:
                owner[0].deliver({**message, "params": {**params, "progressToken": owner[1]}})
        elif method == "notifications/cancelled" and isinstance(params, dict):
            asked = self.server_requests.pop(_key(params.get("requestId")), None)
            if asked is not None:
                asked.deliver(message)
        elif (cause := self._recipient(origin)) is not None:
            cause.deliver(message)
        else:
            self.audit.emit("message_rejected", direction="server", upstream=self.name, reason=_unowned(origin))

    def _recipient(self, origin: Any) -> PoolPort | None:
        """Where a message the server started goes: the port whose request's stream carried it,
        else (stdio, GET stream) the one port that can have caused it."""
        if origin is None:
            return self._cause()
        owner = self.requests.get(str(origin))
        return owner[0] if owner is not None else None

    def _cause(self) -> PoolPort | None:
        """The one port with requests in flight (or the only port), if there is exactly one."""
        busy = {port for port, _ in self.requests.values()} or self.ports
        return next(iter(busy)) if len(busy) == 1 else None

    def _oversized(self, line: Oversized) -> None:
        found = _SNIFF_ID.search(line.prefix)
        owner = self.requests.pop(found.group(1).decode(), None) if found else None
        self.audit.emit(
            "message_rejected", direction="server", upstream=self.name, reason="line too long", size=line.size
        )
        if owner is not None:
            text = "server response too large"
            owner[0].answered(jsonrpc.error(owner[1], jsonrpc.MESSAGE_REJECTED, text, {"size": line.size}))

    def _gone(self) -> None:
        self.audit.emit("pool_server_exited", upstream=self.name, pid=self.pid)
        with contextlib.suppress(OSError):
            self.audit.flush()
        for port in list(self.ports):
            port.ended()
        self.ports.clear()
        self.requests.clear()
        self.progress.clear()
        self.server_requests.clear()
        if self.init is not None and not self.init.done():
            self.init.set_result(jsonrpc.error(None, jsonrpc.UPSTREAM_UNAVAILABLE, "MCP server is not running"))


def _unowned(origin: Any) -> str:
    """Why a message the server started reaches no session (for the audit record)."""
    return "no single session" if origin is None else "its request has no session any more"


def _key(request_id: Any) -> str:
    return orjson.dumps(request_id).decode()
