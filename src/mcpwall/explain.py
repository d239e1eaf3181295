"""Explaining a hypothetical tools/call: what every check would say, without any server.

``mcpwall policy explain`` builds the checks a session would get from the configuration (the
same `default_checks`, tool lists and armor ceiling as `mcpwall.assembly.session_policy`), a
`Context` in which the tool is known, and runs *every* check on the call: unlike the gateway's
`Pipeline`, it does not stop at the first DENY, so the operator sees all the reasons at once.
Each check runs through a one-check `Pipeline`, so a check that raises is a ``check-error``
DENY exactly as in the gateway.

What is simulated and what is not:

- the tool is taken as listed, pinned and not blocked by inspection (a synthetic `Review`);
  its definition (annotations, input schema) is empty unless one is given;
- the session's danger-zone budget is fresh (nothing spent, not locked);
- rate limits are not simulated: they depend on the calls already made;
- approvals are not simulated: the level says whether one would be needed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcpwall.assembly import session_checks
from mcpwall.config.models import Config, ServerSpec
from mcpwall.errors import ConfigError
from mcpwall.gatekeeper.check import CLASSIFICATION, GatekeeperCheck
from mcpwall.gatekeeper.profiles import active_profiles, validate_profiles
from mcpwall.inspection.pins import definition_hash
from mcpwall.inspection.review import Review
from mcpwall.mcp import SessionFacts, ToolCall
from mcpwall.pipeline import Check, Context, Decision, PermissionLevel, Pipeline, Verdict

EXPLAIN_SESSION = "policy-explain"
"""The session id the synthetic context carries."""

RATE_LIMITS_NOTE = "not simulated (they depend on the calls a session has already made)"
"""What the explanation says about rate limits."""


@dataclass(frozen=True, slots=True)
class CheckOutcome:
    """What one check said about the call.

    Attributes:
        check: the check's name.
        verdict: its verdict, or None when it had no objection.
    """

    check: str
    verdict: Verdict | None

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form; ``level`` is None when the check had no objection."""
        verdict = self.verdict
        if verdict is None:
            return {"check": self.check, "level": None, "rule": None, "reason": "no objection", "violation": None}
        detail = {key: value for key, value in verdict.detail.items() if key != CLASSIFICATION}
        return {
            "check": self.check,
            "level": verdict.level.name,
            "rule": verdict.rule,
            "reason": verdict.reason,
            "violation": verdict.violation,
            "detail": detail,
        }


@dataclass(frozen=True, slots=True)
class Explanation:
    """Every check's outcome for one hypothetical call, and the level they combine to.

    Attributes:
        server: the server name the call was explained for.
        tool: the tool called.
        arguments: the call's arguments.
        settings: where the settings came from (``servers.NAME`` or ``top-level``).
        profiles: the active profiles' names.
        outcomes: each check's outcome, in pipeline order.
    """

    server: str
    tool: str
    arguments: Mapping[str, Any]
    settings: str
    profiles: tuple[str, ...]
    outcomes: tuple[CheckOutcome, ...] = field(default_factory=tuple)

    @property
    def decision(self) -> Decision:
        """The strictest of every verdict (what the gateway would decide, before rate limits)."""
        return Decision.combine([o.verdict for o in self.outcomes if o.verdict is not None])

    @property
    def level(self) -> PermissionLevel:
        """The final level."""
        return self.decision.level

    @property
    def resolution(self) -> Mapping[str, object] | None:
        """The gatekeeper's resolution (``Resolution.to_dict()``), when it resolved the call."""
        outcome = next((o for o in self.outcomes if o.check == GatekeeperCheck.name), None)
        if outcome is None or outcome.verdict is None or "kind" not in outcome.verdict.detail:
            return None
        return outcome.verdict.detail

    @property
    def violations(self) -> list[dict[str, object]]:
        """Every violation: the armor's argument violations, and every other refusal's type."""
        found: list[dict[str, object]] = []
        for outcome in self.outcomes:
            verdict = outcome.verdict
            listed = verdict.detail.get("violations") if verdict is not None else None
            if isinstance(listed, list):
                found += [{"check": outcome.check, **item} for item in listed if isinstance(item, dict)]
            elif verdict is not None and verdict.violation is not None:
                found.append({"check": outcome.check, "type": verdict.violation, "reason": verdict.reason})
        return found

    def to_dict(self) -> dict[str, object]:
        """The JSON form ``mcpwall policy explain --json`` prints."""
        resolution = self.resolution
        decisive = self.decision.decisive
        return {
            "operation": f"{self.server}/{self.tool}",
            "arguments": dict(self.arguments),
            "settings": self.settings,
            "profiles": list(self.profiles),
            "level": self.level.name,
            "decided_by": None if decisive is None else {"check": decisive.check, "rule": decisive.rule},
            "kind": None if resolution is None else resolution["kind"],
            "verdicts": [outcome.to_dict() for outcome in self.outcomes],
            "violations": self.violations,
            "rate_limits": RATE_LIMITS_NOTE,
        }


def explanation_checks(config: Config, server: str) -> tuple[list[Check], str]:
    """The checks a session with ``server`` would run, and where their settings came from.

    Args:
        config: the configuration.
        server: the server's name; ``servers.NAME`` applies when present, else the top level.

    Returns:
        The checks in pipeline order, and ``servers.NAME`` or ``top-level``.
    """
    spec = config.servers.get(server)
    source = f"servers.{server}" if spec is not None else "top-level"
    return session_checks(config, spec or ServerSpec()), source


def explain_call(
    config: Config,
    server: str,
    tool: str,
    arguments: Mapping[str, Any],
    profiles: Sequence[str] = (),
    definition: Mapping[str, Any] | None = None,
) -> Explanation:
    """Run every check on a hypothetical call, without stopping at the first DENY.

    Args:
        config: the configuration.
        server: the server's name in the configuration (its identity for the gatekeeper).
        tool: the tool called.
        arguments: the call's arguments.
        profiles: profiles to activate; empty means the config's ``gatekeeper.default_profiles``.
        definition: the tool's definition (annotations, inputSchema), or None for an empty one.

    Returns:
        The explanation.

    Raises:
        ConfigError: when a profile is unknown or the gatekeeper settings are inconsistent.
    """
    names = list(profiles) or config.gatekeeper.default_profiles
    problems = validate_profiles(config.gatekeeper, names)
    if problems:
        raise ConfigError("; ".join(problems), path="gatekeeper.profiles")
    checks, source = explanation_checks(config, server)
    tool_definition: dict[str, Any] = {**(definition or {}), "name": tool}
    review = Review(tool, definition_hash(tool_definition), "unchanged", None, blocked=False)
    ctx = Context(
        server=server,
        session_id=EXPLAIN_SESSION,
        facts=SessionFacts(),
        tools={tool: tool_definition},
        reviews={tool: review},
        profiles=tuple(active_profiles(config.gatekeeper, names)),
    )
    call = ToolCall(request_id=0, name=tool, arguments=dict(arguments))
    outcomes = tuple(CheckOutcome(check.name, _verdict(check, call, ctx)) for check in checks)
    return Explanation(server, tool, arguments, source, tuple(names), outcomes)


def _verdict(check: Check, call: ToolCall, ctx: Context) -> Verdict | None:
    """One check's verdict, through the pipeline's runner: a check that raises is a DENY."""
    decision = Pipeline([check]).decide_call(call, ctx)
    return decision.verdicts[0] if decision.verdicts else None
