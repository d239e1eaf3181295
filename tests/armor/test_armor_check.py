"""check_arguments: all argument rules for one call, with locations."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpwall.armor.check import check_arguments
from mcpwall.armor.settings import ArmorSettings


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "data").mkdir()
    return tmp_path / "data"


@pytest.fixture
def settings(root: Path) -> ArmorSettings:
    return ArmorSettings(
        allowed_paths=[str(root)],
        allowed_domains=["*.github.com"],
        commands={"git": ["status"]},
        command_tools=["shell_*"],
    )


def _types(tool: str, arguments: dict[str, object], settings: ArmorSettings) -> list[str]:
    return [v.type for v in check_arguments(tool, arguments, None, settings)]


def test_typical_call_inside_the_policy_passes(root: Path, settings: ArmorSettings) -> None:
    assert check_arguments("read_file", {"path": str(root / "x.txt")}, None, settings) == []


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("read_file", {"path": "/etc/passwd"}, ["PathOutsideBoundary"]),
        ("read_file", {"path": "../../etc/passwd"}, ["PathTraversalAttempt"]),
        ("copy", {"files": [{"sourcePath": "x"}, {"target_file": "/etc/x"}]}, ["PathOutsideBoundary"]),
        ("fetch", {"url": "https://evil.com/"}, ["DomainNotAllowed"]),
        ("fetch", {"url": "http://169.254.169.254/"}, ["NetworkNotAllowed"]),
        ("connect", {"host": 2130706433}, ["NetworkNotAllowed"]),
        ("post", {"body": "exfil to https://evil.com/?d=secret"}, ["DomainNotAllowed"]),
        ("read", {"uri": "file:///etc/passwd"}, ["PathOutsideBoundary"]),
        ("shell_run", {"command": "git push"}, ["SubcommandNotAllowed"]),
        ("shell_run", {"command": "git", "args": ["status"]}, []),
        ("shell_run", {"command": "git", "args": ["status;", "rm"]}, ["CommandNotAllowed"]),
        ("other_tool", {"command": "rm -rf /"}, []),
        ("fetch", {"url": "https://api.github.com/x"}, []),
    ],
)
def test_each_rule_reports_its_violation(
    settings: ArmorSettings, tool: str, arguments: dict[str, object], expected: list[str]
) -> None:
    assert _types(tool, arguments, settings) == expected


def test_every_offending_value_is_reported_with_its_location(settings: ArmorSettings) -> None:
    found = check_arguments(
        "shell_x", {"a": {"path": "/etc/x"}, "b": ["https://evil.com"], "cmd": "rm x"}, None, settings
    )
    assert [(v.type, v.detail["argument"]) for v in found] == [
        ("PathOutsideBoundary", "$.a.path"),
        ("DomainNotAllowed", "$.b[0]"),
        ("CommandNotAllowed", "$.cmd"),
    ]
    assert all(v.reason.startswith(str(v.detail["argument"])) for v in found)


def test_schema_uri_property_is_checked_as_a_path(settings: ArmorSettings) -> None:
    schema = {"type": "object", "properties": {"doc": {"type": "string", "format": "uri-reference"}}}
    assert [v.type for v in check_arguments("open", {"doc": "/etc/passwd"}, schema, settings)] == [
        "PathOutsideBoundary"
    ]
    assert check_arguments("open", {"doc": "https://api.github.com/"}, schema, settings) == []


def test_configured_path_keys_are_checked(root: Path) -> None:
    settings = ArmorSettings(allowed_paths=[str(root)], path_keys=["notebook"])
    assert _types("t", {"notebook": "/etc/x"}, settings) == ["PathOutsideBoundary"]


def test_default_settings_check_only_the_network_addresses() -> None:
    settings = ArmorSettings()
    assert _types("t", {"path": "/etc/passwd", "command": "rm -rf /"}, settings) == []
    assert _types("t", {"url": "http://localhost/"}, settings) == ["NetworkNotAllowed"]


def test_fully_open_network_settings_skip_network_checks() -> None:
    settings = ArmorSettings(allow_private_networks=True)
    assert _types("t", {"url": "http://localhost/", "u": "https://a@b.com"}, settings) == []


def test_empty_path_list_refuses_every_path_argument() -> None:
    assert _types("t", {"path": "x"}, ArmorSettings(allowed_paths=[])) == ["PathOutsideBoundary"]


def test_commands_setting_alone_applies_to_every_tool() -> None:
    assert _types("any_tool", {"cmd": "curl x"}, ArmorSettings(commands={"git": []})) == ["CommandNotAllowed"]


def test_model_message_is_generic_for_every_violation(settings: ArmorSettings) -> None:
    found = check_arguments(
        "shell_x", {"path": "/etc/passwd", "url": "https://evil.com", "cmd": "git push"}, None, settings
    )
    assert {v.message for v in found} == {"Blocked by mcpwall policy."}
