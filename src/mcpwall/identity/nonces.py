"""Replay protection for signed envelopes: a nonce is accepted once per key while it lives.

::

    NonceStore (Protocol)       what the envelope verifier calls: one atomic check-and-remember
    └── MemoryNonceStore        one process; bounded per key, entries expire with the window
        (a shared store, e.g. Redis ``SET key NX EXAT expires_at``, implements the same call)

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
        """
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
