"""A minimal Streamable HTTP MCP server (JSON responses only) for the HTTP benchmark.

Run: `python benchmarks/echo_http_server.py PORT`. Answers initialize (with an Mcp-Session-Id),
tools/list (one `echo` tool), tools/call echo and ping; notifications get 202.
"""

from __future__ import annotations

import sys
import uuid
from typing import Any

import orjson
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

TOOLS = [
    {
        "name": "echo",
        "description": "Echo the text back.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
    }
]


def _result(method: str, params: dict[str, Any]) -> dict[str, Any] | None:
    if method == "initialize":
        return {
            "protocolVersion": params.get("protocolVersion", "2025-11-25"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "echo-http", "version": "1"},
        }
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        return {
            "content": [{"type": "text", "text": str(params.get("arguments", {}).get("text", ""))}],
            "isError": False,
        }
    if method == "ping":
        return {}
    return None


async def mcp(request: Request) -> Response:
    if request.method != "POST":
        return Response(status_code=405)
    message = orjson.loads(await request.body())
    if "id" not in message:
        return Response(status_code=202)
    result = _result(message.get("method", ""), message.get("params") or {})
    body = {"jsonrpc": "2.0", "id": message["id"]}
    body.update({"result": result} if result is not None else {"error": {"code": -32601, "message": "not found"}})
    headers = {"mcp-session-id": uuid.uuid4().hex} if message.get("method") == "initialize" else {}
    return Response(orjson.dumps(body), media_type="application/json", headers=headers)


app = Starlette(routes=[Route("/mcp", mcp, methods=["POST", "GET", "DELETE"])])

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
