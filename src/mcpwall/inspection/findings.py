"""Finding values: what the inspection package reports about one definition.

A :class:`Finding` is an immutable value naming the rule behind it, the mechanism category,
a :class:`Severity`, the JSON path of the model-visible field that carried it, and the matched
text with its surroundings (already passed through ``make_visible`` so that no raw escape or
invisible character ever reaches a console or a client).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Severity(IntEnum):
    """How bad a finding is; the integer order is the severity order."""

    LOW = 1
    MEDIUM = 2
    HIGH = 3
    CRITICAL = 4

    @classmethod
    def parse(cls, name: str) -> Severity:
        """Read a severity from its lower-case name.

        Args:
            name: ``low``, ``medium``, ``high`` or ``critical`` (any case).

        Raises:
            ValueError: the name is not a severity.
        """
        try:
            return cls[name.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {name!r}") from None

    @property
    def label(self) -> str:
        """The lower-case name used in catalogs and JSON reports."""
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class Finding:
    """One suspicious thing found in one model-visible field.

    Attributes:
        rule: stable rule id (e.g. ``combo.credential_theft`` or ``signal.concealment``).
        category: the mechanism (``credential_theft``, ``tool_shadowing``, ``disguised_text``...).
        severity: how bad it is.
        field: JSON path of the field, e.g. ``inputSchema.properties.path.description``.
        matched: the matched text, made visible.
        position: character offset of the match in the normalized field text.
        context: the text around the match, made visible.
        description: what the rule means, for the operator.
    """

    rule: str
    category: str
    severity: Severity
    field: str
    matched: str
    position: int
    context: str
    description: str = ""

    @classmethod
    def from_json(cls, data: object) -> Finding:
        """A finding from its `to_json` form.

        Raises:
            ValueError: when ``data`` is not such a form.
        """
        if not isinstance(data, dict):
            raise ValueError("a finding is a JSON object")
        try:
            return cls(
                rule=_text(data["rule"]),
                category=_text(data["category"]),
                severity=Severity.parse(_text(data["severity"])),
                field=_text(data["field"]),
                matched=_text(data["matched"]),
                position=int(data["position"]),
                context=_text(data["context"]),
                description=_text(data.get("description", "")),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a finding: {exc}") from exc

    def to_json(self) -> dict[str, object]:
        """The finding as a JSON-ready dict (severity by name)."""
        return {
            "rule": self.rule,
            "category": self.category,
            "severity": self.severity.label,
            "field": self.field,
            "matched": self.matched,
            "position": self.position,
            "context": self.context,
            "description": self.description,
        }


def max_severity(findings: list[Finding]) -> Severity | None:
    """The highest severity among findings, or None when there are none."""
    return max((f.severity for f in findings), default=None)


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected text, got {type(value).__name__}")
    return value
