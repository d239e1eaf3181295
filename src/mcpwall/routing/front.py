"""What the aggregate gateway answers itself: the handshake, with merged capabilities."""

from __future__ import annotations

from typing import Any, Final

from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION

SERVER_INFO: Final = {"name": "mcpwall", "version": "0.1.0"}
CAPABILITIES: Final = {
    "tools": {"listChanged": True},
    "prompts": {"listChanged": True},
    "resources": {"listChanged": True, "subscribe": False},
}


def initialize_result(params: dict[str, Any], instructions: str | None) -> dict[str, Any]:
    """The answer to a client's initialize: its version when supported, else the latest."""
    asked = params.get("protocolVersion")
    version = asked if asked in HANDSHAKE_PROTOCOL_VERSIONS else LATEST_HANDSHAKE_VERSION
    result: dict[str, Any] = {"protocolVersion": version, "capabilities": CAPABILITIES, "serverInfo": SERVER_INFO}
    if instructions:
        result["instructions"] = instructions
    return result


def client_capabilities(params: dict[str, Any]) -> dict[str, Any]:
    """What the client can do (sampling, elicitation, roots), offered to every upstream."""
    caps = params.get("capabilities")
    return caps if isinstance(caps, dict) else {}
