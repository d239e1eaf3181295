"""Measuring the detector: detection rate on poisoned definitions, false positives on real ones.

``evaluate(malicious, benign, servers_dir)`` reads JSONL corpora (records with ``id``,
``source``, ``category``, ``server`` and ``tool``) and the captured ``tools/list`` results of real
servers, and returns an :class:`EvaluationReport`; ``render(report)`` prints it. A definition
counts as flagged at severity high or above. Detection is given per source family and per
category; false positives per tool and per server (a server is flagged when any of its tools is;
records without a server are grouped by source).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcpwall.inspection.catalog import Rule, compile_rules
from mcpwall.inspection.detector import inspect_definition
from mcpwall.inspection.findings import Finding, Severity

THRESHOLD = Severity.HIGH
Tally = dict[str, list[int]]


@dataclass(slots=True)
class EvaluationReport:
    """Figures from one evaluation run. Tallies map a group to ``[flagged, total]``."""

    by_source: Tally = field(default_factory=dict)
    by_category: Tally = field(default_factory=dict)
    detected: list[int] = field(default_factory=lambda: [0, 0])
    missed: list[str] = field(default_factory=list)
    benign_tools: list[int] = field(default_factory=lambda: [0, 0])
    benign_servers: list[int] = field(default_factory=lambda: [0, 0])
    false_positives: list[tuple[str, str, str]] = field(default_factory=list)
    server_tools: int = 0
    server_flags: list[tuple[str, str, str]] = field(default_factory=list)


def source_family(source: str) -> str:
    """A short name for a record's source: its repository and first path component."""
    head, _, rest = source.partition(" ")
    return f"{head} {rest.split('/', 1)[0]}".strip()


def load_records(path: Path) -> list[dict[str, Any]]:
    """Read one JSONL corpus file."""
    with path.open(encoding="utf-8") as stream:
        return [json.loads(line) for line in stream if line.strip()]


def _top(findings: list[Finding]) -> Finding | None:
    return max(findings, key=lambda f: f.severity, default=None)


def _flag(tool: object, rules: tuple[Rule, ...], learned: bool) -> Finding | None:
    top = _top(inspect_definition("tool", tool, rules, learned=learned))
    return top if top is not None and top.severity >= THRESHOLD else None


def _count(tally: Tally, key: str, hit: bool) -> None:
    pair = tally.setdefault(key, [0, 0])
    pair[0] += hit
    pair[1] += 1


def _malicious(report: EvaluationReport, records: list[dict[str, Any]], rules: tuple[Rule, ...], learned: bool) -> None:
    for record in records:
        hit = _flag(record.get("tool"), rules, learned) is not None
        _count(report.by_source, source_family(str(record.get("source", ""))), hit)
        _count(report.by_category, str(record.get("category") or "(none)"), hit)
        report.detected[0] += hit
        report.detected[1] += 1
        if not hit:
            report.missed.append(str(record.get("id")))


def _benign(report: EvaluationReport, records: list[dict[str, Any]], rules: tuple[Rule, ...], learned: bool) -> None:
    servers: dict[str, bool] = defaultdict(bool)
    for record in records:
        top = _flag(record.get("tool"), rules, learned)
        group = record.get("server") or source_family(str(record.get("source", "")))
        servers[str(group)] |= top is not None
        report.benign_tools[0] += top is not None
        report.benign_tools[1] += 1
        if top is not None:
            report.false_positives.append((str(record.get("id")), top.rule, top.matched[:120]))
    report.benign_servers = [sum(servers.values()), len(servers)]


def _servers(report: EvaluationReport, servers_dir: Path, rules: tuple[Rule, ...], learned: bool) -> None:
    for path in sorted(servers_dir.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        instructions = document.get("instructions")
        if isinstance(instructions, str):
            top = _top(inspect_definition("instructions", instructions, rules))
            if top is not None and top.severity >= THRESHOLD:
                report.server_flags.append((path.stem, "(instructions)", top.rule))
        for tool in document.get("tools", []):
            report.server_tools += 1
            top = _flag(tool, rules, learned)
            if top is not None:
                report.server_flags.append((path.stem, str(tool.get("name")), top.rule))


def evaluate(
    malicious: list[Path],
    benign: list[Path],
    servers_dir: Path | None,
    rules: tuple[Rule, ...] | None = None,
    *,
    learned: bool = True,
) -> EvaluationReport:
    """Run the detector over labelled corpora and real server listings.

    Args:
        malicious: JSONL files of poisoned definitions.
        benign: JSONL files of benign definitions.
        servers_dir: directory of captured ``tools/list`` results (``*.json``), or None.
        rules: compiled rules; the built-in catalog when omitted.
        learned: consult the learned model too (False measures the rules alone).
    """
    active = rules if rules is not None else compile_rules()
    report = EvaluationReport()
    for path in malicious:
        _malicious(report, load_records(path), active, learned)
    for path in benign:
        _benign(report, load_records(path), active, learned)
    if servers_dir is not None:
        _servers(report, servers_dir, active, learned)
    return report


def _rate(pair: list[int]) -> str:
    flagged, total = pair
    percent = 100.0 * flagged / total if total else 0.0
    return f"{flagged}/{total} ({percent:.1f}%)"


def _table(title: str, tally: Tally) -> list[str]:
    width = max((len(k) for k in tally), default=0)
    return [title] + [f"  {key:<{width}}  {_rate(pair)}" for key, pair in sorted(tally.items())]


def render(report: EvaluationReport) -> str:
    """The report as text: detection, false positives, real-server flags."""
    lines = [f"detection at >= {THRESHOLD.label}: {_rate(report.detected)}"]
    lines += _table("by source:", report.by_source) + _table("by category:", report.by_category)
    lines.append("missed: " + (", ".join(report.missed) or "none"))
    lines.append(
        f"false positives at >= {THRESHOLD.label}: tools {_rate(report.benign_tools)}, "
        f"servers {_rate(report.benign_servers)}"
    )
    lines += [f"  {rid}  {rule}  {text!r}" for rid, rule, text in report.false_positives]
    lines.append(f"real servers: {len(report.server_flags)} of {report.server_tools} tools flagged")
    lines += [f"  {server}  {tool}  {rule}" for server, tool, rule in report.server_flags]
    return "\n".join(lines)
