"""Benchmark: the first tools/list round trip of a real server, directly and through mcpwall run.

A client starts the PyPI server ``mcp-server-git`` (12 tools) on a fresh git repository, sends
``initialize``, waits for the answer, sends ``notifications/initialized``, then times the first
``tools/list`` round trip: once against the server directly, once through ``mcpwall run`` with
a fresh state directory (first sight: every tool is inspected and pinned), and once through
``mcpwall run`` with the pins already there (the daily case). Each variant runs in new processes
``--runs`` times; the table shows medians. This is the latency a user's client sees on the
listing, including what mcpwall does once per process (compiling the rules that listing needs).

Reproduce: .venv/bin/python benchmarks/bench_listing.py [--runs 7]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_relay import LIST, Peer, child_env, compile_bytecode

INITIALIZED = b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
INIT = (
    b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
    b'"capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}\n'
)


def server_command(repository: Path) -> list[str]:
    found = shutil.which("mcp-server-git", path=str(Path(sys.executable).parent)) or shutil.which("mcp-server-git")
    if found is None:
        sys.exit("mcp-server-git is not installed: install the dev extras (./scripts/test does)")
    return [found, "--repository", str(repository)]


def first_listing_ms(argv: list[str], env: dict[str, str]) -> float:
    """Milliseconds of the first tools/list round trip after the handshake."""
    peer = Peer(argv, env)
    peer.stdin.write(INIT)
    peer.reader.readline()
    peer.stdin.write(INITIALIZED)
    started = time.perf_counter()
    peer.stdin.write(LIST)
    answer = peer.reader.readline()
    elapsed = (time.perf_counter() - started) * 1000
    assert b'"tools"' in answer, f"the listing was not answered with tools: {answer[:200]!r}"
    peer.close()
    return elapsed


def main() -> None:
    compile_bytecode()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        repository = Path(work) / "repo"
        subprocess.run(["git", "init", "-q", str(repository)], check=True)
        server = server_command(repository)
        base = child_env()
        wall = [sys.executable, "-m", "mcpwall", "run", "--", *server]
        warm_state = str(Path(work) / "warm")
        first_listing_ms(wall, {**base, "MCPWALL_STATE_DIR": warm_state})  # pins the tools once
        results: dict[str, list[float]] = {"direct": [], "mcpwall, first sight": [], "mcpwall, pinned": []}
        for run in range(args.runs):
            results["direct"].append(first_listing_ms(server, base))
            fresh = {**base, "MCPWALL_STATE_DIR": str(Path(work) / f"fresh{run}")}
            results["mcpwall, first sight"].append(first_listing_ms(wall, fresh))
            results["mcpwall, pinned"].append(first_listing_ms(wall, {**base, "MCPWALL_STATE_DIR": warm_state}))
    direct = statistics.median(results["direct"])
    print(f"first tools/list of mcp-server-git (12 tools), median of {args.runs} new processes each")
    print(f"{'variant':24} {'median ms':>10} {'added ms':>10} {'ratio':>8}")
    for name, values in results.items():
        median = statistics.median(values)
        print(f"{name:24} {median:10.2f} {median - direct:10.2f} {median / direct:8.2f}")
    print("added and ratio: versus direct, in this run (target: added <= 5 ms)")


if __name__ == "__main__":
    main()
