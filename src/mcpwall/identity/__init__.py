"""Agent identity on the HTTP front: who sent a request, and what that identity selects.

::

    Authenticator (authenticator.py)       request -> AgentIdentity, or IdentityError (-> 401)
    ├── JwtVerifier (jwt.py)               Authorization: Bearer, EdDSA / RS256 only
    │   └── JwksCache (jwks.py)            keys from a file or a URL, TTL, refresh on unknown kid
    ├── EnvelopeVerifier (envelope.py)     Ed25519 signature over method, path, time, nonce, body
    │   └── NonceStore (nonces.py)         replay refusal: memory, the state database, or Redis
    └── resolve_agent (agent.py)           subject + claims -> profiles + tool manifest

``bound_manifest`` (agent.py) bounds an agent's tool manifest by the gateway's ceiling. The
models of the ``identity:`` section are in settings.py. Every refusal is one
:class:`IdentityError`: a generic public message for the caller, an :class:`IdentityFailure`
code and detail for the operator. This package serves no HTTP: it is the library the HTTP front
calls with a request's method, path, headers and body.
"""

from typing import TYPE_CHECKING

from mcpwall.lazy import lazy_exports

if TYPE_CHECKING:
    from mcpwall.identity.agent import AgentIdentity, ToolManifest, bound_manifest, resolve_agent
    from mcpwall.identity.authenticator import Authenticator
    from mcpwall.identity.envelope import (
        ENVELOPE_HEADERS,
        KEY_ID_HEADER,
        NONCE_HEADER,
        SIGNATURE_HEADER,
        TIMESTAMP_HEADER,
        EnvelopeVerifier,
        VerifiedEnvelope,
        encode_public_key,
        sign_request,
        signed_string,
    )
    from mcpwall.identity.errors import IdentityError, IdentityFailure
    from mcpwall.identity.jwks import JwksCache, VerificationKey, file_loader, parse_jwks, url_loader
    from mcpwall.identity.jwt import JwtVerifier, bearer_token
    from mcpwall.identity.nonces import MemoryNonceStore, NonceOutcome, NonceStore, open_nonce_store
    from mcpwall.identity.nonces_redis import RedisNonceStore
    from mcpwall.identity.nonces_state import StateNonceStore
    from mcpwall.identity.settings import (
        AgentGrant,
        AgentMapping,
        EnvelopeKey,
        EnvelopeSettings,
        IdentitySettings,
        JwtSettings,
    )

_HOMES = {
    "agent": ("AgentIdentity", "ToolManifest", "bound_manifest", "resolve_agent"),
    "authenticator": ("Authenticator",),
    "envelope": (
        "ENVELOPE_HEADERS",
        "KEY_ID_HEADER",
        "NONCE_HEADER",
        "SIGNATURE_HEADER",
        "TIMESTAMP_HEADER",
        "EnvelopeVerifier",
        "VerifiedEnvelope",
        "encode_public_key",
        "sign_request",
        "signed_string",
    ),
    "errors": ("IdentityError", "IdentityFailure"),
    "jwks": ("JwksCache", "VerificationKey", "file_loader", "parse_jwks", "url_loader"),
    "jwt": ("JwtVerifier", "bearer_token"),
    "nonces": ("MemoryNonceStore", "NonceOutcome", "NonceStore", "open_nonce_store"),
    "nonces_redis": ("RedisNonceStore",),
    "nonces_state": ("StateNonceStore",),
    "settings": ("AgentGrant", "AgentMapping", "EnvelopeKey", "EnvelopeSettings", "IdentitySettings", "JwtSettings"),
}
# The API is imported on first use: loading the configuration (``IdentitySettings``) must
# not pull in the JWT, JWKS and HTTP machinery that only the HTTP front needs.
__getattr__ = lazy_exports("mcpwall.identity", _HOMES)

__all__ = [
    "ENVELOPE_HEADERS",
    "KEY_ID_HEADER",
    "NONCE_HEADER",
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "AgentGrant",
    "AgentIdentity",
    "AgentMapping",
    "Authenticator",
    "EnvelopeKey",
    "EnvelopeSettings",
    "EnvelopeVerifier",
    "IdentityError",
    "IdentityFailure",
    "IdentitySettings",
    "JwksCache",
    "JwtSettings",
    "JwtVerifier",
    "MemoryNonceStore",
    "NonceOutcome",
    "NonceStore",
    "RedisNonceStore",
    "StateNonceStore",
    "ToolManifest",
    "VerificationKey",
    "VerifiedEnvelope",
    "bearer_token",
    "bound_manifest",
    "encode_public_key",
    "file_loader",
    "open_nonce_store",
    "parse_jwks",
    "resolve_agent",
    "sign_request",
    "signed_string",
    "url_loader",
]
