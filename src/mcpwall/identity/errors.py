"""The one error of the identity layer: who the caller is could not be established.

The HTTP front turns every :class:`IdentityError` into the same ``401`` with
:attr:`IdentityError.public_message`, so a caller learns nothing about which check failed.
The operator reads :attr:`IdentityError.operator_reason` (a :class:`IdentityFailure` code and
the details) in the log and the audit trail. ``str(error)`` is the public message on purpose:
an error that reaches a response body by accident leaks nothing.
"""

from __future__ import annotations

from enum import StrEnum

from mcpwall.errors import McpwallError


class IdentityFailure(StrEnum):
    """Why a caller was refused, for the operator (never sent to the caller)."""

    MISSING_CREDENTIALS = "missing_credentials"
    """No ``Authorization: Bearer`` header, or another scheme."""
    MALFORMED_TOKEN = "malformed_token"  # noqa: S105 -- a reason code, not a secret
    """Not a decodable JWT, too long, or a header of the wrong shape."""
    ALGORITHM_REFUSED = "algorithm_refused"
    """The token's header names an algorithm outside the allow list (``none``, ``HS256``, ...)."""
    KID_REQUIRED = "kid_required"
    """The token has no ``kid`` and the key set holds several keys."""
    UNKNOWN_KEY = "unknown_key"
    """No key of the set has the token's ``kid``, even after a refresh."""
    KEY_ALGORITHM_MISMATCH = "key_algorithm_mismatch"
    """The token's algorithm is not the algorithm of the key its ``kid`` names."""
    JWKS_UNAVAILABLE = "jwks_unavailable"
    """The key set could not be read or fetched (fail closed)."""
    JWKS_INVALID = "jwks_invalid"
    """The key set is not a JWKS, or holds no usable signing key."""
    BAD_SIGNATURE = "bad_signature"
    """The signature does not verify: the token was altered or signed by another key."""
    WRONG_ISSUER = "wrong_issuer"
    """``iss`` is not the configured issuer."""
    WRONG_AUDIENCE = "wrong_audience"
    """``aud`` does not name this gateway."""
    MISSING_CLAIM = "missing_claim"
    """A required claim (``exp``, ``iss``, ``aud``, ``sub``) is absent."""
    INVALID_CLAIM = "invalid_claim"
    """A claim has the wrong type (``exp`` not a number, ``sub`` not a string, ...)."""
    EXPIRED = "expired"
    """``exp`` is past, beyond the leeway."""
    NOT_YET_VALID = "not_yet_valid"
    """``nbf`` is still ahead, beyond the leeway."""
    ISSUED_IN_FUTURE = "issued_in_future"
    """``iat`` is ahead, beyond the leeway."""
    INVALID_TOKEN = "invalid_token"  # noqa: S105 -- a reason code, not a secret
    """Any other refusal by the JWT library."""
    UNMAPPED_AGENT = "unmapped_agent"
    """The verified agent matches no ``agents`` entry and no default is configured."""
    ENVELOPE_MISSING = "envelope_missing"
    """Signed envelopes are required and the request carries none."""
    ENVELOPE_MALFORMED = "envelope_malformed"
    """Some envelope headers are missing, repeated or of the wrong shape."""
    ENVELOPE_UNKNOWN_KEY = "envelope_unknown_key"
    """The envelope's key id is not registered."""
    ENVELOPE_STALE = "envelope_stale"
    """The envelope's timestamp is outside the window around now."""
    ENVELOPE_BAD_SIGNATURE = "envelope_bad_signature"
    """The envelope's signature does not verify over method, path, timestamp, nonce and body."""
    ENVELOPE_REPLAYED = "envelope_replayed"
    """The envelope's nonce was already used with this key inside the window."""
    ENVELOPE_NONCE_CACHE_FULL = "envelope_nonce_cache_full"
    """The key has too many live nonces; refused rather than forget one (fail closed)."""
    ENVELOPE_NONCE_STORE_UNAVAILABLE = "envelope_nonce_store_unavailable"
    """The shared nonce store (state database or Redis) could not be asked; refused (fail closed)."""
    ENVELOPE_SUBJECT_MISMATCH = "envelope_subject_mismatch"
    """The envelope's key is registered to another agent than the bearer token's subject."""


class IdentityError(McpwallError):
    """The caller's identity could not be established; the HTTP front answers ``401``.

    Args:
        failure: the operator's reason code.
        detail: the operator's detail (key ids, claim names, times); never shown to the caller.
    """

    public_message = "authentication failed"
    """The only text a caller ever sees, whatever the failure."""

    def __init__(self, failure: IdentityFailure, detail: str = "") -> None:
        super().__init__(self.public_message)
        self.failure = failure
        self.detail = detail

    @property
    def operator_reason(self) -> str:
        """The code and the detail, for the log and the audit trail."""
        return f"{self.failure}: {self.detail}" if self.detail else str(self.failure)
