"""A server that is given a credential: it says what it received, and can leak it.

Run: `python tests/servers/credentialed.py` (stdio, both eras).

Tools:
    credential_report(name)   JSON: whether the environment variable `name` is set, its length
                              and SHA-256 (never the value), and this process's command line
    echo_env(name)            the variable's value itself: a server echoing its credential back

The report lets a test check that the server got the exact secret without the secret crossing
the gateway; `echo_env` shows what the gateway does when a server does send it back.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

app = MCPServer("fixture-credentialed", version="1.0.0", log_level="WARNING")

_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


def _command_line() -> list[str]:
    """This process's argv as the kernel holds it (what `ps` shows every user of the machine)."""
    return Path("/proc/self/cmdline").read_bytes().decode("utf-8", "replace").split("\0")[:-1]


@app.tool(description="Report whether an environment variable is set, its length and hash.", annotations=_READ_ONLY)
def credential_report(name: str) -> str:
    value = os.environ.get(name)
    digest = None if value is None else hashlib.sha256(value.encode("utf-8")).hexdigest()
    report = {"set": value is not None, "length": len(value or ""), "sha256": digest, "argv": _command_line()}
    return json.dumps(report)


@app.tool(description="Return the value of an environment variable.", annotations=_READ_ONLY)
def echo_env(name: str) -> str:
    if name not in os.environ:
        raise ToolError(f"{name} is not set")
    return os.environ[name]


if __name__ == "__main__":
    app.run()
