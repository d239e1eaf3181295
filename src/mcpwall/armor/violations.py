"""Violations: what an armor rule says about one tool call, as a value.

A violation is never raised. Every armor function returns ``Violation | None`` (or a list), and
the pipeline turns violations into verdicts. Each violation carries two texts:

- ``message``: a short, generic text the model may see. It names no rule, no allowed value and
  no way around the rule, so it cannot coach the model into rephrasing the call
  (mcp-context-protector #27).
- ``reason``: the full explanation, for the operator and the audit trail only.

Violation types
===============

=========================  ==============================================================
type                       meaning
=========================  ==============================================================
ToolNotAllowed             the tool is not on the profile's allowlist
ToolExplicitlyDenied       the tool is on the profile's denylist
RateLimitExceeded          a per-session or per-tool rate window is exhausted
PathOutsideBoundary        a path argument resolves (symlinks included) outside every root
PathTraversalAttempt       a path argument has a ``..`` component (in any encoding), a NUL
                           or control character, or cannot be decoded unambiguously
NetworkNotAllowed          network access is off, or the address is private, loopback,
                           link-local, multicast, reserved or otherwise not public
DomainNotAllowed           the host is not on the domain allowlist, or the URL is ambiguous
                           (userinfo, malformed host, confusable or mixed-script name)
CommandNotAllowed          the base command is not allowed, or the command line uses shell
                           metacharacters or an interpreter wrapper (``sh -c``)
SubcommandNotAllowed       the command's first positional argument is not allowed
OutputSizeLimitExceeded    a tool result is larger than the limit and the mode is refuse
SecretInArguments          the arguments carry a credential (private key, cloud key, token,
                           password in a URL, secret assignment, seed phrase; also encoded)
=========================  ==============================================================

The same table is :data:`VIOLATION_TYPES`, so tooling can list it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

GENERIC_MESSAGE = "Blocked by mcpwall policy."
"""What the model reads for every refused call (rate limits and oversize results excepted)."""


class ViolationType(StrEnum):
    """The violation types; each value is the type's wire name."""

    TOOL_NOT_ALLOWED = "ToolNotAllowed"
    TOOL_EXPLICITLY_DENIED = "ToolExplicitlyDenied"
    RATE_LIMIT_EXCEEDED = "RateLimitExceeded"
    PATH_OUTSIDE_BOUNDARY = "PathOutsideBoundary"
    PATH_TRAVERSAL_ATTEMPT = "PathTraversalAttempt"
    NETWORK_NOT_ALLOWED = "NetworkNotAllowed"
    DOMAIN_NOT_ALLOWED = "DomainNotAllowed"
    COMMAND_NOT_ALLOWED = "CommandNotAllowed"
    SUBCOMMAND_NOT_ALLOWED = "SubcommandNotAllowed"
    OUTPUT_SIZE_LIMIT_EXCEEDED = "OutputSizeLimitExceeded"
    SECRET_IN_ARGUMENTS = "SecretInArguments"  # noqa: S105 -- a violation name, not a secret


VIOLATION_TYPES: Mapping[str, str] = MappingProxyType(
    {
        ViolationType.TOOL_NOT_ALLOWED: "the tool is not on the profile's allowlist",
        ViolationType.TOOL_EXPLICITLY_DENIED: "the tool is on the profile's denylist",
        ViolationType.RATE_LIMIT_EXCEEDED: "a per-session or per-tool rate window is exhausted",
        ViolationType.PATH_OUTSIDE_BOUNDARY: "a path resolves outside every allowed root",
        ViolationType.PATH_TRAVERSAL_ATTEMPT: "a path has a '..' component, a NUL or control character",
        ViolationType.NETWORK_NOT_ALLOWED: "network access is off, or the address is not public",
        ViolationType.DOMAIN_NOT_ALLOWED: "the host is not allowed, or the URL is ambiguous",
        ViolationType.COMMAND_NOT_ALLOWED: "command not allowed, shell metacharacters or wrappers",
        ViolationType.SUBCOMMAND_NOT_ALLOWED: "the command's subcommand is not allowed",
        ViolationType.OUTPUT_SIZE_LIMIT_EXCEEDED: "the tool result is larger than the limit",
        ViolationType.SECRET_IN_ARGUMENTS: "the arguments carry a credential (key, token, password, seed phrase)",
    }
)
"""Every violation type with a one-line description (the table in the module docstring)."""

_MODEL_MESSAGES: Mapping[str, str] = MappingProxyType(
    {
        # Telling the model that it is being throttled makes it back off instead of retrying;
        # it names no rule and no way around one.
        ViolationType.RATE_LIMIT_EXCEEDED: "Blocked by mcpwall policy: too many calls, try later.",
        ViolationType.OUTPUT_SIZE_LIMIT_EXCEEDED: "Result withheld by mcpwall policy: too large.",
    }
)


@dataclass(frozen=True, slots=True)
class Violation:
    """One rule's refusal of one value in one call.

    Attributes:
        type: a :class:`ViolationType` value, e.g. ``PathOutsideBoundary``.
        message: generic text the model may see; never coaches a way around the rule.
        reason: full text for the operator and the audit trail.
        detail: structured facts for the audit trail (argument location, offending value...).
    """

    type: str
    message: str
    reason: str
    detail: dict[str, object] = field(default_factory=dict)


def violation(kind: ViolationType, reason: str, **detail: object) -> Violation:
    """Build a violation of ``kind`` with the generic model message for that type.

    Args:
        kind: the violation type.
        reason: full text for the operator.
        **detail: structured facts for the audit trail.

    Returns:
        The violation.
    """
    message = _MODEL_MESSAGES.get(kind, GENERIC_MESSAGE)
    return Violation(type=str(kind), message=message, reason=reason, detail=dict(detail))
