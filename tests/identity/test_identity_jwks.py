"""The key set: which keys are usable, and a JWKS URL served by a real local HTTP server.

The server is ``http.server`` in a thread; it serves whatever key set the test last put in it
and counts the fetches, so the tests see exactly when the cache went back to the network.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import anyio
import pytest
from identity_keys import AUDIENCE, ISSUER, NOW, ed25519_key, jwks_bytes, mint, public_jwk, rsa_key

from mcpwall.identity import AgentMapping, IdentityError, IdentityFailure, JwtSettings, JwtVerifier, parse_jwks

ALGORITHMS = ("EdDSA", "RS256")
EVERYONE = AgentMapping.model_validate({"default": {"profiles": ["base"]}})


class JwksServer(ThreadingHTTPServer):
    """Serves ``self.body`` (or ``self.status`` alone when it is not 200) and counts requests."""

    body: bytes = b""
    status: int = 200
    fetches: int = 0


class JwksHandler(BaseHTTPRequestHandler):
    server: JwksServer

    def do_GET(self) -> None:
        self.server.fetches += 1
        self.send_response(self.server.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.server.body)))
        self.end_headers()
        self.wfile.write(self.server.body)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep the test output clean."""


@pytest.fixture
def jwks_server() -> Iterator[JwksServer]:
    server = JwksServer(("127.0.0.1", 0), JwksHandler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def url_verifier(server: JwksServer, **overrides: object) -> JwtVerifier:
    host, port = server.server_address[:2]
    url = f"http://{host!s}:{port}/jwks.json"
    settings = JwtSettings.model_validate({"issuer": ISSUER, "audience": AUDIENCE, "jwks_url": url, **overrides})
    return JwtVerifier(settings, EVERYONE)


async def verify(verifier: JwtVerifier, token: str, now: float) -> str:
    """The subject, or the refusal's failure code."""
    with anyio.fail_after(10):
        try:
            return (await verifier.verify(token, now=now)).subject
        except IdentityError as error:
            return error.failure


pytestmark = pytest.mark.anyio


async def test_key_added_to_the_served_set_is_fetched_on_its_first_unknown_kid(jwks_server: JwksServer) -> None:
    jwks_server.body = jwks_bytes(public_jwk(ed25519_key("ed-1"), "ed-1"))
    verifier = url_verifier(jwks_server, jwks_min_refresh_seconds=30)
    assert await verify(verifier, mint(ed25519_key("ed-1"), "ed-1"), NOW) == "agent-1"
    jwks_server.body = jwks_bytes(public_jwk(ed25519_key("ed-1"), "ed-1"), public_jwk(ed25519_key("ed-2"), "ed-2"))
    assert await verify(verifier, mint(ed25519_key("ed-2"), "ed-2"), NOW + 31) == "agent-1"
    assert jwks_server.fetches == 2


async def test_unknown_kids_within_min_refresh_cost_one_fetch(jwks_server: JwksServer) -> None:
    jwks_server.body = jwks_bytes(public_jwk(ed25519_key("ed-1"), "ed-1"))
    verifier = url_verifier(jwks_server, jwks_min_refresh_seconds=30)
    outcomes = [await verify(verifier, mint(ed25519_key("ed-1"), f"made-up-{n}"), NOW + n) for n in range(5)]
    assert outcomes == [IdentityFailure.UNKNOWN_KEY] * 5
    assert jwks_server.fetches == 1
    assert await verify(verifier, mint(ed25519_key("ed-1"), "made-up-9"), NOW + 30) == IdentityFailure.UNKNOWN_KEY
    assert jwks_server.fetches == 2


async def test_key_set_is_fetched_again_when_its_ttl_expires(jwks_server: JwksServer) -> None:
    jwks_server.body = jwks_bytes(public_jwk(ed25519_key("ed-1"), "ed-1"))
    verifier = url_verifier(jwks_server, jwks_ttl_seconds=60)
    token = mint(ed25519_key("ed-1"), "ed-1", None)
    assert [await verify(verifier, token, NOW + t) for t in (0, 59, 60)] == ["agent-1"] * 3
    assert jwks_server.fetches == 2


async def test_key_removed_from_the_set_stops_verifying_after_the_ttl(jwks_server: JwksServer) -> None:
    jwks_server.body = jwks_bytes(public_jwk(ed25519_key("ed-1"), "ed-1"), public_jwk(rsa_key("rsa-1"), "rsa-1"))
    verifier = url_verifier(jwks_server, jwks_ttl_seconds=60)
    token = mint(rsa_key("rsa-1"), "rsa-1")
    assert await verify(verifier, token, NOW) == "agent-1"
    jwks_server.body = jwks_bytes(public_jwk(ed25519_key("ed-1"), "ed-1"))
    assert await verify(verifier, token, NOW + 61) == IdentityFailure.UNKNOWN_KEY


async def test_failing_jwks_url_fails_closed_and_is_retried_only_after_min_refresh(jwks_server: JwksServer) -> None:
    jwks_server.status = 500
    verifier = url_verifier(jwks_server, jwks_min_refresh_seconds=30)
    token = mint(ed25519_key("ed-1"), "ed-1")
    assert await verify(verifier, token, NOW) == IdentityFailure.JWKS_UNAVAILABLE
    assert await verify(verifier, token, NOW + 5) == IdentityFailure.JWKS_UNAVAILABLE
    assert jwks_server.fetches == 1
    jwks_server.status, jwks_server.body = 200, jwks_bytes(public_jwk(ed25519_key("ed-1"), "ed-1"))
    assert await verify(verifier, token, NOW + 30) == "agent-1"
    assert jwks_server.fetches == 2


def jwk(key: str, **changes: object) -> dict[str, Any]:
    base = public_jwk(rsa_key(key) if key.startswith("rsa") else ed25519_key(key), key)
    return {**base, **changes}


@pytest.mark.parametrize(
    ("entry", "usable"),
    [
        (jwk("ed-1"), True),
        (jwk("rsa-1"), True),
        (jwk("ed-1", use="sig", alg="EdDSA"), True),
        (jwk("ed-1", use="enc"), False),
        (jwk("rsa-1", alg="RS512"), False),
        ({"kty": "oct", "k": "c2VjcmV0", "kid": "hmac"}, False),
        (jwk("ed-1", d="AAAA"), False),
        (jwk("ed-1", kid=7), False),
        (public_jwk(rsa_key("rsa-small", 1024), "rsa-small"), False),
        ({"kty": "EC", "crv": "P-256", "x": "AA", "y": "AA", "kid": "ec"}, False),
        ({"kty": "OKP", "crv": "Ed25519", "x": "!!", "kid": "broken"}, False),
        ("not-a-key", False),
    ],
    ids=["ed25519", "rsa", "declared", "enc", "rs512", "oct", "private", "kid-int", "rsa-1024", "ec", "broken", "str"],
)
def test_only_asymmetric_signing_keys_of_allowed_algorithms_are_kept(entry: Any, usable: bool) -> None:
    keys = parse_jwks(jwks_bytes(entry, jwk("ed-2")), ALGORITHMS)
    assert len(keys) == (2 if usable else 1)
    assert keys[-1].kid == "ed-2"


@pytest.mark.parametrize(
    "document",
    [
        b"not json",
        b"[]",
        b'{"keys": {}}',
        jwks_bytes({"kty": "oct", "k": "c2VjcmV0"}),
        jwks_bytes(jwk("ed-1"), jwk("ed-1")),
    ],
    ids=["not-json", "not-object", "keys-not-list", "no-usable-key", "repeated-kid"],
)
def test_unusable_key_set_is_refused_as_invalid(document: bytes) -> None:
    with pytest.raises(IdentityError) as caught:
        parse_jwks(document, ALGORITHMS)
    assert caught.value.failure is IdentityFailure.JWKS_INVALID
