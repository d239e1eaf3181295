"""The required literals of every rule, without parsing the packaged catalog's patterns at start-up.

Reading what each pattern requires (:func:`~mcpwall.inspection.literals.required_literals`) takes
tens of milliseconds for the packaged catalog, so it is done once, at build time, into
``requirements.json`` next to ``rules.yaml``: the list of every literal, and per rule, keyed by a
digest of its pattern and flags, the alternatives it requires as literal indices, rarest first
(null: nothing certain, the rule always runs). The file also carries :data:`ANALYSIS_VERSION`
and a digest of its own entries.

:func:`requirements` answers for a rule set: a rule whose key is in the table takes its entry,
any other rule (a custom one, an edited one) is analysed on the spot. A table that cannot be
read, is of another analysis version, fails its digest or is malformed is not used at all: every
rule is then analysed on the spot. So a stale or damaged table costs time, never a skipped rule.
``tests/inspection/test_requirements.py`` fails while the table is stale; regenerate it with
``python -m mcpwall.inspection.requirements``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

import orjson

from mcpwall.inspection.catalog import Rule, builtin_rules
from mcpwall.inspection.literals import BOUNDARY, Requirement, required_literals

TABLE_FILE: Final = "requirements.json"
ANALYSIS_VERSION: Final = 2
"""Bumped whenever :mod:`~mcpwall.inspection.literals` derives something else from a pattern."""

Terms = tuple[tuple[int, ...], ...]
"""A requirement by literal index: alternatives, each with its rarest literal first."""


@dataclass(frozen=True, slots=True)
class Needs:
    """What every rule of a rule set requires, by index into one list of literals.

    Attributes:
        literals: every literal any rule requires.
        terms: per rule, in rule order, its alternatives; None when the rule always runs.
    """

    literals: tuple[str, ...]
    terms: tuple[Terms | None, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """Precomputed requirements by :func:`rule_key`, over a shared list of literals."""

    literals: tuple[str, ...] = ()
    rules: dict[str, Terms | None] = field(default_factory=dict)


def rule_key(rule: Rule) -> str:
    """The table key of a rule: a digest of exactly what its requirement is read from."""
    return hashlib.sha256(f"{rule.options}\x1f{rule.spec.pattern}".encode()).hexdigest()


def _rarity(literal: str) -> tuple[int, int, str]:
    """How rarely a literal occurs in text, roughly: whole words rarest, then longer ones."""
    return literal.count(BOUNDARY), len(literal.strip(BOUNDARY)), literal


def _terms(need: Requirement | None, index: Callable[[str], int]) -> Terms | None:
    """A requirement by literal index, each alternative's rarest literal first."""
    if need is None:
        return None
    ordered = (sorted(term, key=_rarity, reverse=True) for term in need)
    return tuple(sorted(tuple(index(literal) for literal in term) for term in ordered))


def entries_digest(literals: object, rules: object) -> str:
    """The digest a table file carries of its literals and entries."""
    return hashlib.sha256(orjson.dumps([literals, rules], option=orjson.OPT_SORT_KEYS)).hexdigest()


def _entry(entry: object, count: int) -> Terms | None:
    """One entry, checked: null or a non-empty list of non-empty lists of literal indices.

    Raises:
        ValueError: anything else.
    """
    if entry is None:
        return None
    if not isinstance(entry, list) or not entry:
        raise ValueError("an entry is null or a list of terms")
    for term in entry:
        if not isinstance(term, list) or not term or not all(type(i) is int and 0 <= i < count for i in term):
            raise ValueError("a term is a non-empty list of literal indices")
    return tuple(tuple(term) for term in entry)


def parse_table(data: bytes) -> Table:
    """A table file's contents.

    Raises:
        ValueError: not a table of this analysis version, its entries fail their digest, or
            an entry is malformed.
    """
    document: Any = orjson.loads(data)
    if not isinstance(document, dict) or document.get("version") != ANALYSIS_VERSION:
        raise ValueError("not a requirements table of this analysis version")
    literals, rules = document.get("literals"), document.get("rules")
    if (
        not isinstance(literals, list)
        or not isinstance(rules, dict)
        or document.get("digest") != entries_digest(literals, rules)
    ):
        raise ValueError("the table's entries do not match their digest")
    if not all(isinstance(literal, str) and literal.strip(BOUNDARY) for literal in literals):
        raise ValueError("a literal is a non-empty string")
    return Table(tuple(literals), {str(key): _entry(entry, len(literals)) for key, entry in rules.items()})


@cache
def packaged_table() -> Table:
    """The table shipped with the package; empty when it is missing or damaged (see module doc)."""
    try:
        return parse_table(resources.files("mcpwall.inspection").joinpath(TABLE_FILE).read_bytes())
    except (OSError, ValueError):  # orjson.JSONDecodeError is a ValueError
        return Table()


def requirements(rules: tuple[Rule, ...], table: Table | None = None) -> Needs:
    """What each rule requires of a text, in rule order.

    Args:
        rules: the rule set.
        table: precomputed entries; the packaged table when omitted.
    """
    known = packaged_table() if table is None else table
    literals = list(known.literals)
    indices: dict[str, int] = {}

    def index(literal: str) -> int:
        if not indices:
            indices.update((known_literal, i) for i, known_literal in enumerate(literals))
        if literal not in indices:
            indices[literal] = len(literals)
            literals.append(literal)
        return indices[literal]

    terms = []
    for rule in rules:
        key = rule_key(rule)
        if key in known.rules:
            terms.append(known.rules[key])
        else:
            terms.append(_terms(required_literals(rule.spec.pattern, rule.options), index))
    return Needs(tuple(literals), tuple(terms))


def build_table(rules: tuple[Rule, ...]) -> bytes:
    """A table file for the rules, every requirement analysed afresh (the same bytes every time)."""
    found = [required_literals(rule.spec.pattern, rule.options) for rule in rules]
    literals = sorted({literal for need in found if need for term in need for literal in term})
    needs = requirements(rules, Table(tuple(literals)))
    entries = {
        rule_key(rule): None if t is None else [list(term) for term in t]
        for rule, t in zip(rules, needs.terms, strict=True)
    }
    document = {
        "version": ANALYSIS_VERSION,
        "digest": entries_digest(literals, entries),
        "literals": literals,
        "rules": entries,
    }
    return orjson.dumps(document, option=orjson.OPT_SORT_KEYS) + b"\n"


def table_path() -> Path:
    """Where the packaged table lives in the source tree."""
    return Path(__file__).with_name(TABLE_FILE)


if __name__ == "__main__":
    table_path().write_bytes(build_table(builtin_rules()))
