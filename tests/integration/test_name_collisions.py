"""Name collisions: two ``mcpwall run`` gateways in front of two servers that both offer a tool
named ``echo`` (the well-behaved and the slow fixture). The shared registry tells the later
one; by default it records the collision, with ``on_name_collision: block`` it hides and refuses
its own ``echo`` while the earlier server keeps working."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from conftest import Wall, fixture_server
from mcpwall.audit import verify

pytestmark = pytest.mark.anyio


def _records(wall: Wall) -> list[dict[str, object]]:
    assert verify(wall.audit).ok
    return [json.loads(line) for line in wall.audit.read_text(encoding="utf-8").splitlines()]


async def _tools_of(wall: Wall, server: str, name: str, config: Path) -> set[str]:
    async with Client(wall.params(fixture_server(server), config=config, name=name), mode="legacy") as client:
        return {t.name for t in (await client.list_tools()).tools}


@pytest.mark.requirement("inspect:name-collision-recorded")
async def test_a_tool_name_an_earlier_server_lists_is_recorded(wall: Wall) -> None:
    config = wall.write_config({})
    with anyio.fail_after(60):
        first = await _tools_of(wall, "wellbehaved", "notes", config)
        second = await _tools_of(wall, "slow", "sleeper", config)
        again = await _tools_of(wall, "wellbehaved", "notes", config)
    assert "echo" in first & second & again
    collisions = [r for r in _records(wall) if r["type"] == "tool_name_collision"]
    assert [(r["server"], r["tool"], r["other_servers"], r["action"]) for r in collisions] == [
        ("sleeper", "echo", ["notes"], "alert")
    ]


@pytest.mark.requirement("inspect:name-collision-recorded")
async def test_with_block_the_later_servers_tool_is_hidden_and_refused(wall: Wall) -> None:
    config = wall.write_config({"inspection": {"on_name_collision": "block"}})
    with anyio.fail_after(60):
        first = await _tools_of(wall, "wellbehaved", "notes", config)
        params = wall.params(fixture_server("slow"), config=config, name="sleeper")
        async with Client(params, mode="legacy") as client:
            second = {t.name for t in (await client.list_tools()).tools}
            with pytest.raises(MCPError) as refused:
                await client.call_tool("echo", {"text": "which one?"})
            slept = await client.call_tool("sleep", {"seconds": 0})
    assert "echo" in first
    assert "echo" not in second
    assert "sleep" in second
    assert refused.value.error.data["violation"] == "ToolNameCollision"
    assert not slept.is_error
    received = [c.get("name", c.get("tool")) for c in wall.received_calls()]
    assert "sleep" in received
    assert "echo" not in received


@pytest.mark.requirement("inspect:lookalike-name-blocked")
@pytest.mark.parametrize(
    ("impostor", "imitated"),
    [("read_n0te", "read_note"), ("deIete_note", "delete_note"), ("r\u0435ad_note", "read_note")],
)
async def test_a_name_that_only_looks_like_an_earlier_servers_is_hidden_and_refused(
    wall: Wall, impostor: str, imitated: str
) -> None:
    config = wall.write_config({})
    with anyio.fail_after(60):
        first = await _tools_of(wall, "wellbehaved", "notes", config)
        params = wall.params(fixture_server("impostor", impostor, "lookup_note"), config=config, name="mimic")
        async with Client(params, mode="legacy") as client:
            second = {t.name for t in (await client.list_tools()).tools}
            with pytest.raises(MCPError) as refused:
                await client.call_tool(impostor, {"name": "welcome"})
            honest = await client.call_tool("lookup_note", {"name": "welcome"})
    assert imitated in first
    assert second == {"lookup_note"}
    assert refused.value.error.data["violation"] == "ToolNameLookalike"
    assert not honest.is_error
    assert [c.get("name", c.get("tool")) for c in wall.received_calls()] == ["lookup_note"]
    lookalikes = [r for r in _records(wall) if r["type"] == "tool_name_lookalike"]
    assert [(r["server"], r["tool"], r["imitates"], r["other_servers"], r["action"]) for r in lookalikes] == [
        ("mimic", impostor, [imitated], ["notes"], "block")
    ]


@pytest.mark.requirement("inspect:lookalike-name-blocked")
async def test_a_lookalike_name_is_only_recorded_with_alert_and_a_case_variant_is_no_lookalike(wall: Wall) -> None:
    config = wall.write_config({"inspection": {"on_lookalike_name": "alert"}})
    with anyio.fail_after(60):
        await _tools_of(wall, "wellbehaved", "notes", config)
        params = wall.params(fixture_server("impostor", "read_n0te", "Read-Note"), config=config, name="mimic")
        async with Client(params, mode="legacy") as client:
            second = {t.name for t in (await client.list_tools()).tools}
            called = await client.call_tool("read_n0te", {"name": "welcome"})
    assert second == {"read_n0te", "Read-Note"}
    assert not called.is_error
    lookalikes = [r for r in _records(wall) if r["type"] == "tool_name_lookalike"]
    assert [(r["tool"], r["imitates"], r["action"]) for r in lookalikes] == [("read_n0te", ["read_note"], "alert")]


@pytest.mark.requirement("inspect:lookalike-name-blocked")
async def test_the_copy_is_the_name_with_stand_in_letters_whichever_server_listed_first(wall: Wall) -> None:
    config = wall.write_config({})
    impostor = fixture_server("impostor", "read_n0te", "lookup_note")
    with anyio.fail_after(90):
        async with Client(wall.params(impostor, config=config, name="mimic"), mode="legacy") as client:
            before = {t.name for t in (await client.list_tools()).tools}
        honest = await _tools_of(wall, "wellbehaved", "notes", config)
        async with Client(wall.params(impostor, config=config, name="mimic"), mode="legacy") as client:
            after = {t.name for t in (await client.list_tools()).tools}
    assert before == {"read_n0te", "lookup_note"}  # nothing to imitate yet
    assert "read_note" in honest
    assert after == {"lookup_note"}
    lookalikes = [r for r in _records(wall) if r["type"] == "tool_name_lookalike"]
    assert [(r["server"], r["tool"], r["imitates"], r["action"]) for r in lookalikes] == [
        ("mimic", "read_n0te", ["read_note"], "block")
    ]
