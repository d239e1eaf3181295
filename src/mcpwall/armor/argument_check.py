"""The pipeline check for argument policy: paths, network targets and command lines.

Pure: the settings are compiled once (cached by identity in `check_arguments`), the tool's
input schema comes from the context (the last listing), and every violation becomes part of
one DENY verdict whose detail lists them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from mcpwall.armor.check import check_arguments
from mcpwall.armor.secrets import check_secrets
from mcpwall.armor.settings import ArmorSettings
from mcpwall.armor.violations import Violation
from mcpwall.mcp import ToolCall
from mcpwall.pipeline.check import Check, Context
from mcpwall.pipeline.verdict import PermissionLevel, Verdict


class ArgumentCheck(Check):
    """Refuses a call whose arguments break the armor policy."""

    name: ClassVar[str] = "armor"

    def __init__(self, settings: ArmorSettings) -> None:
        self.settings = settings

    def on_tool_call(self, call: ToolCall, ctx: Context) -> Verdict | None:
        definition = ctx.tools.get(call.name)
        schema = _schema(definition)
        violations = check_arguments(call.name, call.arguments, schema, self.settings)
        if self.settings.block_secrets and (leak := check_secrets(call.arguments, self.settings.secret_allowlist)):
            violations.append(leak)
        return refusal(self.name, violations[0], violations) if violations else None


def refusal(check: str, first: Violation, every: list[Violation]) -> Verdict:
    """A DENY verdict for violations: the first decides, all are in the detail."""
    return Verdict(
        level=PermissionLevel.DENY,
        check=check,
        rule=f"armor.{first.type}",
        reason="; ".join(v.reason for v in every),
        violation=first.type,
        detail={"violations": [{"type": v.type, "reason": v.reason, **v.detail} for v in every]},
    )


def _schema(definition: Mapping[str, Any] | None) -> Mapping[str, object] | None:
    if definition is None:
        return None
    schema = definition.get("inputSchema")
    return schema if isinstance(schema, Mapping) else None
