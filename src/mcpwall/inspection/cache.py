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
import logging
import threading
from collections import OrderedDict
from functools import cache
from pathlib import Path
from typing import Any, Final

import orjson

from mcpwall.inspection.catalog import Rule
from mcpwall.inspection.detector import inspect_definition
from mcpwall.inspection.findings import Finding
from mcpwall.inspection.memo import recall_for
from mcpwall.inspection.pins import definition_hash
from mcpwall.store import Store

log = logging.getLogger(__name__)

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

    def __contains__(self, key: object) -> bool:
        """Whether findings are remembered for ``key`` (counts neither a hit nor a miss)."""
        with self._lock:
            return key in self._entries

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
        learned: consult the learned model too (``inspection.learned_model``); findings with and
            without it never share a cache entry or a registry row.
    """

    def __init__(self, rules: tuple[Rule, ...], cache: FindingsCache | None = None, *, learned: bool = True) -> None:
        self.rules = rules
        self.learned = learned
        self.cache = SHARED_CACHE if cache is None else cache
        self.fingerprint = rules_fingerprint(rules) + ("" if learned else ":rules-only")
        self._registry_key: str | None = None
        self.fresh: list[tuple[str, tuple[Finding, ...]]] = []
        """Findings the detector computed since they were last handed to the registry (see
        `preload`), by definition hash."""
        self._writers: list[threading.Thread] = []
        recall_for(rules)

    def preload(self, tools: list[dict[str, Any]], store: Store) -> list[str]:
        """Take from the registry the findings of listed definitions this process has not seen;
        returns the definition hash of each tool, in order (for `inspect_tool`).

        Findings are remembered in the state database by (rules and detector code fingerprint,
        definition hash), so a new ``mcpwall run`` in front of a known server does not run the
        detector again. A damaged row is ignored (the definition is inspected again, and the row
        rewritten), and a different rule set or detector version never shares rows.
        """
        digests = [definition_hash(tool) for tool in tools]
        wanted = [digest for digest in digests if (self.fingerprint, digest) not in self.cache]
        if not wanted:
            return digests
        for digest, text in store.known_findings(self.registry_key, wanted).items():
            try:
                found = tuple(Finding.from_json(item) for item in orjson.loads(text))
            except (ValueError, TypeError, orjson.JSONDecodeError):
                continue
            self.cache.put((self.fingerprint, digest), found)
        return digests

    def take_fresh(self, at_most: int) -> list[tuple[str, str, str]]:
        """The registry rows (``store.remember_findings``) computed since the last call, when
        there are at most ``at_most`` of them (few enough to write with the pins); else none, and
        they wait for `remember_fresh`."""
        if len(self.fresh) > at_most:
            return []
        fresh, self.fresh = self.fresh, []
        return self._rows(fresh)

    def _rows(self, fresh: list[tuple[str, tuple[Finding, ...]]]) -> list[tuple[str, str, str]]:
        """Registry rows (``store.remember_findings``): the findings as JSON text."""
        key = self.registry_key
        return [(key, digest, orjson.dumps([f.to_json() for f in found]).decode()) for digest, found in fresh]

    def remember_fresh(self, store: Store) -> None:
        """Write the findings computed since the last call to the registry, in a background thread.

        The registry is a cache: a long listing need not wait for it (a short one writes its rows
        with its pins, see `take_fresh`: one transaction costs less than starting a thread). A row that is never written
        (the process crashed, the store was closed first) only means that definition is inspected
        again by the next process. Pins are never written here. The thread is not a daemon, so a
        process that ends normally finishes the write first; `settle` waits for it.
        """
        fresh, self.fresh = self.fresh, []
        if not fresh:
            return
        self._writers = [writer for writer in self._writers if writer.is_alive()]
        writer = threading.Thread(target=self._remember, args=(store, fresh), name="mcpwall-findings-registry")
        self._writers.append(writer)
        writer.start()

    def _remember(self, store: Store, fresh: list[tuple[str, tuple[Finding, ...]]]) -> None:
        try:
            store.remember_findings(self._rows(fresh))
        except Exception as exc:  # noqa: BLE001 -- boundary: a cache row not written is inspected again later
            log.debug("findings not remembered in the registry: %s", exc)

    def settle(self) -> None:
        """Wait until the registry writes started so far are done."""
        for writer in self._writers:
            writer.join()
        self._writers.clear()

    @property
    def registry_key(self) -> str:
        """The rule set's fingerprint combined with the detector's code (`detector_digest`)."""
        if self._registry_key is None:
            self._registry_key = hashlib.sha256(f"{self.fingerprint}:{detector_digest()}".encode()).hexdigest()
        return self._registry_key

    def inspect_tool(self, tool: dict[str, Any], digest: str | None = None) -> tuple[str, list[Finding]]:
        """The definition hash of a tool and its findings (from the cache when seen before).

        Args:
            tool: a tool definition as listed.

        Returns:
            ``(definition_hash, findings)``; the list is the caller's own copy.
        """
        digest = digest or definition_hash(tool)
        key = (self.fingerprint, digest)
        found = self.cache.get(key)
        if found is None:
            found = tuple(inspect_definition("tool", tool, self.rules, learned=self.learned))
            self.cache.put(key, found)
            self.fresh.append((digest, found))
        return digest, list(found)


@cache
def detector_digest() -> str:
    """SHA-256 of the inspection package's code and data files: findings remembered across
    processes are reused only by the detector that computed them."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.iterdir()):
        if path.suffix in (".py", ".yaml", ".json"):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()
