"""``mcpwall serve --config FILE --stdio``: one gateway in front of every configured server."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer

from mcpwall.config import load_config
from mcpwall.errors import ConfigError


def serve(
    config: Annotated[Path, typer.Option("--config", "-c", help="mcpwall YAML configuration with servers:")],
    stdio: Annotated[bool, typer.Option("--stdio", help="Serve one client on stdin/stdout.")] = True,
    http: Annotated[str | None, typer.Option("--http", help="Serve Streamable HTTP on HOST:PORT (/mcp).")] = None,
    allow_remote: Annotated[bool, typer.Option("--allow-remote", help="Allow a non-loopback --http address.")] = False,
    profile: Annotated[list[str] | None, typer.Option("--profile", help="Gatekeeper profile (repeatable).")] = None,
) -> None:
    """Run one gateway in front of every server in the config's servers: section."""
    from mcpwall.routing.serve import StdioServe  # imported when serving, not for --help
    from mcpwall.routing.serve_http import parse_address, serve_http

    try:
        settings = load_config(config)
        if not settings.servers:
            raise ConfigError("no servers to serve", path="servers")
        address = parse_address(http, allow_remote) if http is not None else None
    except ConfigError as exc:
        typer.echo(f"mcpwall: config error: {exc}", err=True)
        raise typer.Exit(2) from exc
    work = serve_http(settings, address) if address else StdioServe(settings, profile or []).run()
    try:
        import uvloop

        raise typer.Exit(uvloop.run(work))
    except ImportError:
        raise typer.Exit(asyncio.run(work)) from None
