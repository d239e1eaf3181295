"""Every requirement in docs/threat-model.md is carried by at least one test, and no test names
an id the document does not list."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARK = re.compile(r'requirement\("([a-z]+:[a-z0-9-]+)"\)')


def _listed() -> set[str]:
    text = (ROOT / "docs" / "threat-model.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\| `([a-z]+:[a-z0-9-]+)` \|", text, flags=re.MULTILINE))


def _carried() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        if path.name != Path(__file__).name:
            found |= set(MARK.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_listed_requirement_is_carried_by_a_test() -> None:
    listed = _listed()
    assert len(listed) >= 20
    assert listed - _carried() == set()


def test_tests_name_only_listed_requirements() -> None:
    assert _carried() - _listed() == set()
