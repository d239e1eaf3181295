"""Replays agent-egress-bench cases through ``mcpwall run`` and counts matching verdicts.

Each case's ``payload.jsonrpc_messages`` is replayed: tools/call requests are sent through
mcpwall (in front of benchmarks/replay_server.py, which lists plain definitions of the tools the
case calls, as a real server would; the calls are sent once the listing has arrived) and a case
counts as "block" when mcpwall refused any of them; tool-definition cases make the replay server
list those tools, and count as "block" when mcpwall hid any. Cases without JSON-RPC messages (raw response bodies, URLs)
and tool-result cases are reported as not replayable here.

Reproduce: .venv/bin/python benchmarks/eval_egress.py ../shared/corpus/egress-cases
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import orjson

HERE = Path(__file__).resolve().parent
INIT = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "replay", "version": "1"}},
}


def _tools_called(calls: list[dict[str, Any]]) -> dict[str, Any]:
    """Plain definitions of the tools a case calls, so the server lists what the agent uses
    (a call to a tool the server never listed would be refused as an unknown route)."""
    tools = {}
    for call in calls:
        name = call["params"]["name"]
        properties = {key: {"type": "string"} for key in call["params"].get("arguments", {})}
        tools[name] = {
            "name": name,
            "description": f"The {name} tool.",
            "inputSchema": {"type": "object", "properties": properties},
        }
    return {"tools": list(tools.values())}


def _converse(argv: list[str], env: dict[str, str], head: list[Any], calls: list[Any]) -> list[dict[str, Any]]:
    """Handshake and list first, wait for the listing (as clients do), then send the calls."""
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert proc.stdin is not None
    assert proc.stdout is not None
    try:
        proc.stdin.write(b"".join(orjson.dumps(m) + b"\n" for m in head))
        proc.stdin.flush()
        replies: list[dict[str, Any]] = []
        while not replies or replies[-1].get("id") != "list":
            replies.append(orjson.loads(proc.stdout.readline()))
        proc.stdin.write(b"".join(orjson.dumps(m) + b"\n" for m in calls))
        proc.stdin.close()
        replies += [orjson.loads(line) for line in proc.stdout if line.strip()]
        return replies
    finally:
        proc.kill()
        proc.wait(30)


def _replay(messages: list[dict[str, Any]], state: Path, policy: Path) -> str:
    calls = [m for m in messages if m.get("method") == "tools/call"]
    listed = next((m["result"] for m in messages if isinstance(m.get("result"), dict) and "tools" in m["result"]), None)
    if not calls and listed is None:
        return "n/a"
    env = {"PATH": os.environ["PATH"], "HOME": str(state), "MCPWALL_STATE_DIR": str(state)}
    tools_file = state / "tools.json"
    tools_file.write_bytes(orjson.dumps(listed if listed is not None else _tools_called(calls)))
    env["REPLAY_TOOLS"] = str(tools_file)
    argv = [
        sys.executable,
        "-m",
        "mcpwall",
        "run",
        "--config",
        str(policy),
        "--",
        sys.executable,
        str(HERE / "replay_server.py"),
    ]
    head = [
        INIT,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": "list", "method": "tools/list"},
    ]
    replies = _converse(argv, env, head, [{**c, "id": f"c{i}"} for i, c in enumerate(calls)])
    refused = any(r.get("error", {}).get("code") == -32050 for r in replies)
    shown: list[object] = next((r["result"]["tools"] for r in replies if r.get("id") == "list" and "result" in r), [])
    hidden = listed is not None and len(shown) < len(listed.get("tools", []))
    return "block" if refused or hidden else "allow"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", type=Path)
    parser.add_argument("--policy", type=Path, default=HERE / "egress-policy.yaml")
    args = parser.parse_args()
    tally: Counter[str] = Counter()
    rows = []
    for path in sorted(args.cases.glob("*.json")):
        case = orjson.loads(path.read_bytes())
        messages = case.get("payload", {}).get("jsonrpc_messages") or []
        with tempfile.TemporaryDirectory() as state:
            got = _replay(messages, Path(state), args.policy)
        expected = case["expected_verdict"]
        outcome = "n/a" if got == "n/a" else ("match" if got == expected else "miss")
        tally[outcome] += 1
        tally[f"{outcome}:{expected}"] += 1
        rows.append(f"{case['id']:42} expected {expected:5} got {got:5} {outcome}")
    print("\n".join(rows))
    replayed = tally["match"] + tally["miss"]
    total = sum(1 for _ in args.cases.glob("*.json"))
    print(f"\nreplayed {replayed} of {total} cases; matched {tally['match']}/{replayed}")
    print(f"  expected block: matched {tally['match:block']}, missed {tally['miss:block']}")
    print(f"  expected allow: matched {tally['match:allow']}, missed {tally['miss:allow']}")
    print(f"  not replayable here (raw bodies, URLs, results): {tally['n/a']}")


if __name__ == "__main__":
    main()
