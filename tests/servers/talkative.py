"""A talkative MCP server: answers as long as it is asked to, for line-limit tests.

Run: `python tests/servers/talkative.py` (stdio, both protocol eras).

Tools:
    repeat(text, times)     answers with ``text`` repeated ``times`` times (one long line on
                            the wire when ``times`` is large)

Environment: `FIXTURE_LOG` (see `_fixture_log.py`) records every `tools/call` received.
"""

from __future__ import annotations

from _fixture_log import RecordCalls
from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations

app = MCPServer("fixture-talkative", version="1.0.0", middleware=[RecordCalls()], log_level="WARNING")


@app.tool(description="Repeat the text the given number of times.", annotations=ToolAnnotations(read_only_hint=True))
def repeat(text: str, times: int) -> str:
    return text * times


if __name__ == "__main__":
    app.run()
