"""Putting a gateway together from a configuration: checks, audit trail, server process."""

from __future__ import annotations

import os
import uuid

from mcpwall.armor.ceiling import apply_ceiling
from mcpwall.armor.environment import server_environment
from mcpwall.audit import AuditChain, Auditor
from mcpwall.config.models import Config, ServerSpec
from mcpwall.gateway import StdioGateway
from mcpwall.inspection.pins import server_identity
from mcpwall.inspection.review import ToolReviewer
from mcpwall.pipeline import Pipeline
from mcpwall.pipeline.order import default_checks
from mcpwall.state import AUDIT_FILE, state_dir
from mcpwall.store import default_store
from mcpwall.transports.stdio import StdioUpstream


def build_stdio_gateway(config: Config, name: str | None, command: list[str]) -> StdioGateway:
    """A gateway for ``mcpwall run``: the named server's settings, else the top-level ones.

    Raises:
        ConfigError: when a credential reference cannot be resolved.
    """
    spec = config.servers.get(name or "", ServerSpec())
    argv = command or ([spec.command, *spec.args] if spec.command else [])
    identity = server_identity(argv, name)
    environment = spec.environment or config.environment
    armor = apply_ceiling(spec.armor, config.armor) if spec.armor else config.armor
    env = server_environment(os.environ, environment.allowed_env, environment.env)
    chain = AuditChain(state_dir(config.state_dir) / AUDIT_FILE)
    auditor = Auditor(chain, session=uuid.uuid4().hex, server=identity, keep_arguments=config.audit.record_arguments)
    return StdioGateway(
        server=identity,
        upstream=StdioUpstream(argv, env, cwd=spec.cwd),
        pipeline=Pipeline(default_checks(spec.tools or config.tools, armor)),
        armor=armor,
        reviewer=ToolReviewer(default_store(config.state_dir), identity, config.inspection, auditor),
        auditor=auditor,
        wire=config.wire,
    )
