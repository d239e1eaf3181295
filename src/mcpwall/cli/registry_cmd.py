"""``mcpwall registry list|show`` and ``mcpwall approve``: the pinned tool definitions.

A changed definition is held as *pending* next to the pinned one until a human approves it;
``approve`` pins the pending hash (``--hash`` makes sure it is the one the operator reviewed).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any

import orjson
import typer

from mcpwall.cli.store_cmds import (
    JsonOption,
    StateDirOption,
    audit_trail,
    fail,
    opened_store,
    operator_event,
    print_json,
    print_table,
    split_target,
    when,
)
from mcpwall.inspection.pins import diff_definitions
from mcpwall.store import Pin

app = typer.Typer(no_args_is_help=True, help="Pinned tool definitions and their inspection findings.")


def _tool_label(tool: str) -> str:
    return tool or "(instructions)"


def _detections(pin: Pin) -> str:
    if not pin.findings:
        return "-"
    return f"{len(pin.findings)} (max {pin.max_severity})" if pin.max_severity else str(len(pin.findings))


def _status(pin: Pin) -> str:
    return f"{pin.status} → {pin.pending_hash[:12]}" if pin.pending_hash else pin.status


@app.command("list")
def list_pins(
    server: Annotated[str | None, typer.Option("--server", help="Only this server's tools.")] = None,
    as_json: JsonOption = False,
    state: StateDirOption = None,
) -> None:
    """List pinned tools: SERVER TOOL HASH STATUS DETECTIONS."""
    with opened_store(state) as store:
        pins = store.list_pins(server)
    if as_json:
        print_json(pins)
        return
    rows = [[p.server, _tool_label(p.tool), p.short_hash, _status(p), _detections(p)] for p in pins]
    print_table("Pinned tools", ["SERVER", "TOOL", "HASH", "STATUS", "DETECTIONS"], rows)


def field_diff(pin: Pin) -> list[dict[str, Any]]:
    """The field changes from the pinned to the pending definition (stored, else computed)."""
    if pin.diff or pin.pending_definition is None:
        return pin.diff
    changes = diff_definitions(pin.definition, pin.pending_definition)
    return [{"path": c.path, "kind": c.kind, "before": c.before, "after": c.after} for c in changes]


def _short_json(value: Any) -> str:
    return "-" if value is None else orjson.dumps(value).decode()


@app.command()
def show(
    target: Annotated[str, typer.Argument(metavar="SERVER:TOOL", help="SERVER: alone shows the instructions pin.")],
    as_json: JsonOption = False,
    state: StateDirOption = None,
) -> None:
    """Show one pin: its definition, findings, and the field diff of a pending change."""
    server, tool = split_target(target)
    with opened_store(state) as store:
        pin = store.get_pin(server, tool)
    if pin is None:
        fail(f"no pin for {server}:{tool}")
    if as_json:
        print_json({**asdict(pin), "diff": field_diff(pin)})
        return
    typer.echo(f"{pin.server}:{_tool_label(pin.tool)}  status {pin.status}  hash {pin.hash}")
    typer.echo(f"first seen {when(pin.first_seen)}  last seen {when(pin.last_seen)}")
    typer.echo(orjson.dumps(pin.definition, option=orjson.OPT_INDENT_2).decode())
    findings = [[str(f.get("severity", "")), str(f.get("rule", "")), str(f.get("path", ""))] for f in pin.findings]
    print_table("Findings", ["SEVERITY", "RULE", "FIELD"], findings)
    if pin.pending_hash:
        changes = [[c["path"], c["kind"], _short_json(c["before"]), _short_json(c["after"])] for c in field_diff(pin)]
        print_table(f"Pending {pin.pending_hash[:12]} vs pinned", ["FIELD", "CHANGE", "PINNED", "PENDING"], changes)


def _approved_event(before: Pin | None, after: Pin) -> dict[str, Any]:
    replaced = before.hash if before is not None else None
    fields = {"server": after.server, "tool": after.tool, "pinned_hash": after.hash, "replaced_hash": replaced}
    return operator_event("pin_approved", **fields)


def approve(
    target: Annotated[str | None, typer.Argument(metavar="[SERVER:TOOL]", help="The tool to approve.")] = None,
    server: Annotated[
        str | None, typer.Option("--server", help="With --all: every pending tool of this server.")
    ] = None,
    all_tools: Annotated[bool, typer.Option("--all", help="Approve every approvable tool of --server.")] = False,
    expected: Annotated[str | None, typer.Option("--hash", help="Only if this (prefix) is the hash to pin.")] = None,
    state: StateDirOption = None,
) -> None:
    """Approve a changed, new or blocked definition: its current hash becomes the pinned one."""
    if (target is None) == (server is None or not all_tools):
        fail("give either SERVER:TOOL or --server S --all", code=2)
    with opened_store(state) as store, audit_trail(state) as chain:
        before = {(p.server, p.tool): p for p in store.list_pins(server or split_target(str(target))[0])}
        if target is None:
            done = store.approve_server(str(server))
        else:
            one = store.approve_pin(*split_target(target), expected_hash=expected)
            done = [] if one is None else [one]
        if done:
            chain.append_many([_approved_event(before.get((p.server, p.tool)), p) for p in done])
    if target is not None and not done:
        fail(f"nothing to approve for {target} (unknown, already approved, or --hash does not match)")
    for pin in done:
        typer.echo(f"approved {pin.server}:{_tool_label(pin.tool)} {pin.short_hash}")
    if not done:
        typer.echo(f"nothing to approve for server {server}")
