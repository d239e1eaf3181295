"""One call for the HTTP front: a request in, an :class:`AgentIdentity` or an IdentityError out.

With a bearer JWT configured, the token says who the agent is; with envelopes configured too,
the envelope's key must be registered to that same subject, so a stolen token is useless
without the agent's private key. With envelopes alone, the key's registered subject is the
agent (and it has no claims, so only ``by_subject`` and ``default`` can match it).
The token is verified first: an envelope of a caller without a valid token is never checked,
and its nonce never stored.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

import httpx

from mcpwall.identity.agent import AgentIdentity, resolve_agent
from mcpwall.identity.envelope import EnvelopeVerifier
from mcpwall.identity.jwt import JwtVerifier, bearer_token
from mcpwall.identity.nonces import NonceStore
from mcpwall.identity.settings import IdentitySettings


class Authenticator:
    """Establishes who sent a request, from the ``identity`` settings.

    Args:
        settings: the ``identity`` section.
        client: the httpx client for a JWKS URL (one per fetch when None).
        nonces: the envelope replay store (default: the one ``identity.envelope.nonce_store``
            names, opened here and closed by :meth:`aclose`).
        state_dir: the configuration's ``state_dir``, where the ``state`` nonce store lives
            (default: ``$MCPWALL_STATE_DIR``, then the XDG state directory).

    Raises:
        ConfigError: the configured nonce store cannot be opened.
    """

    def __init__(
        self,
        settings: IdentitySettings,
        *,
        client: httpx.AsyncClient | None = None,
        nonces: NonceStore | None = None,
        state_dir: str | None = None,
    ) -> None:
        self._agents = settings.agents
        self._jwt = None if settings.jwt is None else JwtVerifier(settings.jwt, settings.agents, client=client)
        self._envelope = (
            None if settings.envelope is None else EnvelopeVerifier(settings.envelope, nonces, state_dir=state_dir)
        )

    async def aclose(self) -> None:
        """Close what the authenticator opened (the envelope nonce store)."""
        if self._envelope is not None:
            await self._envelope.aclose()

    async def authenticate(
        self,
        *,
        method: str,
        path: str,
        headers: Mapping[str, str],
        body: bytes,
        now: float | None = None,
    ) -> AgentIdentity:
        """The identity of the agent that sent this request.

        Args:
            method: the HTTP method.
            path: the request target (path and query) as received.
            headers: the request headers (every pair, so repeats are seen).
            body: the exact body bytes.
            now: epoch seconds (default: the clock).

        Raises:
            IdentityError: any refusal; answer ``401`` with its ``public_message``.
        """
        now = time.time() if now is None else now
        identity = None
        if self._jwt is not None:
            identity = await self._jwt.verify(bearer_token(headers), now=now)
        if self._envelope is not None:
            envelope = await self._envelope.verify(
                method=method,
                path=path,
                headers=headers,
                body=body,
                subject=None if identity is None else identity.subject,
                now=now,
            )
            if identity is None:
                identity = resolve_agent(envelope.subject, {}, self._agents)
        if identity is None:  # pragma: no cover -- IdentitySettings requires jwt or envelope
            raise AssertionError("identity settings with neither jwt nor envelope")
        return identity
