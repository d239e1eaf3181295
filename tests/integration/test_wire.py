"""Wire discipline: what mcpwall does with bytes that are not a well-formed message."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import orjson
import pytest
from rawpeer import RawPeer

from conftest import Wall, fixture_server
from mcpwall.audit import verify

pytestmark = pytest.mark.anyio


@asynccontextmanager
async def _listed(wall: Wall, server: str, config: dict[str, object]) -> AsyncIterator[RawPeer]:
    """A raw client of ``mcpwall run`` in front of a fixture server, past the handshake and a listing."""
    argv = wall.argv(fixture_server(server), config=wall.write_config(config))
    raw = await RawPeer.start(argv, wall.env(), wall.workdir)
    try:
        await raw.handshake()
        await raw.request("list", "tools/list")
        yield raw
    finally:
        await raw.aclose()


@pytest.fixture
async def peer(wall: Wall) -> AsyncIterator[RawPeer]:
    async with _listed(
        wall, "wellbehaved", {"wire": {"max_line_bytes": 65536}, "tools": {"deny": ["delete_note"]}}
    ) as raw:
        yield raw


def _audit(wall: Wall) -> list[dict[str, object]]:
    assert verify(wall.audit).ok
    return [json.loads(line) for line in wall.audit.read_text(encoding="utf-8").splitlines()]


def _call(request_id: object, name: str, arguments: dict[str, object]) -> dict[str, object]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (b"{not json", "parse error"),
        (b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo\xff"}}', "parse error"),
        (b'{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":"\\ud800"}}', "parse error"),
        (b"[]", "batch refused"),
        (b'"just a string"', "message must be a JSON object"),
        (b"42", "message must be a JSON object"),
    ],
)
@pytest.mark.requirement("wire:malformed-never-forwarded")
async def test_unparseable_client_line_is_recorded_and_never_forwarded(
    peer: RawPeer, wall: Wall, line: bytes, why: str
) -> None:
    await peer.send(line + b"\n")
    assert (await peer.request(99, "tools/list"))["result"]["tools"]
    await peer.close_stdin()
    assert await peer.wait() == 0
    rejected = [r for r in _audit(wall) if r["type"] == "message_rejected"]
    assert rejected
    assert why in str(rejected[0]["reason"])
    assert wall.received_calls() == []


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"jsonrpc": "1.0", "id": 5, "method": "tools/list"}, -32600),
        ({"jsonrpc": "2.0", "id": 5.5, "method": "tools/list"}, -32600),
        ({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "echo", "arguments": [1]}}, -32600),
        ({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"arguments": {}}}, -32600),
        ({"jsonrpc": "2.0", "id": 5, "method": 3}, -32600),
    ],
)
@pytest.mark.requirement("wire:malformed-never-forwarded")
async def test_invalid_request_with_an_id_gets_an_error_back(peer: RawPeer, message: object, code: int) -> None:
    await peer.send_json(message)
    reply = await peer.recv()
    assert reply["error"]["code"] == code
    assert reply["id"] == (message["id"] if isinstance(message["id"], int) else None)  # type: ignore[index]


@pytest.mark.requirement("wire:batch-refused")
async def test_batch_is_refused_in_current_protocol_and_each_request_answered(peer: RawPeer, wall: Wall) -> None:
    await peer.send_json([_call(1, "echo", {"text": "a"}), _call(2, "delete_note", {"name": "x"})])
    replies = {(await peer.recv())["id"], (await peer.recv())["id"]}
    assert replies == {1, 2}
    assert wall.received_calls() == []


@pytest.mark.requirement("wire:oversized-bounded")
async def test_oversized_client_line_is_skipped_with_bounded_memory_and_answered(peer: RawPeer, wall: Wall) -> None:
    huge = orjson.dumps(_call(11, "echo", {"text": "x" * 300_000}))
    await peer.send(huge + b"\n")
    reply = await peer.recv()
    assert reply["id"] == 11
    assert reply["error"]["code"] == -32054
    ok = await peer.request(12, "tools/call", {"name": "echo", "arguments": {"text": "small"}})
    assert ok["result"]["content"][0]["text"] == "small"
    assert [c["arguments"] for c in wall.received_calls()] == [{"text": "small"}]


@pytest.mark.requirement("wire:parse-once-forward-checked")
async def test_duplicate_keys_mean_the_same_to_mcpwall_and_the_server(peer: RawPeer, wall: Wall) -> None:
    # A parser that kept the first "name" would see echo; orjson keeps the last: delete_note.
    line = b'{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"echo","name":"delete_note","arguments":{"name":"welcome"}}}'
    await peer.send(line + b"\n")
    reply = await peer.recv()
    assert reply["error"]["data"]["violation"] == "ToolExplicitlyDenied"
    line = b'{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"delete_note","name":"echo","arguments":{"text":"a","text":"b"}}}'
    await peer.send(line + b"\n")
    reply = await peer.recv()
    assert reply["result"]["content"][0]["text"] == "b"
    assert [(c["name"], c["arguments"]) for c in wall.received_calls()] == [("echo", {"text": "b"})]


@pytest.mark.requirement("wire:unsolicited-response-dropped")
async def test_unsolicited_response_from_client_is_dropped_and_recorded(peer: RawPeer, wall: Wall) -> None:
    await peer.send_json({"jsonrpc": "2.0", "id": 777, "result": {"action": "accept"}})
    assert (await peer.request(31, "tools/list"))["id"] == 31
    await peer.close_stdin()
    await peer.wait()
    dropped = [r for r in _audit(wall) if r["type"] == "response_dropped"]
    assert dropped == [dropped[0]]
    assert dropped[0]["id"] == 777


async def test_duplicate_pending_request_id_is_refused(peer: RawPeer) -> None:
    await peer.send_json(_call(41, "long_task", {"steps": 3}))
    await peer.send_json(_call(41, "echo", {"text": "again"}))
    first = await peer.recv_id(41)
    second = await peer.recv_id(41)
    codes = {("error" in first) and first["error"]["code"], ("error" in second) and second["error"]["code"]}
    assert -32600 in codes


@pytest.mark.requirement("wire:stdout-protocol-only")
async def test_stdout_carries_only_protocol_lines(peer: RawPeer) -> None:
    await peer.send(b"garbage\n")
    await peer.request(51, "tools/call", {"name": "echo", "arguments": {"text": "x"}})
    await peer.close_stdin()
    assert await peer.wait() == 0
    for line in peer.stdout_bytes.splitlines():
        assert orjson.loads(line)["jsonrpc"] == "2.0"


@pytest.mark.requirement("lifecycle:signal-flushes-audit")
async def test_sigterm_stops_server_and_flushes_the_audit_trail(peer: RawPeer, wall: Wall) -> None:
    await peer.request(61, "tools/list")
    peer.process.send_signal(signal.SIGTERM)
    assert await peer.wait() == 0
    records = _audit(wall)
    assert records[-1]["type"] == "session_ended"
    assert "SIGTERM" in str(records[-1]["reason"])
    assert any(r["type"] == "server_exited" for r in records)


async def test_closing_stdin_stops_server_and_exits_zero(peer: RawPeer, wall: Wall) -> None:
    await peer.close_stdin()
    assert await peer.wait() == 0
    exited = next(r for r in _audit(wall) if r["type"] == "server_exited")
    assert exited["exit_code"] == 0


@pytest.fixture
async def bad_server(wall: Wall) -> AsyncIterator[RawPeer]:
    async with _listed(wall, "malformed", {"wire": {"max_line_bytes": 1_048_576}}) as raw:
        yield raw


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("invalid-json", "parse error"),
        ("invalid-utf8", "parse error"),
        ("huge-line", "line too long"),
        ("unknown-id", "unsolicited"),
        ("batch", "batch refused"),
        ("noise", "parse error"),
    ],
)
@pytest.mark.requirement("wire:malformed-never-forwarded")
@pytest.mark.requirement("wire:oversized-bounded")
async def test_faulty_server_output_is_dropped_recorded_and_the_call_still_answered(
    bad_server: RawPeer, wall: Wall, kind: str, reason: str
) -> None:
    reply = await bad_server.request(71, "tools/call", {"name": "misbehave", "arguments": {"kind": kind}})
    assert "result" in reply
    follow = await bad_server.request(72, "tools/call", {"name": "echo", "arguments": {"text": "after"}})
    assert follow["result"]["content"][0]["text"] == "after"
    await bad_server.close_stdin()
    assert await bad_server.wait() == 0
    for line in bad_server.stdout_bytes.splitlines():
        assert orjson.loads(line)["jsonrpc"] == "2.0"
    records = _audit(wall)
    dropped = [r for r in records if r["type"] in ("message_rejected", "response_dropped")]
    assert any(r["direction"] == "server" and reason in str(r.get("reason")) for r in dropped), dropped


@pytest.mark.requirement("wire:parse-once-forward-checked")
async def test_duplicate_key_response_reaches_the_client_as_mcpwall_read_it(bad_server: RawPeer) -> None:
    reply = await bad_server.request(81, "tools/call", {"name": "misbehave", "arguments": {"kind": "duplicate-key"}})
    assert reply["result"]["content"] == [{"type": "text", "text": "second"}]
    raw = bad_server.stdout_bytes
    assert b'"first"' not in raw


INITIALIZE: dict[str, object] = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "f", "version": "1"}},
}


def _run_on_files(wall: Wall, lines: list[dict[str, object]], stdout_path: str) -> int:
    """``mcpwall run`` with stdin read from a regular file and stdout written to ``stdout_path``."""
    import subprocess

    script = wall.workdir / "in.jsonl"
    script.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))
    with script.open("rb") as stdin, open(stdout_path, "wb") as stdout:
        done = subprocess.run(
            wall.argv(fixture_server("wellbehaved")),
            stdin=stdin,
            stdout=stdout,
            env=wall.env(),
            timeout=60,
            check=False,
        )
    return done.returncode


@pytest.mark.requirement("wire:stdout-protocol-only")
def test_stdin_and_stdout_may_be_regular_files(wall: Wall) -> None:
    lines: list[dict[str, object]] = [
        INITIALIZE,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    out = wall.workdir / "out.jsonl"
    returncode = _run_on_files(wall, lines, str(out))
    replies = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    assert returncode == 0
    assert [r["id"] for r in replies] == [1, 2]
    assert "echo" in {t["name"] for t in replies[1]["result"]["tools"]}


@pytest.mark.requirement("wire:stdout-protocol-only")
def test_stdout_may_be_a_character_device(wall: Wall) -> None:
    """``> /dev/null`` once made uvloop abort the process (SIGABRT) before anything was read."""
    assert _run_on_files(wall, [INITIALIZE], os.devnull) == 0
    assert any(r["type"] == "session_ended" for r in _audit(wall))


@pytest.mark.requirement("lifecycle:server-crash-answers-pending")
def test_a_server_that_dies_while_mcpwall_starts_is_reported_not_restarted(wall: Wall) -> None:
    """``mcpwall run`` spawns the server before building its policy; a server that is already
    dead when the relay starts is a dead server (-32052, exit 1), never silently started again."""
    import subprocess
    import sys

    starts = wall.workdir / "starts.log"
    server = [sys.executable, "-c", f"open({str(starts)!r}, 'a').write('started\\n'); raise SystemExit(3)"]
    done = subprocess.run(
        wall.argv(server), input=orjson.dumps(INITIALIZE) + b"\n", capture_output=True, env=wall.env(), timeout=60
    )
    assert done.returncode == 1
    answers = [orjson.loads(line) for line in done.stdout.splitlines()]  # none if it died before reading it
    assert all(answer["error"]["code"] == -32052 for answer in answers)
    assert starts.read_text(encoding="utf-8") == "started\n"
    exited = [r for r in _audit(wall) if r["type"] == "server_exited"]
    assert [r["exit_code"] for r in exited] == [3]
