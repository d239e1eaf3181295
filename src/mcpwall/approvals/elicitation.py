"""Asking the user through the client (MCP elicitation), in both protocol eras.

- handshake era: mcpwall sends its own ``elicitation/create`` request to the client (ids
  ``mcpwall-elicit-<ticket>``) and decides the ticket from the answer;
- 2026-07-28: mcpwall answers the tools/call with an ``input_required`` result carrying the
  elicitation and ``requestState`` ``mcpwall:<ticket>``; the client retries the call with the
  user's answer in ``inputResponses``, which mcpwall takes out before forwarding.

Only an answer to mcpwall's own question, for a ticket of this session, decides anything: an
unsolicited response is dropped, and a ``requestState`` naming another session's ticket is refused.
"""

from __future__ import annotations

from typing import Any, Final

from mcpwall.mcp import ToolCall

REQUEST_PREFIX: Final = "mcpwall-elicit-"
STATE_PREFIX: Final = "mcpwall:"
INPUT_KEY: Final = "mcpwall.confirm"

SCHEMA: Final = {
    "type": "object",
    "properties": {"approve": {"type": "boolean", "title": "Approve this call", "default": False}},
    "required": ["approve"],
}


def question(server: str, call: ToolCall, ticket: str) -> dict[str, Any]:
    """The ``elicitation/create`` params that ask the user about one call."""
    shown = ", ".join(f"{k}={str(v)[:80]!r}" for k, v in list(call.arguments.items())[:8])
    message = f"mcpwall: allow the agent to call {call.name} on {server} ({shown})? Ticket {ticket}."
    return {"mode": "form", "message": message, "requestedSchema": SCHEMA}


def request(server: str, call: ToolCall, ticket: str) -> dict[str, Any]:
    """mcpwall's own elicitation request (handshake era)."""
    return {
        "jsonrpc": "2.0",
        "id": REQUEST_PREFIX + ticket,
        "method": "elicitation/create",
        "params": question(server, call, ticket),
    }


def input_required(server: str, call: ToolCall, ticket: str) -> dict[str, Any]:
    """The tools/call result that asks for the user's answer (2026-07-28)."""
    elicit = {"method": "elicitation/create", "params": question(server, call, ticket)}
    result = {
        "resultType": "input_required",
        "inputRequests": {INPUT_KEY: elicit},
        "requestState": STATE_PREFIX + ticket,
    }
    return {"jsonrpc": "2.0", "id": call.request_id, "result": result}


def approved(answer: Any) -> bool:
    """Whether an elicitation result says yes: accepted, with ``approve: true``."""
    if not isinstance(answer, dict) or answer.get("action") != "accept":
        return False
    content = answer.get("content")
    return isinstance(content, dict) and content.get("approve") is True


def ticket_of_state(params: dict[str, Any]) -> str | None:
    """The ticket named by a retried call's ``requestState``, when it is mcpwall's."""
    state = params.get("requestState")
    if isinstance(state, str) and state.startswith(STATE_PREFIX):
        return state[len(STATE_PREFIX) :]
    return None


def take_answer(params: dict[str, Any]) -> Any:
    """Remove mcpwall's fields from a retried call's params; the user's answer (or None)."""
    params.pop("requestState", None)
    responses = params.get("inputResponses")
    answer = responses.pop(INPUT_KEY, None) if isinstance(responses, dict) else None
    if isinstance(responses, dict) and not responses:
        params.pop("inputResponses")
    return answer
