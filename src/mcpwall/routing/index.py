"""The capability index: which server a tool name goes to.

Exact names first (the namespaced names of the last listings), then configured prefix patterns
(``routes: {"web.*": fetch}``: a name matching the glob goes to that server unchanged). No match
is a ToolNotFound denial before any upstream is touched.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping

from mcpwall.routing.names import Route, public_names


class CapabilityIndex:
    """Tool names to routes.

    Args:
        prefixes: glob → server name, tried in order after exact names.
    """

    def __init__(self, prefixes: Mapping[str, str]) -> None:
        self._prefixes = [(re.compile(fnmatch.translate(glob)), server) for glob, server in prefixes.items()]
        self._listed: dict[str, list[str]] = {}
        self.names: dict[str, Route] = {}

    def listed(self, server: str, tools: list[str]) -> None:
        """Record a server's current tools and rebuild the names."""
        self._listed[server] = list(tools)
        self.names = public_names((s, t) for s, names in self._listed.items() for t in names)

    def forget(self, server: str) -> None:
        """A server's tools are no longer routable (it was removed from the listing)."""
        self._listed.pop(server, None)
        self.names = public_names((s, t) for s, names in self._listed.items() for t in names)

    def public(self, route: Route) -> str:
        """The name the model sees for a route."""
        return next(name for name, found in self.names.items() if found == route)

    def resolve(self, name: str) -> Route | None:
        """The route of a name, or None (ToolNotFound)."""
        route = self.names.get(name)
        if route is not None:
            return route
        return next(((server, name) for pattern, server in self._prefixes if pattern.match(name)), None)
