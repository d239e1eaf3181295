"""Armor end to end: real servers behind mcpwall, argument policy enforced before they see a call."""

from __future__ import annotations

import os
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import TextContent

from conftest import Wall, fixture_server, npm_server, pypi_server
from mcpwall.audit import verify

pytestmark = pytest.mark.anyio


@pytest.fixture
def confined(tmp_path: Path) -> dict[str, Path]:
    root = tmp_path / "data"
    secret = tmp_path / "data-secret"
    outside = tmp_path / "outside"
    for folder in (root, secret, outside):
        folder.mkdir()
    (root / "ok.txt").write_text("inside", encoding="utf-8")
    (secret / "key.txt").write_text("sibling secret", encoding="utf-8")
    (outside / "passwd").write_text("outside secret", encoding="utf-8")
    os.symlink(outside / "passwd", root / "link-to-outside")
    os.symlink(outside, root / "dir-link")
    return {"root": root, "secret": secret, "outside": outside}


BYPASSES = [
    ("read_text_file", {"path": "{root}/../outside/passwd"}, "PathTraversalAttempt"),
    ("read_text_file", {"path": "{root}/%2e%2e/outside/passwd"}, "PathTraversalAttempt"),
    ("read_text_file", {"path": "{root}\\..\\outside\\passwd"}, "PathTraversalAttempt"),
    ("read_text_file", {"path": "{root}/link-to-outside"}, "PathOutsideBoundary"),
    ("write_file", {"path": "{root}/dir-link/new.txt", "content": "x"}, "PathOutsideBoundary"),
    ("read_text_file", {"path": "{secret}/key.txt"}, "PathOutsideBoundary"),
    ("read_text_file", {"path": "file://{outside}/passwd"}, "PathOutsideBoundary"),
    ("read_multiple_files", {"paths": ["{root}/ok.txt", "{outside}/passwd"]}, "PathOutsideBoundary"),
    ("move_file", {"source": "{root}/ok.txt", "destination": "{outside}/stolen.txt"}, "PathOutsideBoundary"),
]


def _fill(value: object, places: dict[str, Path]) -> object:
    if isinstance(value, str):
        return value.format(**{k: str(v) for k, v in places.items()})
    if isinstance(value, list):
        return [_fill(v, places) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, places) for k, v in value.items()}
    return value


@pytest.mark.requirement("armor:path-confinement")
async def test_filesystem_server_is_confined_to_its_root(wall: Wall, confined: dict[str, Path]) -> None:
    config = wall.write_config({"armor": {"allowed_paths": [str(confined["root"])]}})
    command = npm_server("mcp-server-filesystem", str(confined["root"].parent))
    refused: dict[str, str] = {}
    with anyio.fail_after(60):
        async with Client(wall.params(command, config=config), mode="legacy") as client:
            await client.list_tools()  # as clients do: calls are routed to listed tools
            ok = await client.call_tool("read_text_file", {"path": str(confined["root"] / "ok.txt")})
            for tool, arguments, _ in BYPASSES:
                filled = _fill(arguments, confined)
                try:
                    await client.call_tool(tool, filled)  # type: ignore[arg-type] # built from dicts above
                except MCPError as exc:
                    refused[str(filled)] = exc.error.data["violation"]
    assert isinstance(ok.content[0], TextContent)
    assert ok.content[0].text == "inside"
    assert refused == {str(_fill(a, confined)): v for _, a, v in BYPASSES}
    assert not (confined["outside"] / "stolen.txt").exists()
    assert (confined["root"] / "ok.txt").exists()
    assert verify(wall.audit).ok


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://docs.python.org/3/", True),
        ("https://evil.example.com/collect", False),
        ("https://docs.python.org@evil.example.com/", False),
        ("https://docs.python.org.evil.example.com/", False),
        ("http://169.254.169.254/latest/meta-data/", False),
        ("http://2130706433/", False),
        ("http://[::ffff:127.0.0.1]/", False),
    ],
)
@pytest.mark.requirement("armor:network-allowlist")
async def test_fetch_server_only_reaches_allowed_domains(wall: Wall, url: str, allowed: bool) -> None:
    config = wall.write_config({"armor": {"allowed_domains": ["docs.python.org", "*.python.org"]}})
    with anyio.fail_after(60):
        async with Client(wall.params(pypi_server("mcp-server-fetch"), config=config), mode="legacy") as client:
            await client.list_tools()  # as clients do: calls are routed to listed tools
            try:
                await client.call_tool("fetch", {"url": url, "max_length": 100})
                outcome = "reached server"
            except MCPError as exc:
                outcome = exc.error.data.get("violation", "") if isinstance(exc.error.data, dict) else ""
    calls = [line for line in wall.audit.read_text(encoding="utf-8").splitlines() if '"tool_call_allowed"' in line]
    assert (outcome == "reached server") is allowed
    assert bool(calls) is allowed


@pytest.mark.requirement("armor:rate-limit")
async def test_rate_limit_refuses_calls_over_the_window(wall: Wall) -> None:
    config = wall.write_config({"armor": {"rate_limits": {"per_tool": {"ech*": "3/minute"}}}})
    outcomes = []
    with anyio.fail_after(30):
        async with Client(wall.params(fixture_server("wellbehaved"), config=config), mode="auto") as client:
            await client.list_tools()  # as clients do: calls are routed to listed tools
            for i in range(5):
                try:
                    await client.call_tool("echo", {"text": str(i)})
                    outcomes.append("ok")
                except MCPError as exc:
                    outcomes.append(exc.error.data["violation"])
            await client.call_tool("add", {"a": 1, "b": 2})
    assert outcomes == ["ok", "ok", "ok", "RateLimitExceeded", "RateLimitExceeded"]
    assert [c["name"] for c in wall.received_calls()] == ["echo", "echo", "echo", "add"]


@pytest.mark.requirement("armor:output-cap")
@pytest.mark.parametrize("mode", ["truncate", "refuse"])
async def test_oversized_result_is_truncated_or_refused(wall: Wall, mode: str) -> None:
    config = wall.write_config({"armor": {"max_result_bytes": 4096, "on_oversize": mode}})
    with anyio.fail_after(30):
        async with Client(wall.params(fixture_server("wellbehaved"), config=config), mode="legacy") as client:
            await client.list_tools()  # as clients do: calls are routed to listed tools
            result = await client.call_tool("echo", {"text": "é" * 20000})
    text = result.content[0].text if isinstance(result.content[0], TextContent) else ""
    if mode == "truncate":
        assert text.endswith("... [truncated]")
        assert len(text.encode()) < 4096
        assert result.structured_content is None  # cut JSON would not validate: dropped, and flagged
    else:
        assert result.is_error
        assert "é" not in text
