"""A handshake-era client behind ``mcpwall serve --stdio``, a 2026-07-28-only upstream that asks
questions: each ``input_required`` round reaches the client as elicitation/create,
sampling/createMessage or roots/list, and its answers reach the upstream in the retried call."""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
import pytest
import yaml
from mcp import Client, StdioServerParameters
from mcp.client.context import ClientRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import (
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequestParams,
    ElicitResult,
    ErrorData,
    ListRootsResult,
    Root,
    TextContent,
)
from pydantic import FileUrl

from conftest import ALLOW_EVERYTHING, Wall, fixture_spec

pytestmark = pytest.mark.anyio
MODERN = "2026-07-28"
QUESTIONS: list[tuple[str, dict[str, Any], list[str], str]] = [
    ("ask_user", {"question": "Favourite colour?"}, ["Favourite colour?"], "user answered: blue"),
    ("summarize", {"text": "long text"}, ["Summarize:\nlong text"], "a summary"),
    ("list_client_roots", {}, ["roots"], '["file:///work/project"]'),
]
"""The fixture's questioning tools: (tool, arguments, what the user is asked, the tool's answer)."""


def serve(wall: Wall, era: str, **routing: Any) -> StdioServerParameters:
    """``mcpwall serve --stdio`` in front of the one-era fixture as server ``m``."""
    config = {"gatekeeper": ALLOW_EVERYTHING, "servers": {"m": fixture_spec("one_era", era)}}
    if routing:
        config["routing"] = routing
    path = wall.workdir / "serve.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    argv = [sys.executable, "-m", "mcpwall", "serve", "--config", str(path)]
    return StdioServerParameters(command=argv[0], args=argv[1:], env=wall.env(), cwd=str(wall.workdir))


def text_of(result: object) -> str:
    return "".join(c.text for c in getattr(result, "content", []) if isinstance(c, TextContent))


def records(wall: Wall, kind: str) -> list[dict[str, Any]]:
    lines = wall.audit.read_text(encoding="utf-8").splitlines()
    return [r for r in map(json.loads, lines) if r["type"] == kind]


class User:
    """The client's callbacks: answers from a script, and what it was asked."""

    def __init__(self, *answers: ElicitResult | ErrorData | None) -> None:
        self.answers = list(answers)
        self.asked: list[str] = []

    async def elicit(self, _context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult | ErrorData:
        self.asked.append(params.message)
        answer = self.answers.pop(0)
        if answer is None:
            await anyio.sleep_forever()
        assert answer is not None
        return answer

    async def sample(self, _context: ClientRequestContext, params: CreateMessageRequestParams) -> CreateMessageResult:
        content = params.messages[0].content
        self.asked.append(content.text if isinstance(content, TextContent) else "")
        return CreateMessageResult(role="assistant", content=TextContent(type="text", text="a summary"), model="m")

    async def roots(self, _context: ClientRequestContext) -> ListRootsResult:
        self.asked.append("roots")
        return ListRootsResult(roots=[Root(uri=FileUrl("file:///work/project"), name="project")])


def accept(answer: str) -> ElicitResult:
    return ElicitResult(action="accept", content={"answer": answer})


async def call(wall: Wall, user: User, tool: str, arguments: dict[str, Any]) -> Any:
    """The call's result, or the `MCPError` it ended in (raised inside the client's task group)."""
    callbacks: dict[str, Any] = {
        "elicitation_callback": user.elicit,
        "sampling_callback": user.sample,
        "list_roots_callback": user.roots,
    }
    async with Client(serve(wall, "modern"), mode="legacy", **callbacks) as client:
        assert client.protocol_version == "2025-11-25"
        await client.list_tools()
        try:
            return await client.call_tool(f"m__{tool}", arguments)
        except MCPError as exc:
            return exc


def received(wall: Wall) -> list[dict[str, Any]]:
    """The tools/call requests the upstream got: one per round."""
    calls = wall.received_calls()
    assert {c["protocol_version"] for c in calls} == {MODERN}
    return [c["params"] for c in calls]  # type: ignore[misc] # JSON objects


@pytest.mark.requirement("routing:policy-per-real-server")
@pytest.mark.parametrize(
    ("tool", "arguments", "asked", "answer"),
    QUESTIONS,
)
async def test_a_modern_upstreams_question_reaches_a_handshake_client_and_the_answer_goes_back(
    wall: Wall, tool: str, arguments: dict[str, Any], asked: list[str], answer: str
) -> None:
    user = User(accept("blue"))
    with anyio.fail_after(60):
        result = await call(wall, user, tool, arguments)
    assert user.asked == asked
    assert not result.is_error
    assert text_of(result) == answer
    first, retried = received(wall)
    assert "inputResponses" not in first
    assert len(retried["inputResponses"]) == 1
    assert retried["requestState"]
    (requested,) = records(wall, "input_requested")
    assert requested["server"] == "m"
    assert len(records(wall, "input_answered")) == 1
    assert len(records(wall, "tool_call_completed")) == 2  # each round passed the upstream's session


async def test_several_rounds_are_relayed_until_the_final_result(wall: Wall) -> None:
    user = User(accept("tea"), accept("with milk"))
    with anyio.fail_after(60):
        result = await call(wall, user, "ask_twice", {"question": "Drink?"})
    assert text_of(result) == "first: tea; second: with milk"
    assert user.asked == ["Drink?", "You said 'tea'. Anything to add?"]
    assert len(received(wall)) == 3
    assert [r["round"] for r in records(wall, "input_requested")] == [1, 2]


async def test_a_declined_elicitation_reaches_the_upstream_as_an_answer(wall: Wall) -> None:
    user = User(ElicitResult(action="decline"))
    with anyio.fail_after(60):
        result = await call(wall, user, "ask_user", {"question": "Share your location?"})
    assert text_of(result) == "user declined"
    _, retried = received(wall)
    assert list(retried["inputResponses"].values()) == [{"action": "decline"}]


async def test_a_client_that_refuses_the_question_gets_an_error_and_the_upstream_no_retry(wall: Wall) -> None:
    user = User(ErrorData(code=-32001, message="the user closed the dialog"))
    with anyio.fail_after(60):
        refused = await call(wall, user, "ask_user", {"question": "Proceed?"})
    assert isinstance(refused, MCPError)
    assert refused.error.code == -32001
    assert "the user closed the dialog" in refused.error.message
    assert len(received(wall)) == 1
    (failed,) = records(wall, "input_failed")
    assert "refused" in failed["reason"]


async def test_a_client_that_never_answers_gets_a_timeout_error_and_the_session_goes_on(wall: Wall) -> None:
    user = User(None)
    callbacks: dict[str, Any] = {"elicitation_callback": user.elicit}
    with anyio.fail_after(60):
        async with Client(serve(wall, "modern", call_timeout_seconds=1), mode="legacy", **callbacks) as client:
            await client.list_tools()
            with pytest.raises(MCPError) as late:
                await client.call_tool("m__ask_user", {"question": "Still there?"})
            echoed = await client.call_tool("m__echo", {"text": "still here"})
    assert late.value.error.code == -32053
    assert "did not answer" in late.value.error.message
    assert text_of(echoed) == "still here"
    assert [c["name"] for c in wall.received_calls()] == ["ask_user", "echo"]


async def test_a_client_without_the_capability_is_not_asked_and_gets_a_clear_error(wall: Wall) -> None:
    with anyio.fail_after(60):
        async with Client(serve(wall, "modern"), mode="legacy") as client:
            await client.list_tools()
            with pytest.raises(MCPError) as refused:
                await client.call_tool("m__summarize", {"text": "anything"})
    assert "sampling" in refused.value.error.message  # the upstream's own refusal (-32021) or mcpwall's
    assert len(received(wall)) == 1
    assert records(wall, "input_requested") == []
