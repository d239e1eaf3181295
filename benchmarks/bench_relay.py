"""Benchmark: mcpwall run versus the same server directly, in one run.

Measures, against benchmarks/echo_server.py:
- sequential tools/call round trips (p50, p99), direct and through mcpwall;
- pipelined throughput (N calls written at once, time until all answers are read);
- mcpwall's start-up: from spawning `mcpwall run` to the first forwarded answer (versus the
  server alone);
- mcpwall's peak RSS (VmHWM of the mcpwall process);
- CPU time per call of the process on the client's side (the server itself for ``direct``, the
  relay for ``bare`` and ``mcpwall``; its server child not counted), sequential and pipelined:
  on-CPU nanoseconds from /proc (schedstat), which other load on the machine disturbs far less
  than the wall-clock figures.

A third column, ``bare``, runs the same server behind benchmarks/bare_relay.py: mcpwall's own
transports and framing forwarding lines with no parsing, checks or audit. It separates what the
relay architecture costs from what mcpwall's per-call work (checks, audit records) costs.
A fourth, ``floor``, runs benchmarks/floor_relay.py: the bare relay plus only what issue 2's wire
and audit rules require of every call (parse each line once, forward the serialization of the
parsed object, three hash-chained audit lines per call). Its pipelined figure is the ceiling any
Python implementation of those rules reaches on this machine with this architecture.

mcpwall runs with its default configuration (every check on: tool lists, inspection and
pinning, gatekeeper, armor, audit); the echo tool is a read, so it is auto-approved.

Reproduce: .venv/bin/python benchmarks/bench_relay.py [--calls 5000] [--pipelined 20000]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO

HERE = Path(__file__).resolve().parent
ECHO = [sys.executable, str(HERE / "echo_server.py")]
INIT = (
    b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
    b'"capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}\n'
    b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
)
LIST = b'{"jsonrpc":"2.0","id":"list","method":"tools/list"}\n'  # clients list before they call


def call_line(i: int) -> bytes:
    return (
        b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello %d"}}}\n'
        % (i, i)
    )


def child_env(**extra: str) -> dict[str, str]:
    """A minimal environment for the processes measured: PATH and HOME, and PYTHONPATH when set (an
    A/B run with ``PYTHONPATH=<worktree>/src`` then measures that tree in the children too)."""
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/")}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env | extra


class Peer:
    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, bufsize=0)
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        self.stdin: IO[bytes] = self.proc.stdin
        self.stdout: IO[bytes] = self.proc.stdout
        self.reader = os.fdopen(os.dup(self.stdout.fileno()), "rb")

    def handshake(self) -> float:
        self.stdin.write(INIT)
        self.reader.readline()
        elapsed = time.perf_counter() - self.started
        self.stdin.write(LIST)
        self.reader.readline()
        return elapsed

    def check_answers(self) -> None:
        self.stdin.write(call_line(1))
        answer = self.reader.readline()
        assert b'"result"' in answer, f"the benchmark call was not answered with a result: {answer[:200]!r}"

    def round_trip(self, i: int) -> float:
        t0 = time.perf_counter()
        self.stdin.write(call_line(i))
        self.reader.readline()
        return time.perf_counter() - t0

    def pipelined(self, n: int) -> float:
        payload = b"".join(call_line(i) for i in range(10_000_000, 10_000_000 + n))
        t0 = time.perf_counter()
        import threading

        writer = threading.Thread(target=self.stdin.write, args=(payload,))
        writer.start()
        for _ in range(n):
            self.reader.readline()
        writer.join()
        return time.perf_counter() - t0

    def cpu_ns(self) -> int:
        """On-CPU time of the process's threads so far, in nanoseconds (/proc/PID/task/*/schedstat)."""
        total = 0
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            with contextlib.suppress(OSError):  # a thread that just ended
                total += int((task / "schedstat").read_text(encoding="ascii").split()[0])
        return total

    def peak_rss_mb(self) -> float:
        status = Path(f"/proc/{self.proc.pid}/status").read_text(encoding="utf-8")
        line = next(x for x in status.splitlines() if x.startswith("VmHWM:"))
        return int(line.split()[1]) / 1024

    def close(self) -> None:
        self.stdin.close()
        self.proc.wait(timeout=30)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(argv: list[str], env: dict[str, str], calls: int, pipelined: int) -> dict[str, float]:
    peer = Peer(argv, env)
    startup = peer.handshake()
    peer.check_answers()
    for i in range(200):
        peer.round_trip(i)
    cpu_before = peer.cpu_ns()
    samples = [peer.round_trip(1000 + i) for i in range(calls)]
    cpu_sequential = peer.cpu_ns()
    seconds = peer.pipelined(pipelined)
    cpu_pipelined = peer.cpu_ns()
    rss = peer.peak_rss_mb()
    peer.close()
    return {
        "startup_ms": startup * 1000,
        "p50_ms": pct(samples, 0.50) * 1000,
        "p99_ms": pct(samples, 0.99) * 1000,
        "mean_ms": statistics.fmean(samples) * 1000,
        "throughput": pipelined / seconds,
        "cpu_sequential_us": (cpu_sequential - cpu_before) / calls / 1000,
        "cpu_pipelined_us": (cpu_pipelined - cpu_sequential) / pipelined / 1000,
        "rss_mb": rss,
    }


def compile_bytecode() -> None:
    """Write mcpwall's bytecode first, as an installed package has it (PYTHONDONTWRITEBYTECODE
    would otherwise make every start compile every module from source)."""
    import compileall

    import mcpwall

    compileall.compile_dir(Path(mcpwall.__file__).parent, quiet=1)


def main() -> None:
    compile_bytecode()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--pipelined", type=int, default=20000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as state:
        env = child_env(MCPWALL_STATE_DIR=state)
        wall = [sys.executable, "-m", "mcpwall", "run", "--", *ECHO]
        bare_argv = [sys.executable, str(HERE / "bare_relay.py"), "--", *ECHO]
        floor_argv = [sys.executable, str(HERE / "floor_relay.py"), str(Path(state) / "floor.jsonl"), "--", *ECHO]
        direct = measure(ECHO, env, args.calls, args.pipelined)
        bare = measure(bare_argv, env, args.calls, args.pipelined)
        floor = measure(floor_argv, env, args.calls, args.pipelined)
        gated = measure(wall, env, args.calls, args.pipelined)
        audit_lines = (Path(state) / "audit.jsonl").read_bytes().count(b"\n")
    rows = [
        ("round trip p50 (ms)", "p50_ms"),
        ("round trip p99 (ms)", "p99_ms"),
        ("round trip mean (ms)", "mean_ms"),
        ("pipelined calls/s", "throughput"),
        ("CPU per sequential call (µs)", "cpu_sequential_us"),
        ("CPU per pipelined call (µs)", "cpu_pipelined_us"),
        ("start-up to first answer (ms)", "startup_ms"),
        ("peak RSS (MB)", "rss_mb"),
    ]
    print(f"mcpwall run vs direct — echo server, {args.calls} sequential calls, {args.pipelined} pipelined")
    heads = ("direct", "bare", "floor", "mcpwall")
    print(f"{'metric':32} " + " ".join(f"{h:>10}" for h in heads) + f" {'floor/d':>8} {'ratio':>8} {'added':>10}")
    for label, key in rows:
        d, b, f, g = direct[key], bare[key], floor[key], gated[key]
        print(f"{label:32} {d:10.3f} {b:10.3f} {f:10.3f} {g:10.3f} {f / d:8.2f} {g / d:8.2f} {g - d:10.3f}")
    print("ratio and added: mcpwall versus direct; bare: the relay alone (benchmarks/bare_relay.py);")
    print("floor: the relay plus parse-once, re-serialize and 3 chained audit lines per call (floor_relay.py)")
    print(f"audit records written through mcpwall: {audit_lines}")


if __name__ == "__main__":
    main()
