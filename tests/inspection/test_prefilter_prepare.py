"""Decoding the prefilter's longest requirement lists ahead of need (in the warm-up thread) only
moves work: the rules chosen for every text stay exactly the same."""

from __future__ import annotations

import pytest

from mcpwall.inspection import Severity, inspect_definition, max_severity
from mcpwall.inspection.catalog import builtin_rules
from mcpwall.inspection.memo import recall_for
from mcpwall.inspection.prefilter import PREPARED_SIZE, Prefilter
from mcpwall.inspection.requirements import Table, parse_table, requirements, table_path
from mcpwall.inspection.review import prepare_detector, rehearsal

from .test_prefilter import DISGUISED, PROBES, _texts


def test_prepare_decodes_the_long_lists_and_no_other() -> None:
    rules = builtin_rules()
    needs = requirements(rules)
    prefilter = Prefilter(rules, needs)
    prefilter.prepare()

    long = {index for index in prefilter._keys if needs.size(index) >= PREPARED_SIZE}
    assert long
    assert set(prefilter._alternatives) == long


def test_a_prepared_prefilter_chooses_exactly_the_rules_a_fresh_one_chooses() -> None:
    rules = builtin_rules()
    prepared = Prefilter(rules)
    prepared.prepare()
    everything = Prefilter(rules)
    everything.prepare(at_least=0)
    for tool in PROBES + DISGUISED:
        for text in _texts(tool):
            fresh = Prefilter(rules).candidates(text)
            assert prepared.candidates(text) == fresh, text
            assert everything.candidates(text) == fresh, text


@pytest.mark.parametrize("at_least", [PREPARED_SIZE, 0])
def test_a_damaged_list_is_left_for_candidates_which_then_run_every_rule(at_least: int) -> None:
    rules = builtin_rules()
    table = parse_table(table_path().read_bytes())
    word = max(range(len(table.keyed)), key=lambda index: len(table.keyed[index]))  # prepared first
    keyed = list(table.keyed)
    keyed[word] = f"0 {len(table.literals) + 5}"
    damaged = Table(table.catalog, table.specs, table.keys, table.always, table.literals, tuple(keyed))
    prefilter = Prefilter(rules, requirements(rules, damaged))

    prefilter.prepare(at_least)  # does not raise

    assert word not in prefilter._alternatives
    text = f"Nothing but {table.literals[word].strip(chr(0xA7))} here."
    assert prefilter.candidates(text) == rules
    assert prefilter.candidates("Nothing at all.") == rules


def test_prepare_detector_fills_the_rule_sets_own_prefilter() -> None:
    rules = builtin_rules()
    prepare_detector(rules)

    prefilter = recall_for(rules).prefilter
    assert {index for index in prefilter._keys if prefilter._needs.size(index) >= PREPARED_SIZE} <= set(
        prefilter._alternatives
    )


def test_decoded_lists_hold_the_indices_written() -> None:
    rules = builtin_rules()
    table = parse_table(table_path().read_bytes())
    needs = requirements(rules, table)
    for index, encoded in enumerate(table.keyed):
        written = [tuple(map(int, alternative.split(" "))) for alternative in encoded.split(";")] if encoded else []
        decoded = needs.keyed(index)
        assert len(decoded) == len(written), index
        assert {term for _, term in decoded} == {(index, *rest) for _, *rest in written}, index


@pytest.mark.parametrize("written", ["0  1", "0 007", "0 -1", "0 1;"])
def test_a_list_not_written_as_tables_are_is_malformed(written: str) -> None:
    rules = builtin_rules()
    table = parse_table(table_path().read_bytes())
    word = table.literals.index("\u00a7ignore\u00a7")
    keyed = list(table.keyed)
    keyed[word] = written
    damaged = Table(table.catalog, table.specs, table.keys, table.always, table.literals, tuple(keyed))

    with pytest.raises(ValueError, match="points past"):
        requirements(rules, damaged).keyed(word)
    assert Prefilter(rules, requirements(rules, damaged)).candidates("Please ignore it.") == rules


def test_the_rehearsal_definitions_are_ordinary_tools_of_many_shapes() -> None:
    tools = rehearsal()
    assert len(tools) >= 20
    assert len({tool["name"] for tool in tools}) == len(tools)
    assert any("outputSchema" in tool for tool in tools)
    assert any("annotations" in tool for tool in tools)
    flagged = {t["name"]: max_severity(inspect_definition("tool", t)) for t in tools}
    assert all(level is None or level < Severity.MEDIUM for level in flagged.values()), flagged
