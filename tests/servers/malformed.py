"""A malformed MCP server: correct until asked to break the wire, then correct again.

Run: `python tests/servers/malformed.py` (stdio, both protocol eras).

A plain stdin/stdout loop, deliberately not the SDK, so it can write bytes no SDK would. It
answers `initialize`, `server/discover`, `ping` and `tools/list` correctly and ignores
notifications. Tools:

    echo(text)                  answers normally
    misbehave(kind)             writes one faulty message, then the correct response to the call

`kind` (the faulty message written first):

    invalid-json    a truncated JSON object
    invalid-utf8    a notification whose string holds the bytes FF FE (not UTF-8)
    huge-line       a 20 MiB notification on one line (`size_mib` overrides the size)
    unknown-id      a response to id 987654, which nobody asked for
    batch           a JSON array holding two notifications
    noise           a plain-text line ("server starting...") on stdout
    duplicate-key   no separate fault: the response itself carries "content" twice, "first" then
                    "second" (parsers that keep the first key and those that keep the last disagree)
    silence         no response at all (the call never completes)

Environment: `FIXTURE_LOG` names a file that receives one JSON line per `tools/call`, as
for the SDK fixtures: {"method": "tools/call", "name": …, "arguments": …, "params": …}.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, BinaryIO

MODERN = "2026-07-28"
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
SERVER_INFO = {"name": "fixture-malformed", "version": "1.0.0"}
KINDS = ("invalid-json", "invalid-utf8", "huge-line", "unknown-id", "batch", "noise", "duplicate-key", "silence")

TOOLS: list[dict[str, Any]] = [
    {
        "name": "echo",
        "description": "Echo the text back unchanged.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
    },
    {
        "name": "misbehave",
        "description": "Write one faulty message to stdout, then answer this call correctly.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": list(KINDS)},
                "size_mib": {"type": "integer", "description": "Size for huge-line (default 20)."},
            },
            "required": ["kind"],
        },
    },
]


class Wire:
    """Newline-delimited JSON-RPC on a binary stream, plus the raw bytes the faults need."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self.modern = False

    def raw(self, data: bytes) -> None:
        self.out.write(data)
        self.out.flush()

    def send(self, message: Any) -> None:
        self.raw(json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")

    def result(self, request_id: Any, result: dict[str, Any]) -> None:
        if self.modern:
            result = {"resultType": "complete", **result, "_meta": {"io.modelcontextprotocol/serverInfo": SERVER_INFO}}
        self.send({"jsonrpc": "2.0", "id": request_id, "result": result})

    def error(self, request_id: Any, code: int, message: str) -> None:
        self.send({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}})


def _text(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": False}


def _log(data: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": data}}


def record(params: dict[str, Any]) -> None:
    path = os.environ.get("FIXTURE_LOG")
    if path:
        entry = {
            "method": "tools/call",
            "name": params.get("name"),
            "arguments": params.get("arguments"),
            "params": params,
        }
        with open(path, "a", encoding="utf-8") as log:
            log.write(json.dumps(entry, ensure_ascii=False) + "\n")


def _fault(kind: str, size_mib: int) -> bytes:
    if kind == "invalid-utf8":
        return b'{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"\xff\xfe"}}\n'
    if kind == "huge-line":
        return json.dumps(_log("A" * (size_mib * 1024 * 1024))).encode() + b"\n"
    if kind == "unknown-id":
        return b'{"jsonrpc":"2.0","id":987654,"result":{"content":[{"type":"text","text":"unsolicited"}]}}\n'
    if kind == "batch":
        return json.dumps([_log("batched one"), _log("batched two")]).encode() + b"\n"
    if kind == "noise":
        return b"server starting...\n"
    return b'{"jsonrpc":"2.0","id":\n'  # invalid-json


def misbehave(wire: Wire, request_id: Any, kind: str, size_mib: int) -> None:
    if kind == "duplicate-key":
        # Written by hand: no JSON encoder emits a duplicate key.
        body = '{"content":[{"type":"text","text":"first"}],"content":[{"type":"text","text":"second"}]'
        body += ',"resultType":"complete"}' if wire.modern else "}"
        wire.raw(b'{"jsonrpc":"2.0","id":%s,"result":%s}\n' % (json.dumps(request_id).encode(), body.encode()))
        return
    if kind == "silence":
        return
    wire.raw(_fault(kind, size_mib))
    wire.result(request_id, _text(f"misbehaved: {kind}"))


def call_tool(wire: Wire, request_id: Any, params: dict[str, Any]) -> None:
    record(params)
    name, arguments = params.get("name"), params.get("arguments") or {}
    if name == "echo":
        wire.result(request_id, _text(str(arguments.get("text", ""))))
    elif name == "misbehave" and arguments.get("kind") in KINDS:
        misbehave(wire, request_id, str(arguments["kind"]), int(arguments.get("size_mib", 20)))
    else:
        wire.error(request_id, -32602, f"unknown tool or kind: {name} {arguments}")


def handle(wire: Wire, message: dict[str, Any]) -> None:
    method, request_id, params = message.get("method"), message.get("id"), message.get("params") or {}
    if request_id is None or not isinstance(method, str):
        return  # a notification, or a response to nothing we sent: ignored
    if method == "initialize":
        asked = params.get("protocolVersion")
        version = asked if asked in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1]
        wire.result(request_id, {"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": SERVER_INFO})
    elif method == "server/discover":
        wire.modern = True
        capabilities: dict[str, Any] = {"tools": {}}
        wire.result(
            request_id,
            {"supportedVersions": [MODERN], "capabilities": capabilities, "ttlMs": 0, "cacheScope": "private"},
        )
    elif method == "ping":
        wire.result(request_id, {})
    elif method == "tools/list":
        cacheable = {"ttlMs": 0, "cacheScope": "private"} if wire.modern else {}
        wire.result(request_id, {"tools": TOOLS, **cacheable})
    elif method == "tools/call":
        call_tool(wire, request_id, params)
    else:
        wire.error(request_id, -32601, "Method not found")


def main() -> None:
    wire = Wire(sys.stdout.buffer)
    for line in sys.stdin.buffer:
        try:
            message = json.loads(line)
        except ValueError:
            wire.error(None, -32700, "Parse error")
            continue
        if isinstance(message, dict):
            handle(wire, message)


if __name__ == "__main__":
    main()
