"""The HTTP front's own HTTP handling (plain ASGI under uvicorn, one write per response):
concurrent calls on one session each get their own whole answer, only ``/mcp`` with POST, GET
and DELETE is served, and answers without a body (202, 204) still leave."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import orjson
import pytest
from test_serve_http import gateway as serve_http

from conftest import Wall

pytestmark = pytest.mark.anyio
JSON_ONLY = {"Accept": "application/json", "Content-Type": "application/json"}
INIT = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}


@contextmanager
def gateway(wall: Wall) -> Iterator[tuple[str, int]]:
    """A running ``mcpwall serve --http`` in front of the well-behaved fixture; its URL and port."""
    with serve_http(wall) as url:
        yield url, int(url.split(":")[2].split("/")[0])


def _open_session(http: httpx.Client, url: str) -> dict[str, str]:
    opened = http.post(url, content=orjson.dumps(INIT), headers=JSON_ONLY)
    session = {**JSON_ONLY, "mcp-session-id": opened.headers["mcp-session-id"]}
    initialized = http.post(url, content=b'{"jsonrpc":"2.0","method":"notifications/initialized"}', headers=session)
    assert (opened.status_code, initialized.status_code) == (200, 202)
    assert initialized.headers["mcp-session-id"] == session["mcp-session-id"]
    listed = http.post(url, content=b'{"jsonrpc":"2.0","id":"l","method":"tools/list"}', headers=session)
    assert "notes__echo" in {t["name"] for t in listed.json()["result"]["tools"]}
    return session


def _records(wall: Wall) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in wall.audit.read_bytes().splitlines() if line.strip()]


async def test_concurrent_calls_on_one_session_each_get_their_own_whole_answer(wall: Wall) -> None:
    with gateway(wall) as (url, _), httpx.Client(timeout=30) as setup:
        session = _open_session(setup, url)
        limits = httpx.Limits(max_connections=32)
        async with httpx.AsyncClient(timeout=60, limits=limits, headers=session) as http:

            async def call(i: int) -> httpx.Response:
                body = {"jsonrpc": "2.0", "id": i, "method": "tools/call"}
                body["params"] = {"name": "notes__echo", "arguments": {"text": f"call {i} " + "x" * (i * 97)}}
                return await http.post(url, content=orjson.dumps(body))

            answers = await asyncio.wait_for(asyncio.gather(*(call(i) for i in range(200))), 120)
    for i, answer in enumerate(answers):
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "application/json"
        assert int(answer.headers["content-length"]) == len(answer.content)
        assert answer.headers["mcp-session-id"] == session["mcp-session-id"]
        message = answer.json()
        assert message["id"] == i
        assert message["result"]["content"][0]["text"] == f"call {i} " + "x" * (i * 97)
    completed = [r for r in _records(wall) if r["type"] == "tool_call_completed"]
    assert len(completed) == 200
    assert len(wall.received_calls()) == 200


def test_only_post_get_and_delete_on_mcp_are_served(wall: Wall) -> None:
    with gateway(wall) as (url, _), httpx.Client(timeout=30) as http:
        session = _open_session(http, url)
        elsewhere = http.post(url.replace("/mcp", "/other"), content=orjson.dumps(INIT), headers=JSON_ONLY)
        head = http.head(url, headers=session)
        put = http.put(url, content=orjson.dumps(INIT), headers=session)
        still_open = http.post(url, content=b'{"jsonrpc":"2.0","id":1,"method":"ping"}', headers=session)
        ended = http.delete(url, headers=session)
        after = http.post(url, content=b'{"jsonrpc":"2.0","id":2,"method":"ping"}', headers=session)
    assert (elsewhere.status_code, head.status_code, put.status_code) == (404, 405, 405)
    assert put.headers["allow"] == "POST, GET, DELETE"
    assert still_open.json() == {"jsonrpc": "2.0", "id": 1, "result": {}}
    assert (ended.status_code, ended.content, after.status_code) == (204, b"", 404)


def test_pipelined_requests_on_one_connection_are_answered_in_order(wall: Wall) -> None:
    with gateway(wall) as (url, port), httpx.Client(timeout=30) as http:
        session_id = _open_session(http, url)["mcp-session-id"]
        requests = b"".join(
            _raw_post(port, session_id, {"jsonrpc": "2.0", "id": i, "method": "ping"}) for i in range(3)
        )
        with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
            raw.sendall(requests)
            received = b""
            while received.count(b"HTTP/1.1 200") < 3 or not received.endswith(b"}"):
                chunk = raw.recv(65536)
                assert chunk, received
                received += chunk
    bodies = [part.split(b"\r\n\r\n", 1)[1] for part in received.split(b"HTTP/1.1 ")[1:]]
    assert [orjson.loads(body)["id"] for body in bodies] == [0, 1, 2]


def _raw_post(port: int, session_id: str, message: dict[str, Any]) -> bytes:
    body = orjson.dumps(message)
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Accept: application/json\r\nmcp-session-id: {session_id}\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body
