"""Real keys for the identity tests: Ed25519 and RSA pairs, JWKS documents, minted tokens.

Keys are generated once per test run (RSA generation is slow) and are test fixtures, never
secrets. Tokens that PyJWT refuses to mint (``alg: none``, HS256 keyed with a public key) are
assembled by hand, byte for byte, the way an attacker would.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from functools import cache
from pathlib import Path
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey, generate_private_key
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from jwt.algorithms import OKPAlgorithm, RSAAlgorithm

NOW = 1_767_225_600.0
"""The pinned clock of every time-dependent test (2026-01-01T00:00:00Z)."""
ISSUER = "https://auth.example.test"
AUDIENCE = "mcpwall-test"


@cache
def ed25519_key(name: str) -> Ed25519PrivateKey:
    """One Ed25519 private key per name, for the whole run."""
    del name  # the name only keys the cache
    return Ed25519PrivateKey.generate()


@cache
def rsa_key(name: str, bits: int = 2048) -> RSAPrivateKey:
    """One RSA private key per name and size, for the whole run."""
    del name
    return generate_private_key(public_exponent=65537, key_size=bits)


def public_jwk(private_key: Ed25519PrivateKey | RSAPrivateKey, kid: str | None) -> dict[str, Any]:
    """The public JWK of a private key, with its ``kid`` (none when None)."""
    if isinstance(private_key, Ed25519PrivateKey):
        jwk = OKPAlgorithm.to_jwk(private_key.public_key(), as_dict=True)
    else:
        jwk = RSAAlgorithm.to_jwk(private_key.public_key(), as_dict=True)
    if kid is not None:
        jwk["kid"] = kid
    return jwk


def jwks_bytes(*jwks: dict[str, Any]) -> bytes:
    """A JWKS document holding these keys."""
    return json.dumps({"keys": list(jwks)}).encode("utf-8")


def write_jwks(path: Path, *jwks: dict[str, Any]) -> Path:
    """Write a JWKS file and return its path."""
    path.write_bytes(jwks_bytes(*jwks))
    return path


def claims(**overrides: Any) -> dict[str, Any]:
    """Valid claims at NOW for subject ``agent-1``; an override of None removes the claim."""
    base: dict[str, Any] = {
        "iss": ISSUER,
        "aud": AUDIENCE,
        "sub": "agent-1",
        "iat": int(NOW) - 10,
        "nbf": int(NOW) - 10,
        "exp": int(NOW) + 300,
    }
    base.update(overrides)
    return {name: value for name, value in base.items() if value is not None}


def mint(
    private_key: Ed25519PrivateKey | RSAPrivateKey, kid: str | None = "ed-1", payload: dict[str, Any] | None = None
) -> str:
    """A token signed by a real key (EdDSA for Ed25519, RS256 for RSA)."""
    algorithm = "EdDSA" if isinstance(private_key, Ed25519PrivateKey) else "RS256"
    headers = {} if kid is None else {"kid": kid}
    return jwt.encode(claims() if payload is None else payload, private_key, algorithm=algorithm, headers=headers)


def b64url(data: bytes) -> str:
    """Base64url without padding, as JWS segments are written."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def handmade_token(header: dict[str, Any], payload: dict[str, Any], signature: bytes | None = None) -> str:
    """A compact JWS built by hand; HS256-signs with ``signature`` as the secret when given."""
    signing_input = f"{b64url(json.dumps(header).encode())}.{b64url(json.dumps(payload).encode())}"
    if signature is None:
        return signing_input + "."
    mac = hmac.new(signature, signing_input.encode("ascii"), hashlib.sha256).digest()
    return f"{signing_input}.{b64url(mac)}"


def public_pem(private_key: Ed25519PrivateKey | RSAPrivateKey) -> bytes:
    """The public key as PEM: what an algorithm-confusion attacker uses as an HMAC secret."""
    return private_key.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
