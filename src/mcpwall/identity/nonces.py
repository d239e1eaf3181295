"""Replay protection for signed envelopes: a nonce is accepted once per key while it lives.

::

    NonceStore (Protocol)       what the envelope verifier calls: one atomic check-and-remember
    ├── MemoryNonceStore        one process; bounded per key, entries expire with the window
    ├── StateNonceStore         the SQLite state database: every process of the machine
    │                           (nonces_state.py)
    └── RedisNonceStore         one Redis: processes on several machines (nonces_redis.py)

:func:`open_nonce_store` opens the one ``identity.envelope.nonce_store`` names (``memory``,
``state`` or a ``redis://`` URL), as ``limits`` picks its storage from a URI. With several
gateway processes behind one address only a shared store refuses a replay sent to another
process: that is why ``state`` is the default.

A nonce is remembered only after the envelope's signature verified, so the cache holds
nothing an unauthenticated caller chose. When a key has ``max_per_key`` live nonces the store
answers :attr:`NonceOutcome.FULL` instead of forgetting one: forgetting a live nonce would let
it be replayed, so that key's requests are refused until nonces expire (fail closed, and only
for the key that floods).
"""

from __future__ import annotations

import heapq
from enum import StrEnum
from typing import Protocol

from mcpwall.state import DATABASE_FILE, state_dir


class NonceOutcome(StrEnum):
    """What the store said about a nonce."""

    FRESH = "fresh"
    """Never seen with this key while alive: it is now remembered until it expires."""
    REPLAYED = "replayed"
    """Already seen with this key and not yet expired."""
    FULL = "full"
    """The key has too many live nonces; nothing remembered."""


class NonceStore(Protocol):
    """Remembers the nonces of each key until they expire."""

    async def claim(self, key_id: str, nonce: str, *, expires_at: float, now: float) -> NonceOutcome:
        """Check and remember ``nonce`` for ``key_id`` in one atomic step.

        Args:
            key_id: the envelope's key id (nonces are per key).
            nonce: the envelope's nonce.
            expires_at: epoch seconds after which the nonce may be forgotten (after that its
                envelope's timestamp is outside the window anyway).
            now: epoch seconds, to expire older entries.

        Raises:
            IdentityError: ``ENVELOPE_NONCE_STORE_UNAVAILABLE`` when a shared store cannot be
                asked (the request is refused: fail closed).
        """
        ...

    async def aclose(self) -> None:
        """Release the store's connection, if it has one."""
        ...


class MemoryNonceStore:
    """Nonces of one process, bounded per key.

    Every call runs without awaiting, so on one event loop each claim is atomic.

    Args:
        max_per_key: live nonces remembered per key before :attr:`NonceOutcome.FULL`.
    """

    def __init__(self, *, max_per_key: int) -> None:
        self._max_per_key = max_per_key
        self._live: dict[str, dict[str, float]] = {}
        self._expiry: dict[str, list[tuple[float, str]]] = {}

    async def claim(self, key_id: str, nonce: str, *, expires_at: float, now: float) -> NonceOutcome:
        """Check and remember ``nonce`` for ``key_id`` (see :meth:`NonceStore.claim`)."""
        live = self._live.setdefault(key_id, {})
        expiry = self._expiry.setdefault(key_id, [])
        self._expire(live, expiry, now)
        if nonce in live:
            return NonceOutcome.REPLAYED
        if len(live) >= self._max_per_key:
            return NonceOutcome.FULL
        live[nonce] = expires_at
        heapq.heappush(expiry, (expires_at, nonce))
        return NonceOutcome.FRESH

    async def aclose(self) -> None:
        """Nothing to release."""

    def live_count(self, key_id: str, *, now: float) -> int:
        """How many nonces of ``key_id`` are alive at ``now``."""
        live, expiry = self._live.get(key_id, {}), self._expiry.get(key_id, [])
        self._expire(live, expiry, now)
        return len(live)

    @staticmethod
    def _expire(live: dict[str, float], expiry: list[tuple[float, str]], now: float) -> None:
        # strictly before now: an envelope is still accepted at exactly timestamp + window
        while expiry and expiry[0][0] < now:
            _, nonce = heapq.heappop(expiry)
            live.pop(nonce, None)


def open_nonce_store(setting: str, *, max_per_key: int, configured_state_dir: str | None = None) -> NonceStore:
    """The store ``identity.envelope.nonce_store`` names.

    Args:
        setting: ``memory``, ``state`` or a ``redis://`` / ``rediss://`` URL (validated by
            :class:`~mcpwall.identity.settings.EnvelopeSettings`).
        max_per_key: live nonces remembered per key.
        configured_state_dir: the configuration's ``state_dir``, for ``state`` (see
            :func:`mcpwall.state.state_dir` for the default).

    Raises:
        ConfigError: the state database cannot be opened, or ``redis`` is not installed.
    """
    if setting == "memory":
        return MemoryNonceStore(max_per_key=max_per_key)
    if setting == "state":
        from mcpwall.identity.nonces_state import StateNonceStore

        return StateNonceStore(state_dir(configured_state_dir) / DATABASE_FILE, max_per_key=max_per_key)
    from mcpwall.identity.nonces_redis import RedisNonceStore

    return RedisNonceStore(setting, max_per_key=max_per_key)
