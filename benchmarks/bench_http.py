"""Benchmark: the HTTP front with 32 concurrent clients, versus the same upstream directly.

Both runs use the same load generator (httpx, one process, 32 concurrent clients each with its
own MCP session) against benchmarks/echo_http_server.py: once directly, once through
``mcpwall serve --http`` with that server as its only (Streamable HTTP) upstream, default policy.

With wrk installed, the same tools/call load also comes from wrk (32 connections, one MCP session),
and once more from a single connection: the latency mcpwall adds when nothing queues.

Reproduce: .venv/bin/python benchmarks/bench_http.py [--clients 32] [--calls 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
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


def with_wrk(url: str, tool: str, clients: int, seconds: int, workdir: Path) -> dict[str, float] | None:
    """The same load from wrk (C, 2 threads), when it is installed: the Python load generator
    saturates before a fast upstream does."""
    if subprocess.run(["which", "wrk"], capture_output=True, check=False).returncode != 0:
        return None
    with httpx.Client(timeout=30, headers={"Accept": "application/json"}) as http:
        session = http.post(url, json=INIT).headers.get("mcp-session-id", "")
        http.post(url, json={"jsonrpc": "2.0", "id": "l", "method": "tools/list"}, headers={"mcp-session-id": session})
    script = workdir / f"wrk-{tool}.lua"
    script.write_text(WRK_SCRIPT % (session, tool), encoding="utf-8")
    argv = ["wrk", f"-t{min(2, clients)}", f"-c{clients}", f"-d{seconds}s", "--latency", "-s", str(script), url]
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    return {"calls/s": _number(out, "Requests/sec:"), "p50 ms": _ms(out, "50%"), "p99 ms": _ms(out, "99%")}


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
        print(f"{key:14} {d:10.2f} {g:10.2f} {g / d:8.2f} {g - d:10.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--seconds", type=int, default=10, help="duration of the wrk runs")
    args = parser.parse_args()
    upstream_port, gateway_port = free_port(), free_port()
    upstream = subprocess.Popen([sys.executable, str(HERE / "echo_http_server.py"), str(upstream_port)])
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
            wrk_direct = with_wrk(direct_url, "echo", args.clients, args.seconds, Path(state))
            wrk_gated = with_wrk(gated_url, "echo__echo", args.clients, args.seconds, Path(state))
            alone_direct = with_wrk(direct_url, "echo", 1, args.seconds, Path(state))
            alone_gated = with_wrk(gated_url, "echo__echo", 1, args.seconds, Path(state))
        finally:
            gateway.terminate()
            gateway.wait(30)
            upstream.terminate()
            upstream.wait(30)
    table(f"httpx load generator: {args.clients} concurrent clients x {args.calls} tools/call each", direct, gated)
    if wrk_direct and wrk_gated:
        table(f"wrk: {args.clients} connections, {args.seconds} s, one MCP session", wrk_direct, wrk_gated)
    if alone_direct and alone_gated:
        title = f"wrk: 1 connection, {args.seconds} s (the latency mcpwall adds, without queueing)"
        table(title, alone_direct, alone_gated)


if __name__ == "__main__":
    main()
