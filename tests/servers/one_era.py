"""The well-behaved fixture server, speaking only one protocol era.

Run: `python tests/servers/one_era.py modern|handshake` (stdio).

- `modern`: a 2026-07-28-only server. `initialize` is refused with UNSUPPORTED_PROTOCOL_VERSION
  (-32022), as the SDK refuses it on a 2026-07-28 connection; everything else is the SDK's own
  serving, so its questions (elicitation, sampling, roots) come as `input_required` results.
- `handshake`: a handshake-only server. A request carrying the 2026-07-28 `_meta` envelope (and
  `server/discover`) is refused with METHOD_NOT_FOUND, as a pre-2026 server does; its questions
  come as JSON-RPC requests to the client mid-call.

Tools: those of `wellbehaved.py` (`ask_user`, `summarize`, `list_client_roots`, ...) and
`ask_twice(question)`: an elicitation whose answer decides a second one (two rounds in 2026-07-28).

Environment: `FIXTURE_LOG` (see `_fixture_log.py`) records every `tools/call` received.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import anyio
from mcp.server.mcpserver import Elicit, Resolve
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import ErrorData
from mcp_types.jsonrpc import METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION, JSONRPCError, JSONRPCRequest
from wellbehaved import Answer, app

ENVELOPE_VERSION = "io.modelcontextprotocol/protocolVersion"


def _first(question: str) -> Elicit[Answer]:
    return Elicit(question, Answer)


def _second(first: Annotated[Answer, Resolve(_first)]) -> Elicit[Answer]:
    return Elicit(f"You said {first.answer!r}. Anything to add?", Answer)


@app.tool(description="Ask the user twice; the second question depends on the first answer.")
def ask_twice(
    question: str, first: Annotated[Answer, Resolve(_first)], second: Annotated[Answer, Resolve(_second)]
) -> str:
    return f"first: {first.answer}; second: {second.answer}"


def _refusal(era: str, message: SessionMessage | Exception) -> ErrorData | None:
    """The error this era's server answers a request of the other era with, or None."""
    request = getattr(message, "message", None)
    if not isinstance(request, JSONRPCRequest):
        return None
    if era == "modern" and request.method == "initialize":
        text = "this server speaks only the 2026-07-28 protocol"
        return ErrorData(code=UNSUPPORTED_PROTOCOL_VERSION, message=text, data={"supported": ["2026-07-28"]})
    meta: Any = (request.params or {}).get("_meta")
    enveloped = isinstance(meta, dict) and ENVELOPE_VERSION in meta
    if era == "handshake" and (enveloped or request.method == "server/discover"):
        return ErrorData(code=METHOD_NOT_FOUND, message=f"Method not found: {request.method}")
    return None


async def main(era: str) -> None:
    async with stdio_server() as (read_stream, write_stream):
        inner_send, inner_read = anyio.create_memory_object_stream[SessionMessage | Exception](100)

        async def gate() -> None:
            async with inner_send:
                async for message in read_stream:
                    refusal = _refusal(era, message)
                    if refusal is None:
                        await inner_send.send(message)
                    else:
                        assert isinstance(message, SessionMessage)
                        assert isinstance(message.message, JSONRPCRequest)
                        answer = JSONRPCError(jsonrpc="2.0", id=message.message.id, error=refusal)
                        await write_stream.send(SessionMessage(answer))

        server = app._lowlevel_server  # the SDK's serving loop, behind the era gate
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(gate)
            await server.run(inner_read, write_stream, server.create_initialization_options())
            tasks.cancel_scope.cancel()


if __name__ == "__main__":
    anyio.run(main, sys.argv[1])
