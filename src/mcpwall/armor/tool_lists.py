"""Tool allow/deny lists: glob patterns over tool names.

A tool matching ``deny`` is ToolExplicitlyDenied; one matching no ``allow`` pattern is
ToolNotAllowed. Denied tools are hidden from tools/list and their calls never reach the server.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from mcpwall.mcp import ToolCall
from mcpwall.pipeline.check import Check, Context
from mcpwall.pipeline.verdict import PermissionLevel, Verdict


class ToolLists(BaseModel):
    """Which tools the model may see and call."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    allow: list[str] = Field(default_factory=lambda: ["*"])
    """Glob patterns over tool names; a tool must match one. Default: every tool."""
    deny: list[str] = Field(default_factory=list)
    """Glob patterns over tool names; a match is refused, whatever ``allow`` says."""


def _compile(patterns: list[str]) -> re.Pattern[str] | None:
    if not patterns:
        return None
    return re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in patterns))


class ToolListCheck(Check):
    """Refuses tools by name before anything else looks at them."""

    name: ClassVar[str] = "tool-lists"

    def __init__(self, lists: ToolLists) -> None:
        self._allow = _compile(lists.allow)
        self._deny = _compile(lists.deny)

    def judge(self, tool_name: str) -> Verdict | None:
        """The verdict for a tool name, or None when it is allowed."""
        if self._deny is not None and self._deny.match(tool_name):
            return _refuse(tool_name, "tools.deny", "ToolExplicitlyDenied", "matches tools.deny")
        if self._allow is None or not self._allow.match(tool_name):
            return _refuse(tool_name, "tools.allow", "ToolNotAllowed", "matches no tools.allow pattern")
        return None

    def on_tool_call(self, call: ToolCall, ctx: Context) -> Verdict | None:
        return self.judge(call.name)

    def on_tool_listed(self, tool: Mapping[str, Any], ctx: Context) -> Verdict | None:
        name = tool.get("name")
        if not isinstance(name, str):
            return _refuse(repr(name), "tools.name", "ToolNotAllowed", "has no string name")
        return self.judge(name)


def _refuse(tool: str, rule: str, violation: str, why: str) -> Verdict:
    return Verdict(
        level=PermissionLevel.DENY,
        check=ToolListCheck.name,
        rule=rule,
        reason=f"tool {tool} {why}",
        violation=violation,
        detail={"tool": tool},
    )
