"""The values the store keeps: :class:`Pin`, :class:`Ticket`, :class:`SessionRecord`.

They are plain frozen dataclasses holding JSON-ready data (dicts, lists, strings, epoch seconds
as floats), so that every backend can keep them as rows of scalars and JSON text.
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass, field
from typing import Any, Final, Literal

PinStatus = Literal["new", "unchanged", "changed", "removed", "approved", "blocked"]
TicketLevel = Literal["CONFIRM_SINGLE_USE", "CONFIRM_SESSION"]
TicketStatus = Literal["pending", "approved", "denied", "expired", "consumed"]
TicketScope = Literal["once", "session"]

PIN_STATUSES: Final[tuple[PinStatus, ...]] = ("new", "unchanged", "changed", "removed", "approved", "blocked")
TICKET_STATUSES: Final[tuple[TicketStatus, ...]] = ("pending", "approved", "denied", "expired", "consumed")
INSTRUCTIONS: Final = ""
"""The tool name under which a server's ``instructions`` are pinned (definition
``{"instructions": text}``): no MCP tool can be named with the empty string."""
SHORT_HASH: Final = 12


@dataclass(frozen=True, slots=True)
class Pin:
    """The approved model-visible definition of one tool (or of a server's instructions).

    Attributes:
        server: the server identity.
        tool: the tool name; :data:`INSTRUCTIONS` (``""``) for the server's instructions.
        hash: SHA-256 hex of the pinned definition (``inspection.pins.definition_hash``).
        definition: the pinned definition, as the model saw it.
        status: ``new``, ``unchanged``, ``changed`` (a pending definition awaits approval),
            ``removed`` (no longer listed), ``approved`` (a human approved it) or ``blocked``.
        max_severity: the highest finding severity (``low`` .. ``critical``), or None.
        findings: the inspection findings, as ``Finding.to_dict()`` dicts.
        pending_hash: hash of a changed definition awaiting approval, or None.
        pending_definition: that changed definition, or None.
        diff: field changes from the pinned to the pending definition (``FieldChange`` as dicts).
        first_seen: when the tool was first listed (epoch seconds).
        last_seen: when it was last listed (epoch seconds).
    """

    server: str
    tool: str
    hash: str
    definition: dict[str, Any]
    status: PinStatus
    first_seen: float
    last_seen: float
    max_severity: str | None = None
    findings: list[dict[str, Any]] = field(default_factory=list)
    pending_hash: str | None = None
    pending_definition: dict[str, Any] | None = None
    diff: list[dict[str, Any]] = field(default_factory=list)

    @property
    def short_hash(self) -> str:
        """The first characters of the pinned hash, for tables."""
        return self.hash[:SHORT_HASH]

    @property
    def approvable(self) -> bool:
        """Whether a human approval would change anything: a pending definition, or not yet trusted."""
        return self.pending_hash is not None or self.status in ("new", "changed", "blocked")


@dataclass(frozen=True, slots=True)
class PinState:
    """What a listing needs of a pin to tell whether a sighting changes it: every field of
    :class:`Pin` but the two definitions and the diff's content (the daily listing of an unchanged
    tool never reads them).

    Attributes:
        tool: the tool name.
        hash: the pinned definition's hash.
        status: the pin's status.
        max_severity: the highest finding severity, or None.
        findings: the findings, as in :attr:`Pin.findings`.
        pending: whether a changed definition awaits approval.
        diff: whether the pin holds a field diff.
        last_seen: when the tool was last listed (epoch seconds).
    """

    tool: str
    hash: str
    status: PinStatus
    max_severity: str | None
    findings: list[dict[str, Any]]
    pending: bool
    diff: bool
    last_seen: float

    @classmethod
    def of(cls, pin: Pin) -> PinState:
        """The state of a whole pin."""
        pending = pin.pending_hash is not None or pin.pending_definition is not None
        diff = bool(pin.diff)
        return cls(pin.tool, pin.hash, pin.status, pin.max_severity, pin.findings, pending, diff, pin.last_seen)


@dataclass(frozen=True, slots=True)
class Ticket:
    """A request for a human decision on one tool call.

    Attributes:
        id: short random id (8 base32 characters), what the operator types.
        session: the mcpwall session the call came from.
        server: the server identity.
        tool: the tool name.
        binding: SHA-256 hex over server, tool, definition hash, canonical arguments and policy
            revision (computed by the caller): a ``once`` approval is good for that call only.
        level: ``CONFIRM_SINGLE_USE`` or ``CONFIRM_SESSION`` (the permission level that asked).
        status: ``pending``, ``approved``, ``denied``, ``expired`` or ``consumed``.
        scope: ``once`` (this exact call, once) or ``session`` (this tool, rest of the session).
        created: when it was created (epoch seconds).
        expires: until when it can be decided (epoch seconds).
        decided_by: the OS user who decided, or None.
        decided_at: when it was decided, or None.
        channel: where it was decided (``cli``, ``web``...), or None.
        consumed_at: when a ``once`` approval was used, or None.
    """

    id: str
    session: str
    server: str
    tool: str
    binding: str
    level: TicketLevel
    status: TicketStatus
    scope: TicketScope
    created: float
    expires: float
    decided_by: str | None = None
    decided_at: float | None = None
    channel: str | None = None
    consumed_at: float | None = None

    def is_open(self, now: float) -> bool:
        """Whether it can still be decided: pending and not past its expiry."""
        return self.status == "pending" and now < self.expires


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """One mcpwall session (a client connected to one server).

    Attributes:
        id: the mcpwall session id.
        server: the server identity.
        era: the MCP protocol era (e.g. the negotiated protocol version).
        client_info: the client's ``clientInfo``.
        profiles: the gatekeeper profiles in force.
        started: when it started (epoch seconds).
        ended: when it ended, or None while it runs.
        budget: the danger-zone ``RiskBudget.to_dict()``, or None before the first call.
        released_by: the OS user who last released its budget, or None.
        released_at: when, or None.
    """

    id: str
    server: str
    era: str
    client_info: dict[str, Any]
    profiles: list[str]
    started: float
    ended: float | None = None
    budget: dict[str, Any] | None = None
    released_by: str | None = None
    released_at: float | None = None


def new_ticket_id() -> str:
    """A fresh ticket id: 40 random bits as 8 upper-case base32 characters."""
    return base64.b32encode(secrets.token_bytes(5)).decode("ascii")
