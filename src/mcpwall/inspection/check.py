"""The pipeline check for inspection: hides and refuses tools whose review blocked them.

Pure: the gateway reviews each listing against the pins (`ToolReviewer`) and puts the reviews
in the context; this check only reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from mcpwall.inspection.review import Review
from mcpwall.mcp import ToolCall
from mcpwall.pipeline.check import Check, Context
from mcpwall.pipeline.verdict import PermissionLevel, Verdict


class InspectionCheck(Check):
    """A poisoned, changed or not-yet-approved definition is neither shown nor callable."""

    name: ClassVar[str] = "inspection"

    def on_tool_listed(self, tool: Mapping[str, Any], ctx: Context) -> Verdict | None:
        name = tool.get("name")
        return _blocked(ctx.reviews.get(name)) if isinstance(name, str) else None

    def on_tool_call(self, call: ToolCall, ctx: Context) -> Verdict | None:
        return _blocked(ctx.reviews.get(call.name))


def _blocked(review: Review | None) -> Verdict | None:
    if review is None or not review.blocked:
        return None
    return Verdict(
        level=PermissionLevel.DENY,
        check=InspectionCheck.name,
        rule=f"inspection.{review.violation}",
        reason=f"tool {review.tool}: {review.reason} (hash {review.hash[:12]})",
        violation=review.violation,
        detail={"hash": review.hash, "status": review.status, "max_severity": review.max_severity},
    )
