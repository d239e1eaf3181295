"""A literal prefilter: run only the rules whose required literals a text contains.

A :class:`Prefilter` collects the :func:`~mcpwall.inspection.literals.required_literals` of every
rule of a rule set and compiles them into one trie-shaped scanner. One pass over a text (folded
by :func:`~mcpwall.inspection.literals.fold_case`) finds, at every position, the longest literal
that starts there — and with it every shorter literal starting there, its prefixes. The rules
whose requirement those literals satisfy are the only ones that can match; the others are
skipped without running their regex. A rule without a requirement always runs.

The prefilter only ever skips work: the rules it lets through find exactly the matches the full
rule set would, in the same order (``tests/inspection/test_prefilter.py`` checks it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from mcpwall.inspection.catalog import Rule
from mcpwall.inspection.literals import fold_case, required_literals

Trie = dict[str, "Trie"]
_END: Final = ""


def _trie(literals: Iterable[str]) -> Trie:
    root: Trie = {}
    for literal in literals:
        node = root
        for char in literal:
            node = node.setdefault(char, {})
        node[_END] = {}
    return root


def _trie_pattern(node: Trie) -> str:
    """A regex for the trie: branches differ in their first character, longer matches first."""
    branches = [re.escape(char) + _trie_pattern(child) for char, child in sorted(node.items()) if char != _END]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if _END in node else body


def _prefixes(literals: list[str]) -> dict[str, list[str]]:
    """For each literal, every literal that is a prefix of it (itself included)."""
    known = set(literals)
    return {
        literal: [literal[:end] for end in range(1, len(literal) + 1) if literal[:end] in known] for literal in literals
    }


class Prefilter:
    """The rules of one rule set that can match a text, found through their required literals.

    Each alternative of a rule's requirement is indexed under its longest literal (the rarest,
    as a rule): only the alternatives whose key occurs in a text are checked in full.

    Args:
        rules: the compiled rules, in rule-set order (the order matches are reported in).
    """

    def __init__(self, rules: tuple[Rule, ...]) -> None:
        self.rules = rules
        needs = [required_literals(rule.regex.pattern, rule.regex.flags) for rule in rules]
        literals = sorted({literal for need in needs if need for term in need for literal in term})
        bits = {literal: 1 << index for index, literal in enumerate(literals)}
        keyed: dict[str, list[tuple[int, int]]] = {}
        for index, need in enumerate(needs):
            for term in need or ():
                key = max(sorted(term), key=len)
                keyed.setdefault(key, []).append((index, sum(bits[literal] for literal in term)))
        self._found = {
            longest: (sum(bits[p] for p in shorter), tuple(t for p in shorter for t in keyed.get(p, ())))
            for longest, shorter in _prefixes(literals).items()
        }
        self._always = frozenset(index for index, need in enumerate(needs) if need is None)
        self._scan = re.compile(f"(?=({_trie_pattern(_trie(literals))}))") if literals else None

    def candidates(self, text: str) -> tuple[Rule, ...]:
        """The rules whose requirement ``text`` satisfies, in rule-set order.

        Every rule that has a match in ``text`` is among them.
        """
        if self._scan is None:
            return self.rules
        present = 0
        keyed: list[tuple[int, int]] = []
        for longest in set(self._scan.findall(fold_case(text))):
            literal_bits, terms = self._found[longest]
            present |= literal_bits
            keyed += terms
        chosen = set(self._always)
        for index, term in keyed:
            if index not in chosen and term & present == term:
                chosen.add(index)
        return tuple(self.rules[index] for index in sorted(chosen))
