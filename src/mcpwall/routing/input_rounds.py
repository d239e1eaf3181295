"""A 2026-07-28 upstream's questions for a handshake-era client: ``input_required`` in rounds.

A 2026-07-28 upstream asks its client for input by answering a request (``tools/call``,
``prompts/get``, ``resources/read``) with a result whose ``resultType`` is ``input_required``:
``inputRequests`` (key → ``{method, params}``: ``elicitation/create``, ``sampling/createMessage``,
``roots/list``) and an opaque ``requestState``. A handshake-era client understands none of it:
it answers server-to-client requests. So, for such a client, `InputRounds`:

1. sends each input request to the client as that request, with an id of mcpwall's own
   (``mcpwall-input-<n>``), only when the client declared the capability it needs;
2. waits for every answer (``routing.call_timeout_seconds`` per round);
3. retries the original request to the upstream with ``inputResponses`` (key → the client's
   result) and the ``requestState`` byte for byte, through that upstream's policy session like
   any request of the client's (checked and audited again, each round);
4. repeats while the upstream answers ``input_required``, at most `MAX_ROUNDS` times (the SDK
   client's own default cap), then relays the final answer.

It ends in a JSON-RPC error for the client, never a hang: the client answered with an error
(its code and message are passed on; a *declined* elicitation is a result and goes to the
upstream like any answer), an answer is not a valid result, no answer within the timeout (the
client's question is cancelled), a question the client cannot answer, too many rounds, or a
``requestState``/input key that claims to be mcpwall's own approval (``mcpwall:``,
``mcpwall.confirm``: an upstream must not be able to answer an approval).

Audit (the upstream's session): ``input_requested`` (round, keys, methods), ``input_answered``,
``input_failed`` (reason).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol

from mcp_types.methods import validate_client_result
from mcp_types.version import LATEST_HANDSHAKE_VERSION
from pydantic import ValidationError

from mcpwall import jsonrpc
from mcpwall.approvals import elicitation
from mcpwall.audit import Auditor
from mcpwall.jsonrpc import Message

MAX_ROUNDS: Final = 10
"""How many ``input_required`` answers one request may get before mcpwall gives up."""
ID_PREFIX: Final = "mcpwall-input-"
CAPABILITY: Final = {"elicitation/create": "elicitation", "sampling/createMessage": "sampling", "roots/list": "roots"}
"""The input requests a client can be asked, and the capability it must have declared for each."""
STATE_ONLY_PAUSE: Final = 0.05
"""Seconds before retrying an ``input_required`` that asks nothing (only ``requestState``)."""


class Upstream(Protocol):
    """The part of `UpstreamLink` the rounds use."""

    name: str
    audit: Auditor

    async def request(
        self, method: str, params: dict[str, Any] | None, within: float, request_id: str | None = None
    ) -> dict[str, Any]: ...

    def flush(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the rounds end without the upstream's final answer (the client's JSON-RPC error)."""

    code: int
    message: str
    data: Any = None


class InputRounds:
    """Turns ``input_required`` answers into questions to a handshake-era client, and back.

    Args:
        send: writes one line to the client.
        within: seconds the client has to answer one round (and the upstream one retry).
        capabilities: what the client declared (read when a question is to be asked).
    """

    def __init__(
        self, send: Callable[[bytes], None], within: float, capabilities: Callable[[], dict[str, Any]]
    ) -> None:
        self._send = send
        self._within = within
        self._capabilities = capabilities
        self._asked: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)

    def answered(self, message: Message) -> bool:
        """Take a client's response when it answers one of these questions; True when it did."""
        waiting = self._asked.pop(str(message.id), None)
        if waiting is None:
            return False
        if not waiting.done():
            waiting.set_result(message.obj)
        return True

    async def settle(
        self, link: Upstream, method: str, params: dict[str, Any], answer: dict[str, Any]
    ) -> dict[str, Any]:
        """The upstream's final answer to ``method``: every ``input_required`` round resolved
        through the client, or the error that ended them (a response without an id)."""
        for round_number in range(1, MAX_ROUNDS + 1):
            result = answer.get("result")
            if not isinstance(result, dict) or not asks_input(answer):
                return answer
            outcome = await self._round(link, result, round_number)
            if isinstance(outcome, Refusal):
                link.audit.emit("input_failed", round=round_number, reason=outcome.message)
                return jsonrpc.error(None, outcome.code, outcome.message, outcome.data)
            answer = await self._retry(link, method, params, outcome, result.get("requestState"))
        reason = f"the server asked for input more than {MAX_ROUNDS} times"
        link.audit.emit("input_failed", round=MAX_ROUNDS, reason=reason)
        return jsonrpc.error(None, jsonrpc.MESSAGE_REJECTED, reason, {"reason": "too many input rounds"})

    async def _round(
        self, link: Upstream, result: dict[str, Any], round_number: int
    ) -> dict[str, Any] | Refusal | None:
        """The client's answers to one round (None when it asked nothing), or a refusal."""
        requests, state = result.get("inputRequests"), result.get("requestState")
        refused = _unacceptable(requests, state) or self._unaskable(requests or {})
        if refused is not None:
            return refused
        if not requests:
            await asyncio.sleep(STATE_ONLY_PAUSE * round_number)
            return None
        link.audit.emit(
            "input_requested", round=round_number, keys=list(requests), methods=[r["method"] for r in requests.values()]
        )
        answers = await self._ask(link, requests)
        if not isinstance(answers, Refusal):
            link.audit.emit("input_answered", round=round_number, keys=list(answers))
        return answers

    def _unaskable(self, requests: dict[str, Any]) -> Refusal | None:
        declared = self._capabilities()
        for request in requests.values():
            method = request.get("method") if isinstance(request, dict) else None
            if method not in CAPABILITY:
                return Refusal(jsonrpc.MESSAGE_REJECTED, f"the server asked for unknown input: {method!r}")
            if "params" in request and not isinstance(request["params"], dict):
                return Refusal(jsonrpc.MESSAGE_REJECTED, f"the server's {method} request has invalid params")
            if CAPABILITY[method] not in declared:
                text = f"the server asked for {method}, but the client did not declare {CAPABILITY[method]!r}"
                return Refusal(jsonrpc.MESSAGE_REJECTED, text)
        return None

    async def _ask(self, link: Upstream, requests: dict[str, dict[str, Any]]) -> dict[str, Any] | Refusal:
        asked = {key: self._question(request) for key, request in requests.items()}
        link.flush()
        waits = {future: key for key, (_, future) in asked.items()}
        answers: dict[str, Any] = {}
        try:
            for done in asyncio.as_completed(waits, timeout=self._within):
                response = await done
                key = next(k for k, (qid, _) in asked.items() if str(response.get("id")) == qid)
                outcome = _answer(requests[key]["method"], response)
                if isinstance(outcome, Refusal):
                    return outcome
                answers[key] = outcome
        except TimeoutError:
            return self._unanswered(link, asked, answers)
        finally:
            for question_id, _ in asked.values():
                self._asked.pop(question_id, None)
        return answers

    def _question(self, request: dict[str, Any]) -> tuple[str, asyncio.Future[dict[str, Any]]]:
        question_id = f"{ID_PREFIX}{next(self._ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._asked[question_id] = future
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": question_id, "method": request["method"]}
        if "params" in request:
            body["params"] = request["params"]
        self._send(jsonrpc.dump(body))
        return question_id, future

    def _unanswered(
        self, link: Upstream, asked: dict[str, tuple[str, asyncio.Future[dict[str, Any]]]], answers: dict[str, Any]
    ) -> Refusal:
        late = [key for key in asked if key not in answers]
        for key in late:
            notice = {"requestId": asked[key][0], "reason": "mcpwall: no answer in time"}
            self._send(jsonrpc.dump({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": notice}))
        link.flush()
        text = f"the client did not answer the server's question in {self._within:g} s"
        return Refusal(jsonrpc.UPSTREAM_TIMEOUT, text, {"reason": "no answer from the client", "keys": late})

    async def _retry(
        self, link: Upstream, method: str, params: dict[str, Any], answers: dict[str, Any] | None, state: Any
    ) -> dict[str, Any]:
        retried = {k: v for k, v in params.items() if k not in ("inputResponses", "requestState")}
        if answers is not None:
            retried["inputResponses"] = answers
        if state is not None:
            retried["requestState"] = state
        try:
            return await link.request(method, retried, self._within)
        except TimeoutError:
            return jsonrpc.error(None, jsonrpc.UPSTREAM_TIMEOUT, "MCP server did not answer in time")


def asks_input(answer: dict[str, Any]) -> bool:
    """Whether an upstream's answer is an ``input_required`` result."""
    result = answer.get("result")
    return isinstance(result, dict) and result.get("resultType") == "input_required"


def _unacceptable(requests: Any, state: Any) -> Refusal | None:
    """An ``input_required`` mcpwall will not relay: malformed, or posing as mcpwall's approval."""
    if requests is not None and not isinstance(requests, dict):
        return Refusal(jsonrpc.MESSAGE_REJECTED, "the server's inputRequests is not an object")
    if state is not None and not isinstance(state, str):
        return Refusal(jsonrpc.MESSAGE_REJECTED, "the server's requestState is not a string")
    if (isinstance(state, str) and state.startswith(elicitation.STATE_PREFIX)) or elicitation.INPUT_KEY in (
        requests or {}
    ):
        return Refusal(jsonrpc.MESSAGE_REJECTED, "the server's input request uses mcpwall's reserved names")
    if not requests and state is None:
        return Refusal(jsonrpc.MESSAGE_REJECTED, "the server asked for input but sent neither requests nor state")
    return None


def _answer(method: str, response: dict[str, Any]) -> dict[str, Any] | Refusal:
    """The client's result for one question, or the refusal its error or a bad result means."""
    error = response.get("error")
    if isinstance(error, dict):
        code = error.get("code")
        code = code if isinstance(code, int) and not isinstance(code, bool) else jsonrpc.INTERNAL_ERROR
        text = f"the client refused the server's {method}: {error.get('message')}"
        return Refusal(code, text, error.get("data"))
    result = response.get("result")
    if not isinstance(result, dict) or not valid_answer(method, result):
        return Refusal(jsonrpc.MESSAGE_REJECTED, f"the client's answer to {method} is not a valid result")
    return result


def valid_answer(method: str, result: dict[str, Any]) -> bool:
    """Whether a handshake-era client's answer has the shape of ``method``'s result."""
    try:
        validate_client_result(method, LATEST_HANDSHAKE_VERSION, result)
    except ValidationError:
        return False
    return True
