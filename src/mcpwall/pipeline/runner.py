"""The Pipeline runs the checks in order and combines their verdicts: the strictest wins.

This is one of the two places that catch every exception, on purpose: a check that raises is
a DENY with reason ``check-error`` (fail closed), never a skipped check.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mcpwall.mcp import ToolCall
from mcpwall.pipeline.check import Check, Context
from mcpwall.pipeline.verdict import Decision, PermissionLevel, Verdict

log = logging.getLogger(__name__)


class Pipeline:
    """An ordered list of checks.

    Args:
        checks: the checks, in the order written in `mcpwall.pipeline.default_checks`.
    """

    def __init__(self, checks: Sequence[Check]) -> None:
        self.checks = tuple(checks)

    def decide_call(self, call: ToolCall, ctx: Context) -> Decision:
        """The decision for one tools/call."""
        verdicts: list[Verdict] = []
        for check in self.checks:  # `_run`, unrolled: this is the hot path of every call
            try:
                verdict = check.on_tool_call(call, ctx)
            except Exception as exc:
                log.exception("check %s raised", check.name)
                verdict = _failed(check, exc)
            if verdict is not None:
                verdicts.append(verdict)
                if verdict.level is PermissionLevel.DENY:
                    break
        return Decision.combine(verdicts)

    def decide_listed(self, tool: Mapping[str, Any], ctx: Context) -> Decision:
        """The decision for one listed tool: DENY means hidden from the model."""
        return self._run(lambda check: check.on_tool_listed(tool, ctx))

    def _run(self, hook: Callable[[Check], Verdict | None]) -> Decision:
        verdicts: list[Verdict] = []
        for check in self.checks:
            verdict = _guarded(check, hook)
            if verdict is not None:
                verdicts.append(verdict)
                if verdict.level is PermissionLevel.DENY:
                    break
        return Decision.combine(verdicts)


def _guarded(check: Check, hook: Callable[[Check], Verdict | None]) -> Verdict | None:
    try:
        return hook(check)
    except Exception as exc:
        log.exception("check %s raised", check.name)
        return _failed(check, exc)


def _failed(check: Check, exc: Exception) -> Verdict:
    """The DENY of a check that raised (fail closed)."""
    return Verdict(
        level=PermissionLevel.DENY,
        check=check.name,
        rule="check-error",
        reason=f"check {check.name} raised {type(exc).__name__}: {exc}",
        violation="CheckError",
    )
