"""Benchmark: what the argument check (armor) adds to the pipeline decision of one tools/call.

For each typical call, times ``Pipeline.decide_call`` with every default check (tool lists,
inspection, gatekeeper, armor) and with the same checks minus the armor's ``ArgumentCheck``,
alternating call by call in one run so that both see the same machine state. Cases:

- a path argument (``{"path": "/data/x.txt"}``) with ``allowed_paths``;
- a URL argument with ``allowed_domains``;
- a command line with ``commands`` (base command and subcommand allowlist);
- one call with all three arguments, under all three policies (a heavy case, outside the
  target).

Every case passes (no violation): the cost of a refusal is not on the common path. The table
gives p50 and p99 in µs per decision without (w/o) and with the armor, what the armor adds
(+p50, +p99: differences of the percentiles) and the p50 ratio with/without. Target: at most
50 µs added at p50 for a typical (one-argument) call.

Reproduce: .venv/bin/python benchmarks/bench_arguments.py [--calls 20000]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcpwall.armor.argument_check import ArgumentCheck
from mcpwall.armor.settings import ArmorSettings
from mcpwall.armor.tool_lists import ToolLists
from mcpwall.gatekeeper.settings import GatekeeperSettings
from mcpwall.inspection.review import Review
from mcpwall.mcp import SessionFacts, ToolCall
from mcpwall.pipeline import Context, Pipeline
from mcpwall.pipeline.order import default_checks

TARGET_ADDED_P50_US = 50.0
WARMUP = 500


@dataclass(frozen=True, slots=True)
class Case:
    """One typical call and the armor policy it is checked against."""

    label: str
    tool: str
    arguments: dict[str, Any]
    armor: dict[str, Any]
    typical: bool = True


PATHS = {"allowed_paths": ["/data", "/srv/projects"]}
DOMAINS = {"allowed_domains": ["github.com", "*.github.com", "pypi.org"]}
COMMANDS = {"commands": {"git": ["status", "log", "diff", "show"], "ls": []}}

CASES = (
    Case("path, allowed_paths", "read_file", {"path": "/data/x.txt"}, PATHS),
    Case("URL, allowed_domains", "fetch", {"url": "https://api.github.com/repos/o/r/issues?page=2"}, DOMAINS),
    Case("command line, commands", "run_command", {"command": "git log --oneline -n 20"}, COMMANDS),
    Case(
        "path + URL + command, all three",
        "run_command",
        {"path": "/srv/projects/app", "url": "https://pypi.org/simple/", "command": "git status --short"},
        {**PATHS, **DOMAINS, **COMMANDS},
        typical=False,
    ),
)


def pipelines(case: Case) -> tuple[Pipeline, Pipeline]:
    """The default pipeline for the case's policy, and the same without the argument check."""
    armor = ArmorSettings.model_validate(case.armor)
    checks = default_checks(ToolLists(), armor, GatekeeperSettings())
    without = [check for check in checks if not isinstance(check, ArgumentCheck)]
    assert len(without) == len(checks) - 1
    return Pipeline(checks), Pipeline(without)


def context(tool: str, definition: Mapping[str, Any]) -> Context:
    """A session in which ``tool`` is listed, pinned and not blocked."""
    review = Review(tool, "0" * 64, "unchanged", None, blocked=False)
    return Context("bench", "bench-session", SessionFacts(), {tool: definition}, {tool: review})


def measure(case: Case, calls: int) -> tuple[list[float], list[float]]:
    """Per-decision times in µs, with and without the armor, alternating call by call."""
    full, bare = pipelines(case)
    call = ToolCall(request_id=1, name=case.tool, arguments=case.arguments)
    ctx = context(case.tool, {"name": case.tool, "inputSchema": {"type": "object"}})
    assert not full.decide_call(call, ctx).denied, full.decide_call(call, ctx)
    with_armor: list[float] = []
    without_armor: list[float] = []
    clock = time.perf_counter_ns
    for index in range(WARMUP + calls):
        start = clock()
        full.decide_call(call, ctx)
        middle = clock()
        bare.decide_call(call, ctx)
        end = clock()
        if index >= WARMUP:
            with_armor.append((middle - start) / 1000)
            without_armor.append((end - middle) / 1000)
    return with_armor, without_armor


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile (0.5 = median) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def row(case: Case, with_armor: list[float], without_armor: list[float]) -> tuple[str, float]:
    """A table row and the p50 the armor added."""
    p50_with, p50_without = statistics.median(with_armor), statistics.median(without_armor)
    p99_with, p99_without = percentile(with_armor, 0.99), percentile(without_armor, 0.99)
    added = p50_with - p50_without
    cells = (
        f"| {case.label:<32} | {p50_without:7.1f} | {p99_without:7.1f} | {p50_with:8.1f} | {p99_with:8.1f} "
        f"| {added:7.1f} | {p99_with - p99_without:7.1f} | {p50_with / p50_without:5.2f}x |"
    )
    return cells, added


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--calls", type=int, default=20000, help="timed decisions per case and variant")
    args = parser.parse_args()
    print(f"Pipeline.decide_call, µs per decision ({args.calls} calls per case and variant)\n")
    print(f"| {'case':<32} | w/o p50 | w/o p99 | with p50 | with p99 | +p50    | +p99    | ratio  |")
    print(f"|{'-' * 34}|---------|---------|----------|----------|---------|---------|--------|")
    worst = 0.0
    for case in CASES:
        cells, added = row(case, *measure(case, args.calls))
        worst = max(worst, added) if case.typical else worst
        print(cells)
    verdict = "meets" if worst <= TARGET_ADDED_P50_US else "MISSES"
    target = f"{TARGET_ADDED_P50_US:.0f} µs"
    print(f"\ntypical calls (one argument): at most {worst:.1f} µs added at p50; {verdict} the {target} target")


if __name__ == "__main__":
    main()
