"""The identity cache compiles each settings object once and stays bounded."""

from __future__ import annotations

from mcpwall.armor.identity_cache import IdentityCache


def test_value_is_built_once_per_key_object() -> None:
    builds: list[object] = []
    cache: IdentityCache[list[int], int] = IdentityCache()

    def build(key: list[int]) -> int:
        builds.append(key)
        return sum(key)

    key = [1, 2]
    assert cache.get(key, build) == 3
    assert cache.get(key, build) == 3
    assert cache.get([1, 2], build) == 3
    assert len(builds) == 2


def test_oldest_entry_is_evicted_past_maxsize() -> None:
    cache: IdentityCache[list[int], int] = IdentityCache(maxsize=2)
    keys = [[0], [1], [2]]
    for key in keys:
        cache.get(key, sum)
    rebuilt: list[list[int]] = []

    def build(key: list[int]) -> int:
        rebuilt.append(key)
        return 0

    cache.get(keys[0], build)
    cache.get(keys[2], build)
    assert rebuilt == [keys[0]]
