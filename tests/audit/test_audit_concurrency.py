"""Several processes append to one audit chain at once, in bursts: nothing lost, the chain holds."""

from __future__ import annotations

import itertools
import multiprocessing
import time
from multiprocessing.synchronize import Barrier
from pathlib import Path

import orjson

from mcpwall.audit import AuditChain, verify

WRITERS = 3
PER_WRITER = 3000


def _bursts(path: Path, writer: int, count: int, start: Barrier) -> None:
    """Append ``count`` events in bursts of 1 to 64 (as the gateway does with pipelined calls)."""
    chain = AuditChain(path)
    start.wait(30)
    i = bursts = 0
    while i < count:
        bursts += 1
        burst = min(count - i, (writer * 7 + bursts * 13) % 64 + 1)
        chain.append_many([{"type": "event", "writer": writer, "i": i + k} for k in range(burst)])
        i += burst
        time.sleep(0.0005)  # the next read of pipelined input
    chain.close()


def _run_writers(path: Path, count: int) -> None:
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(WRITERS)
    workers = [context.Process(target=_bursts, args=(path, w, count, start)) for w in range(WRITERS)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    assert [worker.exitcode for worker in workers] == [0] * WRITERS


def _records(path: Path) -> list[dict[str, object]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def test_processes_appending_bursts_at_once_lose_nothing_and_the_chain_verifies(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    _run_writers(path, PER_WRITER)
    report = verify(path)
    assert report.ok, report.problems
    assert report.records == WRITERS * PER_WRITER
    records = _records(path)
    for writer in range(WRITERS):
        assert [r["i"] for r in records if r["writer"] == writer] == list(range(PER_WRITER))
    interleaved = sum(a["writer"] != b["writer"] for a, b in itertools.pairwise(records))
    assert interleaved > WRITERS, "the writers did not overlap: the test proved nothing"


def test_a_torn_tail_is_repaired_once_when_writers_race_to_it(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    first = AuditChain(path)
    first.append_many([{"type": "event", "writer": -1, "i": i} for i in range(3)])
    first.close()
    with path.open("ab") as handle:
        handle.write(b'{"seq":4,"type":"tor')
    _run_writers(path, 200)
    report = verify(path)
    assert report.ok, report.problems
    assert not report.torn_tail
    records = _records(path)
    repairs = [r for r in records if r["type"] == "audit_tail_repaired"]
    assert len(repairs) == 1
    assert repairs[0]["seq"] == 4
    assert report.records == 3 + 1 + WRITERS * 200


def test_a_writer_sees_what_another_wrote_since_its_last_append(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    mine, theirs = AuditChain(path), AuditChain(path)
    mine.append({"type": "a"})
    theirs.append_many([{"type": "b"}, {"type": "c"}])
    record = mine.append({"type": "d"})
    mine.close()
    theirs.close()
    assert record["seq"] == 4
    assert verify(path).ok
