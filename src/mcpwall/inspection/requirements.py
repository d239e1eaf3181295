"""The required literals of every rule, without parsing the packaged catalog at start-up.

Reading what each pattern requires (:func:`~mcpwall.inspection.literals.required_literals`) takes
tens of milliseconds for the packaged catalog, and parsing ``rules.yaml`` several more, so both
are done once, at build time, into ``requirements.json`` next to ``rules.yaml``:

- ``catalog`` and ``specs``: the digest of ``rules.yaml`` and the rule specs parsed from it; a
  process whose ``rules.yaml`` has another digest parses the YAML instead (see
  :func:`~mcpwall.inspection.catalog.builtin_rules`);
- ``keys``: per rule of the catalog, a digest of its pattern and flags (:func:`rule_key`), and
  ``always``: the rules that require nothing certain (they always run);
- ``gated``: the rules that have a lower-case gate (:func:`~mcpwall.inspection.catalog.gate_exact`,
  a walk of the parsed pattern too slow for the first listing of a new process);
- ``literals``: every literal any rule requires (:data:`DIGIT` standing for any decimal digit),
  and ``keyed``: per literal, as one string, the
  alternatives whose rarest literal it is (``"3 17 40;8 2"``: rule 3 requires this literal with
  17 and 40, rule 8 with 2). Only the lists of the literals a text contains are ever decoded,
  so building a prefilter reads no per-alternative data at all.

The document carries :data:`ANALYSIS_VERSION`; the file's last line is the digest of the document
(its first line), so checking it costs a hash of the bytes read, not a second serialization.

:func:`requirements` answers for a rule set: a rule whose key is in the table takes its entries,
any other rule (a custom one, an edited one) is analysed on the spot. A table that cannot be
read, is of another analysis version, fails its digest or is malformed is not used at all: every
rule is then analysed on the spot. A list that turns out malformed when decoded (possible only
for a table written by hand with a matching digest) raises ``ValueError``, and the prefilter then
runs every rule. So a stale or damaged table costs time, never a skipped rule.
``tests/inspection/test_requirements.py`` fails while the table is stale; regenerate it with
``python -m mcpwall.inspection.requirements``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import orjson

from mcpwall.inspection.literals import (  # the private names: the same analysis, of a parsed sequence
    _ASCII_INLINE,
    _REPEATS,
    BOUNDARY,
    SRE,
    Requirement,
    _sequence,
    required_literals,
)

if TYPE_CHECKING:
    from mcpwall.inspection.catalog import Rule, RuleSpec

TABLE_FILE: Final = "requirements.json"
ANALYSIS_VERSION: Final = 6
"""Bumped whenever :mod:`~mcpwall.inspection.literals` (or :func:`rule_requirement`) derives
something else from a pattern, or the table's layout changes."""
DIGIT: Final = "0" + BOUNDARY + "9"
"""The literal a text holds when it holds a decimal digit (what ``\\d`` matches). No pattern gives
it: a mark never stands inside a literal."""
_DIGITS: Final = frozenset("0123456789")
_KEYED_CHARS: Final = b"0123456789 ;"
"""What a ``keyed`` list is written with (its shape is checked when it is decoded)."""

Term = tuple[int, ...]
"""One alternative by literal index, its rarest literal first."""
Terms = tuple[Term, ...]
"""A requirement by literal index."""
Keyed = tuple[tuple[int, Term], ...]
"""The alternatives one literal is the rarest of, as ``(rule position, alternative)``."""


@dataclass(frozen=True, slots=True)
class Table:
    """A parsed requirements table (see the module doc); empty when there is none to trust.

    Attributes:
        catalog: the digest of the ``rules.yaml`` its specs were parsed from.
        specs: the catalog's rule specs, in catalog order.
        keys: per table rule (catalog order), its :func:`rule_key`.
        always: the table rules that always run.
        literals: every literal.
        keyed: per literal, its encoded alternatives (``""`` when it is no alternative's key).
        gated: the table rules that have a lower-case gate.
    """

    catalog: str = ""
    specs: tuple[RuleSpec, ...] = ()
    keys: tuple[str, ...] = ()
    always: frozenset[int] = frozenset()
    literals: tuple[str, ...] = ()
    keyed: tuple[str, ...] = ()
    gated: frozenset[int] = frozenset()

    @property
    def rules(self) -> dict[str, int]:
        """Table rule ordinal by rule key."""
        return {key: ordinal for ordinal, key in enumerate(self.keys)}


class Needs:
    """What every rule of a rule set requires, by index into one list of literals.

    Args:
        literals: every literal any rule requires (the table's, then those of rules analysed
            on the spot).
        always: the positions of the rules that always run.
        eager: alternatives of rules analysed on the spot, by key literal.
        table: the table the other rules' alternatives are decoded from, on demand.
        positions: per table rule, the positions of the rules of the set it stands for.
    """

    __slots__ = ("_count", "_eager", "_number", "_positions", "_table", "always", "literals")

    def __init__(
        self,
        literals: tuple[str, ...],
        always: frozenset[int],
        count: int,
        eager: dict[int, list[tuple[int, Term]]] | None = None,
        table: Table | None = None,
        positions: Sequence[tuple[int, ...]] = (),
    ) -> None:
        self.literals = literals
        self.always = always
        self._count = count
        self._eager = eager or {}
        self._table = table or Table()
        self._positions = positions
        self._number: dict[str, int] | None = None

    def keyed(self, index: int) -> Keyed:
        """The alternatives whose rarest literal is ``index``, as ``(rule position, alternative)``.

        Decoded anew at each call: the prefilter keeps what it needs of them (one copy, not two).

        Raises:
            ValueError: the table's list for this literal is malformed.
        """
        found = list(self._eager.get(index, ()))
        encoded = self._table.keyed[index] if index < len(self._table.keyed) else ""
        if encoded:
            count, positions, number = len(self._table.literals), self._positions, self._numbers().__getitem__
            try:
                for alternative in encoded.split(";"):
                    ordinal, *rest = map(number, alternative.split(" "))
                    if rest and max(rest) >= count:
                        raise IndexError(max(rest))
                    term = (index, *rest)
                    found.extend([(position, term) for position in positions[ordinal]])
            except (KeyError, IndexError) as exc:
                raise ValueError("a keyed list points past the table's rules or literals") from exc
        return tuple(found)

    def _numbers(self) -> dict[str, int]:
        """Every index a list may hold, by its text. Decoding through it shares one ``int`` per
        index among all lists (about a quarter less memory than ``int()`` of each entry) and
        refuses what no table is written with (``007``, an empty entry): the list is malformed."""
        if self._number is None:
            self._number = {str(i): i for i in range(max(len(self._table.literals), len(self._positions)))}
        return self._number

    def size(self, index: int) -> int:
        """Roughly what decoding :meth:`keyed` of ``index`` costs: its encoded list's length (plus
        its alternatives from rules analysed on the spot, already decoded)."""
        keyed = self._table.keyed
        return (len(keyed[index]) if index < len(keyed) else 0) + len(self._eager.get(index, ()))

    def keys(self) -> frozenset[int]:
        """The literals that are some alternative's rarest one (those :meth:`keyed` has any for)."""
        keyed = self._table.keyed
        return frozenset(index for index in range(len(keyed)) if keyed[index]) | self._eager.keys()

    @property
    def terms(self) -> tuple[Terms | None, ...]:
        """Per rule, in rule order, its alternatives; None when it always runs (decodes everything)."""
        by_rule: list[list[Term]] = [[] for _ in range(self._count)]
        for index in range(len(self.literals)):
            for position, term in self.keyed(index):
                by_rule[position].append(term)
        return tuple(
            None if position in self.always else tuple(sorted(terms)) for position, terms in enumerate(by_rule)
        )


def rule_key(rule: Rule) -> str:
    """The table key of a rule: a digest of exactly what its requirement is read from."""
    return hashlib.sha256(f"{rule.options}\x1f{rule.spec.pattern}".encode()).hexdigest()


def catalog_digest(text: bytes) -> str:
    """The digest of a ``rules.yaml`` the table's specs stand for."""
    return hashlib.sha256(text).hexdigest()


def _rarity(literal: str) -> tuple[int, int, str]:
    """How rarely a literal occurs in text, roughly: whole words rarest, then longer ones."""
    return literal.count(BOUNDARY), len(literal.strip(BOUNDARY)), literal


def _terms(need: Requirement | None, index: Callable[[str], int]) -> Terms | None:
    """A requirement by literal index, each alternative's rarest literal first."""
    if need is None:
        return None
    ordered = (sorted(term, key=_rarity, reverse=True) for term in need)
    return tuple(sorted(tuple(index(literal) for literal in term) for term in ordered))


def rule_requirement(pattern: str, flags: int) -> Requirement | None:
    """What every match of a rule's pattern contains: its :func:`required_literals`; when no
    literal is certain, the requirement of each alternative of its first alternation instead
    (a match of ``A(?:B|C)D`` is one of ``ABD`` or ``ACD``): each alternative's literals, with
    :data:`DIGIT` when it cannot match without a digit. None when an alternative needs neither
    (the rule then always runs).
    """
    found = required_literals(pattern, flags)
    if found is not None:
        return found
    parsed = SRE.parse(pattern, flags)
    if (flags | parsed.state.flags) & re.ASCII or _ASCII_INLINE.search(pattern):
        return None  # its marks would need the ASCII reading (see `required_literals`): not worth it
    items = _flattened(list(parsed))
    at = next((i for i, (op, _) in enumerate(items) if op is SRE.BRANCH), None)
    if at is None:
        return None
    terms: set[frozenset[str]] = set()
    for branch in items[at][1][1]:
        sequence = [*items[:at], *branch, *items[at + 1 :]]
        needed = _sequence(sequence).needed
        digit = frozenset({DIGIT}) if _needs_digit(sequence) else frozenset()
        if needed and all(needed):
            terms.update(term | digit for term in needed)
        elif digit:
            terms.add(digit)
        else:
            return None
    return frozenset(terms)


def _flattened(items: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """A parsed sequence with its plain groups (no capture, no flags) spliced in: the same pattern."""
    flat: list[tuple[Any, Any]] = []
    for op, arg in items:
        if op is SRE.SUBPATTERN and arg[0] is None and not arg[1] and not arg[2]:
            flat += _flattened(list(arg[3]))
        else:
            flat.append((op, arg))
    return flat


def _needs_digit(items: Sequence[tuple[Any, Any]]) -> bool:
    """Whether every match of a parsed sequence consumes a decimal digit."""
    return any(_item_needs_digit(op, arg) for op, arg in items)


def _item_needs_digit(op: Any, arg: Any) -> bool:
    if op is SRE.LITERAL:
        return chr(arg) in _DIGITS
    if op is SRE.IN:
        return bool(arg) and all(_is_digit_set(kind, value) for kind, value in arg)
    if op is SRE.SUBPATTERN:
        return _needs_digit(arg[-1])
    if op is SRE.ATOMIC_GROUP:
        return _needs_digit(arg)
    if op is SRE.BRANCH:
        return all(_needs_digit(branch) for branch in arg[1])
    if op in _REPEATS:
        return bool(arg[0] >= 1 and _needs_digit(arg[2]))
    return False  # a look-around consumes nothing; anything else may match a non-digit


def _is_digit_set(kind: Any, value: Any) -> bool:
    """Whether a member of a character set matches digits only (a negated set has a NEGATE member)."""
    if kind is SRE.CATEGORY:
        return bool(value is SRE.CATEGORY_DIGIT)
    if kind is SRE.LITERAL:
        return chr(value) in _DIGITS
    if kind is SRE.RANGE:
        return bool(ord("0") <= value[0] and value[1] <= ord("9"))
    return False


def signed(document: dict[str, Any]) -> bytes:
    """A table file: the document on one line, then its digest on the last."""
    body = orjson.dumps(document, option=orjson.OPT_SORT_KEYS)
    return body + b"\n" + hashlib.sha256(body).hexdigest().encode() + b"\n"


def _strings(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(type(item) is str for item in value):
        raise ValueError(f"{what} is a list of strings")
    return tuple(value)


def parse_table(data: bytes) -> Table:
    """A table file's contents.

    Raises:
        ValueError: not a table of this analysis version, it fails its digest, or a part of
            it is malformed.
    """
    from mcpwall.inspection.catalog import CatalogError, spec_from_row  # catalog imports this module

    body, _, digest = data.rstrip(b"\n").rpartition(b"\n")
    if digest != hashlib.sha256(body).hexdigest().encode():
        raise ValueError("the table does not match its digest")
    document: Any = orjson.loads(body)
    if not isinstance(document, dict) or document.get("version") != ANALYSIS_VERSION:
        raise ValueError("not a requirements table of this analysis version")
    literals = _strings(document.get("literals"), "literals")
    if not all(literal.strip(BOUNDARY) for literal in literals):
        raise ValueError("a literal is a non-empty string")
    keys = _strings(document.get("keys"), "keys")
    keyed = _strings(document.get("keyed"), "keyed")
    if len(keyed) != len(literals) or "".join(keyed).encode().translate(None, _KEYED_CHARS):
        raise ValueError("keyed is one list of rule and literal indices per literal")
    always, gated = document.get("always"), document.get("gated")
    if not isinstance(always, list) or not all(type(i) is int and 0 <= i < len(keys) for i in always):
        raise ValueError("always is a list of rule indices")
    if not isinstance(gated, list) or not all(type(i) is int and 0 <= i < len(keys) for i in gated):
        raise ValueError("gated is a list of rule indices")
    catalog, rows = document.get("catalog"), document.get("specs")
    if not isinstance(catalog, str) or not isinstance(rows, list):
        raise ValueError("the table carries the catalog's digest and specs")
    try:
        specs = tuple(spec_from_row(row) for row in rows)
    except CatalogError as exc:
        raise ValueError(str(exc)) from exc
    return Table(catalog, specs, keys, frozenset(always), literals, keyed, frozenset(gated))


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
    by_key = known.rules
    literals = list(known.literals)
    indices: dict[str, int] = {}

    def index(literal: str) -> int:
        if not indices:
            indices.update((known_literal, i) for i, known_literal in enumerate(literals))
        if literal not in indices:
            indices[literal] = len(literals)
            literals.append(literal)
        return indices[literal]

    positions: list[list[int]] = [[] for _ in known.keys]
    always: set[int] = set()
    eager: dict[int, list[tuple[int, Term]]] = {}
    for position, rule in enumerate(rules):
        ordinal = by_key.get(rule_key(rule))
        if ordinal is not None:
            if ordinal in known.always:
                always.add(position)
            else:
                positions[ordinal].append(position)
            continue
        terms = _terms(rule_requirement(rule.spec.pattern, rule.options), index)
        if terms is None:
            always.add(position)
        for term in terms or ():
            eager.setdefault(term[0], []).append((position, term))
    return Needs(tuple(literals), frozenset(always), len(rules), eager, known, [tuple(p) for p in positions])


def build_table(rules: tuple[Rule, ...], catalog: bytes) -> bytes:
    """A table file for the rules of a catalog, everything analysed afresh (the same bytes every time).

    Args:
        rules: the catalog's rules, in catalog order.
        catalog: the ``rules.yaml`` they were parsed from.
    """
    from mcpwall.inspection.catalog import gate_exact, spec_row  # catalog imports this module

    found = [rule_requirement(rule.spec.pattern, rule.options) for rule in rules]
    literals = sorted({literal for need in found if need for term in need for literal in term})
    indices = {literal: i for i, literal in enumerate(literals)}
    keyed: list[list[str]] = [[] for _ in literals]
    always = []
    for ordinal, need in enumerate(found):
        terms = _terms(need, indices.__getitem__)
        if terms is None:
            always.append(ordinal)
        for term in terms or ():
            keyed[term[0]].append(" ".join(map(str, (ordinal, *term[1:]))))
    document: dict[str, Any] = {
        "version": ANALYSIS_VERSION,
        "catalog": catalog_digest(catalog),
        "specs": [spec_row(rule.spec) for rule in rules],
        "keys": [rule_key(rule) for rule in rules],
        "always": always,
        "gated": [ordinal for ordinal, rule in enumerate(rules) if gate_exact(rule.spec.pattern, rule.options)],
        "literals": literals,
        "keyed": [";".join(entries) for entries in keyed],
    }
    return signed(document)


def table_path() -> Path:
    """Where the packaged table lives in the source tree."""
    return Path(__file__).with_name(TABLE_FILE)


def main() -> None:
    """Regenerate the packaged table from ``rules.yaml`` (YAML parsed, never the cached specs)."""
    from mcpwall.inspection.catalog import catalog_text, compile_rule, parse_catalog  # as above

    text = catalog_text()
    rules = tuple(compile_rule(spec, lazily=True) for spec in parse_catalog(text.decode("utf-8")))
    table_path().write_bytes(build_table(rules, text))


if __name__ == "__main__":
    main()
