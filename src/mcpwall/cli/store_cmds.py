"""What the operator commands share: the store and audit trail of the state directory, options,
and output (rich tables on stdout, ``--json`` for scripts, errors on stderr with exit 1).

Every command that changes state appends an audit record naming the OS user who made it
(``approver``) and the channel ``cli``. The audit file is opened before the change, so an
unwritable trail stops the command before anything changes.
"""

from __future__ import annotations

import getpass
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, is_dataclass
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn

import orjson
import typer
from rich.console import Console
from rich.table import Table

from mcpwall.audit import AuditChain
from mcpwall.errors import ConfigError
from mcpwall.state import AUDIT_FILE, DATABASE_FILE, state_dir
from mcpwall.store import Store, open_store

StateDirOption = Annotated[
    Path | None, typer.Option("--state-dir", help="State directory (default: $MCPWALL_STATE_DIR or XDG state)")
]
PIPED_WIDTH = 200
"""Table width when stdout is a pipe or file (rich would fold to 80 columns)."""
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def resolve_state_dir(state: Path | None) -> Path:
    """The state directory: ``--state-dir`` when given, else `mcpwall.state.state_dir`."""
    return state_dir(str(state) if state else None)


@contextmanager
def opened_store(state: Path | None) -> Iterator[Store]:
    """The state directory's store, closed on exit; exit 2 when it cannot be opened."""
    try:
        store = open_store(resolve_state_dir(state) / DATABASE_FILE)
    except ConfigError as exc:
        fail(str(exc), code=2)
    try:
        yield store
    finally:
        store.close()


@contextmanager
def audit_trail(state: Path | None) -> Iterator[AuditChain]:
    """The state directory's audit chain, opened now (before any change) and closed on exit."""
    chain = AuditChain(resolve_state_dir(state) / AUDIT_FILE)
    try:
        yield chain
    finally:
        chain.close()


def operator() -> str:
    """The OS user running the command: who decided."""
    return getpass.getuser()


def operator_event(event_type: str, **fields: Any) -> dict[str, Any]:
    """An audit event for an operator action: type, time, approver and channel stamped."""
    return {"type": event_type, "ts": time.time(), "approver": operator(), "channel": "cli", **fields}


def fail(message: str, *, code: int = 1) -> NoReturn:
    """Print ``message`` to stderr and exit with ``code``."""
    typer.echo(f"mcpwall: {message}", err=True)
    raise typer.Exit(code)


def print_json(value: Any) -> None:
    """Print dataclasses, lists and dicts as indented JSON on stdout."""
    typer.echo(orjson.dumps(_plain(value), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode())


def _plain(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def print_table(title: str, columns: list[str], rows: list[list[str]]) -> None:
    """Print a rich table on stdout (plain text when stdout is not a terminal)."""
    table = Table(title=title, title_justify="left")
    for column in columns:
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*row)
    console = Console()
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console.width = PIPED_WIDTH
    console.print(table)


def when(ts: float | None) -> str:
    """A timestamp as local ISO time to the second ("-" for None)."""
    return "-" if ts is None else datetime.fromtimestamp(ts).astimezone().isoformat(timespec="seconds")


def split_target(target: str) -> tuple[str, str]:
    """``SERVER:TOOL`` split at its last colon (tool names cannot hold one; ``SERVER:`` = instructions)."""
    server, sep, tool = target.rpartition(":")
    if not sep or not server:
        fail(f"expected SERVER:TOOL, got {target!r}", code=2)
    return server, tool
