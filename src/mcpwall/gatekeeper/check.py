"""The pipeline check for the gatekeeper: unknown routes, operation kinds, profiles, danger zone.

Pure: the session's active profiles and risk budget come from the context. The verdict carries
the whole resolution (``detail``) so the session can record it and, once the call has run,
charge its classification to the risk budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from mcpwall.gatekeeper.danger_zone import RiskBudget
from mcpwall.gatekeeper.evaluate import Gatekeeper
from mcpwall.gatekeeper.settings import GatekeeperSettings
from mcpwall.mcp import ToolCall
from mcpwall.pipeline.check import Check, Context
from mcpwall.pipeline.verdict import PermissionLevel, Verdict

CLASSIFICATION = "classification"
"""Key of the verdict detail holding the call's `Classification` (for the danger zone)."""


class GatekeeperCheck(Check):
    """Every call resolves to exactly one permission level; unknown routes are denied."""

    name: ClassVar[str] = "gatekeeper"

    def __init__(self, settings: GatekeeperSettings) -> None:
        self.settings = settings
        self.gatekeeper = Gatekeeper(settings)

    def on_tool_call(self, call: ToolCall, ctx: Context) -> Verdict | None:
        review = ctx.reviews.get(call.name)
        if review is None:
            return _unknown_route(call.name)
        definition = ctx.tools.get(call.name, {})
        resolution, verdict = self.gatekeeper.verdict(
            ctx.profiles,
            ctx.budget or RiskBudget(),
            ctx.server,
            call.name,
            (review.hash, _annotations(definition)),
            call.arguments,
        )
        verdict.detail[CLASSIFICATION] = resolution.classification
        return verdict


def _annotations(definition: Mapping[str, Any]) -> Mapping[str, object] | None:
    annotations = definition.get("annotations")
    return annotations if isinstance(annotations, Mapping) else None


def _unknown_route(tool: str) -> Verdict:
    return Verdict(
        level=PermissionLevel.DENY,
        check=GatekeeperCheck.name,
        rule="gatekeeper.unknown_route",
        reason=f"tool {tool} is not in the server's current tool list (pinned and not blocked)",
        violation="UnknownRoute",
    )
