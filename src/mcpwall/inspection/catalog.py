"""The rule catalog: signal patterns kept as data in ``rules.yaml``, compiled once.

A :class:`RuleSpec` is what a catalog entry or an operator's custom rule says; a :class:`Rule`
is the same with its pattern compiled. ``builtin_rules()`` loads the packaged catalog on first
use and caches it; ``compile_rules(extra)`` returns the built-in rules followed by custom ones.
A built-in rule compiles its regex on first use: the prefilter lets few rules run in a typical
process, and compiling all of them would cost start-up tens of milliseconds (a test compiles
every one). The catalog's specs are read from the requirements table (:mod:`~mcpwall.inspection.requirements`),
where they were stored parsed with the digest of the ``rules.yaml`` they came from: start-up parses
no YAML. When ``rules.yaml`` has another digest (edited since the table was built) or the table
is damaged, the YAML is parsed instead: a stale copy is never trusted.
A custom rule is compiled at once, so that a bad pattern is a configuration error;
it reports alone at its own severity and also feeds the combination scoring under its
``signal`` (its category, unless given).
"""

from __future__ import annotations

import importlib
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal

import yaml

from mcpwall.inspection.findings import Severity
from mcpwall.inspection.requirements import catalog_digest, packaged_table

CATALOG_FILE = "rules.yaml"
SAFE_LOADER: type[yaml.SafeLoader] | type[yaml.CSafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader when PyYAML has it (ten times faster at start-up), else the pure one."""
KNOWN_FLAGS = frozenset({"silent", "case_sensitive", "cyrillic"})


class CatalogError(ValueError):
    """A rule catalog or a custom rule is malformed; the message names the rule."""


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """One rule as written in the catalog or in the configuration.

    Attributes:
        id: stable rule id.
        category: mechanism category reported in findings.
        severity: severity when the rule is reported on its own.
        pattern: a Python regular expression (bounded repetition only).
        description: what a match means, for the operator.
        signal: mechanism name used by the combination scoring (defaults to ``category``).
        flags: ``silent`` (feed scoring only, never reported alone), ``case_sensitive``,
            ``cyrillic`` (the pattern only matches text holding a Cyrillic letter: the prefilter
            runs it on such text only, since it cannot index cased non-ASCII literals).
        fields: JSON paths the rule applies to (all fields when empty).
    """

    id: str
    category: str
    severity: Severity
    pattern: str
    description: str = ""
    signal: str = ""
    flags: frozenset[str] = field(default_factory=frozenset)
    fields: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True, slots=True)
class Rule:
    """A :class:`RuleSpec` with its regex, compiled now or on first use."""

    spec: RuleSpec
    compiled: list[re.Pattern[str]] = field(default_factory=list, compare=False, repr=False)
    """The regex once compiled (empty until then)."""
    gates: list[re.Pattern[str] | None] = field(default_factory=list, compare=False, repr=False)
    """The lower-case gate once built (empty until then; None in it when the rule has none)."""
    exact: bool | None = field(default=None, compare=False, repr=False)
    """Whether the rule has a gate, as the requirements table recorded it (:func:`gate_exact`),
    or None when not known: then the pattern is checked when the gate is first needed."""

    @property
    def options(self) -> int:
        """The ``re`` flags the pattern is compiled with."""
        return 0 if "case_sensitive" in self.spec.flags else re.IGNORECASE

    @property
    def regex(self) -> re.Pattern[str]:
        """The compiled pattern (compiled on first use; two threads may both compile it, harmlessly)."""
        if not self.compiled:
            self.compiled.append(re.compile(self.spec.pattern, self.options))
        return self.compiled[0]

    @property
    def gate(self) -> re.Pattern[str] | None:
        """The pattern compiled case-sensitively, for lower-cased ASCII text (see :func:`lower_gate`),
        or None when that would not be exact (built on first use)."""
        if not self.gates:
            self.gates.append(lower_gate(self.spec.pattern, self.options, self.exact))
        return self.gates[0]

    def finditer(self, text: str, lowered: str | None) -> Iterator[RuleMatch]:
        """Every match of the rule in ``text``, as its own regex finds them; ``lowered`` is
        ``text.lower()`` when ``text`` is ASCII (else None).

        A rule with a gate finds them with the gate on ``lowered`` (same spans: lower-casing ASCII
        moves nothing) and reads them on ``text`` (:class:`LoweredMatch`): the gate runs without
        ``re.IGNORECASE``, about twice as fast as the rule's own regex (most rules the prefilter lets
        through do not match), and the rule's own regex is then never compiled for ASCII text."""
        if lowered is not None:
            gate = self.gate
            if gate is not None:
                names = gate.groupindex
                return (LoweredMatch(text, m.regs, names) for m in gate.finditer(lowered))
        return self.regex.finditer(text)

    @property
    def signal(self) -> str:
        """The mechanism name this rule feeds into scoring."""
        return self.spec.signal or self.spec.category

    def applies_to(self, field_path: str) -> bool:
        """True when the rule matches in this field."""
        return not self.spec.fields or field_path in self.spec.fields

    @property
    def silent(self) -> bool:
        """True when the rule only feeds scoring and is never reported alone."""
        return "silent" in self.spec.flags


class LoweredMatch:
    """A gate's match (see :meth:`Rule.finditer`) read on the original text: what the detector
    asks of a rule's match (``start``, ``end``, ``group(0)``, ``groupdict``), answered as the
    rule's own ``re.Match`` would, the spans being the same. Keeps the spans, not the lowered text."""

    __slots__ = ("names", "regs", "text")

    def __init__(self, text: str, regs: tuple[tuple[int, int], ...], names: Mapping[str, int]) -> None:
        self.text = text
        self.regs = regs
        """The span of the whole match, then of each group ((-1, -1) when it took no part)."""
        self.names = names
        """The pattern's named groups, to their index in ``regs``."""

    def start(self) -> int:
        return self.regs[0][0]

    def end(self) -> int:
        return self.regs[0][1]

    def span(self) -> tuple[int, int]:
        return self.regs[0]

    def group(self, index: Literal[0] = 0, /) -> str:
        start, end = self.regs[index]
        return self.text[start:end]

    def groupdict(self) -> dict[str, str | None]:
        found: dict[str, str | None] = {}
        for name, index in self.names.items():
            start, end = self.regs[index]
            found[name] = self.text[start:end] if start >= 0 else None
        return found


RuleMatch = re.Match[str] | LoweredMatch
"""A rule's match: its regex's own, or its gate's read on the original text."""


CASE_ESCAPES = frozenset({0x130, 0x131, 0x17F, 0x212A})
"""The non-ASCII characters ``re.IGNORECASE`` matches to an ASCII letter (İ ı ſ K): a pattern holding
one gets no gate (``tests/inspection/test_catalog_gates.py`` checks the list against every code point)."""


_SRE: Any = importlib.import_module("re._constants")
_PARSER: Any = importlib.import_module("re._parser")
_COMPILER: Any = importlib.import_module("re._compiler")
_FREE_OPS = frozenset({_SRE.ANY, _SRE.AT, _SRE.CATEGORY, _SRE.GROUPREF, _SRE.NEGATE})
"""Parsed operations that test no character's case (on ASCII text)."""
_CHAR_OPS = frozenset({_SRE.LITERAL, _SRE.NOT_LITERAL})
_NESTED: dict[Any, Callable[[Any], list[Any]]] = {
    _SRE.IN: lambda av: [av],
    _SRE.ATOMIC_GROUP: lambda av: [av],
    _SRE.BRANCH: lambda av: list(av[1]),
    _SRE.MAX_REPEAT: lambda av: [av[2]],
    _SRE.MIN_REPEAT: lambda av: [av[2]],
    _SRE.POSSESSIVE_REPEAT: lambda av: [av[2]],
    _SRE.ASSERT: lambda av: [av[1]],
    _SRE.ASSERT_NOT: lambda av: [av[1]],
    _SRE.GROUPREF_EXISTS: lambda av: [branch for branch in av[1:] if branch is not None],
}
"""The sub-patterns of a parsed operation that holds others."""


def lower_gate(pattern: str, options: int, exact: bool | None = None) -> re.Pattern[str] | None:
    """The pattern compiled without ``re.IGNORECASE``, when it then matches a lower-cased ASCII text
    exactly where the case-insensitive pattern matches the text itself (see :func:`gate_exact`);
    else None. ``exact`` is :func:`gate_exact` of the pattern when already known (the requirements
    table records it for the packaged catalog): the pattern is then compiled without a check.
    """
    if not options & re.IGNORECASE or exact is False:
        return None
    flags = options & ~re.IGNORECASE
    if exact:
        return re.compile(pattern, flags)
    tree = _exact_tree(pattern, options)
    if tree is None:
        return None
    gate: re.Pattern[str] = _COMPILER.compile(tree, flags)  # the tree parsed for the check: not parsed twice
    return gate


def gate_exact(pattern: str, options: int) -> bool:
    """Whether the case-insensitive pattern has a lower-case gate (:func:`lower_gate`).

    That holds when no character the pattern tests is an ASCII capital or one of
    `CASE_ESCAPES` (for ASCII text, ignoring case is then comparing lower-cased characters: a
    letter class, ``\\b``, ``\\w`` and a back-reference read a lower-cased text alike), and no
    inline flag changes case sensitivity. Only a case-insensitive rule has a gate.
    """
    return bool(options & re.IGNORECASE) and _exact_tree(pattern, options) is not None


def _exact_tree(pattern: str, options: int) -> Any:
    """The pattern parsed without ``re.IGNORECASE`` when its gate is exact, else None."""
    try:
        tree = _PARSER.parse(pattern, options & ~re.IGNORECASE)
    except re.error:
        return None
    if tree.state.flags & (re.IGNORECASE | re.LOCALE) or not _lower_closed(tree):
        return None
    return tree


def _safe_char(code: int) -> bool:
    return not (0x41 <= code <= 0x5A or code in CASE_ESCAPES)


def _lower_closed(nodes: Any) -> bool:
    """Whether a parsed pattern tests no capital (nor a `CASE_ESCAPES` character) and sets no flag."""
    stack = [nodes]
    while stack:
        for op, av in stack.pop():
            children = _children(op, av)
            if children is None:
                return False
            stack += children
    return True


def _children(op: Any, av: Any) -> list[Any] | None:
    """The parts of one parsed node left to check, or None when the node rules the gate out."""
    if op in _FREE_OPS:
        return []
    if op in _CHAR_OPS:
        return [] if _safe_char(av) else None
    if op is _SRE.RANGE:
        low, high = av
        unsafe = (low <= 0x5A and high >= 0x41) or any(low <= code <= high for code in CASE_ESCAPES)
        return None if unsafe else []
    if op is _SRE.SUBPATTERN:
        return None if av[1] or av[2] else [av[3]]  # an inline flag group: no gate
    nested = _NESTED.get(op)
    return None if nested is None else nested(av)  # an operation not reviewed here: no gate


_WARMING: dict[int, tuple[Rule, ...]] = {}
"""Rule sets (by identity) a warm-up thread was started for: at most one per set per process. The
set itself is kept, so that its identity cannot be reused by a later rule set."""


NON_ASCII_COMPILE_DELAY = 2.0
"""Seconds the warm-up thread waits before compiling the regexes only non-ASCII text needs (the
rules with a lower-case gate): about 230 ms of compiling that otherwise ran while a typical
server's first listing arrived (0.6-0.7 s after start) and competed with it for the GIL. A
non-ASCII listing that comes sooner compiles the rules it needs itself."""


def warm_up(rules: tuple[Rule, ...], then: Callable[[], object] | None = None) -> threading.Thread | None:
    """Compile every rule of ``rules`` not compiled yet, in a background thread (then run
    ``then`` there too, if given: more once-per-process work that should stay off the first listing).

    Compiling on first use keeps start-up short, but then the first listing pays for the rules
    it needs (about 1 ms each). Started once the server is spawned, this thread compiles them
    while mcpwall waits for the server to start (hundreds of milliseconds for most real
    servers); a rule the listing needs before the thread reached it is simply compiled there.
    Returns the thread, or None when one was already started for this rule set.
    """
    if id(rules) in _WARMING:
        return None
    _WARMING[id(rules)] = rules
    thread = threading.Thread(target=_compile_all, args=(rules, then), name="mcpwall-rules", daemon=True)
    thread.start()
    return thread


def _compile_all(rules: tuple[Rule, ...], then: Callable[[], object] | None) -> None:
    """Each rule's gate, or its regex when it has none (what ASCII text needs), then ``then``,
    then, after `NON_ASCII_COMPILE_DELAY`, the regexes of rules with a gate (needed for non-ASCII
    text only)."""
    for rule in rules:
        if rule.gate is None:
            rule.regex  # noqa: B018 - compiling is the point
        time.sleep(0)  # give the GIL back between rules: the relay never waits more than one compile
    if then is not None:
        then()
    time.sleep(NON_ASCII_COMPILE_DELAY)
    for rule in rules:
        rule.regex  # noqa: B018 - as above
        time.sleep(0)


def compile_rule(spec: RuleSpec, *, lazily: bool = False, exact: bool | None = None) -> Rule:
    """Compile one rule spec.

    Args:
        spec: the rule.
        lazily: compile its regex on first use instead (for the packaged catalog only: its
            patterns are known to compile).
        exact: whether it has a lower-case gate, when known (see `Rule.exact`).

    Raises:
        CatalogError: unknown flags or an invalid pattern.
    """
    unknown = spec.flags - KNOWN_FLAGS
    if unknown:
        raise CatalogError(f"rule {spec.id}: unknown flags {sorted(unknown)}")
    rule = Rule(spec, exact=exact)
    if not lazily:
        try:
            rule.regex  # noqa: B018 - compiling now is the point: a bad pattern fails here
        except re.error as exc:
            raise CatalogError(f"rule {spec.id}: invalid pattern: {exc}") from exc
    return rule


def _spec_from_entry(entry: object) -> RuleSpec:
    if not isinstance(entry, dict):
        raise CatalogError(f"rule entry must be a mapping, got {type(entry).__name__}")
    try:
        return RuleSpec(
            id=str(entry["id"]),
            category=str(entry["category"]),
            severity=Severity.parse(str(entry["severity"])),
            pattern=str(entry["pattern"]).strip(),
            description=str(entry.get("description", "")),
            signal=str(entry.get("signal", "")),
            flags=frozenset(str(f) for f in entry.get("flags", []) or []),
            fields=frozenset(str(f) for f in entry.get("fields", []) or []),
        )
    except (KeyError, ValueError) as exc:
        raise CatalogError(f"rule {entry.get('id', '?')}: {exc}") from exc


def spec_row(spec: RuleSpec) -> list[Any]:
    """A spec as the requirements table stores it (see :func:`spec_from_row`)."""
    return [
        spec.id,
        spec.category,
        spec.severity.label,
        spec.pattern,
        spec.description,
        spec.signal,
        sorted(spec.flags),
        sorted(spec.fields),
    ]


def spec_from_row(row: object) -> RuleSpec:
    """A spec from its :func:`spec_row`.

    Raises:
        CatalogError: the row is not eight strings and two lists of strings.
    """
    if not isinstance(row, list) or len(row) != 8:
        raise CatalogError("a stored spec is a list of eight fields")
    *texts, flags, fields = row
    if not all(type(text) is str for text in texts) or not all(
        isinstance(names, list) and all(type(name) is str for name in names) for names in (flags, fields)
    ):
        raise CatalogError("a stored spec is six strings and two lists of strings")
    rule_id, category, severity, pattern, description, signal = texts
    try:
        level = Severity.parse(severity)
    except ValueError as exc:
        raise CatalogError(f"rule {rule_id}: {exc}") from exc
    return RuleSpec(rule_id, category, level, pattern, description, signal, frozenset(flags), frozenset(fields))


def _safe_load(text: str) -> object:
    """What ``yaml.safe_load`` returns, through `SAFE_LOADER`."""
    loader = SAFE_LOADER(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def parse_catalog(text: str) -> list[RuleSpec]:
    """Parse catalog YAML text into rule specs.

    Raises:
        CatalogError: the document is not a mapping with a ``rules`` list of valid entries.
    """
    try:
        document = _safe_load(text)
    except yaml.YAMLError as exc:
        raise CatalogError(f"catalog is not valid YAML: {exc}") from exc
    if not isinstance(document, dict) or not isinstance(document.get("rules"), list):
        raise CatalogError("catalog must be a mapping with a 'rules' list")
    return [_spec_from_entry(entry) for entry in document["rules"]]


def catalog_text() -> bytes:
    """The packaged ``rules.yaml``."""
    return resources.files("mcpwall.inspection").joinpath(CATALOG_FILE).read_bytes()


def catalog_specs(text: bytes, stored_digest: str, stored: tuple[RuleSpec, ...]) -> tuple[RuleSpec, ...]:
    """The specs of a catalog: the stored ones when they were parsed from this very text, else parsed now.

    Args:
        text: the catalog (``rules.yaml``).
        stored_digest: the :func:`~mcpwall.inspection.requirements.catalog_digest` of the text
            the stored specs were parsed from.
        stored: the specs the requirements table carries.
    """
    if stored and stored_digest == catalog_digest(text):
        return stored
    return tuple(parse_catalog(text.decode("utf-8")))


@cache
def builtin_rules() -> tuple[Rule, ...]:
    """The packaged catalog, loaded once per process (each regex compiled on first use)."""
    table = packaged_table()
    specs = catalog_specs(catalog_text(), table.catalog, table.specs)
    if specs is not table.specs:  # rules.yaml parsed: the table's record of the gates is not for these
        return tuple(compile_rule(spec, lazily=True) for spec in specs)
    return tuple(compile_rule(spec, lazily=True, exact=i in table.gated) for i, spec in enumerate(specs))


def compile_rules(extra: list[RuleSpec] | None = None) -> tuple[Rule, ...]:
    """The built-in rules followed by compiled custom rules.

    Args:
        extra: custom rules from the configuration.

    Raises:
        CatalogError: a custom rule is invalid or reuses a built-in id.
    """
    rules = builtin_rules()
    if not extra:
        return rules
    taken = {rule.spec.id for rule in rules}
    custom: list[Rule] = []
    for spec in extra or []:
        if spec.id in taken:
            raise CatalogError(f"rule {spec.id}: id already used")
        taken.add(spec.id)
        custom.append(compile_rule(spec))
    return rules + tuple(custom)
