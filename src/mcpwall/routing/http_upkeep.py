"""The HTTP front's periodic upkeep: call timeouts, idle sessions, server health.

``mcpwall serve --stdio`` does the same for its one session in its own loop (`StdioServe`); the
HTTP front has many sessions and no loop of its own, so this task runs beside uvicorn:

- every second, a call an upstream left unanswered for ``routing.call_timeout_seconds`` is
  answered with -32053 and recorded as TIMEOUT (in its session's audit);
- a session unused for ``http.session_idle_seconds`` and with no request in flight is closed
  (``session_expired``): its requests then get 404, and its servers are released to the pool;
- every ``routing.health_interval_seconds``, each session checks its running servers.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable

from mcpwall.audit import Auditor
from mcpwall.config.models import Config
from mcpwall.routing.http_session import HttpClientSession

log = logging.getLogger(__name__)
TICK_SECONDS = 1.0


class Upkeep:
    """The upkeep of one front's sessions.

    Args:
        config: the configuration.
        sessions: the front's live sessions by id (read every tick).
        close: closes one session (removes it from ``sessions`` and stops its servers).
        audit: the front's own audit trail.
    """

    def __init__(
        self,
        config: Config,
        sessions: dict[str, HttpClientSession],
        close: Callable[[HttpClientSession], Awaitable[None]],
        audit: Auditor,
    ) -> None:
        self.config = config
        self.sessions = sessions
        self.close = close
        self.audit = audit

    async def run(self) -> None:
        """Tick until cancelled; a failing tick is logged and the next one runs."""
        next_health = time.monotonic() + self.config.routing.health_interval_seconds
        while True:
            await asyncio.sleep(TICK_SECONDS)
            health_due = time.monotonic() >= next_health
            if health_due:
                next_health = time.monotonic() + self.config.routing.health_interval_seconds
            try:
                await self.tick(time.monotonic(), health_due)
            except Exception:
                log.exception("mcpwall: the HTTP front's upkeep failed; retrying at the next tick")

    async def tick(self, now: float, health_due: bool) -> None:
        """One round: expire idle sessions, time out calls, check health when due."""
        for session in self._idle(now, list(self.sessions.values())):
            self.audit.emit(
                "session_expired",
                client_session=session.id,
                agent=session.subject,
                idle_seconds=now - session.last_used,
            )
            self.audit.flush()
            await self.close(session)
        for session in list(self.sessions.values()):
            if session.aggregate is not None:
                await session.aggregate.upkeep(health_due)
                session.flush()

    def _idle(self, now: float, sessions: Iterable[HttpClientSession]) -> list[HttpClientSession]:
        limit = self.config.http.session_idle_seconds
        return [s for s in sessions if now - s.last_used > limit and not s.waiting]
