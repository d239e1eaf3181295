"""The audit chain: appends link up; any edit, removal, insertion or reordering is found."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from mcpwall.audit import AuditChain, verify


def _write(path: Path, count: int) -> None:
    chain = AuditChain(path)
    for i in range(count):
        chain.append({"type": "event", "i": i})
    chain.close()


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def _edit(lines: list[bytes]) -> list[bytes]:
    record = orjson.loads(lines[2])
    record["i"] = 99
    return [*lines[:2], orjson.dumps(record, option=orjson.OPT_SORT_KEYS) + b"\n", *lines[3:]]


TAMPERINGS: dict[str, Callable[[list[bytes]], list[bytes]]] = {
    "edited": _edit,
    "removed": lambda ls: ls[:2] + ls[3:],
    "inserted": lambda ls: [*ls[:2], ls[1], *ls[2:]],
    "reordered": lambda ls: [ls[0], ls[2], ls[1], *ls[3:]],
    "truncated-head": lambda ls: ls[1:],
}


def test_untouched_chain_verifies(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    _write(path, 5)
    report = verify(path)
    assert report.ok
    assert report.records == 5


@pytest.mark.requirement("audit:tamper-evident")
@pytest.mark.parametrize("how", list(TAMPERINGS))
def test_tampered_chain_is_reported_at_the_line(tmp_path: Path, how: str) -> None:
    path = tmp_path / "audit.jsonl"
    _write(path, 6)
    path.write_bytes(b"".join(TAMPERINGS[how](_lines(path))))
    report = verify(path)
    assert not report.ok
    assert report.problems[0].startswith(("line 1:", "line 2:", "line 3:"))


@pytest.mark.requirement("audit:tamper-evident")
def test_torn_final_line_verifies_up_to_it_and_next_writer_continues(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    _write(path, 3)
    with path.open("ab") as handle:
        handle.write(b'{"seq":4,"type":"half')
    torn = verify(path)
    assert torn.ok
    assert torn.torn_tail
    assert torn.records == 3
    _write(path, 1)
    repaired = verify(path)
    assert repaired.ok
    assert not repaired.torn_tail
    records = [orjson.loads(line) for line in _lines(path)]
    assert [r["seq"] for r in records] == [1, 2, 3, 4, 5]
    assert records[3]["type"] == "audit_tail_repaired"
    assert records[3]["torn_bytes"] == len(b'{"seq":4,"type":"half')


def test_several_processes_append_to_one_chain(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_write, args=(path, 50)) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    report = verify(path)
    assert report.ok, report.problems
    assert report.records == 200
