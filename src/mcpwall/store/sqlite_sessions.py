"""Sessions and their danger-zone risk budgets in SQLite.

Budgets live in their own table keyed by session id, so the gateway can keep one before (or
without) a session row. They are opaque JSON to the store except for a release, which clears
the ``spent``, ``locked`` and ``lock_reason`` keys of ``RiskBudget.to_dict()`` and keeps the
rest (``calls``, and anything a later budget adds).
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any, Final

from mcpwall.store.interface import BudgetChange
from mcpwall.store.records import SessionRecord
from mcpwall.store.sqlite_db import Database, from_json, to_json

RELEASED: Final[dict[str, Any]] = {"spent": 0, "locked": False, "lock_reason": None}
_UPSERT_SESSION: Final = (
    "INSERT INTO sessions (id, server, era, client_info, profiles, started) VALUES (?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (id) DO UPDATE SET server = excluded.server, era = excluded.era, "
    "client_info = excluded.client_info, profiles = excluded.profiles"
)
_PUT_BUDGET: Final = (
    "INSERT INTO budgets (session, budget) VALUES (?, ?) ON CONFLICT (session) DO UPDATE SET budget = excluded.budget"
)
_SELECT_SESSIONS: Final = (
    "SELECT s.*, b.budget, b.released_by, b.released_at FROM sessions s LEFT JOIN budgets b ON b.session = s.id"
)


def _session_of(row: sqlite3.Row) -> SessionRecord:
    return SessionRecord(
        id=row["id"],
        server=row["server"],
        era=row["era"],
        client_info=from_json(row["client_info"]),
        profiles=from_json(row["profiles"]),
        started=row["started"],
        ended=row["ended"],
        budget=from_json(row["budget"]),
        released_by=row["released_by"],
        released_at=row["released_at"],
    )


def _budget(conn: sqlite3.Connection, session_id: str) -> dict[str, Any] | None:
    row = conn.execute("SELECT budget FROM budgets WHERE session = ?", (session_id,)).fetchone()
    return None if row is None else dict(from_json(row["budget"]))


class SqliteSessions:
    """The session part of :class:`~mcpwall.store.sqlite.SqliteStore`."""

    _db: Database

    def upsert_session(
        self,
        session_id: str,
        *,
        server: str,
        era: str,
        client_info: dict[str, Any],
        profiles: list[str],
        started: float,
    ) -> None:
        """See :meth:`mcpwall.store.Store.upsert_session`."""
        values = (session_id, server, era, to_json(client_info), to_json(profiles), started)
        with self._db.write() as conn:
            conn.execute(_UPSERT_SESSION, values)

    def end_session(self, session_id: str, ended: float | None = None) -> None:
        """See :meth:`mcpwall.store.Store.end_session`."""
        at = time.time() if ended is None else ended
        with self._db.write() as conn:
            conn.execute("UPDATE sessions SET ended = ? WHERE id = ?", (at, session_id))

    def get_session(self, session_id: str) -> SessionRecord | None:
        """See :meth:`mcpwall.store.Store.get_session`."""
        with self._db.read() as conn:
            row = conn.execute(f"{_SELECT_SESSIONS} WHERE s.id = ?", (session_id,)).fetchone()
        return None if row is None else _session_of(row)

    def list_sessions(self) -> list[SessionRecord]:
        """See :meth:`mcpwall.store.Store.list_sessions`."""
        with self._db.read() as conn:
            rows = conn.execute(f"{_SELECT_SESSIONS} ORDER BY s.started DESC, s.id").fetchall()
        return [_session_of(row) for row in rows]

    def get_budget(self, session_id: str) -> dict[str, Any] | None:
        """See :meth:`mcpwall.store.Store.get_budget`."""
        with self._db.read() as conn:
            return _budget(conn, session_id)

    def put_budget(self, session_id: str, budget: dict[str, Any]) -> None:
        """See :meth:`mcpwall.store.Store.put_budget`."""
        with self._db.write() as conn:
            conn.execute(_PUT_BUDGET, (session_id, to_json(budget)))

    def update_budget(self, session_id: str, change: BudgetChange) -> dict[str, Any]:
        """See :meth:`mcpwall.store.Store.update_budget`."""
        with self._db.write() as conn:
            budget = change(_budget(conn, session_id))
            conn.execute(_PUT_BUDGET, (session_id, to_json(budget)))
        return budget

    def release_session(self, session_id: str, *, by: str, now: float | None = None) -> bool:
        """See :meth:`mcpwall.store.Store.release_session`."""
        at = time.time() if now is None else now
        with self._db.write() as conn:
            budget = _budget(conn, session_id)
            if budget is None:
                return False
            query = "UPDATE budgets SET budget = ?, released_by = ?, released_at = ? WHERE session = ?"
            conn.execute(query, (to_json({**budget, **RELEASED}), by, at, session_id))
        return True
