"""`CallGuard`: everything a tools/call goes through before it may be forwarded.

In order: the pipeline's decision (tool lists, inspection, gatekeeper, armor), the rate
limits (only for calls the pipeline let through, so a refused call spends no quota), then for
a CONFIRM_* level the approval gate: an approval already given lets it go, otherwise a ticket
is opened and the call is refused with CONFIRMATION_REQUIRED (``ticket`` channel) or held
until a human decides (``hold``). After a call has gone, its classification is charged to the
session's danger-zone budget; crossing the budget locks the session until a human releases it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mcpwall import jsonrpc
from mcpwall.approvals.gate import ApprovalGate
from mcpwall.armor.argument_check import refusal
from mcpwall.armor.rate_limits import RateLimiter
from mcpwall.audit import Auditor
from mcpwall.gatekeeper.check import CLASSIFICATION
from mcpwall.gatekeeper.danger_zone import DangerZone, RiskBudget
from mcpwall.gatekeeper.kinds import Classification
from mcpwall.gatekeeper.settings import DangerZoneSettings
from mcpwall.mcp import ToolCall
from mcpwall.pipeline.check import Context
from mcpwall.pipeline.runner import Pipeline
from mcpwall.pipeline.verdict import Decision, PermissionLevel
from mcpwall.store import Store, Ticket

DENIED_MESSAGE = "Blocked by mcpwall policy."
CONFIRM_MESSAGE = "This action needs the user's approval. Ask the user to approve it; then retry the same call."


@dataclass(frozen=True, slots=True)
class Admission:
    """The guard's answer: ``forward``, ``answered`` (an error went back), or ``hold``."""

    action: str
    classification: Classification | None = None
    ticket: Ticket | None = None
    decision: Decision | None = None


class CallGuard:
    """The tools/call policy of one session.

    Args:
        pipeline: the checks.
        auditor: the audit trail.
        limiter: rate limits.
        gate: approvals (None: CONFIRM_* levels are refused, fail closed).
        store: where the risk budget lives (None: in memory only).
        danger: danger-zone settings.
        reply: sends one error line to the client.
    """

    def __init__(
        self,
        *,
        pipeline: Pipeline,
        auditor: Auditor,
        limiter: RateLimiter,
        gate: ApprovalGate | None,
        store: Store | None,
        danger: DangerZoneSettings,
        reply: Any,
    ) -> None:
        self.pipeline = pipeline
        self.audit = auditor
        self.limiter = limiter
        self.gate = gate
        self.store = store
        self.zone = DangerZone(danger)
        self.reply = reply
        self.budget = RiskBudget()
        self._read_at = 0.0
        self.shared_budget = False

    def admit(self, call: ToolCall, ctx: Context, definition_hash: str) -> Admission:
        """Decide a call; errors for refused calls are sent from here."""
        decision = self.pipeline.decide_call(call, ctx)
        self.audit.emit("tool_call_requested", tool=call.name, **self.audit.arguments(call.arguments))
        if not decision.denied and (limited := self.limiter.hit(ctx.session_id, call.name)) is not None:
            decision = Decision.combine([*decision.verdicts, refusal("rate-limits", limited, [limited])])
        if decision.level is not PermissionLevel.AUTO_APPROVE:
            self._record_resolution(call, decision)
        if decision.denied:
            self.deny(call, decision)
            return Admission("answered")
        classification = _classification(decision)
        if decision.level is PermissionLevel.AUTO_APPROVE:
            self.audit.emit("tool_call_allowed", tool=call.name, level=decision.level.name, **_compact(decision))
            return Admission("forward", classification)
        return self._confirm(call, decision, classification, definition_hash, _can_elicit(ctx))

    def _confirm(
        self,
        call: ToolCall,
        decision: Decision,
        classification: Classification | None,
        definition_hash: str,
        can_elicit: bool,
    ) -> Admission:
        if self.gate is None:
            self.deny(call, decision)
            return Admission("answered")
        settlement = self.gate.settle(call, decision.level, self.gate.binding(call, definition_hash))
        ticket = settlement.ticket
        if settlement.go:
            self.audit.emit(
                "approval_used", tool=call.name, ticket=ticket.id, scope=ticket.scope, level=decision.level.name
            )
            self.audit.emit("tool_call_allowed", tool=call.name, level=decision.level.name, ticket=ticket.id)
            return Admission("forward", classification)
        self.audit.emit(
            "ticket_created", tool=call.name, ticket=ticket.id, level=decision.level.name, expires=ticket.expires
        )
        if self.gate.settings.channel == "ticket":
            self.ask_user(call, ticket)
            return Admission("answered")
        if self.gate.settings.channel == "elicitation" and can_elicit:
            return Admission("elicit", classification, ticket, decision)
        return Admission("hold", classification, ticket, decision)

    def ask_user(self, call: ToolCall, ticket: Ticket) -> None:
        """Refuse for now, naming the ticket the user approves."""
        data = {"ticket": ticket.id, "tool": call.name, "approve_with": f"mcpwall approvals approve {ticket.id}"}
        self.reply(jsonrpc.error(call.request_id, jsonrpc.CONFIRMATION_REQUIRED, CONFIRM_MESSAGE, data))

    def deny(self, call: ToolCall, decision: Decision, because: str | None = None) -> None:
        """Refuse a call: generic message for the model, the full reason in the audit trail.

        Args:
            call: the call.
            decision: the pipeline's decision.
            because: the violation, when it is not the decision's (an approval denied or expired).
        """
        verdict = decision.decisive
        violation = because or (verdict.violation if verdict else None)
        listed = verdict.detail.get("violations", []) if verdict else []
        for found in listed if isinstance(listed, list) else []:
            self.audit.emit("tool_policy_violation", tool=call.name, **found)
        self.audit.emit(
            "tool_call_denied",
            tool=call.name,
            level=decision.level.name,
            violation=violation,
            check=verdict.check if verdict else None,
            rule=verdict.rule if verdict else None,
            reason=verdict.reason if verdict else None,
            status="PERMISSION_DENIED",
        )
        data = {"violation": violation or "PolicyDenied", "tool": call.name}
        self.reply(jsonrpc.error(call.request_id, jsonrpc.POLICY_DENIED, DENIED_MESSAGE, data))

    def executed(self, session: str, classification: Classification | None) -> None:
        """Charge a call that went to the server to the session's risk budget."""
        if classification is None:
            return
        before = self.budget
        after = self.zone.record(before, classification)
        changed = (after.spent, after.locked) != (before.spent, before.locked)
        if changed and self.store is not None:  # a read costs nothing: no write on the hot path
            after = RiskBudget.from_dict(self.store.update_budget(session, self._charge(before, classification)))
        self.budget = after
        if self.budget.locked and not before.locked:
            self.audit.emit("session_locked", spent=self.budget.spent, reason=self.budget.lock_reason)

    def _charge(
        self, base: RiskBudget, classification: Classification
    ) -> Callable[[dict[str, Any] | None], dict[str, Any]]:
        """The change to the shared budget: charged on top of what is stored (other servers of
        the same session charge it too), never undoing an operator's release."""

        def change(stored: dict[str, Any] | None) -> dict[str, Any]:
            current = RiskBudget.from_dict(stored) if stored is not None else base
            return self.zone.record(current, classification).to_dict()

        return change

    def refresh_budget(self, session: str) -> None:
        """Read the shared budget again when it may have changed elsewhere: while locked (a human
        may have released it); before every call when other servers of the same session charge
        it too (``shared_budget``); otherwise at most once a second."""
        now = time.monotonic()
        due = self.shared_budget or now - self._read_at > 1.0
        if self.store is None or not (self.budget.locked or due):
            return
        self._read_at = now
        stored = self.store.get_budget(session)
        if stored is not None:
            self.budget = RiskBudget.from_dict(stored)

    def _record_resolution(self, call: ToolCall, decision: Decision) -> None:
        """The full resolution of a call that is not simply auto-approved (that one is recorded
        compactly in its ``tool_call_allowed`` record: it is the common case)."""
        for verdict in decision.verdicts:
            if verdict.check == "gatekeeper":
                explain = {k: v for k, v in verdict.detail.items() if k != CLASSIFICATION}
                self.audit.emit("gatekeeper_resolution", tool=call.name, resolution=explain)


def _compact(decision: Decision) -> dict[str, object]:
    """The gatekeeper's resolution of an auto-approved call, in a few fields."""
    verdict = next((v for v in decision.verdicts if v.check == "gatekeeper"), None)
    if verdict is None:
        return {}
    return {"kind": verdict.detail.get("kind"), "decided_by": verdict.detail.get("decided_by"), "rule": verdict.rule}


def _classification(decision: Decision) -> Classification | None:
    for verdict in decision.verdicts:
        found = verdict.detail.get(CLASSIFICATION)
        if isinstance(found, Classification):
            return found
    return None


def _can_elicit(ctx: Context) -> bool:
    """Whether the client declared it can ask its user (the elicitation capability)."""
    return isinstance(ctx.facts.capabilities.get("elicitation"), dict)
