"""Command risk: how dangerous a shell-like argument is, and whether its effect can be undone.

``classify_command`` takes a command line (or an argv array) apart with
:mod:`mcpwall.gatekeeper.command_parse`, judges every simple command with the program rules of
:mod:`mcpwall.gatekeeper.command_rules`, follows commands nested in others (``sh -c``,
``eval``, ``ssh host …``, ``find -exec``, substitutions), and keeps the worst: the risk is the
maximum over all parts, and the command is irreversible when any part is.

An argv array is judged twice, as given and joined into one line, because some tools pass
their argv to a shell: ``["echo", "x; rm -rf /"]`` must not look harmless.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from mcpwall.gatekeeper import command_rules
from mcpwall.gatekeeper.command_parse import Segment, nested_commands, parse_command, program_name, unwrap


class RiskLevel(IntEnum):
    """How much harm a command can do; ordered, so the worst part of a command wins."""

    LOW = 0
    MEDIUM = 1
    HIGH = 2

    def __str__(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class CommandRisk:
    """The verdict on one command.

    Attributes:
        risk: low, medium or high.
        irreversible: some part of it cannot be undone (deletion, overwrite, force push…).
        reasons: why, one short phrase per finding, for the operator.
    """

    risk: RiskLevel = RiskLevel.LOW
    irreversible: bool = False
    reasons: tuple[str, ...] = ()

    @property
    def high_and_irreversible(self) -> bool:
        """High risk and irreversible: the combination that pins a call to a confirmation."""
        return self.risk is RiskLevel.HIGH and self.irreversible

    def merge(self, other: CommandRisk) -> CommandRisk:
        """The worse of two verdicts, with the reasons of both (without repeats)."""
        reasons = tuple(dict.fromkeys(self.reasons + other.reasons))
        return CommandRisk(max(self.risk, other.risk), self.irreversible or other.irreversible, reasons)

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form for the audit trail and ``policy explain``."""
        return {"risk": str(self.risk), "irreversible": self.irreversible, "reasons": list(self.reasons)}


_MAX_PARTS = 256
"""Parts (lines, substitutions, nested commands) judged per command; beyond that it is HIGH."""
_MAX_CHARS = 65_536
"""Characters parsed per command, nested parts included; beyond that it is HIGH. Keeps the
cost of a hostile argument (deep nesting re-parses the same text) bounded."""
_TOO_COMPLEX = CommandRisk(RiskLevel.HIGH, True, ("too large or too deeply nested to assess",))

_Work = str | tuple[str, ...]


def _judge(findings: list[command_rules.Finding]) -> CommandRisk:
    """Turn the rules' findings into a CommandRisk (no findings: low)."""
    risk = CommandRisk()
    for level, irreversible, reason in findings:
        risk = risk.merge(CommandRisk(RiskLevel[level.upper()], irreversible, (reason,)))
    return risk


def _assess_segment(segment: Segment) -> tuple[CommandRisk, list[_Work]]:
    """Judge one simple command; return its risk and the commands nested in it."""
    argv, wrappers = unwrap(segment.argv)
    risk = _judge(command_rules.wrapper_findings(wrappers))
    risk = risk.merge(_judge(command_rules.redirect_findings(segment.writes)))
    if not argv:
        return risk, []
    if any(space in argv[0] for space in " \t"):
        return risk, [" ".join(argv)]  # a whole command passed as one word (env -S, quoting)
    name = program_name(argv[0])
    risk = risk.merge(_judge(command_rules.program_findings(name, argv, segment.piped)))
    return risk, nested_commands(name, argv)


def _assess_text(text: str) -> tuple[CommandRisk, list[_Work]]:
    """Judge a command line as a whole; return its risk and its parts to judge next."""
    parsed = parse_command(text)
    risk = _judge(command_rules.text_findings(text, parse_error=parsed.parse_error))
    work: list[_Work] = list(parsed.substitutions)
    for segment in parsed.segments:
        found, nested = _assess_segment(segment)
        risk = risk.merge(found)
        work.extend(nested)
    return risk, work


def classify_command(command: str | Sequence[str]) -> CommandRisk:
    """Judge a shell-like argument.

    Args:
        command: a command line, or an argv array.

    Returns:
        The worst risk found in any part of it, irreversible when any part is.
    """
    work: list[_Work] = [command] if isinstance(command, str) else [tuple(command), " ".join(command)]
    risk = CommandRisk()
    budget = _MAX_CHARS
    for _ in range(_MAX_PARTS):
        if not work:
            return risk
        item = work.pop()
        budget -= len(item) if isinstance(item, str) else sum(map(len, item))
        if budget < 0:
            break
        found, nested = _assess_text(item) if isinstance(item, str) else _assess_segment(Segment(item))
        risk = risk.merge(found)
        work.extend(nested)
    return risk if not work and budget >= 0 else risk.merge(_TOO_COMPLEX)
