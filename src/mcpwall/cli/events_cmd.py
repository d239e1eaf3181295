"""``mcpwall events``: the audit trail, filtered, as a table or JSON.

Reads ``audit.jsonl`` in the state directory line by line (a torn or unparsable line is
skipped; ``mcpwall audit verify`` is the command that judges integrity). Filters combine:
``--session``, ``--type``, ``--severity`` (records whose ``max_severity`` or ``severity`` is at
least that level; records without one are left out) and ``--since`` (ISO time, or a relative
``30s``, ``10m``, ``2h``, ``7d``, ``1w``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Final

import orjson
import typer

from mcpwall.cli.store_cmds import JsonOption, StateDirOption, print_json, print_table, resolve_state_dir, when
from mcpwall.inspection.findings import Severity
from mcpwall.state import AUDIT_FILE

RELATIVE: Final = re.compile(r"(\d+)\s*([smhdw])")
UNIT_SECONDS: Final = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
DETAIL_KEYS: Final = ("tool", "method", "verdict", "reason", "max_severity", "severity", "ticket", "approver")


def parse_since(text: str, now: float) -> float:
    """The epoch time meant by ``--since``: ``10m`` ago, or an ISO time (local when naive).

    Raises:
        typer.BadParameter: neither form.
    """
    relative = RELATIVE.fullmatch(text.strip())
    if relative:
        return now - int(relative.group(1)) * UNIT_SECONDS[relative.group(2)]
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise typer.BadParameter(f"{text!r} is neither an ISO time nor like 10m, 2h, 7d") from None
    return moment.astimezone().timestamp() if moment.tzinfo is None else moment.timestamp()


def parse_severity(text: str) -> Severity:
    """``--severity``'s level.

    Raises:
        typer.BadParameter: not low, medium, high or critical.
    """
    try:
        return Severity.parse(text)
    except ValueError as exc:
        raise typer.BadParameter(f"{exc}; expected low, medium, high or critical") from None


def record_severity(record: dict[str, Any]) -> Severity | None:
    """The severity a record carries (``max_severity``, else ``severity``), or None."""
    for key in ("max_severity", "severity"):
        value = record.get(key)
        if isinstance(value, str):
            try:
                return Severity.parse(value)
            except ValueError:
                continue
    return None


@dataclass(frozen=True, slots=True)
class EventFilter:
    """What ``mcpwall events`` keeps; None keeps everything on that axis."""

    session: str | None = None
    event_type: str | None = None
    severity: Severity | None = None
    since: float | None = None

    def keeps(self, record: dict[str, Any]) -> bool:
        """Whether ``record`` passes every filter."""
        if self.session is not None and record.get("session") != self.session:
            return False
        if self.event_type is not None and record.get("type") != self.event_type:
            return False
        if self.since is not None and not _at_or_after(record.get("ts"), self.since):
            return False
        if self.severity is None:
            return True
        found = record_severity(record)
        return found is not None and found >= self.severity


def _at_or_after(ts: Any, since: float) -> bool:
    return isinstance(ts, int | float) and not isinstance(ts, bool) and ts >= since


def read_records(path: Path) -> Iterator[dict[str, Any]]:
    """The audit file's records in order, skipping lines that are not JSON objects."""
    with path.open("rb") as lines:
        for line in lines:
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            if isinstance(record, dict):
                yield record


def _detail(record: dict[str, Any]) -> str:
    return " ".join(f"{key}={record[key]}" for key in DETAIL_KEYS if record.get(key) is not None)


def _row(record: dict[str, Any]) -> list[str]:
    ts = record.get("ts")
    stamp = when(float(ts)) if isinstance(ts, int | float) else "-"
    fields = (record.get("seq"), record.get("type"), record.get("session"), record.get("server"))
    seq, kind, session, server = (str(value) if value is not None else "-" for value in fields)
    return [seq, stamp, kind, session, server, _detail(record)]


def events(
    session: Annotated[str | None, typer.Option("--session", help="Only this session's events.")] = None,
    severity: Annotated[str | None, typer.Option("--severity", help="At least: low, medium, high, critical.")] = None,
    event_type: Annotated[str | None, typer.Option("--type", help="Only events of this type.")] = None,
    since: Annotated[str | None, typer.Option("--since", help="ISO time, or relative: 30s, 10m, 2h, 7d.")] = None,
    as_json: JsonOption = False,
    state: StateDirOption = None,
) -> None:
    """Show audit events, filtered by session, severity, type and time."""
    wanted = EventFilter(
        session=session,
        event_type=event_type,
        severity=parse_severity(severity) if severity else None,
        since=parse_since(since, time.time()) if since else None,
    )
    path = resolve_state_dir(state) / AUDIT_FILE
    records = [r for r in read_records(path) if wanted.keeps(r)] if path.exists() else []
    if as_json:
        print_json(records)
        return
    print_table(f"Events in {path}", ["SEQ", "TIME", "TYPE", "SESSION", "SERVER", "DETAIL"], [_row(r) for r in records])
