"""``mcpwall approvals list|approve|deny``: a human decides, the gateway's next call sees it."""

from __future__ import annotations

import time
from pathlib import Path

from operator_cli import OperatorCli

from mcpwall.audit import verify
from mcpwall.store import Ticket, TicketLevel

BINDING = "b" * 64


def open_ticket(cli: OperatorCli, level: TicketLevel = "CONFIRM_SINGLE_USE", *, expires_in: float = 600) -> Ticket:
    with cli.store() as store:
        return store.create_ticket(
            session="s1", server="git", tool="push", binding=BINDING, level=level, expires=time.time() + expires_in
        )


def consume(cli: OperatorCli, binding: str = BINDING) -> Ticket | None:
    with cli.store() as store:
        return store.consume_approval(session="s1", server="git", tool="push", binding=binding)


def test_list_shows_open_tickets_only_unless_all(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    fresh, stale = open_ticket(cli), open_ticket(cli, expires_in=-1)

    assert [t["id"] for t in cli.json("approvals", "list")] == [fresh.id]
    assert {t["id"] for t in cli.json("approvals", "list", "--all")} == {fresh.id, stale.id}
    table = cli("approvals", "list").stdout
    assert fresh.id in table
    assert stale.id not in table


def test_approving_once_lets_exactly_that_call_through_once(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    ticket = open_ticket(cli)

    done = cli("approvals", "approve", ticket.id.lower())

    assert done.returncode == 0, done.stderr
    assert consume(cli, binding="other" * 4) is None
    granted = consume(cli)
    assert granted is not None
    assert (granted.id, granted.status, granted.channel) == (ticket.id, "consumed", "cli")
    assert consume(cli) is None


def test_approval_is_audited_with_the_approver(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    ticket = open_ticket(cli, "CONFIRM_SESSION")

    cli("approvals", "approve", ticket.id, "--session")

    (event,) = cli.audit()
    assert (event["type"], event["ticket"], event["scope"], event["session"]) == (
        "approval_granted",
        ticket.id,
        "session",
        "s1",
    )
    with cli.store() as store:
        decided = store.get_ticket(ticket.id)
    assert decided is not None
    assert event["approver"] == decided.decided_by
    assert verify(cli.state / "audit.jsonl").ok


def test_session_approval_covers_later_calls_of_the_tool(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    ticket = open_ticket(cli, "CONFIRM_SESSION")

    cli("approvals", "approve", ticket.id, "--session")

    grants = [consume(cli, binding=b * 64) for b in "xy"]
    assert [g.id if g else None for g in grants] == [ticket.id, ticket.id]


def test_session_approval_of_a_single_use_ticket_is_refused(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    ticket = open_ticket(cli, "CONFIRM_SINGLE_USE")

    done = cli("approvals", "approve", ticket.id, "--session")

    assert done.returncode == 1
    assert "can only be approved once" in done.stderr
    assert cli.audit() == []


def test_denied_ticket_is_audited_and_lets_nothing_through(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    ticket = open_ticket(cli)

    done = cli("approvals", "deny", ticket.id)

    assert done.returncode == 0, done.stderr
    assert [e["type"] for e in cli.audit()] == ["approval_denied"]
    assert consume(cli) is None


def test_deciding_an_unknown_expired_or_decided_ticket_exits_1_and_says_why(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    decided, expired = open_ticket(cli), open_ticket(cli, expires_in=-1)
    cli("approvals", "deny", decided.id)

    outcomes = [cli("approvals", "approve", ticket_id) for ticket_id in ("ZZZZZZZZ", expired.id, decided.id)]

    assert [o.returncode for o in outcomes] == [1, 1, 1]
    assert "no ticket ZZZZZZZZ" in outcomes[0].stderr
    assert "has expired" in outcomes[1].stderr
    assert "already denied" in outcomes[2].stderr
    assert [e["type"] for e in cli.audit()] == ["approval_denied"]
