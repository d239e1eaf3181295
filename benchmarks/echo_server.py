"""The fastest stdio MCP server we can write: the upstream for mcpwall's latency benchmarks.

Run: `python benchmarks/echo_server.py`.

No SDK: a readline loop and orjson, with every constant part of a response serialised once.
It answers `initialize` (2024-11-05 .. 2025-11-25), `server/discover` (2026-07-28), `ping`,
`tools/list` (one tool, `echo`) and `tools/call echo`, whose text is the `text` argument
(or, without one, the arguments as JSON). Notifications are read and dropped. A request
whose `_meta` carries `io.modelcontextprotocol/protocolVersion` gets the 2026-07-28 result
fields (`resultType`, and `ttlMs`/`cacheScope` on `tools/list`), so the SDK client works
with it in both `mode="legacy"` and `mode="auto"`. It exits when stdin closes.
"""

from __future__ import annotations

import sys
from typing import Any

import orjson

HANDSHAKE_VERSIONS = frozenset({"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
LATEST_HANDSHAKE = "2025-11-25"
MODERN_KEY = "io.modelcontextprotocol/protocolVersion"
SERVER_INFO = {"name": "bench-echo", "version": "1.0.0"}
CAPABILITIES = {"tools": {"listChanged": False}}

ECHO_TOOL = {
    "name": "echo",
    "description": "Echo the text back.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}
_MODERN_META = {"io.modelcontextprotocol/serverInfo": SERVER_INFO}

_TOOLS = orjson.dumps({"tools": [ECHO_TOOL]})
_TOOLS_MODERN = orjson.dumps(
    {"tools": [ECHO_TOOL], "resultType": "complete", "ttlMs": 0, "cacheScope": "private", "_meta": _MODERN_META}
)
_DISCOVER = orjson.dumps(
    {
        "supportedVersions": ["2026-07-28"],
        "capabilities": CAPABILITIES,
        "resultType": "complete",
        "ttlMs": 0,
        "cacheScope": "private",
        "_meta": _MODERN_META,
    }
)
_EMPTY = b"{}"
_EMPTY_MODERN = b'{"resultType":"complete"}'
_NOT_FOUND = b'{"code":-32601,"message":"Method not found"}'
_PARSE_ERROR = b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n'


def _initialize(params: dict[str, Any]) -> bytes:
    asked = params.get("protocolVersion")
    version = asked if asked in HANDSHAKE_VERSIONS else LATEST_HANDSHAKE
    return orjson.dumps({"protocolVersion": version, "capabilities": CAPABILITIES, "serverInfo": SERVER_INFO})


def _echo(params: dict[str, Any], modern: bool) -> bytes:
    arguments = params.get("arguments") or {}
    text = arguments.get("text")
    result: dict[str, Any] = {
        "content": [{"type": "text", "text": text if isinstance(text, str) else orjson.dumps(arguments).decode()}],
        "isError": False,
    }
    if modern:
        result["resultType"] = "complete"
    return orjson.dumps(result)


def respond(message: dict[str, Any]) -> bytes | None:
    """The response line for one inbound message, or `None` for a notification."""
    request_id = message.get("id")
    method = message.get("method")
    if request_id is None or method is None:
        return None
    params = message.get("params") or {}
    meta = params.get("_meta")
    modern = meta is not None and MODERN_KEY in meta
    key = b"result"
    if method == "tools/call" and params.get("name") == "echo":
        body = _echo(params, modern)
    elif method == "tools/list":
        body = _TOOLS_MODERN if modern else _TOOLS
    elif method == "initialize":
        body = _initialize(params)
    elif method == "server/discover":
        body = _DISCOVER
    elif method == "ping":
        body = _EMPTY_MODERN if modern else _EMPTY
    else:
        key, body = b"error", _NOT_FOUND
    return b'{"jsonrpc":"2.0","id":%b,"%b":%b}\n' % (orjson.dumps(request_id), key, body)


def main() -> None:
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    for line in stdin:
        try:
            message = orjson.loads(line)
        except orjson.JSONDecodeError:
            stdout.write(_PARSE_ERROR)
            stdout.flush()
            continue
        reply = respond(message) if isinstance(message, dict) else None
        if reply is not None:
            stdout.write(reply)
            stdout.flush()


if __name__ == "__main__":
    main()
