"""A literal prefilter: run only the rules whose required literals a text contains.

A :class:`Prefilter` takes the :mod:`~mcpwall.inspection.requirements` of every rule of a rule
set and finds which of their literals a text (folded by
:func:`~mcpwall.inspection.literals.fold_case`) contains, word by word. The text is split into
its words (``\\w+``, the words ``\\b`` sees); for each distinct word, remembered across texts, a
few dictionary walks find the literals it satisfies:

- ``§in§`` (a whole word): the word is ``in``;
- ``§ignor`` / ``ment§`` (a word's start or end): the word starts or ends so;
- ``key`` (word characters anywhere): the word contains it;
- anything with other characters (``/etc/passwd``, ``'s``): checked as a substring of the text,
  only when its longest word piece is satisfied by some word (``§etc§`` here) or, without one,
  when the text holds its first character.

The rules whose requirement those literals satisfy are the only ones that can match; the others
are skipped without running (or compiling) their regex. A rule without a requirement always
runs. Nothing here is a regex to compile, so building a prefilter costs a few milliseconds.
The alternatives a literal keys are grouped by another literal each needs, so a text checks only
those whose other literal it holds.

The prefilter only ever skips work: the rules it lets through find exactly the matches the full
rule set would, in the same order (``tests/inspection/test_prefilter.py`` checks it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Final

from mcpwall.inspection.catalog import Rule
from mcpwall.inspection.literals import BOUNDARY, fold_case
from mcpwall.inspection.requirements import Needs, Term, requirements

WORDS: Final = re.compile(r"\w+")
WORD_MEMO: Final = 16384
"""Distinct words remembered before the memo starts over."""
_END: Final = ""

Trie = dict[str, Any]
"""Nested by character; the key ``""`` holds the indices of the literals that end there."""
Guarded = tuple[tuple[str, int], ...]
"""Literals with non-word characters, as ``(text, index)``, to look for as substrings."""
Alternatives = tuple[frozenset[int], dict[int, list[tuple[int, Term]]]]
"""What one literal keys: the rule positions it satisfies alone, and the other alternatives
(``(rule position, alternative)``) by another literal each requires."""


def _add(trie: Trie, word: str, index: int) -> None:
    node = trie
    for char in word:
        node = node.setdefault(char, {})
    node.setdefault(_END, []).append(index)


def _walk(trie: Trie, chars: Iterable[str], found: list[int]) -> None:
    """Add the indices of every literal that is a prefix of ``chars``."""
    node = trie
    for char in chars:
        child: Trie | None = node.get(char)
        if child is None:
            return
        node = child
        found += node.get(_END, ())


def _pieces(literal: str) -> list[str]:
    """The word pieces of a literal with other characters, as literals of their own kind.

    ``/etc/passwd`` gives ``§etc§`` and ``§passwd``: a piece is a whole word where the literal
    shows a non-word character or a boundary mark on that side.
    """
    core = literal.strip(BOUNDARY)
    pieces = []
    for match in WORDS.finditer(core):
        start, end = match.span()
        head = BOUNDARY if start > 0 or literal.startswith(BOUNDARY) else ""
        tail = BOUNDARY if end < len(core) or literal.endswith(BOUNDARY) else ""
        pieces.append(head + match.group() + tail)
    return pieces


def _rarity(literal: str) -> tuple[int, int]:
    """How rarely a word piece occurs in text, roughly: whole words rarest, then longer ones."""
    return literal.count(BOUNDARY), len(literal.strip(BOUNDARY))


class _Words:
    """The word literals of a rule set, and which of them one word satisfies."""

    def __init__(self) -> None:
        self.whole: dict[str, list[int]] = {}
        self.starts: Trie = {}
        self.ends: Trie = {}
        self.inside: list[tuple[str, int]] = []
        """Literals found anywhere in a word (most literals have a boundary mark; not all)."""
        self.inside_chars: dict[str, list[int]] = {}
        """The one-character ones, by character."""
        self.inside_pairs: dict[str, list[tuple[str, int]]] = {}
        """The longer ones, by their first two characters: a word is read once, pair by pair,
        instead of testing every literal against it."""
        self.guards: dict[int, list[tuple[str, int]]] = {}

    def add(self, literal: str, index: int) -> None:
        """Index a literal made of word characters only (with its marks)."""
        core = literal.strip(BOUNDARY)
        if literal.startswith(BOUNDARY) and literal.endswith(BOUNDARY):
            self.whole.setdefault(core, []).append(index)
        elif literal.startswith(BOUNDARY):
            _add(self.starts, core, index)
        elif literal.endswith(BOUNDARY):
            _add(self.ends, core[::-1], index)
        else:
            self.inside.append((core, index))
            if len(core) == 1:
                self.inside_chars.setdefault(core, []).append(index)
            else:
                self.inside_pairs.setdefault(core[:2], []).append((core, index))

    def of(self, word: str) -> tuple[tuple[int, ...], Guarded]:
        """The literals one word satisfies, and the guarded literals to look for because of it."""
        found = list(self.whole.get(word, ()))
        if word[0] in self.starts:
            _walk(self.starts, word, found)
        if word[-1] in self.ends:
            _walk(self.ends, reversed(word), found)
        found += self._inside(word)
        guards = self.guards
        guarded = tuple(pair for index in found if index in guards for pair in guards[index])
        return tuple(found), guarded

    def _inside(self, word: str) -> set[int]:
        """The in-word literals a word contains (each once)."""
        found = {index for char in self.inside_chars.keys() & set(word) for index in self.inside_chars[char]}
        pairs = self.inside_pairs
        for start in range(len(word) - 1):
            bucket = pairs.get(word[start : start + 2])
            if bucket is not None:
                found.update(index for literal, index in bucket if word.startswith(literal, start))
        return found


class Prefilter:
    """The rules of one rule set that can match a text, found through their required literals.

    Each alternative of a rule's requirement is indexed under its rarest literal (its first):
    only the alternatives whose key occurs in a text are checked in full, and only their lists
    are ever decoded from the requirements table. Should one fail to decode (a damaged table),
    every rule runs from then on.

    Args:
        rules: the rules, in rule-set order (the order matches are reported in).
        needs: what each rule requires; read through :func:`requirements` when omitted.
    """

    def __init__(self, rules: tuple[Rule, ...], needs: Needs | None = None) -> None:
        self.rules = rules
        self._needs = needs = requirements(rules) if needs is None else needs
        self._index = {literal: index for index, literal in enumerate(needs.literals)}
        self._words = _Words()
        self._by_char: dict[str, list[tuple[str, int]]] = {}
        for index, literal in enumerate(needs.literals):
            self._add(literal, index)
        self._always = needs.always
        self._chars = frozenset(self._by_char)
        self._memo: dict[str, tuple[tuple[int, ...], Guarded]] = {}
        self._alternatives: dict[int, Alternatives] = {}
        self._damaged = False
        """A table list failed to decode: every rule runs from then on (fail closed)."""

    def _add(self, literal: str, index: int) -> None:
        core = literal.strip(BOUNDARY)
        if core.replace("_", "a").isalnum():  # every character is_word (core is never empty)
            self._words.add(literal, index)
            return
        pieces = _pieces(literal)
        if not pieces:
            self._by_char.setdefault(core[0], []).append((core, index))
            return
        guard = max(pieces, key=_rarity)
        if guard not in self._index:
            self._index[guard] = len(self._index)
            self._words.add(guard, self._index[guard])
        self._words.guards.setdefault(self._index[guard], []).append((core, index))

    def clear(self) -> None:
        """Forget the words seen so far (the next texts are split as at first sight)."""
        self._memo.clear()

    def _word(self, word: str) -> tuple[tuple[int, ...], Guarded]:
        """What a word not seen before satisfies, remembered."""
        if len(self._memo) >= WORD_MEMO:
            self._memo.clear()
        known = self._memo[word] = self._words.of(word)
        return known

    def present(self, text: str) -> set[int]:
        """The indices of the literals ``text`` contains."""
        folded = fold_case(text)
        found: set[int] = set()
        guarded: list[tuple[str, int]] = []
        memo = self._memo
        for word in set(WORDS.findall(folded)):
            known = memo.get(word) or self._word(word)
            if known[0]:
                found.update(known[0])
            if known[1]:
                guarded += known[1]
        for char in self._chars.intersection(folded):
            guarded += self._by_char[char]
        if guarded:
            found.update(index for literal, index in guarded if literal in folded)
        return found

    def _keyed_by_other(self, index: int) -> Alternatives:
        """The alternatives a literal keys, split: the rules it satisfies alone, and the others by
        another literal each requires (only those whose other literal a text holds are checked).

        Raises:
            ValueError: the table's list for this literal is malformed.
        """
        alone: set[int] = set()
        by_other: dict[int, list[tuple[int, Term]]] = {}
        for position, term in self._needs.keyed(index):
            other = next((literal for literal in term if literal != index), None)
            if other is None:
                alone.add(position)
            else:
                by_other.setdefault(other, []).append((position, term))
        found = self._alternatives[index] = (frozenset(alone), by_other)
        return found

    def candidates(self, text: str) -> tuple[Rule, ...]:
        """The rules whose requirement ``text`` satisfies, in rule-set order.

        Every rule that has a match in ``text`` is among them.
        """
        found = self.present(text)
        chosen = set(self._always)
        alternatives = self._alternatives
        try:
            for index in found:
                alone, by_other = alternatives.get(index) or self._keyed_by_other(index)
                chosen.update(alone)
                for other in by_other.keys() & found:
                    for position, term in by_other[other]:
                        if position not in chosen and found.issuperset(term):
                            chosen.add(position)
        except ValueError:
            self._damaged = True
        if self._damaged:
            return self.rules
        return tuple(self.rules[position] for position in sorted(chosen))
