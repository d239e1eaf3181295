"""Persistent state behind one small interface: pins, approval tickets, sessions and budgets.

::

    Store (Protocol, interface.py)         what the gateway and the CLI call
    ├── SqliteStore (sqlite.py)            embedded default: one WAL database in the state dir
    │   ├── SqlitePins      sqlite_pins.py
    │   ├── SqliteTickets   sqlite_tickets.py
    │   ├── SqliteSessions  sqlite_sessions.py
    │   └── Database        sqlite_db.py   connection, pragmas, schema, transactions
    └── (PostgreSQL: reserved for several machines)

`open_store` picks the backend from a URL (``sqlite:///...`` or a path). Values
(:class:`Pin`, :class:`Ticket`, :class:`SessionRecord`) are frozen dataclasses holding JSON-ready
data (records.py). The API is synchronous; every read-modify-write is one atomic transaction,
so the mcpwall processes of one machine (one wrapper per server) share the store safely.
"""

from mcpwall.store.interface import BudgetChange, Store
from mcpwall.store.records import (
    INSTRUCTIONS,
    PIN_STATUSES,
    TICKET_STATUSES,
    Pin,
    PinState,
    PinStatus,
    SessionRecord,
    Ticket,
    TicketLevel,
    TicketScope,
    TicketStatus,
)
from mcpwall.store.sqlite import SqliteStore
from mcpwall.store.urls import default_store, open_store

__all__ = [
    "INSTRUCTIONS",
    "PIN_STATUSES",
    "TICKET_STATUSES",
    "BudgetChange",
    "Pin",
    "PinState",
    "PinStatus",
    "SessionRecord",
    "SqliteStore",
    "Store",
    "Ticket",
    "TicketLevel",
    "TicketScope",
    "TicketStatus",
    "default_store",
    "open_store",
]
