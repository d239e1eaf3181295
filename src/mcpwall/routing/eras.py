"""Both protocol eras at the aggregate: what it answers a 2026-07-28 client itself, and what
changes in a message between a client of one era and an upstream of the other.

Client side:

- ``server/discover`` is answered by mcpwall: its merged capabilities, ``supportedVersions``
  (the 2026-07-28 revisions), its ``serverInfo`` in the result's ``_meta``;
- an enveloped request (``params._meta`` with ``io.modelcontextprotocol/protocolVersion``) goes
  through the SDK's own inbound ladder first (envelope complete, version supported);
- a result for a 2026-07-28 client carries ``resultType`` (``complete`` unless the upstream said
  otherwise, e.g. ``input_required``) and mcpwall's ``serverInfo`` stamp; a cacheable one
  (listings, ``resources/read``, discover) carries ``ttlMs: 0`` and ``cacheScope: private``,
  whatever the upstream said: listings are filtered per agent and by live policy (a pin approved
  or a tool denied a second later), so nothing mcpwall answers may be cached or shared. A
  handshake-era client gets results without those 2026 fields.

Upstream side (`UpstreamEra`): only the protocol envelope changes on the way out — the reserved
``_meta`` keys are stamped for a 2026-07-28 upstream (mcpwall's clientInfo, the client's
capabilities) when the message has none, and removed for a handshake-era upstream. Names and
arguments, what the checks read, are never touched.

Questions an upstream asks its client cross eras too: a 2026-07-28 upstream's ``input_required``
becomes server-to-client requests for a handshake-era client (`input_rounds`), and a
handshake-era upstream's mid-call request becomes ``input_required`` for a 2026-07-28 client
(`held_questions`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

import orjson
from mcp.shared.inbound import InboundLadderRejection, classify_inbound_request
from mcp_types import (
    CLIENT_CAPABILITIES_META_KEY,
    CLIENT_INFO_META_KEY,
    LOG_LEVEL_META_KEY,
    PROTOCOL_VERSION_META_KEY,
    SERVER_INFO_META_KEY,
)
from mcp_types.version import LATEST_MODERN_VERSION, MODERN_PROTOCOL_VERSIONS

from mcpwall import jsonrpc
from mcpwall.jsonrpc import Message
from mcpwall.routing.front import CAPABILITIES, SERVER_INFO

ENVELOPE_KEYS: Final = (
    PROTOCOL_VERSION_META_KEY,
    CLIENT_INFO_META_KEY,
    CLIENT_CAPABILITIES_META_KEY,
    LOG_LEVEL_META_KEY,
)
"""The reserved request ``_meta`` keys of the 2026-07-28 envelope."""
MODERN_ONLY_FIELDS: Final = ("resultType", "ttlMs", "cacheScope")
"""Result fields a handshake-era client has no use for."""
CACHEABLE: Final = frozenset(
    {"server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"}
)
"""Methods whose 2026-07-28 results must carry ``ttlMs`` and ``cacheScope``."""
NOT_CACHED: Final = {"ttlMs": 0, "cacheScope": "private"}


def enveloped(params: Any) -> bool:
    """Whether request params carry the 2026-07-28 envelope (its protocol version)."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and PROTOCOL_VERSION_META_KEY in meta


def rejection(message: Message) -> dict[str, Any] | None:
    """The JSON-RPC error for a 2026-07-28 request the SDK's inbound ladder refuses, or None.

    ``server/discover`` is held to the ladder even without an envelope (it has no other era).
    """
    if not enveloped(message.params) and message.method != "server/discover":
        return None
    verdict = classify_inbound_request(message.obj)
    if isinstance(verdict, InboundLadderRejection):
        return jsonrpc.error(message.id, verdict.code, verdict.message, verdict.data)
    return None


def discover_result(instructions: str | None = None) -> dict[str, Any]:
    """mcpwall's own answer to ``server/discover``: the aggregate's merged capabilities."""
    result: dict[str, Any] = {"supportedVersions": list(MODERN_PROTOCOL_VERSIONS), "capabilities": CAPABILITIES}
    if instructions:
        result["instructions"] = instructions
    return result


def for_client(method: str, result: Any, modern: bool) -> Any:
    """A result as a client of its era expects it (a new dict; ``result`` is left as it was)."""
    if not isinstance(result, dict):
        return result
    if not modern:
        return {key: value for key, value in result.items() if key not in MODERN_ONLY_FIELDS}
    shaped = {**result, "resultType": result.get("resultType", "complete")}
    if method in CACHEABLE:
        shaped.update(NOT_CACHED)
    meta = shaped.get("_meta")
    shaped["_meta"] = {**(meta if isinstance(meta, dict) else {}), SERVER_INFO_META_KEY: SERVER_INFO}
    return shaped


@dataclass(slots=True)
class UpstreamEra:
    """The era one upstream speaks, and how a line the session lets out is adapted to it.

    Args:
        modern: the upstream speaks 2026-07-28 (``server/discover`` answered with a modern version).
        version: the protocol version it speaks (the negotiated one in the handshake era).
        capabilities: the client's capabilities, stamped on requests that carry no envelope.
    """

    modern: bool = False
    version: str = ""
    capabilities: dict[str, Any] = field(default_factory=dict)

    def adapt(self, line: bytes) -> bytes:
        """One line (with its newline) as this upstream's era expects it."""
        if not self.modern and PROTOCOL_VERSION_META_KEY.encode() not in line:
            return line  # nothing to take out: the common handshake-era case stays a byte copy
        obj = orjson.loads(line)
        if not isinstance(obj, dict) or "method" not in obj:
            return line
        adapted = self._stamped(obj) if self.modern else _stripped(obj)
        return line if adapted is obj else jsonrpc.dump(adapted)

    def _stamped(self, obj: dict[str, Any]) -> dict[str, Any]:
        params = obj.get("params")
        if enveloped(params) or (params is not None and not isinstance(params, dict)):
            return obj
        envelope = {
            PROTOCOL_VERSION_META_KEY: self.version or LATEST_MODERN_VERSION,
            CLIENT_INFO_META_KEY: SERVER_INFO,
            CLIENT_CAPABILITIES_META_KEY: self.capabilities,
        }
        params = params or {}
        meta = params.get("_meta")
        return {**obj, "params": {**params, "_meta": {**(meta if isinstance(meta, dict) else {}), **envelope}}}


def _stripped(obj: dict[str, Any]) -> dict[str, Any]:
    params = obj.get("params")
    if not isinstance(params, dict) or not enveloped(params):
        return obj
    meta = {key: value for key, value in params["_meta"].items() if key not in ENVELOPE_KEYS}
    rest = {key: value for key, value in params.items() if key != "_meta"}
    return {**obj, "params": {**rest, "_meta": meta} if meta else rest}
