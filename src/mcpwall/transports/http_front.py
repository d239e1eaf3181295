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
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

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
from mcpwall.transports.http_guard import header_mismatch, host_allowed, origin_allowed
from mcpwall.transports.mcp_headers import is_modern, modern_mismatch

SESSION_HEADER = "mcp-session-id"
HEADER_MISMATCH = -32020


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
        self.chain = AuditChain(state_dir(config.state_dir) / AUDIT_FILE)
        self.store = default_store(config.state_dir)
        self.audit = Auditor(self.chain, session="http-front", server="mcpwall")
        self.authenticator = Authenticator(config.identity, state_dir=config.state_dir) if config.identity else None
        self.pool = UpstreamPool(config, self.chain)
        self.sessions: dict[str, HttpClientSession] = {}
        self.stateless = stateless.StatelessSessions(self.sessions)
        self.upkeep = Upkeep(config, self.sessions, self._close, self.audit)

    def app(self) -> Starlette:
        """The ASGI application."""
        return Starlette(routes=[Route("/mcp", self.endpoint, methods=["POST", "GET", "DELETE"])])

    async def endpoint(self, request: Request) -> Response:
        """Every method of ``/mcp``: guard, authenticate, then dispatch."""
        refused = self._guard(request)
        if refused is not None:
            return refused
        body = await _bounded_body(request, self.settings.max_body_bytes)
        if body is None:
            return self._refuse(413, "request body too large")
        try:
            agent = await self._identify(request, body)
        except IdentityError as exc:
            self.audit.emit("agent_refused", reason=exc.operator_reason, path=request.url.path)
            self.audit.flush()
            return _json({"error": exc.public_message}, 401)
        if request.method == "POST":
            return await self._post(request, body, agent)
        session = self._session_of(request, agent)
        if isinstance(session, Response):
            return session
        if request.method == "GET":
            return StreamingResponse(self._events(session), media_type="text/event-stream")
        await self._close(session)
        return Response(status_code=204)

    async def _post(self, request: Request, body: bytes, agent: AgentIdentity | None) -> Response:
        try:
            message = jsonrpc.classify(jsonrpc.loads(body))
        except ProtocolError as exc:
            return _json(jsonrpc.error(None, exc.code, str(exc)), 400)
        modern = is_modern(message.obj) and message.method != "initialize"
        check = modern_mismatch if modern else header_mismatch
        mismatch = check(request.headers, message.obj)
        if mismatch is not None:
            return _json(jsonrpc.error(message.id, HEADER_MISMATCH, mismatch), 400)
        if modern:
            return await stateless.post(self, request, message, agent)
        session = self._open(agent) if message.method == "initialize" else self._session_of(request, agent)
        if isinstance(session, Response):
            return session
        aggregate = session.aggregate
        assert aggregate is not None  # noqa: S101 -- every session is opened with its aggregate
        if message.kind is not jsonrpc.Kind.REQUEST:
            aggregate.from_client(body)
            session.flush()
            return Response(status_code=202, headers={SESSION_HEADER: session.id})
        if session.in_flight(message.id):
            return _json(jsonrpc.error(message.id, jsonrpc.INVALID_REQUEST, "duplicate request id"), 409)
        answer = session.expect(message.id)
        aggregate.from_client(body)
        session.flush()
        headers = {SESSION_HEADER: session.id}
        if "text/event-stream" in request.headers.get("accept", ""):
            return StreamingResponse(
                self._answer_stream(session, message.id, answer), media_type="text/event-stream", headers=headers
            )
        try:
            async with asyncio.timeout(self.config.routing.call_timeout_seconds + 5):
                result = await answer
        finally:
            session.done(message.id)
        return _json(result, 200, headers)

    async def _answer_stream(
        self, session: HttpClientSession, request_id: object, answer: asyncio.Future[dict[str, Any]]
    ) -> AsyncIterator[bytes]:
        try:
            while not answer.done():
                getter = asyncio.ensure_future(session.events.get())
                done, _ = await asyncio.wait({getter, answer}, return_when=asyncio.FIRST_COMPLETED)
                if getter in done:
                    yield _event(getter.result())
                else:
                    getter.cancel()
            yield _event(answer.result())
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

    def _session_of(self, request: Request, agent: AgentIdentity | None) -> HttpClientSession | Response:
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

    def _guard(self, request: Request) -> Response | None:
        if not host_allowed(request.headers.get("host"), self.listening, self.settings):
            return self._refuse(403, "host not allowed")
        if not origin_allowed(request.headers.get("origin"), self.settings):
            return self._refuse(403, "origin not allowed")
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.settings.max_body_bytes:
            return self._refuse(413, "request body too large")
        return None

    async def _identify(self, request: Request, body: bytes) -> AgentIdentity | None:
        if self.authenticator is None:
            return None
        path = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return await self.authenticator.authenticate(
            method=request.method, path=path, headers=request.headers, body=body
        )

    def _refuse(self, status: int, why: str) -> Response:
        self.audit.emit("http_refused", status=status, reason=why)
        self.audit.flush()
        return _json({"error": why}, status)

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


async def _bounded_body(request: Request, limit: int) -> bytes | None:
    """The request body, or None once it grows past ``limit`` (a chunked body declares no
    length: it is read only up to the limit, never whole)."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return bytes(body)


def _json(body: Any, status: int, headers: dict[str, str] | None = None) -> Response:
    return Response(orjson.dumps(body), status, headers, media_type="application/json")


def _event(message: dict[str, Any]) -> bytes:
    return b"event: message\ndata: " + orjson.dumps(message) + b"\n\n"
