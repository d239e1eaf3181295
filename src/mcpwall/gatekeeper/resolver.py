"""The resolver: one operation, its classification and the active profiles, to one level.

Precedence, strictest first:

1. any active profile denies it: DENY (no confirmation can unlock it);
2. any active profile asks to confirm it: at least CONFIRM_SESSION (never lower than the
   default);
3. any active profile allows it, and it is elevatable: AUTO_APPROVE;
4. otherwise the classification's default level.

Then a read-only session (some active profile denies ``confirm``) turns CONFIRM_* into DENY;
AUTO_APPROVE stays. The human's recovery operations are never denied. The result is a value
carrying everything ``mcpwall policy explain`` prints: each profile's effect, the conflicts
(a profile's list that lost to another profile's stricter list, or an allow that lost to a
non-elevatable operation), who decided and why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from mcpwall.gatekeeper.kinds import Classification, KindSource, OperationKind
from mcpwall.gatekeeper.profiles import ListName, Profile, is_recovery
from mcpwall.pipeline.verdict import PermissionLevel, Verdict

CHECK = "gatekeeper"
_STRENGTH = (ListName.ALLOW, ListName.CONFIRM, ListName.DENY)
_CONFIRMATIONS = (PermissionLevel.CONFIRM_SESSION, PermissionLevel.CONFIRM_SINGLE_USE)
_VIOLATIONS = {
    "gatekeeper.profile.deny": "ProfileDenied",
    "gatekeeper.read_only": "ReadOnlySession",
    "gatekeeper.danger_zone.locked": "SessionLocked",
}


@dataclass(frozen=True, slots=True)
class ProfileEffect:
    """What one active profile says about the operation: its strongest matching list."""

    profile: str
    list: ListName | None
    pattern: str | None
    read_only: bool

    @property
    def strength(self) -> int:
        """How strict the matching list is: -1 none, 0 allow, 1 confirm, 2 deny."""
        return -1 if self.list is None else _STRENGTH.index(self.list)

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form."""
        which = None if self.list is None else str(self.list)
        return {"profile": self.profile, "list": which, "pattern": self.pattern, "read_only": self.read_only}


@dataclass(frozen=True, slots=True)
class Conflict:
    """A profile's list that matched but lost."""

    profile: str
    list: ListName
    pattern: str
    lost_to: str

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form."""
        return {"profile": self.profile, "list": str(self.list), "pattern": self.pattern, "lost_to": self.lost_to}


@dataclass(frozen=True, slots=True)
class Resolution:
    """The gatekeeper's decision on one operation, with everything that led to it.

    Attributes:
        operation: ``server/tool``.
        level: the final permission level.
        classification: kind, its source, default level, elevatability, command risk.
        decided_by: the (profile, list) that decided the level; None when the default did.
        rule: stable id of the deciding rule (``gatekeeper.profile.deny``…).
        effects: each active profile's effect, in activation order.
        conflicts: lists that matched and lost.
        read_only_by: active profiles that make the session read-only.
        locked: the danger zone denied it because the session is locked.
    """

    operation: str
    level: PermissionLevel
    classification: Classification
    decided_by: tuple[str, ListName] | None
    rule: str
    effects: tuple[ProfileEffect, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    read_only_by: tuple[str, ...] = ()
    locked: bool = False

    @property
    def kind(self) -> OperationKind:
        """The operation's kind."""
        return self.classification.kind

    @property
    def kind_source(self) -> KindSource:
        """Where the kind came from."""
        return self.classification.source

    @property
    def default_level(self) -> PermissionLevel:
        """The level before profiles."""
        return self.classification.default_level

    @property
    def read_only(self) -> bool:
        """Whether the session is read-only."""
        return bool(self.read_only_by)

    @property
    def reason(self) -> str:
        """The full reason, for the operator only."""
        by = "default" if self.decided_by is None else f"{self.decided_by[1]} in profile {self.decided_by[0]!r}"
        return f"{self.operation}: {self.level.name} ({self.rule}; {by}; {self.classification.rationale})"

    @property
    def verdict(self) -> Verdict:
        """This resolution as the pipeline's verdict."""
        violation = _VIOLATIONS.get(self.rule) if self.level is PermissionLevel.DENY else None
        return Verdict(self.level, CHECK, self.rule, self.reason, violation, self.to_dict())

    def locked_by_danger_zone(self) -> Resolution:
        """This resolution, denied because the session's risk budget is spent."""
        return replace(
            self, level=PermissionLevel.DENY, decided_by=None, rule="gatekeeper.danger_zone.locked", locked=True
        )

    def to_dict(self) -> dict[str, object]:
        """Everything ``mcpwall policy explain`` prints, JSON-ready."""
        risk = self.classification.command_risk
        decided = None if self.decided_by is None else {"profile": self.decided_by[0], "list": str(self.decided_by[1])}
        return {
            "operation": self.operation,
            "level": self.level.name,
            "kind": str(self.kind),
            "kind_source": str(self.kind_source),
            "default_level": self.default_level.name,
            "elevatable": self.classification.elevatable,
            "rationale": self.classification.rationale,
            "command_risk": None if risk is None else risk.to_dict(),
            "decided_by": decided,
            "rule": self.rule,
            "effects": [effect.to_dict() for effect in self.effects],
            "conflicts": [conflict.to_dict() for conflict in self.conflicts],
            "read_only_by": list(self.read_only_by),
            "locked": self.locked,
        }


def _effect(profile: Profile, operation: str) -> ProfileEffect:
    """A profile's strongest matching list for ``operation``."""
    for which in (ListName.DENY, ListName.CONFIRM, ListName.ALLOW):
        pattern = profile.first_match(which, operation)
        if pattern is not None:
            return ProfileEffect(profile.name, which, pattern, profile.read_only)
    return ProfileEffect(profile.name, None, None, profile.read_only)


def _winner(effects: Sequence[ProfileEffect], elevatable: bool) -> ProfileEffect | None:
    """The effect that decides: the first deny, else the first confirm, else an elevatable allow."""
    for which in (ListName.DENY, ListName.CONFIRM, ListName.ALLOW):
        found = next((e for e in effects if e.list is which), None)
        if found is not None and (which is not ListName.ALLOW or elevatable):
            return found
    return None


def _conflicts(effects: Sequence[ProfileEffect], winner: ProfileEffect | None) -> tuple[Conflict, ...]:
    """The matching lists that lost: weaker than the winner's, or allows of a non-elevatable operation."""
    if winner is None:  # an allow matched yet nothing won: the operation is not elevatable
        lost = [e for e in effects if e.list is ListName.ALLOW]
        lost_to = "operation is not elevatable"
    else:
        lost = [e for e in effects if e.list is not None and e.strength < winner.strength]
        lost_to = f"{winner.list} in profile {winner.profile!r}"
    return tuple(Conflict(e.profile, e.list, e.pattern or "", lost_to) for e in lost if e.list is not None)


def _level(winner: ProfileEffect | None, default: PermissionLevel) -> tuple[PermissionLevel, str]:
    """The level and rule id a winning effect (or none) gives."""
    if winner is None:
        return default, "gatekeeper.default"
    if winner.list is ListName.DENY:
        return PermissionLevel.DENY, "gatekeeper.profile.deny"
    if winner.list is ListName.CONFIRM:
        return max(default, PermissionLevel.CONFIRM_SESSION), "gatekeeper.profile.confirm"
    return PermissionLevel.AUTO_APPROVE, "gatekeeper.profile.allow"


def _recovery(operation: str, classification: Classification, effects: tuple[ProfileEffect, ...]) -> Resolution:
    """The resolution of a human's recovery operation: profiles do not govern it."""
    ignored = tuple(
        Conflict(e.profile, e.list, e.pattern or "", "recovery operations cannot be denied")
        for e in effects
        if e.list in (ListName.DENY, ListName.CONFIRM)
    )
    return Resolution(
        operation, PermissionLevel.AUTO_APPROVE, classification, None, "gatekeeper.recovery", effects, ignored
    )


def resolve(server: str, tool: str, classification: Classification, active_profiles: Sequence[Profile]) -> Resolution:
    """Resolve one operation to its permission level.

    Args:
        server: the server's name in mcpwall's config.
        tool: the tool's name on that server.
        classification: the operation's classification (``kinds.classify``, possibly raised
            by ``DangerZone.assess``).
        active_profiles: the session's profiles, in activation order.

    Returns:
        The resolution; never DENY for a recovery operation.
    """
    operation = f"{server}/{tool}"
    effects = tuple(_effect(profile, operation) for profile in active_profiles)
    if is_recovery(server, tool):
        return _recovery(operation, classification, effects)
    winner = _winner(effects, classification.elevatable)
    level, rule = _level(winner, classification.default_level)
    decided_by = None if winner is None or winner.list is None else (winner.profile, winner.list)
    read_only_by = tuple(profile.name for profile in active_profiles if profile.read_only)
    if read_only_by and level in _CONFIRMATIONS:
        level, rule, decided_by = PermissionLevel.DENY, "gatekeeper.read_only", (read_only_by[0], ListName.DENY)
    return Resolution(
        operation, level, classification, decided_by, rule, effects, _conflicts(effects, winner), read_only_by
    )
