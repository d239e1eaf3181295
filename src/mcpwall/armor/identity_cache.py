"""A small cache keyed by object identity, for things compiled from settings and schemas.

Settings models and input schemas hold lists and dicts, so they are not hashable; compiling
them on every call would cost more than the check itself. The cache keeps a strong reference
to each key, so an ``id`` is never reused while its entry lives, and evicts the oldest entry
past ``maxsize``. Keys are treated as immutable: mutate a settings object in place and the
armor keeps using what it compiled before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class IdentityCache(Generic[K, V]):
    """Memoize ``build(key)`` per key object (``is``, not ``==``)."""

    def __init__(self, maxsize: int = 256) -> None:
        self._maxsize = maxsize
        self._entries: dict[int, tuple[K, V]] = {}

    def get(self, key: K, build: Callable[[K], V]) -> V:
        """Return the cached value for ``key``, building it on first use.

        Args:
            key: the object to compile; kept alive while cached.
            build: compiles the key.

        Returns:
            The compiled value.
        """
        entry = self._entries.get(id(key))
        if entry is not None and entry[0] is key:
            return entry[1]
        value = build(key)
        self._entries[id(key)] = (key, value)
        if len(self._entries) > self._maxsize:
            del self._entries[next(iter(self._entries))]
        return value
