"""`SqliteStore`: the embedded backend, one database file shared by every local mcpwall process."""

from __future__ import annotations

from pathlib import Path

from mcpwall.store.sqlite_db import Database
from mcpwall.store.sqlite_pins import SqlitePins
from mcpwall.store.sqlite_sessions import SqliteSessions
from mcpwall.store.sqlite_tickets import SqliteTickets


class SqliteStore(SqlitePins, SqliteTickets, SqliteSessions):
    """The :class:`~mcpwall.store.Store` on a local SQLite file (WAL, short transactions).

    Each process (and each `SqliteStore`) opens its own connection; one instance may be shared
    by threads, which then take turns on it.

    Args:
        path: the database file, created (mode 0600) with its schema when missing.

    Raises:
        ConfigError: the file cannot be opened as an mcpwall database.
    """

    def __init__(self, path: Path | str) -> None:
        self._db = Database(Path(path))
        self.path = self._db.path

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
