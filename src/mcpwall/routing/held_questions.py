"""A handshake-era upstream's questions for a 2026-07-28 client: held, asked as ``input_required``.

A 2026-07-28 client takes no requests from a server: it learns that input is needed from an
``input_required`` answer to one of its own requests, and retries that request with the answers.
A handshake-era upstream asks mid-call, with a JSON-RPC request (``elicitation/create``,
``sampling/createMessage``, ``roots/list``). So, for a 2026-07-28 client, `HeldQuestions`:

1. holds the upstream's request and answers the client's ``tools/call`` in flight on that
   upstream (the oldest, when several are: a handshake-era request names no call) with an
   ``input_required`` result: the question under its own key, ``requestState``
   ``mcpwall-held:<token>``. A question asked while no call of this client is in flight, or one
   the client declared no capability for, gets an error at once;
2. takes the client's retry: it must name the same tool with the same arguments and pass the
   client's own checks of a call (routing, manifest) before it is taken; each answer in
   ``inputResponses`` goes to the upstream as the response to its request, through that
   upstream's session (which lets through only answers to requests it saw);
3. gives the retry what comes next: the upstream's final answer to the original call (also one
   that arrived before the retry), or its next question as another ``input_required``.

Nothing waits for ever: a call whose client does not retry is timed out by the upstream's session
like any call (the upstream is sent ``notifications/cancelled``), and a settled call the client
never came back for is forgotten after ``routing.call_timeout_seconds``. A state that is unknown,
already being retried, or names another call is refused (INVALID_REQUEST).

Audit (the upstream's session): ``input_requested`` (keys, methods), ``input_answered`` (keys),
``input_failed`` (a question refused at once).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from mcpwall import jsonrpc
from mcpwall.audit import Auditor
from mcpwall.jsonrpc import Message, RequestId
from mcpwall.routing.input_rounds import CAPABILITY, valid_answer

STATE_PREFIX: Final = "mcpwall-held:"
CallKey = tuple[str, str]
"""An upstream's name and the id of the call mcpwall sent it."""


class Upstream(Protocol):
    """The part of `UpstreamLink` the held questions use."""

    name: str
    audit: Auditor

    def send(self, message: dict[str, Any]) -> None: ...


@dataclass(slots=True)
class HeldCall:
    """A client's call its upstream asked questions about."""

    link: Upstream
    call: CallKey
    sent: dict[str, Any]
    """The call's params as the upstream got them (its own tool name): a retry must repeat them."""
    questions: dict[str, tuple[RequestId, dict[str, Any]]] = field(default_factory=dict)
    """Open questions: key → (the upstream's request id, the input request)."""
    final: dict[str, Any] | None = None
    """The upstream's answer to the call, when it came while no request of the client waited."""
    since: float = field(default_factory=time.monotonic)


class HeldQuestions:
    """The held calls of one 2026-07-28 client session.

    A held call has a request of the client waiting for it exactly when it is in ``calls``.

    Args:
        calls: the aggregate's calls in flight: (upstream, id sent) → the client's request id.
        forwarded: the reverse of ``calls`` (the client's id → (upstream, id sent)).
        sent: the params of each call in flight, as the upstream got them.
        reply: sends one answer (a response without id) to the client under the given id.
        capabilities: what the client declared.
        within: seconds a settled call waits for its retry before it is forgotten.
    """

    def __init__(
        self,
        calls: dict[CallKey, RequestId],
        forwarded: dict[RequestId, CallKey],
        sent: dict[CallKey, dict[str, Any]],
        reply: Callable[[RequestId, dict[str, Any]], None],
        capabilities: Callable[[], dict[str, Any]],
        within: float,
    ) -> None:
        self._calls = calls
        self._forwarded = forwarded
        self._sent = sent
        self._reply = reply
        self._capabilities = capabilities
        self._within = within
        self._held: dict[str, HeldCall] = {}
        self._by_call: dict[CallKey, str] = {}
        self._tokens = itertools.count(1)

    def asked(self, link: Upstream, message: dict[str, Any]) -> bool:
        """Hold an upstream's question when it is one; True when it was taken."""
        method = message.get("method")
        if method not in CAPABILITY:
            return False
        call = next((key for key in (*self._calls, *self._by_call) if key[0] == link.name), None)
        if call is None or call not in self._sent or CAPABILITY[method] not in self._capabilities():
            reason = "no call of the client is in flight" if call is None else "it did not declare the capability"
            text = f"mcpwall: the client speaks 2026-07-28 and cannot be asked {method} now: {reason}"
            link.audit.emit("input_failed", methods=[method], reason=reason)
            link.send(jsonrpc.error(message["id"], jsonrpc.METHOD_NOT_FOUND, text))
            return True
        held = self._hold(link, call)
        key = f"{method}#{message['id']}"
        held.questions[key] = (
            message["id"],
            {"method": method, **({"params": message["params"]} if "params" in message else {})},
        )
        link.audit.emit("input_requested", keys=[key], methods=[method])
        if call in self._calls:
            self._ask(held)
        return True

    def retried(self, message: Message, route: tuple[str, str]) -> bool:
        """Take a client's retry of a held call (``route``: where its tool name goes); True when taken."""
        state = message.params.get("requestState")
        if not (isinstance(state, str) and state.startswith(STATE_PREFIX)):
            return False
        assert message.id is not None  # noqa: S101 -- a request
        held = self._held.get(state[len(STATE_PREFIX) :])
        refused = self._mismatch(held, message, route)
        answers = message.params.get("inputResponses")
        if refused is None and held is not None:
            refused = self._answered(held, answers if isinstance(answers, dict) else {})
        if refused is not None or held is None:
            self._reply(message.id, jsonrpc.error(None, jsonrpc.INVALID_REQUEST, refused or ""))
            return True
        self._next(held, message.id)
        return True

    def finished(self, call: CallKey, answer: dict[str, Any]) -> bool:
        """An upstream's answer to a held call no request waits for: kept for the retry."""
        token = self._by_call.get(call)
        if token is None:
            return False
        self._held[token].final = answer
        return True

    def settled(self, call: CallKey) -> None:
        """The call's answer went to the client: nothing is held for it any more."""
        token = self._by_call.pop(call, None)
        if token is not None:
            self._held.pop(token, None)

    def _hold(self, link: Upstream, call: CallKey) -> HeldCall:
        token = self._by_call.get(call)
        if token is not None:
            return self._held[token]
        self._forget_stale()
        token = f"{next(self._tokens)}.{call[1]}"
        held = self._held[token] = HeldCall(link, call, self._sent[call])
        self._by_call[call] = token
        return held

    def _ask(self, held: HeldCall) -> None:
        """Answer the waiting request with ``input_required`` for every open question."""
        waiting = self._calls.pop(held.call)
        self._forwarded.pop(waiting, None)
        result = {
            "resultType": "input_required",
            "inputRequests": {key: request for key, (_, request) in held.questions.items()},
            "requestState": STATE_PREFIX + self._by_call[held.call],
        }
        self._reply(waiting, {"jsonrpc": "2.0", "result": result})

    def _mismatch(self, held: HeldCall | None, message: Message, route: tuple[str, str]) -> str | None:
        """Why a retry cannot be taken for ``held``, or None."""
        if held is None:
            return "unknown or settled input state"
        if held.call in self._calls:
            return "this input state is already being retried"
        same_tool = route == (held.call[0], held.sent.get("name"))
        if not same_tool or message.params.get("arguments") != held.sent.get("arguments"):
            return "the retry does not repeat the call its input state belongs to"
        return None

    def _answered(self, held: HeldCall, answers: dict[str, Any]) -> str | None:
        """Send each answer to the upstream; why the answers are refused, or None."""
        unknown = [key for key in answers if key not in held.questions]
        if unknown:
            return f"inputResponses answer nothing that was asked: {unknown}"
        for key, answer in answers.items():
            method = held.questions[key][1]["method"]
            if not isinstance(answer, dict) or not valid_answer(method, answer):
                return f"the answer to {key} is not a valid {method} result"
        for key, answer in answers.items():
            request_id, _ = held.questions.pop(key)
            held.link.send({"jsonrpc": "2.0", "id": request_id, "result": answer})
        if answers:
            held.link.audit.emit("input_answered", keys=list(answers))
        return None

    def _next(self, held: HeldCall, retry: RequestId) -> None:
        """What the retry gets: the open questions or the final answer now, or whichever comes next."""
        self._calls[held.call] = retry
        self._forwarded[retry] = held.call
        if held.questions:
            self._ask(held)
        elif held.final is not None:
            self._calls.pop(held.call)
            self._forwarded.pop(retry)
            self._sent.pop(held.call, None)
            self._reply(retry, held.final)
            self.settled(held.call)

    def _forget_stale(self) -> None:
        cutoff = time.monotonic() - self._within
        stale = [h.call for h in self._held.values() if h.final is not None and h.since < cutoff]
        for call in stale:
            self._sent.pop(call, None)
            self.settled(call)
