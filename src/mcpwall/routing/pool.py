"""The gateway's pool of upstream servers, shared by every client session of one process.

Each configured server runs at most once per gateway process (`SharedConnection`), started
lazily when a session first needs it; at most ``routing.pool_size`` run at once, and to start
another the least recently used idle one (no request in flight from any session) is stopped.
A stopped server keeps its pins and starts again on its next use. A server no session is
attached to any more is stopped. Sessions attach through a `PoolPort` each, so policy, approvals,
budgets, rate limits and audit stay those of each session (its `UpstreamLink`).

Events (session ``pool``): ``pool_server_started`` (pid), ``upstream_evicted``,
``pool_server_stopped``, ``pool_server_exited``.
"""

from __future__ import annotations

import asyncio
import contextlib

from mcpwall.audit import AuditChain, Auditor
from mcpwall.config.models import Config
from mcpwall.launch import prepare_http_upstream, prepare_upstream
from mcpwall.routing.pool_connection import SharedConnection
from mcpwall.routing.pool_port import PoolPort
from mcpwall.routing.settings import RoutingSettings
from mcpwall.transports.http_upstream import HttpUpstream
from mcpwall.transports.stdio import StdioUpstream


class UpstreamPool:
    """Every configured server, each started at most once.

    Args:
        config: the configuration (its ``servers`` and ``routing``).
        chain: the gateway's audit chain.

    Raises:
        ConfigError: when a credential reference cannot be resolved.
    """

    def __init__(self, config: Config, chain: AuditChain) -> None:
        self.settings: RoutingSettings = config.routing
        self.audit = Auditor(chain, session="pool", server="mcpwall")
        self.connections: dict[str, SharedConnection] = {}
        self.identities: dict[str, str] = {}
        for name in config.servers:
            upstream: StdioUpstream | HttpUpstream
            if config.servers[name].url:
                upstream, identity, _ = prepare_http_upstream(config, name)
            else:
                upstream, identity, _ = prepare_upstream(config, name, [])
            self.identities[name] = identity
            self.connections[name] = SharedConnection(name, upstream, self.audit, config.wire.max_line_bytes)
        self._lock = asyncio.Lock()

    def port(self, name: str) -> PoolPort:
        """A new session's attachment to server ``name``."""
        return PoolPort(self, name)

    async def attach(self, port: PoolPort) -> SharedConnection:
        """The running server of ``port`` (started first, making room, when it is not).

        Raises:
            UpstreamStartError: when it cannot be started.
        """
        async with self._lock:
            connection = self.connections[port.name]
            if not connection.running:
                await self._make_room()
                await connection.start()
                self.audit.emit("pool_server_started", upstream=port.name, pid=connection.pid)
                self.audit.flush()
            connection.ports.add(port)
            return connection

    async def detach(self, port: PoolPort, grace: float) -> None:
        """A session is done with a server; the last one out stops it."""
        async with self._lock:
            connection = self.connections[port.name]
            connection.forget(port)
            if not connection.ports and connection.running:
                await self._stop(connection, grace, "no session uses it")

    async def close(self, grace: float) -> None:
        """Stop every running server (the gateway is closing)."""
        async with self._lock:
            for connection in self.connections.values():
                if connection.running:
                    await self._stop(connection, grace, "the gateway is closing")

    async def _make_room(self) -> None:
        running = [c for c in self.connections.values() if c.running]
        if len(running) < self.settings.pool_size:
            return
        idle = sorted((c for c in running if not c.busy), key=lambda c: c.last_used)
        if idle:
            self.audit.emit("upstream_evicted", upstream=idle[0].name)
            for port in idle[0].ports:
                port.evicted = True
            await self._stop(idle[0], 5.0, "evicted")

    async def _stop(self, connection: SharedConnection, grace: float, reason: str) -> None:
        pid = connection.pid
        code = await connection.stop(grace)
        self.audit.emit("pool_server_stopped", upstream=connection.name, pid=pid, exit_code=code, reason=reason)
        with contextlib.suppress(OSError):
            self.audit.flush()
