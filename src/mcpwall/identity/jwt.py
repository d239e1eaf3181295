"""Bearer JWT verification: from an ``Authorization`` header to an :class:`AgentIdentity`.

The order matters for algorithm confusion. The header's ``alg`` is checked against the allow
list (``EdDSA``, ``RS256``) before any key is looked up, so ``none`` and ``HS256`` never reach
a verifier; the key is then chosen by ``kid`` and must be of the header's algorithm; PyJWT
verifies the signature with that key bound to that one algorithm, then ``iss``, ``aud`` and the
presence of ``exp``, ``iss``, ``aud`` and ``sub``. The times (``exp``, ``nbf``, ``iat``) are
checked here against an explicit ``now`` with the configured leeway, so tests pin the clock.
Every PyJWT error is translated into an :class:`IdentityError` with its own operator reason.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

import httpx
import jwt as pyjwt

from mcpwall.errors import ConfigError
from mcpwall.identity.agent import AgentIdentity, resolve_agent
from mcpwall.identity.errors import IdentityError, IdentityFailure
from mcpwall.identity.jwks import JwksCache, JwksLoader, VerificationKey, file_loader, url_loader
from mcpwall.identity.settings import AgentMapping, JwtSettings

REQUIRED_CLAIMS = ["exp", "iss", "aud", "sub"]

_PYJWT_FAILURES: tuple[tuple[type[pyjwt.PyJWTError], IdentityFailure], ...] = (
    (pyjwt.InvalidSignatureError, IdentityFailure.BAD_SIGNATURE),  # before DecodeError, its base
    (pyjwt.InvalidIssuerError, IdentityFailure.WRONG_ISSUER),
    (pyjwt.InvalidAudienceError, IdentityFailure.WRONG_AUDIENCE),
    (pyjwt.MissingRequiredClaimError, IdentityFailure.MISSING_CLAIM),
    (pyjwt.InvalidAlgorithmError, IdentityFailure.ALGORITHM_REFUSED),
    (pyjwt.DecodeError, IdentityFailure.MALFORMED_TOKEN),
)


def bearer_token(headers: Mapping[str, str]) -> str:
    """The token of the one ``Authorization: Bearer`` header (scheme case-insensitive).

    Raises:
        IdentityError: ``MISSING_CREDENTIALS`` (no header, another scheme, an empty token) or
            ``MALFORMED_TOKEN`` (the header repeated).
    """
    values = [value for name, value in headers.items() if name.lower() == "authorization"]
    if len(values) > 1:
        raise IdentityError(IdentityFailure.MALFORMED_TOKEN, "several Authorization headers")
    scheme, _, token = (values[0] if values else "").strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise IdentityError(IdentityFailure.MISSING_CREDENTIALS, "no Authorization: Bearer header")
    return token.strip()


class JwtVerifier:
    """Verifies bearer tokens and maps their subject and claims to an :class:`AgentIdentity`.

    Args:
        settings: the ``identity.jwt`` section.
        agents: the ``identity.agents`` mapping.
        client: the httpx client for a ``jwks_url`` (one per fetch when None).
        loader: replaces the loader the settings describe (for another key source).
    """

    def __init__(
        self,
        settings: JwtSettings,
        agents: AgentMapping,
        *,
        client: httpx.AsyncClient | None = None,
        loader: JwksLoader | None = None,
    ) -> None:
        self._settings = settings
        self._agents = agents
        self._keys = JwksCache(
            loader or _settings_loader(settings, client),
            algorithms=settings.algorithms,
            ttl=settings.jwks_ttl_seconds,
            min_refresh=settings.jwks_min_refresh_seconds,
        )

    async def verify(self, token: str, *, now: float | None = None) -> AgentIdentity:
        """The identity a bearer token proves.

        Args:
            token: the compact JWT (see :func:`bearer_token`).
            now: epoch seconds to check the times against (default: the clock).

        Raises:
            IdentityError: the token is refused, or its agent is unmapped.
        """
        claims = await self.verified_claims(token, now=time.time() if now is None else now)
        return resolve_agent(claims["sub"], claims, self._agents)

    async def verified_claims(self, token: str, *, now: float) -> dict[str, Any]:
        """The claims of a token whose signature, issuer, audience and times all check.

        Raises:
            IdentityError: the token is refused.
        """
        if len(token) > self._settings.max_token_bytes:
            raise IdentityError(IdentityFailure.MALFORMED_TOKEN, f"token longer than {self._settings.max_token_bytes}")
        algorithm, kid = self._header(token)
        key = await self._keys.key_for(kid, now=now)
        if key.algorithm != algorithm:
            raise IdentityError(
                IdentityFailure.KEY_ALGORITHM_MISMATCH, f"token alg {algorithm} but key {kid!r} is {key.algorithm}"
            )
        claims = self._decode(token, key, algorithm)
        _check_times(claims, now=now, leeway=self._settings.leeway_seconds)
        if not isinstance(claims["sub"], str) or not claims["sub"]:
            raise IdentityError(IdentityFailure.INVALID_CLAIM, "sub is not a non-empty string")
        return claims

    def _header(self, token: str) -> tuple[str, str | None]:
        try:
            header = pyjwt.get_unverified_header(token)
        except pyjwt.PyJWTError as exc:
            raise IdentityError(IdentityFailure.MALFORMED_TOKEN, f"undecodable header: {exc}") from exc
        algorithm, kid = header.get("alg"), header.get("kid")
        if algorithm not in self._settings.algorithms:
            raise IdentityError(
                IdentityFailure.ALGORITHM_REFUSED, f"header alg {algorithm!r} not in {self._settings.algorithms}"
            )
        if kid is not None and not isinstance(kid, str):
            raise IdentityError(IdentityFailure.MALFORMED_TOKEN, "kid is not a string")
        return str(algorithm), kid

    def _decode(self, token: str, key: VerificationKey, algorithm: str) -> dict[str, Any]:
        try:
            return pyjwt.decode(
                token,
                key.jwk,
                algorithms=[algorithm],
                audience=self._settings.audience,
                issuer=self._settings.issuer,
                options={
                    "require": REQUIRED_CLAIMS,
                    "verify_exp": False,  # the times are checked by _check_times against `now`
                    "verify_nbf": False,
                    "verify_iat": False,
                    "enforce_minimum_key_length": True,
                },
            )
        except pyjwt.PyJWTError as exc:
            failure = next((f for kind, f in _PYJWT_FAILURES if isinstance(exc, kind)), IdentityFailure.INVALID_TOKEN)
            raise IdentityError(failure, f"key {key.kid!r}: {type(exc).__name__}: {exc}") from exc


def _check_times(claims: Mapping[str, Any], *, now: float, leeway: float) -> None:
    """Refuse a token expired, not yet valid or issued in the future, beyond the leeway."""
    exp, nbf, iat = (_numeric(claims, name) for name in ("exp", "nbf", "iat"))
    if exp is not None and exp <= now - leeway:
        raise IdentityError(IdentityFailure.EXPIRED, f"exp {exp} is before now {now} - leeway {leeway}")
    if nbf is not None and nbf > now + leeway:
        raise IdentityError(IdentityFailure.NOT_YET_VALID, f"nbf {nbf} is after now {now} + leeway {leeway}")
    if iat is not None and iat > now + leeway:
        raise IdentityError(IdentityFailure.ISSUED_IN_FUTURE, f"iat {iat} is after now {now} + leeway {leeway}")


def _numeric(claims: Mapping[str, Any], name: str) -> float | None:
    value = claims.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise IdentityError(IdentityFailure.INVALID_CLAIM, f"{name} is not a finite number")
    return float(value)


def _settings_loader(settings: JwtSettings, client: httpx.AsyncClient | None) -> JwksLoader:
    if settings.jwks_url is not None:
        return url_loader(
            settings.jwks_url,
            timeout=settings.jwks_timeout_seconds,
            max_bytes=settings.jwks_max_bytes,
            client=client,
        )
    if settings.jwks_path is not None:
        return file_loader(settings.jwks_path)
    raise ConfigError("set exactly one of jwks_path and jwks_url", path="identity.jwt")
