"""Tool names two servers share, so the model may call the wrong one (name collisions).

Each ``mcpwall run`` sees only its own server, but every one of them pins into the same registry
(the state database), so a listing can be compared with what other servers listed first. A tool
whose name an earlier server already lists is recorded once per session
(``tool_name_collision``: the tool and the earlier servers). With ``inspection.on_name_collision:
block`` it is also hidden and refused on the later server (``ToolNameCollision``) for as long as
the earlier one lists it: the operator resolves it by denying one of them in ``tools.deny`` or
renaming. ``mcpwall serve`` namespaces every tool (``server__tool``), so there the model cannot
confuse them; collisions between its servers are recorded all the same (and blocked if so
configured: the operator asked for it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from mcpwall.audit import Auditor
from mcpwall.inspection.review import Review
from mcpwall.store import Store
from mcpwall.store.records import INSTRUCTIONS

VIOLATION = "ToolNameCollision"


class NameCollisions:
    """The name collisions of one server's session.

    Args:
        store: the shared pin registry.
        server: this server's identity.
        block: hide and refuse a colliding tool (else only record it).
        audit: the session's audit trail.
    """

    def __init__(self, store: Store, server: str, *, block: bool, audit: Auditor) -> None:
        self.store = store
        self.server = server
        self.block = block
        self.audit = audit
        self.earlier: dict[str, list[str]] = {}

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
        for tool in list(reviews):
            reviews[tool] = self.applied(reviews[tool])

    def applied(self, review: Review) -> Review:
        """``review``, blocked when its tool collides and collisions block."""
        servers = self.earlier.get(review.tool)
        if not self.block or not servers or review.blocked:
            return review
        reason = f"the name is also a tool of {', '.join(servers)}, listed earlier"
        return replace(review, blocked=True, violation=VIOLATION, reason=reason)


def _gone(known: dict[str, list[str]], found: dict[str, list[str]], listed: Iterable[str]) -> list[str]:
    """Known collisions of tools this listing holds that no longer collide."""
    listed = set(listed)
    return [tool for tool in known if tool in listed and tool not in found]
