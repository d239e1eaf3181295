"""Signed request envelopes: real Ed25519 signatures, a pinned clock, replays and tampering."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from identity_keys import NOW, ed25519_key

from mcpwall.identity import (
    NONCE_HEADER,
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    EnvelopeSettings,
    EnvelopeVerifier,
    IdentityError,
    IdentityFailure,
    MemoryNonceStore,
    NonceOutcome,
    encode_public_key,
    sign_request,
)

pytestmark = pytest.mark.anyio

BODY = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"git/status"}}'
PATH = "/mcp?session=abc"


def settings(**overrides: object) -> EnvelopeSettings:
    keys = {
        "agent-1-key": {"subject": "agent-1", "public_key": encode_public_key(ed25519_key("agent-1").public_key())},
        "agent-2-key": {"subject": "agent-2", "public_key": encode_public_key(ed25519_key("agent-2").public_key())},
    }
    # in memory: these tests are about the envelope; the shared stores have their own tests
    return EnvelopeSettings.model_validate({"keys": keys, "nonce_store": "memory", **overrides})


def signed(
    key: str = "agent-1", key_id: str = "agent-1-key", at: float = NOW, nonce: str | None = None
) -> dict[str, str]:
    return sign_request(ed25519_key(key), key_id=key_id, method="POST", path=PATH, body=BODY, now=at, nonce=nonce)


async def check(
    verifier: EnvelopeVerifier,
    headers: dict[str, str],
    *,
    method: str = "POST",
    path: str = PATH,
    body: bytes = BODY,
    now: float = NOW,
    subject: str | None = None,
) -> str:
    """The envelope's subject, or the refusal's failure code."""
    with anyio.fail_after(10):
        try:
            envelope = await verifier.verify(
                method=method, path=path, headers=headers, body=body, now=now, subject=subject
            )
        except IdentityError as error:
            return error.failure
    return envelope.subject


async def test_valid_envelope_names_the_keys_agent() -> None:
    assert await check(EnvelopeVerifier(settings()), signed()) == "agent-1"


async def test_header_names_are_case_insensitive() -> None:
    headers = {name.upper(): value for name, value in signed().items()}
    assert await check(EnvelopeVerifier(settings()), headers) == "agent-1"


@pytest.mark.parametrize(
    ("request_change", "failure"),
    [
        ({"body": BODY.replace(b"git/status", b"git/push")}, IdentityFailure.ENVELOPE_BAD_SIGNATURE),
        ({"body": BODY + b" "}, IdentityFailure.ENVELOPE_BAD_SIGNATURE),
        ({"path": "/mcp?session=other"}, IdentityFailure.ENVELOPE_BAD_SIGNATURE),
        ({"method": "PUT"}, IdentityFailure.ENVELOPE_BAD_SIGNATURE),
        ({"now": NOW + 31}, IdentityFailure.ENVELOPE_STALE),
        ({"now": NOW - 31}, IdentityFailure.ENVELOPE_STALE),
        ({"subject": "agent-2"}, IdentityFailure.ENVELOPE_SUBJECT_MISMATCH),
    ],
    ids=["body-tampered", "body-whitespace", "path-changed", "method-changed", "too-old", "from-future", "other-agent"],
)
async def test_envelope_is_refused_when_the_request_is_not_what_was_signed(
    request_change: dict[str, Any], failure: IdentityFailure
) -> None:
    assert await check(EnvelopeVerifier(settings()), signed(), **request_change) == failure


@pytest.mark.parametrize(
    ("headers", "failure"),
    [
        (signed(key="intruder"), IdentityFailure.ENVELOPE_BAD_SIGNATURE),
        (signed(key="agent-2", key_id="agent-1-key"), IdentityFailure.ENVELOPE_BAD_SIGNATURE),
        (signed(key_id="agent-9-key"), IdentityFailure.ENVELOPE_UNKNOWN_KEY),
        ({}, IdentityFailure.ENVELOPE_MISSING),
        ({k: v for k, v in signed().items() if k != NONCE_HEADER}, IdentityFailure.ENVELOPE_MALFORMED),
        ({**signed(), TIMESTAMP_HEADER: "yesterday"}, IdentityFailure.ENVELOPE_MALFORMED),
        ({**signed(), NONCE_HEADER: "short"}, IdentityFailure.ENVELOPE_MALFORMED),
        ({**signed(), SIGNATURE_HEADER: "A" * 86}, IdentityFailure.ENVELOPE_BAD_SIGNATURE),
        ({**signed(), "MCP-Signature": signed()[SIGNATURE_HEADER]}, IdentityFailure.ENVELOPE_MALFORMED),
    ],
    ids=[
        "unregistered-signer",
        "other-agents-key",
        "unknown-key-id",
        "no-envelope",
        "no-nonce",
        "bad-timestamp",
        "short-nonce",
        "zero-signature",
        "repeated-header",
    ],
)
async def test_envelope_without_a_valid_signature_by_its_registered_key_is_refused(
    headers: dict[str, str], failure: IdentityFailure
) -> None:
    assert await check(EnvelopeVerifier(settings()), headers) == failure


@pytest.mark.parametrize("now", [NOW - 30, NOW + 30], ids=["oldest", "newest"])
async def test_timestamp_exactly_at_the_window_edge_is_accepted(now: float) -> None:
    assert await check(EnvelopeVerifier(settings()), signed(), now=now) == "agent-1"


async def test_window_is_configurable() -> None:
    assert await check(EnvelopeVerifier(settings(window_seconds=5)), signed(), now=NOW + 6) == "envelope_stale"


async def test_replayed_nonce_is_refused_until_the_window_has_passed() -> None:
    verifier, headers = EnvelopeVerifier(settings()), signed()
    assert await check(verifier, headers) == "agent-1"
    assert await check(verifier, headers, now=NOW + 1) == IdentityFailure.ENVELOPE_REPLAYED
    assert await check(verifier, headers, now=NOW + 30) == IdentityFailure.ENVELOPE_REPLAYED
    assert await check(verifier, headers, now=NOW + 31) == IdentityFailure.ENVELOPE_STALE


async def test_same_nonce_in_a_new_envelope_of_the_same_key_is_a_replay() -> None:
    verifier = EnvelopeVerifier(settings())
    assert await check(verifier, signed(nonce="n" * 16)) == "agent-1"
    assert await check(verifier, signed(at=NOW + 1, nonce="n" * 16), now=NOW + 1) == IdentityFailure.ENVELOPE_REPLAYED


async def test_nonces_are_per_key() -> None:
    verifier = EnvelopeVerifier(settings())
    assert await check(verifier, signed(nonce="n" * 16)) == "agent-1"
    assert await check(verifier, signed("agent-2", "agent-2-key", nonce="n" * 16)) == "agent-2"


async def test_nonce_of_a_badly_signed_envelope_is_not_remembered() -> None:
    verifier, headers = EnvelopeVerifier(settings()), signed()
    assert await check(verifier, headers, body=b"forged") == IdentityFailure.ENVELOPE_BAD_SIGNATURE
    assert await check(verifier, headers) == "agent-1"


async def test_key_with_too_many_live_nonces_is_refused_until_they_expire() -> None:
    verifier = EnvelopeVerifier(settings(max_nonces_per_key=2))
    assert [await check(verifier, signed()) for _ in range(3)] == ["agent-1", "agent-1", "envelope_nonce_cache_full"]
    assert await check(verifier, signed("agent-2", "agent-2-key")) == "agent-2"
    assert await check(verifier, signed(at=NOW + 31), now=NOW + 31) == "agent-1"


@pytest.mark.parametrize(
    ("now", "outcome"),
    [(NOW, NonceOutcome.REPLAYED), (NOW + 30, NonceOutcome.REPLAYED), (NOW + 30.001, NonceOutcome.FRESH)],
    ids=["live", "at-expiry", "after-expiry"],
)
async def test_memory_store_forgets_a_nonce_only_after_its_expiry(now: float, outcome: NonceOutcome) -> None:
    store = MemoryNonceStore(max_per_key=10)
    assert await store.claim("k", "nonce", expires_at=NOW + 30, now=NOW) is NonceOutcome.FRESH
    assert await store.claim("k", "nonce", expires_at=now + 30, now=now) is outcome


async def test_memory_store_counts_only_live_nonces() -> None:
    store = MemoryNonceStore(max_per_key=10)
    for offset in range(5):
        await store.claim("k", f"n{offset}", expires_at=NOW + offset, now=NOW)
    assert store.live_count("k", now=NOW + 2.5) == 2
