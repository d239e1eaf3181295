"""Per-tool reports for files of tool definitions: what ``mcpwall inspect FILE`` prints.

``inspect_file(path)`` accepts a ``tools/list`` result (``{"tools": [...]}``, optionally wrapped
in a JSON-RPC ``result``), a JSON list of tools, or JSONL records carrying a ``tool`` field and
an ``id``; it returns one JSON-ready dict per tool, in input order.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcpwall.inspection.catalog import Rule
from mcpwall.inspection.detector import inspect_definition
from mcpwall.inspection.findings import max_severity

ToolReport = dict[str, Any]


def _records(path: Path) -> list[tuple[str | None, object]]:
    text = path.read_text(encoding="utf-8")
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        # JSON lines end at "\n" only: str.splitlines would also split at U+2028, U+2029 and other
        # separators, which JSON allows raw inside strings.
        return [_record(json.loads(line)) for line in text.split("\n") if line.strip()]
    if isinstance(document, dict):
        document = document.get("result", document)
    if isinstance(document, dict) and isinstance(document.get("tools"), list):
        return [(None, tool) for tool in document["tools"]]
    if isinstance(document, list):
        return [_record(item) for item in document]
    return [_record(document)]


def _record(item: object) -> tuple[str | None, object]:
    if isinstance(item, dict) and isinstance(item.get("tool"), dict):
        record_id = item.get("id")
        return (None if record_id is None else str(record_id)), item["tool"]
    return None, item


def report_tool(record_id: str | None, tool: object, rules: tuple[Rule, ...] | None = None) -> ToolReport:
    """The report for one tool definition.

    Args:
        record_id: the record's id when the input had one.
        tool: the tool definition.
        rules: compiled rules; the built-in catalog when omitted.
    """
    findings = inspect_definition("tool", tool, rules)
    worst = max_severity(findings)
    name = tool.get("name") if isinstance(tool, dict) else None
    return {
        "id": record_id,
        "name": name,
        "max_severity": None if worst is None else worst.label,
        "findings": [f.to_json() for f in findings],
    }


def inspect_file(path: Path, rules: tuple[Rule, ...] | None = None) -> list[ToolReport]:
    """Inspect every tool in a file.

    Args:
        path: a tools/list result, a JSON list of tools, or JSONL records with ``tool``/``id``.
        rules: compiled rules; the built-in catalog when omitted.

    Raises:
        OSError: the file cannot be read.
        json.JSONDecodeError: the file is neither JSON nor JSONL.
    """
    return [report_tool(record_id, tool, rules) for record_id, tool in _records(path)]
