"""A raw stdio MCP server for replays: lists whatever tools it is given and accepts any call.

`REPLAY_TOOLS` names a JSON file holding a tools/list result (``{"tools": [...]}``); without it
the server lists nothing. Every tools/call is answered with a short text result, so what a
replay measures is whether mcpwall let the call through.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import orjson


def _tools() -> dict[str, Any]:
    path = os.environ.get("REPLAY_TOOLS")
    return orjson.loads(Path(path).read_bytes()) if path else {"tools": []}


def _answer(message: dict[str, Any], tools: dict[str, Any]) -> dict[str, Any] | None:
    method, request_id = message.get("method"), message.get("id")
    if request_id is None or method is None:
        return None
    if method == "initialize":
        version = message.get("params", {}).get("protocolVersion", "2025-11-25")
        result: Any = {"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": {"name": "replay"}}
    elif method == "tools/list":
        result = tools
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": "replayed"}], "isError": False}
    else:
        return {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": "method not found"}}
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def main() -> None:
    tools = _tools()
    for line in sys.stdin.buffer:
        answer = _answer(orjson.loads(line), tools)
        if answer is not None:
            sys.stdout.buffer.write(orjson.dumps(answer) + b"\n")
            sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
