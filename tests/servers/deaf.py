"""A server that answers the handshake and tools/list, then stops answering anything.

Run: `python tests/servers/deaf.py` (stdio, handshake era). For health-check tests: its
pings go unanswered, as a hung server's would.
"""

from __future__ import annotations

import json
import sys
from typing import Any

TOOLS: list[dict[str, Any]] = [
    {
        "name": "echo",
        "description": "Echo.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
    }
]


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue
        if method == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "deaf", "version": "1"},
            }
        elif method == "tools/list":
            result = {"tools": TOOLS}
        else:
            continue
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
