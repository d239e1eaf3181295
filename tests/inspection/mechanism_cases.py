"""The harness of the mechanism test modules (``test_mechanisms_*.py``): each module lists, per
attack mechanism, its own paraphrased attacks (all must reach high) and benign look-alikes (all
must stay below high), and gets its three tests from `mechanism_tests`.

Look-alikes and known gaps test the rules alone: they were written against the rules' mechanisms.
How often the learned model flags the look-alikes, and which known gaps it catches, is measured
over all modules at once in ``test_learned.py``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mcpwall.inspection import Severity, inspect_definition, max_severity

Tool = dict[str, object]
Cases = dict[str, list[Tool]]


def tool(description: str, properties: dict[str, object] | None = None, name: str = "probe") -> Tool:
    """A tool definition with this description (and parameters)."""
    return {"name": name, "description": description, "inputSchema": {"type": "object", "properties": properties or {}}}


def with_default(name: str, parameter: str, value: object, kind: str = "string") -> Tool:
    """A tool named ``name`` whose only parameter defaults to ``value``."""
    return tool("Does its job.", {parameter: {"type": kind, "default": value}}, name=name)


def param(name: str, **schema: object) -> Tool:
    """A tool whose only text of interest is one parameter's schema."""
    return tool("Does its job.", {name: {"type": "string", **schema}}, name="helper")


def worst(definition: Tool, *, learned: bool = True) -> Severity | None:
    """The highest severity the detector finds in a tool definition (``learned=False``: the
    rules alone, without the learned model)."""
    return max_severity(inspect_definition("tool", definition, learned=learned))


def mechanism_tests(attacks: Cases, look_alikes: Cases) -> tuple[Callable[..., None], ...]:
    """The three tests of a mechanism module: attacks reach high, look-alikes stay below, and
    every mechanism has at least 3 attacks and 2 look-alikes."""
    attack_cases = [(mechanism, t) for mechanism, tools in attacks.items() for t in tools]
    benign_cases = [(mechanism, t) for mechanism, tools in look_alikes.items() for t in tools]

    @pytest.mark.parametrize(
        ("mechanism", "tool"), attack_cases, ids=[f"{m}-{i}" for i, (m, _) in enumerate(attack_cases)]
    )
    def test_each_phrasing_of_the_mechanism_reaches_high(mechanism: str, tool: Tool) -> None:
        found = worst(tool)
        assert found is not None, mechanism
        assert found >= Severity.HIGH, mechanism

    @pytest.mark.parametrize(
        ("mechanism", "tool"), benign_cases, ids=[f"{m}-{i}" for i, (m, _) in enumerate(benign_cases)]
    )
    def test_benign_look_alike_stays_below_high(mechanism: str, tool: Tool) -> None:
        found = worst(tool, learned=False)
        assert found is None or found < Severity.HIGH, mechanism

    def test_every_mechanism_has_attacks_and_look_alikes() -> None:
        assert set(attacks) == set(look_alikes)
        assert all(len(tools) >= 3 for tools in attacks.values())
        assert all(len(tools) >= 2 for tools in look_alikes.values())

    return (
        test_each_phrasing_of_the_mechanism_reaches_high,
        test_benign_look_alike_stays_below_high,
        test_every_mechanism_has_attacks_and_look_alikes,
    )


def rules_alone_test(attacks: Cases) -> Callable[..., None]:
    """A test that the rules alone, without the learned model, bring every attack to high."""

    @pytest.mark.parametrize("definition", [t for tools in attacks.values() for t in tools])
    def test_the_rules_alone_catch_each_attack(definition: Tool) -> None:
        assert is_high(definition)

    return test_the_rules_alone_catch_each_attack


def is_high(definition: Tool) -> bool:
    """Whether the rules alone bring the definition to high or above."""
    return (worst(definition, learned=False) or Severity.LOW) >= Severity.HIGH


def known_gaps_test(tools: list[Tool], reason: str) -> Callable[..., None]:
    """A strict xfail test over attacks the rules are known to miss: it fails the day one is
    caught, so the gap is moved into the mechanism's attacks instead of silently closing."""

    @pytest.mark.xfail(reason=reason, strict=True)
    @pytest.mark.parametrize("tool", tools)
    def test_known_gaps(tool: Tool) -> None:
        found = worst(tool, learned=False)
        assert found is not None
        assert found >= Severity.HIGH

    return test_known_gaps
