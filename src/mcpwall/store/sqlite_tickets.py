"""Approval tickets in SQLite: every state change is one ``BEGIN IMMEDIATE`` transaction.

Ticket states only move forward: ``pending`` → ``approved`` | ``denied`` | ``expired``, and
``approved`` (scope ``once``) → ``consumed``. Each move is an ``UPDATE`` guarded by the state it
leaves, inside a transaction that holds the write lock, so a ticket is decided once and a
``once`` approval is consumed once, whatever the number of processes.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Final

from mcpwall.store.records import Ticket, TicketLevel, TicketScope, TicketStatus, new_ticket_id
from mcpwall.store.sqlite_db import Database

_ID_ATTEMPTS: Final = 5
_INSERT: Final = (
    "INSERT INTO tickets (id, session, server, tool, binding, level, status, scope, created, expires) "
    "VALUES (?, ?, ?, ?, ?, ?, 'pending', 'once', ?, ?)"
)
_ONCE: Final = (
    "SELECT * FROM tickets WHERE session = ? AND binding = ? AND status = 'approved' AND scope = 'once' "
    "ORDER BY decided_at LIMIT 1"
)
_SESSION: Final = (
    "SELECT * FROM tickets WHERE session = ? AND server = ? AND tool = ? AND status = 'approved' "
    "AND scope = 'session' ORDER BY decided_at LIMIT 1"
)
_DECIDE: Final = (
    "UPDATE tickets SET status = ?, scope = ?, decided_by = ?, decided_at = ?, channel = ? "
    "WHERE id = ? AND status = 'pending' AND expires > ? AND (? = 'once' OR level = 'CONFIRM_SESSION')"
)


def _ticket_of(row: sqlite3.Row) -> Ticket:
    return Ticket(**{key: row[key] for key in row.keys()})  # noqa: SIM118 -- sqlite3.Row iterates values


def _fetch(conn: sqlite3.Connection, ticket_id: str) -> Ticket | None:
    row = conn.execute("SELECT * FROM tickets WHERE id = ?", (ticket_id.upper(),)).fetchone()
    return None if row is None else _ticket_of(row)


class SqliteTickets:
    """The ticket part of :class:`~mcpwall.store.sqlite.SqliteStore`."""

    _db: Database

    def create_ticket(
        self,
        *,
        session: str,
        server: str,
        tool: str,
        binding: str,
        level: TicketLevel,
        expires: float,
        now: float | None = None,
    ) -> Ticket:
        """See :meth:`mcpwall.store.Store.create_ticket`."""
        created = time.time() if now is None else now
        for _ in range(_ID_ATTEMPTS):
            ticket_id = new_ticket_id()
            try:
                with self._db.write() as conn:
                    conn.execute(_INSERT, (ticket_id, session, server, tool, binding, level, created, expires))
            except sqlite3.IntegrityError:
                continue
            return Ticket(ticket_id, session, server, tool, binding, level, "pending", "once", created, expires)
        raise RuntimeError("could not draw an unused ticket id")  # pragma: no cover -- 2**40 ids

    def get_ticket(self, ticket_id: str) -> Ticket | None:
        """See :meth:`mcpwall.store.Store.get_ticket`."""
        with self._db.read() as conn:
            return _fetch(conn, ticket_id)

    def list_tickets(self, status: TicketStatus | None = None, session: str | None = None) -> list[Ticket]:
        """See :meth:`mcpwall.store.Store.list_tickets`."""
        query = "SELECT * FROM tickets WHERE (? IS NULL OR status = ?) AND (? IS NULL OR session = ?)"
        with self._db.read() as conn:
            rows = conn.execute(f"{query} ORDER BY created DESC, id", (status, status, session, session))
            return [_ticket_of(row) for row in rows.fetchall()]

    def decide_ticket(
        self,
        ticket_id: str,
        *,
        approve: bool,
        scope: TicketScope,
        decided_by: str,
        channel: str,
        now: float | None = None,
    ) -> Ticket | None:
        """See :meth:`mcpwall.store.Store.decide_ticket`."""
        at = time.time() if now is None else now
        status: TicketStatus = "approved" if approve else "denied"
        key = ticket_id.upper()
        with self._db.write() as conn:
            changed = conn.execute(_DECIDE, (status, scope, decided_by, at, channel, key, at, scope)).rowcount
            if not changed:
                conn.execute(
                    "UPDATE tickets SET status = 'expired' WHERE id = ? AND status = 'pending' AND expires <= ?",
                    (key, at),
                )
                return None
            return _fetch(conn, key)

    def consume_approval(
        self, *, session: str, server: str, tool: str, binding: str, now: float | None = None
    ) -> Ticket | None:
        """See :meth:`mcpwall.store.Store.consume_approval`."""
        at = time.time() if now is None else now
        with self._db.write() as conn:
            row = conn.execute(_ONCE, (session, binding)).fetchone()
            if row is not None:
                conn.execute("UPDATE tickets SET status = 'consumed', consumed_at = ? WHERE id = ?", (at, row["id"]))
                return _fetch(conn, row["id"])
            row = conn.execute(_SESSION, (session, server, tool)).fetchone()
            return None if row is None else _ticket_of(row)

    def expire_tickets(self, now: float | None = None) -> int:
        """See :meth:`mcpwall.store.Store.expire_tickets`."""
        at = time.time() if now is None else now
        with self._db.write() as conn:
            query = "UPDATE tickets SET status = 'expired' WHERE status = 'pending' AND expires <= ?"
            return conn.execute(query, (at,)).rowcount
