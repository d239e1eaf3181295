"""What the detector remembers, so that text repeated across definitions is judged once.

Listings repeat themselves: the same parameter descriptions, ``type`` words and whole schemas
recur from tool to tool and server to server. For one rule set the detector keeps, in a
:class:`Recall`:

- the rules that can match a text (its :class:`~mcpwall.inspection.prefilter.Prefilter`, built
  once with the rule set) and, per text, their matches; per raw string, its normalized text;
- per ``(field, string)``, the :class:`Judged` result — findings and signal hits — which depends
  on nothing else unless a hit involves the definition's own names (another tool, a forced
  parameter, an own secret file or recipient): then it is reused only for names that answer the
  questions it asked of them alike (a copy of a tool under another name mostly does);
- per top-level part of a definition (its key and exact JSON), the judged strings inside it;
- per normalized text, its weight under the learned model (:mod:`learned`);
- per input schema (its exact JSON), the own names its parameters give.

Memos are bounded (a full one starts over). :func:`forget` drops every memo — benchmarks use it
to measure first sight; the rule set's regexes compiled so far and the prefilter's tables stay,
like the catalog.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Final, TypeVar

from mcpwall.inspection.catalog import Rule, RuleMatch
from mcpwall.inspection.domain import Question
from mcpwall.inspection.findings import Finding
from mcpwall.inspection.normalize import NormalizedText
from mcpwall.inspection.prefilter import Prefilter
from mcpwall.inspection.scoring import Hit

MEMO_CAPACITY: Final = 8192
"""Entries per memo before it starts over: a few thousand distinct strings is a large listing."""
MAX_RULE_SETS: Final = 8

Matches = tuple[tuple[Rule, RuleMatch], ...]
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(dict[K, V]):
    """A bounded map that starts over when full (cheaper than LRU upkeep on every lookup).

    A dict, so that a lookup (``get``) is one C call: the detector makes several per string.
    """

    __slots__ = ("capacity",)

    def __init__(self, capacity: int = MEMO_CAPACITY) -> None:
        super().__init__()
        self.capacity = capacity

    def put(self, key: K, value: V) -> None:
        """Remember ``value`` for ``key``."""
        if len(self) >= self.capacity:
            self.clear()
        self[key] = value


@dataclass(frozen=True, slots=True)
class Judged:
    """The judgement of one model-visible string.

    Attributes:
        field: JSON path of the string.
        raw: the string as the server sent it.
        findings: what it alone shows (disguises, signals, combinations, hidden orders).
        hits: signal hits in its visible text (for definition-wide combinations).
        own: what it asked of the definition's own names, with the answers (see
            :meth:`~mcpwall.inspection.domain.Own.agrees`); None when it asked nothing, so holds
            for any definition.
    """

    field: str
    raw: str
    findings: tuple[Finding, ...]
    hits: tuple[Hit, ...]
    own: tuple[Question, ...] | None = None


@dataclass(frozen=True, slots=True)
class Part:
    """The judged strings of one top-level value of a definition, in walk order."""

    strings: tuple[Judged, ...]
    findings: tuple[Finding, ...]
    hits: tuple[Hit, ...]
    own_free: bool
    """No string in it depends on the definition's own names."""
    weighed: tuple[float, int] = (0.0, 0)
    """Its strings' weight under the learned model (:mod:`learned`), summed."""

    @classmethod
    def of(cls, strings: list[Judged], weighed: tuple[float, int] = (0.0, 0)) -> Part:
        """Gather the strings' findings and hits in order."""
        findings = tuple(f for judged in strings for f in judged.findings)
        hits = tuple(h for judged in strings for h in judged.hits)
        return cls(tuple(strings), findings, hits, all(judged.own is None for judged in strings), weighed)


class Recall:
    """Everything the detector remembers under one rule set.

    Args:
        rules: the compiled rules.
    """

    def __init__(self, rules: tuple[Rule, ...]) -> None:
        self.rules = rules
        self.prefilter = Prefilter(rules)
        self.matches: Memo[str, Matches] = Memo()
        self.normalized: Memo[str, NormalizedText] = Memo()
        self.strings: Memo[tuple[str, str], Judged] = Memo()
        self.parts: Memo[tuple[str, bytes], Part] = Memo()
        self.weighed: Memo[str, tuple[float, int]] = Memo()
        self.parameters: Memo[bytes, frozenset[str]] = Memo()

    def clear(self) -> None:
        """Forget every remembered text, string and part (the prefilter's tables stay)."""
        self.prefilter.clear()
        self.matches.clear()
        self.normalized.clear()
        self.strings.clear()
        self.parts.clear()
        self.weighed.clear()
        self.parameters.clear()


_RECALLS: dict[int, Recall] = {}
_LOCK = threading.Lock()


def recall_for(rules: tuple[Rule, ...]) -> Recall:
    """The memory of one rule set, built on first use (the rule set's identity is the key)."""
    found = _RECALLS.get(id(rules))
    if found is not None and found.rules is rules:
        return found
    with _LOCK:
        found = _RECALLS.get(id(rules))
        if found is None or found.rules is not rules:
            if len(_RECALLS) >= MAX_RULE_SETS:
                _RECALLS.clear()
            found = _RECALLS[id(rules)] = Recall(rules)
        return found


def forget() -> None:
    """Drop every memo of every rule set: the next definition is inspected as at first sight."""
    for recall in list(_RECALLS.values()):
        recall.clear()
