"""Detector rates on the probe sets in benchmarks/probes (see its README for which are held out).

For every set: attacks flagged at severity >= high, and benign look-alikes flagged at >= high.

Reproduce: .venv/bin/python benchmarks/eval_probes.py [--show-misses] [--dev-only]

``--dev-only`` skips every set whose name starts with ``heldout``: use it while tuning rules, so
that the held-out sets stay a blind estimate.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import orjson

from mcpwall.inspection import Severity, inspect_definition, max_severity

PROBES = Path(__file__).resolve().parent / "probes"
HELD_OUT = "heldout"
"""Prefix of the sets kept blind (skipped by ``--dev-only``)."""


def flagged(path: Path) -> tuple[int, int, list[str]]:
    """(flagged at >= high, total, ids not flagged) of one JSONL file."""
    rows = [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
    hits, misses = 0, []
    for row in rows:
        top = max_severity(inspect_definition("tool", row["tool"]))
        if top is not None and top >= Severity.HIGH:
            hits += 1
        else:
            misses.append(str(row["id"]))
    return hits, len(rows), misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--dev-only", action="store_true", help="skip the held-out sets (names starting heldout)")
    args = parser.parse_args()
    print(f"{'set':10} {'attacks >= high':>16} {'benign >= high':>15}")
    for attacks in sorted(PROBES.glob("*-attacks.jsonl")):
        name = attacks.name.removesuffix("-attacks.jsonl")
        if args.dev_only and name.startswith(HELD_OUT):
            continue
        hit, total, missed = flagged(attacks)
        fp, benign_total, _ = flagged(PROBES / f"{name}-benign.jsonl")
        print(f"{name:10} {hit:>8}/{total:<3} {hit / total:4.0%} {fp:>7}/{benign_total:<3} {fp / benign_total:4.0%}")
        if args.show_misses and missed:
            print(f"{'':10} missed: {', '.join(missed)}")


if __name__ == "__main__":
    main()
