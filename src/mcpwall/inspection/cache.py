"""Findings remembered by definition hash, so a re-listing costs a hash and a dict lookup.

The detector reads exactly the model-visible keys a pin covers (``pins.PINNED_KEYS``), so two
definitions with the same ``definition_hash`` get the same findings under the same rules. The
cache key is therefore the rule set's fingerprint plus the definition hash; a server whose
definitions did not change never runs the detector twice in one process.

:class:`FindingsCache` is a bounded LRU (thread-safe: the gateway may review from a worker
thread); :class:`CachedInspector` is what the reviewer calls. One process-wide cache is shared
by every reviewer unless one is given.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any, Final

from mcpwall.inspection.catalog import Rule
from mcpwall.inspection.detector import inspect_definition
from mcpwall.inspection.findings import Finding
from mcpwall.inspection.memo import recall_for
from mcpwall.inspection.pins import definition_hash

DEFAULT_CAPACITY: Final = 8192
"""Definitions remembered by default: many servers' worth of tools, a few MB at most."""

CacheKey = tuple[str, str]


class FindingsCache:
    """A bounded least-recently-used map from ``(rules fingerprint, definition hash)`` to findings.

    Args:
        capacity: how many definitions to remember; the least recently used is evicted first.

    Raises:
        ValueError: capacity below 1.
    """

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[CacheKey, tuple[Finding, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: CacheKey) -> tuple[Finding, ...] | None:
        """The findings remembered for ``key`` (now the most recently used), or None."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return found

    def put(self, key: CacheKey, findings: tuple[Finding, ...]) -> None:
        """Remember findings for ``key``, evicting the least recently used beyond capacity."""
        with self._lock:
            self._entries[key] = findings
            self._entries.move_to_end(key)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        """Forget everything (counters included)."""
        with self._lock:
            self._entries.clear()
            self.hits = self.misses = 0


SHARED_CACHE: Final = FindingsCache()
"""The process-wide cache every reviewer uses unless given its own."""


def rules_fingerprint(rules: tuple[Rule, ...]) -> str:
    """A SHA-256 over every rule's id, severity, pattern, fields and flags, in order.

    Findings computed under one rule set are never served for another (custom rules differ
    between configurations).
    """
    digest = hashlib.sha256()
    for rule in rules:
        spec = rule.spec
        parts = (spec.id, spec.category, spec.severity.label, spec.pattern, spec.signal)
        extra = (",".join(sorted(spec.flags)), ",".join(sorted(spec.fields)), spec.description)
        digest.update("\x1f".join((*parts, *extra)).encode("utf-8") + b"\x1e")
    return digest.hexdigest()


class CachedInspector:
    """Inspects tool definitions under one rule set, through a findings cache.

    The rule set's prefilter is built here, with the rules, so that the first listing does not
    wait for it.

    Args:
        rules: the compiled rules (built-in catalog plus custom rules).
        cache: where findings are remembered; the process-wide `SHARED_CACHE` by default.
    """

    def __init__(self, rules: tuple[Rule, ...], cache: FindingsCache | None = None) -> None:
        self.rules = rules
        self.cache = SHARED_CACHE if cache is None else cache
        self.fingerprint = rules_fingerprint(rules)
        recall_for(rules)

    def inspect_tool(self, tool: dict[str, Any]) -> tuple[str, list[Finding]]:
        """The definition hash of a tool and its findings (from the cache when seen before).

        Args:
            tool: a tool definition as listed.

        Returns:
            ``(definition_hash, findings)``; the list is the caller's own copy.
        """
        digest = definition_hash(tool)
        key = (self.fingerprint, digest)
        found = self.cache.get(key)
        if found is None:
            found = tuple(inspect_definition("tool", tool, self.rules))
            self.cache.put(key, found)
        return digest, list(found)
