"""One upstream behind the aggregate gateway: its process, its own policy session, its pump.

The aggregate speaks to each upstream as an MCP client would (initialize, then requests), but
through a `Session`: every message to and from the upstream passes that server's checks,
inspection, gatekeeper, armor and audit exactly as under ``mcpwall run``. What the session lets
back out comes to the aggregate as parsed objects (`Delivery`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import orjson

from mcpwall import jsonrpc
from mcpwall.approvals import waiting
from mcpwall.audit import Auditor
from mcpwall.routing import handshake
from mcpwall.routing.eras import UpstreamEra
from mcpwall.routing.pool_port import PoolPort
from mcpwall.session import Policy, Session
from mcpwall.transports.http_upstream import HttpUpstream
from mcpwall.transports.lines import LineReader
from mcpwall.transports.stdio import StdioUpstream

log = logging.getLogger(__name__)

Delivery = Callable[["UpstreamLink", dict[str, Any]], None]
"""Receives what an upstream's session sends toward the client."""


class UpstreamLink:
    """A started (or startable) upstream server.

    Args:
        name: the server's name in the config (its identity for pins, policy and audit).
        upstream: its attachment to the pooled server, or a process of its own (not started).
        policy: its checks and approvals.
        auditor: its audit trail (shared chain, this server's identity).
        deliver: where its answers and notifications go.
        flush: writes the audit records and every pending output (the aggregate's).
        max_line: the longest line accepted from the server (``wire.max_line_bytes``); a longer
            one is refused by the session as under ``mcpwall run`` (audited; the request it
            answers gets an error; nothing forwarded).
    """

    def __init__(
        self,
        name: str,
        upstream: PoolPort | StdioUpstream | HttpUpstream,
        policy: Policy,
        auditor: Auditor,
        deliver: Delivery,
        flush: Callable[[], None],
        max_line: int,
    ) -> None:
        self.name = name
        self.upstream = upstream
        self.policy = policy
        self.audit = auditor
        self.deliver = deliver
        self.flush = flush
        self.max_line = max_line
        self.session: Session | None = None
        self.writer: Any = None
        self.outbox = bytearray()
        self.pump: asyncio.Task[None] | None = None
        self.last_used = time.monotonic()
        self.waiters: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._holds: set[asyncio.Task[None]] = set()
        self._ids = 0
        self.failures = 0
        self.retry_at = 0.0
        self.era = UpstreamEra()

    @property
    def running(self) -> bool:
        return self.pump is not None and not self.pump.done()

    @property
    def busy(self) -> bool:
        return self.session is not None and bool(self.session.pending)

    async def start(self, client_capabilities: dict[str, Any], within: float, *, modern: bool = False) -> None:
        """Spawn the server, wire its session, and do the handshake in the client's era (`handshake`)."""
        reader, self.writer = await self.upstream.start(stdout_limit=1 << 20)
        self.audit.emit("server_started", pid=self.upstream.pid, command=self.upstream.argv[0])
        self.session = Session(
            server=self.name,
            policy=self.policy,
            auditor=self.audit,
            to_client=self._from_session,
            to_server=self._to_server,
            on_hold=self._hold,
        )
        self.pump = asyncio.create_task(self._pump(LineReader(reader, self.max_line)))
        self.era = await handshake.open_upstream(self, client_capabilities, within, modern=modern)
        self.flush()

    def _to_server(self, line: bytes) -> None:
        """What the session lets through, in this upstream's era (only the envelope changes)."""
        self.outbox.extend(self.era.adapt(line))

    async def request(
        self, method: str, params: dict[str, Any] | None, within: float, request_id: str | None = None
    ) -> dict[str, Any]:
        """A request of the aggregate's own (not the client's); its result, or an error object."""
        if self.pump is None or self.pump.done():
            return jsonrpc.error(request_id, jsonrpc.UPSTREAM_UNAVAILABLE, "MCP server is not running")
        self._ids += 1
        request_id = request_id or f"mcpwall-{self._ids}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiters[request_id] = future
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            body["params"] = params
        self.send(body)
        self.flush()
        try:
            return await asyncio.wait_for(future, within)
        finally:
            self.waiters.pop(request_id, None)

    def send(self, message: dict[str, Any]) -> None:
        """Give a client-side message to this upstream's session (checked there)."""
        assert self.session is not None  # noqa: S101 -- only after start()
        self.last_used = time.monotonic()
        self.session.from_client(jsonrpc.dump(message).rstrip(b"\n"))

    def write_out(self) -> None:
        """Send what the session let through to the server."""
        if self.outbox and self.writer is not None and not self.writer.is_closing():
            self.writer.write(bytes(self.outbox))
        self.outbox.clear()

    async def stop(self, grace: float) -> None:
        """Stop the server (evicted, or the gateway is closing); its pins are unaffected."""
        for task in (*self._holds, *([self.pump] if self.pump else [])):
            task.cancel()
        code = await self.upstream.stop(grace)
        self.audit.emit("server_exited", exit_code=code, reason="stopped by the gateway")
        self.pump = None

    def _from_session(self, line: bytes) -> None:
        message = orjson.loads(line)
        waiter = self.waiters.get(str(message.get("id"))) if "method" not in message else None
        if waiter is not None and not waiter.done():
            waiter.set_result(message)
        else:
            self.deliver(self, message)

    async def _pump(self, reader: LineReader) -> None:
        try:
            while (lines := await reader.batch()) is not None:
                for line in lines:
                    self._handle(line)
                self.flush()
        finally:
            if getattr(self.upstream, "evicted", False):
                self.pump = None  # stopped by the pool to make room: not a failure, no back-off
            self._gone()

    def _handle(self, line: object) -> None:
        assert self.session is not None  # noqa: S101 -- the pump runs after start()
        try:
            self.session.from_server(line)  # type: ignore[arg-type] # a line or an Oversized marker
        except Exception:
            log.exception("mcpwall: internal error on a message from %s; it was not forwarded", self.name)

    def failed(self, max_backoff: float) -> None:
        """Count a crash or failed start: the second in a row starts a growing back-off."""
        self.failures += 1
        delay = 0.0 if self.failures < 2 else min(max_backoff, 2.0 ** (self.failures - 2))
        self.retry_at = time.monotonic() + delay

    def _gone(self) -> None:
        if self.session is not None:
            self.session.fail_pending(jsonrpc.UPSTREAM_UNAVAILABLE, "MCP server is not running", "ERROR")
        for waiter in self.waiters.values():
            if not waiter.done():
                waiter.set_result(jsonrpc.error(None, jsonrpc.UPSTREAM_UNAVAILABLE, "MCP server is not running"))
        self.audit.emit("server_exited", reason="stream closed")
        with contextlib.suppress(Exception):
            self.flush()

    def _hold(self, ticket: str) -> None:
        task = asyncio.create_task(self._wait(ticket))
        self._holds.add(task)
        task.add_done_callback(self._holds.discard)

    async def _wait(self, ticket: str) -> None:
        if self.policy.gate is None or self.session is None:
            return
        self.session.resume(ticket, await waiting.decision(self.policy.gate, ticket))
        self.flush()
