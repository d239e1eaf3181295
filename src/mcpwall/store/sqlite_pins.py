"""Pins in SQLite: one row per ``(server, tool)``, JSON columns for definitions and findings."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any, Final

from mcpwall.store.records import Pin, PinState
from mcpwall.store.sqlite_db import Database, from_json, to_json

_COLUMNS: Final = (
    "server, tool, hash, definition, status, max_severity, findings, pending_hash, pending_definition, diff, "
    "first_seen, last_seen"
)
MIN_HASH_PREFIX: Final = 8
_UPSERT: Final = f"INSERT OR REPLACE INTO pins ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"  # noqa: S608 -- constant column list, values bound


def _pin_row(pin: Pin) -> tuple[Any, ...]:
    pending = None if pin.pending_definition is None else to_json(pin.pending_definition)
    return (
        pin.server,
        pin.tool,
        pin.hash,
        to_json(pin.definition),
        pin.status,
        pin.max_severity,
        to_json(pin.findings),
        pin.pending_hash,
        pending,
        to_json(pin.diff),
        pin.first_seen,
        pin.last_seen,
    )


def _pin_of(row: sqlite3.Row) -> Pin:
    return Pin(
        server=row["server"],
        tool=row["tool"],
        hash=row["hash"],
        definition=from_json(row["definition"]),
        status=row["status"],
        max_severity=row["max_severity"],
        findings=from_json(row["findings"]),
        pending_hash=row["pending_hash"],
        pending_definition=from_json(row["pending_definition"]),
        diff=from_json(row["diff"]),
        first_seen=row["first_seen"],
        last_seen=row["last_seen"],
    )


def _in_batches(
    conn: sqlite3.Connection,
    template: str,
    keys: Sequence[str],
    before: tuple[Any, ...] = (),
    after: tuple[Any, ...] = (),
) -> Iterator[Any]:
    """The rows of ``template`` (a query with ``IN ({marks})``) for every key, `_IN_BATCH` keys a
    query, each bound between the ``before`` and ``after`` parameters."""
    for start in range(0, len(keys), _IN_BATCH):
        batch = keys[start : start + _IN_BATCH]
        query = template.format(marks=",".join("?" * len(batch)))  # placeholders only
        yield from conn.execute(query, (*before, *batch, *after))


def _state_of(row: sqlite3.Row) -> PinState:
    tool, digest, status, top, findings, pending, diff, last_seen = row
    return PinState(tool, digest, status, top, from_json(findings), bool(pending), bool(diff), last_seen)


def approved(pin: Pin) -> Pin:
    """The pin after a human approval: the pending definition (if any) becomes the pinned one."""
    if pin.pending_hash is None or pin.pending_definition is None:
        return replace(pin, status="approved", diff=[])
    return replace(
        pin,
        hash=pin.pending_hash,
        definition=pin.pending_definition,
        status="approved",
        pending_hash=None,
        pending_definition=None,
        diff=[],
    )


def _matches(pin: Pin, expected_hash: str) -> bool:
    """Whether ``expected_hash`` (whole, or a prefix of at least 8 characters) is what would be pinned."""
    target = pin.pending_hash if pin.pending_hash is not None else pin.hash
    return len(expected_hash) >= MIN_HASH_PREFIX and target.startswith(expected_hash.lower())


_IN_BATCH = 500
"""Tool names per ``IN (...)`` query (SQLite allows 32,766 parameters; a listing may be long)."""
_KNOWN_FINDINGS = "SELECT hash, findings FROM findings WHERE rules = ? AND hash IN ({marks})"
_REMEMBER_FINDINGS = "INSERT OR REPLACE INTO findings (rules, hash, findings) VALUES (?, ?, ?)"
_EARLIER_LISTERS = (
    "SELECT other.tool, other.server FROM pins AS other "
    "LEFT JOIN pins AS mine ON mine.tool = other.tool AND mine.server = ? "
    "WHERE other.tool IN ({marks}) AND other.server != ? AND other.status != 'removed' "
    "AND (mine.first_seen IS NULL OR other.first_seen <= mine.first_seen) "
    "ORDER BY other.tool, other.server"
)

_PIN_STATES = (
    "SELECT tool, hash, status, max_severity, findings, "
    "pending_hash IS NOT NULL OR pending_definition IS NOT NULL, diff != '[]', last_seen FROM pins WHERE server = ?"
)
_PINS_OF_TOOLS = "SELECT * FROM pins WHERE server = ? AND tool IN ({marks})"
_REMEMBER_SKELETON = "INSERT OR IGNORE INTO name_skeletons_1 (server, tool, skeleton) VALUES (?, ?, ?)"
_UNSKELETONED = (
    "SELECT pins.server, pins.tool FROM pins LEFT JOIN name_skeletons_1 AS known "
    "ON known.server = pins.server AND known.tool = pins.tool WHERE known.tool IS NULL"
)
_LISTERS_BY_SKELETON = (
    "SELECT pins.tool, pins.server, pins.first_seen FROM name_skeletons_1 AS known "
    "JOIN pins ON pins.server = known.server AND pins.tool = known.tool "
    "WHERE known.skeleton IN ({marks}) AND pins.status != 'removed'"
)


class SqlitePins:
    """The pin half of :class:`~mcpwall.store.sqlite.SqliteStore`."""

    _db: Database

    def get_pin(self, server: str, tool: str) -> Pin | None:
        """See :meth:`mcpwall.store.Store.get_pin`."""
        with self._db.read() as conn:
            row = conn.execute("SELECT * FROM pins WHERE server = ? AND tool = ?", (server, tool)).fetchone()
        return None if row is None else _pin_of(row)

    def put_pin(self, pin: Pin) -> None:
        """See :meth:`mcpwall.store.Store.put_pin`."""
        with self._db.write() as conn:
            conn.execute(_UPSERT, _pin_row(pin))

    def put_pins(
        self,
        pins: Sequence[Pin],
        findings: Sequence[tuple[str, str, str]] = (),
        skeletons: Sequence[tuple[str, str, str]] = (),
    ) -> None:
        """See :meth:`mcpwall.store.Store.put_pins`."""
        rows = [_pin_row(pin) for pin in pins]
        with self._db.write() as conn:
            conn.executemany(_UPSERT, rows)
            conn.executemany(_REMEMBER_FINDINGS, findings)
            conn.executemany(_REMEMBER_SKELETON, skeletons)

    def known_findings(self, rules: str, hashes: Sequence[str]) -> dict[str, str]:
        """See :meth:`mcpwall.store.Store.known_findings`."""
        with self._db.read() as conn:
            return dict(_in_batches(conn, _KNOWN_FINDINGS, sorted(set(hashes)), before=(rules,)))

    def remember_findings(self, findings: Sequence[tuple[str, str, str]]) -> None:
        """See :meth:`mcpwall.store.Store.remember_findings`."""
        if findings:
            with self._db.cache_write() as conn:  # a cache: another connection, no sync to disk
                conn.executemany(_REMEMBER_FINDINGS, findings)

    def earlier_listers(self, tools: Sequence[str], server: str) -> dict[str, list[str]]:
        """See :meth:`mcpwall.store.Store.earlier_listers`."""
        found: dict[str, list[str]] = {}
        with self._db.read() as conn:
            for tool, lister in _in_batches(conn, _EARLIER_LISTERS, sorted(set(tools)), (server,), (server,)):
                found.setdefault(tool, []).append(lister)
        return found

    def remember_skeletons(self, names: Sequence[tuple[str, str, str]]) -> None:
        """See :meth:`mcpwall.store.Store.remember_skeletons`."""
        if names:
            with self._db.write() as conn:
                conn.executemany(_REMEMBER_SKELETON, names)

    def unskeletoned_tools(self) -> list[tuple[str, str]]:
        """See :meth:`mcpwall.store.Store.unskeletoned_tools`."""
        with self._db.read() as conn:
            return [(server, tool) for server, tool in conn.execute(_UNSKELETONED).fetchall()]

    def listers_by_skeleton(self, skeletons: Sequence[str]) -> list[tuple[str, str, float]]:
        """See :meth:`mcpwall.store.Store.listers_by_skeleton`."""
        with self._db.read() as conn:
            rows = _in_batches(conn, _LISTERS_BY_SKELETON, sorted(set(skeletons)))
            return sorted((tool, server, first_seen) for tool, server, first_seen in rows)

    def pin_states(self, server: str) -> dict[str, PinState]:
        """See :meth:`mcpwall.store.Store.pin_states`."""
        with self._db.read() as conn:
            rows = conn.execute(_PIN_STATES, (server,)).fetchall()
        return {row[0]: _state_of(row) for row in rows}

    def get_pins(self, server: str, tools: Sequence[str]) -> dict[str, Pin]:
        """See :meth:`mcpwall.store.Store.get_pins`."""
        with self._db.read() as conn:
            rows = _in_batches(conn, _PINS_OF_TOOLS, sorted(set(tools)), before=(server,))
            return {pin.tool: pin for pin in map(_pin_of, rows)}

    def has_pins(self, server: str) -> bool:
        """See :meth:`mcpwall.store.Store.has_pins`."""
        with self._db.read() as conn:
            return conn.execute("SELECT 1 FROM pins WHERE server = ? LIMIT 1", (server,)).fetchone() is not None

    def list_pins(self, server: str | None = None) -> list[Pin]:
        """See :meth:`mcpwall.store.Store.list_pins`."""
        with self._db.read() as conn:
            if server is None:
                rows = conn.execute("SELECT * FROM pins ORDER BY server, tool").fetchall()
            else:
                rows = conn.execute("SELECT * FROM pins WHERE server = ? ORDER BY tool", (server,)).fetchall()
        return [_pin_of(row) for row in rows]

    def approve_pin(self, server: str, tool: str, *, expected_hash: str | None = None) -> Pin | None:
        """See :meth:`mcpwall.store.Store.approve_pin`."""
        with self._db.write() as conn:
            row = conn.execute("SELECT * FROM pins WHERE server = ? AND tool = ?", (server, tool)).fetchone()
            pin = None if row is None else _pin_of(row)
            if pin is None or not pin.approvable:
                return None
            if expected_hash is not None and not _matches(pin, expected_hash):
                return None
            done = approved(pin)
            conn.execute(_UPSERT, _pin_row(done))
        return done

    def approve_server(self, server: str) -> list[Pin]:
        """See :meth:`mcpwall.store.Store.approve_server`."""
        with self._db.write() as conn:
            rows = conn.execute("SELECT * FROM pins WHERE server = ? ORDER BY tool", (server,)).fetchall()
            done = [approved(pin) for pin in map(_pin_of, rows) if pin.approvable]
            conn.executemany(_UPSERT, [_pin_row(pin) for pin in done])
        return done
