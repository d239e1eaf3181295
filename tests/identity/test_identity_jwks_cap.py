"""The JWKS size cap, against a real local HTTP server that sends far more than a key set.

The server is ``http.server`` in a thread. It serves a body of a given size, with or without a
``Content-Length``, or declares a huge length and sends nothing; it counts the body bytes it got
out before the client hung up, so the tests see that the client stopped reading. Memory is
measured with ``tracemalloc`` around the fetch (Python allocations of both threads: an upper
bound on what the client kept).
"""

from __future__ import annotations

import threading
import tracemalloc
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import anyio
import httpx
import pytest
from identity_keys import AUDIENCE, ISSUER, NOW, ed25519_key, jwks_bytes, mint, public_jwk

from mcpwall.identity import AgentMapping, IdentityError, IdentityFailure, JwtSettings, JwtVerifier, url_loader

pytestmark = pytest.mark.anyio

GIB = 1 << 30
CHUNK = b"x" * 65536
CAP = 262_144
"""The default ``jwks_max_bytes``."""
WAIT = 10.0
"""Seconds any one wait of these tests may take."""
SLACK = 64 << 20
"""What loopback socket buffers may hold besides what the client read: far below a GiB."""
EVERYONE = AgentMapping.model_validate({"default": {"profiles": ["base"]}})


@dataclass
class Answer:
    """What the server sends: ``size`` body bytes, declared as ``declared`` (None: no header)."""

    size: int
    declared: int | None
    body: bytes = b""
    encoding: str | None = None
    written: int = 0
    finished: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)


class CapServer(ThreadingHTTPServer):
    answer: Answer


class CapHandler(BaseHTTPRequestHandler):
    server: CapServer

    def do_GET(self) -> None:
        answer = self.server.answer
        try:
            self._head(answer)
            self._body(answer)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client hung up: what the test wants to see
        finally:
            answer.finished.set()

    def _head(self, answer: Answer) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if answer.declared is not None:
            self.send_header("Content-Length", str(answer.declared))
        if answer.encoding is not None:
            self.send_header("Content-Encoding", answer.encoding)
        self.end_headers()
        self.wfile.flush()

    def _body(self, answer: Answer) -> None:
        if answer.body:
            self.wfile.write(answer.body)
            answer.written = len(answer.body)
            return
        if answer.size == 0:
            answer.release.wait(WAIT)  # a declared body that never comes: reading it would hang
            return
        while answer.written < answer.size:
            self.wfile.write(CHUNK)
            answer.written += len(CHUNK)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep the test output clean."""


@pytest.fixture
def cap_server() -> Iterator[CapServer]:
    server = CapServer(("127.0.0.1", 0), CapHandler)
    server.answer = Answer(size=0, declared=None)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.answer.release.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=WAIT)


def url_of(server: CapServer) -> str:
    host, port = server.server_address[:2]
    return f"http://{host!s}:{port}/jwks.json"


async def refusal(server: CapServer, max_bytes: int = CAP, client: httpx.AsyncClient | None = None) -> IdentityError:
    """The error of one fetch, which must fail."""
    load = url_loader(url_of(server), timeout=WAIT / 2, max_bytes=max_bytes, client=client)
    with anyio.fail_after(WAIT), pytest.raises(IdentityError) as caught:
        await load()
    return caught.value


async def test_endless_jwks_body_is_refused_past_the_cap_with_bounded_memory(cap_server: CapServer) -> None:
    cap_server.answer = Answer(size=GIB, declared=None)
    async with httpx.AsyncClient() as client:  # made outside the measurement: its TLS context alone takes MiBs
        tracemalloc.start()
        try:
            error = await refusal(cap_server, client=client)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()

    assert error.failure is IdentityFailure.JWKS_UNAVAILABLE
    assert error.detail == f"{url_of(cap_server)} sent more than {CAP} bytes"
    assert peak < 8 * CAP
    assert cap_server.answer.finished.wait(WAIT)
    assert cap_server.answer.written < CAP + SLACK


async def test_jwks_declaring_a_length_past_the_cap_is_refused_before_its_body_is_read(cap_server: CapServer) -> None:
    cap_server.answer = Answer(size=0, declared=10 * GIB)

    error = await refusal(cap_server)

    assert error.failure is IdentityFailure.JWKS_UNAVAILABLE
    assert error.detail == f"{url_of(cap_server)} declares {10 * GIB} bytes; at most {CAP}"


async def test_compressed_jwks_is_refused_rather_than_inflated(cap_server: CapServer) -> None:
    cap_server.answer = Answer(size=1, declared=1, body=b"\x1f", encoding="gzip")

    error = await refusal(cap_server)

    assert error.failure is IdentityFailure.JWKS_UNAVAILABLE
    assert error.detail == f"{url_of(cap_server)} answered with content-encoding 'gzip'"


def padded_jwks(size: int) -> bytes:
    """A key set holding ``ed-1``, padded with trailing whitespace (still valid JSON) to ``size`` bytes."""
    document = jwks_bytes(public_jwk(ed25519_key("ed-1"), "ed-1"))
    return document + b" " * (size - len(document))


async def verify_with(server: CapServer, max_bytes: int) -> str:
    """The subject of a token verified against the served set, or the refusal's failure code."""
    settings = JwtSettings(issuer=ISSUER, audience=AUDIENCE, jwks_url=url_of(server), jwks_max_bytes=max_bytes)
    with anyio.fail_after(WAIT):
        try:
            return (await JwtVerifier(settings, EVERYONE).verify(mint(ed25519_key("ed-1"), "ed-1"), now=NOW)).subject
        except IdentityError as error:
            return error.failure


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "until-close"])
@pytest.mark.parametrize(
    ("size", "outcome"),
    [(4096, "agent-1"), (4097, IdentityFailure.JWKS_UNAVAILABLE)],
    ids=["at-the-cap", "one-byte-over"],
)
async def test_key_set_of_up_to_jwks_max_bytes_loads(
    cap_server: CapServer, declared: bool, size: int, outcome: str
) -> None:
    body = padded_jwks(size)
    cap_server.answer = Answer(size=size, declared=size if declared else None, body=body)

    assert await verify_with(cap_server, max_bytes=4096) == outcome


async def test_ordinary_key_set_loads_under_the_default_cap(cap_server: CapServer) -> None:
    body = jwks_bytes(public_jwk(ed25519_key("ed-1"), "ed-1"))
    cap_server.answer = Answer(size=len(body), declared=len(body), body=body)

    assert await verify_with(cap_server, max_bytes=JwtSettings.model_fields["jwks_max_bytes"].default) == "agent-1"
