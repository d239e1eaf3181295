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
    http: Annotated[str | None, typer.Option("--http", help="Serve Streamable HTTP on HOST:PORT (not yet).")] = None,
    profile: Annotated[list[str] | None, typer.Option("--profile", help="Gatekeeper profile (repeatable).")] = None,
) -> None:
    """Run one gateway in front of every server in the config's servers: section."""
    from mcpwall.routing.serve import StdioServe  # imported when serving, not for --help

    if http is not None:
        typer.echo("mcpwall: the Streamable HTTP front is not implemented yet; use --stdio", err=True)
        raise typer.Exit(2)
    try:
        settings = load_config(config)
        if not settings.servers:
            raise ConfigError("no servers to serve", path="servers")
        server = StdioServe(settings, profile or [])
    except ConfigError as exc:
        typer.echo(f"mcpwall: config error: {exc}", err=True)
        raise typer.Exit(2) from exc
    try:
        import uvloop

        raise typer.Exit(uvloop.run(server.run()))
    except ImportError:
        raise typer.Exit(asyncio.run(server.run())) from None
