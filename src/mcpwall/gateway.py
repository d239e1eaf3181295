"""The gateway: starts the server, pumps lines through the `Session`, owns the lifecycle.

This is the only place that does I/O on the message path, and one of the two places that
catch every exception (the message loop: a failure while handling one message drops that
message, never forwards it).

Lines are handled in batches (every whole line already received). After each batch the audit
records are written first, with one ``write(2)``, and only then what the batch forwards: a
record is never missing for a message that went out, and pipelined traffic costs few system
calls. If the audit trail cannot be written, nothing of that batch is forwarded and the
gateway stops (fail closed).

Lifecycle:
- the client closes stdin → the server first answers what was already asked (within
  ``shutdown_grace_seconds``), then its stdin is closed, it gets ``shutdown_grace_seconds`` to
  exit, then SIGTERM, then SIGKILL; exit code 0;
- the server exits (its stdout ends) → every outstanding request is answered with
  UPSTREAM_UNAVAILABLE at once, a message goes to stderr, exit code 1; a server that closed its
  stdout but lingers is stopped like below;
- the client stops reading (its end of stdout closed: writing fails) → the server is stopped
  as below; exit code 0;
- SIGTERM / SIGINT → the server is stopped the same way, the audit trail flushed; exit code 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mcpwall import jsonrpc
from mcpwall.approvals import waiting
from mcpwall.audit import Auditor
from mcpwall.config.models import WireSettings
from mcpwall.errors import AuditError
from mcpwall.session import Policy, Session
from mcpwall.transports.lines import LineReader, Oversized
from mcpwall.transports.stdio import StdioUpstream, client_streams

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_UPSTREAM_DIED = 1
EXIT_AUDIT_FAILED = 3

Handler = Callable[[bytes | Oversized], None]


@dataclass(slots=True)
class Outcome:
    """How a gateway run ended."""

    exit_code: int
    reason: str


class _Outbox:
    """Bytes waiting to go to one side; sent after the batch's audit records are written."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.writer: asyncio.StreamWriter | None = None

    def put(self, data: bytes) -> None:
        self.buffer += data

    def send(self) -> None:
        if self.buffer and self.writer is not None and not self.writer.is_closing():
            self.writer.write(bytes(self.buffer))
        self.buffer.clear()


class StdioGateway:
    """One client on stdio in front of one spawned stdio server.

    Args:
        server: the server identity.
        upstream: the server process (not started yet).
        policy: everything that decides the session's calls.
        auditor: the audit trail.
        wire: framing limits and lifecycle timing.
    """

    def __init__(
        self,
        *,
        server: str,
        upstream: StdioUpstream,
        policy: Policy,
        auditor: Auditor,
        wire: WireSettings,
    ) -> None:
        self.policy = policy
        self._holds: set[asyncio.Task[None]] = set()
        self.server = server
        self.upstream = upstream
        self.audit = auditor
        self.wire = wire
        self._stop = asyncio.Event()
        self._signal = ""
        self._to_client = _Outbox()
        self._to_server = _Outbox()

    async def run(self) -> Outcome:
        """Relay until the client leaves, the server dies or a signal arrives."""
        client_in, self._to_client.writer = await client_streams()
        server_out, self._to_server.writer = await self.upstream.start(stdout_limit=1 << 20, respawn=False)
        self.audit.emit("server_started", pid=self.upstream.pid, command=self.upstream.argv[0])
        if self.policy.reviewer is not None:
            self.policy.reviewer.warm_up()  # compiles the catalog while the server starts
        session = Session(
            server=self.server,
            policy=self.policy,
            auditor=self.audit,
            to_client=self._to_client.put,
            to_server=self._to_server.put,
            on_hold=lambda ticket: self._hold(session, ticket),
        )
        self._install_signals()
        try:
            outcome = await self._relay(session, client_in, server_out)
        finally:
            self._remove_signals()
        self.audit.emit("session_ended", reason=outcome.reason, exit_code=outcome.exit_code)
        self._flush()
        with contextlib.suppress(ConnectionError):
            await self._to_client.writer.drain()
        return outcome

    def _hold(self, session: Session, ticket: str) -> None:
        task = asyncio.create_task(self._wait_for_decision(session, ticket))
        self._holds.add(task)
        task.add_done_callback(self._holds.discard)

    async def _wait_for_decision(self, session: Session, ticket: str) -> None:
        """Poll the shared store for a human's decision on a held call, then resume it."""
        if self.policy.gate is None:
            return
        session.resume(ticket, await waiting.decision(self.policy.gate, ticket))
        self._flush()
        if self._to_client.writer is not None:
            await self._to_client.writer.drain()

    async def _watch_timeouts(self, session: Session, limit: float) -> None:
        while True:
            await asyncio.sleep(min(1.0, limit / 4))
            session.time_out(limit)
            self._flush()

    def _flush(self) -> None:
        """Audit records first, then what the batch forwards."""
        try:
            self.audit.flush()
        except OSError as exc:
            self._to_client.buffer.clear()
            self._to_server.buffer.clear()
            raise AuditError(f"audit trail not writable: {exc}") from exc
        self._to_server.send()
        self._to_client.send()

    async def _pump(self, reader: LineReader, handle: Handler, sink: _Outbox) -> None:
        while (lines := await reader.batch()) is not None:
            for line in lines:
                try:
                    handle(line)
                except Exception:
                    log.exception("mcpwall: internal error while handling a message; it was not forwarded")
                    self.audit.emit("message_rejected", reason="internal error", direction="unknown")
            self._flush()
            if sink.writer is not None:
                await sink.writer.drain()

    async def _relay(
        self, session: Session, client_in: asyncio.StreamReader, server_out: asyncio.StreamReader
    ) -> Outcome:
        limit = self.wire.max_line_bytes
        client = asyncio.create_task(self._pump(LineReader(client_in, limit), session.from_client, self._to_server))
        server = asyncio.create_task(self._pump(LineReader(server_out, limit), session.from_server, self._to_client))
        stop = asyncio.create_task(self._stop.wait())
        if self.wire.call_timeout_seconds is not None:
            self._holds.add(asyncio.create_task(self._watch_timeouts(session, self.wire.call_timeout_seconds)))
        done, _ = await asyncio.wait({client, server, stop}, return_when=asyncio.FIRST_COMPLETED)
        if _audit_failed(client) or _audit_failed(server):
            outcome = await self._audit_failure()
        else:
            outcome = await self._conclude(session, client, server, done)
        for task in (client, server, stop, *self._holds):
            task.cancel()
        await asyncio.gather(client, server, stop, return_exceptions=True)
        session.fail_pending(jsonrpc.UPSTREAM_UNAVAILABLE, "MCP server is not running", "ERROR")
        return outcome

    async def _conclude(
        self, session: Session, client: asyncio.Task[None], server: asyncio.Task[None], done: set[asyncio.Task[Any]]
    ) -> Outcome:
        if client in done and _error_of(client) and not server.done():
            await asyncio.wait({server}, timeout=1.0)  # a broken server pipe: let its pump see EOF
        if server.done() and _client_unreachable(server):
            log.error("mcpwall: the client stopped reading (%s)", _error_of(server))
            return await self._shutdown("client closed stdout")
        if server.done():
            return await self._server_gone(session, server)
        if client in done:
            return await self._client_gone(session, server, client)
        return await self._shutdown(f"received {self._signal}")

    async def _server_gone(self, session: Session, pump: asyncio.Task[None]) -> Outcome:
        code = await self.upstream.stop(self.wire.shutdown_grace_seconds)  # its stdout ended: it is (almost) gone
        session.fail_pending(jsonrpc.UPSTREAM_UNAVAILABLE, "MCP server exited", "ERROR")
        self.audit.emit("server_exited", exit_code=code, error=_error_of(pump))
        self._flush()
        log.error("mcpwall: MCP server %r exited unexpectedly with code %s", self.server, code)
        return Outcome(EXIT_UPSTREAM_DIED, f"server exited with code {code}")

    async def _client_gone(self, session: Session, server: asyncio.Task[None], client: asyncio.Task[None]) -> Outcome:
        error = _error_of(client)
        if error:
            log.error("mcpwall: client stream failed: %s", error)
        await self._answers_in(session, server)
        self.upstream.close_stdin()
        await asyncio.wait({server}, timeout=self.wire.shutdown_grace_seconds)  # never raises the pump's error
        return await self._shutdown("client closed stdin")

    async def _answers_in(self, session: Session, server: asyncio.Task[None]) -> None:
        """Let the server answer what the client already asked (bounded by the grace period):
        many servers drop requests still in flight when their stdin closes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.wire.shutdown_grace_seconds
        while session.pending and not session.held and not server.done() and loop.time() < deadline:  # noqa: ASYNC110 -- pending is a plain dict the session updates; a bounded 10 ms poll
            await asyncio.sleep(0.01)

    async def _shutdown(self, reason: str) -> Outcome:
        code = await self.upstream.stop(self.wire.shutdown_grace_seconds)
        self.audit.emit("server_exited", exit_code=code, reason=reason)
        return Outcome(EXIT_OK, reason)

    async def _audit_failure(self) -> Outcome:
        log.critical("mcpwall: the audit trail cannot be written; stopping without forwarding")
        await self.upstream.stop(self.wire.shutdown_grace_seconds)
        return Outcome(EXIT_AUDIT_FAILED, "audit trail not writable")

    def _install_signals(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self._on_signal, sig.name)

    def _remove_signals(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)

    def _on_signal(self, name: str) -> None:
        self._signal = name
        self._stop.set()


def _error_of(task: asyncio.Task[None]) -> str | None:
    if task.cancelled() or not task.done():
        return None
    exc = task.exception()
    return f"{type(exc).__name__}: {exc}" if exc else None


def _client_unreachable(server_pump: asyncio.Task[None]) -> bool:
    """Whether the server's pump stopped because what it forwards could not be written to the client."""
    return _error_of(server_pump) is not None and isinstance(server_pump.exception(), ConnectionError)


def _audit_failed(task: asyncio.Task[None]) -> bool:
    return task.done() and not task.cancelled() and isinstance(task.exception(), AuditError)
