"""``mcpwall sessions list|release``: see locked sessions and let them go."""

from __future__ import annotations

from pathlib import Path

from operator_cli import OperatorCli

from mcpwall.gatekeeper.danger_zone import RiskBudget

LOCKED = RiskBudget(spent=45, calls=9, locked=True, lock_reason="risk budget exceeded")


def start(cli: OperatorCli, session_id: str = "s1", budget: RiskBudget | None = LOCKED) -> None:
    with cli.store() as store:
        store.upsert_session(
            session_id, server="git", era="2025-06-18", client_info={"name": "c"}, profiles=["developer"], started=1.0
        )
        if budget is not None:
            store.put_budget(session_id, {**budget.to_dict(), "limit": 40})


def test_list_shows_profiles_risk_and_lock(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    start(cli)

    done = cli("sessions", "list")

    assert done.returncode == 0, done.stderr
    for text in ("s1", "git", "2025-06-18", "developer", "45/40", "LOCKED (risk budget exceeded)"):
        assert text in done.stdout


def test_list_json_carries_the_budget(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    start(cli)

    (session,) = cli.json("sessions", "list")

    assert RiskBudget.from_dict(session["budget"]) == LOCKED


def test_release_unlocks_the_session_and_is_audited(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    start(cli)

    done = cli("sessions", "release", "s1")

    assert done.returncode == 0, done.stderr
    with cli.store() as store:
        budget = store.get_budget("s1")
    assert budget is not None
    assert RiskBudget.from_dict(budget) == RiskBudget(spent=0, calls=9)
    (event,) = cli.audit()
    assert (event["type"], event["session"], event["server"]) == ("session_released", "s1", "git")
    assert event["previous"] == {"spent": 45, "locked": True, "lock_reason": "risk budget exceeded"}
    assert event["approver"]


def test_releasing_a_session_without_budget_exits_1(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    start(cli, budget=None)

    done = cli("sessions", "release", "s1")

    assert done.returncode == 1
    assert "no risk budget" in done.stderr
    assert cli.audit() == []
