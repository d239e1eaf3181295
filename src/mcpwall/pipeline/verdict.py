"""Verdicts and decisions: what a check says, and what the pipeline concludes.

A denial is a value, never an exception. Every verdict names the check and rule behind it,
a generic reason the model may see, and the full reason only the operator sees.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final


class PermissionLevel(IntEnum):
    """The four levels every tool call resolves to, ordered from most to least permissive.

    The integer order is the strictness order: the strictest verdict wins.
    """

    AUTO_APPROVE = 0
    CONFIRM_SESSION = 1
    CONFIRM_SINGLE_USE = 2
    DENY = 3


@dataclass(frozen=True, slots=True)
class Verdict:
    """One check's opinion of one message.

    Attributes:
        level: the permission level the check requires.
        check: name of the check that produced it.
        rule: stable id of the rule that matched (e.g. ``tools.deny``).
        reason: full reason, for the operator and the audit trail only.
        violation: violation type (e.g. ``ToolExplicitlyDenied``) when the verdict is a refusal.
        detail: extra structured facts for the audit trail.
    """

    level: PermissionLevel
    check: str
    rule: str
    reason: str
    violation: str | None = None
    detail: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Decision:
    """The pipeline's conclusion: the strictest level, with every verdict that led to it."""

    level: PermissionLevel
    verdicts: tuple[Verdict, ...] = ()

    @property
    def decisive(self) -> Verdict | None:
        """The first verdict at the decision's level, or None when nothing objected."""
        return next((v for v in self.verdicts if v.level == self.level), None)

    @property
    def denied(self) -> bool:
        return self.level is PermissionLevel.DENY

    @classmethod
    def combine(cls, verdicts: list[Verdict]) -> Decision:
        """Strictest verdict wins; no verdicts at all means AUTO_APPROVE."""
        if not verdicts:
            return _NOTHING_OBJECTED
        level = max(v.level for v in verdicts)
        return cls(level=PermissionLevel(level), verdicts=tuple(verdicts))


_NOTHING_OBJECTED: Final = Decision(level=PermissionLevel.AUTO_APPROVE)
