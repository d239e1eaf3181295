"""The 2026-07-28 routing headers over HTTP: ``mcp-protocol-version``, ``mcp-method``, ``mcp-name``.

They repeat what the body says so that HTTP infrastructure can route without parsing it; a
receiver must refuse a request whose headers and body disagree (HEADER_MISMATCH, -32020).

- toward an HTTP upstream, `routing_headers` derives them from the very body being sent (the
  SDK's transport sets what a message's metadata names);
- from a client, `modern_mismatch` runs the SDK's own inbound ladder with the headers, so
  mcpwall and an SDK server refuse exactly the same requests (a missing header is a mismatch too;
  ``mcp-name`` may be base64-encoded, ``=?base64?…?=``, for a name that is not plain ASCII).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcp.shared.inbound import (
    MCP_METHOD_HEADER,
    MCP_NAME_HEADER,
    MCP_PROTOCOL_VERSION_HEADER,
    NAME_BEARING_METHODS,
    InboundLadderRejection,
    classify_inbound_request,
    encode_header_value,
)
from mcp_types import PROTOCOL_VERSION_META_KEY
from mcp_types.jsonrpc import HEADER_MISMATCH

ENVELOPE_MARK = PROTOCOL_VERSION_META_KEY.encode()
"""Bytes every enveloped message contains (a cheap test before parsing a line)."""


def _envelope_version(message: Mapping[str, Any]) -> str | None:
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    version = meta.get(PROTOCOL_VERSION_META_KEY) if isinstance(meta, dict) else None
    return version if isinstance(version, str) else None


def is_modern(message: Mapping[str, Any]) -> bool:
    """Whether a client message carries the 2026-07-28 envelope."""
    return _envelope_version(message) is not None


def routing_headers(message: Mapping[str, Any]) -> dict[str, str] | None:
    """The headers that must travel with an enveloped request or notification, else None."""
    version, method = _envelope_version(message), message.get("method")
    if version is None or not isinstance(method, str):
        return None
    headers = {MCP_PROTOCOL_VERSION_HEADER: version, MCP_METHOD_HEADER: method}
    params = message.get("params")
    name_key = NAME_BEARING_METHODS.get(method)
    name = params.get(name_key) if name_key is not None and isinstance(params, dict) else None
    if isinstance(name, str):
        headers[MCP_NAME_HEADER] = encode_header_value(name)
    return headers


def modern_mismatch(headers: Mapping[str, str], message: Mapping[str, Any]) -> str | None:
    """Why an enveloped request's headers disagree with its body, or None.

    Only header disagreement is answered here; the rest of the ladder (envelope complete,
    version supported) is the aggregate's, the same on every front.
    """
    if "id" not in message or not is_modern(message):
        return None
    lowered = {name.lower(): value for name, value in headers.items()}
    verdict = classify_inbound_request(message, headers=lowered)
    if isinstance(verdict, InboundLadderRejection) and verdict.code == HEADER_MISMATCH:
        return verdict.message
    return None


def with_routing(headers: Mapping[str, str], message: Mapping[str, Any]) -> Mapping[str, str]:
    """``headers`` for a POST of ``message``: its routing headers added when it is enveloped."""
    routing = routing_headers(message)
    if routing is None:
        return headers
    return {**{k: v for k, v in headers.items() if k.lower() not in routing}, **routing}
