"""A verified agent: its subject, claims, the profiles they select, and its tool manifest.

:func:`resolve_agent` applies the ``agents`` mapping (see :class:`AgentMapping` for the
precedence) to a subject already verified by a bearer token or a signed envelope.
:func:`bound_manifest` bounds the agent's manifest by the gateway's ceiling.

Manifest semantics. A manifest is a list of globs over ``server/tool`` (``fnmatch``, ``*``
also crosses the ``/``), or None for "no restriction at this layer". The bounded manifest
permits an operation exactly when the agent's list permits it *and* the ceiling permits it:
the intersection of the two sets of operations. The intersection of two glob sets is not a
glob set in general, so :class:`ToolManifest` keeps both lists and tests each operation against
both; an agent can never widen the ceiling by listing more. Matching is exact (case-sensitive),
like a profile's ``allow``: a manifest grants, and a renamed tool gains no grant.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from types import MappingProxyType
from typing import Any

from mcpwall.identity.errors import IdentityError, IdentityFailure
from mcpwall.identity.settings import AgentGrant, AgentMapping


@dataclass(frozen=True)
class AgentIdentity:
    """Who the agent is and what its identity selects.

    Attributes:
        subject: the verified subject (``sub``, or the envelope key's registered subject).
        claims: the verified claims, read-only (empty without a bearer token).
        profiles: gatekeeper profiles to activate, in config order, without repeats.
        tools_manifest: the agent's own globs over ``server/tool`` (None: unrestricted under the
            ceiling); bound it with :func:`bound_manifest` before use.
        matched: the mapping entries that decided, e.g. ``by_claim.role[developer]``, for the
            audit trail and ``policy explain``.
    """

    subject: str
    claims: Mapping[str, Any]
    profiles: tuple[str, ...]
    tools_manifest: tuple[str, ...] | None
    matched: tuple[str, ...]


def resolve_agent(subject: str, claims: Mapping[str, Any], mapping: AgentMapping) -> AgentIdentity:
    """Select the profiles and tool manifest of a verified agent.

    Args:
        subject: the verified subject.
        claims: the verified claims (``{}`` for an envelope-only agent).
        mapping: the ``agents`` configuration.

    Raises:
        IdentityError: ``UNMAPPED_AGENT`` when no entry matches and no default is set.
    """
    grants = _matching_grants(subject, claims, mapping)
    if not grants:
        raise IdentityError(
            IdentityFailure.UNMAPPED_AGENT, f"subject {subject!r} matches no agents entry and no default is set"
        )
    profiles = tuple(dict.fromkeys(name for _, grant in grants for name in grant.profiles))
    return AgentIdentity(
        subject=subject,
        claims=MappingProxyType(dict(claims)),
        profiles=profiles,
        tools_manifest=_united_tools(grant for _, grant in grants),
        matched=tuple(source for source, _ in grants),
    )


def _matching_grants(subject: str, claims: Mapping[str, Any], mapping: AgentMapping) -> list[tuple[str, AgentGrant]]:
    if subject in mapping.by_subject:
        return [(f"by_subject[{subject}]", mapping.by_subject[subject])]
    grants = [
        (f"by_claim.{claim}[{value}]", by_value[value])
        for claim, by_value in mapping.by_claim.items()
        for value in _claim_values(claims.get(claim))
        if value in by_value
    ]
    if not grants and mapping.default is not None:
        grants.append(("default", mapping.default))
    return grants


def _claim_values(claim: object) -> list[str]:
    """The string values of a claim: a string, or the strings of a list; other types match nothing."""
    if isinstance(claim, str):
        return [claim]
    if isinstance(claim, list):
        return list(dict.fromkeys(item for item in claim if isinstance(item, str)))
    return []


def _united_tools(grants: Iterable[AgentGrant]) -> tuple[str, ...] | None:
    united: dict[str, None] = {}
    for grant in grants:
        if grant.tools is None:
            return None
        united.update(dict.fromkeys(grant.tools))
    return tuple(united)


@dataclass(frozen=True)
class ToolManifest:
    """The tools an agent may use: the intersection of its manifest and the gateway's ceiling.

    Attributes:
        agent: the agent's globs, or None (no restriction from the agent's side).
        ceiling: the gateway's globs, or None (no ceiling configured).
    """

    agent: tuple[str, ...] | None
    ceiling: tuple[str, ...] | None

    def permits(self, operation: str) -> bool:
        """Whether ``operation`` (``server/tool``) is inside both the agent's list and the ceiling."""
        return _within(operation, self.agent) and _within(operation, self.ceiling)

    def filter(self, operations: Iterable[str]) -> list[str]:
        """The operations permitted, in their order (for ``tools/list``)."""
        return [operation for operation in operations if self.permits(operation)]

    @property
    def unrestricted(self) -> bool:
        """Whether neither side restricts anything."""
        return self.agent is None and self.ceiling is None


def _within(operation: str, globs: tuple[str, ...] | None) -> bool:
    return globs is None or any(fnmatchcase(operation, glob) for glob in globs)


def bound_manifest(agent_tools: Sequence[str] | None, ceiling_tools: Sequence[str] | None) -> ToolManifest:
    """Bound an agent's tool manifest by the gateway's ceiling.

    An operation is permitted when it matches one of ``agent_tools`` and one of
    ``ceiling_tools`` (None on either side: that side does not restrict; an empty list
    permits nothing). The agent's list can only narrow the ceiling, never widen it.

    Args:
        agent_tools: the agent's manifest (``AgentIdentity.tools_manifest``).
        ceiling_tools: the gateway's ceiling for every agent.
    """
    return ToolManifest(
        agent=None if agent_tools is None else tuple(agent_tools),
        ceiling=None if ceiling_tools is None else tuple(ceiling_tools),
    )
