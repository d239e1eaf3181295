"""The rule catalog: loads, compiles, accepts custom rules, and never backtracks badly."""

from __future__ import annotations

import importlib
import importlib.resources
import re
from typing import Any

import pytest
import yaml

from mcpwall.inspection import CatalogError, RuleSpec, Severity, compile_rules, inspect_definition
from mcpwall.inspection.catalog import builtin_rules, parse_catalog
from mcpwall.inspection.combos import COMBOS, parse_table
from mcpwall.inspection.detector import DERIVED_SIGNALS
from mcpwall.inspection.domain import OWNABLE

SRE: Any = importlib.import_module("re._parser")
MAX_NESTED_PRODUCT = 2000


def _repeats(items: Any, outer: int, problems: list[str]) -> None:
    for op, arg in items:
        name = str(op)
        if name in {"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"}:
            _low, high, sub = arg
            if high == SRE.MAXREPEAT:
                problems.append("unbounded repetition")
                continue
            if outer > 1 and high > 1 and outer * high > MAX_NESTED_PRODUCT:
                problems.append(f"nested repetition {outer}x{high}")
            _repeats(sub, outer * max(high, 1) if high > 1 else outer, problems)
        elif name in {"SUBPATTERN", "ATOMIC_GROUP"}:
            _repeats(arg[-1], outer, problems)
        elif name == "BRANCH":
            for branch in arg[1]:
                _repeats(branch, outer, problems)
        elif name in {"ASSERT", "ASSERT_NOT"}:
            _repeats(arg[1], outer, problems)


def _lint(pattern: str) -> list[str]:
    problems: list[str] = []
    _repeats(SRE.parse(pattern), 1, problems)
    return problems


@pytest.mark.parametrize("rule", builtin_rules(), ids=lambda r: r.spec.id)
def test_catalog_pattern_uses_only_bounded_repetition(rule: Any) -> None:
    assert _lint(rule.spec.pattern) == []


@pytest.mark.parametrize("pattern", ["(a+)+", "(.*)*", "x.*y", "a{2,}", "(?:a{1,100}){1,100}"])
def test_lint_rejects_patterns_that_can_backtrack_catastrophically(pattern: str) -> None:
    assert _lint(pattern) != []


def test_every_signal_a_combo_needs_is_produced_by_some_rule() -> None:
    produced = {rule.signal for rule in builtin_rules()} | DERIVED_SIGNALS | set(OWNABLE.values())
    needed = {signal for combo in COMBOS for group in combo.groups for signal in group}
    assert needed <= produced


def test_custom_rule_reports_at_its_own_severity() -> None:
    spec = RuleSpec("corp.codename", "data_leak", Severity.HIGH, r"\bproject\s{1,3}falcon\b", "Internal codename.")
    rules = compile_rules([spec])
    tool = {"name": "t", "description": "Summarises Project Falcon notes."}
    findings = [f for f in inspect_definition("tool", tool, rules) if f.rule == "corp.codename"]
    assert [(f.category, f.severity) for f in findings] == [("data_leak", Severity.HIGH)]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (RuleSpec("x", "c", Severity.LOW, "(unclosed"), "invalid pattern"),
        (RuleSpec("x", "c", Severity.LOW, "a", flags=frozenset({"loud"})), "unknown flags"),
        (RuleSpec("directive.must", "c", Severity.LOW, "a"), "already used"),
    ],
)
def test_invalid_custom_rule_is_rejected(spec: RuleSpec, message: str) -> None:
    with pytest.raises(CatalogError, match=message):
        compile_rules([spec])


@pytest.mark.parametrize(
    "text",
    ["rules: 3", "[1, 2]", "rules:\n  - id: a\n    category: c\n    severity: severe\n    pattern: x", "a: [b"],
)
def test_malformed_catalog_is_rejected(text: str) -> None:
    with pytest.raises(CatalogError):
        parse_catalog(text)


def test_the_catalog_reads_the_same_through_the_fast_loader_as_through_safe_load() -> None:
    text = importlib.resources.files("mcpwall.inspection").joinpath("rules.yaml").read_text(encoding="utf-8")
    rules = yaml.safe_load(text)["rules"]

    assert [spec.id for spec in parse_catalog(text)] == [str(entry["id"]) for entry in rules]
    assert [spec.pattern for spec in parse_catalog(text)] == [str(entry["pattern"]).strip() for entry in rules]


def _inner(name: str, arg: Any) -> list[Any] | None:
    """The sequences inside a repeat, an alternation or a group (None for anything else)."""
    if name in {"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"}:
        return [arg[2]]
    if name == "BRANCH":
        return list(arg[1])
    return [arg[-1]] if name == "SUBPATTERN" else None


def _first_chars(items: Any) -> tuple[set[str], bool] | None:
    """The characters a parsed sequence can start with, and whether it can match empty (None: any)."""
    found: set[str] = set()
    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            return found | {chr(arg)}, False
        if name in {"AT", "ASSERT", "ASSERT_NOT"}:
            continue
        if name == "IN" and all(str(o) in {"LITERAL", "RANGE"} for o, _ in arg):
            for o, a in arg:
                found |= {chr(a)} if str(o) == "LITERAL" else {chr(c) for c in range(a[0], a[1] + 1)}
            return found, False
        repeat = name in {"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"}
        branches = _inner(name, arg)
        if branches is None:
            return None
        results = [_first_chars(branch) for branch in branches]
        if any(r is None for r in results):
            return None
        found |= {c for r in results if r is not None for c in r[0]}
        if not (repeat and arg[0] == 0) and not any(r is not None and r[1] for r in results):
            return found, False
    return found, True


@pytest.mark.parametrize(
    "rule", [r for r in builtin_rules() if r.spec.pattern.startswith("(?=[")], ids=lambda r: r.spec.id
)
def test_a_first_character_lookahead_admits_every_character_a_match_can_start_with(rule: Any) -> None:
    body = rule.spec.pattern[rule.spec.pattern.index("])") + 2 :]
    first = _first_chars(SRE.parse(body, rule.options))
    assert first is not None
    assert not first[1]
    lookahead = re.compile(rule.spec.pattern[: rule.spec.pattern.index("])") + 2], rule.options)
    assert all(lookahead.match(char) for char in first[0])


def test_a_combination_id_used_twice_is_refused() -> None:
    row = "combo.twice exfiltration high near\n    data_flow + sink\n"
    with pytest.raises(ValueError, match="used twice"):
        parse_table(row + row)


def test_every_combination_has_its_own_id_and_description() -> None:
    ids = [combo.id for combo in COMBOS]
    assert len(ids) == len(set(ids))
    assert all(combo.description for combo in COMBOS)
