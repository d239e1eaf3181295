"""Profiles: named bundles of allow / confirm / deny patterns, and their validation.

Several profiles may be active in one session (chosen by the agent's identity, or
``default_profiles``). How their lists combine is the resolver's business; this module says
what one profile matches and whether a config's profiles make sense.

Matching: patterns that restrict (``deny``, ``confirm``) match case-insensitively, patterns
that grant (``allow``) match exactly, so a server that renames ``delete_repo`` to
``Delete_Repo`` slips past no denial, and gains no allow.

The human's recovery operations (approving or rejecting a pending call, releasing a locked
session) live outside profiles: no profile can deny them. They are never tools the model can
call; they arrive on mcpwall's own out-of-band channels (CLI, console, webhook), and the
``mcpwall`` server name is reserved, so a model's ``tools/call`` never names them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from fnmatch import fnmatchcase

from pydantic import BaseModel, ConfigDict, Field

from mcpwall.gatekeeper.settings import GatekeeperSettings, ProfileBody

RECOVERY_SERVER = "mcpwall"
"""The reserved server name of mcpwall's own operations."""
APPROVE = "mcpwall/approve"
"""A human approves a pending call."""
REJECT = "mcpwall/reject"
"""A human rejects a pending call."""
RELEASE = "mcpwall/release"
"""A human releases a session locked by the danger zone."""
RECOVERY_OPERATIONS = frozenset({APPROVE, REJECT, RELEASE})
"""Operations no profile can deny."""

CONFIRM_PSEUDO_OPERATION = "confirm"
"""Under ``deny``: deny confirmation itself, which makes the session read-only."""


class ListName(StrEnum):
    """A profile's three lists, strongest last."""

    ALLOW = "allow"
    CONFIRM = "confirm"
    DENY = "deny"


class Profile(BaseModel):
    """An active profile: its name and its three lists of ``server/tool`` globs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    """The profile's name in the config."""
    allow: list[str] = Field(default_factory=list)
    """Operations to auto-approve, when elevatable and no active profile asks to confirm them."""
    confirm: list[str] = Field(default_factory=list)
    """Operations that need at least a confirmation per session."""
    deny: list[str] = Field(default_factory=list)
    """Operations refused outright; ``confirm`` here makes the session read-only."""

    @classmethod
    def from_body(cls, name: str, body: ProfileBody) -> Profile:
        """The profile ``name`` as configured by ``body``."""
        return cls(name=name, allow=body.allow, confirm=body.confirm, deny=body.deny)

    @property
    def read_only(self) -> bool:
        """Whether this profile denies confirmation, so nothing can be confirmed."""
        return CONFIRM_PSEUDO_OPERATION in self.deny

    def first_match(self, which: ListName, operation: str) -> str | None:
        """The first pattern of list ``which`` matching ``operation`` (``server/tool``), or None."""
        if which is ListName.ALLOW:
            return next((p for p in self.allow if fnmatchcase(operation, p)), None)
        patterns = self.deny if which is ListName.DENY else self.confirm
        folded = operation.casefold()
        return next((p for p in patterns if fnmatchcase(folded, p.casefold())), None)


def is_recovery(server: str, tool: str) -> bool:
    """Whether ``server/tool`` is one of the human's recovery operations."""
    return f"{server}/{tool}" in RECOVERY_OPERATIONS


def active_profiles(settings: GatekeeperSettings, names: Sequence[str]) -> list[Profile]:
    """The profiles named ``names``, in that order.

    Args:
        settings: the gatekeeper settings.
        names: profile names (an agent's, or ``settings.default_profiles``).

    Raises:
        ValueError: a name is not a configured profile. ``validate_profiles`` reports this at
            config time; reaching it at run time is a bug, and the caller must fail closed.
    """
    unknown = [name for name in names if name not in settings.profiles]
    if unknown:
        raise ValueError(f"unknown profiles: {', '.join(unknown)}")
    return [Profile.from_body(name, settings.profiles[name]) for name in names]


def _pattern_problems(where: str, pattern: str, *, pseudo_allowed: bool) -> list[str]:
    """Problems with one pattern at config path ``where``."""
    if pattern == CONFIRM_PSEUDO_OPERATION:
        return [] if pseudo_allowed else [f"{where}: 'confirm' is a pseudo-operation that only means something in deny"]
    if not pattern:
        return [f"{where}: empty pattern"]
    if "/" not in pattern and pattern != "*":
        return [f"{where}: {pattern!r} has no '/' and matches no server/tool; did you mean '{pattern}/*'?"]
    if pattern.casefold().startswith(f"{RECOVERY_SERVER}/"):
        return [f"{where}: {pattern!r} names mcpwall's own operations, which profiles cannot govern"]
    return []


def _profile_problems(name: str, body: ProfileBody) -> list[str]:
    """Problems with one profile's lists."""
    problems: list[str] = []
    for which, patterns in (("allow", body.allow), ("confirm", body.confirm), ("deny", body.deny)):
        for index, pattern in enumerate(patterns):
            where = f"profiles.{name}.{which}[{index}]"
            problems += _pattern_problems(where, pattern, pseudo_allowed=which == "deny")
    return problems


def _other_problems(settings: GatekeeperSettings) -> list[str]:
    """Problems with overrides and trusted-annotation globs."""
    problems: list[str] = []
    for index, override in enumerate(settings.overrides):
        where = f"overrides[{index}]"
        problems += _pattern_problems(f"{where}.match", override.match, pseudo_allowed=False)
        if override.kind is None and override.level is None and override.elevatable:
            problems.append(f"{where}: sets no kind, no level and leaves it elevatable: it changes nothing")
    for index, glob in enumerate(settings.trusted_annotations):
        if "/" in glob:
            problems.append(f"trusted_annotations[{index}]: {glob!r} is a server glob; it cannot contain '/'")
    return problems


def validate_profiles(settings: GatekeeperSettings, referenced: Iterable[str] = ()) -> list[str]:
    """Everything wrong with the gatekeeper settings that the models alone cannot catch.

    Args:
        settings: the gatekeeper settings.
        referenced: profile names referenced elsewhere in the config (agent identities), to
            check alongside ``default_profiles``.

    Returns:
        One message per problem, each starting with its config path; empty when all is well.
    """
    problems: list[str] = []
    for index, name in enumerate(settings.default_profiles):
        if name not in settings.profiles:
            problems.append(f"default_profiles[{index}]: unknown profile {name!r}")
    problems += [f"unknown profile {name!r}" for name in referenced if name not in settings.profiles]
    for name, body in settings.profiles.items():
        problems += _profile_problems(name, body)
    return problems + _other_problems(settings)
