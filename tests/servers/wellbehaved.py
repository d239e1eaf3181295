"""A well-behaved MCP server: the upstream most mcpwall tests put behind the gateway.

Run: `python tests/servers/wellbehaved.py` (stdio, both protocol eras).

Tools:
    echo(text), add(a, b), get_weather(city)        plain reads
    read_note(name), write_note(name, text), delete_note(name)
                                                    in-memory notes ("welcome" exists at start)
    run_command(command)                            records the command, executes nothing
    long_task(steps)                                one progress notification per step
    ask_user(question)                              elicitation (form: {"answer": str})
    summarize(text)                                 sampling (sampling/createMessage)
    list_client_roots()                             roots/list
Prompt `greet(name)`; resource `notes://welcome`; resource template `notes://{name}`.

Elicitation, sampling and roots go through the SDK's `Resolve` markers, so the server
follows the negotiated era: on 2025-11-25 and earlier it sends a JSON-RPC request to the
client mid-call; on 2026-07-28 it answers the `tools/call` with an `InputRequiredResult`
and the client retries the call carrying `inputResponses` and `requestState`. Each round
is a separate `tools/call` and is recorded as such.

Environment: `FIXTURE_LOG` (see `_fixture_log.py`) records every `tools/call` received.
"""

from __future__ import annotations

import json
from typing import Annotated

import anyio
from _fixture_log import RecordCalls
from mcp.server.mcpserver import Context, Elicit, ElicitationResult, ListRoots, MCPServer, Resolve, Sample
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CreateMessageResult, ListRootsResult, SamplingMessage, TextContent, ToolAnnotations
from pydantic import BaseModel

app = MCPServer(
    "fixture-wellbehaved",
    version="1.0.0",
    instructions="A fixture server for mcpwall's tests.",
    middleware=[RecordCalls()],
    log_level="WARNING",
)

_notes: dict[str, str] = {"welcome": "Welcome to the fixture notebook."}
_commands: list[str] = []

_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
_DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)


class Answer(BaseModel):
    """The form the user fills in for `ask_user`."""

    answer: str


@app.tool(description="Echo the text back unchanged.", annotations=_READ_ONLY)
def echo(text: str) -> str:
    return text


@app.tool(description="Add two integers.", annotations=_READ_ONLY)
def add(a: int, b: int) -> int:
    return a + b


@app.tool(description="Get the current weather for a city.", annotations=_READ_ONLY)
def get_weather(city: str) -> str:
    return f"The weather in {city} is sunny, 21 degrees C."


@app.tool(description="Read a note by name.", annotations=_READ_ONLY)
def read_note(name: str) -> str:
    if name not in _notes:
        raise ToolError(f"no note named {name!r}")
    return _notes[name]


@app.tool(
    description="Create or overwrite a note.",
    annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True),
)
def write_note(name: str, text: str) -> str:
    _notes[name] = text
    return f"saved note {name!r} ({len(text)} characters)"


@app.tool(description="Delete a note by name.", annotations=_DESTRUCTIVE)
def delete_note(name: str) -> str:
    if _notes.pop(name, None) is None:
        raise ToolError(f"no note named {name!r}")
    return f"deleted note {name!r}"


@app.tool(
    description="Run a shell command on the host. (Fixture: the command is recorded, never executed.)",
    annotations=ToolAnnotations(
        read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=True
    ),
)
def run_command(command: str) -> str:
    _commands.append(command)
    return f"recorded command #{len(_commands)}: {command}"


@app.tool(description="A long task that reports progress once per step.", annotations=_READ_ONLY)
async def long_task(steps: int, ctx: Context) -> str:
    for step in range(1, steps + 1):
        await ctx.report_progress(step, steps, f"step {step} of {steps}")
        await anyio.lowlevel.checkpoint()
    return f"finished {steps} steps"


def _ask(question: str) -> Elicit[Answer]:
    return Elicit(question, Answer)


@app.tool(description="Ask the user a question (elicitation) and return the answer.")
def ask_user(question: str, reply: Annotated[ElicitationResult[Answer], Resolve(_ask)]) -> str:
    if reply.action == "accept":
        return f"user answered: {reply.data.answer}"
    return f"user {reply.action}d"


def _sample(text: str) -> Sample:
    prompt = SamplingMessage(role="user", content=TextContent(type="text", text=f"Summarize:\n{text}"))
    return Sample([prompt], max_tokens=100)


@app.tool(description="Summarize text with the client's model (sampling).")
def summarize(text: str, sampled: Annotated[CreateMessageResult, Resolve(_sample)]) -> str:
    content = sampled.content
    return content.text if isinstance(content, TextContent) else f"<{content.type} summary>"


def _roots() -> ListRoots:
    return ListRoots()


@app.tool(description="List the client's roots (roots/list) as a JSON array of URIs.")
def list_client_roots(roots: Annotated[ListRootsResult, Resolve(_roots)]) -> str:
    return json.dumps([str(root.uri) for root in roots.roots])


@app.prompt(description="Greet someone by name.")
def greet(name: str) -> str:
    return f"Please write a short, friendly greeting for {name}."


@app.resource("notes://welcome", name="welcome-note", mime_type="text/plain")
def welcome_note() -> str:
    return _notes.get("welcome", "")


@app.resource("notes://{name}", name="note", mime_type="text/plain")
def note(name: str) -> str:
    return _notes.get(name, "")


if __name__ == "__main__":
    app.run()
