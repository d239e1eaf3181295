"""The Streamable HTTP front of ``mcpwall serve --http``: endpoint ``/mcp``.

- ``POST``: one JSON-RPC message. A request is answered with JSON, or with an SSE stream
  (when the client accepts ``text/event-stream``) carrying what the servers send meanwhile
  (progress, sampling, elicitation) and then the answer. Notifications and responses get 202.
- ``GET``: an SSE stream of the session's other messages (list_changed, server requests).
- ``DELETE``: ends the session and stops its servers.

Every request is checked before it is parsed (`http_guard`: Host, Origin, body size) and, when
``identity`` is configured, authenticated (bearer JWT and/or Ed25519-signed envelope): no valid
identity → 401 and nothing is forwarded. ``initialize`` opens a session (``Mcp-Session-Id``)
bound to the agent that opened it; the agent's profiles and tool manifest apply to it. A
2026-07-28 request (its ``_meta`` envelope) needs no session id: its routing headers must match
its body, and it joins its agent's policy session (`mcpwall.routing.stateless`).

The front is the ASGI application itself (`http_asgi`: no framework between uvicorn and the
endpoint), and each response leaves in one write (`http_cork`). Only ``/mcp`` is served (404
elsewhere), and only with POST, GET and DELETE (405 otherwise, HEAD included).
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from contextlib import aclosing
from typing import Any

import orjson
from starlette.requests import ClientDisconnect, Request
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from mcpwall import jsonrpc
from mcpwall.audit import AuditChain, Auditor
from mcpwall.config.models import Config
from mcpwall.errors import ProtocolError
from mcpwall.identity import AgentIdentity, Authenticator, IdentityError, bound_manifest
from mcpwall.routing import stateless
from mcpwall.routing.build import build_aggregate
from mcpwall.routing.http_session import HttpClientSession
from mcpwall.routing.http_upkeep import Upkeep
from mcpwall.routing.pool import UpstreamPool
from mcpwall.state import AUDIT_FILE, state_dir
from mcpwall.store import default_store
from mcpwall.transports.http_asgi import EventStream, HttpRequest, Reply, bounded_body, json_reply
from mcpwall.transports.http_guard import accepted_hosts, header_mismatch, host_allowed, origin_allowed
from mcpwall.transports.mcp_headers import is_modern, modern_mismatch

SESSION_HEADER = "mcp-session-id"
HEADER_MISMATCH = -32020
ENDPOINT = "/mcp"
METHODS = frozenset({"POST", "GET", "DELETE"})
TEXT = b"text/plain; charset=utf-8"

Answer = Callable[[Scope, Receive, Send], Awaitable[None]]
"""A response: a `Reply`, or a Starlette response (streams, 2026-07-28 answers)."""


class HttpFront:
    """Sessions of many clients, each with its own aggregate (policy, audit) over the configured
    servers, all sharing one pool of upstream servers.

    Args:
        config: the configuration.
        listening: the (host, port) the front listens on (for the Host check).
    """

    def __init__(self, config: Config, listening: tuple[str, int]) -> None:
        self.config = config
        self.settings = config.http
        self.listening = listening
        self.hosts = accepted_hosts(listening, self.settings)
        self.chain = AuditChain(state_dir(config.state_dir) / AUDIT_FILE)
        self.store = default_store(config.state_dir)
        self.audit = Auditor(self.chain, session="http-front", server="mcpwall")
        self.authenticator = Authenticator(config.identity, state_dir=config.state_dir) if config.identity else None
        self.pool = UpstreamPool(config, self.chain)
        self.sessions: dict[str, HttpClientSession] = {}
        self.stateless = stateless.StatelessSessions(self.sessions)
        self.upkeep = Upkeep(config, self.sessions, self._close, self.audit)

    def bound(self, port: int) -> None:
        """The port the listener got (``--http HOST:0`` asks the system for a free one): the Host
        check accepts that port from now on."""
        self.listening = (self.listening[0], port)
        self.hosts = accepted_hosts(self.listening, self.settings)

    def app(self) -> Answer:
        """The ASGI application."""
        return self.asgi

    async def asgi(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one connection's request (``http``); a websocket handshake is refused."""
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1000})
            return
        if scope["type"] != "http":
            return
        try:
            answer = await self.endpoint(HttpRequest.of(scope), receive)
        except ClientDisconnect:
            return  # gone before its body arrived: nothing was parsed or forwarded
        await answer(scope, receive, send)

    async def endpoint(self, request: HttpRequest, receive: Receive) -> Answer:
        """Every method of ``/mcp``: guard, authenticate, then dispatch."""
        if request.path != ENDPOINT:
            return Reply(404, b"Not Found", TEXT)
        if request.method not in METHODS:
            return Reply(405, b"Method Not Allowed", TEXT, {"allow": "POST, GET, DELETE"})
        refused = self._guard(request)
        if refused is not None:
            return refused
        body = await bounded_body(receive, self.settings.max_body_bytes)
        if body is None:
            return self._refuse(413, "request body too large")
        try:
            agent = await self._identify(request, body)
        except IdentityError as exc:
            self.audit.emit("agent_refused", reason=exc.operator_reason, path=request.path)
            self.audit.flush()
            return json_reply({"error": exc.public_message}, 401)
        if request.method == "POST":
            return await self._post(request, body, agent)
        session = self._session_of(request, agent)
        if isinstance(session, Reply):
            return session
        if request.method == "GET":
            return StreamingResponse(self._events(session), media_type="text/event-stream")
        await self._close(session)
        return Reply(204)

    async def _post(self, request: HttpRequest, body: bytes, agent: AgentIdentity | None) -> Answer:
        try:
            message = jsonrpc.classify(jsonrpc.loads(body))
        except ProtocolError as exc:
            return json_reply(jsonrpc.error(None, exc.code, str(exc)), 400)
        modern = is_modern(message.obj) and message.method != "initialize"
        if modern:
            mismatch = modern_mismatch(request.every_header(), message.obj)
        else:
            mismatch = header_mismatch(request.headers, message.obj)
        if mismatch is not None:
            return json_reply(jsonrpc.error(message.id, HEADER_MISMATCH, mismatch), 400)
        if modern:
            return await stateless.post(self, Request(request.scope), message, agent)
        session = self._open(agent) if message.method == "initialize" else self._session_of(request, agent)
        if isinstance(session, Reply):
            return session
        aggregate = session.aggregate
        assert aggregate is not None  # noqa: S101 -- every session is opened with its aggregate
        headers = {SESSION_HEADER: session.id}
        if message.kind is not jsonrpc.Kind.REQUEST:
            aggregate.from_client_message(message)
            session.flush()
            return Reply(202, headers=headers)
        if session.in_flight(message.id):
            return json_reply(jsonrpc.error(message.id, jsonrpc.INVALID_REQUEST, "duplicate request id"), 409)
        answer = session.expect(message.id)
        try:
            aggregate.from_client_message(message)
            session.flush()
        except BaseException:
            session.done(message.id)  # the id is free again: this request ends here (500)
            raise
        if "text/event-stream" in request.headers.get("accept", ""):
            return EventStream(self._answer_stream(session, message.id, answer), headers)
        try:
            async with asyncio.timeout(self.config.routing.call_timeout_seconds + 5):
                result = await answer
        finally:
            session.done(message.id)
        return json_reply(result, 200, headers)

    async def _answer_stream(
        self, session: HttpClientSession, request_id: object, answer: asyncio.Future[dict[str, Any]]
    ) -> AsyncGenerator[bytes, None]:
        within = self.config.routing.call_timeout_seconds + 5
        try:
            async with aclosing(session.stream_until(answer, within)) as messages:
                async for message in messages:
                    yield _event(message)
        finally:
            session.done(request_id)

    async def _events(self, session: HttpClientSession) -> AsyncIterator[bytes]:
        while True:
            yield _event(await session.events.get())

    def _open(self, agent: AgentIdentity | None) -> HttpClientSession:
        session = HttpClientSession(uuid.uuid4().hex, agent.subject if agent else None)
        manifest = bound_manifest(agent.tools_manifest, None) if agent and agent.tools_manifest is not None else None
        session.aggregate = build_aggregate(
            self.config,
            session=session.id,
            chain=self.chain,
            store=self.store,
            pool=self.pool,
            send=session.send,
            flush=session.flush,
            profiles=agent.profiles if agent else (),
            manifest=manifest,
        )
        self.sessions[session.id] = session
        self.audit.emit("session_started", front="http", agent=session.subject, client_session=session.id)
        return session

    def _session_of(self, request: HttpRequest, agent: AgentIdentity | None) -> HttpClientSession | Reply:
        session_id = request.headers.get(SESSION_HEADER)
        if not session_id:
            return self._refuse(400, "missing Mcp-Session-Id")
        session = self.sessions.get(session_id)
        if session is None:
            return self._refuse(404, "unknown session")
        if session.subject != (agent.subject if agent else None):
            return self._refuse(403, "session belongs to another agent")
        session.touch()
        return session

    async def _close(self, session: HttpClientSession) -> None:
        self.sessions.pop(session.id, None)
        await session.close(self.config.wire.shutdown_grace_seconds)

    def _guard(self, request: HttpRequest) -> Reply | None:
        if not host_allowed(request.headers.get("host"), self.hosts):
            return self._refuse(403, "host not allowed")
        if not origin_allowed(request.headers.get("origin"), self.settings):
            return self._refuse(403, "origin not allowed")
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.settings.max_body_bytes:
            return self._refuse(413, "request body too large")
        return None

    async def _identify(self, request: HttpRequest, body: bytes) -> AgentIdentity | None:
        if self.authenticator is None:
            return None
        path = request.path + (f"?{request.query}" if request.query else "")
        return await self.authenticator.authenticate(
            method=request.method, path=path, headers=request.every_header(), body=body
        )

    def _refuse(self, status: int, why: str) -> Reply:
        self.audit.emit("http_refused", status=status, reason=why)
        self.audit.flush()
        return json_reply({"error": why}, status)

    async def shutdown(self) -> None:
        """Stop every session's servers and close the audit trail."""
        for session in list(self.sessions.values()):
            with contextlib.suppress(Exception):
                await self._close(session)
        await self.pool.close(self.config.wire.shutdown_grace_seconds)
        if self.authenticator is not None:
            await self.authenticator.aclose()
        self.audit.flush()
        self.chain.close()


def _event(message: dict[str, Any]) -> bytes:
    return b"event: message\ndata: " + orjson.dumps(message) + b"\n\n"
