"""The JSONL records both gatherers write (training/README.md)."""

from __future__ import annotations

import json


def line(record: dict[str, object]) -> str:
    """One record as a JSONL line, non-ASCII kept as is."""
    return json.dumps(record, ensure_ascii=False) + "\n"


def instructions(package: str, source: str, text: str) -> str:
    """The line of a server's ``instructions`` (id ``<package>:__instructions__``)."""
    return line({"id": f"{package}:__instructions__", "source": source, "instructions": text})
