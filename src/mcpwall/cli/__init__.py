"""The command line: thin commands over the packages. Output goes to stderr except where a
command's purpose is to print (``config schema``, ``audit verify``...), never during ``run``."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path
from typing import Annotated

import typer

from mcpwall.cli import audit_cmd, config_cmd
from mcpwall.config import Config, load_config
from mcpwall.errors import ConfigError, UpstreamStartError

app = typer.Typer(add_completion=False, no_args_is_help=True, help="mcpwall: a security gateway for MCP.")
app.add_typer(config_cmd.app, name="config")
app.add_typer(audit_cmd.app, name="audit")

ConfigOption = Annotated[Path | None, typer.Option("--config", "-c", help="mcpwall YAML configuration.")]


def _load(path: Path | None) -> Config:
    try:
        return load_config(path) if path else Config()
    except ConfigError as exc:
        typer.echo(f"mcpwall: config error: {exc}", err=True)
        raise typer.Exit(2) from exc


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def run(
    ctx: typer.Context,
    config: ConfigOption = None,
    name: Annotated[str | None, typer.Option("--name", help="Server name (config entry, pins).")] = None,
) -> None:
    """Run one stdio MCP server behind mcpwall: mcpwall run [OPTIONS] -- COMMAND [ARGS]..."""
    from mcpwall.assembly import build_stdio_gateway

    settings = _load(config)
    command = list(ctx.args)
    if not command and not (name and name in settings.servers):
        typer.echo("mcpwall: no server command given (mcpwall run -- COMMAND [ARGS])", err=True)
        raise typer.Exit(2)
    try:
        gateway = build_stdio_gateway(settings, name, command)
        outcome = asyncio.run(gateway.run())
    except (ConfigError, UpstreamStartError) as exc:
        typer.echo(f"mcpwall: {exc}", err=True)
        raise typer.Exit(2) from exc
    finally:
        if "gateway" in locals():
            gateway.audit.chain.close()
    raise typer.Exit(outcome.exit_code)


def main() -> None:
    """Entry point of the ``mcpwall`` console script."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(message)s")
    app()
