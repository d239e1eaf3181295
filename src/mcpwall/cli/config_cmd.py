"""``mcpwall config check FILE`` and ``mcpwall config schema``."""

from __future__ import annotations

from pathlib import Path

import orjson
import typer

from mcpwall.config import Config, load_config
from mcpwall.errors import ConfigError

app = typer.Typer(no_args_is_help=True, help="Check a configuration; print its JSON Schema.")


@app.command()
def check(file: Path) -> None:
    """Validate a configuration file; exit 2 and name the key and line when it does not load."""
    try:
        load_config(file)
    except ConfigError as exc:
        typer.echo(f"{file}: {exc}", err=True)
        raise typer.Exit(2) from exc
    typer.echo(f"{file}: ok")


@app.command()
def schema() -> None:
    """Print the JSON Schema of the configuration (for editors), every setting described."""
    from mcpwall.config.schema_docs import json_schema

    typer.echo(orjson.dumps(json_schema(Config), option=orjson.OPT_INDENT_2).decode())
