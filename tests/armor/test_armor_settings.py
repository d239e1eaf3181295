"""Settings validation at load time, and the gateway ceiling."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from mcpwall.armor.ceiling import apply_ceiling
from mcpwall.armor.settings import ArmorSettings, RateLimitSettings
from mcpwall.config.schema_docs import attribute_docstrings


@pytest.mark.parametrize(
    "fields",
    [
        {"allowed_paths": ["relative/dir"]},
        {"path_base": "relative"},
        {"allowed_domains": ["a.*.com"]},
        {"allowed_domains": ["*"]},
        {"allowed_domains": ["exa mple.com"]},
        {"allowed_domains": ["xn--pple-43d.com"]},
        {"commands": {"/usr/bin/git": []}},
        {"commands": {"": []}},
        {"max_result_bytes": 100},
        {"on_oversize": "drop"},
        {"rate_limits": {"per_session": "lots"}},
        {"rate_limits": {"per_tool": {"*": "ten/minute"}}},
        {"rate_limits": {"storage_uri": "ftp://x"}},
        {"rate_limits": {"storage_uri": "async+memory://"}},
        {"rate_limits": {"unknown": 1}},
        {"allow_networks": False},
    ],
)
def test_invalid_settings_are_rejected_at_load_time(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        ArmorSettings.model_validate(fields)


@pytest.mark.parametrize("model", [ArmorSettings, RateLimitSettings])
def test_every_setting_is_documented(model: type[BaseModel]) -> None:
    documented = attribute_docstrings(model)
    assert all(field.description or name in documented for name, field in model.model_fields.items())


def test_defaults_have_no_path_or_domain_policy_and_refuse_private_networks() -> None:
    settings = ArmorSettings()
    assert settings.allowed_paths is None
    assert settings.allowed_domains is None
    assert not settings.allow_private_networks
    assert settings.max_result_bytes == 524288
    assert settings.rate_limits.storage_uri == "memory://"


@pytest.mark.parametrize(
    ("commands", "command_tools", "effective"),
    [
        (None, [], []),
        ({"git": []}, [], ["*"]),
        ({"git": []}, ["shell_*"], ["shell_*"]),
        (None, ["shell_*"], ["shell_*"]),
    ],
)
def test_command_tools_default_to_every_tool_only_when_commands_are_set(
    commands: dict[str, list[str]] | None, command_tools: list[str], effective: list[str]
) -> None:
    settings = ArmorSettings(commands=commands, command_tools=command_tools)
    assert settings.effective_command_tools() == effective


def test_ceiling_intersects_path_trees(tmp_path: Path) -> None:
    (tmp_path / "data" / "project").mkdir(parents=True)
    (tmp_path / "other").mkdir()
    data, project, other = (str(tmp_path / p) for p in ("data", "data/project", "other"))
    ceiling = ArmorSettings(allowed_paths=[data])
    assert apply_ceiling(ArmorSettings(allowed_paths=[project]), ceiling).allowed_paths == [project]
    assert apply_ceiling(ArmorSettings(allowed_paths=[str(tmp_path)]), ceiling).allowed_paths == [data]
    assert apply_ceiling(ArmorSettings(allowed_paths=[other]), ceiling).allowed_paths == []
    assert apply_ceiling(ArmorSettings(), ceiling).allowed_paths == [data]
    assert apply_ceiling(ArmorSettings(allowed_paths=[other]), ArmorSettings()).allowed_paths == [other]


def test_ceiling_does_not_mistake_a_sibling_prefix_for_a_subtree(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data-secret").mkdir()
    ceiling = ArmorSettings(allowed_paths=[str(tmp_path / "data")])
    mine = ArmorSettings(allowed_paths=[str(tmp_path / "data-secret")])
    assert apply_ceiling(mine, ceiling).allowed_paths == []


@pytest.mark.parametrize(
    ("mine", "ceiling", "expected"),
    [
        (None, ["*.x.com"], ["*.x.com"]),
        (["a.com"], None, ["a.com"]),
        (["api.x.com"], ["*.x.com"], ["api.x.com"]),
        (["*.x.com"], ["api.x.com"], ["api.x.com"]),
        (["*.com"], ["*.x.com"], ["*.x.com"]),
        (["*.a.x.com"], ["*.x.com"], ["*.a.x.com"]),
        (["x.com"], ["*.x.com"], []),
        (["evil.com"], ["good.com"], []),
        (["Bücher.de"], ["xn--bcher-kva.de"], ["xn--bcher-kva.de"]),
    ],
)
def test_ceiling_intersects_domain_patterns(
    mine: list[str] | None, ceiling: list[str] | None, expected: list[str]
) -> None:
    combined = apply_ceiling(ArmorSettings(allowed_domains=mine), ArmorSettings(allowed_domains=ceiling))
    assert combined.allowed_domains == expected


@pytest.mark.parametrize(
    ("mine", "ceiling", "expected"),
    [
        (None, {"git": ["status"]}, {"git": ["status"]}),
        ({"git": []}, {"git": ["status", "log"]}, {"git": ["status", "log"]}),
        ({"git": ["log", "push"]}, {"git": ["status", "log"]}, {"git": ["log"]}),
        ({"git": ["push"]}, {"git": ["status"]}, {}),
        ({"git": [], "rm": []}, {"git": []}, {"git": []}),
    ],
)
def test_ceiling_intersects_commands_without_widening_an_empty_intersection(
    mine: dict[str, list[str]] | None, ceiling: dict[str, list[str]], expected: dict[str, list[str]]
) -> None:
    assert apply_ceiling(ArmorSettings(commands=mine), ArmorSettings(commands=ceiling)).commands == expected


def test_ceiling_requires_both_sides_for_every_permission() -> None:
    generous = ArmorSettings(
        allow_network=True,
        allow_private_networks=True,
        allow_shell_metacharacters=True,
        allow_interpreter_wrappers=True,
        max_result_bytes=10_000_000,
    )
    strict = ArmorSettings(allow_network=False, max_result_bytes=4096, on_oversize="refuse")
    for combined in (apply_ceiling(generous, strict), apply_ceiling(strict, generous)):
        assert not combined.allow_network
        assert not combined.allow_private_networks
        assert not combined.allow_shell_metacharacters
        assert not combined.allow_interpreter_wrappers
        assert combined.max_result_bytes == 4096
        assert combined.on_oversize == "refuse"


def test_ceiling_keeps_every_rate_window_and_the_gateway_storage() -> None:
    mine = ArmorSettings(rate_limits=RateLimitSettings(per_session="100/minute", per_tool={"w*": "5/minute"}))
    ceiling = ArmorSettings(
        rate_limits=RateLimitSettings(
            per_session="1000/hour", per_tool={"w*": "50/hour"}, storage_uri="redis://r:6379/0"
        )
    )
    rates = apply_ceiling(mine, ceiling).rate_limits
    assert rates.per_session == "100/minute;1000/hour"
    assert rates.per_tool == {"w*": "50/hour;5/minute"}
    assert rates.storage_uri == "redis://r:6379/0"


def test_ceiling_checks_commands_on_every_tool_a_side_would_check() -> None:
    mine = ArmorSettings(command_tools=["shell_*"])
    ceiling = ArmorSettings(commands={"git": []})
    assert apply_ceiling(mine, ceiling).effective_command_tools() == ["*", "shell_*"]
