"""The rule catalog: signal patterns kept as data in ``rules.yaml``, compiled once.

A :class:`RuleSpec` is what a catalog entry or an operator's custom rule says; a :class:`Rule`
is the same with its pattern compiled. ``builtin_rules()`` loads the packaged catalog on first
use and caches it; ``compile_rules(extra)`` returns the built-in rules followed by custom ones.
A built-in rule compiles its regex on first use: the prefilter lets few rules run in a typical
process, and compiling all of them would cost start-up tens of milliseconds (a test compiles
every one). A custom rule is compiled at once, so that a bad pattern is a configuration error;
it reports alone at its own severity and also feeds the combination scoring under its
``signal`` (its category, unless given).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

import yaml

from mcpwall.inspection.findings import Severity

CATALOG_FILE = "rules.yaml"
SAFE_LOADER: type[yaml.SafeLoader] | type[yaml.CSafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader when PyYAML has it (ten times faster at start-up), else the pure one."""
KNOWN_FLAGS = frozenset({"silent", "case_sensitive"})


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
        flags: ``silent`` (feed scoring only, never reported alone), ``case_sensitive``.
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


def compile_rule(spec: RuleSpec, *, lazily: bool = False) -> Rule:
    """Compile one rule spec.

    Args:
        spec: the rule.
        lazily: compile its regex on first use instead (for the packaged catalog only: its
            patterns are known to compile).

    Raises:
        CatalogError: unknown flags or an invalid pattern.
    """
    unknown = spec.flags - KNOWN_FLAGS
    if unknown:
        raise CatalogError(f"rule {spec.id}: unknown flags {sorted(unknown)}")
    rule = Rule(spec)
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


@cache
def builtin_rules() -> tuple[Rule, ...]:
    """The packaged catalog, loaded once per process (each regex compiled on first use)."""
    text = resources.files("mcpwall.inspection").joinpath(CATALOG_FILE).read_text(encoding="utf-8")
    return tuple(compile_rule(spec, lazily=True) for spec in parse_catalog(text))


def compile_rules(extra: list[RuleSpec] | None = None) -> tuple[Rule, ...]:
    """The built-in rules followed by compiled custom rules.

    Args:
        extra: custom rules from the configuration.

    Raises:
        CatalogError: a custom rule is invalid or reuses a built-in id.
    """
    rules = builtin_rules()
    taken = {rule.spec.id for rule in rules}
    custom: list[Rule] = []
    for spec in extra or []:
        if spec.id in taken:
            raise CatalogError(f"rule {spec.id}: id already used")
        taken.add(spec.id)
        custom.append(compile_rule(spec))
    return rules + tuple(custom)
