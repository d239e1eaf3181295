"""Reviewing a listing against the pins: the gateway-side half of inspection (it does I/O).

For every listed tool: inspect it, hash it, compare with its pin in the store, update the pin,
record the audit events, and conclude whether the model may see and call it. The pure
`InspectionCheck` then turns each `Review` into a verdict.

Statuses: ``new`` (first sight), ``unchanged``, ``changed`` (a rug pull: the new definition
waits as the pin's pending definition, with a field diff), ``approved`` (a human approved what
is pinned), ``blocked`` (findings at or above the block threshold, not yet approved).

Re-listing is cheap: the server's pins are read in one query, findings come from the `cache` by
definition hash, and a pin that did not change is not written again (its ``last_seen`` is
refreshed at most every `LAST_SEEN_EVERY` seconds). The pins a listing does change are written
together, in one transaction. The findings the detector computed are remembered in the
registry (for the next process): a short listing's in that transaction, a long one's by a
background thread after it (`FINDINGS_WITH_PINS`).
"""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import asdict, dataclass, replace
from importlib import resources
from typing import Any, Final

import orjson

from mcpwall.audit import Auditor
from mcpwall.inspection.cache import CachedInspector, detector_digest
from mcpwall.inspection.catalog import Rule, compile_rules, warm_up
from mcpwall.inspection.detector import inspect_definition
from mcpwall.inspection.findings import Finding, max_severity
from mcpwall.inspection.memo import recall_for
from mcpwall.inspection.naming import name_skeleton
from mcpwall.inspection.pins import diff_definitions
from mcpwall.inspection.settings import InspectionSettings
from mcpwall.store import Pin, PinState, Store

LAST_SEEN_EVERY: Final = 60.0
"""Seconds between ``last_seen`` updates of a pin that did not otherwise change."""
FINDINGS_WITH_PINS: Final = 64
"""Findings registry rows written in the pins' transaction up to this many; a longer listing's
are written by a background thread, off the listing's path."""


@dataclass(frozen=True, slots=True)
class Sighting:
    """One named tool of a listing: its definition, hash and findings, and its pin's state when
    this sighting changes nothing of the pin (else None)."""

    name: str
    tool: dict[str, Any]
    digest: str
    findings: list[Finding]
    settled: PinState | None


@dataclass(frozen=True, slots=True)
class Review:
    """What the gateway concluded about one listed tool."""

    tool: str
    hash: str
    status: str
    max_severity: str | None
    blocked: bool
    violation: str | None = None
    reason: str = ""


REHEARSAL_FILE: Final = "rehearsal.json"
"""Ordinary tool definitions (in the shapes common servers use) that the warm-up thread inspects
once (see `prepare_detector`): the code paths of a first listing run before it arrives."""


def rehearsal() -> list[dict[str, Any]]:
    """The definitions of `REHEARSAL_FILE` (package data)."""
    data = orjson.loads(resources.files("mcpwall.inspection").joinpath(REHEARSAL_FILE).read_bytes())
    return [tool for tool in data["tools"] if isinstance(tool, dict)]


def prepare_detector(rules: tuple[Rule, ...]) -> None:
    """Once-per-process work the first listing would otherwise pay for, done ahead (in the warm-up
    thread): the detector's code digest (the key of findings kept in the registry), the
    prefilter's most used requirement lists (`Prefilter.prepare`), and a rehearsal: inspecting
    the `rehearsal` definitions once. The interpreter specializes the detector's code on its first
    runs, the prefilter builds the lists of the literals it meets and the allocator grows its
    pools: without it a new process's first listing of mcp-server-git took 6-7 ms instead of 3-4
    (three rehearsal definitions left 4.8 ms; twenty, 3.8). What it judges stays in the memos (common schema
    words among it), as any listing's would: findings never depend on what was seen before."""
    detector_digest()
    recall_for(rules).prefilter.prepare()
    for tool in rehearsal():
        time.sleep(0)  # give the GIL back between definitions, as the rest of the warm-up does
        inspect_definition("tool", tool, rules)


class ToolReviewer:
    """Reviews every tools/list result of one server against the store's pins.

    Args:
        store: where pins live (shared by every mcpwall process).
        server: the server identity.
        settings: thresholds and change policy.
        auditor: where ``mcp_tool_seen``, ``mcp_tool_changed`` and ``mcp_detection`` go.
    """

    def __init__(self, store: Store, server: str, settings: InspectionSettings, auditor: Auditor) -> None:
        self.store = store
        self.server = server
        self.settings = settings
        self.audit = auditor
        self._rules: tuple[Rule, ...] | None = None
        self.inspector = CachedInspector(self.rules, learned=settings.learned_model)
        self.known_server = store.has_pins(server)
        self.definitions: dict[str, dict[str, Any]] = {}

    def warm_up(self) -> None:
        """Compile the rest of the catalog in the background (see `catalog.warm_up`), then do
        there the rest of the detector's once-per-process work (`prepare_detector`)."""
        warm_up(self.rules, then=lambda: prepare_detector(self.rules))

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The compiled catalog, built on first use (keeps start-up short)."""
        if self._rules is None:
            self._rules = compile_rules([r.spec() for r in self.settings.custom_rules])
        return self._rules

    def review(self, tools: list[dict[str, Any]]) -> dict[str, Review]:
        """Review one listing (or page of one); returns a review per tool name."""
        reviews = {}
        sightings, known = self._sightings(tools)
        unsettled = [sighting.name for sighting in sightings if sighting.settled is None and sighting.name in known]
        pinned = self.store.get_pins(self.server, unsettled) if unsettled else {}
        writes: list[Pin] = []
        for sighting in sightings:
            name, tool, judged = sighting.name, sighting.tool, (sighting.digest, sighting.findings)
            if sighting.settled is None:
                reviews[name] = self._review_one(name, tool, pinned.get(name), writes=writes, judged=judged)
            else:
                reviews[name] = self._conclude(sighting.settled, *judged)
                self._record(reviews[name], sighting.findings)
            self.definitions[name] = tool
        if writes:  # before the listing goes on: pins decide what is blocked
            skeletons = [(pin.server, pin.tool, name_skeleton(pin.tool)) for pin in writes if pin.tool not in known]
            self.store.put_pins(writes, self.inspector.take_fresh(at_most=FINDINGS_WITH_PINS), skeletons)
        self.inspector.remember_fresh(self.store)  # the rest is a cache: written off the listing's path
        self.known_server = self.known_server or bool(reviews)
        return reviews

    def _sightings(self, tools: list[dict[str, Any]]) -> tuple[list[Sighting], Collection[str]]:
        """Each named tool of a listing with its definition hash and, when this sighting changes
        nothing of its pin (the daily case: `_settled`), the pin's state; and the names already
        pinned. Pins are read without their definitions (`Store.pin_states`): only the unsettled
        ones are read whole."""
        states = self.store.pin_states(self.server)
        digests = self.inspector.preload(tools, self.store)
        now = time.time()
        sightings = []
        for tool, digest in zip(tools, digests, strict=True):
            name = tool.get("name")
            if isinstance(name, str):
                digest, findings = self.inspector.inspect_tool(tool, digest)
                state = states.get(name)
                settled = state if state is not None and _settled(state, digest, findings, now) else None
                sightings.append(Sighting(name, tool, digest, findings, settled))
        return sightings, states.keys()

    def settle(self) -> None:
        """Wait for the findings registry writes of the reviews so far (see `CachedInspector.remember_fresh`)."""
        self.inspector.settle()

    def refresh(self, name: str) -> Review | None:
        """Review a tool again from the store (a human may have approved it since)."""
        tool = self.definitions.get(name)
        if tool is None:
            return None
        return self._review_one(name, tool, self.store.get_pin(self.server, name), quiet=True)

    def from_pin(self, name: str) -> Review | None:
        """A review from the store alone, for a tool called before this session listed it.

        Only a pinned definition that is not waiting for approval counts; the call is then
        judged against what was pinned.
        """
        pin = self.store.get_pin(self.server, name)
        if pin is None or pin.pending_hash is not None or pin.status == "blocked":
            return None
        self.definitions.setdefault(name, pin.definition)
        return Review(name, pin.hash, pin.status, pin.max_severity, False)

    def _review_one(
        self,
        name: str,
        tool: dict[str, Any],
        stored: Pin | None,
        *,
        quiet: bool = False,
        writes: list[Pin] | None = None,
        judged: tuple[str, list[Finding]] | None = None,
    ) -> Review:
        """Review one tool (``judged``: its hash and findings, when the caller has them); a changed
        pin is written now, or added to ``writes`` for the caller."""
        digest, findings = self.inspector.inspect_tool(tool) if judged is None else judged
        pin = self._updated_pin(name, tool, digest, findings, stored)
        if pin is not stored:
            if writes is None:
                self.store.put_pin(pin)
            else:
                writes.append(pin)
        review = self._conclude(PinState.of(pin), digest, findings)
        if not quiet:
            self._record(review, findings)
        return review

    def _updated_pin(
        self, name: str, tool: dict[str, Any], digest: str, findings: list[Finding], pin: Pin | None
    ) -> Pin:
        """The tool's pin after this sighting: the stored one itself when nothing is worth writing."""
        now = time.time()
        if pin is not None and _settled(PinState.of(pin), digest, findings, now):  # seen again, as pinned
            return pin
        top = max_severity(findings)
        facts: dict[str, Any] = {
            "max_severity": top.label if top else None,
            "findings": [f.to_json() for f in findings],
            "last_seen": now,
        }
        if pin is None:
            status = "new" if self.settings.pin_on_first_use or not self.known_server else "blocked"
            pin = Pin(self.server, name, digest, tool, status, first_seen=now, **facts)  # type: ignore[arg-type] # statuses above are PinStatus literals
        elif pin.hash == digest:
            status = "approved" if pin.status == "approved" else ("blocked" if pin.status == "blocked" else "unchanged")
            pin = replace(pin, status=status, pending_hash=None, pending_definition=None, diff=[], **facts)  # type: ignore[arg-type] # as above
        elif pin.pending_hash != digest:
            diff = [asdict(c) for c in diff_definitions(pin.definition, tool)]
            pin = replace(pin, status="changed", pending_hash=digest, pending_definition=tool, diff=diff, **facts)
            self.audit.emit(
                "mcp_tool_changed",
                tool=name,
                previous_hash=pin.hash,
                new_hash=digest,
                field_changes=diff,
                detections=len(findings),
            )
        elif now - pin.last_seen >= LAST_SEEN_EVERY:  # still waiting for approval of this same definition
            pin = replace(pin, last_seen=now)
        return pin

    def _conclude(self, pin: PinState, digest: str, findings: list[Finding]) -> Review:
        top = max_severity(findings)
        label = top.label if top else None
        if pin.hash != digest and self.settings.on_change == "block":
            why = "definition changed since it was pinned; waiting for approval"
            return Review(pin.tool, digest, "changed", label, True, "ToolDefinitionChanged", why)
        if pin.status == "blocked" and (top is None or top < self.settings.block_at):
            return Review(pin.tool, digest, "new", label, True, "ToolNotApproved", "new tool waiting for approval")
        if top is not None and top >= self.settings.block_at and pin.status != "approved":
            why = f"definition has {label} findings"
            return Review(pin.tool, digest, pin.status, label, True, "ToolDefinitionPoisoned", why)
        status = "changed" if pin.hash != digest else pin.status
        return Review(pin.tool, digest, status, label, False)

    def _record(self, review: Review, findings: list[Finding]) -> None:
        self.audit.emit(
            "mcp_tool_seen",
            tool=review.tool,
            status=review.status,
            definition_hash=review.hash,
            detections=len(findings),
            max_severity=review.max_severity,
            blocked=review.blocked,
        )
        for finding in findings:
            if finding.severity >= self.settings.alert_at:
                action = "block" if review.blocked else "alert"
                self.audit.emit("mcp_detection", tool=review.tool, action=action, **finding.to_json())


SETTLED: Final = frozenset({"approved", "blocked", "unchanged"})
"""Statuses a sighting of the pinned definition keeps as they are."""


def _settled(pin: PinState, digest: str, findings: list[Finding], now: float) -> bool:
    """Whether this sighting of the pinned definition would change nothing worth writing in ``pin``:
    nothing pending, the same findings, ``last_seen`` too recent to write."""
    if pin.hash != digest or pin.status not in SETTLED or pin.pending or pin.diff:
        return False
    if now - pin.last_seen >= LAST_SEEN_EVERY:
        return False
    top = max_severity(findings)
    if pin.max_severity != (top.label if top else None):
        return False
    return pin.findings == [f.to_json() for f in findings]
