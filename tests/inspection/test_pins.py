"""Pinning primitives: canonical bytes, whole-definition hashes, field diffs, server identities."""

from __future__ import annotations

from typing import Any

import pytest

from mcpwall.inspection import canonical_json, definition_hash, diff_definitions, instructions_hash, server_identity

TOOL: dict[str, Any] = {
    "name": "read",
    "description": "Reads a file.",
    "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
    "annotations": {"destructiveHint": False},
}


def test_canonical_json_sorts_nested_keys_compactly_and_keeps_utf8() -> None:
    assert canonical_json({"b": {"z": 1, "a": "é"}, "a": [{"y": 2, "x": 1}]}) == (
        '{"a":[{"x":1,"y":2}],"b":{"a":"é","z":1}}'.encode()
    )


def test_definition_hash_ignores_key_order_and_unpinned_keys() -> None:
    reordered = dict(reversed(list(TOOL.items())))
    assert definition_hash(reordered | {"_meta": {"x": 1}}) == definition_hash(TOOL)


@pytest.mark.parametrize(
    "change",
    [
        {"description": "Reads a file. Also sends it away."},
        {"inputSchema": {"type": "object", "properties": {"path": {"type": "string"}, "note": {}}}},
        {"annotations": {"destructiveHint": True}},
        {"title": "Read"},
        {"outputSchema": {"type": "object"}},
        {"name": "read2"},
    ],
)
def test_definition_hash_changes_when_any_model_visible_part_changes(change: dict[str, Any]) -> None:
    assert definition_hash(TOOL | change) != definition_hash(TOOL)


def test_instructions_hash_is_sha256_of_utf8_text() -> None:
    assert instructions_hash(None) == instructions_hash("")
    assert instructions_hash("é") != instructions_hash("e")
    assert len(instructions_hash("x")) == 64


def test_diff_reports_added_removed_and_changed_fields_by_path() -> None:
    new = TOOL | {
        "inputSchema": {"type": "object", "properties": {"path": {"type": "integer"}, "exfil": {"type": "string"}}},
        "annotations": {},
        "title": "Read",
    }
    changes = {(c.path, c.kind, repr(c.before), repr(c.after)) for c in diff_definitions(TOOL, new)}
    assert changes == {
        ("annotations.destructiveHint", "removed", "False", "None"),
        ("inputSchema.properties.exfil", "added", "None", "{'type': 'string'}"),
        ("inputSchema.properties.path.type", "changed", "'string'", "'integer'"),
        ("title", "added", "None", "'Read'"),
    }


def test_diff_of_identical_definitions_is_empty() -> None:
    assert diff_definitions(TOOL, dict(TOOL)) == []


@pytest.mark.parametrize(
    ("command", "name", "identity"),
    [
        (["npx", "@scope/server-x", "--port", "1"], None, "server-x"),
        (["npx", "-y", "pkg@1.2"], None, "pkg"),
        (["npx", "-y", "@modelcontextprotocol/server-filesystem@2025.1.0", "/tmp"], None, "server-filesystem"),
        (["python", "-m", "mcp_server_y"], None, "mcp_server_y"),
        (["python3.12", "-m", "mcp_server_y", "--flag"], None, "mcp_server_y"),
        (["uvx", "mcp-server-z"], None, "mcp-server-z"),
        (["/opt/servers/weather-server"], None, "weather-server"),
        (["node", "/srv/app/build/main.js"], None, "main"),
        (["docker", "run", "-i", "--rm", "-e", "T=1", "ghcr.io/acme/tool-server:1.0"], None, "tool-server"),
        (["npx", "@scope/server-x"], "my-name", "my-name"),
    ],
)
def test_server_identity_is_the_config_name_or_derived_from_the_command(
    command: list[str], name: str | None, identity: str
) -> None:
    assert server_identity(command, name) == identity


def test_server_identity_falls_back_to_a_short_hash_of_the_command() -> None:
    first = server_identity(["weird"], None)
    assert first.startswith("cmd-")
    assert first == server_identity(["weird"], None)
    assert first != server_identity(["weird", "x"], None)
