"""`ApprovalGate`: may a call that needs confirmation go now, wait, or not at all?

Only the store's tickets approve anything, and only a human writes them (the CLI, the console,
or the user's answer to an elicitation mcpwall itself sent). Nothing the model sends — a tool
call, an argument, an unsolicited response — can create or decide a ticket.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from mcpwall.approvals.binding import call_binding
from mcpwall.approvals.settings import ApprovalSettings
from mcpwall.mcp import ToolCall
from mcpwall.pipeline.verdict import PermissionLevel
from mcpwall.store import Store, Ticket


@dataclass(frozen=True, slots=True)
class Settlement:
    """The gate's answer: ``go`` (with the approval used), or ``ask`` (with the new ticket)."""

    go: bool
    ticket: Ticket


class ApprovalGate:
    """Tickets for one session's calls.

    Args:
        store: the shared state (tickets).
        server: the server identity.
        session: the mcpwall session id.
        settings: channel and timings.
        policy: the policy revision calls are bound to.
    """

    def __init__(self, store: Store, server: str, session: str, settings: ApprovalSettings, policy: str) -> None:
        self.store = store
        self.server = server
        self.session = session
        self.settings = settings
        self.policy = policy

    def binding(self, call: ToolCall, definition_hash: str) -> str:
        """What an approval of this exact call is bound to."""
        return call_binding(self.server, call.name, definition_hash, call.arguments, self.policy)

    def settle(self, call: ToolCall, level: PermissionLevel, binding: str) -> Settlement:
        """Use an existing approval for this call, or open a ticket for a human to decide."""
        approval = self.consume(call.name, binding)
        if approval is not None:
            return Settlement(True, approval)
        ticket = self.store.create_ticket(
            session=self.session,
            server=self.server,
            tool=call.name,
            binding=binding,
            level="CONFIRM_SESSION" if level is PermissionLevel.CONFIRM_SESSION else "CONFIRM_SINGLE_USE",
            expires=time.time() + self.settings.ticket_seconds,
        )
        return Settlement(False, ticket)

    def consume(self, tool: str, binding: str) -> Ticket | None:
        """The approval that lets this call through now (a once-approval is used up)."""
        return self.store.consume_approval(session=self.session, server=self.server, tool=tool, binding=binding)

    def status(self, ticket_id: str) -> str:
        """A ticket's status now (``expired`` when past its expiry while still pending)."""
        ticket = self.store.get_ticket(ticket_id)
        if ticket is None:
            return "denied"
        if ticket.status == "pending" and ticket.expires < time.time():
            return "expired"
        return ticket.status

    def decide(self, ticket_id: str, *, approve: bool, channel: str, by: str) -> Ticket | None:
        """Record a decision that reached mcpwall on its own channel (elicitation, timeout)."""
        return self.store.decide_ticket(ticket_id, approve=approve, scope="once", decided_by=by, channel=channel)
