"""``mcpwall serve`` in front of a Streamable HTTP upstream (the SDK fixture server over HTTP):
the server's questions on a request's own SSE stream reach the session that made the request,
the upstream is reached through the proxy the environment names (or around it, by
``NO_PROXY``); and a line longer than ``wire.max_line_bytes`` from an upstream is refused."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import ElicitRequestFormParams, ElicitRequestParams, ElicitResult
from serve_checks import text_of
from test_serve_http import gateway
from test_serve_modern import _wellbehaved_over_http
from test_serve_stdio import _serve

from conftest import Wall, fixture_spec
from forward_proxy import ForwardProxy, forward_proxy
from mcpwall import jsonrpc

pytestmark = pytest.mark.anyio


def _records(wall: Wall) -> list[dict[str, Any]]:
    return [json.loads(line) for line in wall.audit.read_text(encoding="utf-8").splitlines()]


@asynccontextmanager
async def _answering(url: str, who: str, answer: Any) -> AsyncIterator[Client]:
    """An SDK client session over HTTP that answers elicitation with ``answer``."""
    async with (
        httpx2.AsyncClient(timeout=30) as http,
        Client(streamable_http_client(url, http_client=http), mode="legacy", elicitation_callback=answer) as client,
    ):
        yield client


@pytest.mark.requirement("routing:pool-shared-across-sessions")
async def test_questions_on_each_requests_stream_reach_that_session_with_both_calls_in_flight(wall: Wall) -> None:
    asked: dict[str, list[str]] = {"first": [], "second": []}
    both_asked = anyio.Event()

    def user(who: str) -> Any:
        async def answer(_ctx: object, params: ElicitRequestParams) -> ElicitResult:
            assert isinstance(params, ElicitRequestFormParams)
            asked[who].append(params.message)
            if all(asked.values()):
                both_asked.set()
            with anyio.fail_after(30):
                await both_asked.wait()  # neither call is answered before both questions are out
            return ElicitResult(action="accept", content={"answer": f"{who} says yes"})

        return answer

    results: dict[str, str] = {}

    async def ask(client: Client, who: str) -> None:
        results[who] = text_of(await client.call_tool("remote__ask_user", {"question": f"{who}?"}))

    with _wellbehaved_over_http(wall) as upstream, gateway(wall, servers={"remote": {"url": upstream}}) as url:
        with anyio.fail_after(90):
            async with (
                _answering(url, "first", user("first")) as first,
                _answering(url, "second", user("second")) as second,
            ):
                await first.list_tools()
                await second.list_tools()
                async with anyio.create_task_group() as calls:
                    calls.start_soon(ask, first, "first")
                    calls.start_soon(ask, second, "second")
    assert asked == {"first": ["first?"], "second": ["second?"]}
    assert results == {"first": "user answered: first says yes", "second": "user answered: second says yes"}
    assert sorted(c["arguments"]["question"] for c in wall.received_calls()) == ["first?", "second?"]  # type: ignore[index]
    assert not [r for r in _records(wall) if r["type"] == "message_rejected"]


async def _call_remote(wall: Wall, upstream: str, **env: str) -> str:
    params = _serve(wall, {"remote": {"url": upstream}})
    params = params.model_copy(update={"env": {**(params.env or {}), **env}})
    with anyio.fail_after(90):
        async with Client(params, mode="legacy") as client:
            await client.list_tools()
            return text_of(await client.call_tool("remote__echo", {"text": "via the proxy?"}))


@pytest.fixture
def guarded_proxy(wall: Wall) -> Iterator[ForwardProxy]:
    with forward_proxy(wall.workdir, credentials="agent:s3cret-pass") as running:
        yield running


async def test_an_http_upstream_is_reached_through_the_environments_proxy(
    wall: Wall, guarded_proxy: ForwardProxy
) -> None:
    with _wellbehaved_over_http(wall) as upstream:
        # NO_PROXY names another host, so even this loopback upstream goes through the proxy.
        echoed = await _call_remote(wall, upstream, HTTP_PROXY=guarded_proxy.url, NO_PROXY="example.invalid")
        assert await guarded_proxy.saw(f"POST {upstream.removeprefix('http://')}")
    assert echoed == "via the proxy?"
    assert [c["arguments"] for c in wall.received_calls()] == [{"text": "via the proxy?"}]
    assert "s3cret-pass" not in wall.audit.read_text(encoding="utf-8")


async def test_no_proxy_sends_an_upstream_around_the_proxy(wall: Wall, guarded_proxy: ForwardProxy) -> None:
    with _wellbehaved_over_http(wall) as upstream:
        echoed = await _call_remote(wall, upstream, HTTP_PROXY=guarded_proxy.url, NO_PROXY="localhost,127.0.0.1")
    assert echoed == "via the proxy?"
    assert not await guarded_proxy.saw("POST", within=0.5)


async def test_a_proxy_refusal_leaves_the_upstream_unavailable_with_a_clear_reason(
    wall: Wall, guarded_proxy: ForwardProxy
) -> None:
    wrong = guarded_proxy.url.replace("s3cret-pass", "not-the-password")
    with _wellbehaved_over_http(wall) as upstream:
        params = _serve(wall, {"remote": {"url": upstream}, "notes": fixture_spec("wellbehaved")})
        params = params.model_copy(update={"env": {**(params.env or {}), "HTTP_PROXY": wrong, "NO_PROXY": "x.invalid"}})
        with anyio.fail_after(90):
            async with Client(params, mode="legacy") as client:
                names = {t.name for t in (await client.list_tools()).tools}
    assert "notes__echo" in names
    assert not any(name.startswith("remote__") for name in names)
    (failed,) = [r for r in _records(wall) if r["type"] == "upstream_failed" and r["upstream"] == "remote"]
    assert f"the proxy 127.0.0.1:{guarded_proxy.port} refused the request: HTTP 407" in failed["reason"]
    assert "not-the-password" not in wall.audit.read_text(encoding="utf-8")
    assert wall.received_calls() == []


@pytest.mark.requirement("wire:oversized-bounded")
async def test_an_upstream_line_past_the_configured_limit_is_refused_and_the_upstream_goes_on(wall: Wall) -> None:
    limit = 64 * 1024
    params = _serve(wall, {"talkative": fixture_spec("talkative")}, wire={"max_line_bytes": limit})
    with anyio.fail_after(90):
        async with Client(params, mode="legacy") as client:
            await client.list_tools()
            with pytest.raises(MCPError) as refused:
                await client.call_tool("talkative__repeat", {"text": "ab", "times": limit})
            after = await client.call_tool("talkative__repeat", {"text": "ab", "times": 3})
    assert refused.value.error.code == jsonrpc.MESSAGE_REJECTED
    assert text_of(after) == "ababab"
    assert [c["arguments"] for c in wall.received_calls()] == [
        {"text": "ab", "times": limit},
        {"text": "ab", "times": 3},
    ]
    rejected = [r for r in _records(wall) if r["type"] == "message_rejected"]
    assert [(r["direction"], r["reason"]) for r in rejected] == [("server", "line too long")]
    assert rejected[0]["size"] > limit
