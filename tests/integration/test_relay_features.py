"""Every kind of message crosses mcpwall: progress, server-to-client requests (sampling, roots,
elicitation), cancellation, and batches in the protocol versions that allowed them."""

from __future__ import annotations

import json

import anyio
import pytest
from mcp import Client
from mcp_types import (
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequestParams,
    ElicitResult,
    ListRootsResult,
    Root,
    TextContent,
)
from rawpeer import RawPeer

from conftest import Wall, fixture_server

pytestmark = pytest.mark.anyio
MODES = ["legacy", "auto"]


def _text(result: object) -> str:
    return "".join(c.text for c in getattr(result, "content", []) if isinstance(c, TextContent))


@pytest.mark.parametrize("mode", MODES)
async def test_progress_notifications_reach_the_client(wall: Wall, mode: str) -> None:
    seen: list[float] = []

    async def progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append(progress)

    with anyio.fail_after(60):
        async with Client(wall.params(fixture_server("wellbehaved")), mode=mode) as client:
            await client.list_tools()
            result = await client.call_tool("long_task", {"steps": 3}, progress_callback=progress)
    assert _text(result) == "finished 3 steps"
    assert seen == [1, 2, 3]


@pytest.mark.parametrize("mode", MODES)
async def test_sampling_roots_and_elicitation_reach_the_client_and_answers_return(wall: Wall, mode: str) -> None:
    async def sampling(_ctx: object, params: CreateMessageRequestParams) -> CreateMessageResult:
        return CreateMessageResult(role="assistant", content=TextContent(type="text", text="a summary"), model="m")

    async def roots(_ctx: object) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri="file:///workspace")])  # type: ignore[arg-type] # pydantic coerces the URI

    async def elicit(_ctx: object, params: ElicitRequestParams) -> ElicitResult:
        return ElicitResult(action="accept", content={"answer": "blue"})

    client_args = {"sampling_callback": sampling, "list_roots_callback": roots, "elicitation_callback": elicit}
    with anyio.fail_after(60):
        async with Client(wall.params(fixture_server("wellbehaved")), mode=mode, **client_args) as client:  # type: ignore[arg-type] # callbacks as plain async functions
            await client.list_tools()
            summary = await client.call_tool("summarize", {"text": "long text"})
            listed = await client.call_tool("list_client_roots", {})
            answer = await client.call_tool("ask_user", {"question": "colour?"})
    assert _text(summary) == "a summary"
    assert json.loads(_text(listed)) == ["file:///workspace"]
    assert "blue" in _text(answer)


async def test_cancellation_reaches_the_server_and_frees_the_request(wall: Wall) -> None:
    peer = await RawPeer.start(wall.argv(fixture_server("slow")), wall.env(), wall.workdir)
    try:
        await peer.handshake()
        await peer.request("l", "tools/list")
        await peer.send_json(
            {
                "jsonrpc": "2.0",
                "id": 5,
                "method": "tools/call",
                "params": {"name": "sleep", "arguments": {"seconds": 30}},
            }
        )
        await peer.send_json(
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5, "reason": "user"}}
        )
        again = await peer.request(5, "tools/call", {"name": "echo", "arguments": {"text": "reused id"}})
    finally:
        await peer.aclose()
    assert again["result"]["content"][0]["text"] == "reused id"


async def test_batch_in_2025_03_26_has_every_element_checked(wall: Wall) -> None:
    config = wall.write_config({"tools": {"deny": ["delete_note"]}})
    peer = await RawPeer.start(wall.argv(fixture_server("wellbehaved"), config=config), wall.env(), wall.workdir)
    init = {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "old", "version": "1"}}
    try:
        await peer.request("init", "initialize", init)
        await peer.send_json({"jsonrpc": "2.0", "method": "notifications/initialized"})
        await peer.request("l", "tools/list")
        batch = [
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": "echo", "arguments": {"text": "in batch"}},
            },
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": "delete_note", "arguments": {"name": "welcome"}},
            },
        ]
        await peer.send_json(batch)
        replies = {}
        for _ in range(2):
            reply = await peer.recv()
            replies[reply["id"]] = reply
    finally:
        await peer.aclose()
    assert replies[1]["result"]["content"][0]["text"] == "in batch"
    assert replies[2]["error"]["data"]["violation"] == "ToolExplicitlyDenied"
    assert [c["name"] for c in wall.received_calls()] == ["echo"]


async def test_a_call_the_server_never_answers_times_out_and_is_cancelled(wall: Wall) -> None:
    from mcp.shared.exceptions import MCPError

    config = wall.write_config({"wire": {"call_timeout_seconds": 0.5}})
    with anyio.fail_after(60):
        async with Client(wall.params(fixture_server("slow"), config=config), mode="legacy") as client:
            await client.list_tools()
            with pytest.raises(MCPError) as late:
                await client.call_tool("sleep", {"seconds": 30})
            echoed = await client.call_tool("echo", {"text": "still here"})
    assert late.value.error.code == -32053
    assert _text(echoed) == "still here"
    records = [json.loads(line) for line in wall.audit.read_text(encoding="utf-8").splitlines()]
    assert any(r["type"] == "tool_call_failed" and r["status"] == "TIMEOUT" for r in records)
