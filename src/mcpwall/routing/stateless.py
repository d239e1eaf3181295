"""2026-07-28 clients of the HTTP front: no ``Mcp-Session-Id``, policy state kept per agent.

A 2026-07-28 request carries everything about its client in its ``_meta`` envelope, so the
front opens no session for it and sends back no ``Mcp-Session-Id`` (one that arrives is ignored).
mcpwall's policy state still needs a key: confirmations given for the session
(CONFIRM_SESSION), the danger-zone budget and its lock, rate limits, approval tickets. The key
is chosen so that it cannot be forged from the request body:

- with ``identity`` configured, the authenticated agent (the JWT subject, or the signing key's
  subject): every request of one agent shares one policy session, whichever connection or client
  process it came from, and one agent never sees another's;
- without ``identity``, every 2026-07-28 request shares one anonymous session: the front then
  trusts whatever can reach it (loopback by default), which is one principal.

Client request ids are only unique per client, so each request is relabelled with an id of the
front's own before it enters the shared session, and its answer gets the client's id back. The
answer is plain JSON (the server's choice in Streamable HTTP): nothing else in a shared session
belongs to one POST's stream.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from mcpwall import jsonrpc
from mcpwall.identity import AgentIdentity
from mcpwall.jsonrpc import Kind, Message, RequestId
from mcpwall.routing.http_session import HttpClientSession

if TYPE_CHECKING:
    from mcpwall.transports.http_front import HttpFront


class StatelessSessions:
    """The policy session of each agent that speaks 2026-07-28.

    Args:
        sessions: the front's live sessions by id (a closed or expired one is not reused).
    """

    def __init__(self, sessions: dict[str, HttpClientSession]) -> None:
        self._live = sessions
        self._by_agent: dict[str | None, str] = {}
        self._ids = itertools.count(1)

    def session(self, subject: str | None, open_session: Callable[[], HttpClientSession]) -> HttpClientSession:
        """The agent's session, opened on its first request (or after it was closed)."""
        live = self._live.get(self._by_agent.get(subject, ""))
        if live is not None:
            live.touch()
            return live
        session = open_session()
        self._by_agent[subject] = session.id
        return session

    def relabel(self, message: Message) -> tuple[bytes, str]:
        """The request as the shared session sees it (an id of the front's), and that id."""
        front_id = f"mcpwall-http-{next(self._ids)}"
        return jsonrpc.dump({**message.obj, "id": front_id}), front_id


def answer_as(client_id: RequestId | None, answer: asyncio.Future[dict[str, Any]]) -> asyncio.Future[dict[str, Any]]:
    """A future of ``answer`` with the client's own request id put back."""
    restored: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    def relay(done: asyncio.Future[dict[str, Any]]) -> None:
        if restored.done():
            return
        if done.cancelled():
            restored.cancel()
        elif (exc := done.exception()) is not None:
            restored.set_exception(exc)
        else:
            restored.set_result({**done.result(), "id": client_id})

    answer.add_done_callback(relay)
    return restored


async def post(front: HttpFront, request: Request, message: Message, agent: AgentIdentity | None) -> Response:
    """One 2026-07-28 POST: into its agent's session, answered without a session id."""
    session = front.stateless.session(agent.subject if agent else None, lambda: front._open(agent))
    aggregate = session.aggregate
    assert aggregate is not None  # noqa: S101 -- every session is opened with its aggregate
    if message.kind is not Kind.REQUEST:
        aggregate.from_client(jsonrpc.dump(message.obj))
        session.flush()
        return Response(status_code=202)
    body, front_id = front.stateless.relabel(message)
    answer = answer_as(message.id, session.expect(front_id))
    aggregate.from_client(body)
    session.flush()
    try:
        result = await asyncio.wait_for(answer, front.config.routing.call_timeout_seconds + 5)
    finally:
        session.done(front_id)
    return JSONResponse(result)
