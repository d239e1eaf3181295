"""Benchmark: inspecting and pinning a tools/list result, in process, cold and warm.

Builds a 1,000-tool listing from the real ``tools/list`` captures in a servers directory (each
``*.json`` holds ``tools``; they are repeated with suffixed names until there are 1,000 distinct
definitions) and times ``ToolReviewer.review`` with ``time.perf_counter``:

- cold: first sight (empty store, empty findings cache, every detector memo forgotten):
  detector + the pin writes (one transaction); the findings registry rows are written by a
  background thread after ``review`` returns (off the listing's path), so they are not in it;
- the findings registry write of the cold listing (what that background thread does, timed alone);
- second sight: every pin settles from ``new`` to ``unchanged`` (one write per tool, once);
- warm store, cold cache: the same listing again after the cache and the detector memos were
  cleared (detector, no writes);
- warm: the same listing again (definition hash + cache lookup + pin read, no writes);
- the audit flush of the ``mcp_tool_seen`` events one review queues (what the gateway writes
  before it forwards the listing);
- the latency added to the tools/list round trip of a typical server (the 12-tool
  mcp-server-git listing), cold and warm;
- the typical server's first listing in a new process: the catalog just loaded, so the regexes
  of the rules its strings can match are compiled then (each rule compiles on first use);
- the once-per-process set-up a session pays before its first listing (outside the rows above,
  as in the gateway, which builds its reviewer at start-up): loading the catalog and the
  requirements table and building the literal prefilter, with ``re``'s pattern cache purged.

Reproduce: .venv/bin/python benchmarks/bench_inspection.py ../shared/servers [--repeat 20]
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from mcpwall.audit import AuditChain, Auditor
from mcpwall.inspection.cache import SHARED_CACHE
from mcpwall.inspection.catalog import builtin_rules, compile_rules
from mcpwall.inspection.memo import forget, recall_for
from mcpwall.inspection.requirements import packaged_table
from mcpwall.inspection.review import ToolReviewer
from mcpwall.inspection.settings import InspectionSettings
from mcpwall.store import SqliteStore

TARGET_TOOLS = 1000
TYPICAL_SERVER = "mcp-server-git"


def load_tools(servers: Path) -> dict[str, list[dict[str, Any]]]:
    """Every capture's tools, by server file stem."""
    found = {}
    for path in sorted(servers.glob("*.json")):
        tools = orjson.loads(path.read_bytes()).get("tools") or []
        found[path.stem] = [tool for tool in tools if isinstance(tool, dict)]
    return found


def thousand(by_server: dict[str, list[dict[str, Any]]], count: int = TARGET_TOOLS) -> list[dict[str, Any]]:
    """``count`` distinct tools: the real ones, then copies with ``_2``, ``_3``... name suffixes."""
    pool = [tool for tools in by_server.values() for tool in tools]
    listing = []
    for index in range(count):
        tool = dict(pool[index % len(pool)])
        round_ = index // len(pool)
        if round_:
            tool["name"] = f"{tool['name']}_{round_ + 1}"
        listing.append(tool)
    return listing


class Bench:
    """A scratch state directory: store, audit chain, reviewers."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.runs = 0

    def reviewer(self, store: SqliteStore, server: str) -> ToolReviewer:
        chain = AuditChain(self.root / "audit.jsonl")
        return ToolReviewer(store, server, InspectionSettings(), Auditor(chain, session="bench", server=server))

    def sight(self, store: SqliteStore, tools: list[dict[str, Any]]) -> None:
        """An untimed review, its registry write finished."""
        reviewer = self.reviewer(store, "bench")
        reviewer.review(tools)
        reviewer.settle()

    def fresh_store(self) -> SqliteStore:
        self.runs += 1
        return SqliteStore(self.root / f"state-{self.runs}.db")


def timed(action: Callable[[], object]) -> float:
    """Seconds one call of ``action`` took."""
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def first_sight() -> None:
    """Forget what the detector saw: findings by definition, and every string, part and match memo."""
    SHARED_CACHE.clear()
    forget()


def cold(bench: Bench, tools: list[dict[str, Any]], repeat: int) -> list[float]:
    """First sight: a fresh store, an empty findings cache and empty detector memos each time."""
    times = []
    for _ in range(repeat):
        with bench.fresh_store() as store:
            first_sight()
            reviewer = bench.reviewer(store, "bench")
            times.append(timed(lambda r=reviewer: r.review(tools)))  # type: ignore[misc] # default binds the loop's reviewer
            reviewer.settle()  # the registry write, off the timed path
    return times


def registry_write(bench: Bench, tools: list[dict[str, Any]], repeat: int) -> list[float]:
    """The findings registry rows of a cold listing, written into a fresh store."""
    with bench.fresh_store() as store:
        first_sight()
        reviewer = bench.reviewer(store, "bench")
        digests = [review.hash for review in reviewer.review(tools).values()]
        reviewer.settle()
        key = reviewer.inspector.registry_key
        rows = [(key, digest, text) for digest, text in store.known_findings(key, digests).items()]
    times = []
    for _ in range(repeat):
        with bench.fresh_store() as store:
            times.append(timed(lambda s=store: s.remember_findings(rows)))  # type: ignore[misc] # as in `cold`
    return times


def new_process(bench: Bench, tools: list[dict[str, Any]], repeat: int) -> list[float]:
    """First sight in a new process: the catalog freshly loaded, no regex compiled yet."""
    times = []
    for _ in range(repeat):
        with bench.fresh_store() as store:
            first_sight()
            builtin_rules.cache_clear()
            re.purge()
            reviewer = bench.reviewer(store, "bench")
            times.append(timed(lambda r=reviewer: r.review(tools)))  # type: ignore[misc] # as in `cold`
            reviewer.settle()
    return times


def second_sight(bench: Bench, tools: list[dict[str, Any]], repeat: int) -> list[float]:
    """The listing seen a second time: every pin goes from ``new`` to ``unchanged`` (one write each)."""
    times = []
    for _ in range(repeat):
        with bench.fresh_store() as store:
            bench.sight(store, tools)
            reviewer = bench.reviewer(store, "bench")
            times.append(timed(lambda r=reviewer: r.review(tools)))  # type: ignore[misc] # as above
    return times


def warm(bench: Bench, tools: list[dict[str, Any]], repeat: int, *, clear_cache: bool = False) -> list[float]:
    """The same listing again, in a new session (new reviewer), once its pins are settled."""
    times = []
    with bench.fresh_store() as store:
        first_sight()  # so that this store's findings registry is written (a warm cache writes none)
        for _ in range(2):  # first sight pins as new, second sight settles them as unchanged
            bench.sight(store, tools)
        for _ in range(repeat):
            if clear_cache:
                first_sight()
            reviewer = bench.reviewer(store, "bench")
            times.append(timed(lambda r=reviewer: r.review(tools)))  # type: ignore[misc] # as above
    return times


def audit_flush(bench: Bench, tools: list[dict[str, Any]], repeat: int) -> list[float]:
    """Writing the events one warm review queued (mcp_tool_seen per tool)."""
    times = []
    with bench.fresh_store() as store:
        for _ in range(2):
            bench.sight(store, tools)
        for _ in range(repeat):
            reviewer = bench.reviewer(store, "bench")
            reviewer.review(tools)
            times.append(timed(reviewer.audit.flush))
    return times


def rule_set_setup(repeat: int) -> list[float]:
    """Loading the catalog and requirements table and building the prefilter, as a new process does."""
    times = []
    for _ in range(repeat):
        builtin_rules.cache_clear()
        packaged_table.cache_clear()
        re.purge()
        times.append(timed(lambda: recall_for(compile_rules())))
    return times


def ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):9.2f}"


def row(label: str, values: list[float], tools: int) -> str:
    per_tool = 1e6 * statistics.median(values) / tools
    return f"| {label:<44} | {tools:5d} | {ms(values)} ms | {per_tool:9.1f} µs |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("servers", type=Path, help="directory of tools/list captures (*.json)")
    parser.add_argument("--repeat", type=int, default=20, help="warm repetitions (cold: a fifth, at least 3)")
    args = parser.parse_args()
    by_server = load_tools(args.servers)
    tools = thousand(by_server)
    typical = by_server.get(TYPICAL_SERVER) or next(iter(by_server.values()))
    few = max(3, args.repeat // 5)
    with tempfile.TemporaryDirectory() as scratch:
        bench = Bench(Path(scratch))
        rows = [
            row("1,000 tools, cold (first sight, empty store)", cold(bench, tools, few), len(tools)),
            row("1,000 tools, registry write (background)", registry_write(bench, tools, few), len(tools)),
            row("1,000 tools, second sight (new -> unchanged)", second_sight(bench, tools, few), len(tools)),
            row("1,000 tools, warm store, cleared cache", warm(bench, tools, few, clear_cache=True), len(tools)),
            row("1,000 tools, warm (same list again)", warm(bench, tools, args.repeat), len(tools)),
            row("1,000 tools, audit flush of one review", audit_flush(bench, tools, few), len(tools)),
            row(f"{TYPICAL_SERVER} tools/list, cold", cold(bench, typical, args.repeat), len(typical)),
            row(f"{TYPICAL_SERVER} tools/list, warm", warm(bench, typical, args.repeat), len(typical)),
            row(f"{TYPICAL_SERVER} tools/list, new process", new_process(bench, typical, few), len(typical)),
            row("set-up once per process: catalog + prefilter", rule_set_setup(few), 1),
        ]
    print(f"| {'case':<44} | tools | median       | per tool     |")
    print(f"|{'-' * 46}|-------|--------------|--------------|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
