"""Hand-written probe sets for generalization tests: attacks by mechanism and benign near-misses.

Every probe is written for these tests (none is taken from an evaluation corpus). A probe is a
``(label, tool)`` pair; helpers build tools whose poison sits in the description, a parameter
description, a default, an enum value or an example.
"""

from __future__ import annotations

Tool = dict[str, object]


def desc(text: str, name: str = "lookup", params: tuple[str, ...] = ("query",)) -> Tool:
    """A tool whose description carries the text."""
    props = {p: {"type": "string"} for p in params}
    return {"name": name, "description": text, "inputSchema": {"type": "object", "properties": props}}


def param(text: str, pname: str = "note", name: str = "search_docs", key: str = "description") -> Tool:
    """A tool whose parameter ``pname`` carries the text under ``key``."""
    value: object = [text] if key in {"enum", "examples"} else text
    props = {"query": {"type": "string", "description": "Search terms."}, pname: {"type": "string", key: value}}
    return {"name": name, "description": "Searches the documentation.", "inputSchema": {"type": "object", "properties": props}}
