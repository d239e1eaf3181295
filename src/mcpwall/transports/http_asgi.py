"""The HTTP front's plumbing on plain ASGI: a request as the front reads it, and its replies.

uvicorn (httptools) parses HTTP; the front is the ASGI application itself, with no framework
in between: one endpoint needs no router or middleware, and those cost more CPU per call than
the front's own checks. Streams (SSE) still use Starlette's `StreamingResponse`, which watches
for the client going away.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect
from starlette.types import Receive, Scope, Send

JSON = b"application/json"
EVENT_STREAM = b"text/event-stream; charset=utf-8"


@dataclass(slots=True, frozen=True)
class HttpRequest:
    """One HTTP request to the front, its body not read yet.

    Args:
        method: the HTTP method.
        path: the path (percent-decoded, as uvicorn gives it).
        query: the query string, without ``?``.
        headers: the first value of each header, by lower-case name.
        scope: the ASGI scope (every header pair, repeats included).
    """

    method: str
    path: str
    query: str
    headers: dict[str, str]
    scope: Scope

    @classmethod
    def of(cls, scope: Scope) -> HttpRequest:
        """The request of an ``http`` scope."""
        headers: dict[str, str] = {}
        for name, value in scope["headers"]:
            headers.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
        return cls(scope["method"], scope["path"], scope["query_string"].decode("latin-1"), headers, scope)

    def every_header(self) -> Headers:
        """Every header pair, repeats included (what authentication inspects)."""
        return Headers(scope=self.scope)


class Reply:
    """A complete response, written as one start and one body message.

    Args:
        status: the HTTP status.
        body: the body.
        media_type: its ``content-type``, if any.
        headers: more headers (lower-case names).
    """

    __slots__ = ("body", "headers", "status")

    def __init__(
        self, status: int, body: bytes = b"", media_type: bytes | None = None, headers: dict[str, str] | None = None
    ) -> None:
        self.status = status
        self.body = body
        raw = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in (headers or {}).items()]
        if status >= 200 and status not in (204, 304):
            raw.append((b"content-length", str(len(body)).encode()))
        if media_type is not None:
            raw.append((b"content-type", media_type))
        self.headers = raw

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": self.status, "headers": self.headers})
        await send({"type": "http.response.body", "body": self.body})


class EventStream:
    """A ``text/event-stream`` response (chunked) of what ``chunks`` yields, ending with it.

    For a POST's answer: it ends when its call is answered or times out, so no task watches for
    the client going away (uvicorn drops what is sent after a disconnect). The head is sent with
    the first message, so that an answer with nothing before it leaves in one write.

    Args:
        chunks: the stream's bytes (closed however the response ends).
        headers: more headers (lower-case names).
    """

    __slots__ = ("chunks", "headers")

    def __init__(self, chunks: AsyncGenerator[bytes, None], headers: dict[str, str]) -> None:
        self.chunks = chunks
        self.headers = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in headers.items()]
        self.headers.append((b"content-type", EVENT_STREAM))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async with aclosing(self.chunks) as chunks:
            started = False
            async for chunk in chunks:
                if not started:  # the head leaves with the first message (often the answer itself)
                    await send({"type": "http.response.start", "status": 200, "headers": self.headers})
                    started = True
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        if not started:
            await send({"type": "http.response.start", "status": 200, "headers": self.headers})
        await send({"type": "http.response.body", "body": b"", "more_body": False})


def json_reply(body: Any, status: int, headers: dict[str, str] | None = None) -> Reply:
    """``body`` as a JSON response."""
    return Reply(status, orjson.dumps(body), JSON, headers)


async def bounded_body(receive: Receive, limit: int) -> bytes | None:
    """The request body, or None once it grows past ``limit`` (a chunked body declares no
    length: it is read only up to the limit, never whole).

    Raises:
        ClientDisconnect: when the client went away before the body was complete.
    """
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnect
        body += message.get("body", b"")
        if len(body) > limit:
            return None
        if not message.get("more_body", False):
            return bytes(body)
