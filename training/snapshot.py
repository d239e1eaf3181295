"""The offline registry snapshots (name, version, downloads, summary... per line, tab-separated)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path


def rows(path: Path, columns: int) -> Iterator[list[str]]:
    """The data lines of a snapshot with at least ``columns`` fields, split (the header skipped)."""
    with path.open(encoding="utf-8", errors="replace") as stream:
        next(stream)
        for line in stream:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= columns:
                yield parts
