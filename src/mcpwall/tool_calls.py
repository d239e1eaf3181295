"""How a session handles tools/call: admission, holds, elicitation, resumption.

A mixin of `Session` (kept apart so each module stays small): it reads the session's state
declared below and answers through the session's `_refuse`, `to_client` and `to_server`.
"""

from __future__ import annotations

import time
from typing import Any

from mcpwall import jsonrpc, mcp
from mcpwall.approvals import elicitation
from mcpwall.audit import Auditor
from mcpwall.calls import DENIED_MESSAGE, Admission, CallGuard
from mcpwall.collisions import NameCollisions
from mcpwall.errors import ProtocolError
from mcpwall.inspection.review import Review, ToolReviewer
from mcpwall.jsonrpc import Message, RequestId
from mcpwall.pipeline.check import Context
from mcpwall.session_types import Held, Hold, Pending, Send
from mcpwall.store import Ticket


class ToolCalls:
    """The tools/call half of a session."""

    id: str
    server: str
    audit: Auditor
    guard: CallGuard
    facts: mcp.SessionFacts
    tools: dict[str, dict[str, Any]]
    pending: dict[RequestId, Pending]
    held: dict[str, Held]
    elicitations: dict[str, str]
    reviewer: ToolReviewer | None
    reviews: dict[str, Review]
    collisions: NameCollisions | None
    to_client: Send
    to_server: Send
    on_hold: Hold

    def context(self) -> Context:
        raise NotImplementedError

    def _refuse(
        self, request_id: RequestId | None, sender: str, code: int, reason: str, *, answer: bool = True
    ) -> None:
        raise NotImplementedError

    def _tool_call(self, message: Message) -> None:
        answered_ticket = elicitation.ticket_of_state(message.params)
        answer = elicitation.take_answer(message.params) if answered_ticket else None
        try:
            call = mcp.ToolCall.of(message)
        except ProtocolError as exc:
            self._refuse(message.id, "client", exc.code, str(exc))
            return
        if answered_ticket is not None and not self._elicited(answered_ticket, call, answer):
            return
        self._refresh_review(call.name)
        self.guard.refresh_budget(self.id)
        review = self.reviews.get(call.name)
        admission = self.guard.admit(call, self.context(), review.hash if review else "")
        if admission.action == "answered":
            return
        if admission.action == "elicit" and admission.ticket and self.facts.era is mcp.Era.STATELESS:
            self.audit.emit("elicitation_sent", tool=call.name, ticket=admission.ticket.id)
            self.to_client(jsonrpc.dump(elicitation.input_required(self.server, call, admission.ticket.id)))
            return
        self.pending[call.request_id] = Pending(message.method, time.perf_counter(), call.name)
        if admission.action in ("hold", "elicit") and admission.ticket is not None:
            self.held[admission.ticket.id] = Held(message, call, admission)
            if admission.action == "elicit":
                self._ask_client(call, admission.ticket.id)
            else:
                self.on_hold(admission.ticket.id)
            return
        self._forward_call(message, admission)

    def _ask_client(self, call: mcp.ToolCall, ticket: str) -> None:
        request = elicitation.request(self.server, call, ticket)
        self.elicitations[request["id"]] = ticket
        self.audit.emit("elicitation_sent", tool=call.name, ticket=ticket)
        self.to_client(jsonrpc.dump(request))

    def _elicitation_answered(self, message: Message) -> None:
        ticket = self.elicitations.pop(str(message.id))
        yes = elicitation.approved(message.obj.get("result"))
        self._decide_by_user(ticket, yes)
        self.resume(ticket, "approved" if yes else "denied")

    def _elicited(self, ticket_id: str, call: mcp.ToolCall, answer: Any) -> bool:
        """A 2026-07-28 retry carrying the user's answer: decide its ticket; True to go on."""
        gate = self.guard.gate
        ticket = gate.store.get_ticket(ticket_id) if gate else None
        if ticket is None or ticket.session != self.id or ticket.tool != call.name or ticket.status != "pending":
            self._refuse(call.request_id, "client", jsonrpc.INVALID_REQUEST, "unknown or settled approval state")
            return False
        yes = elicitation.approved(answer)
        self._decide_by_user(ticket_id, yes)
        if not yes:
            self.audit.emit("approval_denied", tool=call.name, ticket=ticket_id, channel="elicitation")
            data = {"violation": "ApprovalDenied", "tool": call.name}
            self.to_client(jsonrpc.dump(jsonrpc.error(call.request_id, jsonrpc.POLICY_DENIED, DENIED_MESSAGE, data)))
        return yes

    def _decide_by_user(self, ticket: str, yes: bool) -> None:
        if self.guard.gate is not None:
            self.guard.gate.decide(ticket, approve=yes, channel="elicitation", by="client-user")
        event = "approval_granted" if yes else "approval_denied"
        self.audit.emit(event, ticket=ticket, channel="elicitation", approver="client-user")

    def _forward_call(self, message: Message, admission: Admission) -> None:
        self.to_server(jsonrpc.dump(message.obj))
        self.guard.executed(self.id, admission.classification)

    def resume(self, ticket_id: str, status: str) -> None:
        """A held call's ticket was decided (or expired): forward it once, or refuse it."""
        held = self.held.pop(ticket_id, None)
        if held is None or held.call.request_id not in self.pending:
            return
        approval = self._approval_of(held) if status == "approved" else None
        if approval is not None:
            level = held.admission.decision.level.name if held.admission.decision else ""
            self.audit.emit("approval_used", tool=held.call.name, ticket=ticket_id, scope=approval.scope)
            self.audit.emit("tool_call_allowed", tool=held.call.name, level=level, ticket=ticket_id)
            self._forward_call(held.message, held.admission)
            return
        self.pending.pop(held.call.request_id, None)
        denied = status == "denied"
        self.audit.emit("approval_denied" if denied else "approval_expired", tool=held.call.name, ticket=ticket_id)
        if held.admission.decision is not None:
            self.guard.deny(held.call, held.admission.decision, "ApprovalDenied" if denied else "ApprovalExpired")

    def _approval_of(self, held: Held) -> Ticket | None:
        gate, ticket = self.guard.gate, held.admission.ticket
        if gate is None or ticket is None:
            return None
        return gate.consume(held.call.name, ticket.binding)

    def _refresh_review(self, tool: str) -> None:
        """A blocked tool may have been approved from another terminal since: read the pin again."""
        review = self.reviews.get(tool)
        if review is None and self.reviewer is not None:
            pinned = self.reviewer.from_pin(tool)
            if pinned is not None:
                self.reviews[tool] = pinned
                self.tools.setdefault(tool, self.reviewer.definitions[tool])
        elif review is not None and review.blocked and self.reviewer is not None:
            fresh = self.reviewer.refresh(tool)
            if fresh is not None:
                self.reviews[tool] = self.collisions.applied(fresh) if self.collisions else fresh
