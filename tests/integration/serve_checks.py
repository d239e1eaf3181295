"""Checks shared by the stdio and the HTTP front of ``mcpwall serve``: the same behaviour,
whichever front the SDK client came through."""

from __future__ import annotations

from pathlib import Path

import anyio
import orjson
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import TextContent


def text_of(result: object) -> str:
    """The text content of a tool result."""
    return "".join(c.text for c in getattr(result, "content", []) if isinstance(c, TextContent))


async def unanswered_call_times_out_and_the_session_goes_on(client: Client, audit: Path) -> None:
    """Against the ``slow`` fixture (as server ``slow``) with a 1 s call timeout: the call that
    sleeps 30 s gets -32053 and TIMEOUT in the audit; the next call is answered."""
    await client.list_tools()
    with pytest.raises(MCPError) as late:
        await client.call_tool("slow__sleep", {"seconds": 30})
    echoed = await client.call_tool("slow__echo", {"text": "on"})
    assert late.value.error.code == -32053
    assert text_of(echoed) == "on"
    records = [orjson.loads(line) for line in (await anyio.Path(audit).read_bytes()).splitlines() if line.strip()]
    assert any(r["type"] == "tool_call_failed" and r.get("status") == "TIMEOUT" for r in records)
