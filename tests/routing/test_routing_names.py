"""Namespaced tool names: client-safe, unique, deterministic; the index routes them back."""

from __future__ import annotations

import pytest

from mcpwall.routing.index import CapabilityIndex
from mcpwall.routing.names import VALID, public_names


def test_plain_names_are_server_double_underscore_tool() -> None:
    assert public_names([("git", "git_status"), ("time", "get_current_time")]) == {
        "git__git_status": ("git", "git_status"),
        "time__get_current_time": ("time", "get_current_time"),
    }


@pytest.mark.parametrize(
    "routes",
    [
        [("a_b", "c"), ("a", "b__c")],
        [("my server", "read file"), ("my_server", "read_file")],
        [("s", "x" * 80), ("s", "x" * 81)],
        [("srv", "tool.with.dots"), ("srv", "tool/with/slashes")],
    ],
)
def test_colliding_unsafe_or_long_names_become_unique_valid_names(routes: list[tuple[str, str]]) -> None:
    table = public_names(routes)
    assert sorted(table.values()) == sorted(routes)
    assert all(VALID.match(name) for name in table)


def test_names_are_deterministic() -> None:
    routes = [("a_b", "c"), ("a", "b__c"), ("srv", "t" * 70)]
    assert public_names(routes) == public_names(list(reversed(routes)))


def test_index_resolves_exact_names_then_prefix_patterns() -> None:
    index = CapabilityIndex({"web.*": "fetch"})
    index.listed("git", ["git_status"])
    assert index.resolve("git__git_status") == ("git", "git_status")
    assert index.resolve("web.search") == ("fetch", "web.search")
    assert index.resolve("git_status") is None
