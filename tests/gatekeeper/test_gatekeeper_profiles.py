"""Gatekeeper settings and profile validation: what a config may say, and what it must not."""

from __future__ import annotations

import pydantic
import pytest
import yaml

from mcpwall.gatekeeper.kinds import OperationKind
from mcpwall.gatekeeper.profiles import active_profiles, validate_profiles
from mcpwall.gatekeeper.settings import GatekeeperSettings
from mcpwall.pipeline.verdict import PermissionLevel

EXAMPLE = """
profiles:
  dev:
    description: everyday work on the repo
    allow: ["git/*", "fs/read_*"]
    confirm: ["git/git_push*"]
  prod-readonly:
    deny: ["confirm", "*/delete_*"]
default_profiles: [dev]
overrides:
  - match: "db/query"
    kind: execute
    level: CONFIRM_SINGLE_USE
    rationale: "runs arbitrary SQL"
    elevatable: false
trusted_annotations: ["fs", "time*"]
danger_zone:
  budget: 40
  risk_floors: {medium: confirm_session}
"""


def test_documented_yaml_example_loads() -> None:
    settings = GatekeeperSettings.model_validate(yaml.safe_load(EXAMPLE))
    assert settings.overrides[0].kind is OperationKind.EXECUTE
    assert settings.overrides[0].level is PermissionLevel.CONFIRM_SINGLE_USE
    assert settings.trusts_annotations("time-server")
    assert not settings.trusts_annotations("git")
    assert validate_profiles(settings) == []


def test_partial_danger_zone_table_keeps_the_other_defaults() -> None:
    zone = GatekeeperSettings.model_validate(yaml.safe_load(EXAMPLE)).danger_zone
    assert zone.risk_floors == {
        "low": PermissionLevel.AUTO_APPROVE,
        "medium": PermissionLevel.CONFIRM_SESSION,
        "high": PermissionLevel.CONFIRM_SINGLE_USE,
    }


@pytest.mark.parametrize(
    "data",
    [
        {"profiles": {"p": {"allow": [], "permit": []}}},
        {"overrides": [{"match": "a/b", "kind": "explode"}]},
        {"overrides": [{"match": "a/b", "level": "MAYBE"}]},
        {"danger_zone": {"budget": 0}},
        {"danger_zone": {"risk_weights": {"extreme": 1}}},
        {"unknown_key": 1},
    ],
)
def test_settings_with_unknown_keys_or_values_do_not_load(data: dict[str, object]) -> None:
    with pytest.raises(pydantic.ValidationError):
        GatekeeperSettings.model_validate(data)


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"default_profiles": ["ghost"]}, "default_profiles[0]: unknown profile 'ghost'"),
        ({"profiles": {"p": {"allow": ["confirm"]}}}, "profiles.p.allow[0]: 'confirm' is a pseudo-operation"),
        ({"profiles": {"p": {"deny": ["github"]}}}, "profiles.p.deny[0]: 'github' has no '/'"),
        ({"profiles": {"p": {"confirm": [""]}}}, "profiles.p.confirm[0]: empty pattern"),
        ({"profiles": {"p": {"deny": ["mcpwall/*"]}}}, "profiles.p.deny[0]: 'mcpwall/*' names mcpwall's own"),
        ({"overrides": [{"match": "db", "kind": "read"}]}, "overrides[0].match: 'db' has no '/'"),
        ({"overrides": [{"match": "db/q"}]}, "overrides[0]: sets no kind, no level"),
        ({"trusted_annotations": ["fs/read"]}, "trusted_annotations[0]: 'fs/read' is a server glob"),
    ],
)
def test_validation_reports_each_problem_with_its_config_path(data: dict[str, object], problem: str) -> None:
    problems = validate_profiles(GatekeeperSettings.model_validate(data))
    assert len(problems) == 1
    assert problems[0].startswith(problem)


def test_validation_reports_unknown_profiles_referenced_elsewhere() -> None:
    settings = GatekeeperSettings.model_validate({"profiles": {"dev": {}}})
    assert validate_profiles(settings, referenced=["dev", "ops"]) == ["unknown profile 'ops'"]


def test_valid_patterns_raise_no_problem() -> None:
    data = {"profiles": {"p": {"allow": ["*", "gh/*"], "confirm": ["*/write_*"], "deny": ["confirm", "db/drop_?"]}}}
    assert validate_profiles(GatekeeperSettings.model_validate(data)) == []


def test_active_profiles_come_back_in_the_order_named() -> None:
    settings = GatekeeperSettings.model_validate({"profiles": {"a": {"allow": ["x/*"]}, "b": {"deny": ["confirm"]}}})
    profiles = active_profiles(settings, ["b", "a"])
    assert [(p.name, p.read_only) for p in profiles] == [("b", True), ("a", False)]


def test_activating_an_unknown_profile_raises() -> None:
    with pytest.raises(ValueError, match="ghost"):
        active_profiles(GatekeeperSettings(), ["ghost"])
