"""Client-safe, unique tool names for many servers behind one gateway.

A tool ``t`` of server ``s`` is shown as ``s__t``. Every name matches ``^[a-zA-Z0-9_-]{1,64}$``:

- characters outside ``[a-zA-Z0-9_-]`` become ``_``;
- a name that had to be changed, is longer than 64 characters, or collides with another
  server's tool is shortened deterministically to its first 55 characters, ``-`` and the first 8
  hex digits of SHA-256 of ``server/tool`` — the same tool always gets the same name, and two
  tools never share one.

Policies, pins and audit stay keyed by the real ``(server, tool)``; only the model sees these names.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable
from typing import Final

SEPARATOR: Final = "__"
VALID: Final = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_UNSAFE: Final = re.compile(r"[^a-zA-Z0-9_-]")

Route = tuple[str, str]
"""A real (server, tool) pair."""


def _plain(server: str, tool: str) -> str:
    return f"{_UNSAFE.sub('_', server) or '_'}{SEPARATOR}{_UNSAFE.sub('_', tool) or '_'}"


def _hashed(server: str, tool: str) -> str:
    digest = hashlib.sha256(f"{server}/{tool}".encode()).hexdigest()[:8]
    return f"{_plain(server, tool)[:55]}-{digest}"


def public_names(routes: Iterable[Route]) -> dict[str, Route]:
    """The name the model sees for each route, unique and client-safe."""
    routes = list(dict.fromkeys(routes))
    plain = {route: _plain(*route) for route in routes}
    counts = Counter(plain.values())
    table: dict[str, Route] = {}
    for route in routes:
        name = plain[route]
        exact = name == f"{route[0]}{SEPARATOR}{route[1]}"
        if not exact or counts[name] > 1 or len(name) > 64:
            name = _hashed(*route)
        table[name] = route
    return table
