"""A literal prefilter: run only the rules whose required literals a text contains.

A :class:`Prefilter` takes the :mod:`~mcpwall.inspection.requirements` of every rule of a rule
set and finds which of their literals a text (folded by
:func:`~mcpwall.inspection.literals.fold_case`) contains, in one pass of a C Aho-Corasick
automaton (``pyahocorasick``) instead of a Python walk per word. The text is first rewritten as
its distinct words (``\\w+``, the words ``\\b`` sees) between :data:`BOUNDARY` marks
(``§ignore§the§field§``), so a literal's own marks are matched as they are written:

- ``§in§`` (a whole word): the word is ``in``;
- ``§ignor`` / ``ment§`` (a word's start or end): the word starts or ends so;
- ``key`` (word characters anywhere): some word contains it; a one-character one (``a``,
  ``_``) is simply looked up among the text's characters (it would hit the automaton at almost
  every word);
- anything with other characters (``/etc/passwd``, ``'s``): checked as a substring of the text,
  only when its longest word piece is satisfied by some word (``§etc§`` here) or, without one,
  when the text holds its first character;
- :data:`~mcpwall.inspection.requirements.DIGIT`: the text holds a decimal digit.

The rules whose requirement those literals satisfy are the only ones that can match; the others
are skipped without running (or compiling) their regex. A rule without a requirement always
runs. Nothing here is a regex to compile: building a prefilter costs a few milliseconds.
The alternatives a literal keys are grouped by another literal each needs, so a text checks only
those whose other literal it holds.

The prefilter only ever skips work: the rules it lets through find exactly the matches the full
rule set would, in the same order (``tests/inspection/test_prefilter.py`` checks it, and that
the literals found are exactly those a word-by-word reading finds).
"""

from __future__ import annotations

import re
import time
from typing import Final

import ahocorasick

from mcpwall.inspection.catalog import Rule
from mcpwall.inspection.literals import BOUNDARY, fold_case
from mcpwall.inspection.requirements import DIGIT, Needs, Term, requirements

WORDS: Final = re.compile(r"\w+")
A_DIGIT: Final = re.compile(r"\d")
CYRILLIC: Final = re.compile("[\u0400-\u04ff]")
Guarded = list[tuple[str, int]]
"""Literals with non-word characters, as ``(text, index)``, to look for as substrings."""
PREPARED_SIZE: Final = 100
"""`Prefilter.prepare` decodes the lists at least this long (encoded characters): the keys of many
alternatives, common words nearly every listing holds (about 85% of the packaged table's
decoding work, a quarter of its lists: some 50 ms and 6 MB; the rest cost the listing that needs
them a few microseconds each)."""
PREPARE_SLICE: Final = 2000
"""Encoded characters `Prefilter.prepare` decodes before it gives the GIL back (a few tenths of
a millisecond: the relay never waits longer for it)."""
Alternatives = tuple[frozenset[int], dict[int, list[tuple[int, Term]]]]
"""What one literal keys: the rule positions it satisfies alone, and the other alternatives
(``(rule position, alternative)``) by another literal each requires."""


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


def marked_words(folded: str) -> str:
    """The distinct words of a folded text, each between boundary marks: ``§put§it§in§``.

    A word literal occurs in it exactly when some word of the text satisfies it: its marks can
    only meet a word's ends, and no literal spans two words (none holds a mark inside).
    """
    return BOUNDARY + BOUNDARY.join(set(WORDS.findall(folded))) + BOUNDARY


class _Words:
    """The word literals of a rule set (with their marks), and which of them a text satisfies."""

    def __init__(self) -> None:
        self.keys: dict[str, list[int]] = {}
        """Literals of two or more characters (marks aside), as written: the automaton's keys."""
        self.chars: dict[str, list[int]] = {}
        """One-character in-word literals, by character."""
        self.guards: dict[int, Guarded] = {}
        """Literals with other characters, by the index of the word piece that guards them."""
        self.automaton: ahocorasick.Automaton | None = None
        """The keys, each with its first index (a literal listed twice has its others in `aliases`)."""
        self.aliases: dict[int, list[int]] = {}

    def add(self, literal: str, index: int) -> None:
        """Index a literal made of word characters only (with its marks)."""
        if len(literal) == 1:  # no mark, one character: found anywhere in a word
            self.chars.setdefault(literal, []).append(index)
        else:
            self.keys.setdefault(literal, []).append(index)

    def build(self) -> None:
        """Make the automaton of the literals added so far."""
        if not self.keys:
            return
        automaton = ahocorasick.Automaton()
        for literal, (first, *others) in self.keys.items():
            automaton.add_word(literal, first)
            if others:
                self.aliases[first] = others
        automaton.make_automaton()
        self.automaton = automaton


class Prefilter:
    """The rules of one rule set that can match a text, found through their required literals.

    Each alternative of a rule's requirement is indexed under its rarest literal (its first):
    only the alternatives whose key occurs in a text are checked in full, and only their lists
    are decoded from the requirements table (the longest ones ahead of need: :meth:`prepare`).
    Should one fail to decode (a damaged table), every rule runs from then on.

    Args:
        rules: the rules, in rule-set order (the order matches are reported in).
        needs: what each rule requires; read through :func:`requirements` when omitted.
    """

    def __init__(self, rules: tuple[Rule, ...], needs: Needs | None = None) -> None:
        self.rules = rules
        self._needs = needs = requirements(rules) if needs is None else needs
        self._index = {literal: index for index, literal in enumerate(needs.literals)}
        self._words = _Words()
        self._guarded_by_char: dict[str, Guarded] = {}
        self._digit: int | None = None
        """The index of :data:`DIGIT`, when some rule requires it."""
        for index, literal in enumerate(needs.literals):
            self._add(literal, index)
        self._words.build()
        self._always = needs.always
        self._cyrillic = frozenset(i for i, rule in enumerate(rules) if "cyrillic" in rule.spec.flags)
        """Rules run on text holding a Cyrillic letter, and only there (see ``RuleSpec.flags``)."""
        self._by_char = {
            char: (tuple(self._words.chars.get(char, ())), self._guarded_by_char.get(char, []))
            for char in self._words.chars.keys() | self._guarded_by_char.keys()
        }
        """Per character: the one-character in-word literals, and the literals without word pieces
        that start with it (found by one pass over a text's characters)."""
        self._chars = frozenset(self._by_char)
        self._keys = needs.keys()
        self._alternatives: dict[int, Alternatives] = {}
        self._damaged = False
        """A table list failed to decode: every rule runs from then on (fail closed)."""

    def _add(self, literal: str, index: int) -> None:
        if literal == DIGIT:
            self._digit = index
            return
        core = literal.strip(BOUNDARY)
        if core.replace("_", "a").isalnum():  # every character is_word (core is never empty)
            self._words.add(literal, index)
            return
        pieces = _pieces(literal)
        if not pieces:
            self._guarded_by_char.setdefault(core[0], []).append((core, index))
            return
        guard = max(pieces, key=_rarity)
        if guard not in self._index:
            self._index[guard] = len(self._index)
            self._words.add(guard, self._index[guard])
        self._words.guards.setdefault(self._index[guard], []).append((core, index))

    def clear(self) -> None:
        """Nothing to forget: no text or word is remembered (kept for :meth:`Recall.clear`)."""

    def prepare(self, at_least: int = PREPARED_SIZE) -> None:
        """Decode ahead of need the alternatives of the literals with the longest lists (at least
        ``at_least`` encoded characters), longest first.

        A first listing would otherwise decode the lists of the literals its texts hold, on its
        path (a couple of milliseconds for a dozen tools: the longest lists are those of common
        words). Run in the warm-up thread (see `catalog.warm_up`); a text that needs a list
        first simply decodes it (both threads compute the same value, harmlessly). It only
        fills what :meth:`candidates` would fill: the rules chosen are the same. A list that
        fails to decode is left for :meth:`candidates` to find (and then run every rule).
        """
        needs = self._needs
        sizes = ((needs.size(index), index) for index in self._keys)
        slice_left = PREPARE_SLICE
        for size, index in sorted((pair for pair in sizes if pair[0] >= at_least), reverse=True):
            if index in self._alternatives:
                continue
            try:
                self._keyed_by_other(index)
            except ValueError:
                return
            slice_left -= size
            if slice_left <= 0:
                time.sleep(0)  # give the GIL back: a listing arriving now waits for no more than a slice
                slice_left = PREPARE_SLICE

    def present(self, text: str) -> set[int]:
        """The indices of the literals ``text`` contains."""
        folded = fold_case(text)
        words = self._words
        automaton = words.automaton
        found: set[int] = set() if automaton is None else {index for _, index in automaton.iter(marked_words(folded))}
        if words.aliases:
            for first in words.aliases.keys() & found:
                found.update(words.aliases[first])
        guards = words.guards
        keyed = guards.keys() & found
        guarded: Guarded = [pair for index in keyed for pair in guards[index]] if keyed else []
        by_char = self._by_char
        for char in self._chars.intersection(folded):
            singles, starting = by_char[char]
            if singles:
                found.update(singles)
            if starting:
                guarded += starting
        if guarded:
            found.update([index for literal, index in guarded if literal in folded])
        if self._digit is not None and A_DIGIT.search(text) is not None:
            found.add(self._digit)
        return found

    def _keyed_by_other(self, index: int) -> Alternatives:
        """The alternatives a literal keys, split: the rules it satisfies alone, and the others by
        another literal each requires (only those whose other literal a text holds are checked).

        Raises:
            ValueError: the table's list for this literal is malformed.
        """
        alone: set[int] = set()
        by_other: dict[int, list[tuple[int, Term]]] = {}
        for pair in self._needs.keyed(index):
            term = pair[1]  # the key first, then the other literals (all distinct)
            if len(term) == 1:
                alone.add(pair[0])
            elif term[1] in by_other:
                by_other[term[1]].append(pair)
            else:
                by_other[term[1]] = [pair]
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
            for index in self._keys.intersection(found):
                alone, by_other = alternatives.get(index) or self._keyed_by_other(index)
                if alone:
                    chosen.update(alone)
                if by_other:
                    for other in by_other.keys() & found:
                        for position, term in by_other[other]:
                            if position not in chosen and found.issuperset(term):
                                chosen.add(position)
        except ValueError:
            self._damaged = True
        if self._damaged:
            return self.rules
        return self._in_order(self._gated(chosen, text))

    def _gated(self, chosen: set[int], text: str) -> set[int]:
        """``chosen`` with the Cyrillic-only rules in when the text holds a Cyrillic letter, else out."""
        if not self._cyrillic:
            return chosen
        cyrillic = not text.isascii() and CYRILLIC.search(text) is not None  # most texts are ASCII
        return chosen | self._cyrillic if cyrillic else chosen - self._cyrillic

    def _in_order(self, chosen: set[int]) -> tuple[Rule, ...]:
        if not chosen:
            return ()
        rules = self.rules
        return tuple([rules[position] for position in sorted(chosen)])
