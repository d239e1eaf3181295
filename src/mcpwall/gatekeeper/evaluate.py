"""One call through the whole gatekeeper: classify, weigh its commands, resolve, gate.

The order is fixed here and nowhere else: classification (override, trusted annotations,
name verbs), then the danger zone raises the default level by the call's command risk, then
the active profiles resolve it, then a locked session denies what is not a READ.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from mcpwall.gatekeeper.danger_zone import DangerZone, RiskBudget
from mcpwall.gatekeeper.kinds import Classification, classify
from mcpwall.gatekeeper.profiles import Profile
from mcpwall.gatekeeper.resolver import Resolution, resolve
from mcpwall.gatekeeper.settings import GatekeeperSettings
from mcpwall.pipeline.verdict import Verdict


def evaluate(
    settings: GatekeeperSettings,
    profiles: Sequence[Profile],
    budget: RiskBudget,
    server: str,
    tool: str,
    annotations: Mapping[str, object] | None,
    arguments: Mapping[str, object],
) -> Resolution:
    """Decide one tools/call.

    Args:
        settings: the gatekeeper settings.
        profiles: the session's active profiles (``profiles.active_profiles``).
        budget: the session's risk budget as last persisted.
        server: the server's name in mcpwall's config.
        tool: the tool's name on that server.
        annotations: the pinned definition's annotations, or None.
        arguments: the call's arguments, as they will be forwarded.

    Returns:
        The resolution; after the call executes, pass ``resolution.classification`` to
        ``DangerZone.record`` to update the budget.
    """
    resolution, _ = Gatekeeper(settings).verdict(profiles, budget, server, tool, ("", annotations), arguments)
    return resolution


_MEMORY: Final = 4096
"""Classifications and resolutions one `Gatekeeper` remembers before it starts afresh."""


class Gatekeeper:
    """The gatekeeper for one settings object, remembering what does not depend on a call's arguments.

    A classification depends only on (server, tool, pinned definition) under fixed settings,
    and a resolution only on that classification and the active profiles; so both are computed
    once per tool and definition. The argument-dependent steps (command risk, the locked budget)
    run on every call, and a call whose command risk raised its classification is resolved
    afresh. The verdict handed to the pipeline is a new object each call (its ``detail`` is a
    copy), so nothing a caller adds to one call's verdict leaks into another's.

    Args:
        settings: the gatekeeper settings (never mutated: the cache is keyed on their identity).
    """

    def __init__(self, settings: GatekeeperSettings) -> None:
        self.settings = settings
        self.zone = DangerZone(settings.danger_zone)
        self._classes: dict[tuple[str, str, str], Classification] = {}
        self._verdicts: dict[tuple[object, ...], tuple[Sequence[Profile], Resolution, Verdict]] = {}

    def verdict(
        self,
        profiles: Sequence[Profile],
        budget: RiskBudget,
        server: str,
        tool: str,
        definition: tuple[str, Mapping[str, object] | None],
        arguments: Mapping[str, object],
    ) -> tuple[Resolution, Verdict]:
        """Decide one tools/call: the one place the order of the steps is written.

        Args:
            profiles: the session's active profiles.
            budget: the session's risk budget.
            server: the server's name in mcpwall's config.
            tool: the tool's name on that server.
            definition: the pinned definition's hash and its annotations.
            arguments: the call's arguments.

        Returns:
            The resolution and its verdict (a fresh object).
        """
        digest, annotations = definition
        base = self._classified(server, tool, digest, annotations)
        assessed = self.zone.assess(base, arguments)
        template: Verdict | None = None
        if assessed is base and digest:
            resolution, template = self._resolved(server, tool, digest, base, profiles)
        else:  # raised by its command risk, or no pinned definition to key on: nothing remembered
            resolution = resolve(server, tool, assessed, profiles)
        gated = self.zone.gate(resolution, budget)
        if gated is resolution and template is not None:
            return resolution, replace(template, detail=dict(template.detail))
        return gated, gated.verdict

    def _resolved(
        self, server: str, tool: str, digest: str, base: Classification, profiles: Sequence[Profile]
    ) -> tuple[Resolution, Verdict]:
        key = (server, tool, digest, *map(id, profiles))
        known = self._verdicts.get(key)
        if known is None:
            resolution = resolve(server, tool, base, profiles)
            known = (tuple(profiles), resolution, resolution.verdict)
            _remember(self._verdicts, key, known)
        return known[1], known[2]

    def _classified(
        self, server: str, tool: str, digest: str, annotations: Mapping[str, object] | None
    ) -> Classification:
        key = (server, tool, digest)
        found = self._classes.get(key) if digest else None
        if found is None:
            trusted = self.settings.trusts_annotations(server)
            found = classify(server, tool, annotations, trusted, self.settings.overrides)
            if digest:
                _remember(self._classes, key, found)
        return found


def _remember(memory: dict[Any, Any], key: Any, value: Any) -> None:
    if len(memory) >= _MEMORY:
        memory.clear()
    memory[key] = value
