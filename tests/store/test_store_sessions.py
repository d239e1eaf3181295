"""Sessions and risk budgets: persisted between processes, released by a human."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcpwall.gatekeeper.danger_zone import RiskBudget
from mcpwall.store import SqliteStore

LOCKED = RiskBudget(spent=42, calls=7, locked=True, lock_reason="risk budget 40 exceeded")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    with SqliteStore(tmp_path / "mcpwall.db") as opened:
        yield opened


def start(store: SqliteStore, session_id: str = "s1", started: float = 1.0) -> None:
    store.upsert_session(
        session_id,
        server="git",
        era="2025-06-18",
        client_info={"name": "claude", "version": "1"},
        profiles=["developer"],
        started=started,
    )


def test_session_is_recorded_and_listed_newest_first(store: SqliteStore) -> None:
    start(store, "old", started=1.0)
    start(store, "new", started=2.0)

    sessions = store.list_sessions()

    assert [s.id for s in sessions] == ["new", "old"]
    assert (sessions[0].client_info, sessions[0].profiles, sessions[0].budget) == (
        {"name": "claude", "version": "1"},
        ["developer"],
        None,
    )


def test_upserting_a_session_again_keeps_its_start_time(store: SqliteStore) -> None:
    start(store, started=1.0)
    start(store, started=9.0)

    found = store.get_session("s1")
    assert found is not None
    assert found.started == 1.0


def test_ended_session_carries_its_end_time(store: SqliteStore) -> None:
    start(store)
    store.end_session("s1", ended=5.0)

    found = store.get_session("s1")
    assert found is not None
    assert found.ended == 5.0


def test_risk_budget_round_trips_through_the_store(store: SqliteStore) -> None:
    store.put_budget("s1", LOCKED.to_dict())

    found = store.get_budget("s1")

    assert found is not None
    assert RiskBudget.from_dict(found) == LOCKED
    assert store.get_budget("s2") is None


def test_budget_update_reads_and_writes_in_one_step(store: SqliteStore) -> None:
    def spend(budget: dict[str, Any] | None) -> dict[str, Any]:
        current = RiskBudget.from_dict(budget) if budget else RiskBudget()
        return RiskBudget(current.spent + 5, current.calls + 1).to_dict()

    store.update_budget("s1", spend)
    store.update_budget("s1", spend)

    assert store.get_budget("s1") == RiskBudget(spent=10, calls=2).to_dict()


def test_release_unlocks_and_resets_spent_risk_but_keeps_the_call_count(store: SqliteStore) -> None:
    start(store)
    store.put_budget("s1", LOCKED.to_dict())

    assert store.release_session("s1", by="alice", now=3.0)

    found = store.get_session("s1")
    assert found is not None
    assert found.budget == RiskBudget(spent=0, calls=7).to_dict()
    assert (found.released_by, found.released_at) == ("alice", 3.0)


def test_session_without_budget_has_nothing_to_release(store: SqliteStore) -> None:
    start(store)

    assert not store.release_session("s1", by="alice")
    assert not store.release_session("unknown", by="alice")
