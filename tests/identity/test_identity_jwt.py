"""Bearer JWT verification with a JWKS file: real keys, real tokens, one reason per refusal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import anyio
import pytest
from identity_keys import (
    AUDIENCE,
    ISSUER,
    NOW,
    b64url,
    claims,
    ed25519_key,
    handmade_token,
    mint,
    public_jwk,
    public_pem,
    rsa_key,
    write_jwks,
)

from mcpwall.identity import (
    AgentMapping,
    IdentityError,
    IdentityFailure,
    JwtSettings,
    JwtVerifier,
    bearer_token,
)

pytestmark = pytest.mark.anyio

AGENTS = AgentMapping.model_validate(
    {
        "by_subject": {"agent-1": {"profiles": ["dev"], "tools": ["git/*"]}},
        "by_claim": {"role": {"auditor": {"profiles": ["read-only"]}}},
    }
)


def verifier(tmp_path: Path, **overrides: object) -> JwtVerifier:
    """A verifier over a JWKS file holding ``ed-1`` (Ed25519) and ``rsa-1`` (RSA 2048)."""
    path = write_jwks(
        tmp_path / "jwks.json", public_jwk(ed25519_key("ed-1"), "ed-1"), public_jwk(rsa_key("rsa-1"), "rsa-1")
    )
    settings = JwtSettings.model_validate({"issuer": ISSUER, "audience": AUDIENCE, "jwks_path": path, **overrides})
    return JwtVerifier(settings, AGENTS)


async def refusal(verifier: JwtVerifier, token: str, now: float = NOW) -> IdentityError:
    with anyio.fail_after(10), pytest.raises(IdentityError) as caught:
        await verifier.verify(token, now=now)
    return caught.value


async def test_valid_eddsa_token_yields_the_subjects_profiles_and_manifest(tmp_path: Path) -> None:
    with anyio.fail_after(10):
        identity = await verifier(tmp_path).verify(mint(ed25519_key("ed-1"), "ed-1"), now=NOW)
    assert identity.subject == "agent-1"
    assert identity.profiles == ("dev",)
    assert identity.tools_manifest == ("git/*",)
    assert identity.matched == ("by_subject[agent-1]",)
    assert identity.claims["iss"] == ISSUER


async def test_valid_rs256_token_maps_its_claim_to_profiles(tmp_path: Path) -> None:
    token = mint(rsa_key("rsa-1"), "rsa-1", claims(sub="auditor-7", role="auditor"))
    with anyio.fail_after(10):
        identity = await verifier(tmp_path).verify(token, now=NOW)
    assert (identity.subject, identity.profiles, identity.tools_manifest) == ("auditor-7", ("read-only",), None)


@pytest.mark.parametrize(
    ("now", "accepted"),
    [
        (NOW + 300 - 1, True),
        (NOW + 300 + 9, True),
        (NOW + 300 + 10, False),
        (NOW - 10 - 10, True),
        (NOW - 10 - 11, False),
    ],
    ids=["before-exp", "exp-within-leeway", "exp-past-leeway", "nbf-within-leeway", "nbf-past-leeway"],
)
async def test_times_are_checked_against_the_given_now_with_leeway(tmp_path: Path, now: float, accepted: bool) -> None:
    token = mint(ed25519_key("ed-1"), "ed-1")
    if accepted:
        with anyio.fail_after(10):
            assert (await verifier(tmp_path).verify(token, now=now)).subject == "agent-1"
    else:
        assert (await refusal(verifier(tmp_path), token, now)).failure in {
            IdentityFailure.EXPIRED,
            IdentityFailure.NOT_YET_VALID,
        }


def _tampered(token: str) -> str:
    header, _, signature = token.split(".")
    forged = b64url(b'{"iss":"%s","aud":"%s","sub":"admin","exp":9999999999}' % (ISSUER.encode(), AUDIENCE.encode()))
    return f"{header}.{forged}.{signature}"


ED = ed25519_key("ed-1")
REFUSALS: list[tuple[str, Callable[[], str], IdentityFailure, str]] = [
    ("expired", lambda: mint(ED, payload=claims(exp=int(NOW) - 60)), IdentityFailure.EXPIRED, "exp"),
    ("not-yet-valid", lambda: mint(ED, payload=claims(nbf=int(NOW) + 120)), IdentityFailure.NOT_YET_VALID, "nbf"),
    ("issued-later", lambda: mint(ED, payload=claims(iat=int(NOW) + 120)), IdentityFailure.ISSUED_IN_FUTURE, "iat"),
    ("wrong-issuer", lambda: mint(ED, payload=claims(iss="https://evil.test")), IdentityFailure.WRONG_ISSUER, "Issuer"),
    (
        "wrong-audience",
        lambda: mint(ED, payload=claims(aud="other-service")),
        IdentityFailure.WRONG_AUDIENCE,
        "audience",
    ),
    ("unknown-kid", lambda: mint(ED, "ed-9"), IdentityFailure.UNKNOWN_KEY, "ed-9"),
    ("no-kid-two-keys", lambda: mint(ED, None), IdentityFailure.KID_REQUIRED, "2 keys"),
    (
        "alg-none",
        lambda: handmade_token({"alg": "none", "typ": "JWT", "kid": "ed-1"}, claims()),
        IdentityFailure.ALGORITHM_REFUSED,
        "'none'",
    ),
    (
        "hs256-public-key-as-secret",
        lambda: handmade_token({"alg": "HS256", "kid": "rsa-1"}, claims(), public_pem(rsa_key("rsa-1"))),
        IdentityFailure.ALGORITHM_REFUSED,
        "'HS256'",
    ),
    ("tampered-payload", lambda: _tampered(mint(ED)), IdentityFailure.BAD_SIGNATURE, "Signature"),
    ("other-signer", lambda: mint(ed25519_key("intruder"), "ed-1"), IdentityFailure.BAD_SIGNATURE, "Signature"),
    ("eddsa-under-rsa-kid", lambda: mint(ED, "rsa-1"), IdentityFailure.KEY_ALGORITHM_MISMATCH, "RS256"),
    ("missing-exp", lambda: mint(ED, payload=claims(exp=None)), IdentityFailure.MISSING_CLAIM, '"exp"'),
    ("missing-sub", lambda: mint(ED, payload=claims(sub=None)), IdentityFailure.MISSING_CLAIM, '"sub"'),
    ("exp-not-a-number", lambda: mint(ED, payload=claims(exp="tomorrow")), IdentityFailure.INVALID_CLAIM, "exp"),
    ("not-a-jwt", lambda: "not-a-jwt", IdentityFailure.MALFORMED_TOKEN, "header"),
    ("unmapped-agent", lambda: mint(ED, payload=claims(sub="stranger")), IdentityFailure.UNMAPPED_AGENT, "stranger"),
]


@pytest.mark.parametrize(("name", "token", "failure", "detail"), REFUSALS, ids=[row[0] for row in REFUSALS])
async def test_token_is_refused_with_its_own_operator_reason(
    tmp_path: Path, name: str, token: Callable[[], str], failure: IdentityFailure, detail: str
) -> None:
    error = await refusal(verifier(tmp_path), token())
    assert error.failure is failure, error.operator_reason
    assert detail.lower() in error.detail.lower()
    assert str(error) == IdentityError.public_message == "authentication failed"


async def test_each_kind_of_forgery_gives_the_operator_a_distinct_reason(tmp_path: Path) -> None:
    kinds = {"other-signer"}  # the same cause as tampered-payload: the signature does not verify
    rows = [token for name, token, _, _ in REFUSALS if name not in kinds]
    reasons = [(await refusal(verifier(tmp_path), token())).operator_reason for token in rows]
    assert len(set(reasons)) == len(reasons)


async def test_algorithm_outside_a_narrowed_allow_list_is_refused_before_key_lookup(tmp_path: Path) -> None:
    error = await refusal(verifier(tmp_path, algorithms=["EdDSA"]), mint(rsa_key("rsa-1"), "rsa-1"))
    assert error.failure is IdentityFailure.ALGORITHM_REFUSED


async def test_oversized_token_is_refused_before_parsing(tmp_path: Path) -> None:
    error = await refusal(verifier(tmp_path, max_token_bytes=64), mint(ED))
    assert error.failure is IdentityFailure.MALFORMED_TOKEN


async def test_only_key_of_a_single_key_set_verifies_a_token_without_kid(tmp_path: Path) -> None:
    path = write_jwks(tmp_path / "one.json", public_jwk(ED, None))
    settings = JwtSettings(issuer=ISSUER, audience=AUDIENCE, jwks_path=path)
    with anyio.fail_after(10):
        identity = await JwtVerifier(settings, AGENTS).verify(mint(ED, None), now=NOW)
    assert identity.subject == "agent-1"


async def test_missing_jwks_file_fails_closed(tmp_path: Path) -> None:
    settings = JwtSettings(issuer=ISSUER, audience=AUDIENCE, jwks_path=tmp_path / "absent.json")
    error = await refusal(JwtVerifier(settings, AGENTS), mint(ED))
    assert error.failure is IdentityFailure.JWKS_UNAVAILABLE


@pytest.mark.parametrize(
    ("headers", "token"),
    [
        ({"Authorization": "Bearer abc.def.ghi"}, "abc.def.ghi"),
        ({"authorization": "bearer  abc.def.ghi "}, "abc.def.ghi"),
        ({"AUTHORIZATION": "BEARER x"}, "x"),
    ],
)
def test_bearer_token_is_read_whatever_the_case(headers: dict[str, str], token: str) -> None:
    assert bearer_token(headers) == token


@pytest.mark.parametrize(
    ("headers", "failure"),
    [
        ({}, IdentityFailure.MISSING_CREDENTIALS),
        ({"Authorization": "Basic dXNlcjpwdw=="}, IdentityFailure.MISSING_CREDENTIALS),
        ({"Authorization": "Bearer "}, IdentityFailure.MISSING_CREDENTIALS),
        ({"Authorization": "Bearer a", "authorization": "Bearer b"}, IdentityFailure.MALFORMED_TOKEN),
    ],
    ids=["absent", "basic", "empty", "repeated"],
)
def test_missing_or_ambiguous_authorization_is_refused(headers: dict[str, str], failure: IdentityFailure) -> None:
    with pytest.raises(IdentityError) as caught:
        bearer_token(headers)
    assert caught.value.failure is failure
