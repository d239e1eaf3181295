"""Combination scoring: weak signals close together make a strong finding.

Signal regexes live in the catalog; what makes a definition *malicious* lives in the table of
:mod:`combos`. A combo is a list of groups of alternative signals; it fires when one hit of each
group (distinct hits, distinct words) lies within the window of the first. For example a
secret file next to a directive is credential theft; a data flow next to an external sink and
a directive is exfiltration; a reference to another tool next to a forced value and a directive
is shadowing. Benign descriptions say "must" and mention files: single weak signals stay low.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mcpwall.inspection.combos import COMBOS, ORDERS, Combo

STANCES: Final = ORDERS | {"preauth", "bypass", "unasked"}
"""Signals that read how a text addresses the model (an order, a claim of consent, a skipped
confirmation), rather than naming a thing: one phrase is one stance, however many rules read it."""


@dataclass(frozen=True, slots=True)
class Hit:
    """One signal match in one text.

    Attributes:
        signal: mechanism name (from the rule).
        rule: the rule id.
        start: match start in the text.
        end: match end in the text.
        field: JSON path of the field the text came from.
        text: the matched text.
    """

    signal: str
    rule: str
    start: int
    end: int
    field: str = ""
    text: str = ""


def _reused(hit: Hit, used: tuple[Hit, ...]) -> bool:
    """A hit already chosen, or the same words again: a repeated phrase is one signal, and so is
    one phrase that two rules both read as a stance towards the model (``a Global Policy domain``
    is not a standing rule *and* a claim of authority, ``pre-approved`` not consent *and* a
    bypass). A phrase may still name a thing and be read as a stance: ``each time write_file
    runs`` names another tool and the trigger of its calls."""
    return any(hit == u or _same_words(hit, u) for u in used)


def _same_words(hit: Hit, other: Hit) -> bool:
    if hit.signal == other.signal and hit.text.lower() == other.text.lower():
        return True
    same_span = hit.field == other.field and hit.start == other.start and hit.end == other.end
    return same_span and hit.signal in STANCES and other.signal in STANCES


def _pick(combo: Combo, depth: int, hits: list[Hit], used: tuple[Hit, ...]) -> tuple[Hit, ...] | None:
    if depth == len(combo.groups):
        return used
    anchor = used[0]
    for hit in hits:
        near = combo.window is None or abs(hit.start - anchor.start) <= combo.window
        if near and hit.signal in combo.groups[depth] and not _reused(hit, used):
            chosen = _pick(combo, depth + 1, hits, (*used, hit))
            if chosen is not None:
                return chosen
    return None


def match_combo(combo: Combo, hits: list[Hit]) -> tuple[Hit, ...] | None:
    """The hits that satisfy a combo (distinct, within the window of the first), or None.

    Args:
        combo: the combination to test.
        hits: every signal hit of one text.
    """
    for anchor in hits:
        if anchor.signal in combo.groups[0]:
            chosen = _pick(combo, 1, hits, (anchor,))
            if chosen is not None:
                return chosen
    return None


def _by_first_signal(combos: tuple[Combo, ...]) -> dict[str, tuple[int, ...]]:
    """Per signal, the positions of the combos whose first group holds it (a combo can fire only
    when one of its first group's signals is present)."""
    index: dict[str, list[int]] = {}
    for position, combo in enumerate(combos):
        for signal in combo.groups[0]:
            index.setdefault(signal, []).append(position)
    return {signal: tuple(positions) for signal, positions in index.items()}


_BY_FIRST_SIGNAL: Final = _by_first_signal(COMBOS)


def fired(hits: list[Hit], *, whole_definition: bool = False) -> list[tuple[Combo, tuple[Hit, ...]]]:
    """Every combo that the hits satisfy, with the hits behind it, in table order.

    Args:
        hits: the hits of one field (windowed combos), or of every field of a definition.
        whole_definition: test the combos without a window (over all fields) instead.
    """
    result: list[tuple[Combo, tuple[Hit, ...]]] = []
    present = {hit.signal for hit in hits}
    possible = {position for signal in present for position in _BY_FIRST_SIGNAL.get(signal, ())}
    for combo in (COMBOS[position] for position in sorted(possible)):
        if (combo.window is None) != whole_definition or not all(present & group for group in combo.groups):
            continue
        chosen = match_combo(combo, hits)
        if chosen is not None:
            result.append((combo, chosen))
    return result
