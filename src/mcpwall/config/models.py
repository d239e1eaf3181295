"""Configuration models. Every model forbids unknown keys: a typo does not load.

The configuration reference (`mcpwall config schema`) is generated from these models and their
attribute docstrings, so it cannot drift from the code.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from mcpwall.approvals.settings import ApprovalSettings
from mcpwall.armor.settings import ArmorSettings
from mcpwall.armor.tool_lists import ToolLists
from mcpwall.audit.webhook import WebhookSettings
from mcpwall.gatekeeper.settings import GatekeeperSettings
from mcpwall.identity.settings import IdentitySettings
from mcpwall.inspection.settings import InspectionSettings
from mcpwall.routing.settings import RoutingSettings
from mcpwall.transports.http_guard import HttpFrontSettings


class Strict(BaseModel):
    """Base of every config model: unknown keys are errors; field docstrings are descriptions."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class EnvironmentSettings(Strict):
    """What a spawned server gets of mcpwall's environment. Nothing else reaches it."""

    allowed_env: list[str] = Field(default_factory=list)
    """Names copied from mcpwall's environment, beyond PATH, HOME and LANG."""
    env: dict[str, str] = Field(default_factory=dict)
    """Variables set for the server. A value ``env:NAME`` or ``file:PATH`` is a credential
    reference, resolved when the server starts and never logged."""


class WireSettings(Strict):
    """Framing limits and lifecycle timing."""

    max_line_bytes: int = Field(default=16 * 1024 * 1024, ge=1024)
    """The longest JSON-RPC line accepted in either direction; longer lines are refused."""
    shutdown_grace_seconds: float = Field(default=5.0, gt=0, le=120)
    """How long a server may take to exit after its stdin closes before it is killed."""
    call_timeout_seconds: float | None = Field(default=None, gt=0)
    """A tools/call the server has not answered after this long is answered with
    UPSTREAM_TIMEOUT (and cancelled at the server); recorded as TIMEOUT. None: no limit."""


class AuditSettings(Strict):
    """The tamper-evident audit trail."""

    record_arguments: int = Field(default=0, ge=0)
    """Characters of a call's arguments kept in the audit record; 0 keeps only their hash."""
    webhook: WebhookSettings = Field(default_factory=WebhookSettings)
    """Also POST audit records to a URL (off unless ``url`` is set); never delays a message."""


class ServerSpec(Strict):
    """One MCP server mcpwall can start or reach."""

    command: str | None = None
    """The program to start (stdio servers)."""
    url: str | None = None
    """The endpoint of a server reached over HTTP (``mcpwall serve`` only)."""
    transport: Literal["streamable-http", "sse"] = "streamable-http"
    """For ``url``: Streamable HTTP, or the legacy 2024-11-05 HTTP+SSE transport."""
    headers: dict[str, str] = Field(default_factory=dict)
    """For ``url``: request headers; values may be credential references (``env:``, ``file:``,
    ``keyring:``), sent only to this server."""
    args: list[str] = Field(default_factory=list)
    """Its arguments."""
    cwd: str | None = None
    """Its working directory."""
    environment: EnvironmentSettings | None = None
    """Its environment; defaults to the top-level ``environment``."""
    tools: ToolLists | None = None
    """Its tool lists; default to the top-level ``tools``."""
    armor: ArmorSettings | None = None
    """Its argument policy, bounded by the top-level ``armor`` (the gateway's ceiling)."""


class Config(Strict):
    """The whole mcpwall configuration."""

    state_dir: str | None = None
    """Where the state database and audit trail live. Default: $XDG_STATE_HOME/mcpwall."""
    tools: ToolLists = Field(default_factory=ToolLists)
    """Tool allow/deny lists for every server without its own."""
    environment: EnvironmentSettings = Field(default_factory=EnvironmentSettings)
    """Environment for every server without its own."""
    armor: ArmorSettings = Field(default_factory=ArmorSettings)
    """Argument policy (paths, network, commands, rate limits, output) for every server, and
    the ceiling no server's own ``armor`` can exceed."""
    gatekeeper: GatekeeperSettings = Field(default_factory=GatekeeperSettings)
    """Operation kinds, profiles, overrides and the danger zone."""
    approvals: ApprovalSettings = Field(default_factory=ApprovalSettings)
    """How a human confirms calls that need it."""
    inspection: InspectionSettings = Field(default_factory=InspectionSettings)
    """Tool-definition inspection, pinning and rug-pull blocking."""
    wire: WireSettings = Field(default_factory=WireSettings)
    """Framing limits and lifecycle timing."""
    audit: AuditSettings = Field(default_factory=AuditSettings)
    """The audit trail."""
    http: HttpFrontSettings = Field(default_factory=HttpFrontSettings)
    """The Streamable HTTP front of ``mcpwall serve --http``: Host/Origin checks, body limit."""
    identity: IdentitySettings | None = None
    """Agent authentication on the HTTP front (bearer JWT, Ed25519-signed requests) and the
    mapping from an agent's identity to its profiles and tools. None: no authentication."""
    routing: RoutingSettings = Field(default_factory=RoutingSettings)
    """How ``mcpwall serve`` fronts many servers: pool, timeouts, prefix routes."""
    servers: dict[str, ServerSpec] = Field(default_factory=dict)
    """Servers by name; ``mcpwall run --name NAME`` takes that server's settings."""
