"""``mcpwall events``: the audit trail filtered by session, type, severity and time."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from operator_cli import OperatorCli

from mcpwall.audit import AuditChain
from mcpwall.cli.events_cmd import EventFilter, parse_since, record_severity
from mcpwall.inspection.findings import Severity

NOW = 1_800_000_000.0


def write_events(cli: OperatorCli, events: list[dict[str, Any]]) -> None:
    chain = AuditChain(cli.state / "audit.jsonl")
    chain.append_many(events)
    chain.close()


def event(kind: str, session: str = "s1", ts: float = NOW, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "ts": ts, "session": session, "server": "git", **fields}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("30s", NOW - 30),
        ("10m", NOW - 600),
        ("2h", NOW - 7200),
        ("7d", NOW - 7 * 86400),
        ("2027-01-15T08:00:00+00:00", datetime(2027, 1, 15, 8, tzinfo=UTC).timestamp()),
    ],
)
def test_since_accepts_relative_and_iso_times(text: str, expected: float) -> None:
    assert parse_since(text, NOW) == expected


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        ({"max_severity": "high"}, Severity.HIGH),
        ({"severity": "low"}, Severity.LOW),
        ({"severity": "bogus"}, None),
        ({}, None),
    ],
)
def test_record_severity_comes_from_max_severity_or_severity(record: dict[str, Any], expected: Severity | None) -> None:
    assert record_severity(record) == expected


def test_filters_combine() -> None:
    wanted = EventFilter(session="s1", event_type="tool_denied", severity=Severity.HIGH, since=NOW - 60)

    assert wanted.keeps(event("tool_denied", max_severity="critical"))
    assert not wanted.keeps(event("tool_denied", max_severity="medium"))
    assert not wanted.keeps(event("tool_denied", session="s2", max_severity="critical"))
    assert not wanted.keeps(event("tool_allowed", max_severity="critical"))
    assert not wanted.keeps(event("tool_denied", ts=NOW - 61, max_severity="critical"))


def test_events_filters_by_session_type_and_severity(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    write_events(
        cli,
        [
            event("tool_denied", max_severity="critical", tool="push"),
            event("tool_denied", session="s2", max_severity="critical"),
            event("tool_allowed", severity="low"),
            event("session_ended"),
        ],
    )

    assert [r["seq"] for r in cli.json("events", "--session", "s1")] == [1, 3, 4]
    assert [r["seq"] for r in cli.json("events", "--severity", "high")] == [1, 2]
    assert [r["seq"] for r in cli.json("events", "--type", "tool_denied", "--session", "s1")] == [1]
    table = cli("events", "--severity", "critical").stdout
    assert "tool=push" in table


def test_events_since_keeps_recent_records(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    now = time.time()
    write_events(cli, [event("old", ts=now - 7200), event("recent", ts=now - 60)])

    assert [r["type"] for r in cli.json("events", "--since", "10m")] == ["recent"]
    assert [r["type"] for r in cli.json("events", "--since", "3h")] == ["old", "recent"]


def test_events_rejects_an_unknown_severity_or_time(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)

    assert cli("events", "--severity", "extreme").returncode == 2
    assert cli("events", "--since", "yesterday").returncode == 2


def test_events_without_an_audit_file_prints_nothing(tmp_path: Path) -> None:
    assert OperatorCli(tmp_path).json("events") == []
