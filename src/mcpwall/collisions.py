"""Tool names two servers share, so the model may call the wrong one (name collisions), and
names that only look the same (look-alike names).

Each ``mcpwall run`` sees only its own server, but every one of them pins into the same registry
(the state database), so a listing can be compared with what other servers listed first. A tool
whose name an earlier server already lists is recorded once per session
(``tool_name_collision``: the tool and the earlier servers). With ``inspection.on_name_collision:
block`` it is also hidden and refused on the later server (``ToolNameCollision``) for as long as
the earlier one lists it: the operator resolves it by denying one of them in ``tools.deny`` or
renaming. ``mcpwall serve`` namespaces every tool (``server__tool``), so there the model cannot
confuse them; collisions between its servers are recorded all the same (and blocked if so
configured: the operator asked for it).

A look-alike name differs from a name an earlier server lists only in letters that look alike
(``read_fiIe`` with a capital I, ``read_fi1e``, ``read_fil\u0435`` with a Cyrillic e; see
`naming.name_skeleton`); names that differ only in case or ``-``/``_`` are not look-alikes. Two
honest servers share a name by accident (``search``), but nobody writes ``read_fiIe`` by
accident: it is there to be called instead of ``read_file``. So the copy is recorded
(``tool_name_lookalike``: the tool, the names it imitates, their servers) and, by default
(``inspection.on_lookalike_name: block``), hidden and refused. The copy is the name with
stand-in letters (see `lookalikes`), else the one listed later.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import NamedTuple

from mcpwall.audit import Auditor
from mcpwall.inspection.domain import canon
from mcpwall.inspection.naming import name_skeleton, odd_letters
from mcpwall.inspection.review import Review
from mcpwall.store import Store
from mcpwall.store.records import INSTRUCTIONS

VIOLATION = "ToolNameCollision"
LOOKALIKE_VIOLATION = "ToolNameLookalike"


class Imitation(NamedTuple):
    """The other servers' names a look-alike name imitates, and those servers."""

    names: list[str]
    servers: list[str]


class NameCollisions:
    """The name collisions of one server's session.

    Args:
        store: the shared pin registry.
        server: this server's identity.
        block: hide and refuse a colliding tool (else only record it).
        audit: the session's audit trail.
    """

    def __init__(
        self, store: Store, server: str, *, block: bool, audit: Auditor, block_lookalikes: bool = True
    ) -> None:
        self.store = store
        self.server = server
        self.block = block
        self.block_lookalikes = block_lookalikes
        self.audit = audit
        self.earlier: dict[str, list[str]] = {}
        self.imitations: dict[str, Imitation] = {}
        self.backfilled = False

    def check(self, reviews: dict[str, Review]) -> None:
        """Compare a reviewed listing with the registry; block colliding reviews when configured."""
        names = [name for name in reviews if name != INSTRUCTIONS]
        found = self.store.earlier_listers(names, self.server) if names else {}
        for tool, servers in found.items():
            if self.earlier.get(tool) != servers:
                action = "block" if self.block else "alert"
                self.audit.emit("tool_name_collision", tool=tool, other_servers=servers, action=action)
            self.earlier[tool] = servers
        for tool in _gone(self.earlier, found, names):
            del self.earlier[tool]
        self._check_lookalikes(names)
        for tool in list(reviews):
            reviews[tool] = self.applied(reviews[tool])

    def _check_lookalikes(self, names: list[str]) -> None:
        found = lookalikes(names, self.server, self._listers(names))
        for tool, imitation in found.items():
            if self.imitations.get(tool) != imitation:
                action = "block" if self.block_lookalikes else "alert"
                self.audit.emit(
                    "tool_name_lookalike",
                    tool=tool,
                    imitates=imitation.names,
                    other_servers=imitation.servers,
                    action=action,
                )
            self.imitations[tool] = imitation
        for tool in _gone(self.imitations, found, names):
            del self.imitations[tool]

    def _listers(self, names: list[str]) -> list[tuple[str, str, float]]:
        """The listed tools whose names look like one of ``names``, this server's own among them.

        The reviewer writes a new pin's skeleton row with the pin (`ToolReviewer.review`), before
        this check; the names an older mcpwall pinned get theirs here, once per session."""
        if not self.backfilled:
            unknown = self.store.unskeletoned_tools()
            self.store.remember_skeletons([(server, tool, name_skeleton(tool)) for server, tool in unknown])
            self.backfilled = True
        return self.store.listers_by_skeleton([name_skeleton(name) for name in names])

    def applied(self, review: Review) -> Review:
        """``review``, blocked when its name copies another server's and look-alikes block, or
        when its tool collides and collisions block."""
        if review.blocked:
            return review
        imitation = self.imitations.get(review.tool)
        if self.block_lookalikes and imitation:
            imitated, listers = ", ".join(imitation.names), ", ".join(imitation.servers)
            reason = f"the name looks like {imitated} of {listers}"
            return replace(review, blocked=True, violation=LOOKALIKE_VIOLATION, reason=reason)
        servers = self.earlier.get(review.tool)
        if not self.block or not servers:
            return review
        reason = f"the name is also a tool of {', '.join(servers)}, listed earlier"
        return replace(review, blocked=True, violation=VIOLATION, reason=reason)


def lookalikes(names: Iterable[str], server: str, listers: Iterable[tuple[str, str, float]]) -> dict[str, Imitation]:
    """The names of ``names`` that look like, without being, a name another server lists
    (``listers``: ``(tool, server, first_seen)`` of the listed tools, at least those whose names
    have the skeleton of one of ``names``, this server's own among them).

    Of two such names, the copy is the one with more stand-in letters (`naming.odd_letters`:
    ``read_fiIe`` copies ``read_file`` whichever server listed first); with as many, the one
    listed later (``tum_on`` and ``turn_on``: the first server to list a name keeps it).
    """
    mine: dict[str, float] = {}
    others: dict[str, list[tuple[str, str, float]]] = {}
    for tool, lister, first_seen in listers:
        if lister == server:
            mine[tool] = first_seen
        elif tool != INSTRUCTIONS:
            others.setdefault(name_skeleton(tool), []).append((tool, lister, first_seen))
    found: dict[str, Imitation] = {}
    for name in names:
        since = mine.get(name, float("inf"))
        for tool, lister, first_seen in others.get(name_skeleton(name), ()):
            if canon(tool) != canon(name) and _copies(name, since, tool, first_seen):
                imitation = found.setdefault(name, Imitation([], []))
                _add(imitation.names, tool)
                _add(imitation.servers, lister)
    return found


def _copies(name: str, since: float, other: str, other_since: float) -> bool:
    """Whether ``name`` (listed since ``since``) is the copy of ``other``, a look-alike of it."""
    odd, other_odd = odd_letters(name), odd_letters(other)
    return odd > other_odd or (odd == other_odd and other_since <= since)


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)


def _gone(known: Mapping[str, object], found: Mapping[str, object], listed: Iterable[str]) -> list[str]:
    """Known collisions of tools this listing holds that no longer collide."""
    listed = set(listed)
    return [tool for tool in known if tool in listed and tool not in found]
