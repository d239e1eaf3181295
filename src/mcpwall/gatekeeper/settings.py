"""The gatekeeper's configuration: profiles, operation overrides, trusted annotations, danger zone.

These are the models behind the ``gatekeeper:`` section of the config (``extra="forbid"``: an
unknown key does not load). The configuration reference is generated from the attribute
docstrings. They live in one module, apart from the logic, because every other gatekeeper
module reads them and ``kinds`` must not import the profiles.

Patterns are shell globs (``fnmatch``) over ``server/tool``: ``github/*``, ``*/delete_*``,
``fs/read_file``. ``*`` also crosses the ``/``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fnmatch import fnmatchcase
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    NonNegativeInt,
    PlainSerializer,
    PositiveInt,
    ValidationInfo,
    field_validator,
)

from mcpwall.gatekeeper.kinds import OperationKind
from mcpwall.pipeline.verdict import PermissionLevel

RiskName = Literal["low", "medium", "high"]


def _level_from_name(value: object) -> object:
    """Accept a level by name (``confirm_session``, ``CONFIRM_SESSION``) as well as by value."""
    if isinstance(value, str) and value.upper() in PermissionLevel.__members__:
        return PermissionLevel[value.upper()]
    return value


Level = Annotated[
    PermissionLevel,
    BeforeValidator(_level_from_name),
    PlainSerializer(lambda level: level.name, return_type=str),
]
"""A permission level, written by name in the config (``CONFIRM_SESSION``)."""


class ProfileBody(BaseModel):
    """One profile as written in the config, under its name."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str = ""
    """What the profile is for, shown by ``mcpwall policy``."""
    allow: list[str] = Field(default_factory=list)
    """Operations to auto-approve, when elevatable and no active profile asks to confirm them."""
    confirm: list[str] = Field(default_factory=list)
    """Operations that need at least a confirmation per session, whatever any allow says."""
    deny: list[str] = Field(default_factory=list)
    """Operations refused outright. The pseudo-operation ``confirm`` here makes the session
    read-only: everything that would need a confirmation is denied instead."""


class OperationOverride(BaseModel):
    """The operator's word on what an operation is, above annotations and name verbs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    match: str
    """Glob over ``server/tool``; the first override that matches applies."""
    kind: OperationKind | None = None
    """The operation's kind; when unset, the kind comes from annotations or the name."""
    level: Level | None = None
    """The default level; when unset, the kind's default level."""
    rationale: str = ""
    """Why, for ``mcpwall policy explain`` and the audit trail."""
    elevatable: bool = True
    """Whether a profile allow may auto-approve it; ``false`` pins it to its level."""


def _kind_weights() -> dict[OperationKind, NonNegativeInt]:
    return {
        OperationKind.READ: 0,
        OperationKind.CREATE: 1,
        OperationKind.UPDATE: 2,
        OperationKind.DELETE: 5,
        OperationKind.EXECUTE: 5,
        OperationKind.UNKNOWN: 5,
    }


def _risk_weights() -> dict[RiskName, NonNegativeInt]:
    return {"low": 0, "medium": 3, "high": 10}


def _risk_floors() -> dict[RiskName, PermissionLevel]:
    return {
        "low": PermissionLevel.AUTO_APPROVE,
        "medium": PermissionLevel.AUTO_APPROVE,
        "high": PermissionLevel.CONFIRM_SINGLE_USE,
    }


_DEFAULT_TABLES: dict[str, Callable[[], Mapping[Any, object]]] = {
    "kind_weights": _kind_weights,
    "risk_weights": _risk_weights,
    "risk_floors": _risk_floors,
}


class DangerZoneSettings(BaseModel):
    """Command risk and the per-session risk budget."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    enabled: bool = True
    """Whether calls add to a risk budget and a spent budget locks the session."""
    budget: PositiveInt = 25
    """Risk a session may accumulate; a call that takes it past this locks the session."""
    kind_weights: dict[OperationKind, NonNegativeInt] = Field(default_factory=_kind_weights)
    """Risk each executed call adds, by kind."""
    risk_weights: dict[RiskName, NonNegativeInt] = Field(default_factory=_risk_weights)
    """Risk added on top by the call's command arguments, by their risk (low, medium, high)."""
    risk_floors: dict[RiskName, Level] = Field(default_factory=_risk_floors)
    """The least level a call needs, by the risk of its command arguments."""
    pin_high_irreversible: bool = True
    """Make high-risk irreversible commands non-elevatable, so no allow can auto-approve them."""
    command_keys: list[str] = Field(default_factory=lambda: ["command", "cmd", "script", "argv"])
    """Argument keys holding shell-like text or argv arrays, searched at any depth."""
    command_kinds: list[OperationKind] = Field(default_factory=lambda: [OperationKind.EXECUTE, OperationKind.UNKNOWN])
    """Kinds whose command arguments are classified (a READ tool's ``command`` is data)."""

    @field_validator("kind_weights", "risk_weights", "risk_floors", mode="after")
    @classmethod
    def _keep_defaults(cls, value: dict[str, object], info: ValidationInfo) -> dict[str, object]:
        """Keys left out of a table keep their defaults (a partial table cannot drop a floor)."""
        defaults: dict[str, object] = dict(_DEFAULT_TABLES[info.field_name or ""]())
        return defaults | value


class GatekeeperSettings(BaseModel):
    """The ``gatekeeper:`` section of the config."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    profiles: dict[str, ProfileBody] = Field(default_factory=dict)
    """Named bundles of allow / confirm / deny patterns."""
    default_profiles: list[str] = Field(default_factory=list)
    """Profiles active for a session whose agent identity selects none."""
    overrides: list[OperationOverride] = Field(default_factory=list)
    """Operator overrides of operation kinds and levels, in order; the first match applies."""
    trusted_annotations: list[str] = Field(default_factory=list)
    """Globs over server names whose tool annotations may classify their tools."""
    danger_zone: DangerZoneSettings = Field(default_factory=DangerZoneSettings)
    """Command risk and the per-session risk budget."""

    def trusts_annotations(self, server: str) -> bool:
        """Whether ``server``'s tool annotations may classify its tools."""
        return any(fnmatchcase(server, pattern) for pattern in self.trusted_annotations)
