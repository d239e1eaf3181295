"""The danger zone: command risk raises levels; a spent risk budget locks the session."""

from __future__ import annotations

import json

import pytest

from mcpwall.gatekeeper.danger_zone import DangerZone, RiskBudget, find_commands
from mcpwall.gatekeeper.evaluate import evaluate
from mcpwall.gatekeeper.kinds import Classification, classify
from mcpwall.gatekeeper.profiles import RELEASE, Profile
from mcpwall.gatekeeper.resolver import resolve
from mcpwall.gatekeeper.settings import DangerZoneSettings, GatekeeperSettings, OperationOverride
from mcpwall.pipeline.verdict import PermissionLevel

L = PermissionLevel
ZONE = DangerZone(DangerZoneSettings())
ALLOW_SHELL = [Profile(name="dev", allow=["shell/*"])]
AUTO_RUN = OperationOverride(match="shell/run", level=L.AUTO_APPROVE)


def shell(tool: str = "run") -> Classification:
    return classify("shell", tool, None, False, [])


@pytest.mark.parametrize(
    ("arguments", "commands"),
    [
        ({"command": "ls"}, ["ls"]),
        ({"cmd": "ls", "cwd": "/tmp"}, ["ls"]),
        ({"Script": "ls"}, ["ls"]),
        ({"argv": ["rm", "-rf", "/"]}, [["rm", "-rf", "/"]]),
        ({"command": "git", "args": ["push", "--force"]}, [["git", "push", "--force"]]),
        ({"options": {"steps": [{"command": "rm -rf /"}]}}, ["rm -rf /"]),
        ({"query": "rm -rf /"}, []),
        ({"command": 42}, []),
    ],
)
def test_commands_are_found_under_their_keys_at_any_depth(
    arguments: dict[str, object], commands: list[str | list[str]]
) -> None:
    assert find_commands(arguments, ["command", "cmd", "script", "argv"]) == commands


def test_commands_nested_deeper_than_the_recursion_limit_are_still_found() -> None:
    arguments: dict[str, object] = {"command": "rm -rf /"}
    for _ in range(5000):
        arguments = {"x": arguments}
    assert find_commands(arguments, ["command"]) == ["rm -rf /"]


def test_high_irreversible_command_needs_single_use_confirmation_and_is_pinned() -> None:
    raised = ZONE.assess(classify("shell", "run", None, False, [AUTO_RUN]), {"command": "rm -rf /"})
    assert (raised.default_level, raised.elevatable) == (L.CONFIRM_SINGLE_USE, False)
    assert raised.command_risk is not None
    assert raised.command_risk.high_and_irreversible


@pytest.mark.parametrize("command", ["ls", "pip install x"])
def test_low_and_medium_commands_do_not_raise_the_level_by_default(command: str) -> None:
    raised = ZONE.assess(classify("shell", "run", None, False, [AUTO_RUN]), {"command": command})
    assert (raised.default_level, raised.elevatable) == (L.AUTO_APPROVE, True)


def test_medium_floor_is_configurable() -> None:
    zone = DangerZone(DangerZoneSettings.model_validate({"risk_floors": {"medium": "CONFIRM_SESSION"}}))
    raised = zone.assess(classify("shell", "run", None, False, [AUTO_RUN]), {"cmd": "pip install x"})
    assert (raised.default_level, raised.elevatable) == (L.CONFIRM_SESSION, True)


def test_command_arguments_of_a_read_tool_are_not_assessed() -> None:
    assert ZONE.assess(shell("lookup_manual"), {"command": "rm -rf /"}).command_risk is None


def test_command_arguments_of_an_unknown_tool_are_assessed() -> None:
    assert ZONE.assess(shell("frobnicate"), {"command": "rm -rf /"}).command_risk is not None


def test_profile_allow_cannot_auto_approve_a_high_irreversible_command() -> None:
    resolution = evaluate(
        GatekeeperSettings(), ALLOW_SHELL, RiskBudget(), "shell", "run", None, {"command": "curl x | sh"}
    )
    assert resolution.level is L.CONFIRM_SINGLE_USE
    assert [c.lost_to for c in resolution.conflicts] == ["operation is not elevatable"]
    assert resolution.to_dict()["command_risk"] == {
        "risk": "high",
        "irreversible": True,
        "reasons": ["network tool", "pipes text into sh"],
    }


def test_profile_allow_still_auto_approves_a_low_risk_command() -> None:
    resolution = evaluate(GatekeeperSettings(), ALLOW_SHELL, RiskBudget(), "shell", "run", None, {"command": "ls"})
    assert resolution.level is L.AUTO_APPROVE


def test_pinning_high_irreversible_commands_can_be_turned_off() -> None:
    settings = GatekeeperSettings(danger_zone=DangerZoneSettings(pin_high_irreversible=False))
    resolution = evaluate(settings, ALLOW_SHELL, RiskBudget(), "shell", "run", None, {"command": "rm -rf /"})
    assert resolution.level is L.AUTO_APPROVE


@pytest.mark.parametrize(
    ("tool", "arguments", "weight"),
    [
        ("read_file", {}, 0),
        ("create_issue", {}, 1),
        ("write_file", {}, 2),
        ("delete_repo", {}, 5),
        ("run", {"command": "ls"}, 5),
        ("run", {"command": "pip install x"}, 8),
        ("run", {"command": "rm -rf /"}, 15),
    ],
)
def test_each_call_weighs_its_kind_plus_its_command_risk(tool: str, arguments: dict[str, object], weight: int) -> None:
    assert ZONE.weight(ZONE.assess(shell(tool), arguments)) == weight


def run_calls(zone: DangerZone, command: str, count: int) -> RiskBudget:
    budget = RiskBudget()
    classification = zone.assess(shell(), {"command": command})
    for _ in range(count):
        budget = zone.record(budget, classification)
    return budget


def test_session_locks_only_when_spent_risk_exceeds_the_budget() -> None:
    assert run_calls(ZONE, "ls", 5) == RiskBudget(spent=25, calls=5)
    locked = run_calls(ZONE, "ls", 6)
    assert (locked.spent, locked.locked) == (30, True)
    assert locked.lock_reason == "risk 30 exceeded the session budget of 25"


def test_locked_session_denies_every_call_but_reads_and_recovery() -> None:
    locked = run_calls(ZONE, "rm -rf /", 2)
    write = ZONE.gate(resolve("fs", "write_file", shell("write_file"), []), locked)
    read = ZONE.gate(resolve("fs", "read_file", shell("read_file"), []), locked)
    release = ZONE.gate(resolve("mcpwall", "release", classify("mcpwall", "release", None, False, []), []), locked)
    assert (write.level, write.rule, write.locked) == (L.DENY, "gatekeeper.danger_zone.locked", True)
    assert write.verdict.violation == "SessionLocked"
    assert read.level is L.AUTO_APPROVE
    assert release.operation == RELEASE
    assert release.level is L.AUTO_APPROVE


def test_locked_session_denies_even_calls_a_profile_allows() -> None:
    locked = run_calls(ZONE, "rm -rf /", 2)
    resolution = evaluate(GatekeeperSettings(), ALLOW_SHELL, locked, "shell", "run", None, {"command": "ls"})
    assert resolution.level is L.DENY


def test_release_unlocks_and_resets_the_spent_risk() -> None:
    released = ZONE.release(run_calls(ZONE, "rm -rf /", 3))
    assert released == RiskBudget(calls=3)
    assert ZONE.gate(resolve("fs", "write_file", shell("write_file"), []), released).level is L.CONFIRM_SINGLE_USE


def test_disabled_danger_zone_never_locks() -> None:
    zone = DangerZone(DangerZoneSettings(enabled=False))
    assert run_calls(zone, "rm -rf /", 10).locked is False


def test_budget_round_trips_through_a_dict() -> None:
    budget = run_calls(ZONE, "rm -rf /", 3)
    assert RiskBudget.from_dict(json.loads(json.dumps(budget.to_dict()))) == budget


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"spent": -1, "calls": 0, "locked": False, "lock_reason": None},
        {"spent": True, "calls": 0, "locked": False, "lock_reason": None},
        {"spent": 0, "calls": 0, "locked": "no", "lock_reason": None},
        {"spent": 0, "calls": 0, "locked": True, "lock_reason": 5},
    ],
)
def test_malformed_budget_is_refused(data: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="malformed risk budget"):
        RiskBudget.from_dict(data)
