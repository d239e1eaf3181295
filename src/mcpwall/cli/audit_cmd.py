"""``mcpwall audit verify [FILE]``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mcpwall.audit import verify as verify_chain
from mcpwall.state import AUDIT_FILE, state_dir

app = typer.Typer(no_args_is_help=True, help="The tamper-evident audit trail.")


@app.command()
def verify(
    file: Annotated[Path | None, typer.Argument(help="Audit file (default: the state's)")] = None,
) -> None:
    """Check the hash chain; exit 1 naming each edited, removed, inserted or reordered line."""
    path = file or state_dir() / AUDIT_FILE
    if not path.exists():
        typer.echo(f"{path}: no such audit file", err=True)
        raise typer.Exit(2)
    report = verify_chain(path)
    for problem in report.problems:
        typer.echo(f"{path}: {problem}")
    if report.torn_tail:
        typer.echo(f"{path}: final line is torn (crash mid-write); records before it verified")
    typer.echo(f"{path}: {report.records} records, {'ok' if report.ok else 'TAMPERED'}")
    raise typer.Exit(0 if report.ok else 1)
