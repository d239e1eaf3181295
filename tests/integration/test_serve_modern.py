"""``mcpwall serve`` in both protocol eras, on both fronts: the SDK client in ``mode="auto"``
negotiates 2026-07-28 with the gateway itself (``server/discover``), in ``mode="legacy"`` the
handshake; upstreams are opened in the client's era when they can be, and the routing headers
of a 2026-07-28 request over HTTP must match its body."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from typing import Any

import anyio
import httpx
import httpx2
import orjson
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import ElicitRequestParams, ElicitResult
from serve_checks import text_of as _text
from test_serve_http import connect, gateway
from test_serve_stdio import _serve

from conftest import SERVERS as FIXTURES
from conftest import Wall, fixture_spec, free_port, npm_server, wait_for_port

pytestmark = pytest.mark.anyio
MODERN = "2026-07-28"
ENVELOPE_VERSION = "io.modelcontextprotocol/protocolVersion"
SERVERS = {
    "notes": {**fixture_spec("wellbehaved"), "tools": {"deny": ["delete_note"]}},
    "everything": {"command": npm_server("mcp-server-everything", "stdio")[0], "args": ["stdio"]},
}
ERAS = [("auto", MODERN, "stateless"), ("legacy", "2025-11-25", "handshake")]


@asynccontextmanager
async def _client(wall: Wall, transport: str, mode: str, callbacks: Any = None, **config: Any) -> AsyncIterator[Client]:
    """The SDK client in ``mode`` through ``mcpwall serve`` on ``transport``."""
    async with AsyncExitStack() as stack:
        if transport == "stdio":
            params = _serve(wall, config.pop("servers"), **config)
            client = await stack.enter_async_context(Client(params, mode=mode, **(callbacks or {})))
        else:
            url = stack.enter_context(gateway(wall, **config))
            http = await stack.enter_async_context(httpx2.AsyncClient(timeout=30))
            transport_streams = streamable_http_client(url, http_client=http)
            client = await stack.enter_async_context(Client(transport_streams, mode=mode, **(callbacks or {})))
        yield client


def _params(received: dict[str, object]) -> dict[str, Any]:
    """The params an upstream fixture recorded for one call."""
    params = received["params"]
    assert isinstance(params, dict)
    return params


def _records(wall: Wall) -> list[dict[str, Any]]:
    return [json.loads(line) for line in wall.audit.read_text(encoding="utf-8").splitlines()]


@pytest.mark.requirement("routing:policy-per-real-server")
@pytest.mark.parametrize("transport", ["stdio", "http"])
@pytest.mark.parametrize(("mode", "version", "era"), ERAS)
async def test_each_era_is_negotiated_with_the_gateway_and_spoken_to_its_upstreams(
    wall: Wall, transport: str, mode: str, version: str, era: str
) -> None:
    with anyio.fail_after(120):
        async with _client(wall, transport, mode, servers=SERVERS) as client:
            negotiated, server = client.protocol_version, client.server_info
            names = {t.name for t in (await client.list_tools()).tools}
            echoed = await client.call_tool("notes__echo", {"text": f"in {era}"})
            everything = await client.call_tool("everything__echo", {"message": "legacy-only upstream"})
            with pytest.raises(MCPError) as denied:
                await client.call_tool("notes__delete_note", {"name": "welcome"})
    assert negotiated == version
    assert server is not None
    assert server.name == "mcpwall"
    assert {"notes__echo", "everything__echo"} <= names
    assert "notes__delete_note" not in names
    assert _text(echoed) == f"in {era}"
    assert "legacy-only upstream" in _text(everything)
    assert denied.value.error.data["violation"] == "ToolNotFound"
    (received,) = wall.received_calls()
    assert (received["name"], received["protocol_version"]) == ("echo", version)
    assert (ENVELOPE_VERSION in _params(received).get("_meta", {})) is (era == "stateless")
    fronts = [r for r in _records(wall) if r["type"] == "session_started" and r["server"] == "mcpwall" and "era" in r]
    assert [(r["era"], r["protocol_version"]) for r in fronts] == [(era, version)]


@pytest.mark.requirement("gate:out-of-band-approval")
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_a_modern_client_confirms_a_call_through_input_required(wall: Wall, transport: str) -> None:
    asked: list[str] = []

    async def user(_context: object, params: ElicitRequestParams) -> ElicitResult:
        asked.append(params.message)
        return ElicitResult(action="accept", content={"approve": True})

    servers = {"notes": fixture_spec("wellbehaved")}
    config = {"servers": servers, "gatekeeper": {}, "approvals": {"channel": "elicitation"}}
    with anyio.fail_after(90):
        async with _client(wall, transport, "auto", callbacks={"elicitation_callback": user}, **config) as client:
            await client.list_tools()
            result = await client.call_tool("notes__write_note", {"name": "n", "text": "asked"})
    assert not result.is_error
    assert len(asked) == 1
    assert "write_note" in asked[0]
    (received,) = wall.received_calls()
    assert (received["name"], received["arguments"]) == ("write_note", {"name": "n", "text": "asked"})
    assert "requestState" not in _params(received)
    assert "inputResponses" not in _params(received)
    records = _records(wall)
    assert [r["channel"] for r in records if r["type"] == "approval_granted"] == ["elicitation"]
    assert any(r["type"] == "elicitation_sent" and r["server"] == "notes" for r in records)


def _modern(request_id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    envelope = {ENVELOPE_VERSION: MODERN, "io.modelcontextprotocol/clientCapabilities": {}}
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": {**(params or {}), "_meta": envelope}}


def _headers(method: str, name: str | None = None, version: str = MODERN) -> dict[str, str]:
    headers = {"Content-Type": "application/json", "mcp-protocol-version": version, "mcp-method": method}
    return headers | ({"mcp-name": name} if name else {})


def test_modern_http_requests_need_no_session_and_headers_that_match_the_body(wall: Wall) -> None:
    echo = _modern(2, "tools/call", {"name": "notes__echo", "arguments": {"text": "stateless"}})
    with gateway(wall, servers={"notes": fixture_spec("wellbehaved")}) as url:
        discover = httpx.post(
            url, content=orjson.dumps(_modern(1, "server/discover")), headers=_headers("server/discover")
        )
        listed = httpx.post(url, content=orjson.dumps(_modern(3, "tools/list")), headers=_headers("tools/list"))
        refused = [
            httpx.post(url, content=orjson.dumps(echo), headers=headers)
            for headers in (
                _headers("tools/call", "notes__add"),
                _headers("tools/list", "notes__echo"),
                _headers("tools/call", "notes__echo", version="2025-11-25"),
                {"Content-Type": "application/json"},
            )
        ]
        called = httpx.post(url, content=orjson.dumps(echo), headers=_headers("tools/call", "notes__echo"))
    assert discover.status_code == 200
    assert "mcp-session-id" not in discover.headers
    found = discover.json()["result"]
    assert MODERN in found["supportedVersions"]
    assert (found["resultType"], found["ttlMs"], found["cacheScope"]) == ("complete", 0, "private")
    assert found["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "mcpwall"
    assert "tools" in found["capabilities"]
    assert listed.json()["result"]["resultType"] == "complete"
    assert [(r.status_code, r.json()["error"]["code"]) for r in refused] == [(400, -32020)] * 4
    assert called.json()["id"] == 2
    assert called.json()["result"]["content"][0]["text"] == "stateless"
    assert [c["arguments"] for c in wall.received_calls()] == [{"text": "stateless"}]


async def test_modern_http_clients_without_identity_share_one_anonymous_policy_session(wall: Wall) -> None:
    with gateway(wall, servers={"notes": fixture_spec("wellbehaved")}) as url, anyio.fail_after(90):
        for text in ("first", "second"):
            async with connect(url, "auto") as client:
                assert client.protocol_version == MODERN
                await client.list_tools()
                assert _text(await client.call_tool("notes__echo", {"text": text})) == text
    sessions = {r["session"] for r in _records(wall) if r["type"] == "tool_call_completed"}
    assert len(sessions) == 1
    assert [c["arguments"] for c in wall.received_calls()] == [{"text": "first"}, {"text": "second"}]


@contextmanager
def _wellbehaved_over_http(wall: Wall) -> Iterator[str]:
    """The SDK fixture server on Streamable HTTP (it checks the 2026-07-28 routing headers); its URL."""
    port = free_port()
    run = f"import wellbehaved; wellbehaved.app.run('streamable-http', host='127.0.0.1', port={port})"
    env = {**wall.env(), "PYTHONPATH": str(FIXTURES)}
    process = subprocess.Popen([sys.executable, "-c", run], env=env, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.kill()
        process.wait(10)


@pytest.mark.parametrize(("mode", "version", "era"), ERAS)
async def test_an_http_upstream_is_spoken_to_in_the_clients_era_with_matching_headers(
    wall: Wall, mode: str, version: str, era: str
) -> None:
    with _wellbehaved_over_http(wall) as url, anyio.fail_after(90):
        async with _client(wall, "stdio", mode, servers={"remote": {"url": url}}) as client:
            await client.list_tools()
            echoed = await client.call_tool("remote__echo", {"text": f"{era} over http"})
    assert _text(echoed) == f"{era} over http"
    (received,) = wall.received_calls()
    assert (received["name"], received["protocol_version"]) == ("echo", version)
