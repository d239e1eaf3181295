"""The aggregate gateway: one client session in front of every server of the configuration.

mcpwall answers initialize and server/discover itself with merged capabilities, in the client's
era (`eras`: a 2026-07-28 client's requests pass the SDK's envelope ladder, and every result it
gets carries resultType and mcpwall's serverInfo; each upstream is opened in the client's era when
it can be, see `handshake`). tools/list is the union of each
server's listing — each through that server's own policy session (`UpstreamLink`) — with names
made unique and client-safe (`names`); a call is routed by the capability index, renamed back to
the server's own tool name and given an id of the gateway's; its answer comes back under the
client's id. Server-to-client requests get ids of their own (``server/id``) and their answers
are routed back; list_changed notifications reach the client; progress tokens pass as they are.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine
from typing import Any, Protocol

from mcpwall import jsonrpc, mcp
from mcpwall.audit import Auditor
from mcpwall.errors import ProtocolError
from mcpwall.jsonrpc import Kind, Message
from mcpwall.routing import eras, front
from mcpwall.routing.held_questions import HeldQuestions
from mcpwall.routing.index import CapabilityIndex
from mcpwall.routing.input_rounds import InputRounds, asks_input
from mcpwall.routing.link import UpstreamLink
from mcpwall.routing.names import Route, public_names
from mcpwall.routing.settings import RoutingSettings
from mcpwall.transports.lines import Oversized

log = logging.getLogger(__name__)

LIST_PAGES = 100
LISTINGS = {"prompts/list": "prompts", "resources/list": "resources", "resources/templates/list": "resourceTemplates"}


class Manifest(Protocol):
    """Which ``server/tool`` operations an agent may use (`mcpwall.identity.ToolManifest`)."""

    def permits(self, operation: str) -> bool: ...


class Aggregate:
    """The client-facing half of ``mcpwall serve``.

    Args:
        links: one link per configured server, not started.
        settings: pool size, timeouts, prefix routes.
        auditor: the gateway's own audit (messages refused before any server is chosen).
        send: writes one line to the client.
        manifest: the tools this client's agent may see and call (``server/tool``), if limited.
    """

    def __init__(
        self,
        links: dict[str, UpstreamLink],
        settings: RoutingSettings,
        auditor: Auditor,
        send: Any,
        manifest: Manifest | None = None,
    ) -> None:
        self.manifest = manifest
        self.links = links
        self.settings = settings
        self.audit = auditor
        self.send = send
        self.index = CapabilityIndex(settings.routes)
        self.capabilities: dict[str, Any] = {}
        self.facts = mcp.SessionFacts()
        self.calls: dict[tuple[str, str], jsonrpc.RequestId] = {}
        self.forwarded: dict[jsonrpc.RequestId, tuple[str, str]] = {}
        self.reverse: dict[str, tuple[str, jsonrpc.RequestId]] = {}
        self.sent: dict[tuple[str, str], dict[str, Any]] = {}
        self.questions = InputRounds(send, settings.call_timeout_seconds, lambda: self.capabilities)
        self.held = HeldQuestions(
            self.calls,
            self.forwarded,
            self.sent,
            self._answer_call,
            lambda: self.capabilities,
            settings.call_timeout_seconds,
        )
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        """The session is shutting down: its servers are being stopped, so a health check in flight
        judges nothing (a ping its stopping server answers with an error is not a hang)."""
        self._ids = 0
        self._lock = asyncio.Lock()
        self.prompts: dict[str, Route] = {}
        self._prompt_owners: list[tuple[str, dict[str, Any]]] = []
        self.resource_owners: dict[str, str] = {}

    # ----- from the client ---------------------------------------------------------------

    def from_client(self, line: bytes | Oversized) -> None:
        """Handle one line from the client."""
        if isinstance(line, Oversized):
            self.audit.emit("message_rejected", direction="client", reason="line too long", size=line.size)
            return
        try:
            message = jsonrpc.classify(jsonrpc.loads(line))
        except ProtocolError as exc:
            self.audit.emit("message_rejected", direction="client", reason=str(exc))
            return
        self.from_client_message(message)

    def from_client_message(self, message: Message) -> None:
        """Handle one message from the client, already parsed (the HTTP front parses a body once)."""
        if message.kind is Kind.REQUEST:
            self._request(message)
        elif message.kind is Kind.NOTIFICATION:
            self._notification(message)
        else:
            self._answer_to_server(message)

    def _request(self, message: Message) -> None:
        method, request_id = message.method, message.id
        if not self._admitted(message):
            return
        if method == "initialize":
            self._reply(request_id, front.initialize_result(message.params, None), method)
        elif method == "server/discover":
            self._reply(request_id, eras.discover_result(), method)
        elif method == "ping":
            self._reply(request_id, {}, method)
        elif method == "tools/list":
            self._spawn(self._list_tools(request_id))
        elif method == "tools/call":
            self._route_call(message)
        elif method in LISTINGS:
            self._spawn(self._list_other(method, request_id))
        elif method in ("prompts/get", "resources/read"):
            self._spawn(self._fetch_other(message))
        else:
            self._error(request_id, jsonrpc.METHOD_NOT_FOUND, f"method not available through the gateway: {method}")

    def _admitted(self, message: Message) -> bool:
        """Refuse what the 2026-07-28 envelope ladder refuses; learn the client's era and capabilities."""
        refused = eras.rejection(message)
        if refused is not None:
            reason = refused["error"]["message"]
            self.audit.emit("message_rejected", direction="client", reason=reason, id=message.id)
            self.send(jsonrpc.dump(refused))
            return False
        if self.facts.learn(message):
            self.capabilities = self.facts.capabilities
            facts = self.facts
            self.audit.emit(
                "session_started",
                era=facts.era.value,
                protocol_version=facts.protocol_version,
                client_info=facts.client_info,
            )
        return True

    @property
    def modern(self) -> bool:
        """Whether the client speaks the 2026-07-28 era."""
        return self.facts.era is mcp.Era.STATELESS

    def _notification(self, message: Message) -> None:
        if message.method == "notifications/cancelled":
            target = self.forwarded.get(message.params.get("requestId"))  # type: ignore[arg-type] # any id shape
            if target is not None:
                link = self.links[target[0]]
                params = {**message.params, "requestId": target[1]}
                link.send({"jsonrpc": "2.0", "method": message.method, "params": params})
        elif message.method == "notifications/roots/list_changed":
            for link in self.links.values():
                if link.running:
                    link.send(message.obj)

    def _answer_to_server(self, message: Message) -> None:
        if self.questions.answered(message):
            return
        target = self.reverse.pop(str(message.id), None)
        if target is None:
            self.audit.emit("response_dropped", direction="client", id=message.id, reason="unsolicited")
            return
        link = self.links[target[0]]
        if link.running:
            link.send({**message.obj, "id": target[1]})

    # ----- tools -----------------------------------------------------------------------------

    async def _list_tools(self, request_id: jsonrpc.RequestId | None) -> None:
        tools: list[dict[str, Any]] = []
        for name, link in self.links.items():
            listed = await self._listing(link)
            if listed is None:
                continue
            listed = [t for t in listed if self._permitted(name, t["name"])]
            self.index.listed(name, [t["name"] for t in listed])
            tools += [{**t, "name": self.index.public((name, t["name"]))} for t in listed]
        self._reply(request_id, {"tools": tools}, "tools/list")

    async def _listing(self, link: UpstreamLink) -> list[dict[str, Any]] | None:
        if not await self._ensure(link):
            return None
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        for _ in range(LIST_PAGES):
            answer = await link.request(
                "tools/list", {"cursor": cursor} if cursor else None, self.settings.call_timeout_seconds
            )
            result = answer.get("result")
            if not isinstance(result, dict):
                self.audit.emit("upstream_failed", upstream=link.name, reason="tools/list failed")
                return None
            tools += [t for t in result.get("tools", []) if isinstance(t, dict) and isinstance(t.get("name"), str)]
            cursor = result.get("nextCursor")
            if not isinstance(cursor, str):
                return tools
        return tools

    # ----- prompts and resources -------------------------------------------------------------

    async def _list_other(self, method: str, request_id: jsonrpc.RequestId | None) -> None:
        key = LISTINGS[method]
        if key == "prompts":
            self._prompt_owners = []
        merged: list[dict[str, Any]] = []
        for name, link in self.links.items():
            if not await self._ensure(link):
                continue
            answer = await link.request(method, None, self.settings.call_timeout_seconds)
            entries = answer.get("result", {}).get(key) if isinstance(answer.get("result"), dict) else None
            merged += [self._own(name, key, entry) for entry in entries or [] if isinstance(entry, dict)]
        if key == "prompts":
            self.prompts = public_names((s, str(p.get("name"))) for s, p in self._prompt_owners)
            merged = [{**p, "name": self._prompt_name(p)} for p in merged]
        self._reply(request_id, {key: merged}, method)

    def _own(self, server: str, key: str, entry: dict[str, Any]) -> dict[str, Any]:
        if key == "prompts":
            self._prompt_owners.append((server, entry))
        elif isinstance(entry.get("uri"), str):
            self.resource_owners[entry["uri"]] = server
        return entry

    def _prompt_name(self, prompt: dict[str, Any]) -> str:
        server = next(s for s, p in self._prompt_owners if p is prompt)
        return next(n for n, route in self.prompts.items() if route == (server, prompt.get("name")))

    async def _fetch_other(self, message: Message) -> None:
        params = dict(message.params)
        if message.method == "prompts/get":
            route = self.prompts.get(str(params.get("name")))
            server = route[0] if route else None
            if route:
                params["name"] = route[1]
        else:
            server = self.resource_owners.get(str(params.get("uri")))
        link = self.links.get(server or "")
        if link is None or not await self._ensure(link):
            self._error(message.id, jsonrpc.INVALID_PARAMS, "unknown prompt or resource")
            return
        answer = await link.request(message.method, params, self.settings.call_timeout_seconds)
        if not self.modern and asks_input(answer):
            answer = await self.questions.settle(link, message.method, params, answer)
        self.send(jsonrpc.dump(self._shaped(message.method, {**answer, "id": message.id})))

    def _route_call(self, message: Message) -> None:
        name = message.params.get("name")
        route = self.index.resolve(name) if isinstance(name, str) else None
        if route is None or route[0] not in self.links or not self._permitted(*route):
            self.audit.emit("tool_call_denied", tool=str(name), violation="ToolNotFound", status="PERMISSION_DENIED")
            data = {"violation": "ToolNotFound", "tool": name}
            self._error(message.id, jsonrpc.POLICY_DENIED, "Blocked by mcpwall policy.", data)
            return
        if self.modern and self.held.retried(message, route):
            return
        link = self.links[route[0]]
        if link.running and not self._lock.locked():  # started, and no start under way: forward now
            self._forward(link, route[1], message)
        else:
            self._spawn(self._call(link, route[1], message))

    async def _call(self, link: UpstreamLink, tool: str, message: Message) -> None:
        if not await self._ensure(link):
            self._error(message.id, jsonrpc.UPSTREAM_UNAVAILABLE, "MCP server is not running")
            return
        self._forward(link, tool, message)

    def _forward(self, link: UpstreamLink, tool: str, message: Message) -> None:
        """Send a routed call upstream; a failure is answered, whichever path got here."""
        try:
            self._send_call(link, tool, message)
        except Exception:  # boundary: the client gets an error, never silence
            log.exception("mcpwall: forwarding a call to %s failed", link.name)
            self._error(message.id, jsonrpc.INTERNAL_ERROR, "mcpwall failed to forward the call")

    def _send_call(self, link: UpstreamLink, tool: str, message: Message) -> None:
        self._ids += 1
        upstream_id = f"a{self._ids}"
        assert message.id is not None  # noqa: S101 -- a request
        self.calls[(link.name, upstream_id)] = message.id
        self.forwarded[message.id] = (link.name, upstream_id)
        params = self.sent[(link.name, upstream_id)] = {**message.params, "name": tool}
        link.send({**message.obj, "id": upstream_id, "params": params})
        self.flush()

    def _permitted(self, server: str, tool: str) -> bool:
        return self.manifest is None or self.manifest.permits(f"{server}/{tool}")

    # ----- from an upstream ------------------------------------------------------------------

    def deliver(self, link: UpstreamLink, message: dict[str, Any]) -> None:
        """What an upstream's session lets out toward the client."""
        method = message.get("method")
        if method is None:
            key = (link.name, str(message.get("id")))
            client_id, params = self.calls.pop(key, None), self.sent.pop(key, None)
            if client_id is None:
                self.held.finished(key, message)
                return
            self.forwarded.pop(client_id, None)
            self.held.settled(key)
            if params is not None and not self.modern and asks_input(message):
                self._spawn(self._settled_call(link, client_id, params, message))
            else:
                self._answer_call(client_id, message)
        elif "id" in message:
            if self.modern and not link.era.modern and self.held.asked(link, message):
                return
            public_id = f"{link.name}/{message['id']}"
            self.reverse[public_id] = (link.name, message["id"])
            self.send(jsonrpc.dump({**message, "id": public_id}))
        elif isinstance(method, str) and method.endswith("/list_changed"):
            self.send(jsonrpc.dump({"jsonrpc": "2.0", "method": method}))
        else:
            self.send(jsonrpc.dump(message))

    async def _settled_call(
        self, link: UpstreamLink, client_id: jsonrpc.RequestId, params: dict[str, Any], first: dict[str, Any]
    ) -> None:
        """A handshake-era client's call a 2026-07-28 upstream asked questions about (`input_rounds`)."""
        try:
            answer = await self.questions.settle(link, "tools/call", params, first)
        except Exception:  # boundary: the client gets an error, never silence
            log.exception("mcpwall: relaying %s's questions failed", link.name)
            answer = jsonrpc.error(None, jsonrpc.INTERNAL_ERROR, "mcpwall failed to relay the server's questions")
        self._answer_call(client_id, answer)
        link.flush()

    def _answer_call(self, client_id: jsonrpc.RequestId, response: dict[str, Any]) -> None:
        self.send(jsonrpc.dump(self._shaped("tools/call", {**response, "id": client_id})))

    # ----- pool ------------------------------------------------------------------------------

    async def _ensure(self, link: UpstreamLink) -> bool:
        async with self._lock:
            if link.running:
                return True
            if link.session is not None and link.pump is not None:
                link.failed(self.settings.max_backoff_seconds)  # it was running and died
                link.pump = None
            if time.monotonic() < link.retry_at:
                return False
            try:  # room for it is the pool's business: pool_size holds per gateway process
                await link.start(self.capabilities, self.settings.start_timeout_seconds, modern=self.modern)
            except Exception as exc:  # noqa: BLE001 -- boundary: any start failure leaves that server unavailable
                log.error("mcpwall: server %s could not start: %s", link.name, exc)
                self.audit.emit("upstream_failed", upstream=link.name, reason=f"{type(exc).__name__}: {exc}")
                with contextlib.suppress(Exception):
                    await link.stop(1.0)
                link.failed(self.settings.max_backoff_seconds)
                return False
            return True

    async def upkeep(self, health_due: bool) -> None:
        """The periodic work of a front: answer calls left unanswered too long; when due, check
        the running servers' health (a check that times out counts for nothing)."""
        self.time_out()
        if health_due and not self.closing:
            with contextlib.suppress(TimeoutError):
                await self.check_health()

    async def check_health(self) -> None:
        """Ping every running, idle upstream; stop one that does not answer."""
        for link in list(self.links.values()):
            if not link.running or link.busy:
                continue
            try:
                answer = await link.request("server/discover" if link.era.modern else "ping", None, 5.0)
            except TimeoutError:
                answer = {"error": {"message": "no answer to ping within 5 s"}}
            if self.closing:  # stopped meanwhile: Python 3.11's wait_for can return the stop's error
                return  # answer instead of raising the cancellation, and that is no verdict
            if "error" in answer:
                self.audit.emit("upstream_unhealthy", upstream=link.name, error=answer["error"])
                await link.stop(1.0)
                link.failed(self.settings.max_backoff_seconds)
            else:
                link.failures = 0

    # ----- plumbing --------------------------------------------------------------------------

    def flush(self) -> None:
        """Audit first, then what goes to the servers; the client's bytes go with ``send``."""
        self.audit.flush()
        for link in self.links.values():
            link.audit.flush()
        for link in self.links.values():
            link.write_out()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _reply(self, request_id: jsonrpc.RequestId | None, result: dict[str, Any], method: str) -> None:
        result = eras.for_client(method, result, self.modern)
        self.send(jsonrpc.dump({"jsonrpc": "2.0", "id": request_id, "result": result}))

    def _shaped(self, method: str, response: dict[str, Any]) -> dict[str, Any]:
        """An upstream's answer with its result as the client's era expects it."""
        if "result" not in response:
            return response
        return {**response, "result": eras.for_client(method, response["result"], self.modern)}

    def _error(self, request_id: jsonrpc.RequestId | None, code: int, text: str, data: Any = None) -> None:
        self.send(jsonrpc.dump(jsonrpc.error(request_id, code, text, data)))

    def time_out(self) -> None:
        """Answer calls an upstream left unanswered for too long."""
        for link in self.links.values():
            if link.running and link.session is not None:
                link.session.time_out(self.settings.call_timeout_seconds)
