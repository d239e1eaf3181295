"""`Gatekeeper` remembers per tool and definition what `evaluate` decides, and nothing more."""

from __future__ import annotations

import pytest

from mcpwall.gatekeeper.danger_zone import RiskBudget
from mcpwall.gatekeeper.evaluate import Gatekeeper, evaluate
from mcpwall.gatekeeper.profiles import Profile
from mcpwall.gatekeeper.settings import GatekeeperSettings
from mcpwall.pipeline.verdict import PermissionLevel

L = PermissionLevel
SETTINGS = GatekeeperSettings(trusted_annotations=["fs"])
DEV = [Profile(name="dev", allow=["shell/*"])]
LOCKED = RiskBudget(spent=999, calls=3, locked=True, lock_reason="spent")
CASES = [
    ("fs", "read_file", {"readOnlyHint": True}, {"path": "a"}, RiskBudget()),
    ("fs", "write_file", None, {"path": "a"}, RiskBudget()),
    ("fs", "write_file", None, {"path": "a"}, LOCKED),
    ("shell", "run", None, {"command": "ls"}, RiskBudget()),
    ("shell", "run", None, {"command": "rm -rf /"}, RiskBudget()),
    ("shell", "run", None, {"command": "ls"}, LOCKED),
]


@pytest.mark.parametrize(("server", "tool", "annotations", "arguments", "budget"), CASES)
@pytest.mark.parametrize("profiles", [[], DEV])
def test_remembered_resolutions_equal_fresh_ones_call_after_call(
    server: str,
    tool: str,
    annotations: dict[str, object] | None,
    arguments: dict[str, object],
    budget: RiskBudget,
    profiles: list[Profile],
) -> None:
    gatekeeper = Gatekeeper(SETTINGS)
    fresh = evaluate(SETTINGS, profiles, budget, server, tool, annotations, arguments)
    for _ in range(3):
        resolution, verdict = gatekeeper.verdict(profiles, budget, server, tool, ("h1", annotations), arguments)
        assert resolution == fresh
        assert verdict == fresh.verdict


def test_each_call_gets_its_own_verdict_detail() -> None:
    gatekeeper = Gatekeeper(SETTINGS)
    _, first = gatekeeper.verdict([], RiskBudget(), "fs", "read_file", ("h1", None), {})
    first.detail["classification"] = "this call's"
    _, second = gatekeeper.verdict([], RiskBudget(), "fs", "read_file", ("h1", None), {})
    assert "classification" not in second.detail


def test_a_new_definition_hash_is_classified_again() -> None:
    gatekeeper = Gatekeeper(SETTINGS)
    before, _ = gatekeeper.verdict([], RiskBudget(), "fs", "update", ("h1", {"readOnlyHint": True}), {})
    after, _ = gatekeeper.verdict([], RiskBudget(), "fs", "update", ("h2", {"destructiveHint": True}), {})
    assert (before.level, after.level) == (L.AUTO_APPROVE, L.CONFIRM_SINGLE_USE)


def test_other_profiles_resolve_again() -> None:
    gatekeeper = Gatekeeper(SETTINGS)
    default, _ = gatekeeper.verdict([], RiskBudget(), "shell", "run", ("h1", None), {"command": "ls"})
    allowed, _ = gatekeeper.verdict(DEV, RiskBudget(), "shell", "run", ("h1", None), {"command": "ls"})
    assert default.level is not L.AUTO_APPROVE
    assert allowed.level is L.AUTO_APPROVE


def test_without_a_definition_hash_nothing_is_remembered() -> None:
    gatekeeper = Gatekeeper(SETTINGS)
    read, _ = gatekeeper.verdict([], RiskBudget(), "fs", "update", ("", {"readOnlyHint": True}), {})
    deleting, _ = gatekeeper.verdict([], RiskBudget(), "fs", "update", ("", {"destructiveHint": True}), {})
    assert (read.level, deleting.level) == (L.AUTO_APPROVE, L.CONFIRM_SINGLE_USE)
