"""Required literals: what text a regular expression cannot match without.

:func:`required_literals` reads a pattern's parse tree (the stdlib's own, as ``re.compile``
reads it) and returns a :data:`Requirement`: alternatives, each a set of literal strings that
must *all* occur in any text the pattern matches somewhere. ``\\b(?:in|into)\\s{1,3}the\\s{1,3}
(?:field|param)\\b`` requires ``in`` (``into`` contains it) and ``the`` and ``field`` or ``param``:
``{{in, the, field}, {in, the, param}}``. None means nothing is certain (a pure character class,
a back-reference, a body that may be empty): such a pattern must always run.

The analysis is sound by construction — it only ever keeps strings that a match must contain and
weakens (drops a conjunct, or gives up) when sets grow large. Literals are folded by
:func:`fold_case`: lower-case ASCII plus the four non-ASCII letters ``re`` equates with ASCII ones
under ``IGNORECASE`` (U+0130, U+0131, U+017F, U+212A), so ``ignore`` spelled with a dotless i
still contains ``ignore`` once folded. Folding
both sides is right for case-sensitive patterns too (a verbatim match is also a folded one).
Non-ASCII pattern characters are treated as unknown.

Word boundaries are kept too, as :data:`BOUNDARY` marks at a literal's ends: ``§in§`` is ``in``
as a whole word (``\\bin\\b``, or ``in`` between ``\\s`` runs), ``§ignor`` a word that starts with
``ignor``. A mark comes from a ``\\b`` or from a neighbour that can only match non-word characters
(``\\s{1,3}``, a space, ``[:!]``), carried into groups and alternatives; it is kept only at an end
next to a word character, where it says something. Marks are dropped when the pattern uses
``re.ASCII`` (its ``\\b`` is not the one :func:`fold_case` text is split on).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

SRE: Any = importlib.import_module("re._parser")  # the stdlib's parser, exactly what re.compile uses
MAX_EXACT: Final = 64
"""Largest set of exact strings tracked for one sub-pattern."""
MAX_TERMS: Final = 128
"""Largest number of alternatives a conjunction may multiply into before one side is dropped."""
MAX_UNROLLED: Final = 4
"""Largest repetition count unrolled into exact strings (``s?``, ``(?:ed)?``...)."""
RE_CASE_TWINS: Final = {"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"}
"""Non-ASCII letters ``re`` matches to an ASCII letter under ``IGNORECASE`` (a test checks all)."""
_FOLD: Final = str.maketrans({**{chr(c): chr(c + 32) for c in range(ord("A"), ord("Z") + 1)}, **RE_CASE_TWINS})
_LITERAL: Final = SRE.LITERAL
_ZERO_WIDTH: Final = frozenset({SRE.AT, SRE.ASSERT, SRE.ASSERT_NOT})
_REPEATS: Final = frozenset({SRE.MAX_REPEAT, SRE.MIN_REPEAT, SRE.POSSESSIVE_REPEAT})
_NON_WORD_CLASSES: Final = frozenset({SRE.CATEGORY_SPACE, SRE.CATEGORY_NOT_WORD})
_ASCII_INLINE: Final = re.compile(r"\(\?[a-zA-Z-]*a")
BOUNDARY: Final = "\u00a7"
"""Marks a word boundary at a literal's end (non-ASCII, so never a character of a literal)."""

Strings = frozenset[str]
Requirement = frozenset[Strings]
"""Alternatives (any one suffices), each a set of literals that must all occur."""


def fold_case(text: str) -> str:
    """The text as literals are compared: one character for one, case folded as ``re`` does."""
    return text.lower() if text.isascii() else text.translate(_FOLD)


@dataclass(frozen=True, slots=True)
class _Literals:
    """What one sub-pattern can match, as far as literals go.

    Attributes:
        exact: every string it can match (None when unknown or too many).
        needed: what every match contains (None when nothing is certain).
    """

    exact: Strings | None = None
    needed: Requirement | None = None
    opens: bool = False
    """Every match starts with a non-word character."""
    closes: bool = False
    """Every match ends with a non-word character."""


_UNKNOWN: Final = _Literals()
_EMPTY: Final = _Literals(frozenset({""}))
_MARK: Final = _Literals(frozenset({BOUNDARY}))
_MARKS: Final = frozenset({BOUNDARY})
UNCASED_EXCEPTIONS: Final = frozenset({0x130, 0x131, 0x17F, 0x212A})


def _uncased(code: int) -> bool:
    """A character with no other case (CJK, most symbols): ``re`` under IGNORECASE matches only itself.

    The exceptions are characters that case-fold onto ASCII (dotted and dotless i, long s, the
    Kelvin sign), which ``re`` matches case-insensitively against ASCII letters.
    """
    char = chr(code)
    return char.lower() == char == char.upper() and char.casefold() == char and code not in UNCASED_EXCEPTIONS


def is_word(char: str) -> bool:
    """Whether ``re`` counts the character as part of a word (``\\w``)."""
    return char.isalnum() or char == "_"


def _tidy(text: str) -> str:
    """An exact string with its marks kept only at an end next to a word character.

    A lone mark stays (a boundary still waiting for its neighbour).
    """
    if BOUNDARY not in text:
        return text
    core = text.replace(BOUNDARY, "")
    if not core:
        return BOUNDARY
    head = BOUNDARY if text[0] == BOUNDARY and is_word(core[0]) else ""
    tail = BOUNDARY if text[-1] == BOUNDARY and is_word(core[-1]) else ""
    return head + core + tail


def _product(left: Strings | None, right: Strings | None) -> Strings | None:
    if left is None or right is None or len(left) * len(right) > MAX_EXACT:
        return None
    return frozenset(_tidy(a + b) for a in left for b in right)


def _of_exact(exact: Strings) -> Requirement | None:
    """A run of exact strings as a requirement (none when it may match the empty string)."""
    if any(not e.strip(BOUNDARY) for e in exact):
        return None
    return frozenset(frozenset({e}) for e in exact)


def _edge_is_non_word(part: _Literals, end: int) -> bool:
    """Whether every match of the part starts (``end`` 0) or ends (-1) with a non-word character."""
    if part.opens if end == 0 else part.closes:
        return True
    cores = [] if part.exact is None else [e.strip(BOUNDARY) for e in part.exact]
    return bool(cores) and all(core and not is_word(core[end]) for core in cores)


def _strength(need: Requirement) -> tuple[int, int]:
    """How selective a requirement is: its weakest alternative's literal length, then fewness."""
    return min(sum(min(len(s), 8) for s in term) for term in need), -len(need)


def _both(left: Requirement | None, right: Requirement | None) -> Requirement | None:
    """Both requirements; the more selective one alone when their product grows too large."""
    if left is None or right is None:
        return left if right is None else right
    if len(left) * len(right) > MAX_TERMS:
        return left if _strength(left) >= _strength(right) else right
    return frozenset(a | b for a in left for b in right)


def _either(needs: Sequence[Requirement | None]) -> Requirement | None:
    if any(need is None for need in needs):
        return None
    return frozenset(term for need in needs if need is not None for term in need)


def _sequence(items: Sequence[tuple[Any, Any]], lead: bool = False, trail: bool = False) -> _Literals:
    """Literals of a concatenation: adjacent exact parts join into runs; every part is required.

    Args:
        items: the parsed sequence.
        lead: a word boundary is known to come right before it.
        trail: a word boundary is known to come right after it.
    """
    parts = list(_parts(items, lead, trail))
    run: Strings = _MARKS if lead else frozenset({""})
    whole = True  # every part so far joined the run: the run is the sequence's exact set
    needed: Requirement | None = None
    for part in parts:
        joined = _product(run, part.exact)
        if joined is not None:
            run = joined
            continue
        whole = False
        if _edge_is_non_word(part, 0):
            run = _product(run, _MARKS) or run
        needed = _both(needed, _of_exact(run))
        run = part.exact if part.exact is not None else (_MARKS if part.closes else frozenset({""}))
        needed = _both(needed, part.needed)
    if trail:
        run = _product(run, _MARKS) or run
    opens = bool(parts) and _edge_is_non_word(parts[0], 0)
    closes = bool(parts) and _edge_is_non_word(parts[-1], -1)
    return _Literals(run if whole else None, _both(needed, _of_exact(run)), opens, closes)


def _bounds_next(item: tuple[Any, Any] | None) -> bool:
    """Whether a neighbouring item puts a word boundary at the edge of a word character next to it."""
    if item is None:
        return False
    op, arg = item
    if op is SRE.AT:
        return bool(arg is SRE.AT_BOUNDARY)
    if op is _LITERAL:
        return bool(arg < 0x80 and not is_word(chr(arg)))
    if op is SRE.IN:
        return all(
            (kind is SRE.CATEGORY and value in _NON_WORD_CLASSES)
            or (kind is _LITERAL and value < 0x80 and not is_word(chr(value)))
            for kind, value in arg
        )
    if op in _REPEATS:
        return bool(arg[0] >= 1 and len(arg[2]) == 1 and _bounds_next(arg[2][0]))
    return False


def _parts(items: Sequence[tuple[Any, Any]], lead: bool, trail: bool) -> Iterator[_Literals]:
    """The literals of each item of a sequence, consecutive plain characters merged into one."""
    chars: list[str] = []
    last = len(items) - 1
    for index, (op, arg) in enumerate(items):
        if op is _LITERAL and (arg < 0x80 or _uncased(arg)):
            chars.append(chr(arg))
            continue
        if chars:
            yield _Literals(frozenset({fold_case("".join(chars))}))
            chars = []
        before = lead if index == 0 else _bounds_next(items[index - 1])
        after = trail if index == last else _bounds_next(items[index + 1])
        yield _node(op, arg, before, after)
    if chars:
        yield _Literals(frozenset({fold_case("".join(chars))}))


def _branch(branches: Sequence[Any], lead: bool, trail: bool) -> _Literals:
    parts = [_sequence(branch, lead, trail) for branch in branches]
    exact: Strings | None = frozenset()
    for part in parts:
        exact = None if exact is None or part.exact is None else exact | part.exact
    if exact is not None and len(exact) > MAX_EXACT:
        exact = None
    opens = all(_edge_is_non_word(part, 0) for part in parts)
    closes = all(_edge_is_non_word(part, -1) for part in parts)
    return _Literals(exact, _either([part.needed for part in parts]), opens, closes)


def _unrolled(low: int, high: int, body: Strings | None) -> Strings | None:
    """Every string ``body{low,high}`` can match, when few enough to list."""
    if body is None or high > MAX_UNROLLED:
        return None
    exact: Strings = frozenset()
    power: Strings | None = frozenset({""})
    for count in range(high + 1):
        if power is None or len(exact) > MAX_EXACT:
            return None
        if count >= low:
            exact |= power
        power = _product(power, body)
    return exact if len(exact) <= MAX_EXACT else None


def _repeat(low: int, high: int, body: Any, lead: bool, trail: bool) -> _Literals:
    """A repetition: the boundaries around it hold for its first and last copy, so they count
    for what every match contains only when there is at most one copy (its exact strings join
    copies, and marks between copies are dropped)."""
    part = _sequence(body, lead, trail)
    alone = part if high <= 1 else _sequence(body)
    needed = alone.needed if low >= 1 else None
    return _Literals(_unrolled(low, high, part.exact), needed, low >= 1 and part.opens, low >= 1 and part.closes)


def _char_set(items: Sequence[tuple[Any, Any]]) -> _Literals:
    chars = [chr(arg) for op, arg in items if op is _LITERAL]
    if len(chars) != len(items) or not all(c.isascii() for c in chars):
        non_word = _bounds_next((SRE.IN, items))
        return _Literals(opens=non_word, closes=non_word)
    return _Literals(frozenset(fold_case(c) for c in chars))


def _node(op: Any, arg: Any, lead: bool = False, trail: bool = False) -> _Literals:
    if op is SRE.IN:
        return _char_set(arg)
    if op is SRE.AT and arg is SRE.AT_BOUNDARY:
        return _MARK
    if op in _ZERO_WIDTH:
        return _EMPTY  # consumes nothing, so requires nothing of the matched text
    if op is SRE.SUBPATTERN:
        return _sequence(arg[-1], lead, trail)
    if op is SRE.ATOMIC_GROUP:
        return _sequence(arg, lead, trail)
    if op is SRE.BRANCH:
        return _branch(arg[1], lead, trail)
    if op in _REPEATS:
        return _repeat(arg[0], arg[1], arg[2], lead, trail)
    return _UNKNOWN


def required_literals(pattern: str, flags: int = 0) -> Requirement | None:
    """What every match of ``pattern`` contains, folded; None when nothing is certain.

    Args:
        pattern: a Python regular expression.
        flags: its compile flags.
    """
    parsed = SRE.parse(pattern, flags)
    needed = _sequence(list(parsed)).needed
    if not needed or not all(needed):
        return None
    if (flags | parsed.state.flags) & re.ASCII or _ASCII_INLINE.search(pattern):
        return frozenset(frozenset(literal.strip(BOUNDARY) for literal in term) for term in needed)
    return needed
