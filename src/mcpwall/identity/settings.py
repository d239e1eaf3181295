"""The identity layer's configuration: bearer JWTs, the agents mapping, signed envelopes.

These are the models behind the ``identity:`` section (``extra="forbid"``: an unknown key does
not load); the configuration reference is generated from the attribute docstrings. At least one
of ``jwt`` and ``envelope`` must be set. With both, the envelope's key must belong to the
token's subject; with ``envelope`` alone, the key's registered subject is the agent.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
from pathlib import Path
from typing import Literal, Self
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, PositiveFloat, PositiveInt, field_validator, model_validator

Algorithm = Literal["EdDSA", "RS256"]
"""The only JWT algorithms mcpwall accepts: asymmetric, and no ``none``, no HMAC."""

ALGORITHMS: tuple[Algorithm, ...] = ("EdDSA", "RS256")
ED25519_PUBLIC_KEY_BYTES = 32
NONCE_STORES = ("memory", "state")
"""The named envelope nonce stores; anything else must be a Redis URL."""
REDIS_SCHEMES = ("redis", "rediss")


class Strict(BaseModel):
    """Unknown keys refused, values frozen, attribute docstrings the schema's descriptions."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class JwtSettings(Strict):
    """Bearer JWT verification: where the keys are and what the claims must say."""

    issuer: str = Field(min_length=1)
    """The exact ``iss`` every token must carry."""
    audience: str = Field(min_length=1)
    """The ``aud`` that names this gateway; a token for another service is refused."""
    algorithms: list[Algorithm] = Field(default_factory=lambda: list(ALGORITHMS), min_length=1)
    """Algorithms accepted in the token header; anything else is refused before any key is used."""
    jwks_path: Path | None = None
    """A JWKS file (``{"keys": [...]}``); set this or ``jwks_url``."""
    jwks_url: str | None = None
    """A JWKS URL: ``https://``, or ``http://`` to a loopback address only."""
    jwks_ttl_seconds: PositiveInt = 300
    """How long a fetched key set is used before it is fetched again."""
    jwks_min_refresh_seconds: int = Field(default=30, ge=0)
    """Least time between two fetches, however many unknown ``kid`` values arrive."""
    jwks_timeout_seconds: PositiveFloat = 5.0
    """Timeout of one JWKS fetch."""
    jwks_max_bytes: PositiveInt = 262_144
    """Largest JWKS document fetched from ``jwks_url`` (256 KiB; a dozen RSA keys take ~6 KiB): a
    fetch whose ``Content-Length`` or body goes past it is refused, having read at most one
    network chunk (64 KiB) more."""
    leeway_seconds: int = Field(default=10, ge=0, le=300)
    """Clock skew tolerated on ``exp``, ``nbf`` and ``iat``."""
    max_token_bytes: PositiveInt = 8192
    """Longer tokens are refused before they are parsed."""

    @field_validator("algorithms")
    @classmethod
    def _unique(cls, value: list[Algorithm]) -> list[Algorithm]:
        if len(set(value)) != len(value):
            raise ValueError("algorithms are listed twice")
        return value

    @field_validator("jwks_url")
    @classmethod
    def _secure_url(cls, value: str | None) -> str | None:
        if value is None:
            return value
        parts = urlsplit(value)
        if parts.scheme == "https" and parts.hostname:
            return value
        if parts.scheme == "http" and _is_loopback(parts.hostname or ""):
            return value
        raise ValueError("jwks_url must be https:// (http:// only to a loopback address)")

    @model_validator(mode="after")
    def _one_source(self) -> Self:
        if (self.jwks_path is None) == (self.jwks_url is None):
            raise ValueError("set exactly one of jwks_path and jwks_url")
        return self


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class AgentGrant(Strict):
    """What one agent (or every agent with one claim value) gets."""

    profiles: list[str] = Field(default_factory=list)
    """Gatekeeper profiles to activate for the agent's sessions."""
    tools: list[str] | None = None
    """The agent's tool manifest: globs over ``server/tool``, always bounded by the gateway's
    ceiling. Unset: every tool under the ceiling; ``[]``: no tool at all."""


class AgentMapping(Strict):
    """How a verified subject and its claims select profiles and a tool manifest.

    An entry of ``by_subject`` for the subject wins alone. Otherwise every ``by_claim`` entry
    whose claim holds the value (a string, or a list of strings that contains it) applies, and
    their grants are united: profiles in config order, tools as a union (one grant without a
    ``tools`` list leaves the agent unrestricted under the ceiling). When nothing matches,
    ``default`` applies; without a default the agent is refused.
    """

    by_subject: dict[str, AgentGrant] = Field(default_factory=dict)
    """Grants by exact ``sub``."""
    by_claim: dict[str, dict[str, AgentGrant]] = Field(default_factory=dict)
    """Grants by claim name, then by claim value (e.g. ``role: {developer: ...}``)."""
    default: AgentGrant | None = None
    """The grant of a verified agent no entry matches; unset: such an agent is refused."""


class EnvelopeKey(Strict):
    """One agent's registered Ed25519 public key."""

    subject: str = Field(min_length=1)
    """The agent the key belongs to (the token's ``sub`` when bearer tokens are used too)."""
    public_key: str
    """The raw 32-byte public key, base64url (the ``x`` of its JWK)."""

    @field_validator("public_key")
    @classmethod
    def _ed25519(cls, value: str) -> str:
        try:
            raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        except (binascii.Error, ValueError) as exc:
            raise ValueError("public_key is not base64url") from exc
        if len(raw) != ED25519_PUBLIC_KEY_BYTES:
            raise ValueError(f"an Ed25519 public key has {ED25519_PUBLIC_KEY_BYTES} bytes, not {len(raw)}")
        return value


class EnvelopeSettings(Strict):
    """Ed25519-signed request envelopes: when this section is set, every request needs one."""

    keys: dict[str, EnvelopeKey] = Field(min_length=1)
    """Registered keys by key id (the ``mcp-signature-key-id`` header)."""
    window_seconds: int = Field(default=30, ge=1, le=300)
    """How far the envelope's timestamp may be from now, either way; nonces live this long."""
    max_nonces_per_key: PositiveInt = 10_000
    """Live nonces remembered per key; past this the key's requests are refused, not forgotten.
    A nonce lives until its timestamp + ``window_seconds``, so this bounds one key's sustained
    rate to about ``max_nonces_per_key / window_seconds`` requests a second."""
    nonce_store: str = "state"
    """Where nonces are remembered: ``state`` (the SQLite state database: shared by every
    gateway process with the same state directory), ``memory`` (this process only: a replay
    sent to another process is accepted), or ``redis://host:6379/0`` (``rediss://`` for TLS)
    for gateway processes on several machines."""

    @field_validator("nonce_store")
    @classmethod
    def _known_store(cls, value: str) -> str:
        if value in NONCE_STORES:
            return value
        parts = urlsplit(value)
        if parts.scheme in REDIS_SCHEMES and parts.hostname:
            return value
        raise ValueError("nonce_store must be memory, state, or a redis:// or rediss:// URL with a host")


class IdentitySettings(Strict):
    """Who the agent on the HTTP front is: a bearer JWT, a signed envelope, or both."""

    jwt: JwtSettings | None = None
    """Bearer JWT verification; unset: no token is asked for."""
    agents: AgentMapping = Field(default_factory=AgentMapping)
    """Profiles and tool manifests by subject and claims."""
    envelope: EnvelopeSettings | None = None
    """Signed request envelopes; unset: none is asked for."""

    @model_validator(mode="after")
    def _some_credential(self) -> Self:
        if self.jwt is None and self.envelope is None:
            raise ValueError("set jwt, envelope or both")
        return self

    def profile_names(self) -> set[str]:
        """Every profile the mapping names, for the caller to check against the gatekeeper's."""
        grants = [*self.agents.by_subject.values(), *(g for v in self.agents.by_claim.values() for g in v.values())]
        if self.agents.default is not None:
            grants.append(self.agents.default)
        return {name for grant in grants for name in grant.profiles}
