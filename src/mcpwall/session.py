"""One client's session with one server: every message in both directions passes through here.

`Session` is synchronous and does no I/O of its own: the gateway feeds it lines and gives it two
callables to send lines on. What it forwards is always ``dump`` of the object it checked.

Client → server: requests are checked (tools/call through the pipeline, see `ToolCalls`) and
tracked by id; notifications pass; responses pass only when they answer a request the server
made (or mcpwall's own elicitation).
Server → client: responses pass only when they answer a tracked request (tools/list results are
reviewed and filtered first); server requests are tracked so that only real answers go back.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

from mcpwall import jsonrpc, mcp
from mcpwall.armor.output import cap_result
from mcpwall.armor.rate_limits import RateLimiter
from mcpwall.audit import Auditor
from mcpwall.calls import CallGuard
from mcpwall.collisions import NameCollisions
from mcpwall.errors import ProtocolError
from mcpwall.inspection.normalize import make_visible
from mcpwall.inspection.other import LISTINGS
from mcpwall.inspection.review import Review
from mcpwall.jsonrpc import Kind, Message, RequestId
from mcpwall.pipeline.check import Context
from mcpwall.session_types import Held, Hold, Pending, Policy, Send
from mcpwall.tool_calls import ToolCalls
from mcpwall.transports.lines import Oversized

__all__ = ["Held", "Pending", "Policy", "Session", "visible_text"]


class Session(ToolCalls):
    """Relays and checks the messages of one client session.

    Args:
        server: the server identity.
        pipeline: the checks.
        auditor: where every decision goes.
        to_client: sends one line to the client.
        to_server: sends one line to the server.
    """

    def __init__(
        self, *, server: str, policy: Policy, auditor: Auditor, to_client: Send, to_server: Send, on_hold: Hold
    ) -> None:
        self.id = auditor.session or uuid.uuid4().hex
        self.server = server
        self.policy = policy
        self.audit = auditor
        self.to_client = to_client
        self.to_server = to_server
        self.on_hold = on_hold
        self.facts = mcp.SessionFacts()
        self.tools: dict[str, dict[str, Any]] = {}
        self.pending: dict[RequestId, Pending] = {}
        self.server_pending: set[RequestId] = set()
        self.held: dict[str, Held] = {}
        self.elicitations: dict[str, str] = {}
        self.reviewer = policy.reviewer
        self.others = policy.others
        self.reviews: dict[str, Review] = {}
        self.collisions = _collisions(policy, server, auditor)
        self.guard = CallGuard(
            pipeline=policy.pipeline,
            auditor=auditor,
            limiter=RateLimiter(policy.armor.rate_limits),
            gate=policy.gate,
            store=policy.store,
            danger=policy.danger,
            reply=lambda error: self.to_client(jsonrpc.dump(error)),
        )
        self.guard.shared_budget = policy.shared_budget

    # ----- client → server -------------------------------------------------------------

    def from_client(self, line: bytes | Oversized) -> None:
        """Handle one line from the client."""
        obj = self._parse(line, "client")
        if isinstance(obj, list):
            self._batch(obj, "client", self._client_message)
        elif obj is not None:
            self._client_message(obj)

    def _client_message(self, obj: Any) -> None:
        message = self._classify(obj, "client")
        if message is None:
            return
        if message.kind is Kind.REQUEST:
            self._client_request(message)
        elif message.kind is Kind.NOTIFICATION:
            if message.method == "notifications/cancelled":
                self._cancelled(message.params.get("requestId"))
            self.to_server(jsonrpc.dump(message.obj))
        elif message.id is not None and str(message.id) in self.elicitations:
            self._elicitation_answered(message)
        elif message.id in self.server_pending:
            self.server_pending.discard(message.id)
            self.to_server(jsonrpc.dump(message.obj))
        else:
            self.audit.emit("response_dropped", direction="client", id=message.id, reason="unsolicited")

    def _client_request(self, message: Message) -> None:
        request_id = message.id
        assert request_id is not None  # noqa: S101 -- classify guarantees a request id
        if request_id in self.pending:
            self._refuse(request_id, "client", jsonrpc.INVALID_REQUEST, "duplicate request id")
            return
        if self.facts.learn(message):
            self._session_started()
        if message.method == mcp.TOOLS_CALL:
            self._tool_call(message)
            return
        first_page = message.method == mcp.TOOLS_LIST and "cursor" not in message.params
        self.pending[request_id] = Pending(message.method, time.perf_counter(), whole_listing=first_page)
        self.to_server(jsonrpc.dump(message.obj))

    def _cancelled(self, request_id: Any) -> None:
        """The client gave up on a request: the server will not answer it, so stop waiting."""
        pending = self.pending.pop(request_id, None) if isinstance(request_id, int | str) else None
        if pending is not None and pending.tool is not None:
            self.audit.emit("tool_call_failed", tool=pending.tool, status="CANCELLED")

    def context(self) -> Context:
        """The read-only context checks see now."""
        return Context(
            server=self.server,
            session_id=self.id,
            facts=self.facts,
            tools=self.tools,
            reviews=self.reviews,
            profiles=self.policy.profiles,
            budget=self.guard.budget,
        )

    def _session_started(self) -> None:
        self.audit.emit(
            "session_started",
            era=self.facts.era.value,
            protocol_version=self.facts.protocol_version,
            client_info=self.facts.client_info,
        )

    # ----- server → client -------------------------------------------------------------

    def from_server(self, line: bytes | Oversized) -> None:
        """Handle one line from the server."""
        obj = self._parse(line, "server")
        if isinstance(obj, list):
            self._batch(obj, "server", self._server_message)
        elif obj is not None:
            self._server_message(obj)

    def _server_message(self, obj: Any) -> None:
        message = self._classify(obj, "server")
        if message is None:
            return
        if message.kind is Kind.RESPONSE:
            self._server_response(message)
            return
        if message.kind is Kind.REQUEST:
            if message.id in self.server_pending:
                self.audit.emit("message_rejected", direction="server", reason="duplicate id", id=message.id)
                self.to_server(jsonrpc.dump(jsonrpc.error(message.id, jsonrpc.INVALID_REQUEST, "duplicate id")))
                return
            self.server_pending.add(message.id)  # type: ignore[arg-type] # requests have ids
        self.to_client(jsonrpc.dump(message.obj))

    def _server_response(self, message: Message) -> None:
        pending = self.pending.pop(message.id, None) if message.id is not None else None
        if pending is None:
            self.audit.emit("response_dropped", direction="server", id=message.id, reason="unsolicited")
            return
        if isinstance(message.obj.get("result"), dict) and self.others is not None:
            self._inspect_other(pending.method, message.obj["result"])
        if pending.method == mcp.TOOLS_LIST and "result" in message.obj:
            result = message.obj["result"]
            self._filter_tools(
                result, pending.whole_listing and isinstance(result, dict) and not result.get("nextCursor")
            )
        elif pending.tool is not None:
            self._cap_output(pending, message.obj)
            self._call_finished(pending, message.obj)
        self.to_client(self._scrubbed(jsonrpc.dump(message.obj)))

    def _scrubbed(self, line: bytes) -> bytes:
        """A server's answer with any credential it was given replaced by a marker."""
        if not len(self.policy.secrets):
            return line
        text = line.decode()
        clean = self.policy.secrets.redact(text)
        if clean == text:
            return line
        self.audit.emit("credential_redacted", direction="server")
        return clean.encode()

    def _inspect_other(self, method: str, result: dict[str, Any]) -> None:
        assert self.others is not None  # noqa: S101 -- checked by the caller
        if method in ("initialize", "server/discover") and isinstance(result.get("instructions"), str):
            if not self.others.instructions_allowed(result["instructions"]):
                del result["instructions"]
            else:
                result["instructions"] = make_visible(result["instructions"])
        elif method in LISTINGS:
            self.others.filter_listing(method, result)
            key = LISTINGS[method][0]
            if isinstance(result.get(key), list):
                result[key] = visible_text(result[key])

    def _filter_tools(self, result: Any, complete: bool) -> None:
        tools = mcp.listed_tools(result)
        if tools is None:
            return
        if self.reviewer is not None:
            reviews = self.reviewer.review(tools)
            if self.collisions is not None:
                self.collisions.check(reviews)
            if complete:
                self.reviews.clear()  # a tool the server no longer lists is an unknown route
            self.reviews.update(reviews)
        ctx = self.context()
        visible: list[dict[str, Any]] = []
        hidden: list[dict[str, Any]] = []
        for tool in tools:
            decision = self.policy.pipeline.decide_listed(tool, ctx)
            (hidden if decision.denied else visible).append(tool)
        result["tools"] = [visible_text(tool) for tool in visible]
        self.tools.update({t["name"]: t for t in visible if isinstance(t.get("name"), str)})
        if hidden:
            self.audit.emit("tools_hidden", tools=[str(t.get("name")) for t in hidden])

    def _cap_output(self, pending: Pending, obj: dict[str, Any]) -> None:
        result = obj.get("result")
        if not isinstance(result, dict):
            return
        capped, refused = cap_result(result, self.policy.armor.max_result_bytes, self.policy.armor.on_oversize)
        if capped is not result:
            if "structuredContent" in result and "structuredContent" not in capped:
                capped["isError"] = True  # clients validate structured output: a partial result is an error
            obj["result"] = capped
            self.audit.emit(
                "tool_policy_violation" if refused else "tool_result_truncated",
                tool=pending.tool,
                type=refused.type if refused else "OutputTruncated",
                reason=refused.reason if refused else f"result over {self.policy.armor.max_result_bytes} bytes",
            )

    def _call_finished(self, pending: Pending, obj: dict[str, Any]) -> None:
        result = obj.get("result")
        failed = "error" in obj or (isinstance(result, dict) and result.get("isError") is True)
        self.audit.emit(
            "tool_call_failed" if failed else "tool_call_completed",
            tool=pending.tool,
            status="ERROR" if failed else "SUCCESS",
            duration_ms=round((time.perf_counter() - pending.started) * 1000, 3),
        )

    # ----- shared -----------------------------------------------------------------------

    def time_out(self, older_than: float) -> None:
        """Answer tool calls the server has not answered within ``older_than`` seconds, and cancel them."""
        now = time.perf_counter()
        late = [(rid, p) for rid, p in self.pending.items() if p.tool is not None and now - p.started > older_than]
        for request_id, pending in late:
            del self.pending[request_id]
            self._reply_client(request_id, jsonrpc.UPSTREAM_TIMEOUT, "MCP server did not answer in time")
            notice = {"requestId": request_id, "reason": "mcpwall: timed out"}
            self.to_server(jsonrpc.dump({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": notice}))
            self.audit.emit("tool_call_failed", tool=pending.tool, status="TIMEOUT", after_seconds=older_than)

    def fail_pending(self, code: int, message: str, status: str) -> None:
        """Answer every outstanding client request with an error (the server is gone)."""
        for request_id, pending in list(self.pending.items()):
            self.to_client(jsonrpc.dump(jsonrpc.error(request_id, code, message)))
            if pending.tool is not None:
                self.audit.emit("tool_call_failed", tool=pending.tool, status=status, reason=message)
        self.pending.clear()

    def _parse(self, line: bytes | Oversized, sender: str) -> Any:
        if isinstance(line, Oversized):
            self._oversized(line, sender)
            return None
        try:
            return jsonrpc.loads(line)
        except ProtocolError as exc:
            self.audit.emit("message_rejected", direction=sender, reason=str(exc), size=len(line))
            return None

    def _oversized(self, line: Oversized, sender: str) -> None:
        request_id = jsonrpc.sniff_id(line.prefix)
        self.audit.emit("message_rejected", direction=sender, reason="line too long", size=line.size)
        if sender == "client" and request_id is not None:
            self._reply_client(request_id, jsonrpc.MESSAGE_REJECTED, "message too large")
        elif sender == "server" and request_id in self.pending:
            self.pending.pop(request_id)
            self._reply_client(request_id, jsonrpc.MESSAGE_REJECTED, "server response too large")

    def _classify(self, obj: Any, sender: str) -> Message | None:
        try:
            return jsonrpc.classify(obj)
        except ProtocolError as exc:
            request_id, answerable = _answerable_id(obj)
            self._refuse(request_id, sender, exc.code, str(exc), answer=answerable)
            return None

    def _batch(self, items: list[Any], sender: str, handle: Callable[[Any], None]) -> None:
        if self.facts.batches_allowed and items:
            for item in items:
                handle(item)
            return
        self.audit.emit("message_rejected", direction=sender, reason="batch refused", size=len(items))
        for item in items:
            request_id = item.get("id") if isinstance(item, dict) else None
            if isinstance(request_id, int | str) and not isinstance(request_id, bool):
                self._refuse(request_id, sender, jsonrpc.INVALID_REQUEST, "batches are not accepted")

    def _refuse(
        self, request_id: RequestId | None, sender: str, code: int, reason: str, *, answer: bool = True
    ) -> None:
        """Record a refused message; answer the client, or the client a broken response was for.

        With ``answer`` and no usable id, the client gets the error with id null (JSON-RPC 2.0).
        """
        self.audit.emit("message_rejected", direction=sender, reason=reason, id=request_id)
        if request_id is None:
            if answer and sender == "client":
                self._reply_client(None, code, reason)
            return
        if sender == "client":
            self._reply_client(request_id, code, reason)
        elif self.pending.pop(request_id, None) is not None:
            self._reply_client(request_id, jsonrpc.MESSAGE_REJECTED, "server sent an invalid response")

    def _reply_client(self, request_id: RequestId | None, code: int, message: str) -> None:
        self.to_client(jsonrpc.dump(jsonrpc.error(request_id, code, message)))


def _answerable_id(obj: Any) -> tuple[RequestId | None, bool]:
    """The id to answer an invalid message with, and whether it had an id member at all."""
    if not isinstance(obj, dict) or obj.get("id") is None:
        return None, False
    value = obj["id"]
    if isinstance(value, int | str) and not isinstance(value, bool):
        return value, True
    return None, True


def visible_text(value: Any) -> Any:
    """Every string with its ANSI escapes and invisible characters made visible."""
    if isinstance(value, str):
        return make_visible(value)
    if isinstance(value, dict):
        return {key: visible_text(item) for key, item in value.items()}
    if isinstance(value, list):
        return [visible_text(item) for item in value]
    return value


def _collisions(policy: Policy, server: str, audit: Auditor) -> NameCollisions | None:
    """Name collisions are found through the shared registry (no reviewer or store: none)."""
    if policy.reviewer is None or policy.store is None:
        return None
    settings = policy.reviewer.settings
    block, block_lookalikes = settings.on_name_collision == "block", settings.on_lookalike_name == "block"
    return NameCollisions(policy.store, server, block=block, audit=audit, block_lookalikes=block_lookalikes)
