"""Pipelined calls through ``mcpwall run``: read and decided in batches, audited first, order kept.

Also: two ``mcpwall run`` processes appending to one audit trail at once, and a client that goes
away with calls in flight.
"""

from __future__ import annotations

import os
import subprocess
import time

import anyio
import orjson
import pytest
from rawpeer import RawPeer

from conftest import Wall, fixture_server
from mcpwall.audit import verify

pytestmark = pytest.mark.anyio

CALLS = 120
DENIED = {37, 38, 90}  # denied calls in the middle of a burst, two of them next to each other
CONFIG: dict[str, object] = {"tools": {"deny": ["delete_note"]}}


def _call(request_id: int) -> bytes:
    if request_id in DENIED:
        name, arguments = "delete_note", {"name": f"n{request_id}"}
    else:
        name, arguments = "echo", {"text": f"t{request_id}"}
    body = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    return orjson.dumps(body) + b"\n"


async def _burst(raw: RawPeer) -> dict[int, dict[str, object]]:
    """Write every call at once, then read an answer for each."""
    await raw.send(b"".join(_call(i) for i in range(1, CALLS + 1)))
    answers: dict[int, dict[str, object]] = {}
    while len(answers) < CALLS:
        message = await raw.recv(within=60)
        if isinstance(message.get("id"), int):
            answers[message["id"]] = message
    return answers


async def _listed(wall: Wall) -> RawPeer:
    raw = await RawPeer.start(
        wall.argv(fixture_server("wellbehaved"), config=wall.write_config(dict(CONFIG))), wall.env(), wall.workdir
    )
    await raw.handshake()
    await raw.request("list", "tools/list")
    return raw


def _audit(wall: Wall) -> list[dict[str, object]]:
    report = verify(wall.audit)
    assert report.ok, report.problems
    return [orjson.loads(line) for line in wall.audit.read_bytes().splitlines()]


@pytest.mark.requirement("audit:tamper-evident")
async def test_two_gateways_pipelining_at_once_share_one_intact_trail(wall: Wall) -> None:
    peers = [await _listed(wall), await _listed(wall)]
    try:
        results: list[dict[int, dict[str, object]]] = [{}, {}]

        async def burst(k: int) -> None:
            results[k] = await _burst(peers[k])

        async with anyio.create_task_group() as group:
            for k in range(2):
                group.start_soon(burst, k)
        for peer in peers:
            await peer.close_stdin()
            assert await peer.wait() == 0
    finally:
        for peer in peers:
            await peer.aclose()
    for answers in results:
        for i, answer in answers.items():
            assert ("error" in answer) == (i in DENIED), answer
    records = _audit(wall)
    sessions = {r["session"] for r in records if r["type"] == "session_ended"}
    assert len(sessions) == 2
    for session in sessions:
        mine = [r for r in records if r.get("session") == session]
        requested = [r for r in mine if r["type"] == "tool_call_requested"]
        assert len(requested) == CALLS
        assert sum(r["type"] == "tool_call_denied" for r in mine) == len(DENIED)
        assert sum(r["type"] == "tool_call_allowed" for r in mine) == CALLS - len(DENIED)
        assert sum(r["type"] == "tool_call_completed" for r in mine) == CALLS - len(DENIED)


async def test_a_pipelined_burst_is_forwarded_in_order_without_its_denied_calls(wall: Wall) -> None:
    raw = await _listed(wall)
    try:
        answers = await _burst(raw)
    finally:
        await raw.aclose()
    assert {i for i, a in answers.items() if "error" in a} == DENIED
    received = [call["arguments"] for call in wall.received_calls()]
    expected = [{"text": f"t{i}"} for i in range(1, CALLS + 1) if i not in DENIED]
    assert received == expected


def test_a_client_gone_with_calls_in_flight_stops_the_server_and_mcpwall(wall: Wall) -> None:
    """The client closes both pipes while answers are still coming: writing them fails, and
    mcpwall stops the server and exits instead of waiting for a server that waits for input."""
    argv = wall.argv(fixture_server("wellbehaved"), config=wall.write_config(dict(CONFIG)))
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=wall.env(), bufsize=0)
    assert process.stdin is not None
    assert process.stdout is not None
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    process.stdin.write(orjson.dumps(init) + b"\n" + b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    process.stdout.readline()
    process.stdin.write(b'{"jsonrpc":"2.0","id":"list","method":"tools/list"}\n')
    process.stdout.readline()
    process.stdin.write(b"".join(_call(i) for i in range(1, CALLS + 1)))
    process.stdout.readline()  # answers are coming
    process.stdout.close()
    process.stdin.close()
    started = time.monotonic()
    try:
        code = process.wait(timeout=20)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, 9)
    assert code == 0
    assert time.monotonic() - started < 15
    exited = [r for r in _audit(wall) if r["type"] == "server_exited"]
    assert len(exited) == 1
