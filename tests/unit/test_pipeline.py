"""The pipeline: strictest verdict wins; a check that raises is a DENY, never a skipped check."""

from __future__ import annotations

from typing import ClassVar

import pytest

from mcpwall.mcp import SessionFacts, ToolCall
from mcpwall.pipeline import Check, Context, PermissionLevel, Pipeline, Verdict

CALL = ToolCall(request_id=1, name="echo", arguments={})
CTX = Context(server="s", session_id="x", facts=SessionFacts())


class Fixed(Check):
    name: ClassVar[str] = "fixed"

    def __init__(self, level: PermissionLevel | None) -> None:
        self.level = level

    def on_tool_call(self, call: ToolCall, ctx: Context) -> Verdict | None:
        return None if self.level is None else Verdict(self.level, self.name, "r", "why")


class Exploding(Check):
    name: ClassVar[str] = "exploding"

    def on_tool_call(self, call: ToolCall, ctx: Context) -> Verdict | None:
        raise RuntimeError("boom")


@pytest.mark.requirement("check:crash-denies")
def test_a_check_that_raises_denies_with_check_error() -> None:
    decision = Pipeline([Fixed(None), Exploding()]).decide_call(CALL, CTX)
    assert decision.level is PermissionLevel.DENY
    assert decision.decisive is not None
    assert (decision.decisive.rule, decision.decisive.check) == ("check-error", "exploding")


@pytest.mark.parametrize(
    ("levels", "expected"),
    [
        ([], PermissionLevel.AUTO_APPROVE),
        ([None, None], PermissionLevel.AUTO_APPROVE),
        ([PermissionLevel.CONFIRM_SESSION, PermissionLevel.AUTO_APPROVE], PermissionLevel.CONFIRM_SESSION),
        ([PermissionLevel.CONFIRM_SESSION, PermissionLevel.CONFIRM_SINGLE_USE], PermissionLevel.CONFIRM_SINGLE_USE),
        ([PermissionLevel.AUTO_APPROVE, PermissionLevel.DENY, PermissionLevel.CONFIRM_SESSION], PermissionLevel.DENY),
    ],
)
def test_the_strictest_verdict_wins(levels: list[PermissionLevel | None], expected: PermissionLevel) -> None:
    assert Pipeline([Fixed(level) for level in levels]).decide_call(CALL, CTX).level is expected
