"""Operation kinds: what a tool call does, and the permission level that follows by default.

Every tool is classified once per call, from the first of these sources that has an answer:

1. an operator override in the config (a glob over ``server/tool``; first match wins);
2. the definition's annotations, only when the operator trusts that server's annotations
   (annotations are written by the server, so an untrusted server could dodge confirmation
   by calling ``delete_everything`` read-only);
3. the verbs in the tool's name (see :mod:`mcpwall.gatekeeper.verbs`).

A tool none of them can classify is UNKNOWN: CONFIRM_SINGLE_USE and never elevatable, so no
profile allow can auto-approve it; only an operator override can.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING

from mcpwall.gatekeeper.command_risk import CommandRisk
from mcpwall.gatekeeper.verbs import VERBS, split_words
from mcpwall.pipeline.verdict import PermissionLevel

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from mcpwall.gatekeeper.settings import OperationOverride


class OperationKind(StrEnum):
    """What a tool call does to the world."""

    READ = "read"
    CREATE = "create"
    UPDATE = "update"
    DELETE = "delete"
    EXECUTE = "execute"
    UNKNOWN = "unknown"


class KindSource(StrEnum):
    """Where a classification came from."""

    OVERRIDE = "override"
    ANNOTATIONS = "annotations"
    NAME = "name"
    NONE = "none"


DANGER_ORDER: tuple[OperationKind, ...] = (
    OperationKind.READ,
    OperationKind.CREATE,
    OperationKind.UPDATE,
    OperationKind.DELETE,
    OperationKind.EXECUTE,
)
"""Known kinds from least to most dangerous; several verbs in one name resolve to the last."""

DEFAULT_LEVELS: dict[OperationKind, PermissionLevel] = {
    OperationKind.READ: PermissionLevel.AUTO_APPROVE,
    OperationKind.CREATE: PermissionLevel.CONFIRM_SESSION,
    OperationKind.UPDATE: PermissionLevel.CONFIRM_SINGLE_USE,
    OperationKind.DELETE: PermissionLevel.CONFIRM_SINGLE_USE,
    OperationKind.EXECUTE: PermissionLevel.CONFIRM_SINGLE_USE,
    OperationKind.UNKNOWN: PermissionLevel.CONFIRM_SINGLE_USE,
}
"""The level each kind resolves to when no profile says otherwise."""


@dataclass(frozen=True, slots=True)
class Classification:
    """The kind of one operation, where it came from and the level it asks for by default.

    Attributes:
        kind: what the operation does.
        source: which source decided the kind.
        default_level: the level before profiles (the kind's, an override's, or raised by
            the command risk of the call's arguments).
        elevatable: whether a profile allow may lower ``default_level`` to AUTO_APPROVE.
        rationale: a sentence for ``mcpwall policy explain`` and the audit trail.
        command_risk: the risk of the call's shell-like arguments, when they were assessed.
    """

    kind: OperationKind
    source: KindSource
    default_level: PermissionLevel
    elevatable: bool
    rationale: str
    command_risk: CommandRisk | None = None

    def raised_to(self, level: PermissionLevel, *, pin: bool, why: str) -> Classification:
        """This classification with ``default_level`` raised to at least ``level``.

        Args:
            level: the floor to apply; a lower floor changes nothing.
            pin: also make the operation non-elevatable.
            why: appended to the rationale when something changed.
        """
        raised = max(self.default_level, level)
        elevatable = self.elevatable and not pin
        if raised == self.default_level and elevatable == self.elevatable:
            return self
        rationale = f"{self.rationale}; {why}"
        return replace(self, default_level=raised, elevatable=elevatable, rationale=rationale)


def most_dangerous(kinds: Sequence[OperationKind]) -> OperationKind | None:
    """The most dangerous of ``kinds`` (EXECUTE > DELETE > UPDATE > CREATE > READ), or None."""
    return max(kinds, key=DANGER_ORDER.index, default=None)


def kind_from_name(tool: str) -> tuple[OperationKind, list[str]]:
    """Classify a tool by the verbs in its name.

    Args:
        tool: the tool name (without server prefix).

    Returns:
        The most dangerous kind named (UNKNOWN when no word is a verb) and the words naming it.
    """
    hits = [(word, OperationKind(VERBS[word])) for word in split_words(tool) if word in VERBS]
    kind = most_dangerous([kind for _, kind in hits])
    if kind is None:
        return OperationKind.UNKNOWN, []
    return kind, [word for word, word_kind in hits if word_kind is kind]


def kind_from_annotations(annotations: Mapping[str, object]) -> tuple[OperationKind, str] | None:
    """Classify a tool by its MCP annotations; None when they say nothing about the kind.

    Only explicit booleans count (absent hints carry the MCP spec's pessimistic defaults, which
    name no kind). ``openWorldHint`` says how far a tool reaches, not what it does, so it is
    ignored here; reach is the network armor's business.

    Args:
        annotations: the ``annotations`` object of a tool definition.

    Returns:
        The kind and the hint that decided it, or None.
    """
    read_only = annotations.get("readOnlyHint")
    destructive = annotations.get("destructiveHint")
    if read_only is True:
        return OperationKind.READ, "readOnlyHint"
    if destructive is True:
        return OperationKind.DELETE, "destructiveHint"
    if annotations.get("idempotentHint") is True:
        return OperationKind.UPDATE, "idempotentHint"
    if destructive is False:
        # The spec reads destructiveHint=false as "performs only additive updates".
        return OperationKind.CREATE, "destructiveHint=false"
    return None


def _from_override(base: Classification, override: OperationOverride) -> Classification:
    """Apply an override on top of the classification the other sources found."""
    kind = override.kind or base.kind
    level = override.level if override.level is not None else DEFAULT_LEVELS[kind]
    # An override that leaves the kind UNKNOWN and names no level has not classified it.
    classified = kind is not OperationKind.UNKNOWN or override.level is not None
    why = override.rationale or f"operator override {override.match!r}"
    if override.kind is None:
        why = f"{why}; kind from {base.source}: {base.rationale}"
    return Classification(kind, KindSource.OVERRIDE, level, override.elevatable and classified, why)


def _classify_unpinned(
    tool: str, annotations: Mapping[str, object] | None, trusted_annotations: bool
) -> Classification:
    """Classify from annotations (when trusted) or the tool's name."""
    if trusted_annotations and annotations:
        found = kind_from_annotations(annotations)
        if found is not None:
            kind, hint = found
            why = f"trusted annotation {hint}"
            return Classification(kind, KindSource.ANNOTATIONS, DEFAULT_LEVELS[kind], True, why)
    kind, words = kind_from_name(tool)
    if kind is OperationKind.UNKNOWN:
        why = f"no verb in tool name {tool!r}"
        return Classification(kind, KindSource.NONE, DEFAULT_LEVELS[kind], False, why)
    why = f"verb {'/'.join(words)!r} in tool name"
    return Classification(kind, KindSource.NAME, DEFAULT_LEVELS[kind], True, why)


def classify(
    server: str,
    tool: str,
    annotations: Mapping[str, object] | None,
    trusted_annotations: bool,
    overrides: Sequence[OperationOverride],
) -> Classification:
    """Classify one operation.

    Args:
        server: the server's name in mcpwall's config.
        tool: the tool's name on that server.
        annotations: the definition's ``annotations`` (the pinned definition's, never the
            call's), or None.
        trusted_annotations: whether the operator trusts this server's annotations.
        overrides: the operator's overrides, in config order; the first match wins.

    Returns:
        The classification, with its default level and whether it is elevatable.
    """
    base = _classify_unpinned(tool, annotations, trusted_annotations)
    operation = f"{server}/{tool}"
    for override in overrides:
        if fnmatchcase(operation, override.match):
            return _from_override(base, override)
    return base
