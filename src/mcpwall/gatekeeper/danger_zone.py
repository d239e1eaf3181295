"""The danger zone: command risk raises a call's level; spent risk locks the session.

Two effects, both pure (the lead's store persists :class:`RiskBudget`):

- **Before a call** (:meth:`DangerZone.assess`): shell-like arguments of the configured kinds
  (EXECUTE and UNKNOWN by default) are classified by :func:`classify_command`. The risk's
  floor (``risk_floors``; high: CONFIRM_SINGLE_USE) raises the default level; a high-risk
  irreversible command is also pinned non-elevatable, so no profile allow auto-approves it.
  Argument keys (``command``, ``cmd``, ``script``, ``argv``) are found at any depth and in any
  letter case; ``command`` with a sibling ``args`` list is judged as one argv.
- **After a call executed** (:meth:`DangerZone.record`): the call adds its kind's weight plus
  its command risk's weight to the session's budget. When the total exceeds ``budget`` the
  session locks: every non-READ call is denied (:meth:`DangerZone.gate`) until a human
  releases it (``mcpwall/release``, the only caller of :meth:`DangerZone.release`). Denied
  calls add nothing: they did not run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TypeGuard

from mcpwall.gatekeeper.command_risk import CommandRisk, RiskLevel, classify_command
from mcpwall.gatekeeper.kinds import Classification, OperationKind
from mcpwall.gatekeeper.profiles import RECOVERY_OPERATIONS
from mcpwall.gatekeeper.resolver import Resolution
from mcpwall.gatekeeper.settings import DangerZoneSettings, RiskName
from mcpwall.pipeline.verdict import PermissionLevel

_ARGS_KEYS = ("args", "arguments")
Command = str | list[str]
_RISK_NAMES: dict[RiskLevel, RiskName] = {RiskLevel.LOW: "low", RiskLevel.MEDIUM: "medium", RiskLevel.HIGH: "high"}


@dataclass(frozen=True, slots=True)
class RiskBudget:
    """A session's spent risk, persisted between calls (and processes) by the store.

    Attributes:
        spent: risk accumulated since the session started or was last released.
        calls: executed calls counted.
        locked: the budget was exceeded; only READ calls pass until a human releases it.
        lock_reason: why it locked, for the operator.
    """

    spent: int = 0
    calls: int = 0
    locked: bool = False
    lock_reason: str | None = None

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form for the store."""
        return {"spent": self.spent, "calls": self.calls, "locked": self.locked, "lock_reason": self.lock_reason}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RiskBudget:
        """Rebuild a budget from :meth:`to_dict` output.

        Raises:
            ValueError: a field is missing or has the wrong type (the caller must fail closed).
        """
        spent, calls, locked, reason = (data.get(key) for key in ("spent", "calls", "locked", "lock_reason"))
        reason_ok = reason is None or isinstance(reason, str)
        if _is_count(spent) and _is_count(calls) and isinstance(locked, bool) and reason_ok:
            return cls(spent, calls, locked, reason if isinstance(reason, str) else None)
        raise ValueError(f"malformed risk budget: {dict(data)!r}")


def _is_count(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a non-negative int (and not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _from_key(value: object, siblings: Mapping[str, object]) -> Command | None:
    """The command held by a command key's value (with a sibling ``args`` list), or None."""
    args = next((siblings[k] for k in siblings if k.casefold() in _ARGS_KEYS), None)
    if isinstance(value, str) and isinstance(args, list):
        return [value, *(str(arg) for arg in args)]
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return [str(item) for item in value]
    return None


def find_commands(arguments: Mapping[str, object], keys: list[str]) -> list[Command]:
    """Every shell-like value under one of ``keys``, at any depth of ``arguments``.

    Args:
        arguments: a tool call's arguments.
        keys: argument names holding commands (matched case-insensitively).

    Returns:
        Command lines (str) and argv arrays (list).
    """
    wanted = {key.casefold() for key in keys}
    found: list[Command] = []
    stack: list[object] = [arguments]
    while stack:  # iterative: arguments may nest deeper than the recursion limit
        node = stack.pop()
        if isinstance(node, Mapping):
            for key, value in node.items():
                command = _from_key(value, node) if str(key).casefold() in wanted else None
                found.extend([] if command is None else [command])
                stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)
    return found


class DangerZone:
    """Command risk and the risk budget, as pure functions of settings and state."""

    def __init__(self, settings: DangerZoneSettings) -> None:
        self.settings = settings

    def command_risk(self, kind: OperationKind, arguments: Mapping[str, object]) -> CommandRisk | None:
        """The worst risk among the call's commands; None when none was assessed."""
        if kind not in self.settings.command_kinds:
            return None
        commands = find_commands(arguments, self.settings.command_keys)
        risks = [classify_command(command) for command in commands]
        return None if not risks else _worst(risks)

    def assess(self, classification: Classification, arguments: Mapping[str, object]) -> Classification:
        """The classification with its command risk attached and its default level raised by it."""
        risk = self.command_risk(classification.kind, arguments)
        if risk is None:
            return classification
        floor = self.settings.risk_floors[_RISK_NAMES[risk.risk]]
        pin = self.settings.pin_high_irreversible and risk.high_and_irreversible
        why = f"command risk {risk.risk}: {', '.join(risk.reasons) or 'nothing found'}"
        raised = classification.raised_to(floor, pin=pin, why=why)
        return replace(raised, command_risk=risk)

    def weight(self, classification: Classification) -> int:
        """The risk an executed call adds to the session's budget."""
        weight = self.settings.kind_weights.get(classification.kind, 0)
        risk = classification.command_risk
        if risk is not None:
            weight += self.settings.risk_weights[_RISK_NAMES[risk.risk]]
        return weight

    def record(self, budget: RiskBudget, classification: Classification) -> RiskBudget:
        """The budget after a call of this classification executed; locks when it is exceeded."""
        spent = budget.spent + self.weight(classification)
        counted = replace(budget, spent=spent, calls=budget.calls + 1)
        if budget.locked or not self.settings.enabled or spent <= self.settings.budget:
            return counted
        reason = f"risk {spent} exceeded the session budget of {self.settings.budget}"
        return replace(counted, locked=True, lock_reason=reason)

    def release(self, budget: RiskBudget) -> RiskBudget:
        """The budget after a human released the session: unlocked, nothing spent."""
        return RiskBudget(calls=budget.calls)

    def gate(self, resolution: Resolution, budget: RiskBudget) -> Resolution:
        """The resolution, denied when the session is locked and the call is not a READ.

        Recovery operations pass; so do READ calls, and calls already denied keep their reason.
        """
        exempt = resolution.kind is OperationKind.READ or resolution.operation in RECOVERY_OPERATIONS
        if not budget.locked or exempt or resolution.level is PermissionLevel.DENY:
            return resolution
        return resolution.locked_by_danger_zone()


def _worst(risks: list[CommandRisk]) -> CommandRisk:
    """All risks merged into one."""
    merged = risks[0]
    for risk in risks[1:]:
        merged = merged.merge(risk)
    return merged
