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
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

SRE: Any = importlib.import_module("re._parser")  # the stdlib's parser, exactly what re.compile uses
MAX_EXACT: Final = 64
"""Largest set of exact strings tracked for one sub-pattern."""
MAX_TERMS: Final = 64
"""Largest number of alternatives a conjunction may multiply into before one side is dropped."""
MAX_UNROLLED: Final = 4
"""Largest repetition count unrolled into exact strings (``s?``, ``(?:ed)?``...)."""
RE_CASE_TWINS: Final = {"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"}
"""Non-ASCII letters ``re`` matches to an ASCII letter under ``IGNORECASE`` (a test checks all)."""
_FOLD: Final = str.maketrans({**{chr(c): chr(c + 32) for c in range(ord("A"), ord("Z") + 1)}, **RE_CASE_TWINS})
_LITERAL: Final = SRE.LITERAL
_ZERO_WIDTH: Final = frozenset({SRE.AT, SRE.ASSERT, SRE.ASSERT_NOT})
_REPEATS: Final = frozenset({SRE.MAX_REPEAT, SRE.MIN_REPEAT, SRE.POSSESSIVE_REPEAT})

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


_UNKNOWN: Final = _Literals()
_EMPTY: Final = _Literals(frozenset({""}))


def _product(left: Strings | None, right: Strings | None) -> Strings | None:
    if left is None or right is None or len(left) * len(right) > MAX_EXACT:
        return None
    return frozenset(a + b for a in left for b in right)


def _of_exact(exact: Strings) -> Requirement | None:
    """A run of exact strings as a requirement (none when it may match the empty string)."""
    return None if "" in exact else frozenset(frozenset({e}) for e in exact)


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


def _sequence(items: Iterable[tuple[Any, Any]]) -> _Literals:
    """Literals of a concatenation: adjacent exact parts join into runs; every part is required."""
    run: Strings = frozenset({""})
    whole = True  # every part so far joined the run: the run is the sequence's exact set
    needed: Requirement | None = None
    for part in _parts(items):
        joined = _product(run, part.exact)
        if joined is not None:
            run = joined
            continue
        whole = False
        needed = _both(needed, _of_exact(run))
        run = part.exact if part.exact is not None else frozenset({""})
        needed = _both(needed, part.needed)
    return _Literals(run if whole else None, _both(needed, _of_exact(run)))


def _parts(items: Iterable[tuple[Any, Any]]) -> Iterator[_Literals]:
    """The literals of each item of a sequence, consecutive plain characters merged into one."""
    chars: list[str] = []
    for op, arg in items:
        if op is _LITERAL and arg < 0x80:
            chars.append(chr(arg))
            continue
        if chars:
            yield _Literals(frozenset({fold_case("".join(chars))}))
            chars = []
        yield _node(op, arg)
    if chars:
        yield _Literals(frozenset({fold_case("".join(chars))}))


def _branch(branches: Sequence[Any]) -> _Literals:
    parts = [_sequence(branch) for branch in branches]
    exact: Strings | None = frozenset()
    for part in parts:
        exact = None if exact is None or part.exact is None else exact | part.exact
    if exact is not None and len(exact) > MAX_EXACT:
        exact = None
    return _Literals(exact, _either([part.needed for part in parts]))


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


def _repeat(low: int, high: int, body: Any) -> _Literals:
    part = _sequence(body)
    return _Literals(_unrolled(low, high, part.exact), part.needed if low >= 1 else None)


def _char_set(items: Sequence[tuple[Any, Any]]) -> _Literals:
    chars = [chr(arg) for op, arg in items if op is _LITERAL]
    if len(chars) != len(items) or not all(c.isascii() for c in chars):
        return _UNKNOWN
    return _Literals(frozenset(fold_case(c) for c in chars))


def _node(op: Any, arg: Any) -> _Literals:
    if op is SRE.IN:
        return _char_set(arg)
    if op in _ZERO_WIDTH:
        return _EMPTY  # consumes nothing, so requires nothing of the matched text
    if op is SRE.SUBPATTERN:
        return _sequence(arg[-1])
    if op is SRE.ATOMIC_GROUP:
        return _sequence(arg)
    if op is SRE.BRANCH:
        return _branch(arg[1])
    if op in _REPEATS:
        return _repeat(arg[0], arg[1], arg[2])
    return _UNKNOWN


def required_literals(pattern: str, flags: int = 0) -> Requirement | None:
    """What every match of ``pattern`` contains, folded; None when nothing is certain.

    Args:
        pattern: a Python regular expression.
        flags: its compile flags.
    """
    needed = _sequence(SRE.parse(pattern, flags)).needed
    return needed if needed and all(needed) else None
