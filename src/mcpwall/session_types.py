"""The values a session is built from and keeps: its policy, held calls, pending requests."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from mcpwall import mcp
from mcpwall.approvals.gate import ApprovalGate
from mcpwall.armor.settings import ArmorSettings
from mcpwall.calls import Admission
from mcpwall.credentials import Secrets
from mcpwall.gatekeeper.profiles import Profile
from mcpwall.gatekeeper.settings import DangerZoneSettings
from mcpwall.inspection.other import OtherDefinitions
from mcpwall.inspection.review import ToolReviewer
from mcpwall.jsonrpc import Message
from mcpwall.pipeline.runner import Pipeline
from mcpwall.store import Store

Send = Callable[[bytes], None]
"""Sends one line to one side."""
Hold = Callable[[str], None]
"""Asks the gateway to wait for a human's decision on a ticket."""

__all__ = ["Held", "Hold", "Pending", "Policy", "Send", "time"]


@dataclass(frozen=True, slots=True)
class Policy:
    """Everything that decides a session's calls, put together by `mcpwall.assembly`."""

    pipeline: Pipeline
    armor: ArmorSettings = field(default_factory=ArmorSettings)
    reviewer: ToolReviewer | None = None
    others: OtherDefinitions | None = None
    gate: ApprovalGate | None = None
    store: Store | None = None
    danger: DangerZoneSettings = field(default_factory=DangerZoneSettings)
    profiles: tuple[Profile, ...] = ()
    secrets: Secrets = field(default_factory=Secrets)
    shared_budget: bool = False
    """Other servers of the same session charge the same risk budget (``mcpwall serve``)."""


@dataclass(frozen=True, slots=True)
class Held:
    """A call waiting for a human's decision on its ticket."""

    message: Message
    call: mcp.ToolCall
    admission: Admission


@dataclass(slots=True)
class Pending:
    """A client request the server has not answered yet."""

    method: str
    started: float
    tool: str | None = None
    whole_listing: bool = False
