"""Several processes on one database: a ticket is decided once and a once approval is used once.

Each worker process opens its own `SqliteStore` (its own connection), waits at a barrier so
they all race, then makes one call; the parent counts the winners.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.context import SpawnProcess
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

from mcpwall.store import SqliteStore

WORKERS = 6
WAIT = 60.0
BINDING = "b" * 64


def _consume(path: Path, barrier: Barrier, results: Queue[str | None]) -> None:
    with SqliteStore(path) as store:
        barrier.wait(WAIT)
        ticket = store.consume_approval(session="s1", server="git", tool="push", binding=BINDING)
        results.put(ticket.id if ticket else None)


def _decide(path: Path, barrier: Barrier, results: Queue[str | None]) -> None:
    with SqliteStore(path) as store:
        barrier.wait(WAIT)
        ticket = store.list_tickets()[0]
        approve = multiprocessing.current_process().name.endswith(("1", "3", "5"))
        decided = store.decide_ticket(ticket.id, approve=approve, scope="once", decided_by="w", channel="cli")
        results.put(decided.status if decided else None)


def _open(path: Path, barrier: Barrier, results: Queue[str | None]) -> None:
    barrier.wait(WAIT)
    with SqliteStore(path) as store:
        store.put_budget(multiprocessing.current_process().name, {"spent": 1})
        results.put("opened")


Worker = Callable[[Path, Barrier, "Queue[str | None]"], None]


@contextmanager
def racing(worker: Worker, path: Path) -> Iterator[Callable[[], list[str | None]]]:
    """Start WORKERS processes running ``worker``; yields a function collecting their results."""
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(WORKERS), context.Queue()
    processes: list[SpawnProcess] = [
        context.Process(target=worker, args=(path, barrier, results), name=f"worker-{i}") for i in range(WORKERS)
    ]
    try:
        for process in processes:
            process.start()
        yield lambda: [results.get(timeout=WAIT) for _ in processes]
        for process in processes:
            process.join(WAIT)
            assert process.exitcode == 0
    finally:
        for process in processes:
            if process.is_alive():
                process.kill()
                process.join(WAIT)
        results.close()
        results.join_thread()


def _approved_ticket(path: Path) -> str:
    with SqliteStore(path) as store:
        ticket = store.create_ticket(
            session="s1", server="git", tool="push", binding=BINDING, level="CONFIRM_SINGLE_USE", expires=4e9
        )
        store.decide_ticket(ticket.id, approve=True, scope="once", decided_by="alice", channel="cli")
        return ticket.id


def test_exactly_one_process_consumes_a_once_approval(tmp_path: Path) -> None:
    path = tmp_path / "mcpwall.db"
    ticket_id = _approved_ticket(path)

    with racing(_consume, path) as collect:
        outcomes = collect()

    assert [o for o in outcomes if o is not None] == [ticket_id]
    assert outcomes.count(None) == WORKERS - 1
    with SqliteStore(path) as store:
        found = store.get_ticket(ticket_id)
    assert found is not None
    assert found.status == "consumed"


def test_exactly_one_process_decides_a_ticket(tmp_path: Path) -> None:
    path = tmp_path / "mcpwall.db"
    with SqliteStore(path) as store:
        store.create_ticket(
            session="s1", server="git", tool="push", binding=BINDING, level="CONFIRM_SESSION", expires=4e9
        )

    with racing(_decide, path) as collect:
        outcomes = collect()

    decided = [o for o in outcomes if o is not None]
    assert len(decided) == 1
    with SqliteStore(path) as store:
        assert [t.status for t in store.list_tickets()] == decided


def test_processes_creating_the_database_at_once_all_open_it(tmp_path: Path) -> None:
    path = tmp_path / "fresh" / "mcpwall.db"

    with racing(_open, path) as collect:
        outcomes = collect()

    assert outcomes == ["opened"] * WORKERS
    with SqliteStore(path) as store:
        assert all(store.get_budget(f"worker-{i}") == {"spent": 1} for i in range(WORKERS))
