"""``mcpwall sessions list|release``: who is connected, and their danger-zone risk budgets.

A session whose budget was exceeded is *locked*: only read calls pass until an operator
releases it, which resets its spent risk.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from mcpwall.cli.store_cmds import (
    JsonOption,
    StateDirOption,
    audit_trail,
    fail,
    opened_store,
    operator,
    operator_event,
    print_json,
    print_table,
    when,
)
from mcpwall.store import SessionRecord

app = typer.Typer(no_args_is_help=True, help="Sessions and their risk budgets.")


def _risk(budget: dict[str, Any] | None) -> str:
    if budget is None:
        return "-"
    limit = budget.get("limit", budget.get("budget"))
    spent = budget.get("spent", 0)
    return f"{spent}/{limit}" if limit is not None else str(spent)


def _locked(budget: dict[str, Any] | None) -> str:
    if not budget or not budget.get("locked"):
        return "no"
    reason = budget.get("lock_reason")
    return f"LOCKED ({reason})" if reason else "LOCKED"


def _row(session: SessionRecord) -> list[str]:
    profiles = ", ".join(session.profiles) or "-"
    budget = session.budget
    started, ended = when(session.started), when(session.ended)
    return [session.id, session.server, session.era, profiles, _risk(budget), _locked(budget), started, ended]


@app.command("list")
def list_sessions(as_json: JsonOption = False, state: StateDirOption = None) -> None:
    """List sessions: id, server, era, profiles, risk spent/budget, locked."""
    with opened_store(state) as store:
        sessions = store.list_sessions()
    if as_json:
        print_json(sessions)
        return
    columns = ["ID", "SERVER", "ERA", "PROFILES", "RISK", "LOCKED", "STARTED", "ENDED"]
    print_table("Sessions", columns, [_row(s) for s in sessions])


@app.command("release")
def release(
    session_id: Annotated[str, typer.Argument(metavar="ID", help="The session to release.")],
    state: StateDirOption = None,
) -> None:
    """Unlock a session's risk budget and reset its spent risk."""
    with opened_store(state) as store, audit_trail(state) as chain:
        before = store.get_budget(session_id)
        if not store.release_session(session_id, by=operator()):
            fail(f"session {session_id} has no risk budget to release (unknown, or no call yet)")
        record = store.get_session(session_id)
        server = record.server if record is not None else None
        previous = {key: before.get(key) for key in ("spent", "locked", "lock_reason")} if before else {}
        chain.append(operator_event("session_released", session=session_id, server=server, previous=previous))
    typer.echo(f"released session {session_id}")
