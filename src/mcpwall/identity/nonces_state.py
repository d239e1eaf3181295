"""Envelope nonces in the SQLite state database, shared by every gateway process of the machine.

Two tables, created with the rest of the schema (``mcpwall.store.sqlite_db``):
``envelope_nonces`` holds (key id, nonce, expiry) and ``envelope_nonce_counts`` the live count
of each key, kept beside the rows so that the ``max_per_key`` check is one lookup rather than a
count over thousands of rows. A claim is one ``BEGIN IMMEDIATE`` transaction (expire, look up,
count, insert): the write lock is taken before the read, so two processes can never both find
a nonce fresh. Like the rest of the store the calls are synchronous and short (about 70 µs on
this machine's disk, mostly the WAL page writes); the database is the one in the state
directory, in WAL mode.

The connection commits with ``synchronous=NORMAL``, not the store's ``FULL``: a claim survives
the crash of any gateway process, and only a power loss can drop the last ones. A nonce matters
for ``window_seconds`` (30 s by default) after its timestamp, and a machine is rarely back up
within that; an fsync per request would cost 0.2-2.5 ms here, on the event loop.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

from mcpwall.identity.errors import IdentityError, IdentityFailure
from mcpwall.identity.nonces import NonceOutcome
from mcpwall.store.sqlite_db import Database


class StateNonceStore:
    """Nonces in the state database, shared by the processes that open the same file.

    Args:
        path: the state database (``mcpwall.db`` in the state directory).
        max_per_key: live nonces remembered per key before :attr:`NonceOutcome.FULL`.

    Raises:
        ConfigError: the database cannot be opened.
    """

    def __init__(self, path: Path, *, max_per_key: int) -> None:
        self._db = Database(path, durable=False)
        self._max_per_key = max_per_key

    async def claim(self, key_id: str, nonce: str, *, expires_at: float, now: float) -> NonceOutcome:
        """Check and remember ``nonce`` for ``key_id`` (see :meth:`NonceStore.claim`).

        Raises:
            IdentityError: ``ENVELOPE_NONCE_STORE_UNAVAILABLE`` when the database cannot be
                written (locked past its busy timeout by another process, disk full...).
        """
        try:
            return self._claim(key_id, nonce, expires_at=expires_at, now=now)
        except sqlite3.Error as exc:
            raise IdentityError(IdentityFailure.ENVELOPE_NONCE_STORE_UNAVAILABLE, f"{self._db.path}: {exc}") from exc

    def _claim(self, key_id: str, nonce: str, *, expires_at: float, now: float) -> NonceOutcome:
        with self._db.write() as conn:
            _expire(conn, now)
            if conn.execute("SELECT 1 FROM envelope_nonces WHERE key_id = ? AND nonce = ?", (key_id, nonce)).fetchone():
                return NonceOutcome.REPLAYED
            row = conn.execute("SELECT live FROM envelope_nonce_counts WHERE key_id = ?", (key_id,)).fetchone()
            if row is not None and row[0] >= self._max_per_key:
                return NonceOutcome.FULL
            conn.execute(
                "INSERT INTO envelope_nonces (key_id, nonce, expires_at) VALUES (?, ?, ?)", (key_id, nonce, expires_at)
            )
            conn.execute(
                "INSERT INTO envelope_nonce_counts (key_id, live) VALUES (?, 1)"
                " ON CONFLICT (key_id) DO UPDATE SET live = live + 1",
                (key_id,),
            )
        return NonceOutcome.FRESH

    async def aclose(self) -> None:
        """Close the database connection."""
        self._db.close()


def _expire(conn: sqlite3.Connection, now: float) -> None:
    """Forget every nonce that expired strictly before ``now`` (of every key) and fix the counts."""
    expired = conn.execute("DELETE FROM envelope_nonces WHERE expires_at < ? RETURNING key_id", (now,)).fetchall()
    for key_id, count in Counter(row[0] for row in expired).items():
        conn.execute("UPDATE envelope_nonce_counts SET live = live - ? WHERE key_id = ?", (count, key_id))
