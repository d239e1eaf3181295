"""The key set bearer tokens are verified with: one cache, two loaders (a file, a URL).

A loader is an async callable returning the JWKS bytes; :func:`file_loader` reads a path,
:func:`url_loader` fetches with httpx, streaming the body under a size cap and a deadline.
:class:`JwksCache` keeps the parsed keys for ``ttl`` seconds and, when a token names a ``kid``
it does not hold, loads again, but at most once every ``min_refresh`` seconds (a flood of
made-up ``kid`` values costs one fetch). It fails closed: a key set that cannot be loaded
refuses every token until a load succeeds.

Only signing keys of the allowed algorithms are kept: RSA (``RS256``, at least 2048 bits) and
OKP Ed25519 (``EdDSA``). Symmetric (``oct``) keys, encryption keys (``use: enc``), keys carrying
private parts and keys whose ``alg`` is outside the allow list are skipped, so no token can
be checked with a key of another kind than its algorithm (algorithm confusion).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from jwt import PyJWK, PyJWTError

from mcpwall.identity.errors import IdentityError, IdentityFailure

JwksLoader = Callable[[], Awaitable[bytes]]
"""Returns the JWKS document's bytes; raises :class:`IdentityError` when it cannot."""

MIN_RSA_BITS = 2048
DEFAULT_MAX_BYTES = 262_144
"""The JWKS size cap when none is given (``identity.jwt.jwks_max_bytes``' default)."""
_IDENTITY = {"accept-encoding": "identity"}
_ALGORITHM_OF_KTY = {"RSA": "RS256", "OKP": "EdDSA"}


@dataclass(frozen=True)
class VerificationKey:
    """One usable key of the set: its id, the one algorithm it verifies, the key itself."""

    kid: str | None
    algorithm: str
    jwk: PyJWK


def file_loader(path: Path) -> JwksLoader:
    """A loader reading a JWKS file (read again on every refresh, so key rotation is a file edit)."""

    async def load() -> bytes:
        try:
            return await anyio.Path(path).read_bytes()
        except OSError as exc:
            raise IdentityError(IdentityFailure.JWKS_UNAVAILABLE, f"cannot read {path}: {exc}") from exc

    return load


def url_loader(
    url: str, *, timeout: float, max_bytes: int = DEFAULT_MAX_BYTES, client: httpx.AsyncClient | None = None
) -> JwksLoader:
    """A loader fetching a JWKS URL (redirects not followed; a non-2xx answer is a failure).

    The body is streamed and refused past ``max_bytes`` (a ``Content-Length`` above it is
    refused before any of the body is read), so a hostile or broken URL cannot fill memory. It
    is asked for uncompressed and read raw: a compressed answer is refused rather than inflated,
    since a few KiB of gzip can inflate to gigabytes. The whole fetch has one deadline, so a
    server dripping bytes cannot hold the key set's lock (and every token waiting on it) for long.

    Args:
        url: the JWKS URL.
        timeout: seconds the whole fetch may take.
        max_bytes: the largest body accepted.
        client: the httpx client to fetch with (one per fetch when None).
    """

    async def fetch(http: httpx.AsyncClient) -> bytes:
        try:
            with anyio.fail_after(timeout):
                async with http.stream(
                    "GET", url, timeout=timeout, follow_redirects=False, headers=_IDENTITY
                ) as answer:
                    answer.raise_for_status()
                    return await _capped_body(answer, url, max_bytes)
        except httpx.HTTPError as exc:
            raise IdentityError(IdentityFailure.JWKS_UNAVAILABLE, f"cannot fetch {url}: {exc}") from exc
        except TimeoutError as exc:
            raise IdentityError(IdentityFailure.JWKS_UNAVAILABLE, f"{url} took more than {timeout} s") from exc

    async def load() -> bytes:
        if client is not None:
            return await fetch(client)
        async with httpx.AsyncClient() as http:
            return await fetch(http)

    return load


async def _capped_body(response: httpx.Response, url: str, max_bytes: int) -> bytes:
    """The raw body of a JWKS answer, at most ``max_bytes`` of it read.

    Raises:
        IdentityError: ``JWKS_UNAVAILABLE`` for a compressed answer or one larger than ``max_bytes``.
    """
    encoding = response.headers.get("content-encoding", "identity").strip().lower()
    if encoding != "identity":
        raise IdentityError(IdentityFailure.JWKS_UNAVAILABLE, f"{url} answered with content-encoding {encoding!r}")
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise IdentityError(IdentityFailure.JWKS_UNAVAILABLE, f"{url} declares {declared} bytes; at most {max_bytes}")
    body = bytearray()
    async for chunk in response.aiter_raw():
        body += chunk
        if len(body) > max_bytes:
            raise IdentityError(IdentityFailure.JWKS_UNAVAILABLE, f"{url} sent more than {max_bytes} bytes")
    return bytes(body)


def parse_jwks(data: bytes, algorithms: Collection[str]) -> tuple[VerificationKey, ...]:
    """The usable signing keys of a JWKS document.

    Raises:
        IdentityError: ``JWKS_INVALID`` when the document is not a JWKS, repeats a ``kid``, or
            holds no usable key.
    """
    try:
        document = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise IdentityError(IdentityFailure.JWKS_INVALID, f"not JSON: {exc}") from exc
    entries = document.get("keys") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise IdentityError(IdentityFailure.JWKS_INVALID, 'no "keys" list')
    keys = [key for entry in entries if (key := _usable_key(entry, algorithms)) is not None]
    if not keys:
        raise IdentityError(IdentityFailure.JWKS_INVALID, f"none of {len(entries)} keys is a usable signing key")
    kids = [key.kid for key in keys]
    if len(set(kids)) != len(kids):
        raise IdentityError(IdentityFailure.JWKS_INVALID, "two keys share a kid")
    return tuple(keys)


def _usable_key(entry: Any, algorithms: Collection[str]) -> VerificationKey | None:
    if not isinstance(entry, dict) or "d" in entry or entry.get("use", "sig") != "sig":
        return None
    algorithm = _ALGORITHM_OF_KTY.get(entry.get("kty", ""))
    if algorithm is None or algorithm not in algorithms or entry.get("alg", algorithm) != algorithm:
        return None
    kid = entry.get("kid")
    if kid is not None and not isinstance(kid, str):
        return None
    try:
        jwk = PyJWK.from_dict(entry, algorithm)
    except PyJWTError:
        return None
    if isinstance(jwk.key, RSAPublicKey) and jwk.key.key_size < MIN_RSA_BITS:
        return None
    return VerificationKey(kid=kid, algorithm=algorithm, jwk=jwk)


class JwksCache:
    """The key set, loaded on first use, kept ``ttl`` seconds, refreshed on an unknown ``kid``.

    Args:
        loader: where the JWKS comes from.
        algorithms: the allowed algorithms; keys for others are skipped.
        ttl: seconds a loaded set is used.
        min_refresh: least seconds between two loads (failed ones included).
    """

    def __init__(self, loader: JwksLoader, *, algorithms: Collection[str], ttl: float, min_refresh: float) -> None:
        self._loader = loader
        self._algorithms = frozenset(algorithms)
        self._ttl = ttl
        self._min_refresh = min_refresh
        self._keys: tuple[VerificationKey, ...] | None = None
        self._loaded_at = float("-inf")
        self._attempted_at = float("-inf")
        self._lock = anyio.Lock()

    async def key_for(self, kid: str | None, *, now: float) -> VerificationKey:
        """The key a token's ``kid`` names (or the only key, when the token has no ``kid``).

        Raises:
            IdentityError: ``KID_REQUIRED``, ``UNKNOWN_KEY``, ``JWKS_UNAVAILABLE`` or ``JWKS_INVALID``.
        """
        if self._stale(now):
            await self._load(now, needed=self._stale)
        key = self._find(kid)
        if key is None and kid is not None:
            await self._load(now, needed=lambda at: at >= self._attempted_at + self._min_refresh)
            key = self._find(kid)
        if key is None:
            raise IdentityError(IdentityFailure.UNKNOWN_KEY, f"no key with kid {kid!r} in the key set")
        return key

    def _stale(self, now: float) -> bool:
        return self._keys is None or now >= self._loaded_at + self._ttl

    def _find(self, kid: str | None) -> VerificationKey | None:
        keys = self._keys or ()
        if kid is None:
            if len(keys) > 1:
                raise IdentityError(
                    IdentityFailure.KID_REQUIRED, f"the token has no kid and the set has {len(keys)} keys"
                )
            return keys[0] if keys else None
        return next((key for key in keys if key.kid == kid), None)

    async def _load(self, now: float, *, needed: Callable[[float], bool]) -> None:
        """Load the set if still ``needed`` once the lock is held (another task may have loaded).

        Raises:
            IdentityError: ``JWKS_UNAVAILABLE`` when the last attempt failed less than
                ``min_refresh`` seconds ago, or the loader's or the parser's error.
        """
        async with self._lock:
            if not needed(now):
                return
            if self._attempted_at > self._loaded_at and now < self._attempted_at + self._min_refresh:
                raise IdentityError(IdentityFailure.JWKS_UNAVAILABLE, "the last load failed; the next is rate-limited")
            self._attempted_at = now
            self._keys = parse_jwks(await self._loader(), self._algorithms)
            self._loaded_at = now
