"""Inspecting what else a server shows the model: its instructions, prompts and resources.

Server instructions are pinned like a tool (under the tool name ``""``): a change is held back
(the instructions are removed from the result) until a human approves it, as are instructions
with findings at or above the block threshold. Prompts, resources and resource templates with
such findings are removed from their listings. Every finding at or above the alert threshold
is an ``mcp_detection`` event.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from mcpwall.audit import Auditor
from mcpwall.inspection.catalog import Rule
from mcpwall.inspection.detector import inspect_definition
from mcpwall.inspection.findings import Finding, max_severity
from mcpwall.inspection.pins import instructions_hash
from mcpwall.inspection.settings import InspectionSettings
from mcpwall.store import INSTRUCTIONS, Pin, Store

LISTINGS = {"prompts/list": ("prompts", "prompt"), "resources/list": ("resources", "resource")}
LISTINGS["resources/templates/list"] = ("resourceTemplates", "resource_template")


class OtherDefinitions:
    """Instructions, prompts and resources of one server.

    Args:
        store: where the instructions pin lives.
        server: the server identity.
        settings: thresholds and change policy.
        rules: gives the compiled catalog (built-in plus custom rules).
        auditor: where detections go.
    """

    def __init__(
        self,
        store: Store,
        server: str,
        settings: InspectionSettings,
        rules: Callable[[], tuple[Rule, ...]],
        auditor: Auditor,
    ) -> None:
        self.store = store
        self.server = server
        self.settings = settings
        self._rules = rules
        self.audit = auditor

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The compiled catalog (shared with the tool reviewer, compiled on first use)."""
        return self._rules()

    def instructions_allowed(self, text: str) -> bool:
        """Inspect and pin server instructions; False when they must be withheld."""
        findings = inspect_definition("instructions", text, self.rules)
        self._detect("instructions", findings)
        digest = instructions_hash(text)
        pin = self.store.get_pin(self.server, INSTRUCTIONS)
        now = time.time()
        if pin is None:
            status = "new" if _worst(findings) < self.settings.block_at else "blocked"
            pin = Pin(self.server, INSTRUCTIONS, digest, {"instructions": text}, status, now, now)  # type: ignore[arg-type] # literals of PinStatus
            self.store.put_pin(pin)
        elif pin.hash != digest and pin.pending_hash != digest:
            self.store.put_pin(
                replace(pin, status="changed", pending_hash=digest, pending_definition={"instructions": text})
            )
            self.audit.emit("mcp_tool_changed", tool=INSTRUCTIONS, previous_hash=pin.hash, new_hash=digest)
        pin = self.store.get_pin(self.server, INSTRUCTIONS) or pin
        blocked = pin.hash != digest and self.settings.on_change == "block"
        blocked = blocked or (pin.status == "blocked" and pin.hash == digest)
        self.audit.emit("mcp_instructions_seen", definition_hash=digest, detections=len(findings), withheld=blocked)
        return not blocked

    def filter_listing(self, method: str, result: dict[str, Any]) -> None:
        """Remove prompts / resources / templates whose findings reach the block threshold."""
        key, kind = LISTINGS[method]
        entries = result.get(key)
        if not isinstance(entries, list):
            return
        kept = []
        for entry in entries:
            findings = inspect_definition(kind, entry, self.rules)
            self._detect(f"{kind}:{entry.get('name') if isinstance(entry, dict) else ''}", findings)
            if _worst(findings) < self.settings.block_at:
                kept.append(entry)
        result[key] = kept

    def _detect(self, what: str, findings: list[Finding]) -> None:
        for finding in findings:
            if finding.severity >= self.settings.alert_at:
                action = "block" if finding.severity >= self.settings.block_at else "alert"
                self.audit.emit("mcp_detection", tool=what, action=action, **finding.to_json())


def _worst(findings: list[Finding]) -> int:
    top = max_severity(findings)
    return int(top) if top is not None else -1
