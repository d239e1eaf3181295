"""Findings for disguised text: what :mod:`normalize` removed or surfaced, judged.

Invisible characters are common by accident (an emoji's variation selector, a right-to-left
mark in Hebrew text), so their mere presence is low; an invisible character *splitting a word*,
bidi overrides, ANSI escapes and Unicode tag characters (invisible ASCII) are deliberate.
"""

from __future__ import annotations

import re
from collections import defaultdict

from mcpwall.inspection.findings import Finding, Severity
from mcpwall.inspection.normalize import Disguise, NormalizedText

SEVERITY: dict[str, Severity] = {
    "tag_chars": Severity.CRITICAL,
    "bidi": Severity.HIGH,
    "ansi": Severity.HIGH,
    "ansi_style": Severity.MEDIUM,
    "bidi_mark": Severity.LOW,
    "zero_width": Severity.LOW,
    "invisible": Severity.LOW,
    "homoglyph": Severity.MEDIUM,
    "base64": Severity.LOW,
    "hex": Severity.LOW,
    "percent": Severity.LOW,
    "html_comment": Severity.LOW,
    "hidden_element": Severity.MEDIUM,
    "pseudo_tag": Severity.MEDIUM,
}
DESCRIPTION: dict[str, str] = {
    "tag_chars": "Unicode tag characters: ASCII text invisible to the user.",
    "bidi": "Bidi override or isolate characters that reorder what the user sees.",
    "ansi": "ANSI escape sequences that can hide or rewrite terminal output.",
    "ansi_style": "ANSI escape sequences that style visible text (bold, a colour, reset).",
    "bidi_mark": "Bidi marks, or embeddings and isolates around right-to-left text (invisible direction hints).",
    "zero_width": "Zero-width characters.",
    "invisible": "Invisible format characters.",
    "homoglyph": "Words mixing Latin letters with Cyrillic or Greek look-alikes.",
    "base64": "A base64 run that decodes to text.",
    "hex": "A hex run that decodes to text.",
    "percent": "A percent-encoded run that decodes to text.",
    "html_comment": "An HTML/markdown comment, invisible once rendered.",
    "hidden_element": "Markup hidden from display (display:none, hidden).",
    "pseudo_tag": "A pseudo-tag addressing the model (<IMPORTANT>, <system>...).",
}
SPLIT_WORD_SEVERITY = Severity.HIGH
MANY_HOMOGLYPH_WORDS = 3
INVISIBLE_KINDS = ("zero_width", "invisible")
INVISIBLE_RUN = 3
"""Invisible characters in a row that make a deliberate hiding place (none of 35,071 ordinary tools has one)."""
NAME_PARTS = re.compile(r"[_.\-\s]+")
IDENTIFIER_FIELDS = frozenset({"name"})
"""Fields that identify what the model calls: a look-alike letter there impersonates another name
(``reаd_file`` with a Cyrillic ``а`` beside the real ``read_file``)."""


def _has_run(group: list[Disguise]) -> bool:
    """Several invisible characters side by side: no emoji sequence or stray mark needs that."""
    positions = sorted(d.position for d in group)
    spans = zip(positions, positions[INVISIBLE_RUN - 1 :], strict=False)
    return any(last - first < INVISIBLE_RUN for first, last in spans)


def _impersonates(group: list[Disguise], field: str) -> bool:
    """An identifier with one part written in two scripts (``read_file`` with a Cyrillic ``a``), not a name joining
    words of two languages (``pdf_в_текст``)."""
    return field in IDENTIFIER_FIELDS and any(_mixed(part) for d in group for part in NAME_PARTS.split(d.raw))


def _mixed(part: str) -> bool:
    latin = any("a" <= c <= "z" for c in part.lower())
    return latin and any("\u0370" <= c <= "\u04ff" for c in part)  # Greek and Cyrillic


def _severity(kind: str, group: list[Disguise], field: str, invisible: list[Disguise]) -> Severity:
    """``invisible``: every zero-width and invisible character of the field, whatever its kind (a run may
    alternate kinds: soft hyphens and joiners)."""
    if kind in INVISIBLE_KINDS and (any(d.inside_word for d in group) or _has_run(invisible)):
        return SPLIT_WORD_SEVERITY
    if kind == "homoglyph" and (len(group) >= MANY_HOMOGLYPH_WORDS or _impersonates(group, field)):
        return Severity.HIGH
    return SEVERITY.get(kind, Severity.LOW)


def disguise_findings(field: str, normalized: NormalizedText) -> list[Finding]:
    """One finding per kind of disguise seen in a field.

    Args:
        field: JSON path of the field.
        normalized: the field after :func:`normalize`.
    """
    groups: dict[str, list[Disguise]] = defaultdict(list)
    for disguise in normalized.disguises:
        groups[disguise.kind].append(disguise)
    invisible = [d for kind in INVISIBLE_KINDS for d in groups.get(kind, [])]
    findings = []
    for kind, group in groups.items():
        shown = " ".join(d.raw for d in group[:8])
        findings.append(
            Finding(
                rule=f"disguise.{kind}",
                category="disguised_text",
                severity=_severity(kind, group, field, invisible),
                field=field,
                matched=shown[:300],
                position=group[0].position,
                context=f"{len(group)} occurrence(s)",
                description=DESCRIPTION.get(kind, kind),
            )
        )
    return findings
