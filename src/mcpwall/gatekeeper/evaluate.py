"""One call through the whole gatekeeper: classify, weigh its commands, resolve, gate.

The order is fixed here and nowhere else: classification (override, trusted annotations,
name verbs), then the danger zone raises the default level by the call's command risk, then
the active profiles resolve it, then a locked session denies what is not a READ.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mcpwall.gatekeeper.danger_zone import DangerZone, RiskBudget
from mcpwall.gatekeeper.kinds import classify
from mcpwall.gatekeeper.profiles import Profile
from mcpwall.gatekeeper.resolver import Resolution, resolve
from mcpwall.gatekeeper.settings import GatekeeperSettings


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
    trusted = settings.trusts_annotations(server)
    classification = classify(server, tool, annotations, trusted, settings.overrides)
    zone = DangerZone(settings.danger_zone)
    classification = zone.assess(classification, arguments)
    return zone.gate(resolve(server, tool, classification, profiles), budget)
