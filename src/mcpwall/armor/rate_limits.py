"""Call-rate windows per session, in shared or local storage.

:class:`RateLimiter` counts every tools/call of a session against the ``per_session`` rate and
against each ``per_tool`` glob the tool matches (each glob has its own window per session; a
rate may hold several windows, ``"10/second;200/hour"``). A call is admitted only when every
window has room, and only admitted calls are counted: a refused call uses no quota.

Counting lives in a ``limits`` storage chosen by URI: ``memory://`` (one process) or
``redis://host:port/db`` (``rediss://``, ``redis+sentinel://``...), so several gateway processes
share the same windows. The algorithm is ``limits``' moving window (exact) or fixed window
(cheaper). The storage calls are synchronous; with a remote store, call :meth:`RateLimiter.hit`
from a worker thread in async code.
"""

from __future__ import annotations

import fnmatch
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcpwall.armor.settings import RateLimitSettings
from mcpwall.armor.violations import Violation, ViolationType, violation

if TYPE_CHECKING:
    import limits

_NAMESPACE = "mcpwall"


@dataclass(frozen=True, slots=True)
class _Window:
    scope: str
    pattern: str | None
    item: limits.RateLimitItem


class RateLimiter:
    """Per-session and per-tool-pattern call windows.

    With no rate configured there is nothing to count: no storage is opened and the ``limits``
    library is not even imported (it costs start-up time every ``mcpwall run`` would pay).
    """

    def __init__(self, settings: RateLimitSettings) -> None:
        """Open the storage and parse the rates.

        Args:
            settings: the rate-limit settings.

        Raises:
            limits.errors.ConfigurationError: the storage URI needs a driver that is not
                installed (``redis://`` needs the ``redis`` package).
        """
        self._session: tuple[_Window, ...] = ()
        self._tools: tuple[tuple[re.Pattern[str], _Window], ...] = ()
        self._storage: Any = None
        if settings.per_session or settings.per_tool:
            self._open(settings)

    def _open(self, settings: RateLimitSettings) -> None:
        import limits
        from limits.storage import storage_from_string
        from limits.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter

        self._storage = storage_from_string(settings.storage_uri)
        strategy = MovingWindowRateLimiter if settings.strategy == "moving-window" else FixedWindowRateLimiter
        self._limiter = strategy(self._storage)
        session = limits.parse_many(settings.per_session) if settings.per_session else []
        self._session = tuple(_Window("session", None, item) for item in session)
        self._tools = tuple(
            (re.compile(fnmatch.translate(pattern)), _Window("tool", pattern, item))
            for pattern, rate in settings.per_tool.items()
            for item in limits.parse_many(rate)
        )

    def hit(self, session_id: str, tool: str) -> Violation | None:
        """Count one call, unless a window is full.

        Args:
            session_id: the client session making the call.
            tool: the tool called.

        Returns:
            A ``RateLimitExceeded`` violation (the call is not counted), or None (counted).
        """
        if self._storage is None:
            return None
        windows = self._session + tuple(window for regex, window in self._tools if regex.match(tool))
        keys = [self._identifiers(window, session_id) for window in windows]
        for window, key in zip(windows, keys, strict=True):
            if not self._limiter.test(window.item, *key):
                return self._violation(window, key, session_id, tool)
        for window, key in zip(windows, keys, strict=True):
            if not self._limiter.hit(window.item, *key):
                return self._violation(window, key, session_id, tool)
        return None

    def reset(self) -> None:
        """Forget every count in the storage (tests and operator resets)."""
        if self._storage is not None:
            self._storage.reset()

    @staticmethod
    def _identifiers(window: _Window, session_id: str) -> tuple[str, ...]:
        if window.pattern is None:
            return (_NAMESPACE, "session", _escape(session_id))
        return (_NAMESPACE, "tool", _escape(window.pattern), _escape(session_id))

    def _violation(self, window: _Window, key: tuple[str, ...], session_id: str, tool: str) -> Violation:
        stats = self._limiter.get_window_stats(window.item, *key)
        retry_after = max(0.0, round(stats.reset_time - time.time(), 3))
        where = "session" if window.pattern is None else f"tools matching {window.pattern!r}"
        reason = f"rate limit {window.item} for {where} exceeded by session {session_id!r} calling {tool!r}"
        return violation(
            ViolationType.RATE_LIMIT_EXCEEDED,
            reason,
            scope=window.scope,
            pattern=window.pattern,
            limit=str(window.item),
            retry_after_seconds=retry_after,
        )


def _escape(identifier: str) -> str:
    """Keep identifiers from colliding through the storage key separator ``/``."""
    return identifier.replace("%", "%25").replace("/", "%2F")
