"""Ed25519-signed request envelopes: a signature over what the request is, when and how often.

Headers (names lowercase; HTTP header names are case-insensitive)::

    mcp-signature-key-id     the registered key id (identity.envelope.keys)
    mcp-signature-timestamp  epoch seconds, decimal
    mcp-signature-nonce      16-128 characters of [A-Za-z0-9_-], fresh per request
    mcp-signature            base64url (no padding) Ed25519 signature of the signed string

The body is bound by the SHA-256 of its exact bytes, not by a canonical JSON form: the
signature is checked before any byte is parsed, and no two parsers can disagree about what was
signed. The signed string is seven lines joined by ``\\n`` (no field may contain one)::

    mcpwall-envelope-v1
    POST                     method, uppercase
    /mcp?session=1           path and query string, exactly as received by mcpwall
    1767225600               timestamp
    2n3J...                  nonce
    agent-key-1              key id
    9f86d0...                lowercase hex SHA-256 of the body

Verification order: headers well-formed, key registered, timestamp within ``window`` of now,
signature valid, key owned by the token's subject (when there is one), nonce fresh. The nonce is
remembered last, so only signed requests occupy the store; it lives until timestamp + window.
The store is the one ``nonce_store`` names (see nonces.py): ``state`` by default, so that every
gateway process sharing the state directory refuses a replay, whichever process saw it first.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from mcpwall.identity.errors import IdentityError, IdentityFailure
from mcpwall.identity.nonces import NonceOutcome, NonceStore, open_nonce_store
from mcpwall.identity.settings import EnvelopeSettings

VERSION = "mcpwall-envelope-v1"
SIGNATURE_HEADER = "mcp-signature"
TIMESTAMP_HEADER = "mcp-signature-timestamp"
NONCE_HEADER = "mcp-signature-nonce"
KEY_ID_HEADER = "mcp-signature-key-id"
ENVELOPE_HEADERS = (KEY_ID_HEADER, TIMESTAMP_HEADER, NONCE_HEADER, SIGNATURE_HEADER)

_FORMATS = {
    KEY_ID_HEADER: re.compile(r"[A-Za-z0-9._:-]{1,128}"),
    TIMESTAMP_HEADER: re.compile(r"[0-9]{1,12}"),
    NONCE_HEADER: re.compile(r"[A-Za-z0-9_-]{16,128}"),
    SIGNATURE_HEADER: re.compile(r"[A-Za-z0-9_-]{86}"),  # 64 bytes, base64url without padding
}
_METHOD = re.compile(r"[A-Z]{1,16}")
_PATH = re.compile(r"/[\x21-\x7e]*")


@dataclass(frozen=True)
class VerifiedEnvelope:
    """A request whose envelope checked: which key signed it, for which agent, when."""

    key_id: str
    subject: str
    timestamp: int
    nonce: str


def signed_string(*, method: str, path: str, timestamp: int, nonce: str, key_id: str, body: bytes) -> bytes:
    """The bytes an envelope signs (see the module docstring).

    Raises:
        ValueError: a method or path that cannot be signed unambiguously.
    """
    if not _METHOD.fullmatch(method) or not _PATH.fullmatch(path):
        raise ValueError("method must be uppercase letters, path must start with / and hold no space")
    lines = (VERSION, method, path, str(timestamp), nonce, key_id, hashlib.sha256(body).hexdigest())
    return "\n".join(lines).encode("ascii")


def sign_request(
    private_key: Ed25519PrivateKey,
    *,
    key_id: str,
    method: str,
    path: str,
    body: bytes,
    now: float | None = None,
    nonce: str | None = None,
) -> dict[str, str]:
    """The envelope headers for one request (the client side, and tests).

    Args:
        private_key: the agent's Ed25519 key.
        key_id: the id its public key is registered under.
        method: the HTTP method, uppercase.
        path: the request target (path and query) exactly as sent.
        body: the exact body bytes.
        now: epoch seconds to stamp (default: the clock).
        nonce: a fresh nonce (default: 144 random bits).
    """
    timestamp = int(time.time() if now is None else now)
    nonce = secrets.token_urlsafe(18) if nonce is None else nonce
    message = signed_string(method=method, path=path, timestamp=timestamp, nonce=nonce, key_id=key_id, body=body)
    signature = base64.urlsafe_b64encode(private_key.sign(message)).rstrip(b"=").decode("ascii")
    return {KEY_ID_HEADER: key_id, TIMESTAMP_HEADER: str(timestamp), NONCE_HEADER: nonce, SIGNATURE_HEADER: signature}


def encode_public_key(public_key: Ed25519PublicKey) -> str:
    """The base64url text of a public key, as ``identity.envelope.keys.*.public_key`` takes it."""
    raw = public_key.public_bytes(Encoding.Raw, PublicFormat.Raw)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _public_key(text: str) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(_b64url(text))


class EnvelopeVerifier:
    """Verifies the envelope of each request against the registered keys.

    Args:
        settings: the ``identity.envelope`` section.
        nonces: the replay store; None: the one ``settings.nonce_store`` names, opened here and
            closed by :meth:`aclose`.
        state_dir: the configuration's ``state_dir``, where the ``state`` store lives.

    Raises:
        ConfigError: the configured nonce store cannot be opened.
    """

    def __init__(
        self, settings: EnvelopeSettings, nonces: NonceStore | None = None, *, state_dir: str | None = None
    ) -> None:
        self._settings = settings
        self._keys = {kid: _public_key(key.public_key) for kid, key in settings.keys.items()}
        self._owns_nonces = nonces is None
        self._nonces = nonces or open_nonce_store(
            settings.nonce_store, max_per_key=settings.max_nonces_per_key, configured_state_dir=state_dir
        )

    async def aclose(self) -> None:
        """Close the nonce store if this verifier opened it."""
        if self._owns_nonces:
            await self._nonces.aclose()

    async def verify(
        self,
        *,
        method: str,
        path: str,
        headers: Mapping[str, str],
        body: bytes,
        subject: str | None = None,
        now: float | None = None,
    ) -> VerifiedEnvelope:
        """Check one request's envelope and remember its nonce.

        Args:
            method: the HTTP method as received.
            path: the request target (path and query) as received.
            headers: the request headers (every pair, so repeats are seen).
            body: the exact body bytes.
            subject: the bearer token's subject, which must own the key; None without a token.
            now: epoch seconds (default: the clock).

        Raises:
            IdentityError: one of the ``ENVELOPE_*`` failures.
        """
        now = time.time() if now is None else now
        fields = _envelope_fields(headers)
        key_id, timestamp, nonce = fields[KEY_ID_HEADER], int(fields[TIMESTAMP_HEADER]), fields[NONCE_HEADER]
        registered = self._settings.keys.get(key_id)
        if registered is None:
            raise IdentityError(IdentityFailure.ENVELOPE_UNKNOWN_KEY, f"key id {key_id!r} is not registered")
        window = self._settings.window_seconds
        if abs(now - timestamp) > window:
            raise IdentityError(IdentityFailure.ENVELOPE_STALE, f"timestamp {timestamp} is {window}s+ from {now}")
        try:
            message = signed_string(
                method=method.upper(), path=path, timestamp=timestamp, nonce=nonce, key_id=key_id, body=body
            )
            self._keys[key_id].verify(_b64url(fields[SIGNATURE_HEADER]), message)
        except (InvalidSignature, ValueError, binascii.Error) as exc:
            raise IdentityError(IdentityFailure.ENVELOPE_BAD_SIGNATURE, f"key {key_id!r}: {exc!r}") from exc
        if subject is not None and registered.subject != subject:
            raise IdentityError(
                IdentityFailure.ENVELOPE_SUBJECT_MISMATCH, f"key {key_id!r} is {registered.subject!r}'s not {subject!r}"
            )
        await self._claim_nonce(key_id, nonce, expires_at=timestamp + window, now=now)
        return VerifiedEnvelope(key_id=key_id, subject=registered.subject, timestamp=timestamp, nonce=nonce)

    async def _claim_nonce(self, key_id: str, nonce: str, *, expires_at: float, now: float) -> None:
        outcome = await self._nonces.claim(key_id, nonce, expires_at=expires_at, now=now)
        if outcome is NonceOutcome.REPLAYED:
            raise IdentityError(IdentityFailure.ENVELOPE_REPLAYED, f"nonce {nonce!r} already used with key {key_id!r}")
        if outcome is NonceOutcome.FULL:
            raise IdentityError(IdentityFailure.ENVELOPE_NONCE_CACHE_FULL, f"key {key_id!r} has too many live nonces")


def _envelope_fields(headers: Mapping[str, str]) -> dict[str, str]:
    """The four envelope headers, each present once and well-formed.

    Raises:
        IdentityError: ``ENVELOPE_MISSING`` (none of them) or ``ENVELOPE_MALFORMED``.
    """
    found: dict[str, list[str]] = {}
    for name, value in headers.items():
        if name.lower() in _FORMATS:
            found.setdefault(name.lower(), []).append(value.strip())
    if not found:
        raise IdentityError(IdentityFailure.ENVELOPE_MISSING, "no mcp-signature headers")
    for name, pattern in _FORMATS.items():
        values = found.get(name, [])
        if len(values) != 1 or not pattern.fullmatch(values[0]):
            raise IdentityError(IdentityFailure.ENVELOPE_MALFORMED, f"{name}: expected one well-formed value")
    return {name: values[0] for name, values in found.items()}
