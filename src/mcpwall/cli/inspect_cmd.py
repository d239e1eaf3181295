"""``mcpwall inspect FILE`` and ``mcpwall evaluate``: the detector on files, for people and CI.

``inspect`` reads a ``tools/list`` result, a JSON list of tools, or JSONL records with ``tool``
and ``id`` (``inspection.inspect_file``) and prints one row per tool, or with ``--json`` an
array of ``{"id", "name", "max_severity", "findings"}`` in input order. It exits 1 when any
tool has a finding at or above ``--threshold`` (default ``high``), so it can gate a CI job.

``evaluate`` is a separate command rather than an ``inspect --evaluate`` mode: it takes labelled
corpora instead of one file and prints measurements instead of per-tool verdicts, so it shares
neither inputs nor output with ``inspect``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import orjson
import typer

from mcpwall.cli.store_cmds import JsonOption, fail, print_table
from mcpwall.inspection import evaluate as run_evaluation
from mcpwall.inspection import inspect_file, render
from mcpwall.inspection.findings import Severity

MATCH_WIDTH = 60
"""Characters of matched text shown per finding in the table."""

ThresholdOption = Annotated[
    str, typer.Option("--threshold", help="Exit 1 when a finding reaches this: low, medium, high or critical.")
]


def parse_threshold(text: str) -> Severity:
    """The ``--threshold`` severity; exit 2 when it is not one.

    Args:
        text: ``low``, ``medium``, ``high`` or ``critical``.
    """
    try:
        return Severity.parse(text)
    except ValueError:
        fail(f"--threshold must be low, medium, high or critical, not {text!r}", code=2)


def reaches(report: dict[str, Any], threshold: Severity) -> bool:
    """Whether one tool report has a finding at or above ``threshold``."""
    worst = report.get("max_severity")
    return isinstance(worst, str) and Severity.parse(worst) >= threshold


def one_line(text: str, width: int = MATCH_WIDTH) -> str:
    """Text on one line (whitespace runs folded to a space), cut to ``width`` characters."""
    folded = " ".join(text.split())
    return folded if len(folded) <= width else folded[: width - 1] + "…"


def _finding_line(finding: dict[str, Any]) -> str:
    matched = one_line(str(finding.get("matched", "")))
    return f"{finding['severity']} {finding['rule']} @ {finding['field']}: {matched!r}"


def _rows(reports: list[dict[str, Any]]) -> list[list[str]]:
    rows = []
    for report in reports:
        findings = "\n".join(_finding_line(f) for f in report["findings"]) or "-"
        name = "-" if report["name"] is None else str(report["name"])
        rows.append([report["id"] or "-", name, report["max_severity"] or "-", findings])
    return rows


def inspect(
    file: Annotated[Path, typer.Argument(help="tools/list result, JSON list of tools, or JSONL records.")],
    as_json: JsonOption = False,
    threshold: ThresholdOption = "high",
) -> None:
    """Inspect tool definitions in a file; exit 1 when any reaches the threshold."""
    level = parse_threshold(threshold)
    try:
        reports = inspect_file(file)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        fail(f"cannot read {file}: {exc}", code=2)
    if as_json:
        typer.echo(orjson.dumps(reports, option=orjson.OPT_INDENT_2).decode())
    else:
        print_table(f"Inspection of {file.name}", ["ID", "TOOL", "MAX_SEVERITY", "FINDINGS"], _rows(reports))
    flagged = sum(reaches(report, level) for report in reports)
    typer.echo(f"{flagged} of {len(reports)} tools at or above {level.label}", err=True)
    if flagged:
        raise typer.Exit(1)


def evaluate(
    malicious: Annotated[
        list[Path], typer.Option("--malicious", help="JSONL corpus of poisoned definitions (repeatable).")
    ],
    benign: Annotated[list[Path], typer.Option("--benign", help="JSONL corpus of benign definitions (repeatable).")],
    servers: Annotated[
        Path | None, typer.Option("--servers", help="Directory of captured tools/list results (*.json).")
    ] = None,
    rules_only: Annotated[
        bool, typer.Option("--rules-only", help="Leave the learned model out: measure the rules alone.")
    ] = False,
) -> None:
    """Measure the detector: detection per source and category, false positives per tool and server."""
    try:
        report = run_evaluation(malicious, benign, servers, learned=not rules_only)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        fail(f"cannot read the corpus: {exc}", code=2)
    typer.echo(render(report))
