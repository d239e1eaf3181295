"""Benchmark: the HTTP front with 32 concurrent clients, versus the same upstream directly.

Every table runs the same load twice against benchmarks/echo_http_server.py: once directly, once
through ``mcpwall serve --http`` with that server as its only (Streamable HTTP) upstream, default
policy. Columns: direct, through mcpwall, their ratio, and what mcpwall adds.

- httpx: 32 concurrent clients, each with its own MCP session (a Python load generator: it
  saturates before the servers do).
- With wrk installed, tools/call from 32 connections sharing one MCP session:

  - at a fixed offered load (each wrk thread paces its requests on a monotonic clock, open loop
    over its connections): 1,500 calls/s (the throughput target) and 3,000 calls/s. The latency
    mcpwall adds at that load; ``calls/s`` is the rate achieved, below the offered one only when
    the gateway cannot keep up;
  - closed loop (every connection sends its next call as soon as it has an answer): the
    saturation throughput; its latency is mostly queueing at the gateway's CPU;
  - one connection, closed loop: the latency mcpwall adds when nothing queues.

  ``cpu µs/call`` is the CPU time the servers used during the run (/proc: direct, the upstream;
  through mcpwall, the gateway and the upstream) per answered call: ``added`` is the gateway's
  CPU per call, the figure to compare between versions (wall clock is noisy on a shared machine).

Reproduce: .venv/bin/python benchmarks/bench_http.py [--clients 32] [--calls 200] [--seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
INIT = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
PACED_RATES = (1500, 3000)
WRK_THREADS = 2


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as attempt:
            if attempt.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


async def client(url: str, calls: int, tool: str, latencies: list[float]) -> None:
    async with httpx.AsyncClient(timeout=60, headers={"Accept": "application/json"}) as http:
        first = await http.post(url, json=INIT)
        session = {"mcp-session-id": first.headers.get("mcp-session-id", "")}
        await http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=session)
        await http.post(url, json={"jsonrpc": "2.0", "id": "l", "method": "tools/list"}, headers=session)
        for i in range(calls):
            body = {
                "jsonrpc": "2.0",
                "id": i,
                "method": "tools/call",
                "params": {"name": tool, "arguments": {"text": f"hi {i}"}},
            }
            started = time.perf_counter()
            answer = await http.post(url, json=body, headers=session)
            latencies.append(time.perf_counter() - started)
            assert "result" in answer.json(), answer.text[:200]


async def load(url: str, clients: int, calls: int, tool: str) -> dict[str, float]:
    latencies: list[float] = []
    started = time.perf_counter()
    await asyncio.gather(*(client(url, calls, tool, latencies) for _ in range(clients)))
    elapsed = time.perf_counter() - started
    ordered = sorted(latencies)
    return {
        "calls/s": len(latencies) / elapsed,
        "p50 ms": ordered[len(ordered) // 2] * 1000,
        "p99 ms": ordered[int(len(ordered) * 0.99)] * 1000,
        "mean ms": statistics.fmean(latencies) * 1000,
    }


WRK_SCRIPT = """
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local counter = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json"
wrk.headers["mcp-session-id"] = "%s"
request = function()
  counter = counter + 1
  local call = '","method":"tools/call","params":{"name":"%s","arguments":{"text":"hi"}}}'
  local body = '{"jsonrpc":"2.0","id":"' .. tid .. "-" .. counter .. call
  return wrk.format(nil, nil, nil, body)
end
"""

PACING = """
-- a fixed offered load: this thread's next request is due every INTERVAL ms on a monotonic
-- clock, whichever of its connections is free (wrk's own clock is not visible from Lua)
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clock, bench_timespec *now);
]]
local clock = ffi.new("bench_timespec")
local interval = %.4f
local due = nil
local function now_ms()
  ffi.C.clock_gettime(1, clock)
  return tonumber(clock.tv_sec) * 1000 + tonumber(clock.tv_nsec) / 1e6
end
function delay()
  local now = now_ms()
  if due == nil or due < now - interval then
    due = now -- more than one slot behind: carry on from now, no catch-up burst
  end
  local wait = due - now
  due = due + interval
  return wait
end
"""


@dataclass(frozen=True)
class Load:
    """One wrk run: connections, and the offered calls/s (None: closed loop)."""

    connections: int
    rate: int | None = None


def with_wrk(url: str, tool: str, load: Load, seconds: int, workdir: Path, pids: list[int]) -> dict[str, float]:
    """tools/call from wrk (C, 2 threads): the Python load generator saturates before a fast
    upstream does. ``pids``: the server processes whose CPU time is counted."""
    with httpx.Client(timeout=30, headers={"Accept": "application/json"}) as http:
        session = http.post(url, json=INIT).headers.get("mcp-session-id", "")
        http.post(url, json={"jsonrpc": "2.0", "id": "l", "method": "tools/list"}, headers={"mcp-session-id": session})
    threads = min(WRK_THREADS, load.connections)
    script = workdir / f"wrk-{tool}-{load.connections}-{load.rate}.lua"
    pacing = PACING % (1000.0 * threads / load.rate) if load.rate else ""
    script.write_text(WRK_SCRIPT % (session, tool) + pacing, encoding="utf-8")
    argv = ["wrk", f"-t{threads}", f"-c{load.connections}", f"-d{seconds}s", "--latency", "-s", str(script), url]
    cpu_before = cpu_seconds(pids)
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    cpu = cpu_seconds(pids) - cpu_before
    failed = _count(out, r"Non-2xx or 3xx responses: (\d+)") + sum(
        int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out)
    )
    if failed:
        print(f"warning: {failed} failed requests in the wrk run against {url} ({load})", file=sys.stderr)
    calls = _count(out, r"(\d+) requests in")
    return {
        "calls/s": _number(out, "Requests/sec:"),
        "p50 ms": _ms(out, "50%"),
        "p99 ms": _ms(out, "99%"),
        "cpu µs/call": cpu / max(calls, 1) * 1e6,
    }


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time of these processes so far (Linux /proc)."""
    ticks = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return ticks / os.sysconf("SC_CLK_TCK")


def _count(text: str, pattern: str) -> int:
    found = re.search(pattern, text)
    return int(found.group(1)) if found else 0


def _number(text: str, label: str) -> float:
    return float(next(line.split()[1] for line in text.splitlines() if line.strip().startswith(label)))


def _ms(text: str, label: str) -> float:
    raw = next(line.split()[1] for line in text.splitlines() if line.strip().startswith(label))
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}
    unit = next(u for u in ("us", "ms", "s") if raw.endswith(u))
    return float(raw[: -len(unit)]) * scale[unit]


def table(title: str, direct: dict[str, float], gated: dict[str, float]) -> None:
    print(title)
    print(f"{'metric':14} {'direct':>10} {'mcpwall':>10} {'ratio':>8} {'added':>10}")
    for key in direct:
        d, g = direct[key], gated[key]
        ratio = f"{g / d:8.2f}" if d else f"{'-':>8}"
        print(f"{key:14} {d:10.2f} {g:10.2f} {ratio} {g - d:10.2f}")


def wrk_loads(clients: int) -> dict[str, Load]:
    """The wrk runs, by their table's title."""
    loads = {
        f"{clients} connections at a fixed {rate:,} calls/s offered: the latency mcpwall adds at that load": Load(
            clients, rate
        )
        for rate in PACED_RATES
    }
    loads[f"{clients} connections, closed loop: saturation throughput (latency here is queueing)"] = Load(clients)
    loads["1 connection, closed loop: the latency mcpwall adds when nothing queues"] = Load(1)
    return loads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--seconds", type=int, default=10, help="duration of each wrk run")
    args = parser.parse_args()
    has_wrk = subprocess.run(["which", "wrk"], capture_output=True, check=False).returncode == 0
    upstream_port, gateway_port = free_port(), free_port()
    upstream = subprocess.Popen([sys.executable, str(HERE / "echo_http_server.py"), str(upstream_port)])
    wrk_tables: dict[str, tuple[dict[str, float], dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as state:
        config = Path(state) / "bench.yaml"
        config.write_text(f"servers:\n  echo:\n    url: http://127.0.0.1:{upstream_port}/mcp\n", encoding="utf-8")
        env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/"), "MCPWALL_STATE_DIR": state}
        argv = [
            sys.executable,
            "-m",
            "mcpwall",
            "serve",
            "--config",
            str(config),
            "--http",
            f"127.0.0.1:{gateway_port}",
        ]
        gateway = subprocess.Popen(argv, env=env)
        try:
            wait_for(upstream_port)
            wait_for(gateway_port)
            direct_url, gated_url = f"http://127.0.0.1:{upstream_port}/mcp", f"http://127.0.0.1:{gateway_port}/mcp"
            direct = asyncio.run(load(direct_url, args.clients, args.calls, "echo"))
            gated = asyncio.run(load(gated_url, args.clients, args.calls, "echo__echo"))
            for title, wrk_load in wrk_loads(args.clients).items() if has_wrk else ():
                wrk_tables[title] = (
                    with_wrk(direct_url, "echo", wrk_load, args.seconds, Path(state), [upstream.pid]),
                    with_wrk(gated_url, "echo__echo", wrk_load, args.seconds, Path(state), [gateway.pid, upstream.pid]),
                )
        finally:
            gateway.terminate()
            gateway.wait(30)
            upstream.terminate()
            upstream.wait(30)
    table(f"httpx load generator: {args.clients} concurrent clients x {args.calls} tools/call each", direct, gated)
    for title, (wrk_direct, wrk_gated) in wrk_tables.items():
        table(f"wrk, {args.seconds} s, one MCP session: {title}", wrk_direct, wrk_gated)


if __name__ == "__main__":
    main()
