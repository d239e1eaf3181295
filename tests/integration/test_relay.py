"""End to end: the SDK client through ``mcpwall run`` to real servers, in both protocol eras."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import TextContent

from conftest import Wall, fixture_server, npm_server, pypi_server
from mcpwall.audit import verify

pytestmark = pytest.mark.anyio

MODES = ["legacy", "auto"]
Command = Callable[[Path], list[str]]


def _git_repo(tmp: Path) -> Path:
    import subprocess

    repo = tmp / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return repo


SERVERS: dict[str, tuple[Command, str, dict[str, object]]] = {
    "fixture": (lambda _t: fixture_server("wellbehaved"), "echo", {"text": "hello"}),
    "mcp-server-time": (
        lambda _t: pypi_server("mcp-server-time", "--local-timezone", "UTC"),
        "get_current_time",
        {"timezone": "Europe/London"},
    ),
    "mcp-server-git": (
        lambda t: pypi_server("mcp-server-git", "--repository", str(_git_repo(t))),
        "git_status",
        {"repo_path": "REPO"},
    ),
    "server-everything": (lambda _t: npm_server("mcp-server-everything", "stdio"), "echo", {"message": "hello"}),
    "server-filesystem": (lambda t: npm_server("mcp-server-filesystem", str(t)), "list_allowed_directories", {}),
}


def _text(result: object) -> str:
    content = getattr(result, "content", [])
    return "".join(c.text for c in content if isinstance(c, TextContent))


def assert_audit_intact(wall: Wall) -> list[dict[str, object]]:
    """The audit chain verifies; return its records."""
    report = verify(wall.audit)
    assert report.ok, report.problems
    assert report.records > 0
    return [json.loads(line) for line in wall.audit.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("server", list(SERVERS))
async def test_real_server_lists_and_calls_through_mcpwall(wall: Wall, tmp_path: Path, server: str, mode: str) -> None:
    make, tool, arguments = SERVERS[server]
    command = make(tmp_path)
    if arguments.get("repo_path") == "REPO":
        arguments = {"repo_path": command[-1]}
    with anyio.fail_after(60):
        async with Client(wall.params(command), mode=mode) as client:
            listed = await client.list_tools()
            assert tool in {t.name for t in listed.tools}
            result = await client.call_tool(tool, arguments)
    assert not result.is_error, _text(result)
    records = assert_audit_intact(wall)
    completed = [r for r in records if r["type"] == "tool_call_completed"]
    assert [r["tool"] for r in completed] == [tool]
    started = [r for r in records if r["type"] == "session_started"]
    assert started[0]["era"] == ("handshake" if mode == "legacy" else "stateless") or mode == "auto"


@pytest.mark.requirement("tools:denied-hidden-and-refused")
@pytest.mark.requirement("model:generic-denial-message")
@pytest.mark.parametrize("mode", MODES)
async def test_denied_tool_is_hidden_and_refused_without_reaching_server(wall: Wall, mode: str) -> None:
    config = wall.write_config({"tools": {"deny": ["delete_*", "run_command"]}})
    with anyio.fail_after(30):
        async with Client(wall.params(fixture_server("wellbehaved"), config=config), mode=mode) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert "echo" in names
            assert not names & {"delete_note", "run_command"}
            with pytest.raises(MCPError) as denied:
                await client.call_tool("delete_note", {"name": "welcome"})
            assert (await client.call_tool("echo", {"text": "still works"})).is_error is False
    assert denied.value.error.code == -32050
    assert denied.value.error.message == "Blocked by mcpwall policy."
    assert denied.value.error.data == {"violation": "ToolExplicitlyDenied", "tool": "delete_note"}
    assert [c["name"] for c in wall.received_calls()] == ["echo"]
    records = assert_audit_intact(wall)
    denial = next(r for r in records if r["type"] == "tool_call_denied")
    assert denial["rule"] == "tools.deny"
    assert denial["status"] == "PERMISSION_DENIED"


@pytest.mark.parametrize("mode", MODES)
async def test_allow_list_refuses_unlisted_tool(wall: Wall, mode: str) -> None:
    config = wall.write_config({"tools": {"allow": ["echo", "get_*"]}})
    with anyio.fail_after(30):
        async with Client(wall.params(fixture_server("wellbehaved"), config=config), mode=mode) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            with pytest.raises(MCPError) as denied:
                await client.call_tool("add", {"a": 1, "b": 2})
    assert names == {"echo", "get_weather"}
    assert denied.value.error.data["violation"] == "ToolNotAllowed"
    assert wall.received_calls() == []


@pytest.mark.requirement("lifecycle:server-crash-answers-pending")
@pytest.mark.parametrize("mode", MODES)
async def test_server_crash_mid_call_answers_the_call_at_once(wall: Wall, mode: str) -> None:
    with anyio.fail_after(30):
        async with Client(wall.params(fixture_server("crashing")), mode=mode) as client:
            await client.list_tools()  # as clients do: calls are routed to listed tools
            assert _text(await client.call_tool("echo", {"text": "before"})) == "before"
            with pytest.raises(MCPError) as failed:
                await client.call_tool("crash", {})
    assert failed.value.error.code in (-32052, -32000)
    records = assert_audit_intact(wall)
    exited = next(r for r in records if r["type"] == "server_exited")
    assert exited["exit_code"] == 3
    assert any(r["type"] == "tool_call_failed" and r["tool"] == "crash" for r in records)


@pytest.mark.requirement("env:minimal-server-environment")
@pytest.mark.parametrize("mode", MODES)
async def test_server_environment_is_minimal(wall: Wall, mode: str) -> None:
    config = wall.write_config({"environment": {"env": {"GREETING": "hi"}}})
    params = wall.params(npm_server("mcp-server-everything", "stdio"), config=config, SECRET_TOKEN="s3cret")
    with anyio.fail_after(30):
        async with Client(params, mode=mode) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            tool = "get-env" if "get-env" in names else "printEnv"
            shown = _text(await client.call_tool(tool, {}))
    assert "s3cret" not in shown
    assert "SECRET_TOKEN" not in shown
    assert "GREETING" in shown
    assert "MCPWALL_STATE_DIR" not in shown


@pytest.mark.requirement("env:minimal-server-environment")
async def test_credential_reference_reaches_only_the_server_and_an_echo_is_redacted(wall: Wall) -> None:
    config = wall.write_config({"environment": {"env": {"API_TOKEN": "env:SOURCE_OF_TOKEN"}}})
    token = "tok-7f3a9c2e5b1d4f6a"
    params = wall.params(npm_server("mcp-server-everything", "stdio"), config=config, SOURCE_OF_TOKEN=token)
    with anyio.fail_after(30):
        async with Client(params, mode="legacy") as client:
            names = {t.name for t in (await client.list_tools()).tools}
            shown = _text(await client.call_tool("get-env" if "get-env" in names else "printEnv", {}))
    assert "API_TOKEN" in shown
    assert token not in shown
    assert "[mcpwall:redacted]" in shown
    assert token not in wall.audit.read_text(encoding="utf-8")
