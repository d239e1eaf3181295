"""What the HTTP front checks before a message is even parsed.

- **Host**: must name the listening address (or ``localhost``) — DNS rebinding defence: a page
  that resolved an attacker's name to 127.0.0.1 still sends the attacker's Host.
- **Origin**: absent (non-browser clients) or in the configured list — a web page the user visits
  cannot drive the gateway (CSRF).
- **Body size**: at most ``max_body_bytes``.
- **2026-07-28 headers**: ``mcp-protocol-version``, ``mcp-method`` and ``mcp-name`` must match the
  body they travel with (HEADER_MISMATCH, -32020, otherwise).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

META_VERSION = "io.modelcontextprotocol/protocolVersion"


class HttpFrontSettings(BaseModel):
    """The Streamable HTTP front of ``mcpwall serve --http``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    allowed_hosts: list[str] = Field(default_factory=list)
    """Host header values accepted besides the listening address and ``localhost:PORT``."""
    allowed_origins: list[str] = Field(default_factory=list)
    """Origin header values accepted (browsers); requests without an Origin are accepted."""
    max_body_bytes: int = Field(default=4 * 1024 * 1024, ge=1024)
    """The largest request body accepted (413 beyond)."""
    session_idle_seconds: float = Field(default=3600.0, gt=0)
    """A session unused this long is closed and its servers stopped."""


def accepted_hosts(listening: tuple[str, int], settings: HttpFrontSettings) -> frozenset[str]:
    """The Host header values that name this gateway: its listening address, the loopback names
    with its port, and the configured ``allowed_hosts``."""
    address, port = listening
    return frozenset(
        {f"{address}:{port}", f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", *settings.allowed_hosts}
    )


def host_allowed(host: str | None, accepted: frozenset[str]) -> bool:
    """Whether the Host header names this gateway (one of ``accepted``, see `accepted_hosts`)."""
    return bool(host) and host in accepted


def origin_allowed(origin: str | None, settings: HttpFrontSettings) -> bool:
    """Whether the Origin header (if any) is allowed."""
    return origin is None or origin in settings.allowed_origins


def header_mismatch(headers: Mapping[str, str], message: Mapping[str, Any]) -> str | None:
    """Why the 2026-07-28 routing headers disagree with the body, or None."""
    params = message.get("params") if isinstance(message.get("params"), dict) else {}
    meta = params.get("_meta") if isinstance(params, dict) else None
    version = meta.get(META_VERSION) if isinstance(meta, dict) else None
    sent_version = headers.get("mcp-protocol-version")
    if version is not None and sent_version is not None and sent_version != version:
        return "mcp-protocol-version does not match the body"
    method = headers.get("mcp-method")
    if method is not None and method != message.get("method"):
        return "mcp-method does not match the body"
    name = headers.get("mcp-name")
    target = params.get("name") if isinstance(params, dict) else None
    if name is not None and name != target:
        return "mcp-name does not match the body"
    return None
