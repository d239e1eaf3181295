"""The agents mapping, the tool manifest's bound, the identity settings, and the Authenticator."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pydantic
import pytest
import yaml
from identity_keys import AUDIENCE, ISSUER, NOW, claims, ed25519_key, mint, public_jwk, write_jwks

from mcpwall.identity import (
    AgentMapping,
    Authenticator,
    IdentityError,
    IdentityFailure,
    IdentitySettings,
    bound_manifest,
    encode_public_key,
    resolve_agent,
    sign_request,
)

MAPPING = AgentMapping.model_validate(
    {
        "by_subject": {"ci-bot": {"profiles": ["ci"], "tools": ["git/status"]}},
        "by_claim": {
            "role": {"developer": {"profiles": ["dev"], "tools": ["git/*"]}, "auditor": {"profiles": ["read-only"]}},
            "team": {"infra": {"profiles": ["dev", "infra"], "tools": ["k8s/get_*"]}},
        },
        "default": {"profiles": ["guest"], "tools": []},
    }
)


@pytest.mark.parametrize(
    ("subject", "agent_claims", "profiles", "tools", "matched"),
    [
        ("ci-bot", {"role": "auditor"}, ("ci",), ("git/status",), ("by_subject[ci-bot]",)),
        ("ann", {"role": "developer"}, ("dev",), ("git/*",), ("by_claim.role[developer]",)),
        ("bob", {"role": ["auditor", 7]}, ("read-only",), None, ("by_claim.role[auditor]",)),
        (
            "eve",
            {"role": "developer", "team": "infra"},
            ("dev", "infra"),
            ("git/*", "k8s/get_*"),
            ("by_claim.role[developer]", "by_claim.team[infra]"),
        ),
        ("fay", {"role": ["developer", "auditor"]}, ("dev", "read-only"), None, None),
        ("gus", {"role": True, "team": {"infra": 1}}, ("guest",), (), ("default",)),
        ("hal", {}, ("guest",), (), ("default",)),
    ],
    ids=["subject-wins", "claim", "list-claim", "two-claims-unite", "unrestricted-grant-unites", "non-string", "none"],
)
def test_subject_and_claims_select_profiles_and_manifest(
    subject: str,
    agent_claims: dict[str, Any],
    profiles: tuple[str, ...],
    tools: tuple[str, ...] | None,
    matched: tuple[str, ...] | None,
) -> None:
    identity = resolve_agent(subject, agent_claims, MAPPING)
    assert (identity.profiles, identity.tools_manifest) == (profiles, tools)
    assert matched is None or identity.matched == matched


def test_agent_matching_nothing_is_refused_without_a_default() -> None:
    with pytest.raises(IdentityError) as caught:
        resolve_agent("stranger", {"role": "intern"}, MAPPING.model_copy(update={"default": None}))
    assert caught.value.failure is IdentityFailure.UNMAPPED_AGENT


def test_identity_claims_are_read_only() -> None:
    identity = resolve_agent("hal", {"role": "x"}, MAPPING)
    with pytest.raises(TypeError):
        identity.claims["role"] = "developer"  # type: ignore[index]  # the point: a read-only mapping


@pytest.mark.parametrize(
    ("agent", "ceiling", "operation", "permitted"),
    [
        (None, None, "git/push", True),
        (None, ["git/*"], "git/push", True),
        (None, ["git/*"], "fs/read", False),
        (["git/status"], None, "git/status", True),
        (["git/*"], ["git/status", "fs/*"], "git/status", True),
        (["git/*"], ["git/status", "fs/*"], "git/push", False),
        (["*"], ["git/status"], "fs/read", False),
        (["fs/*"], ["git/*"], "fs/read", False),
        ([], None, "git/status", False),
        (["git/*"], [], "git/status", False),
        (["git/status"], ["git/*"], "git/Status", False),
    ],
    ids=[
        "nothing-restricts",
        "ceiling-only-in",
        "ceiling-only-out",
        "agent-only",
        "inside-both",
        "agent-wider-than-ceiling",
        "agent-star-cannot-widen",
        "disjoint",
        "empty-agent-list",
        "empty-ceiling",
        "case-sensitive",
    ],
)
def test_bounded_manifest_permits_only_what_both_agent_and_ceiling_permit(
    agent: list[str] | None, ceiling: list[str] | None, operation: str, permitted: bool
) -> None:
    assert bound_manifest(agent, ceiling).permits(operation) is permitted


def test_bounded_manifest_filters_a_tool_list_in_order() -> None:
    manifest = bound_manifest(["git/*", "fs/read_file"], ["git/status", "git/log", "fs/*"])
    assert manifest.filter(["fs/write_file", "git/log", "fs/read_file", "git/push"]) == ["git/log", "fs/read_file"]
    assert not manifest.unrestricted
    assert bound_manifest(None, None).unrestricted


EXAMPLE = """
jwt:
  issuer: https://auth.example.com
  audience: mcpwall
  algorithms: [EdDSA, RS256]
  jwks_url: https://auth.example.com/.well-known/jwks.json
  jwks_ttl_seconds: 300
  jwks_min_refresh_seconds: 30
  jwks_max_bytes: 262144
  leeway_seconds: 10
agents:
  by_subject:
    ci-bot: {profiles: [read-only], tools: ["github/get_*", "github/list_*"]}
  by_claim:
    role:
      developer: {profiles: [dev]}
      auditor: {profiles: [read-only], tools: ["*/get_*", "*/list_*"]}
  default: {profiles: [guest], tools: []}
envelope:
  window_seconds: 30
  nonce_store: redis://nonces.internal:6379/0
  keys:
    ci-bot-2026: {subject: ci-bot, public_key: 11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo}
"""


def test_documented_yaml_example_loads() -> None:
    settings = IdentitySettings.model_validate(yaml.safe_load(EXAMPLE))
    assert settings.profile_names() == {"read-only", "dev", "guest"}
    assert settings.envelope is not None
    assert settings.envelope.keys["ci-bot-2026"].subject == "ci-bot"
    assert settings.envelope.nonce_store == "redis://nonces.internal:6379/0"


JWT = {"issuer": ISSUER, "audience": AUDIENCE, "jwks_path": "/etc/jwks.json"}


@pytest.mark.parametrize(
    "section",
    [
        {},
        {"jwt": {**JWT, "algorithms": ["HS256"]}},
        {"jwt": {**JWT, "algorithms": ["none"]}},
        {"jwt": {**JWT, "algorithms": ["EdDSA", "EdDSA"]}},
        {"jwt": {**JWT, "jwks_url": "https://idp.test/jwks"}},
        {"jwt": {"issuer": ISSUER, "audience": AUDIENCE}},
        {"jwt": {"issuer": ISSUER, "audience": AUDIENCE, "jwks_url": "http://idp.test/jwks"}},
        {"jwt": {**JWT, "leeway_seconds": 3600}},
        {"jwt": {**JWT, "audiences": ["x"]}},
        {"envelope": {"keys": {}}},
        {"envelope": {"keys": {"k": {"subject": "a", "public_key": "c2hvcnQ"}}}},
        {"envelope": {"keys": {"k": {"subject": "a", "public_key": "@@@@"}}}},
    ],
    ids=[
        "no-credential",
        "hmac",
        "none",
        "repeated-alg",
        "two-sources",
        "no-source",
        "plain-http-remote",
        "huge-leeway",
        "unknown-key",
        "no-keys",
        "short-key",
        "not-base64",
    ],
)
def test_unsafe_or_ambiguous_identity_settings_do_not_load(section: dict[str, Any]) -> None:
    with pytest.raises(pydantic.ValidationError):
        IdentitySettings.model_validate(section)


def test_plain_http_jwks_url_is_accepted_for_loopback_only() -> None:
    for host in ("127.0.0.1:8080", "localhost", "[::1]:9000"):
        IdentitySettings.model_validate(
            {"jwt": {"issuer": ISSUER, "audience": AUDIENCE, "jwks_url": f"http://{host}/j"}}
        )


def both_credentials(tmp_path: Path) -> IdentitySettings:
    path = write_jwks(tmp_path / "jwks.json", public_jwk(ed25519_key("ed-1"), "ed-1"))
    public = {name: encode_public_key(ed25519_key(name).public_key()) for name in ("agent-1", "agent-2")}
    return IdentitySettings.model_validate(
        {
            "jwt": {"issuer": ISSUER, "audience": AUDIENCE, "jwks_path": str(path)},
            "agents": {"by_subject": {"agent-1": {"profiles": ["dev"]}, "agent-2": {"profiles": ["ops"]}}},
            "envelope": {
                "keys": {f"{name}-key": {"subject": name, "public_key": key} for name, key in public.items()},
                "nonce_store": "memory",
            },
        }
    )


async def authenticate(settings: IdentitySettings, headers: dict[str, str], body: bytes = b"{}") -> str:
    """The agent's profiles joined, or the refusal's failure code."""
    with anyio.fail_after(10):
        try:
            identity = await Authenticator(settings).authenticate(
                method="POST", path="/mcp", headers=headers, body=body, now=NOW
            )
        except IdentityError as error:
            return error.failure
    return ",".join(identity.profiles)


def envelope(signer: str) -> dict[str, str]:
    return sign_request(ed25519_key(signer), key_id=f"{signer}-key", method="POST", path="/mcp", body=b"{}", now=NOW)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("token_subject", "signer", "outcome"),
    [
        ("agent-1", "agent-1", "dev"),
        ("agent-1", "agent-2", IdentityFailure.ENVELOPE_SUBJECT_MISMATCH),
        (None, "agent-1", IdentityFailure.MISSING_CREDENTIALS),
        ("agent-1", None, IdentityFailure.ENVELOPE_MISSING),
    ],
    ids=["token-and-own-key", "token-with-another-agents-key", "envelope-without-token", "token-without-envelope"],
)
async def test_with_token_and_envelope_both_are_required_and_must_name_one_agent(
    tmp_path: Path, token_subject: str | None, signer: str | None, outcome: str
) -> None:
    headers = {} if signer is None else envelope(signer)
    if token_subject is not None:
        headers["Authorization"] = f"Bearer {mint(ed25519_key('ed-1'), 'ed-1', claims(sub=token_subject))}"
    assert await authenticate(both_credentials(tmp_path), headers) == outcome


@pytest.mark.anyio
async def test_envelope_alone_identifies_the_agent_by_its_registered_key(tmp_path: Path) -> None:
    settings = both_credentials(tmp_path).model_copy(update={"jwt": None})
    assert await authenticate(settings, envelope("agent-2")) == "ops"
    assert await authenticate(settings, envelope("agent-2"), body=b"[]") == IdentityFailure.ENVELOPE_BAD_SIGNATURE
