"""The Check: one small, pure unit of policy with hook methods.

A check gets a view of the message plus a read-only context and returns a `Verdict` or None
(no opinion). It does no I/O and never awaits: what it needs from the world (pins, session
state) the gateway puts in the context first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from mcpwall.mcp import SessionFacts, ToolCall
from mcpwall.pipeline.verdict import Verdict

if TYPE_CHECKING:
    from mcpwall.gatekeeper.danger_zone import RiskBudget
    from mcpwall.gatekeeper.profiles import Profile
    from mcpwall.inspection.review import Review


@dataclass(frozen=True, slots=True)
class Context:
    """Read-only facts a check may consult.

    Attributes:
        server: the server identity (config name or derived from the command).
        session_id: the mcpwall session id.
        facts: what the client said about itself.
        tools: the server's current tool definitions by name, as last listed.
        reviews: the inspection of each listed tool against its pin.
        profiles: the session's active gatekeeper profiles.
        budget: the session's danger-zone risk budget.
    """

    server: str
    session_id: str
    facts: SessionFacts
    tools: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    reviews: Mapping[str, Review] = field(default_factory=dict)
    profiles: tuple[Profile, ...] = ()
    budget: RiskBudget | None = None


class Check:
    """Base of every check. Override the hooks that concern you; the rest say nothing."""

    name: ClassVar[str] = "check"

    def on_tool_call(self, call: ToolCall, ctx: Context) -> Verdict | None:
        """Judge a tools/call before it is forwarded."""
        return None

    def on_tool_listed(self, tool: Mapping[str, Any], ctx: Context) -> Verdict | None:
        """Judge one listed tool definition; a DENY hides it from the model."""
        return None
