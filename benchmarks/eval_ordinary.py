"""False positives of the detector on ordinary tools of real servers, per tool and per package.

    .venv/bin/python benchmarks/eval_ordinary.py                       # the check set (never trained on)
    .venv/bin/python benchmarks/eval_ordinary.py training/ordinary-*.jsonl
    .venv/bin/python benchmarks/eval_ordinary.py training/check2/*.jsonl   # the second check set (session 8)

Reads JSONL records ``{"id": "<package>:<tool>", "tool": {...}}`` (training/README.md) and counts
the tools flagged at severity high or above by the rules, by the learned model, and by either;
a package counts as flagged when any of its tools is. The last row weighs each package as at
most 50 tools, so that one server with a thousand tools does not decide the rate.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

from mcpwall.inspection import Severity, inspect_definition
from mcpwall.inspection.learned import RULE_ID

ROOT = Path(__file__).resolve().parent.parent
CAP = 50


@dataclass
class Package:
    tools: int = 0
    rules: int = 0
    model: int = 0
    either: int = 0


def tally(paths: list[Path]) -> dict[str, Package]:
    packages: dict[str, Package] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line) if line.strip() else {}
            if "tool" not in record:
                continue
            high = [f for f in inspect_definition("tool", record["tool"]) if f.severity >= Severity.HIGH]
            package = packages.setdefault(str(record["id"]).rsplit(":", 1)[0], Package())
            by_rules = any(f.rule != RULE_ID for f in high)
            by_model = any(f.rule == RULE_ID for f in high)
            package.tools += 1
            package.rules += by_rules
            package.model += by_model
            package.either += by_rules or by_model
    return packages


def _rate(flagged: float, total: float) -> str:
    return f"{flagged:g}/{total:g} ({100.0 * flagged / total if total else 0.0:.2f}%)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=sorted((ROOT / "training" / "check").glob("*.jsonl")))
    packages = tally(parser.parse_args().files).values()
    tools = sum(p.tools for p in packages)
    print(f"{'':28} {'rules':>20} {'model':>20} {'either':>20}")
    print(
        f"{'tools flagged':28} {_rate(sum(p.rules for p in packages), tools):>20}"
        f" {_rate(sum(p.model for p in packages), tools):>20} {_rate(sum(p.either for p in packages), tools):>20}"
    )
    print(
        f"{'packages with one flagged':28} {_rate(sum(p.rules > 0 for p in packages), len(packages)):>20}"
        f" {_rate(sum(p.model > 0 for p in packages), len(packages)):>20}"
        f" {_rate(sum(p.either > 0 for p in packages), len(packages)):>20}"
    )
    weights = [min(1.0, CAP / p.tools) for p in packages]
    capped = round(sum(w * p.tools for w, p in zip(weights, packages, strict=True)))
    cells = [
        _rate(round(sum(w * getattr(p, kind) for w, p in zip(weights, packages, strict=True)), 1), capped)
        for kind in ("rules", "model", "either")
    ]
    print(f"{f'tools, <= {CAP} per package':28}" + "".join(f" {cell:>20}" for cell in cells))


if __name__ == "__main__":
    main()
