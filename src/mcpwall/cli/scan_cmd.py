"""``mcpwall scan``: start every configured server, inspect and pin its tools, print a summary.

The servers come from a mcpwall configuration (``--config``: its ``servers:`` with a
``command``) or from an MCP client's configuration (``--client-config``: Claude Desktop,
Claude Code ``.mcp.json``, Cursor ``.cursor/mcp.json``, VS Code ``.vscode/mcp.json``). Pins go
to the state directory's store and events to its audit trail, exactly as when the gateway lists
the server, so a later ``mcpwall run`` sees the tools as already pinned.

The progress bar and notes go to stderr; the summary table (SERVER TOOLS FLAGGED MAX_SEVERITY
STATUS, plus every finding with ``--verbose``) goes to stdout. Exit 1 when any tool has a
finding at or above the alert threshold (``--threshold``, else the config's
``inspection.alert_threshold``); a server that cannot be started or listed is reported but does
not change the exit code.
"""

from __future__ import annotations

import secrets
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import anyio
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from mcpwall.audit import AuditChain
from mcpwall.cli.inspect_cmd import one_line, parse_threshold
from mcpwall.cli.store_cmds import StateDirOption, fail, print_table
from mcpwall.config.loader import load_config
from mcpwall.errors import ConfigError
from mcpwall.inspection.findings import Severity
from mcpwall.inspection.scan_targets import ScanPlan, plan_from_client_config, plan_from_config
from mcpwall.inspection.settings import InspectionSettings
from mcpwall.state import AUDIT_FILE, state_dir
from mcpwall.store import default_store

if TYPE_CHECKING:
    from mcpwall.inspection.scan import ScanContext, ServerScan


def _plan(config: Path | None, client_config: Path | None) -> tuple[ScanPlan, InspectionSettings, str | None]:
    if config is not None and client_config is not None:
        fail("give only one of --config FILE or --client-config FILE", code=2)
    try:
        if config is not None:
            loaded = load_config(config)
            return plan_from_config(loaded), loaded.inspection, loaded.state_dir
        if client_config is not None:
            return plan_from_client_config(client_config), InspectionSettings(), None
    except ConfigError as exc:
        fail(str(exc), code=2)
    fail("give --config FILE or --client-config FILE", code=2)


def _status(scan: ServerScan) -> str:
    if scan.error is not None:
        return f"error: {scan.error}"
    counts = Counter(tool.status for tool in scan.tools)
    text = ", ".join(f"{count} {status}" for status, count in sorted(counts.items())) or "no tools"
    blocked = sum(tool.blocked for tool in scan.tools)
    return f"{text}; {blocked} blocked" if blocked else text


def _summary(scans: list[ServerScan], threshold: Severity) -> list[list[str]]:
    rows = []
    for scan in scans:
        worst = scan.max_severity
        tools = "-" if scan.error else str(len(scan.tools))
        flagged = "-" if scan.error else str(len(scan.flagged(threshold)))
        rows.append([scan.name, tools, flagged, worst.label if worst else "-", _status(scan)])
    return rows


def _findings(scans: list[ServerScan]) -> list[list[str]]:
    return [
        [scan.name, tool.name, f.severity.label, f.rule, f.field, one_line(f.matched, 80)]
        for scan in scans
        for tool in scan.tools
        for f in tool.findings
    ]


def _run(plan: ScanPlan, context: ScanContext, jobs: int) -> list[ServerScan]:
    from mcpwall.inspection.scan import scan_all  # the SDK client is only imported when scanning

    console = Console(stderr=True)
    columns = (TextColumn("scanning"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}"))
    with Progress(*columns, TimeElapsedColumn(), console=console) as progress:
        task = progress.add_task("", total=len(plan.targets))

        def done(scan: ServerScan) -> None:
            progress.update(task, advance=1, description=scan.name)

        return anyio.run(lambda: scan_all(plan.targets, context, jobs=jobs, on_done=done))


def scan(
    config: Annotated[Path | None, typer.Option("--config", help="A mcpwall configuration (its servers:).")] = None,
    client_config: Annotated[
        Path | None, typer.Option("--client-config", help="claude_desktop_config.json, .mcp.json, .vscode/mcp.json...")
    ] = None,
    timeout: Annotated[float, typer.Option("--timeout", min=0.1, help="Seconds per server to start and list.")] = 30.0,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Servers scanned at once.")] = 4,
    threshold: Annotated[
        str | None, typer.Option("--threshold", help="Exit 1 at this severity (default: inspection.alert_threshold).")
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Also list every finding.")] = False,
    state: StateDirOption = None,
) -> None:
    """Start each configured server, inspect and pin its tools, and summarize; exit 1 on findings."""
    plan, settings, configured_state = _plan(config, client_config)
    level = parse_threshold(threshold or settings.alert_threshold)
    for note in plan.notes:
        typer.echo(f"mcpwall: {note}", err=True)
    if not plan.targets:
        fail("no stdio servers to scan", code=2)
    directory = state_dir(str(state) if state else configured_state)
    store = default_store(str(directory))
    chain = AuditChain(directory / AUDIT_FILE)
    session = f"scan-{secrets.token_hex(4)}"
    from mcpwall.inspection.scan import ScanContext, parent_environment  # as in _run

    try:
        context = ScanContext(store, settings, chain, session, timeout, parent_environment())
        scans = _run(plan, context, jobs)
    finally:
        chain.close()
        store.close()
    print_table("Scan", ["SERVER", "TOOLS", "FLAGGED", "MAX_SEVERITY", "STATUS"], _summary(scans, level))
    if verbose:
        print_table("Findings", ["SERVER", "TOOL", "SEVERITY", "RULE", "FIELD", "MATCHED"], _findings(scans))
    if any(scan.flagged(level) for scan in scans):
        raise typer.Exit(1)
