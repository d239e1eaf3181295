"""Explaining a hypothetical call: every check runs, a crash is a DENY, the server's settings apply."""

from __future__ import annotations

from typing import ClassVar

import orjson
import pytest

from mcpwall import explain as explain_module
from mcpwall.assembly import session_checks
from mcpwall.config import Config, ServerSpec
from mcpwall.errors import ConfigError
from mcpwall.explain import explain_call
from mcpwall.mcp import ToolCall
from mcpwall.pipeline import Check, Context, PermissionLevel, Verdict


class Exploding(Check):
    """A check that raises on every call."""

    name: ClassVar[str] = "exploding"

    def on_tool_call(self, call: ToolCall, ctx: Context) -> Verdict | None:
        raise RuntimeError("boom")


def config(**data: object) -> Config:
    return Config.model_validate(data)


def test_every_check_gives_its_verdict_even_after_a_deny() -> None:
    found = explain_call(
        config(tools={"deny": ["rm"]}, armor={"allowed_paths": ["/srv"]}), "fs", "rm", {"path": "/etc"}
    )

    levels = {o.check: o.verdict.level if o.verdict else None for o in found.outcomes}
    assert levels == {
        "tool-lists": PermissionLevel.DENY,
        "inspection": None,
        "gatekeeper": PermissionLevel.CONFIRM_SINGLE_USE,
        "armor": PermissionLevel.DENY,
    }
    assert found.level is PermissionLevel.DENY


def test_a_check_that_raises_is_a_check_error_deny_and_the_rest_still_run(monkeypatch: pytest.MonkeyPatch) -> None:
    def checks(config: Config, spec: ServerSpec) -> list[Check]:
        return [Exploding(), *session_checks(config, spec)]

    monkeypatch.setattr(explain_module, "session_checks", checks)

    found = explain_call(Config(), "fs", "read_file", {})

    first = found.outcomes[0].verdict
    assert first is not None
    assert (first.level, first.rule, first.violation) == (PermissionLevel.DENY, "check-error", "CheckError")
    assert [o.check for o in found.outcomes] == ["exploding", "tool-lists", "inspection", "gatekeeper", "armor"]
    assert found.to_dict()["violations"] == [{"check": "exploding", "type": "CheckError", "reason": first.reason}]


def test_the_json_form_is_plain_json_without_the_classification_object() -> None:
    found = explain_call(
        config(armor={"allowed_domains": ["example.com"]}), "web", "run_script", {"url": "http://x.org"}
    )

    text = orjson.dumps(found.to_dict())

    assert b"classification" not in text
    assert found.to_dict()["kind"] == "execute"


def test_the_servers_own_settings_apply_under_the_top_level_ceiling() -> None:
    settings = config(
        armor={"allowed_paths": ["/srv"]},
        servers={"fs": {"tools": {"allow": ["read_*"]}, "armor": {"allowed_paths": ["/srv/fs"]}}},
    )

    own = explain_call(settings, "fs", "read_file", {"path": "/srv/other"})
    other = explain_call(settings, "git", "read_file", {"path": "/srv/other"})
    listed = explain_call(settings, "fs", "write_file", {})

    assert (own.settings, [v["type"] for v in own.violations]) == ("servers.fs", ["PathOutsideBoundary"])
    assert (other.settings, other.violations) == ("top-level", [])
    assert [v["type"] for v in listed.violations] == ["ToolNotAllowed"]


def test_the_configs_default_profiles_apply_when_none_are_given() -> None:
    settings = config(gatekeeper={"profiles": {"ro": {"deny": ["confirm"]}}, "default_profiles": ["ro"]})

    found = explain_call(settings, "fs", "write_file", {})

    assert (found.profiles, found.level) == (("ro",), PermissionLevel.DENY)


def test_an_unknown_profile_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown profile 'nobody'"):
        explain_call(Config(), "fs", "read_file", {}, profiles=["nobody"])
