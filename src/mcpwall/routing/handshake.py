"""Opening an upstream in an era: the client's own era first, the other one when refused.

- a 2026-07-28 client: ``server/discover`` first (an answer naming a 2026-07-28 version makes
  the upstream modern: every request then carries the envelope); on an error, or a result with
  no modern version, ``initialize`` then ``notifications/initialized``;
- a handshake-era client: ``initialize`` first; ``server/discover`` only when the upstream
  refuses it with UNSUPPORTED_PROTOCOL_VERSION (-32022: a 2026-07-28-only server).

Following the client's era keeps what an upstream receives as close as possible to what the
client sent: approvals reach the client in its own era (``input_required`` or
``elicitation/create``) and so do the upstream's own questions (sampling, elicitation, roots).
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from mcp_types.jsonrpc import UNSUPPORTED_PROTOCOL_VERSION
from mcp_types.version import LATEST_MODERN_VERSION, MODERN_PROTOCOL_VERSIONS

from mcpwall.errors import UpstreamStartError
from mcpwall.routing.eras import UpstreamEra
from mcpwall.routing.front import SERVER_INFO

HANDSHAKE_VERSION: Final = "2025-11-25"
INIT_ID: Final = "mcpwall-init"
DISCOVER_ID: Final = "mcpwall-discover"
PROBE_SECONDS: Final = 10.0
"""How long a server may take to refuse ``server/discover`` before ``initialize`` is tried."""


class Opening(Protocol):
    """The part of `UpstreamLink` a handshake uses."""

    name: str
    era: UpstreamEra

    async def request(
        self, method: str, params: dict[str, Any] | None, within: float, request_id: str | None = None
    ) -> dict[str, Any]: ...

    def send(self, message: dict[str, Any]) -> None: ...


async def open_upstream(link: Opening, capabilities: dict[str, Any], within: float, *, modern: bool) -> UpstreamEra:
    """Do the handshake in the client's era (``modern``), or the other one; the era agreed.

    Raises:
        UpstreamStartError: when the upstream completes neither handshake.
    """
    if modern and (era := await _discover(link, capabilities, min(within, PROBE_SECONDS))) is not None:
        return era
    link.era = UpstreamEra(modern=False, capabilities=capabilities)
    params = {"protocolVersion": HANDSHAKE_VERSION, "capabilities": capabilities, "clientInfo": SERVER_INFO}
    answer = await link.request("initialize", params, within, request_id=INIT_ID)
    result = answer.get("result")
    if isinstance(result, dict):
        link.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        version = result.get("protocolVersion")
        return UpstreamEra(False, version if isinstance(version, str) else HANDSHAKE_VERSION, capabilities)
    error = answer.get("error")
    if isinstance(error, dict) and error.get("code") == UNSUPPORTED_PROTOCOL_VERSION:
        era = await _discover(link, capabilities, within)
        if era is not None:
            return era
    raise UpstreamStartError(f"{link.name} did not complete initialize: {error}")


async def _discover(link: Opening, capabilities: dict[str, Any], within: float) -> UpstreamEra | None:
    """The modern era when the upstream answers ``server/discover`` with a version of it."""
    link.era = UpstreamEra(modern=True, version=LATEST_MODERN_VERSION, capabilities=capabilities)
    try:
        answer = await link.request("server/discover", None, within, request_id=DISCOVER_ID)
    except TimeoutError:
        return None
    result = answer.get("result")
    offered = result.get("supportedVersions") if isinstance(result, dict) else None
    mutual = [v for v in MODERN_PROTOCOL_VERSIONS if isinstance(offered, list) and v in offered]
    return UpstreamEra(True, mutual[-1], capabilities) if mutual else None
