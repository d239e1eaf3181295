"""Inspection end to end: poisoned and rug-pulled definitions are held back; a human's approval
from another terminal takes effect without restarting anything."""

from __future__ import annotations

import json
import subprocess
import sys

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from conftest import Wall, fixture_server
from mcpwall.audit import verify

pytestmark = pytest.mark.anyio

POISONED = {
    "add_numbers", "search_files", "set_mode", "email_formatter", "sync_notes", "word_count",
    "translate", "format_date", "list_logs", "r\u0435ad_file", "decode_config", "render_markdown",
}  # fmt: skip


def _records(wall: Wall) -> list[dict[str, object]]:
    assert verify(wall.audit).ok
    return [json.loads(line) for line in wall.audit.read_text(encoding="utf-8").splitlines()]


def _cli(wall: Wall, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpwall", *args],
        capture_output=True,
        text=True,
        env=wall.env(),
        timeout=60,
        check=False,
    )


@pytest.mark.requirement("inspect:poisoned-tool-blocked")
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_poisoned_tools_are_hidden_and_refused_clean_tool_works(wall: Wall, mode: str) -> None:
    config = wall.write_config({"inspection": {"block_threshold": "high"}})
    with anyio.fail_after(60):
        async with Client(wall.params(fixture_server("poisoned"), config=config), mode=mode) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            with pytest.raises(MCPError) as refused:
                await client.call_tool("add_numbers", {"a": 1, "b": 2})
            echoed = await client.call_tool("safe_echo", {"text": "fine"})
    assert names == {"safe_echo"}
    assert refused.value.error.data["violation"] == "ToolDefinitionPoisoned"
    assert not echoed.is_error
    assert [c["name"] for c in wall.received_calls()] == ["safe_echo"]
    records = _records(wall)
    seen = {r["tool"] for r in records if r["type"] == "mcp_tool_seen" and r["blocked"]}
    assert seen == POISONED
    assert {r["tool"] for r in records if r["type"] == "mcp_detection" and r["action"] == "block"} == POISONED


@pytest.mark.requirement("inspect:disguised-text-visible")
async def test_ansi_escapes_never_reach_the_client_raw(wall: Wall) -> None:
    config = wall.write_config({"inspection": {"block_threshold": "critical"}})
    params = wall.params(fixture_server("poisoned", "ansi"), config=config)
    with anyio.fail_after(60):
        async with Client(params, mode="legacy") as client:
            tools = (await client.list_tools()).tools
    text = json.dumps([t.model_dump(by_alias=True) for t in tools])
    assert "\x1b" not in text


@pytest.mark.requirement("pin:changed-tool-blocked")
@pytest.mark.requirement("pin:whole-definition")
@pytest.mark.requirement("pin:approval-live")
@pytest.mark.parametrize("change", ["description", "annotation", "schema", "remove-readd"])
async def test_rug_pull_is_held_until_approved_from_the_cli(wall: Wall, change: str) -> None:
    command = fixture_server("rugpull", change, *(["--after", "2"] if change == "remove-readd" else []))
    config = wall.write_config({})
    with anyio.fail_after(90):
        async with Client(wall.params(command, config=config, name="weather"), mode="legacy") as client:
            first = {t.name for t in (await client.list_tools()).tools}
            assert not (await client.call_tool("get_weather", {"city": "Oslo"})).is_error
            for _ in range(3):
                later = {t.name for t in (await client.list_tools()).tools}
            with pytest.raises(MCPError) as held:
                await client.call_tool("get_weather", {"city": "Oslo"})
            shown = _cli(wall, "registry", "show", "weather:get_weather")
            approved = _cli(wall, "approve", "weather:get_weather")
            after = await client.call_tool("get_weather", {"city": "Bergen"})
            relisted = {t.name for t in (await client.list_tools()).tools}
    assert "get_weather" in first
    assert "get_weather" not in later
    assert held.value.error.data["violation"] == "ToolDefinitionChanged"
    assert shown.returncode == 0
    assert approved.returncode == 0, approved.stderr
    assert not after.is_error
    assert "get_weather" in relisted
    cities = [c["arguments"] for c in wall.received_calls() if c.get("name") == "get_weather"]
    assert cities == [{"city": "Oslo"}, {"city": "Bergen"}]
    changed = [r for r in _records(wall) if r["type"] == "mcp_tool_changed"]
    assert changed
    assert changed[0]["field_changes"]


async def test_pins_survive_restart_and_unchanged_tools_stay_quiet(wall: Wall) -> None:
    config = wall.write_config({})
    for _ in range(2):
        with anyio.fail_after(60):
            async with Client(wall.params(fixture_server("wellbehaved"), config=config), mode="auto") as client:
                await client.list_tools()
    statuses = [r["status"] for r in _records(wall) if r["type"] == "mcp_tool_seen" and r["tool"] == "echo"]
    assert statuses == ["new", "unchanged"]


@pytest.mark.requirement("inspect:instructions-prompts-resources")
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_poisoned_instructions_prompts_and_resources_are_withheld(wall: Wall, mode: str) -> None:
    config = wall.write_config({})
    with anyio.fail_after(60):
        async with Client(wall.params(fixture_server("extras", "--poison"), config=config), mode=mode) as client:
            instructions = client.instructions
            prompts = {p.name for p in (await client.list_prompts()).prompts}
            resources = {str(r.uri) for r in (await client.list_resources()).resources}
    assert instructions is None
    assert prompts == {"greet"}
    assert resources == {"notes://clean"}
    detections = {r["tool"] for r in _records(wall) if r["type"] == "mcp_detection" and r["action"] == "block"}
    assert {"instructions", "prompt:summarize_secrets", "resource:exfil-note"} <= detections


@pytest.mark.requirement("pin:changed-tool-blocked")
async def test_changed_instructions_are_withheld_until_approved(wall: Wall) -> None:
    config = wall.write_config({})
    seen = []
    for text, approve in (("Notes server. Be concise.", False), ("Notes server. Be verbose.", True), ("", False)):
        env = {"EXTRAS_INSTRUCTIONS": text or "Notes server. Be verbose."}
        params = wall.params(fixture_server("extras"), config=config, name="notes", **env)
        with anyio.fail_after(60):
            async with Client(params, mode="legacy") as client:
                seen.append(client.instructions)
        if approve:
            assert _cli(wall, "approve", "notes:").returncode == 0
    assert seen == ["Notes server. Be concise.", None, "Notes server. Be verbose."]
