"""Violation values and the table of their types."""

from __future__ import annotations

import dataclasses

import pytest

from mcpwall.armor import violations
from mcpwall.armor.violations import GENERIC_MESSAGE, VIOLATION_TYPES, Violation, ViolationType, violation

EXPECTED_TYPES = {
    "ToolNotAllowed",
    "ToolExplicitlyDenied",
    "RateLimitExceeded",
    "PathOutsideBoundary",
    "PathTraversalAttempt",
    "NetworkNotAllowed",
    "DomainNotAllowed",
    "CommandNotAllowed",
    "SubcommandNotAllowed",
    "OutputSizeLimitExceeded",
    "SecretInArguments",
}


def test_table_lists_every_violation_type() -> None:
    assert set(VIOLATION_TYPES) == EXPECTED_TYPES == {str(kind) for kind in ViolationType}


@pytest.mark.parametrize("kind", sorted(EXPECTED_TYPES))
def test_module_docstring_documents_every_type(kind: str) -> None:
    assert violations.__doc__ is not None
    assert kind in violations.__doc__


def test_violation_keeps_the_reason_for_the_operator_and_a_generic_message_for_the_model() -> None:
    found = violation(ViolationType.PATH_OUTSIDE_BOUNDARY, "path '/etc' is outside ['/data']", path="/etc")
    assert found == Violation(
        "PathOutsideBoundary", GENERIC_MESSAGE, "path '/etc' is outside ['/data']", {"path": "/etc"}
    )
    assert "/data" not in found.message


def test_violation_is_immutable() -> None:
    found = violation(ViolationType.COMMAND_NOT_ALLOWED, "x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        found.reason = "y"  # type: ignore[misc]
