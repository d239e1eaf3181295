"""A slow MCP server: for timeouts, cancellation and concurrency tests.

Run: `python tests/servers/slow.py` (stdio, both protocol eras).

Tools:
    sleep(seconds)   waits, then returns "slept N s"; reports progress once a second
                     when the caller asked for progress
    echo(text)       answers at once, to show the server still serves other calls

Environment: `FIXTURE_LOG` (see `_fixture_log.py`) records every `tools/call` received, and
this server adds `{"event": "cancelled", "tool": "sleep", "request_id": …}` when a `sleep`
is cancelled before it finishes and `{"event": "finished", …}` when it completes, so a test
can prove a cancellation reached the upstream.
"""

from __future__ import annotations

import math

import anyio
from _fixture_log import RecordCalls, record
from mcp.server.mcpserver import Context, MCPServer

app = MCPServer("fixture-slow", version="1.0.0", middleware=[RecordCalls()], log_level="WARNING")


@app.tool(description="Sleep for the given number of seconds, then answer.")
async def sleep(seconds: float, ctx: Context) -> str:
    try:
        whole = math.floor(seconds)
        for second in range(whole):
            await anyio.sleep(1)
            await ctx.report_progress(second + 1, seconds)
        await anyio.sleep(seconds - whole)
    except anyio.get_cancelled_exc_class():
        record({"event": "cancelled", "tool": "sleep", "request_id": ctx.request_id})
        raise
    record({"event": "finished", "tool": "sleep", "request_id": ctx.request_id})
    return f"slept {seconds} s"


@app.tool(description="Echo the text back unchanged.")
def echo(text: str) -> str:
    return text


if __name__ == "__main__":
    app.run()
