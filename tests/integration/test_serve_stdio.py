"""``mcpwall serve --stdio``: one gateway, several real upstreams, routed by namespaced names."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import pytest
import yaml
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types import CreateMessageRequestParams, CreateMessageResult, TextContent
from serve_checks import text_of as _text
from serve_checks import unanswered_call_times_out_and_the_session_goes_on

from conftest import ALLOW_EVERYTHING, Wall, fixture_spec, free_port, npm_server, pypi_server, wait_for_port

pytestmark = pytest.mark.anyio


def _command(argv: list[str]) -> dict[str, Any]:
    return {"command": argv[0], "args": argv[1:]}


def _serve(wall: Wall, servers: dict[str, Any], **extra: Any) -> StdioServerParameters:
    config = {"gatekeeper": ALLOW_EVERYTHING, "servers": servers, **extra}
    path = wall.workdir / "serve.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    argv = [sys.executable, "-m", "mcpwall", "serve", "--config", str(path)]
    return StdioServerParameters(command=argv[0], args=argv[1:], env=wall.env(), cwd=str(wall.workdir))


def _records(wall: Wall) -> list[dict[str, Any]]:
    return [json.loads(line) for line in wall.audit.read_text(encoding="utf-8").splitlines()]


@pytest.mark.requirement("routing:unknown-name-not-routed")
async def test_three_real_upstreams_are_listed_and_callable_under_namespaced_names(wall: Wall) -> None:
    servers = {
        "notes": fixture_spec("wellbehaved"),
        "time": _command(pypi_server("mcp-server-time", "--local-timezone", "UTC")),
        "everything": _command(npm_server("mcp-server-everything", "stdio")),
    }
    with anyio.fail_after(90):
        async with Client(_serve(wall, servers), mode="auto") as client:
            names = {t.name for t in (await client.list_tools()).tools}
            echoed = await client.call_tool("notes__echo", {"text": "one"})
            timed = await client.call_tool("time__get_current_time", {"timezone": "UTC"})
            everything = await client.call_tool("everything__echo", {"message": "two"})
            with pytest.raises(MCPError) as missing:
                await client.call_tool("echo", {"text": "no server named"})
    assert {"notes__echo", "time__get_current_time", "everything__echo"} <= names
    assert _text(echoed) == "one"
    assert "UTC" in _text(timed)
    assert "two" in _text(everything)
    assert missing.value.error.data["violation"] == "ToolNotFound"
    assert [c["name"] for c in wall.received_calls()] == ["echo"]
    servers_seen = {r["server"] for r in _records(wall) if r["type"] == "tool_call_completed"}
    assert servers_seen == {"notes", "time", "everything"}


@pytest.mark.requirement("routing:policy-per-real-server")
async def test_policy_applies_per_real_server_behind_the_aggregate(wall: Wall) -> None:
    servers = {
        "notes": {**fixture_spec("wellbehaved"), "tools": {"deny": ["delete_note"]}},
        "other": fixture_spec("wellbehaved"),
    }
    with anyio.fail_after(90):
        async with Client(_serve(wall, servers), mode="legacy") as client:
            names = {t.name for t in (await client.list_tools()).tools}
            allowed = await client.call_tool("other__delete_note", {"name": "welcome"})
    assert "notes__delete_note" not in names
    assert "other__delete_note" in names
    assert not allowed.is_error


async def test_sampling_from_an_upstream_reaches_the_client_with_its_own_ids(wall: Wall) -> None:
    async def sampling(_ctx: object, params: CreateMessageRequestParams) -> CreateMessageResult:
        return CreateMessageResult(role="assistant", content=TextContent(type="text", text="sampled"), model="m")

    with anyio.fail_after(90):
        params = _serve(wall, {"notes": fixture_spec("wellbehaved")})
        async with Client(params, mode="legacy", sampling_callback=sampling) as client:  # type: ignore[arg-type] # plain async callable
            await client.list_tools()
            result = await client.call_tool("notes__summarize", {"text": "long"})
    assert _text(result) == "sampled"


async def test_a_crashed_upstream_answers_at_once_and_restarts_on_next_use(wall: Wall) -> None:
    with anyio.fail_after(90):
        async with Client(_serve(wall, {"crashy": fixture_spec("crashing")}), mode="legacy") as client:
            await client.list_tools()
            with pytest.raises(MCPError):
                await client.call_tool("crashy__crash", {})
            again = await client.call_tool("crashy__echo", {"text": "back"})
    assert _text(again) == "back"
    starts = [r for r in _records(wall) if r["type"] == "server_started" and r["server"] == "crashy"]
    assert len(starts) == 2


async def test_pool_of_two_evicts_the_least_recently_used_of_three(wall: Wall) -> None:
    servers = {name: fixture_spec("wellbehaved") for name in ("a", "b", "c")}
    with anyio.fail_after(120):
        async with Client(_serve(wall, servers, routing={"pool_size": 2}), mode="legacy") as client:
            await client.list_tools()
            for name in ("a", "b", "c", "a"):
                assert _text(await client.call_tool(f"{name}__echo", {"text": name})) == name
    evicted = [r["upstream"] for r in _records(wall) if r["type"] == "upstream_evicted"]
    assert evicted
    assert len(evicted) >= 2


async def test_an_unanswered_call_times_out_and_the_gateway_goes_on(wall: Wall) -> None:
    with anyio.fail_after(90):
        async with Client(
            _serve(wall, {"slow": fixture_spec("slow")}, routing={"call_timeout_seconds": 1}), mode="legacy"
        ) as client:
            await unanswered_call_times_out_and_the_session_goes_on(client, wall.audit)


async def test_list_changed_from_one_upstream_reaches_the_client(wall: Wall) -> None:
    seen: list[str] = []

    async def messages(message: object) -> None:
        root = getattr(message, "root", message)
        method = getattr(root, "method", None)
        if isinstance(method, str):
            seen.append(method)

    servers = {"weather": fixture_spec("rugpull", "description", "--notify"), "notes": fixture_spec("wellbehaved")}
    with anyio.fail_after(90):
        async with Client(_serve(wall, servers), mode="legacy", message_handler=messages) as client:
            await client.list_tools()
            with anyio.fail_after(20):
                while "notifications/tools/list_changed" not in seen:
                    await client.list_tools()
                    await anyio.sleep(0.05)
    assert "notifications/tools/list_changed" in seen


@contextmanager
def _everything_over_http(mode: str) -> Iterator[str]:
    """npm server-everything serving ``streamableHttp`` or ``sse`` on a free port; its URL."""
    port = free_port()
    command = npm_server("mcp-server-everything", mode)
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/"), "PORT": str(port)}
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        yield f"http://127.0.0.1:{port}/" + ("mcp" if mode == "streamableHttp" else "sse")
    finally:
        process.kill()
        process.wait(10)


@pytest.mark.parametrize(("mode", "transport"), [("streamableHttp", "streamable-http"), ("sse", "sse")])
async def test_http_upstreams_streamable_and_legacy_sse_sit_beside_stdio_ones(
    wall: Wall, mode: str, transport: str
) -> None:
    with _everything_over_http(mode) as url:
        servers = {"notes": fixture_spec("wellbehaved"), "remote": {"url": url, "transport": transport}}
        with anyio.fail_after(90):
            async with Client(_serve(wall, servers), mode="legacy") as client:
                names = {t.name for t in (await client.list_tools()).tools}
                remote = await client.call_tool("remote__echo", {"message": "over the wire"})
                local = await client.call_tool("notes__echo", {"text": "local"})
    assert {"remote__echo", "notes__echo"} <= names
    assert "over the wire" in _text(remote)
    assert _text(local) == "local"


async def test_a_hung_upstream_is_stopped_by_the_health_check(wall: Wall) -> None:
    servers = {"deaf": fixture_spec("deaf"), "notes": fixture_spec("wellbehaved")}
    with anyio.fail_after(90):
        async with Client(_serve(wall, servers, routing={"health_interval_seconds": 1}), mode="legacy") as client:
            await client.list_tools()
            with anyio.fail_after(30):
                while not any(r["type"] == "upstream_unhealthy" for r in _records(wall)):  # noqa: ASYNC110 -- polls another process's file
                    await anyio.sleep(0.2)
            echoed = await client.call_tool("notes__echo", {"text": "still serving"})
    assert _text(echoed) == "still serving"
    assert [r["upstream"] for r in _records(wall) if r["type"] == "upstream_unhealthy"] == ["deaf"]


async def test_a_server_that_cannot_start_gets_no_calls_and_backs_off(wall: Wall) -> None:
    broken = {"command": sys.executable, "args": ["-c", "import sys; sys.exit(3)"]}
    with anyio.fail_after(90):
        async with Client(
            _serve(wall, {"broken": broken, "notes": fixture_spec("wellbehaved")}), mode="legacy"
        ) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            echoed = await client.call_tool("notes__echo", {"text": "fine"})
    assert names
    assert all(name.startswith("notes__") for name in names)
    assert _text(echoed) == "fine"
    assert any(r["type"] == "upstream_failed" and r["upstream"] == "broken" for r in _records(wall))


async def test_prompts_and_resources_of_every_upstream_are_listed_and_routed(wall: Wall) -> None:
    servers = {"a": fixture_spec("wellbehaved"), "b": fixture_spec("extras")}
    with anyio.fail_after(90):
        async with Client(_serve(wall, servers), mode="legacy") as client:
            prompts = {p.name for p in (await client.list_prompts()).prompts}
            resources = {str(r.uri) for r in (await client.list_resources()).resources}
            greeting = await client.get_prompt("a__greet", {"name": "Ada"})
            note = await client.read_resource("notes://clean")
    assert {"a__greet", "b__greet"} <= prompts
    assert {"notes://welcome", "notes://clean"} <= resources
    assert "Ada" in str(greeting.messages[0].content)
    assert "clean" in str(note.contents[0])


@pytest.mark.requirement("gate:danger-zone-lock")
async def test_one_session_risk_budget_spans_every_server_behind_the_aggregate(wall: Wall) -> None:
    gatekeeper = {
        "overrides": [{"match": "*/run_command", "level": "AUTO_APPROVE", "rationale": "fixture records only"}],
        "danger_zone": {"budget": 6},
    }
    servers = {"a": fixture_spec("wellbehaved"), "b": fixture_spec("wellbehaved")}
    with anyio.fail_after(90):
        async with Client(_serve(wall, servers, gatekeeper=gatekeeper), mode="legacy") as client:
            await client.list_tools()
            await client.call_tool("a__run_command", {"command": "ls"})
            await client.call_tool("b__run_command", {"command": "ls"})
            with pytest.raises(MCPError) as locked:
                await client.call_tool("a__run_command", {"command": "ls"})
    assert locked.value.error.data["violation"] == "SessionLocked"
