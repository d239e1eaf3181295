"""A 2026-07-28 client behind ``mcpwall serve --stdio``, a handshake-only upstream that asks
questions mid-call: each question reaches the client as an ``input_required`` answer to its call,
and the client's retry carries the answer back to the upstream's pending request."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.context import ClientRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import ElicitRequestParams, ElicitResult, ErrorData
from test_serve_input_rounds import QUESTIONS, User, accept, records, serve, text_of

from conftest import Wall

pytestmark = pytest.mark.anyio


async def call(wall: Wall, user: User, tool: str, arguments: dict[str, Any], elicit: Any = None, **routing: Any) -> Any:
    """The call's result, or the `MCPError` it ended in (``elicit`` instead of the user's own)."""
    callbacks: dict[str, Any] = {
        "elicitation_callback": elicit or user.elicit,
        "sampling_callback": user.sample,
        "list_roots_callback": user.roots,
    }
    async with Client(serve(wall, "handshake", **routing), mode="auto", **callbacks) as client:
        assert client.protocol_version == "2026-07-28"
        await client.list_tools()
        try:
            return await client.call_tool(f"m__{tool}", arguments)
        except MCPError as exc:
            return exc


def received(wall: Wall) -> list[dict[str, Any]]:
    calls = wall.received_calls()
    assert {c["protocol_version"] for c in calls} == {"2025-11-25"}
    return calls


@pytest.mark.requirement("routing:policy-per-real-server")
@pytest.mark.parametrize(
    ("tool", "arguments", "asked", "answer"),
    QUESTIONS,
)
async def test_a_handshake_upstreams_question_reaches_a_modern_client_as_input_required(
    wall: Wall, tool: str, arguments: dict[str, Any], asked: list[str], answer: str
) -> None:
    user = User(accept("blue"))
    with anyio.fail_after(60):
        result = await call(wall, user, tool, arguments)
    assert user.asked == asked
    assert not result.is_error
    assert text_of(result) == answer
    (one,) = received(wall)  # the upstream ran the call once, and got its answer mid-call
    assert one["arguments"] == arguments
    assert len(records(wall, "input_requested")) == 1
    assert len(records(wall, "input_answered")) == 1


async def test_two_questions_in_one_call_take_two_retries(wall: Wall) -> None:
    user = User(accept("tea"), accept("with milk"))
    with anyio.fail_after(60):
        result = await call(wall, user, "ask_twice", {"question": "Drink?"})
    assert text_of(result) == "first: tea; second: with milk"
    assert user.asked == ["Drink?", "You said 'tea'. Anything to add?"]
    assert len(received(wall)) == 1
    assert len(records(wall, "input_answered")) == 2


async def test_a_declined_elicitation_reaches_the_handshake_upstream(wall: Wall) -> None:
    user = User(ElicitResult(action="decline"))
    with anyio.fail_after(60):
        result = await call(wall, user, "ask_user", {"question": "Share your location?"})
    assert text_of(result) == "user declined"


async def test_an_answer_after_the_call_timed_out_gets_the_timeout_error(wall: Wall) -> None:
    async def late(_context: ClientRequestContext, _params: ElicitRequestParams) -> ElicitResult | ErrorData:
        # the gateway is another process: its audit trail is the signal that it gave up
        while not any(r.get("status") == "TIMEOUT" for r in _records(wall)):  # noqa: ASYNC110 -- no Event across processes
            await anyio.sleep(0.05)
        return accept("too late")

    with anyio.fail_after(60):
        result = await call(wall, User(), "ask_user", {"question": "Still there?"}, late, call_timeout_seconds=1)
    assert isinstance(result, MCPError)
    assert result.error.code == -32053


def _records(wall: Wall) -> list[dict[str, Any]]:
    if not wall.audit.exists():
        return []
    return [json.loads(line) for line in wall.audit.read_text(encoding="utf-8").splitlines() if line.strip()]
