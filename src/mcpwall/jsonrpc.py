"""JSON-RPC 2.0 on the wire: parse once, classify, build errors. This module owns the error codes.

Each line is parsed exactly once (orjson). The parsed object is what the checks see, and
`dump` of that same object is what is forwarded, so a message with duplicate keys (orjson keeps
the last) means the same thing to mcpwall and to the receiver.

mcpwall's own error codes live in -32050..-32059, away from the codes the MCP SDK uses
(-32000, -32001, -32020..-32022, -32042) and from the JSON-RPC reserved ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

import orjson

from mcpwall.errors import ProtocolError

PARSE_ERROR: Final = -32700
"""The line is not valid JSON (or not valid UTF-8)."""
INVALID_REQUEST: Final = -32600
"""Valid JSON but not a JSON-RPC message mcpwall accepts (non-object, bad id, batch refused...)."""
METHOD_NOT_FOUND: Final = -32601
"""Reserved by JSON-RPC; mcpwall forwards unknown methods to the server, which answers this."""
INVALID_PARAMS: Final = -32602
"""The params name nothing the gateway can route (an unknown prompt or resource)."""
INTERNAL_ERROR: Final = -32603
"""mcpwall itself failed; the message was not forwarded."""

POLICY_DENIED: Final = -32050
"""mcpwall's policy refused the call. ``data.violation`` names the violation type."""
CONFIRMATION_REQUIRED: Final = -32051
"""The call needs a human's approval first. ``data.ticket`` is the approval ticket id."""
UPSTREAM_UNAVAILABLE: Final = -32052
"""The MCP server behind mcpwall exited or is not running; the request was not answered."""
UPSTREAM_TIMEOUT: Final = -32053
"""The MCP server did not answer in time."""
MESSAGE_REJECTED: Final = -32054
"""mcpwall dropped a message on the wire (oversized line, refused batch); see ``data.reason``."""

RequestId = int | str

_ORJSON_MAX_INT: Final = 2**63


class Kind(Enum):
    """What a parsed JSON-RPC object is."""

    REQUEST = "request"
    NOTIFICATION = "notification"
    RESPONSE = "response"


@dataclass(slots=True)
class Message:
    """One parsed JSON-RPC object and its kind. ``obj`` is what is checked and forwarded."""

    obj: dict[str, Any]
    kind: Kind

    @property
    def id(self) -> RequestId | None:
        value = self.obj.get("id")
        return value if isinstance(value, int | str) else None

    @property
    def method(self) -> str:
        method = self.obj.get("method")
        return method if isinstance(method, str) else ""

    @property
    def params(self) -> dict[str, Any]:
        params = self.obj.get("params")
        return params if isinstance(params, dict) else {}


def loads(line: bytes) -> Any:
    """Parse one line of JSON, strictly (UTF-8, no lone surrogates, no NaN/Infinity).

    Raises:
        ProtocolError: with PARSE_ERROR when the line is not valid JSON or not valid UTF-8.
    """
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise ProtocolError(f"parse error: {exc}", code=PARSE_ERROR) from exc


def dump(obj: Any) -> bytes:
    """Serialize one message as a line (with its trailing newline)."""
    return orjson.dumps(obj, option=orjson.OPT_APPEND_NEWLINE)


def classify(obj: Any) -> Message:
    """Classify a parsed object as request, notification or response.

    Raises:
        ProtocolError: with INVALID_REQUEST when it is not a single JSON-RPC 2.0 message.
    """
    if not isinstance(obj, dict):
        raise ProtocolError("message must be a JSON object", code=INVALID_REQUEST)
    if obj.get("jsonrpc") != "2.0":
        raise ProtocolError('jsonrpc must be "2.0"', code=INVALID_REQUEST)
    if "method" in obj:
        if not isinstance(obj["method"], str):
            raise ProtocolError("method must be a string", code=INVALID_REQUEST)
        if "params" in obj and not isinstance(obj["params"], dict | list):
            raise ProtocolError("params must be an object", code=INVALID_REQUEST)
        if "id" not in obj:
            return Message(obj, Kind.NOTIFICATION)
        _check_id(obj["id"])
        return Message(obj, Kind.REQUEST)
    if ("result" in obj) == ("error" in obj):
        raise ProtocolError("a response carries exactly one of result and error", code=INVALID_REQUEST)
    if obj.get("id") is not None:
        _check_id(obj["id"])
    return Message(obj, Kind.RESPONSE)


def _check_id(value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ProtocolError("id must be a string or an integer", code=INVALID_REQUEST)
    if isinstance(value, int) and not -_ORJSON_MAX_INT <= value < _ORJSON_MAX_INT:
        raise ProtocolError("id out of range", code=INVALID_REQUEST)


def error(request_id: RequestId | None, code: int, message: str, data: Any = None) -> dict[str, Any]:
    """Build a JSON-RPC error response."""
    err: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": err}


_LEADING_ID = re.compile(rb'^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,18}|"[^"\\]{0,128}")\s*[,}]')


def sniff_id(prefix: bytes) -> RequestId | None:
    """Find a message's id in the first bytes of a line too large to parse.

    Only an ``id`` that is the first (or second, after ``jsonrpc``) top-level key is trusted:
    anywhere else it could belong to a nested object.
    """
    match = _LEADING_ID.match(prefix)
    if match is None:
        return None
    raw = match.group(1)
    return raw[1:-1].decode("utf-8", "replace") if raw.startswith(b'"') else int(raw)
