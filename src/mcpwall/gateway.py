"""The gateway: starts the server, pumps lines through the `Session`, owns the lifecycle.

This is the only place that does I/O on the message path, and one of the two places that
catch every exception (the message loop: an unexpected error ends the session, fail closed,
with the audit trail flushed).

Lifecycle:
- the client closes stdin → the server's stdin is closed, it gets ``shutdown_grace_seconds``
  to exit (its last answers are still relayed), then SIGTERM, then SIGKILL; exit code 0;
- the server exits → every outstanding request is answered with UPSTREAM_UNAVAILABLE at once,
  a message goes to stderr, exit code 1;
- SIGTERM / SIGINT → the server is stopped the same way, the audit trail flushed; exit code 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable
from dataclasses import dataclass

from mcpwall import jsonrpc
from mcpwall.audit import Auditor
from mcpwall.config.models import WireSettings
from mcpwall.pipeline.runner import Pipeline
from mcpwall.session import Session
from mcpwall.transports.lines import LineReader, Oversized
from mcpwall.transports.stdio import StdioUpstream, client_streams

log = logging.getLogger(__name__)

Handler = Callable[[bytes | Oversized], None]

EXIT_OK = 0
EXIT_UPSTREAM_DIED = 1


@dataclass(slots=True)
class Outcome:
    """How a gateway run ended."""

    exit_code: int
    reason: str


class StdioGateway:
    """One client on stdio in front of one spawned stdio server.

    Args:
        server: the server identity.
        upstream: the server process (not started yet).
        pipeline: the checks.
        auditor: the audit trail.
        wire: framing limits and lifecycle timing.
    """

    def __init__(
        self,
        *,
        server: str,
        upstream: StdioUpstream,
        pipeline: Pipeline,
        auditor: Auditor,
        wire: WireSettings,
    ) -> None:
        self.server = server
        self.upstream = upstream
        self.pipeline = pipeline
        self.audit = auditor
        self.wire = wire
        self._stop = asyncio.Event()
        self._signal = ""

    async def run(self) -> Outcome:
        """Relay until the client leaves, the server dies or a signal arrives."""
        client_in, client_out = await client_streams()
        server_out, server_in = await self.upstream.start(stdout_limit=1 << 20)
        self.audit.emit("server_started", pid=self.upstream.pid, command=self.upstream.argv[0])
        session = Session(
            server=self.server,
            pipeline=self.pipeline,
            auditor=self.audit,
            to_client=client_out.write,
            to_server=server_in.write,
        )
        self._install_signals()
        try:
            outcome = await self._relay(session, client_in, server_out, client_out, server_in)
        finally:
            self._remove_signals()
        self.audit.emit("session_ended", reason=outcome.reason, exit_code=outcome.exit_code)
        with contextlib.suppress(ConnectionError):
            await client_out.drain()
        return outcome

    async def _relay(
        self,
        session: Session,
        client_in: asyncio.StreamReader,
        server_out: asyncio.StreamReader,
        client_out: asyncio.StreamWriter,
        server_in: asyncio.StreamWriter,
    ) -> Outcome:
        limit = self.wire.max_line_bytes
        client = asyncio.create_task(_pump(LineReader(client_in, limit), session.from_client, server_in))
        server = asyncio.create_task(_pump(LineReader(server_out, limit), session.from_server, client_out))
        stop = asyncio.create_task(self._stop.wait())
        done, _ = await asyncio.wait({client, server, stop}, return_when=asyncio.FIRST_COMPLETED)
        if client in done and _error_of(client) and not server.done():
            with contextlib.suppress(TimeoutError):  # a broken server pipe: let its pump see EOF
                await asyncio.wait_for(asyncio.shield(server), 1.0)
        if server.done():
            outcome = await self._server_gone(session, server)
        elif client in done:
            outcome = await self._client_gone(server, client)
        else:
            outcome = await self._shutdown(f"received {self._signal}")
        for task in (client, server, stop):
            task.cancel()
        await asyncio.gather(client, server, stop, return_exceptions=True)
        session.fail_pending(jsonrpc.UPSTREAM_UNAVAILABLE, "MCP server is not running", "ERROR")
        return outcome

    async def _server_gone(self, session: Session, pump: asyncio.Task[None]) -> Outcome:
        code = await self.upstream.wait()
        session.fail_pending(jsonrpc.UPSTREAM_UNAVAILABLE, "MCP server exited", "ERROR")
        self.audit.emit("server_exited", exit_code=code, error=_error_of(pump))
        log.error("mcpwall: MCP server %r exited unexpectedly with code %s", self.server, code)
        return Outcome(EXIT_UPSTREAM_DIED, f"server exited with code {code}")

    async def _client_gone(self, server: asyncio.Task[None], client: asyncio.Task[None]) -> Outcome:
        error = _error_of(client)
        if error:
            log.error("mcpwall: client stream failed: %s", error)
        if self.upstream.proc and self.upstream.proc.stdin:
            self.upstream.proc.stdin.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(server), self.wire.shutdown_grace_seconds)
        return await self._shutdown("client closed stdin")

    async def _shutdown(self, reason: str) -> Outcome:
        code = await self.upstream.stop(self.wire.shutdown_grace_seconds)
        self.audit.emit("server_exited", exit_code=code, reason=reason)
        return Outcome(EXIT_OK, reason)

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


async def _pump(reader: LineReader, handle: Handler, sink: asyncio.StreamWriter) -> None:
    """Feed lines to a session handler until end of stream, keeping the other side drained."""
    while (line := await reader.next()) is not None:
        try:
            handle(line)
        except Exception:
            log.exception("mcpwall: internal error while handling a message; it was not forwarded")
        await sink.drain()


def _error_of(task: asyncio.Task[None]) -> str | None:
    if task.cancelled() or not task.done():
        return None
    exc = task.exception()
    return f"{type(exc).__name__}: {exc}" if exc else None
