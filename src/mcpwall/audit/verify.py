"""Verifying an audit file: every line's hash, sequence and link to the line before."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from mcpwall.audit.chain import GENESIS, record_hash


@dataclass(slots=True)
class Verification:
    """The outcome of `verify`: records checked, problems by line, and a torn final line."""

    records: int = 0
    problems: list[str] = field(default_factory=list)
    torn_tail: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(path: Path) -> Verification:
    """Check the chain of an audit file.

    A final line without its newline (a crash mid-write) is reported as ``torn_tail`` and the
    records before it still verify.
    """
    report = Verification()
    data = path.read_bytes()
    lines = data.split(b"\n")
    if lines[-1]:
        report.torn_tail = True
    prev = {"seq": 0, "hash": GENESIS}
    for number, line in enumerate(lines[:-1], start=1):
        problem = _check_line(line, prev)
        if problem is not None:
            report.problems.append(f"line {number}: {problem}")
            if len(report.problems) >= 20:
                break
        report.records += 1
    return report


def _check_line(line: bytes, prev: dict[str, Any]) -> str | None:
    try:
        record = orjson.loads(line)
    except orjson.JSONDecodeError:
        prev.update(seq=prev["seq"] + 1, hash="")
        return "not valid JSON (edited or inserted)"
    if not isinstance(record, dict):
        return "not a record (edited or inserted)"
    problem = _link_problem(record, prev)
    prev.update(seq=record.get("seq", prev["seq"] + 1), hash=record.get("hash", ""))
    return problem


def _link_problem(record: dict[str, Any], prev: dict[str, Any]) -> str | None:
    seq = record.get("seq")
    if record.get("hash") != record_hash(record):
        return f"record seq={seq} does not match its hash (edited)"
    if record.get("prev_hash") != prev["hash"]:
        return f"record seq={seq} does not link to the record before it (removed, inserted or reordered)"
    if seq != prev["seq"] + 1:
        return f"sequence jumps from {prev['seq']} to {seq} (removed, inserted or reordered)"
    return None
