"""Combinations need distinct words: one span read by two rules is one signal."""

from __future__ import annotations

from mcpwall.inspection.combos import COMBOS
from mcpwall.inspection.scoring import Hit, fired, match_combo

STANDING_ORDER = next(combo for combo in COMBOS if combo.id == "combo.standing_order")


def test_one_span_read_as_two_signals_does_not_fire_a_combination() -> None:
    span = [Hit("persistence", "persistence.session_rule", 40, 53, "description", "Global Policy")]
    span.append(Hit("authority", "authority.claim", 40, 53, "description", "Global Policy"))

    assert match_combo(STANDING_ORDER, span) is None
    assert fired(span) == []


def test_the_same_signals_on_distinct_words_fire_the_combination() -> None:
    hits = [
        Hit("persistence", "persistence.session_rule", 0, 13, "description", "Global policy"),
        Hit("authority", "authority.claim", 30, 48, "description", "overrides the user"),
    ]

    assert match_combo(STANDING_ORDER, hits) == tuple(hits)


def test_equal_offsets_in_two_fields_are_distinct_words() -> None:
    hits = [
        Hit("persistence", "persistence.session_rule", 0, 13, "description", "Global policy"),
        Hit("authority", "authority.claim", 0, 13, "inputSchema.properties.a.description", "System policy"),
    ]

    assert match_combo(STANDING_ORDER, hits) == tuple(hits)
