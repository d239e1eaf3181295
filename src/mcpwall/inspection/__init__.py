"""Inspection: judging what servers show the model, and pinning it.

Architecture, leaf modules first:

- ``findings`` — :class:`Severity` and the immutable :class:`Finding` every check reports.
- ``normalize`` / ``decoding`` — undo disguises (ANSI, invisible, bidi and tag characters, NFKC,
  Latin look-alikes) and surface hidden text (base64/hex/percent runs, HTML comments,
  pseudo-tags) before matching; ``make_visible`` keeps raw escapes out of every report.
- ``rules.yaml`` + ``catalog`` — signal regexes as data, compiled once; custom rules join them.
- ``combos`` + ``scoring`` — the combination table: weak signals close together (a directive next
  to a secret file, a data flow next to an external sink...) make high and critical findings.
- ``fields`` — every model-visible string of a tool, prompt, resource or server instructions.
- ``detector`` — ``inspect_definition(kind, obj)``: the entry point.
- ``reports`` / ``evaluation`` — per-tool reports for ``mcpwall inspect`` and corpus measurement.
- ``pins`` — canonical JSON, definition hashes, field diffs and server identities (rug pulls).
"""

from typing import TYPE_CHECKING

from mcpwall.inspection.findings import Finding, Severity, max_severity
from mcpwall.inspection.normalize import make_visible, normalize
from mcpwall.inspection.pins import (
    FieldChange,
    canonical_json,
    definition_hash,
    diff_definitions,
    instructions_hash,
    server_identity,
)
from mcpwall.lazy import lazy_exports

if TYPE_CHECKING:
    from mcpwall.inspection.catalog import CatalogError, RuleSpec, compile_rules
    from mcpwall.inspection.detector import inspect_definition
    from mcpwall.inspection.evaluation import EvaluationReport, evaluate, render
    from mcpwall.inspection.reports import inspect_file

_HOMES = {
    "catalog": ("CatalogError", "RuleSpec", "compile_rules"),
    "detector": ("inspect_definition",),
    "evaluation": ("EvaluationReport", "evaluate", "render"),
    "reports": ("inspect_file",),
}
# The heavy half of the API (catalog, detector, evaluation) is imported on first use:
# ``mcpwall run`` must not pay for the detector before its server has started.
__getattr__ = lazy_exports("mcpwall.inspection", _HOMES)

__all__ = [
    "CatalogError",
    "EvaluationReport",
    "FieldChange",
    "Finding",
    "RuleSpec",
    "Severity",
    "canonical_json",
    "compile_rules",
    "definition_hash",
    "diff_definitions",
    "evaluate",
    "inspect_definition",
    "inspect_file",
    "instructions_hash",
    "make_visible",
    "max_severity",
    "normalize",
    "render",
    "server_identity",
]
