"""Starting the server of ``mcpwall run``: kept light so it can happen before the heavy imports.

`prepare_upstream` needs only the configuration; the gateway's checks, inspection catalog and
store are imported and built while the server process boots.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from mcpwall.armor.environment import server_environment
from mcpwall.config.models import Config, ServerSpec
from mcpwall.credentials import resolve_settings
from mcpwall.inspection.pins import server_identity
from mcpwall.transports.stdio import StdioUpstream

if TYPE_CHECKING:  # HTTP upstreams pull in the MCP SDK's types: only `serve` pays for them
    from mcpwall.transports.http_upstream import HttpUpstream


def prepare_http_upstream(config: Config, name: str) -> tuple[HttpUpstream, str, ServerSpec]:
    """A server reached over HTTP (``servers.NAME.url``), with its headers' credentials resolved.

    Raises:
        ConfigError: when a credential reference cannot be resolved.
    """
    from mcpwall.transports.http_upstream import HttpUpstream

    spec = config.servers[name]
    assert spec.url is not None  # noqa: S101 -- the caller checked
    headers, secrets = resolve_settings(spec.headers, os.environ, path=f"servers.{name}.headers")
    return HttpUpstream(spec.url, headers, spec.transport, secrets), name, spec


def prepare_upstream(config: Config, name: str | None, command: list[str]) -> tuple[StdioUpstream, str, ServerSpec]:
    """The server process (not yet started, its resolved credentials in ``secrets``), its
    identity and its config entry.

    Raises:
        ConfigError: when a credential reference cannot be resolved.
    """
    spec = config.servers.get(name or "", ServerSpec())
    argv = command or ([spec.command, *spec.args] if spec.command else [])
    environment = spec.environment or config.environment
    env, secrets = server_environment(os.environ, environment.allowed_env, environment.env)
    upstream = StdioUpstream(argv, env, cwd=spec.cwd)
    upstream.secrets = secrets
    return upstream, server_identity(argv, name), spec
