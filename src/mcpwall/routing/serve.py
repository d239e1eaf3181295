"""``mcpwall serve --stdio``: the aggregate gateway on this process's stdin/stdout."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import uuid
from collections.abc import Sequence

from mcpwall.audit import AuditChain
from mcpwall.config.models import Config
from mcpwall.inspection.catalog import builtin_rules, warm_up
from mcpwall.inspection.review import prepare_detector
from mcpwall.routing.build import build_aggregate
from mcpwall.routing.pool import UpstreamPool
from mcpwall.state import AUDIT_FILE, state_dir
from mcpwall.store import Store, default_store
from mcpwall.transports.lines import LineReader
from mcpwall.transports.stdio import client_streams


class StdioServe:
    """One client on stdio, every configured server behind it.

    Args:
        config: the configuration (its ``servers`` are the upstreams).
        profiles: gatekeeper profiles for this client's session.
    """

    def __init__(self, config: Config, profiles: Sequence[str] = ()) -> None:
        self.config = config
        self.session = uuid.uuid4().hex
        self.chain = AuditChain(state_dir(config.state_dir) / AUDIT_FILE)
        self.store: Store = default_store(config.state_dir)
        self.outbox = bytearray()
        self.writer: asyncio.StreamWriter | None = None
        self.pool = UpstreamPool(config, self.chain)
        self.aggregate = build_aggregate(
            config,
            session=self.session,
            chain=self.chain,
            store=self.store,
            pool=self.pool,
            send=self.outbox.extend,
            flush=self.flush,
            profiles=profiles,
        )

    def flush(self) -> None:
        """Audit records, then the servers' input, then the client's output."""
        self.aggregate.flush()
        if self.outbox and self.writer is not None and not self.writer.is_closing():
            self.writer.write(bytes(self.outbox))
        self.outbox.clear()

    async def run(self) -> int:
        """Serve until the client closes stdin or a signal arrives; the exit code."""
        reader, self.writer = await client_streams()
        rules = builtin_rules()
        # the detector's rules compile while the first servers start, then the prefilter's long lists decode
        warm_up(rules, then=lambda: prepare_detector(rules))
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        pump = asyncio.create_task(self._pump(LineReader(reader, self.config.wire.max_line_bytes)))
        watch = asyncio.create_task(self._watch())
        waiter = asyncio.create_task(stop.wait())
        await asyncio.wait({pump, waiter}, return_when=asyncio.FIRST_COMPLETED)
        self.aggregate.closing = True
        for task in (pump, watch, waiter, *self.aggregate.tasks):
            task.cancel()
        await self._close()
        return 0

    async def _pump(self, reader: LineReader) -> None:
        while (lines := await reader.batch()) is not None:
            for line in lines:
                self.aggregate.from_client(line)
            self.flush()
            if self.writer is not None:
                await self.writer.drain()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.gather(*self.aggregate.tasks, return_exceptions=True), 30)

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        next_health = loop.time() + self.config.routing.health_interval_seconds
        while True:
            await asyncio.sleep(1.0)
            health_due = loop.time() >= next_health
            if health_due:
                next_health = loop.time() + self.config.routing.health_interval_seconds
            await self.aggregate.upkeep(health_due)
            self.flush()

    async def _close(self) -> None:
        for link in self.aggregate.links.values():
            if link.running:
                await link.stop(self.config.wire.shutdown_grace_seconds)
        await self.pool.close(self.config.wire.shutdown_grace_seconds)
        self.aggregate.audit.emit("session_ended", reason="client closed or signal")
        self.flush()
        if self.writer is not None:
            with contextlib.suppress(ConnectionError):
                await self.writer.drain()
        self.chain.close()
