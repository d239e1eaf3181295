"""A crashing MCP server: its process dies in the middle of a tool call.

Run: `python tests/servers/crashing.py` (stdio, both protocol eras).

Tools:
    crash()       exits the process with status 3 (`os._exit`, no cleanup, no response)
    echo(text)    works normally, until something calls `crash`

Environment: `FIXTURE_LOG` (see `_fixture_log.py`) records every `tools/call` received; the
`crash` call is recorded before the process dies.
"""

from __future__ import annotations

import os
import sys

from _fixture_log import RecordCalls
from mcp.server.mcpserver import MCPServer

CRASH_EXIT_STATUS = 3

app = MCPServer("fixture-crashing", version="1.0.0", middleware=[RecordCalls()], log_level="WARNING")


@app.tool(description="Crash the server process in the middle of the call.")
def crash() -> str:
    sys.stderr.write("fixture-crashing: crashing on purpose\n")
    sys.stderr.flush()
    os._exit(CRASH_EXIT_STATUS)


@app.tool(description="Echo the text back unchanged.")
def echo(text: str) -> str:
    return text


if __name__ == "__main__":
    app.run()
