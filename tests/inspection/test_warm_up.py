"""The background warm-up compiles every lazily compiled rule once, and only once per rule set."""

from __future__ import annotations

import pytest

from mcpwall.inspection import catalog
from mcpwall.inspection.catalog import builtin_rules, compile_rule, warm_up


def test_warm_up_compiles_every_rule_of_a_set_once() -> None:
    rules = tuple(compile_rule(rule.spec, lazily=True) for rule in builtin_rules())
    assert not any(rule.compiled for rule in rules)
    thread = warm_up(rules)
    assert thread is not None
    thread.join(timeout=60)
    assert all(len(rule.compiled) == 1 for rule in rules)
    assert all(rule.regex.pattern == rule.spec.pattern for rule in rules)
    assert warm_up(rules) is None


def test_the_regexes_only_non_ascii_text_needs_come_after_the_rest_of_the_warm_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(catalog, "NON_ASCII_COMPILE_DELAY", 0.0)
    rules = tuple(compile_rule(rule.spec, lazily=True) for rule in builtin_rules())
    gated = [rule for rule in rules if rule.gate is not None]
    assert gated
    seen: list[bool] = []
    thread = warm_up(rules, then=lambda: seen.append(any(rule.compiled for rule in gated)))
    assert thread is not None
    thread.join(timeout=60)
    assert seen == [False]
    assert all(rule.compiled for rule in gated)


def test_a_new_rule_set_gets_its_own_warm_up_even_where_an_old_ones_identity_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(catalog, "NON_ASCII_COMPILE_DELAY", 0.0)
    specs = [rule.spec for rule in builtin_rules()[:2]]
    for _ in range(50):  # freed tuples' identities come back quickly: the old set of ids reused them
        rules = tuple(compile_rule(spec, lazily=True) for spec in specs)
        thread = warm_up(rules)
        assert thread is not None
        thread.join(timeout=60)
        del rules, thread
