"""``mcpwall approvals list|approve|deny``: a human's answer to a call that asked for confirmation.

The gateway opens a ticket and tells the agent its id; the operator decides here. A ``once``
approval lets exactly that call (same arguments, same policy) through one time; ``--session``
(only for tools at ``CONFIRM_SESSION``) lets the tool through for the rest of the session.
"""

from __future__ import annotations

import time
from typing import Annotated

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
from mcpwall.store import Store, Ticket, TicketScope

app = typer.Typer(no_args_is_help=True, help="Tool calls waiting for a human decision.")

TicketId = Annotated[str, typer.Argument(metavar="ID", help="The ticket id the agent was given.")]


def _status(ticket: Ticket, now: float) -> str:
    return "expired" if ticket.status == "pending" and not ticket.is_open(now) else ticket.status


def _row(t: Ticket, now: float) -> list[str]:
    decided = t.decided_by or "-"
    return [
        t.id,
        t.session,
        t.server,
        t.tool,
        t.level,
        _status(t, now),
        t.scope,
        when(t.created),
        when(t.expires),
        decided,
    ]


@app.command("list")
def list_tickets(
    show_all: Annotated[bool, typer.Option("--all", help="Every ticket, not only the open ones.")] = False,
    as_json: JsonOption = False,
    state: StateDirOption = None,
) -> None:
    """List open tickets (pending, unexpired), or every ticket with --all."""
    now = time.time()
    with opened_store(state) as store:
        tickets = store.list_tickets(None if show_all else "pending")
    if not show_all:
        tickets = [t for t in tickets if t.is_open(now)]
    if as_json:
        print_json(tickets)
        return
    columns = ["ID", "SESSION", "SERVER", "TOOL", "LEVEL", "STATUS", "SCOPE", "CREATED", "EXPIRES", "DECIDED BY"]
    print_table("Approval tickets", columns, [_row(t, now) for t in tickets])


def _why_not(store: Store, ticket_id: str, scope: TicketScope) -> str:
    """Why a decision did not happen, for the operator."""
    ticket = store.get_ticket(ticket_id)
    if ticket is None:
        return f"no ticket {ticket_id}"
    if ticket.status == "expired" or (ticket.status == "pending" and not ticket.is_open(time.time())):
        return f"ticket {ticket.id} has expired"
    if ticket.status == "pending" and scope == "session":
        return f"ticket {ticket.id} is {ticket.level}: it can only be approved once, not for the session"
    return f"ticket {ticket.id} is already {ticket.status}" + (f" by {ticket.decided_by}" if ticket.decided_by else "")


def _decide(ticket_id: str, *, approve: bool, scope: TicketScope, state: StateDirOption) -> Ticket:
    with opened_store(state) as store, audit_trail(state) as chain:
        ticket = store.decide_ticket(ticket_id, approve=approve, scope=scope, decided_by=operator(), channel="cli")
        if ticket is None:
            fail(_why_not(store, ticket_id, scope))
        event = "approval_granted" if approve else "approval_denied"
        fields = {"session": ticket.session, "server": ticket.server, "tool": ticket.tool, "binding": ticket.binding}
        chain.append(operator_event(event, ticket=ticket.id, scope=ticket.scope, level=ticket.level, **fields))
    return ticket


@app.command("approve")
def approve_ticket(
    ticket_id: TicketId,
    session: Annotated[bool, typer.Option("--session", help="Allow the tool for the rest of the session.")] = False,
    state: StateDirOption = None,
) -> None:
    """Approve a pending ticket: once for that exact call, or for the session with --session."""
    ticket = _decide(ticket_id, approve=True, scope="session" if session else "once", state=state)
    what = "for the rest of the session" if ticket.scope == "session" else "once"
    typer.echo(f"approved {ticket.id}: {ticket.server}:{ticket.tool} {what} (session {ticket.session})")


@app.command("deny")
def deny_ticket(ticket_id: TicketId, state: StateDirOption = None) -> None:
    """Deny a pending ticket."""
    ticket = _decide(ticket_id, approve=False, scope="once", state=state)
    typer.echo(f"denied {ticket.id}: {ticket.server}:{ticket.tool} (session {ticket.session})")
