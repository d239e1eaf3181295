"""The quick-start demo: an MCP client talks to mcp-server-time through mcpwall.

It lists the tools (each inspected and pinned; the denied one is hidden), calls a read (the
gatekeeper auto-approves it), tries the denied one (mcpwall refuses it without reaching the
server), shows the pins and verifies the audit trail.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from mcpwall.audit import verify
from mcpwall.state import AUDIT_FILE, state_dir
from mcpwall.store import default_store

HERE = Path(__file__).resolve().parent


async def main() -> None:
    config = HERE / "mcpwall.yaml"
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "XDG_STATE_HOME", "MCPWALL_STATE_DIR")}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])  # finds mcp-server-time
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "mcpwall", "run", "--config", str(config), "--name", "time"], env=env
    )
    async with Client(params) as client:
        print(f"connected through mcpwall, protocol {client.protocol_version}")
        tools = [t.name for t in (await client.list_tools()).tools]
        print(f"tools the model sees: {tools}  (convert_time is denied by the config, so hidden)")
        result = await client.call_tool("get_current_time", {"timezone": "Europe/Paris"})
        print(f"get_current_time -> {result.content[0].text if result.content else result}")  # type: ignore[union-attr]
        try:
            await client.call_tool(
                "convert_time", {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}
            )
        except MCPError as exc:
            print(f"convert_time -> refused by mcpwall: {exc.error.message} {exc.error.data}")
    for pin in default_store().list_pins("time"):
        name = pin.tool or "(instructions)"
        print(f"pinned {name}: {pin.status}, sha256 {pin.short_hash}, max severity {pin.max_severity}")
    audit = state_dir() / AUDIT_FILE
    report = verify(audit)
    print(f"audit trail {audit}: {report.records} records, {'chain intact' if report.ok else 'TAMPERED'}")


if __name__ == "__main__":
    anyio.run(main)
