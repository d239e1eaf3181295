"""Train the learned signal (src/mcpwall/inspection/model.json) and report how it does out of fold.

    .venv/bin/python training/train_model.py            # train, report, write the model
    .venv/bin/python training/train_model.py --dry-run  # report only

Data, none of it from ../shared:
- attacks and honest look-alikes: the development probe sets (benchmarks/probes/dev*-*.jsonl);
  the held-out sets are never read here;
- public attacks and the honest tools beside them: training/public/*-attacks.jsonl and
  *-benign.jsonl, poisoned and clean definitions gathered from public repositories and packages
  (each record names its source), each set measured unseen before it was trained on;
- ordinary definitions: training/ordinary-*.jsonl and training/tune*/*.jsonl, real tools/list
  results of public npm and PyPI servers (training/gather_npm.py, training/gather_pypi.py).

The thresholds are set out of fold: definitions are split into folds by origin (a probe set, a
public set, a package), each fold is scored by a model trained on the others, and the threshold is
the higher of two quantiles of those scores — ordinary definitions (--ordinary-quantile) and
look-alikes (--lookalike-quantile). A short definition (fewer than ``MIN_TERMS`` terms, at least
``MIN_SHORT_TERMS``) has a threshold of its own, the same way from the short ones' scores with
stricter quantiles (--short-ordinary-quantile, --short-lookalike-quantile): on a few words the
score swings further, and hand-written look-alikes of attacks are mostly short. The model
written is then trained on everything.

Needs scikit-learn (`pip install -e '.[train]'`); mcpwall itself only reads the JSON.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import orjson
from scipy.sparse import csr_matrix
from sklearn.linear_model import LogisticRegression

from mcpwall.inspection import Severity, inspect_definition, max_severity, normalize
from mcpwall.inspection.learned import MIN_SHORT_TERMS, MIN_TERMS, terms, visible_texts

ROOT = Path(__file__).resolve().parent.parent
FOLDS = 5


class Data:
    """Definitions with labels (1 attack, 0 not), kinds (attack, lookalike, ordinary) and origins."""

    def __init__(self) -> None:
        self.tools: list[dict[str, object]] = []
        self.labels: list[int] = []
        self.kinds: list[str] = []
        self.origins: list[str] = []
        self.files: list[Path] = []

    def add(self, tool: object, label: int, kind: str, origin: str) -> None:
        if isinstance(tool, dict):
            self.tools.append(tool)
            self.labels.append(label)
            self.kinds.append(kind)
            self.origins.append(origin)


def _rows(path: Path, data: Data) -> list[dict[str, object]]:
    data.files.append(path)
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


INSTRUCTIONS = frozenset({"<instructions>", "__server_instructions__"})
"""Names a public set gives a server's instructions (held as a tool record): the model reads tools only."""


def _paired(attacks: list[Path], data: Data, origin_of: Callable[[Path], str]) -> None:
    """Each attacks file with its benign twin: attacks, and honest tools as look-alikes."""
    for path in attacks:
        origin = origin_of(path)
        twin = path.with_name(path.name.replace("-attacks.jsonl", "-benign.jsonl"))
        for label, kind, file in ((1, "attack", path), (0, "lookalike", twin)):
            for row in _rows(file, data):
                tool = row["tool"]
                if not (isinstance(tool, dict) and tool.get("name") in INSTRUCTIONS):
                    data.add(tool, label, kind, origin)


def _public_round(path: Path) -> str:
    """A public set's origin is its round (``public-23`` for 23a, 23b, 23c): one round's sets
    were gathered together and may share repositories, so they stay in one fold."""
    return "public-" + "".join(ch for ch in path.name.split("-")[0] if ch.isdigit())


def load(probes: Path, public: Path, ordinary: list[Path]) -> Data:
    data = Data()
    _paired(sorted(probes.glob("dev*-attacks.jsonl")), data, lambda path: path.name.split("-")[0])
    _paired(sorted(public.glob("*-attacks.jsonl")), data, _public_round)
    for path in ordinary:
        for row in _rows(path, data):
            package = str(row.get("id", "")).rsplit(":", 1)[0]
            data.add(row.get("tool"), 0, "ordinary", package)
    return data


def _normalized(raw: str) -> str:
    return normalize(raw).text


Bag = dict[str, int]
"""A definition's terms with their counts, over all its model-visible strings."""


def bag_of(tool: dict[str, object]) -> Bag:
    """The terms of a definition as the detector weighs them (`Model.weigh` over each string)."""
    bag: Bag = {}
    for text in visible_texts("tool", tool, _normalized):
        for term in terms(text):
            bag[term] = bag.get(term, 0) + 1
    return bag


def matrix(bags: list[Bag], vocabulary: dict[str, int]) -> csr_matrix:
    """Rows of count/sqrt(total count) on each term in the vocabulary (the runtime's scaling)."""
    rows, cols, values = [], [], []
    for i, bag in enumerate(bags):
        total = sum(bag.values())
        for term, count in bag.items():
            column = vocabulary.get(term)
            if column is not None:
                rows.append(i)
                cols.append(column)
                values.append(count / math.sqrt(total))
    return csr_matrix((values, (rows, cols)), shape=(len(bags), len(vocabulary)))


def vocabulary_of(bags: list[Bag], min_count: int) -> dict[str, int]:
    """Terms found in at least ``min_count`` definitions."""
    counts: dict[str, int] = {}
    for bag in bags:
        for term in bag:
            counts[term] = counts.get(term, 0) + 1
    kept = sorted(t for t, n in counts.items() if n >= min_count)
    return {t: i for i, t in enumerate(kept)}


def fit(bags: list[Bag], labels: np.ndarray, weights: np.ndarray, args: argparse.Namespace):  # type: ignore[no-untyped-def]
    vocabulary = vocabulary_of(bags, args.min_count)
    model = LogisticRegression(C=args.c, max_iter=5000)
    model.fit(matrix(bags, vocabulary), labels, sample_weight=weights)
    return vocabulary, model


PACKAGE_CAP = 50
"""An ordinary package with more tools than this weighs as much as one with this many (one server
with 400 tools would otherwise speak for a tenth of the ordinary data)."""


def sample_weights(data: Data, ordinary_weight: float) -> np.ndarray:
    """Look-alikes weigh as much in total as the attacks do, ordinary definitions
    ``ordinary_weight`` times as much, no package more than `PACKAGE_CAP` tools."""
    kinds = np.array(data.kinds)
    weights = np.ones(len(kinds))
    sizes: dict[str, int] = {}
    for kind, origin in zip(data.kinds, data.origins, strict=True):
        if kind == "ordinary":
            sizes[origin] = sizes.get(origin, 0) + 1
    for i, origin in enumerate(data.origins):
        if data.kinds[i] == "ordinary":
            weights[i] = min(1.0, PACKAGE_CAP / sizes[origin])
    attacks = (kinds == "attack").sum()
    for kind, factor in (("lookalike", 1.0), ("ordinary", ordinary_weight)):
        mask = kinds == kind
        total = weights[mask].sum()
        if total:
            weights[mask] *= factor * attacks / total
    return weights


def fold_of(origins: list[str]) -> np.ndarray:
    names = sorted(set(origins))
    order = {name: i % FOLDS for i, name in enumerate(names)}
    return np.array([order[o] for o in origins])


def out_of_fold(bags: list[Bag], data: Data, args: argparse.Namespace) -> np.ndarray:
    labels = np.array(data.labels)
    weights = sample_weights(data, args.ordinary_weight)
    folds = fold_of(data.origins)
    scores = np.zeros(len(labels))
    for fold in range(FOLDS):
        train = np.where(folds != fold)[0]
        test = np.where(folds == fold)[0]
        vocabulary, model = fit([bags[i] for i in train], labels[train], weights[train], args)
        scores[test] = model.decision_function(matrix([bags[i] for i in test], vocabulary))
    return scores


def rules_high(tools: list[dict[str, object]]) -> np.ndarray:
    flagged = []
    for tool in tools:
        severity = max_severity(inspect_definition("tool", tool, learned=False))
        flagged.append(severity is not None and severity >= Severity.HIGH)
    return np.array(flagged)


def sizes_of(bags: list[Bag]) -> np.ndarray:
    """Each definition's number of terms (what `MIN_TERMS` counts)."""
    return np.array([sum(bag.values()) for bag in bags])


def flagged_by(scores: np.ndarray, sizes: np.ndarray, thresholds: tuple[float, float]) -> np.ndarray:
    """What the detector flags: long definitions at the threshold, short ones at the short one."""
    threshold, short = thresholds
    long_ = sizes >= MIN_TERMS
    return (long_ & (scores >= threshold)) | (~long_ & (sizes >= MIN_SHORT_TERMS) & (scores >= short))


def report(scores: np.ndarray, bags: list[Bag], data: Data, thresholds: tuple[float, float]) -> None:
    kinds = np.array(data.kinds)
    flagged = flagged_by(scores, sizes_of(bags), thresholds)
    rules = rules_high(data.tools)
    print(f"threshold {thresholds[0]:.3f}, short definitions {thresholds[1]:.3f} (out of fold)")
    for kind in ("attack", "lookalike", "ordinary"):
        mask = kinds == kind
        n = int(mask.sum())
        print(
            f"{kind:10} {n:6}  model {int(flagged[mask].sum()):5}  rules {int(rules[mask].sum()):5}"
            f"  rules or model {int((flagged | rules)[mask].sum()):5}"
        )


def write(  # type: ignore[no-untyped-def]
    path: Path, vocabulary: dict[str, int], model, thresholds: tuple[float, float], data: Data, min_weight: float
) -> None:
    """Write the model, leaving out terms lighter than ``min_weight`` (memory: every term kept is a
    dict entry in each mcpwall process)."""
    coefficients = model.coef_[0]
    weights = {f: round(float(coefficients[i]), 5) for f, i in vocabulary.items() if abs(coefficients[i]) >= min_weight}
    counts = {kind: data.kinds.count(kind) for kind in ("attack", "lookalike", "ordinary")}
    files = {str(f.resolve().relative_to(ROOT)): hashlib.sha256(f.read_bytes()).hexdigest() for f in data.files}
    body = {
        "bias": float(model.intercept_[0]),
        "data": files,
        "short_threshold": thresholds[1],
        "threshold": thresholds[0],
        "trained_on": counts,
        "weights": weights,
    }
    path.write_bytes(orjson.dumps(body, option=orjson.OPT_SORT_KEYS) + b"\n")
    print(f"wrote {path} ({len(weights)} weights)")


def threshold_of(scores: np.ndarray, kinds: np.ndarray, lookalike_quantile: float, ordinary_quantile: float) -> float:
    """The higher of the ordinary and look-alike quantiles of out-of-fold scores."""
    ordinary = scores[kinds == "ordinary"]
    lookalike = float(np.quantile(scores[kinds == "lookalike"], lookalike_quantile))
    return max(lookalike, float(np.quantile(ordinary, ordinary_quantile))) if len(ordinary) else lookalike


def thresholds_of(scores: np.ndarray, bags: list[Bag], data: Data, args: argparse.Namespace) -> tuple[float, float]:
    """The threshold of long definitions, then that of short ones (each from its own scores)."""
    kinds = np.array(data.kinds)
    sizes = sizes_of(bags)
    long_ = sizes >= MIN_TERMS
    short = ~long_ & (sizes >= MIN_SHORT_TERMS)
    return (
        threshold_of(scores[long_], kinds[long_], args.lookalike_quantile, args.ordinary_quantile),
        threshold_of(scores[short], kinds[short], args.short_lookalike_quantile, args.short_ordinary_quantile),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--probes", type=Path, default=ROOT / "benchmarks" / "probes")
    parser.add_argument("--public", type=Path, default=ROOT / "training" / "public")
    parser.add_argument(
        "--ordinary",
        type=Path,
        nargs="*",
        default=sorted((ROOT / "training").glob("ordinary-*.jsonl"))
        + sorted((ROOT / "training").glob("tune*/*.jsonl")),
    )
    parser.add_argument("--out", type=Path, default=ROOT / "src" / "mcpwall" / "inspection" / "model.json")
    parser.add_argument("--c", type=float, default=16.0)
    parser.add_argument("--min-count", type=int, default=2)
    parser.add_argument("--ordinary-weight", type=float, default=3.0)
    parser.add_argument("--ordinary-quantile", type=float, default=0.997)
    parser.add_argument("--lookalike-quantile", type=float, default=0.99)
    parser.add_argument("--short-ordinary-quantile", type=float, default=0.999)
    parser.add_argument("--short-lookalike-quantile", type=float, default=0.998)
    parser.add_argument("--min-weight", type=float, default=0.4)
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    data = load(args.probes, args.public, args.ordinary)
    bags = [bag_of(tool) for tool in data.tools]
    scores = out_of_fold(bags, data, args)
    thresholds = thresholds_of(scores, bags, data, args)
    report(scores, bags, data, thresholds)
    if not args.dry_run:
        vocabulary, model = fit(bags, np.array(data.labels), sample_weights(data, args.ordinary_weight), args)
        write(args.out, vocabulary, model, thresholds, data, args.min_weight)
    return 0


if __name__ == "__main__":
    sys.exit(main())
