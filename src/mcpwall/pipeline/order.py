"""The order of checks, written in one place."""

from __future__ import annotations

from mcpwall.armor.argument_check import ArgumentCheck
from mcpwall.armor.settings import ArmorSettings
from mcpwall.armor.tool_lists import ToolListCheck, ToolLists
from mcpwall.gatekeeper.check import GatekeeperCheck
from mcpwall.gatekeeper.settings import GatekeeperSettings
from mcpwall.inspection.check import InspectionCheck
from mcpwall.pipeline.check import Check


def default_checks(tools: ToolLists, armor: ArmorSettings, gatekeeper: GatekeeperSettings) -> list[Check]:
    """The checks every message goes through, in order."""
    return [
        ToolListCheck(tools),
        InspectionCheck(),
        GatekeeperCheck(gatekeeper),
        ArgumentCheck(armor),
    ]
