"""The hash-chained JSONL audit trail.

Each line is one JSON object with ``seq``, ``prev_hash`` and ``hash``, where ``hash`` is the
SHA-256 of the canonical JSON (sorted keys, compact) of the record without ``hash``. Editing,
removing, inserting or reordering any line breaks the chain at that line.

Several mcpwall processes may append to one file: each append takes an exclusive ``flock``,
re-reads the tail only when another process has written since, and writes the line with one
``write(2)`` on an ``O_APPEND`` descriptor. A line torn by a crash mid-write is cut off by the
next writer, which records an ``audit_tail_repaired`` event (with the torn bytes' length and
hash) before continuing the chain from the last whole record.

"Another process has written since" is a size check under the lock: the file's end
(``lseek(fd, 0, SEEK_END)``, as cheap as a system call gets) differs from where this writer's
last append ended. Every writer, of any mcpwall version, appends under the same ``flock``, so
no write can land between that check and this writer's own. An append is four system calls
whatever the number of records in it (flock, lseek, write, unlock): the gateway appends the
records of all the messages it read at once with one call.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import orjson

GENESIS: Final = "0" * 64
_RESERVED: Final = frozenset({"seq", "prev_hash", "hash"})
_TAIL_CHUNK: Final = 1 << 16


def record_hash(record: dict[str, Any]) -> str:
    """SHA-256 over the canonical JSON of a record, ``hash`` excluded."""
    body = {k: v for k, v in record.items() if k != "hash"}
    return hashlib.sha256(orjson.dumps(body, option=orjson.OPT_SORT_KEYS)).hexdigest()


def _sealed_line(record: dict[str, Any]) -> tuple[bytes, str]:
    """The record's line and hash, serializing it once: the canonical body with ``hash`` appended.

    The hash covers the canonical body; where ``hash`` sits in the line does not matter to
    `record_hash`, which re-serializes without it.
    """
    body = orjson.dumps(record, option=orjson.OPT_SORT_KEYS)
    digest = hashlib.sha256(body).hexdigest()
    return body[:-1] + b',"hash":"' + digest.encode() + b'"}\n', digest


@dataclass(slots=True)
class _Tail:
    seq: int
    hash: str
    size: int


class AuditChain:
    """Appends hash-chained records to one JSONL file.

    Args:
        path: the audit file; created with mode 0600 when missing.
    """

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        self._tail = _Tail(seq=0, hash=GENESIS, size=-1)

    def append(self, event: dict[str, Any]) -> dict[str, Any]:
        """Chain and write one event; returns the record as written."""
        return self.append_many([event])[0]

    def append_many(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Chain several events and write them with one ``write(2)``; returns the records.

        The events become the records (``seq``, ``prev_hash`` and ``hash`` are added to them).

        Raises:
            ValueError: when an event sets ``seq``, ``prev_hash`` or ``hash`` (nothing is written).
            OSError: when the file cannot be locked or written.
        """
        for event in events:
            if "seq" in event or "prev_hash" in event or "hash" in event:  # _RESERVED, unrolled: hot path
                raise ValueError(f"audit events may not set {sorted(_RESERVED & event.keys())}")
        fd = self._fd
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            self._sync_tail()
            return self._write(events)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)

    def close(self) -> None:
        """Flush to disk and close."""
        if self._fd >= 0:
            os.fsync(self._fd)
            os.close(self._fd)
            self._fd = -1

    def _write(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        tail = self._tail
        seq, prev = tail.seq, tail.hash
        lines = []
        for event in events:
            seq += 1
            event["seq"] = seq
            event["prev_hash"] = prev
            line, prev = _sealed_line(event)
            event["hash"] = prev
            lines.append(line)
        data = lines[0] if len(lines) == 1 else b"".join(lines)
        _write_all(self._fd, data)
        tail.seq, tail.hash, tail.size = seq, prev, tail.size + len(data)
        return events

    def _sync_tail(self) -> None:
        size = os.lseek(self._fd, 0, os.SEEK_END)
        if size == self._tail.size:
            return
        data, start = _read_tail(self._fd, size)
        cut = data.rfind(b"\n") + 1
        torn = data[cut:]
        self._tail = _tail_from(data[:cut], start + cut)
        if torn:
            os.ftruncate(self._fd, start + cut)
            self._write([_repair_event(torn)])


def _write_all(fd: int, data: bytes) -> None:
    written = os.write(fd, data)
    if written == len(data):
        return
    view = memoryview(data)[written:]
    while view:
        view = view[os.write(fd, view) :]


def _read_tail(fd: int, size: int) -> tuple[bytes, int]:
    """The end of the file holding at least its last whole line, and where that slice starts."""
    start = size
    data = b""
    while start > 0:
        start = max(0, start - _TAIL_CHUNK)
        data = os.pread(fd, size - start, start)
        if data.count(b"\n") >= 2 or (start == 0):
            break
    return data, start


def _tail_from(whole_lines: bytes, size: int) -> _Tail:
    lines = whole_lines.rstrip(b"\n").rsplit(b"\n", 1)
    last = lines[-1]
    if not last:
        return _Tail(seq=0, hash=GENESIS, size=size)
    record = orjson.loads(last)
    return _Tail(seq=int(record["seq"]), hash=str(record["hash"]), size=size)


def _repair_event(torn: bytes) -> dict[str, Any]:
    return {
        "type": "audit_tail_repaired",
        "torn_bytes": len(torn),
        "torn_sha256": hashlib.sha256(torn).hexdigest(),
    }
