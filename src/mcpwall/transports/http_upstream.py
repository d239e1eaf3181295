"""An upstream reached over HTTP: Streamable HTTP (mcpwall's own lean client), or the legacy
2024-11-05 HTTP+SSE transport (through the MCP SDK, `sse_upstream`).

Either way the server looks like a stdio one to the gateway: a stream of lines from it, and a
writer that takes the lines its `Session` let through. So every message is checked and recorded
exactly as for a spawned process; nothing here decides anything.

Streamable HTTP, as spoken here:

- each line the session forwards is one ``POST`` (concurrently; a notification or response is
  sent before anything that follows it, so ``notifications/initialized`` precedes the next
  request); a request's answer comes back as JSON or as an SSE stream that may carry the
  server's own requests and notifications first;
- the ``Mcp-Session-Id`` of the initialize answer and the negotiated ``Mcp-Protocol-Version``
  go with every later request; after initialization a ``GET`` stream carries the server's other
  messages (unless it answers 405);
- a request that fails on the wire (connection refused, HTTP error) gets a JSON-RPC error
  answer of the gateway's (UPSTREAM_UNAVAILABLE); a refused connection or an expired session
  (404) ends the stream, so the server is started again on its next use;
- ``stop`` sends ``DELETE`` to end the session, then closes the connections;
- the connections go through the proxy the environment names (``HTTPS_PROXY``, ``NO_PROXY`` …,
  see `proxy`); its password joins the server's secrets, so it is redacted if ever echoed;
- when its reader asks (`track_origins`), each line handed over is recorded with the request
  whose answer carried it (the POST it answered, or None for the GET stream): a server-to-client
  request or notification on a request's own SSE stream belongs to that request
  (`SharedConnection`).

Header values may be credential references: they are resolved before this class gets them, sent
only to this server, and redacted (by the session) if it echoes them back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Coroutine
from typing import Any, Literal
from urllib.parse import urlsplit

import orjson

from mcpwall import jsonrpc
from mcpwall.credentials import Secrets
from mcpwall.errors import UpstreamStartError
from mcpwall.transports.http_wire import HttpWire, WireResponse, sse_events
from mcpwall.transports.mcp_headers import with_routing
from mcpwall.transports.proxy import Proxy, proxy_for
from mcpwall.transports.sse_upstream import SseUpstream

log = logging.getLogger(__name__)

Kind = Literal["streamable-http", "sse"]
Origin = tuple[Any, int]
"""Where one line handed to the session came from: the id of the request whose answer carried it
(None: the GET stream), and the line's length (so a reader can tell it is still in step)."""
MAX_MESSAGE = 16 * 1024 * 1024
GET_RETRIES = 5


class HttpUpstream:
    """A server at a URL.

    Args:
        url: the MCP endpoint.
        headers: extra request headers (already resolved).
        kind: ``streamable-http`` or ``sse`` (legacy).
        secrets: the credentials among the header values.
    """

    def __init__(self, url: str, headers: dict[str, str], kind: Kind, secrets: Secrets) -> None:
        self.argv = [url]
        self.url = url
        self.headers = headers
        self.kind = kind
        self.secrets = secrets
        self.pid: int | None = None
        self.session_id: str | None = None
        self.protocol_version: str | None = None
        self._sse: SseUpstream | None = None
        self._wire: HttpWire | None = None
        self._reader: asyncio.StreamReader | None = None
        self._request_headers: dict[str, str] = {}
        self._ordered: asyncio.Future[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = asyncio.Event()
        self._origins: deque[Origin] | None = None
        self._registered: set[str] = set()

    async def start(self, stdout_limit: int) -> tuple[asyncio.StreamReader, Any]:
        """Get ready to talk; the server's messages as lines, and a writer that takes lines.

        Raises:
            UpstreamStartError: when a legacy SSE server cannot be reached (a Streamable HTTP
                one that cannot be reached fails its initialize instead), or the URL or the
                environment's proxy URL is not usable.
        """
        self._closed = asyncio.Event()
        if self.kind == "sse":
            self._sse = SseUpstream(self.url, self.headers)
            reader, writer = await self._sse.start(stdout_limit)
            self._closed = self._sse.closed
            return reader, writer
        try:
            self._wire = HttpWire(self.url, proxy=self._proxy())
        except ValueError as exc:  # the message names no credential
            raise UpstreamStartError(f"cannot reach {self.url}: {exc}") from None
        self._origins = None
        self._reader = asyncio.StreamReader(limit=stdout_limit)
        self.session_id = self.protocol_version = None
        self._ordered = None
        self._refresh_headers()
        return self._reader, self

    def track_origins(self) -> deque[Origin]:
        """From now until the next start, where each line handed over came from, in order
        (called once the reader of `start` is in place, by the one who consumes it)."""
        self._origins = deque()
        return self._origins

    def _proxy(self) -> Proxy | None:
        parts = urlsplit(self.url)
        proxy = proxy_for(parts.scheme, parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80))
        if proxy is not None and proxy.password and proxy.password not in self._registered:
            self._registered.add(proxy.password)
            self.secrets.add(proxy.password)
        return proxy

    # ----- the writer the session's output goes to ------------------------------------------

    def write(self, data: bytes) -> None:
        """POST every line of ``data`` (one JSON-RPC message each)."""
        for line in data.split(b"\n"):
            if line.strip():
                self._post_later(line)

    def is_closing(self) -> bool:
        return self._closed.is_set()

    async def drain(self) -> None:
        return None

    def close(self) -> None:
        """Nothing to do: the connections close in `stop`."""

    # ----- lifecycle --------------------------------------------------------------------------

    async def wait(self) -> int | None:
        """Wait until the connection is closed."""
        await self._closed.wait()
        return None

    def close_stdin(self) -> None:
        """Nothing to close before stopping: the session ends in `stop`."""

    async def stop(self, grace: float) -> int | None:
        """End the HTTP session (``DELETE``) and close the connections."""
        for task in list(self._tasks):
            task.cancel()
        if self._sse is not None:
            await self._sse.stop(grace)
        if self._wire is not None:
            if self.session_id and not self._closed.is_set():
                with contextlib.suppress(OSError, ValueError, TimeoutError):
                    answer = await asyncio.wait_for(self._wire.request("DELETE", self._request_headers), grace)
                    await answer.aclose()
            await self._wire.aclose()
        self._end()
        return None

    # ----- sending ----------------------------------------------------------------------------

    def _post_later(self, line: bytes) -> None:
        message = _object(line)
        is_request = "method" in message and "id" in message
        before = self._ordered
        if not is_request:
            self._ordered = asyncio.get_running_loop().create_future()
        self._spawn(self._post(line, message, before, None if is_request else self._ordered))

    async def _post(
        self,
        line: bytes,
        message: dict[str, Any],
        before: asyncio.Future[None] | None,
        sent: asyncio.Future[None] | None,
    ) -> None:
        request_id = message.get("id") if "method" in message else None
        try:
            if before is not None and not before.done():
                await before
            await self._exchange(line, message, request_id)
        except (OSError, ValueError) as exc:
            log.warning("mcpwall: POST to %s failed: %s", self.url, exc)
            self._fail(request_id, f"the server could not be reached: {exc}")
            if isinstance(exc, ConnectionRefusedError):
                self._end()
        finally:
            if sent is not None and not sent.done():
                sent.set_result(None)

    async def _exchange(self, line: bytes, message: dict[str, Any], request_id: Any) -> None:
        assert self._wire is not None  # noqa: S101 -- only after start()
        headers = with_routing(self._request_headers, message)  # 2026-07-28: headers repeat the body
        answer = await self._wire.request("POST", headers, line)
        if message.get("method") == "initialize":
            self._initialized(answer, message)
        if answer.status == 404 and self.session_id:
            await answer.aclose()
            self._fail(request_id, "the server ended the session")
            self._end()
        elif answer.status >= 300:
            await answer.aclose()
            self._fail(request_id, f"the server answered HTTP {answer.status}")
        elif answer.media_type == "text/event-stream":
            await self._events(answer, request_id)
        elif answer.media_type == "application/json" and request_id is not None:
            self._feed(await answer.read(MAX_MESSAGE), request_id)
        else:
            await answer.read(MAX_MESSAGE)
            if request_id is not None:
                self._fail(request_id, f"the server answered {answer.media_type or 'nothing'}")
        if message.get("method") == "notifications/initialized" and self.session_id:
            self._spawn(self._listen())

    def _initialized(self, answer: WireResponse, message: dict[str, Any]) -> None:
        self.session_id = answer.headers.get("mcp-session-id") or None
        asked = message.get("params", {}).get("protocolVersion")
        self.protocol_version = asked if isinstance(asked, str) else None
        self._refresh_headers()

    def _refresh_headers(self) -> None:
        headers = {**self.headers, "Accept": "application/json, text/event-stream"}
        headers["Content-Type"] = "application/json"
        if self.session_id:
            headers["Mcp-Session-Id"] = self.session_id
        if self.protocol_version:
            headers["Mcp-Protocol-Version"] = self.protocol_version
        self._request_headers = headers

    # ----- receiving --------------------------------------------------------------------------

    async def _events(self, answer: WireResponse, origin: Any) -> None:
        """The messages of one SSE stream; ``origin``: the id of the request it answers (None: GET)."""
        buffer = bytearray()
        async for chunk in answer.chunks:
            for kind, data in sse_events(buffer, chunk):
                if kind == "message" and data.strip():
                    self._feed(data, origin)
            if len(buffer) > MAX_MESSAGE:
                await answer.aclose()
                raise ValueError(f"an SSE event longer than {MAX_MESSAGE} bytes")

    async def _listen(self) -> None:
        """The GET stream of messages that answer no request; reopened a few times if it ends."""
        assert self._wire is not None  # noqa: S101 -- only after start()
        for _ in range(GET_RETRIES):
            headers = {**self._request_headers, "Accept": "text/event-stream"}
            try:
                answer = await self._wire.request("GET", headers)
                if answer.status != 200 or answer.media_type != "text/event-stream":
                    await answer.aclose()
                    return
                await self._events(answer, None)
            except (OSError, ValueError) as exc:
                log.info("mcpwall: the GET stream of %s ended: %s", self.url, exc)
                return
            await asyncio.sleep(1.0)

    def _feed(self, message: bytes, origin: Any) -> None:
        """One message to the session, on one line (raw line breaks can only be JSON whitespace)."""
        if self._reader is not None and not self._closed.is_set():
            line = message.replace(b"\r", b" ").replace(b"\n", b" ")
            if self._origins is not None:
                self._origins.append((origin, len(line)))
            self._reader.feed_data(line + b"\n")

    def _fail(self, request_id: Any, text: str) -> None:
        if request_id is not None:
            error = jsonrpc.error(request_id, jsonrpc.UPSTREAM_UNAVAILABLE, text)
            self._feed(jsonrpc.dump(error).rstrip(b"\n"), request_id)

    def _end(self) -> None:
        if self._reader is not None and not self._closed.is_set():
            self._reader.feed_eof()
        self._closed.set()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _object(line: bytes) -> dict[str, Any]:
    """The message a line carries (the session forwards only valid JSON objects)."""
    try:
        message = orjson.loads(line)
    except orjson.JSONDecodeError:
        return {}
    return message if isinstance(message, dict) else {}
