"""One SQLite connection set up for sharing a database file between processes.

WAL journal (readers never block the writer), ``busy_timeout`` so a writer waits for another
process's transaction instead of failing, ``synchronous=FULL`` because a lost ``consumed``
mark would let an approval be used twice. The connection runs in autocommit mode and every
change is one explicit short transaction; read-modify-write ones start with ``BEGIN IMMEDIATE``
so that the write lock is taken before the read (two processes can then never both see a
ticket as unconsumed). The schema is created idempotently under that same lock.

Rows that are only a cache (the findings registry) are written through a second connection,
opened on first use with ``synchronous=NORMAL`` (no sync at commit: such a row survives a crash
of the process, not of the machine): its transactions never hold the first connection's lock, so
the gateway's reads and pin writes do not wait behind them, nor behind a sync to disk.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import orjson

from mcpwall.errors import ConfigError

SCHEMA_VERSION: Final = 1
BUSY_TIMEOUT_MS: Final = 5000
WAL_RETRY_SECONDS: Final = 0.005

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS pins (
    server TEXT NOT NULL,
    tool TEXT NOT NULL,
    hash TEXT NOT NULL,
    definition TEXT NOT NULL,
    status TEXT NOT NULL,
    max_severity TEXT,
    findings TEXT NOT NULL,
    pending_hash TEXT,
    pending_definition TEXT,
    diff TEXT NOT NULL,
    first_seen REAL NOT NULL,
    last_seen REAL NOT NULL,
    PRIMARY KEY (server, tool)
);
CREATE TABLE IF NOT EXISTS tickets (
    id TEXT PRIMARY KEY,
    session TEXT NOT NULL,
    server TEXT NOT NULL,
    tool TEXT NOT NULL,
    binding TEXT NOT NULL,
    level TEXT NOT NULL,
    status TEXT NOT NULL,
    scope TEXT NOT NULL,
    created REAL NOT NULL,
    expires REAL NOT NULL,
    decided_by TEXT,
    decided_at REAL,
    channel TEXT,
    consumed_at REAL
);
CREATE INDEX IF NOT EXISTS tickets_by_session ON tickets (session, status);
CREATE INDEX IF NOT EXISTS tickets_by_status ON tickets (status, expires);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    server TEXT NOT NULL,
    era TEXT NOT NULL,
    client_info TEXT NOT NULL,
    profiles TEXT NOT NULL,
    started REAL NOT NULL,
    ended REAL
);
CREATE TABLE IF NOT EXISTS budgets (
    session TEXT PRIMARY KEY,
    budget TEXT NOT NULL,
    released_by TEXT,
    released_at REAL
);
CREATE TABLE IF NOT EXISTS envelope_nonces (
    key_id TEXT NOT NULL,
    nonce TEXT NOT NULL,
    expires_at REAL NOT NULL,
    PRIMARY KEY (key_id, nonce)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS envelope_nonces_by_expiry ON envelope_nonces (expires_at);
CREATE TABLE IF NOT EXISTS findings (
    rules TEXT NOT NULL,
    hash TEXT NOT NULL,
    findings TEXT NOT NULL,
    PRIMARY KEY (rules, hash)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS name_skeletons_1 (
    server TEXT NOT NULL,
    tool TEXT NOT NULL,
    skeleton TEXT NOT NULL,
    PRIMARY KEY (server, tool)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS name_skeletons_1_by_skeleton ON name_skeletons_1 (skeleton);
CREATE TABLE IF NOT EXISTS envelope_nonce_counts (
    key_id TEXT PRIMARY KEY,
    live INTEGER NOT NULL
) WITHOUT ROWID;
"""
"""Every table is created ``IF NOT EXISTS`` on open, so a table added later (the envelope nonces)
appears in an existing database without a version change: older mcpwall versions ignore it."""


def to_json(value: Any) -> str:
    """Compact JSON text for a column (keys sorted, so equal values store equal)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode("utf-8")


def from_json(text: str | None) -> Any:
    """The value of a JSON column (None stays None)."""
    return None if text is None else orjson.loads(text)


class Database:
    """A thread-safe SQLite connection with short read and write transactions.

    Args:
        path: the database file; created with mode 0600 (and its directory) when missing.
        durable: ``synchronous=FULL`` (every commit survives a power loss). False: ``NORMAL``
            for this connection only (a commit survives a crash of the process, not of the
            machine), for data that is worthless after a reboot anyway, like envelope nonces
            that outlive their request by seconds.

    Raises:
        ConfigError: the file cannot be opened, is not a database, or has a newer schema.
    """

    def __init__(self, path: Path, *, durable: bool = True) -> None:
        self.path = path
        self._synchronous = "FULL" if durable else "NORMAL"
        self._lock = threading.Lock()
        self._cache_lock = threading.Lock()
        self._cache_conn: sqlite3.Connection | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
            self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise ConfigError(f"cannot open the state database {path}: {exc}", path="store") from exc
        try:
            self._conn.row_factory = sqlite3.Row
            self._configure()
            self._create_schema()
        except sqlite3.Error as exc:
            self._conn.close()
            raise ConfigError(f"cannot open the state database {path}: {exc}", path="store") from exc
        except ConfigError:
            self._conn.close()
            raise

    def _configure(self) -> None:
        self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        self._enter_wal()
        self._conn.execute(f"PRAGMA synchronous = {self._synchronous}")
        self._conn.execute("PRAGMA foreign_keys = ON")

    def _enter_wal(self) -> None:
        """Switch to WAL, waiting up to the busy timeout for the processes opening the file too.

        SQLite may answer ``database is locked`` to this pragma at once, without calling the
        busy handler, while another process creates the schema of a new file: so it is retried.
        """
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        while True:
            try:
                self._conn.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(WAL_RETRY_SECONDS)

    def _create_schema(self) -> None:
        with self.write() as conn:
            _run_script(conn, SCHEMA)
            row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
            version = row[0]
            if version is None:
                conn.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
            elif version > SCHEMA_VERSION:
                raise ConfigError(f"{self.path} has schema {version}; this mcpwall knows {SCHEMA_VERSION}")

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """A consistent snapshot for several SELECTs."""
        with self._transaction("BEGIN DEFERRED") as conn:
            yield conn

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction holding the database's write lock from its first statement."""
        with self._transaction("BEGIN IMMEDIATE") as conn:
            yield conn

    @contextmanager
    def cache_write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction for cache rows, on the second connection (see the module doc).

        Raises:
            sqlite3.Error: the database is closed or cannot be written.
        """
        with self._cache_lock:
            if self._cache_conn is None:
                self._cache_conn = self._open_cache()
            with _transaction(self._cache_conn, "BEGIN IMMEDIATE") as conn:
                yield conn

    def _open_cache(self) -> sqlite3.Connection:
        with self._lock:  # not while `close` runs: a closed database opens nothing
            self._conn.execute("SELECT 1")  # raises sqlite3.ProgrammingError once closed
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA synchronous = NORMAL")
        return conn

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[sqlite3.Connection]:
        with self._lock, _transaction(self._conn, begin) as conn:
            yield conn

    def close(self) -> None:
        """Close the connections (idempotent)."""
        with self._lock:
            self._conn.close()
        with self._cache_lock:
            if self._cache_conn is not None:
                self._cache_conn.close()


@contextmanager
def _transaction(conn: sqlite3.Connection, begin: str) -> Iterator[sqlite3.Connection]:
    """One transaction on an autocommit connection: committed, or rolled back on any exception."""
    conn.execute(begin)
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run ``;``-separated DDL inside the current transaction (``executescript`` would commit it)."""
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)
