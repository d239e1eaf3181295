"""The definition detector: normalize every model-visible string, match signals, score.

``inspect_definition(kind, obj)`` is the entry point. For each string from
:func:`~mcpwall.inspection.fields.visible_strings` it normalizes the text, reports disguises,
matches every catalog rule (reporting the non-silent ones alone), fires the combinations of
:mod:`scoring`, and scans hidden segments (tag characters, decoded runs, comments) the same way,
raising any order found in hidden text to ``hidden_instructions``.
"""

from __future__ import annotations

import re

from mcpwall.inspection.catalog import Rule, compile_rules
from mcpwall.inspection.decoding import Segment
from mcpwall.inspection.disguises import disguise_findings
from mcpwall.inspection.domain import Own, canon, is_value_slot, mention_spans, quoted_example, reclassify
from mcpwall.inspection.fields import visible_strings
from mcpwall.inspection.findings import Finding, Severity
from mcpwall.inspection.normalize import make_visible, normalize
from mcpwall.inspection.scoring import Hit, fired

Matches = tuple[tuple[Rule, re.Match[str]], ...]

CONTEXT = 60
MATCH_CACHE = 4096
GENERIC_TOOL_WORDS = frozenset(
    "this that same following above below selected appropriate right correct mcp other new current given "  # noqa: SIM905 - a word list reads best as text
    "relevant corresponding specific previous next first second a an any each".split()
)
HIDDEN_ORDERS = frozenset(
    {
        "directive",
        "override",
        "concealment",
        "persistence",
        "secret_file",
        "data_flow",
        "shell",
        "other_tool",
        "bad_host",
        "sink",
        "run_directive",
        "authority",
        "forced_value",
    }
)
VALUE_ORDERS = frozenset(
    {"directive", "override", "concealment", "persistence", "authority", "bypass", "run_directive", "prerequisite"}
)


def _is_foreign_tool(match: re.Match[str], own: Own) -> bool:
    name = next((v for k, v in match.groupdict().items() if k.startswith("tool") and v), None)
    if not name:
        return False
    name = canon(name)
    return name not in own.names and name not in GENERIC_TOOL_WORDS


def _signal(rule: Rule, match: re.Match[str], own: Own) -> str:
    """The rule's signal, except a forced value on the tool's own parameter (usage advice)."""
    named = match.groupdict()
    param = named.get("param") or named.get("param2")
    if rule.signal == "forced_value" and param and canon(param) in own.names:
        return "forced_own"
    return rule.signal


def _context(text: str, start: int, end: int) -> str:
    return make_visible(text[max(0, start - CONTEXT) : end + CONTEXT])


_MATCHES: dict[str, tuple[tuple[Rule, ...], Matches]] = {}


def _matches(text: str, rules: tuple[Rule, ...]) -> Matches:
    """Every rule match in a text, remembered for the same rules (schema strings repeat a lot)."""
    cached = _MATCHES.get(text)
    if cached is not None and cached[0] is rules:
        return cached[1]
    found = tuple((rule, m) for rule in rules for m in rule.regex.finditer(text))
    if len(_MATCHES) >= MATCH_CACHE:
        _MATCHES.clear()
    _MATCHES[text] = (rules, found)
    return found


def _hits(text: str, rules: tuple[Rule, ...], own: Own, field: str = "") -> list[tuple[Rule, Hit]]:
    found = []
    for rule, m in _matches(text, rules):
        if rule.applies_to(field):
            if rule.signal == "other_tool" and not _is_foreign_tool(m, own):
                continue
            found.append((rule, Hit(_signal(rule, m, own), rule.spec.id, m.start(), m.end(), field, m.group(0))))
    return found


def _solo(field: str, text: str, rule: Rule, hit: Hit) -> Finding:
    spec = rule.spec
    matched = make_visible(text[hit.start : hit.end])
    context = _context(text, hit.start, hit.end)
    return Finding(spec.id, spec.category, spec.severity, field, matched, hit.start, context, spec.description)


def score_text(field: str, text: str, rules: tuple[Rule, ...], own: Own) -> tuple[list[Finding], list[Hit]]:
    """Findings for one normalized text: reportable signals alone, then fired combinations.

    Returns:
        The findings, and every hit (for callers that judge hidden text).
    """
    spans = mention_spans(text)
    pairs = [(rule, hit) for rule, hit in _hits(text, rules, own, field) if not quoted_example(hit, spans)]
    findings = [_solo(field, text, rule, hit) for rule, hit in pairs if not rule.silent]
    hits = reclassify(sorted((hit for _, hit in pairs), key=lambda h: h.start), text, field, own)
    for combo, chosen in fired(hits):
        start, end = min(h.start for h in chosen), max(h.end for h in chosen)
        findings.append(
            Finding(
                combo.id,
                combo.category,
                combo.severity,
                field,
                make_visible(text[start:end])[:400],
                start,
                _context(text, start, end),
                combo.description,
            )
        )
    return findings, hits


def _hidden(field: str, segment: Segment, rules: tuple[Rule, ...], own: Own) -> list[Finding]:
    findings, hits = score_text(f"{field}<{segment.channel}>", segment.text, rules, own)
    orders = [h for h in hits if h.signal in HIDDEN_ORDERS]
    if orders:
        first = orders[0]
        findings.append(
            Finding(
                "hidden.instructions",
                "hidden_instructions",
                Severity.HIGH,
                field,
                make_visible(segment.text[:300]),
                segment.position,
                make_visible(segment.source[:300]),
                f"Instructions hidden in {segment.channel}: {sorted({h.signal for h in orders})}; "
                f"first at {first.start}.",
            )
        )
    return findings


def _value_orders(field: str, text: str, hits: list[Hit]) -> list[Finding]:
    """An order in a schema value (default, enum, example): data the model copies, never addressed to it."""
    orders = [h for h in hits if h.signal in VALUE_ORDERS]
    if not orders:
        return []
    return [
        Finding(
            "value.instructions",
            "hidden_instructions",
            Severity.HIGH,
            field,
            make_visible(text[:300]),
            orders[0].start,
            _context(text, orders[0].start, orders[0].end),
            f"Instructions in a schema value: {sorted({h.signal for h in orders})}.",
        )
    ]


def inspect_string(field: str, raw: str, rules: tuple[Rule, ...], own: Own) -> tuple[list[Finding], list[Hit]]:
    """All findings for one model-visible string, and the signal hits in its visible text.

    Args:
        field: JSON path of the string.
        raw: the string as the server sent it.
        rules: compiled rules (see :func:`compile_rules`).
        own: the definition's own names, so self-references are not "other tools".
    """
    normalized = normalize(raw)
    findings = disguise_findings(field, normalized)
    scored, hits = score_text(field, normalized.text, rules, own)
    findings += scored
    if is_value_slot(field):
        findings += _value_orders(field, normalized.text, hits)
    for segment in normalized.hidden:
        findings += _hidden(field, segment, rules, own)
    return findings, hits


def _definition_wide(hits: list[Hit]) -> list[Finding]:
    findings = []
    for combo, chosen in fired(hits, whole_definition=True):
        fields = sorted({h.field for h in chosen})
        matched = make_visible(" | ".join(h.text for h in chosen))[:400]
        findings.append(
            Finding(
                combo.id,
                combo.category,
                combo.severity,
                ",".join(fields),
                matched,
                chosen[0].start,
                matched,
                combo.description,
            )
        )
    return findings


def inspect_definition(kind: str, obj: object, rules: tuple[Rule, ...] | None = None) -> list[Finding]:
    """Inspect every model-visible string of one definition.

    Args:
        kind: ``tool``, ``prompt``, ``resource``, ``resource_template`` or ``instructions``.
        obj: the definition as decoded JSON (a string for ``instructions``).
        rules: compiled rules; the built-in catalog when omitted.

    Returns:
        Findings ordered by descending severity, then field order.

    Raises:
        ValueError: unknown kind.
    """
    active = rules if rules is not None else compile_rules()
    own = Own.of(obj)
    findings: list[Finding] = []
    hits: list[Hit] = []
    for field, raw in visible_strings(kind, obj):
        field_findings, field_hits = inspect_string(field, raw, active, own)
        findings += field_findings
        hits += field_hits
    findings += _definition_wide(hits)
    return sorted(findings, key=lambda f: -f.severity)
