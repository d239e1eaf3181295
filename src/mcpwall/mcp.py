"""Typed views of the MCP messages mcpwall reasons about, in both protocol eras.

- handshake era (2024-11-05 .. 2025-11-25): ``initialize`` then ``notifications/initialized``;
  session state lives on the connection.
- stateless era (2026-07-28): the client starts with ``server/discover`` and every request
  carries protocol version, client info and capabilities in ``params._meta``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from mcpwall.errors import ProtocolError
from mcpwall.jsonrpc import INVALID_REQUEST, Message, RequestId

META_PROTOCOL_VERSION: Final = "io.modelcontextprotocol/protocolVersion"
META_CLIENT_INFO: Final = "io.modelcontextprotocol/clientInfo"
META_CLIENT_CAPABILITIES: Final = "io.modelcontextprotocol/clientCapabilities"

BATCH_VERSIONS: Final = frozenset({"2024-11-05", "2025-03-26"})
"""Protocol versions whose transports allowed JSON-RPC batches (2025-06-18 removed them)."""

TOOLS_LIST: Final = "tools/list"
TOOLS_CALL: Final = "tools/call"


class Era(Enum):
    """The two wire eras of MCP."""

    UNKNOWN = "unknown"
    HANDSHAKE = "handshake"
    STATELESS = "stateless"


@dataclass(slots=True)
class SessionFacts:
    """What the client told mcpwall about itself, from ``initialize`` or the ``_meta`` envelope."""

    era: Era = Era.UNKNOWN
    protocol_version: str = ""
    client_info: dict[str, Any] = field(default_factory=dict)
    capabilities: dict[str, Any] = field(default_factory=dict)

    @property
    def batches_allowed(self) -> bool:
        return self.era is Era.HANDSHAKE and self.protocol_version in BATCH_VERSIONS

    def learn(self, message: Message) -> bool:
        """Update from a client request; True when this request established the era."""
        params = message.params
        if message.method == "initialize":
            self._set(Era.HANDSHAKE, params.get("protocolVersion"), params)
            return True
        meta = params.get("_meta")
        if isinstance(meta, dict) and META_PROTOCOL_VERSION in meta:
            first = self.era is not Era.STATELESS
            caps = {
                "capabilities": meta.get(META_CLIENT_CAPABILITIES),
                "clientInfo": meta.get(META_CLIENT_INFO),
            }
            self._set(Era.STATELESS, meta.get(META_PROTOCOL_VERSION), caps)
            return first
        return False

    def _set(self, era: Era, version: Any, source: dict[str, Any]) -> None:
        self.era = era
        self.protocol_version = version if isinstance(version, str) else ""
        info, caps = source.get("clientInfo"), source.get("capabilities")
        self.client_info = info if isinstance(info, dict) else {}
        self.capabilities = caps if isinstance(caps, dict) else {}


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A ``tools/call`` request: the exact object that will be forwarded is what this views."""

    request_id: RequestId
    name: str
    arguments: dict[str, Any]

    @classmethod
    def of(cls, message: Message) -> ToolCall:
        """View a tools/call request.

        Raises:
            ProtocolError: when the name is missing or the arguments are not an object.
        """
        params = message.params
        name, arguments = params.get("name"), params.get("arguments", {})
        if not isinstance(name, str) or not name:
            raise ProtocolError("tools/call needs a tool name", code=INVALID_REQUEST)
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise ProtocolError("tools/call arguments must be an object", code=INVALID_REQUEST)
        assert message.id is not None  # noqa: S101 -- a REQUEST always has an id (classify checks it)
        return cls(request_id=message.id, name=name, arguments=arguments)


def listed_tools(result: Any) -> list[dict[str, Any]] | None:
    """The tool definitions of a tools/list result, or None when the result has none."""
    if not isinstance(result, dict):
        return None
    tools = result.get("tools")
    if not isinstance(tools, list):
        return None
    return [t for t in tools if isinstance(t, dict)]
