"""The one interface every state backend implements (SQLite now, PostgreSQL later).

Calls are synchronous and short: the gateway makes them outside the relay's hot path (from a
worker thread when it must not block the loop). Every read-modify-write is one atomic
transaction in the backend, so several mcpwall processes can share one store. Times are epoch
seconds; methods that take ``now`` default it to ``time.time()`` so tests can pin the clock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from mcpwall.store.records import Pin, PinState, SessionRecord, Ticket, TicketLevel, TicketScope, TicketStatus

BudgetChange = Callable[[dict[str, Any] | None], dict[str, Any]]


class Store(Protocol):
    """Pins, approval tickets and sessions, shared by every mcpwall process of one installation."""

    # Pins (tool name "" = the server's instructions, see records.INSTRUCTIONS)

    def get_pin(self, server: str, tool: str) -> Pin | None:
        """The pin of one tool, or None when the tool was never seen."""

    def put_pin(self, pin: Pin) -> None:
        """Insert or replace the pin of ``(pin.server, pin.tool)``."""

    def put_pins(
        self,
        pins: Sequence[Pin],
        findings: Sequence[tuple[str, str, str]] = (),
        skeletons: Sequence[tuple[str, str, str]] = (),
    ) -> None:
        """Insert or replace several pins in one transaction (a later one wins for the same tool),
        and remember ``findings`` (see `remember_findings`) and the names' ``skeletons`` (see
        `remember_skeletons`) in the same transaction."""

    def known_findings(self, rules: str, hashes: Sequence[str]) -> dict[str, str]:
        """The findings remembered for these definition hashes under rule set ``rules`` (a
        fingerprint), as the JSON text they were stored with; hashes never inspected are absent."""

    def remember_findings(self, findings: Sequence[tuple[str, str, str]]) -> None:
        """Remember ``(rules fingerprint, definition hash, findings JSON)`` rows (a row computed
        again replaces the stored one, so a damaged row is repaired)."""

    def earlier_listers(self, tools: Sequence[str], server: str) -> dict[str, list[str]]:
        """For each of ``tools`` that other servers pinned (and still list) before ``server``
        pinned it: those servers, sorted. Tools no earlier server lists are absent."""

    def remember_skeletons(self, names: Sequence[tuple[str, str, str]]) -> None:
        """Remember ``(server, tool, skeleton)`` rows: what each pinned tool name looks like (see
        `mcpwall.inspection.naming.name_skeleton`); a name's row, once written, is kept."""

    def unskeletoned_tools(self) -> list[tuple[str, str]]:
        """The ``(server, tool)`` of pins whose name has no skeleton row yet (pinned by ``mcpwall
        scan`` or an older mcpwall)."""

    def listers_by_skeleton(self, skeletons: Sequence[str]) -> list[tuple[str, str, float]]:
        """The tools some server still lists (its pin not ``removed``) whose names have one of
        ``skeletons``: ``(tool, server, first_seen)``, ordered by tool then server."""

    def pin_states(self, server: str) -> dict[str, PinState]:
        """The state of every pin of one server, by tool name, without reading its definitions."""

    def get_pins(self, server: str, tools: Sequence[str]) -> dict[str, Pin]:
        """The whole pins of these tools of one server, by tool name (tools never pinned are absent)."""

    def has_pins(self, server: str) -> bool:
        """Whether the server has any pin."""

    def list_pins(self, server: str | None = None) -> list[Pin]:
        """Every pin (of one server when given), ordered by server then tool."""

    def approve_pin(self, server: str, tool: str, *, expected_hash: str | None = None) -> Pin | None:
        """Promote the pending definition to the pinned one (or trust a new/blocked one).

        Args:
            server: the server identity.
            tool: the tool name.
            expected_hash: when given, approve only if this is the hash that would be pinned
                (the operator approves what they saw, not what changed since).

        Returns:
            The approved pin (status ``approved``), or None when there is nothing to approve.
        """

    def approve_server(self, server: str) -> list[Pin]:
        """Approve every approvable pin of one server, atomically; returns the approved pins."""

    # Tickets

    def create_ticket(
        self,
        *,
        session: str,
        server: str,
        tool: str,
        binding: str,
        level: TicketLevel,
        expires: float,
        now: float | None = None,
    ) -> Ticket:
        """Open a pending ``once`` ticket with a fresh short id."""

    def get_ticket(self, ticket_id: str) -> Ticket | None:
        """One ticket by id (case-insensitive), or None."""

    def list_tickets(self, status: TicketStatus | None = None, session: str | None = None) -> list[Ticket]:
        """Tickets, newest first, optionally of one status and one session."""

    def decide_ticket(
        self,
        ticket_id: str,
        *,
        approve: bool,
        scope: TicketScope,
        decided_by: str,
        channel: str,
        now: float | None = None,
    ) -> Ticket | None:
        """Approve or deny a pending, unexpired ticket, atomically.

        A ``session`` scope is only granted on a ``CONFIRM_SESSION`` ticket. A pending ticket
        found past its expiry is marked ``expired``.

        Returns:
            The decided ticket, or None when no ticket could be decided (unknown, expired,
            already decided, or a session scope asked of a single-use ticket): `get_ticket`
            tells which.
        """

    def consume_approval(
        self, *, session: str, server: str, tool: str, binding: str, now: float | None = None
    ) -> Ticket | None:
        """The approval that lets this call through, or None.

        Atomically: an approved ``once`` ticket for exactly this session and binding is marked
        ``consumed`` and returned (so exactly one caller wins it); otherwise an approved
        ``session`` ticket for this session, server and tool is returned as is.
        """

    def expire_tickets(self, now: float | None = None) -> int:
        """Mark pending tickets past their expiry ``expired``; returns how many."""

    # Sessions and risk budgets

    def upsert_session(
        self,
        session_id: str,
        *,
        server: str,
        era: str,
        client_info: dict[str, Any],
        profiles: list[str],
        started: float,
    ) -> None:
        """Record a session (or update it when a client re-initializes)."""

    def end_session(self, session_id: str, ended: float | None = None) -> None:
        """Mark a session ended."""

    def get_session(self, session_id: str) -> SessionRecord | None:
        """One session with its budget, or None."""

    def list_sessions(self) -> list[SessionRecord]:
        """Every session with its budget, newest first."""

    def get_budget(self, session_id: str) -> dict[str, Any] | None:
        """The session's ``RiskBudget.to_dict()``, or None before its first call."""

    def put_budget(self, session_id: str, budget: dict[str, Any]) -> None:
        """Replace the session's budget."""

    def update_budget(self, session_id: str, change: BudgetChange) -> dict[str, Any]:
        """Read, change and write the budget in one transaction (``change`` must be quick and pure).

        A release by an operator in another process is never overwritten by a stale budget.
        """

    def release_session(self, session_id: str, *, by: str, now: float | None = None) -> bool:
        """Unlock a session's budget and reset its spent risk; False when it has no budget."""

    def close(self) -> None:
        """Release the backend's connection."""
