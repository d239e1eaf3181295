"""Scan targets: the stdio servers of a mcpwall config or of an MCP client's config file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcpwall.config.loader import parse_config
from mcpwall.errors import ConfigError
from mcpwall.inspection.scan_targets import ScanTarget, plan_from_client_config, plan_from_config


def client_file(tmp_path: Path, document: Any) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_claude_desktop_entries_become_targets_with_their_env(tmp_path: Path) -> None:
    document = {"mcpServers": {"git": {"command": "uvx", "args": ["mcp-server-git"], "env": {"TOKEN": "env:GH"}}}}

    plan = plan_from_client_config(client_file(tmp_path, document))

    assert plan.targets == [ScanTarget("git", "uvx", ["mcp-server-git"], {"TOKEN": "env:GH"})]
    assert plan.notes == []


def test_vscode_servers_are_read_and_non_stdio_entries_are_skipped_with_a_note(tmp_path: Path) -> None:
    document = {
        "servers": {
            "time": {"type": "stdio", "command": "mcp-server-time"},
            "remote": {"type": "http", "url": "https://example.com/mcp"},
            "legacy-sse": {"url": "https://example.com/sse"},
        }
    }

    plan = plan_from_client_config(client_file(tmp_path, document))

    assert [t.name for t in plan.targets] == ["time"]
    assert plan.notes == [
        "remote: http server (not stdio), skipped",
        "legacy-sse: url server (not stdio), skipped",
    ]


@pytest.mark.parametrize(
    ("entry", "note"),
    [
        ({"args": ["x"]}, "bad: no command, skipped"),
        ({"command": "x", "args": "x"}, "bad: args must be a list of strings, skipped"),
        ({"command": "x", "env": {"A": 1}}, "bad: env must map names to strings, skipped"),
        ("npx x", "bad: not an object, skipped"),
    ],
)
def test_malformed_entries_are_skipped_with_a_note(tmp_path: Path, entry: object, note: str) -> None:
    plan = plan_from_client_config(client_file(tmp_path, {"mcpServers": {"bad": entry}}))

    assert (plan.targets, plan.notes) == ([], [note])


@pytest.mark.parametrize("document", [{"other": {}}, [1, 2], "text"])
def test_a_file_of_neither_shape_is_a_config_error(tmp_path: Path, document: object) -> None:
    with pytest.raises(ConfigError, match="mcpServers"):
        plan_from_client_config(client_file(tmp_path, document))


def test_an_unreadable_client_config_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        plan_from_client_config(tmp_path / "missing.json")


def test_mcpwall_config_servers_take_their_own_or_the_top_level_environment() -> None:
    config = parse_config(
        """
environment: {allowed_env: [A], env: {B: b}}
servers:
  one: {command: python, args: [-m, x], cwd: /tmp}
  two: {command: node, environment: {env: {C: c}}}
  remote: {}
"""
    )

    plan = plan_from_config(config)

    assert plan.targets == [
        ScanTarget("one", "python", ["-m", "x"], {"B": "b"}, ["A"], "/tmp"),
        ScanTarget("two", "node", [], {"C": "c"}, [], None),
    ]
    assert plan.notes == ["remote: no command (not a stdio server), skipped"]
