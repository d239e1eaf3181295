"""Inspection settings: thresholds, what a changed definition does, custom rules."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from mcpwall.inspection.catalog import RuleSpec
from mcpwall.inspection.findings import Severity

SeverityName = Literal["low", "medium", "high", "critical"]


class CustomRule(BaseModel):
    """A rule of the operator's own, matched like the built-in catalog's."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    """Stable id, reported in findings."""
    pattern: str
    """A Python regular expression; bounded repetition only."""
    severity: SeverityName = "high"
    """Severity of a match."""
    description: str = ""
    """What a match means, for the operator."""
    category: str = "custom"
    """Category reported in findings."""

    def spec(self) -> RuleSpec:
        """The catalog form of this rule."""
        return RuleSpec(
            id=self.id,
            category=self.category,
            severity=Severity.parse(self.severity),
            pattern=self.pattern,
            description=self.description,
        )


class InspectionSettings(BaseModel):
    """What is done with what servers show the model."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    alert_threshold: SeverityName = "high"
    """Findings at or above this severity are recorded as alerts (``mcp_detection``)."""
    block_threshold: SeverityName = "critical"
    """A tool with a finding at or above this severity is hidden and its calls refused until a
    human approves it."""
    on_change: Literal["block", "alert"] = "block"
    """A definition that changed since it was pinned (a rug pull): hidden and refused until a
    human approves it (``block``), or only recorded (``alert``)."""
    pin_on_first_use: bool = True
    """New tools on a server already known are pinned and allowed at first sight; with
    ``false`` they wait for a human's approval like a changed definition."""
    custom_rules: list[CustomRule] = Field(default_factory=list)
    """Rules of your own, added to the built-in catalog."""
    learned_model: bool = True
    """Also judge each tool definition with the learned model (``model.poisoning_likelihood``,
    high); ``false`` leaves the rules alone."""
    on_name_collision: Literal["alert", "block"] = "alert"
    """A tool whose name another server already lists (pinned in the shared registry), so the
    model may call the wrong one: recorded (``tool_name_collision``, ``alert``), or also hidden
    and refused on the server that listed it later (``block``) until one of them is renamed or
    denied by the tool lists."""
    on_lookalike_name: Literal["alert", "block"] = "block"
    """A tool whose name differs from one another server already lists only in letters that
    look alike (``read_fiIe`` beside ``read_file``; see `mcpwall.collisions`): hidden and refused
    on the server that listed it later, and recorded (``tool_name_lookalike``), by default
    (``block``); ``alert`` only records it."""

    @property
    def alert_at(self) -> Severity:
        return Severity.parse(self.alert_threshold)

    @property
    def block_at(self) -> Severity:
        return Severity.parse(self.block_threshold)
