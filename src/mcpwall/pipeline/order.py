"""The order of checks, written in one place."""

from __future__ import annotations

from mcpwall.armor.tool_lists import ToolListCheck, ToolLists
from mcpwall.pipeline.check import Check


def default_checks(tools: ToolLists) -> list[Check]:
    """The checks every message goes through, in order."""
    return [
        ToolListCheck(tools),
    ]
