"""The command line: thin commands over the packages. Output goes to stderr except where a
command's purpose is to print (``config schema``, ``audit verify``...), never during ``run``."""

from __future__ import annotations

import typer

from mcpwall.cli import (
    approvals_cmd,
    audit_cmd,
    config_cmd,
    events_cmd,
    inspect_cmd,
    policy_cmd,
    registry_cmd,
    scan_cmd,
    serve_cmd,
    sessions_cmd,
)

app = typer.Typer(add_completion=False, no_args_is_help=True, help="mcpwall: a security gateway for MCP.")
app.add_typer(config_cmd.app, name="config")
app.add_typer(audit_cmd.app, name="audit")
app.add_typer(registry_cmd.app, name="registry")
app.command("approve")(registry_cmd.approve)
app.add_typer(approvals_cmd.app, name="approvals")
app.add_typer(sessions_cmd.app, name="sessions")
app.command("events")(events_cmd.events)
app.command("inspect")(inspect_cmd.inspect)
app.command("evaluate")(inspect_cmd.evaluate)
app.command("scan")(scan_cmd.scan)
app.add_typer(policy_cmd.app, name="policy")
app.command("serve")(serve_cmd.serve)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []})
def run(ctx: typer.Context) -> None:
    """Run one stdio MCP server behind mcpwall: mcpwall run [--config FILE] [--name NAME] -- COMMAND [ARGS]..."""
    from mcpwall.cli.run_cmd import run as run_gateway

    raise typer.Exit(run_gateway(list(ctx.args)))
