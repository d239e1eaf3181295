"""A learned second signal: a linear model over the words of a whole tool definition.

The rules find attacks by their mechanisms, one phrase at a time; attacks phrased around every
trigger word slip past them. This model reads a definition as a bag of words and word pairs and
weighs them all at once. It was trained (``training/train_model.py``) on the team's development
probe sets — attacks against honest look-alikes —, on public attack sets with the honest tools
beside them (``training/public``), and on thousands of ordinary tool definitions gathered from
public npm and PyPI servers, never on ``../shared``. Its thresholds were set out of fold: on
look-alikes and ordinary definitions scored by models that had not seen them.

The features are deliberately simple so that scoring stays in C-level loops and microseconds:

- words: lower-cased runs of two or more letters; each CJK ideograph or kana character is a word
  of its own. A run of letters glued to digits (``e3b0c442``, ``v1``, a base64 blob) is no word,
  nor is a single letter (``\\d`` in a schema's pattern, ``e.g.``): they weighed like words
  (``c``, ``d``, ``e``) and made a hex digest or a date pattern look like a payload;
- the terms of a string: its words and its adjacent word pairs, each occurrence counted;
- score = bias + (sum of the weights of every term of every model-visible string, normalized as
  for the rules) / sqrt(number of terms). Each string's (sum, count) is remembered, so a string
  repeated across a listing is weighed once.

A definition scoring at or above the threshold gets one ``model.poisoning_likelihood`` finding at
high severity, whose matched text names the terms that weighed most. A short definition (fewer
than `MIN_TERMS` terms) is held to a threshold of its own, set the same way from short definitions
alone: on a few words one heavy term moves the score further, so it is higher.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

import orjson

from mcpwall.inspection.fields import schema_keyword, visible_strings
from mcpwall.inspection.findings import Finding, Severity

MODEL_FILE: Final = "model.json"
RULE_ID: Final = "model.poisoning_likelihood"
CATEGORY: Final = "hidden_instructions"
EXPLAINED: Final = 6
"""How many of the heaviest terms a finding names."""
PAIR: Final = "{} {}".format
ZEROS: Final = itertools.repeat(0.0)
CJK: Final = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
WORD: Final = re.compile(rf"[{CJK}]|(?<![^\W_{CJK}])[^\W\d_{CJK}]{{2,}}(?![^\W_{CJK}])")
MIN_TERMS: Final = 40
"""A definition with at least this many terms (about 20 words) is held to the model's threshold;
a shorter one to its short threshold."""
MIN_SHORT_TERMS: Final = 8
"""The model does not speak on fewer terms (about four words): there one term decides the score."""
KINDS: Final = frozenset({"tool"})
"""The model was trained on tools only; other kinds are left to the rules."""


Weighed = tuple[float, int]
"""A string's sum of term weights and its number of terms."""


@dataclass(frozen=True, slots=True)
class Model:
    """A trained linear model.

    Attributes:
        weights: term -> weight (terms with no weight are absent).
        bias: the intercept.
        threshold: the score at and above which a definition of `MIN_TERMS` terms or more is
            flagged high.
        short_threshold: the same for a definition of `MIN_SHORT_TERMS` up to `MIN_TERMS` terms
            (never, when the model has none).
    """

    weights: dict[str, float]
    bias: float
    threshold: float
    short_threshold: float = math.inf

    def threshold_for(self, count: int) -> float:
        """The score a definition of ``count`` terms must reach to be flagged."""
        if count >= MIN_TERMS:
            return self.threshold
        return self.short_threshold if count >= MIN_SHORT_TERMS else math.inf

    def weigh(self, text: str) -> Weighed:
        """One normalized string's sum of term weights and number of terms."""
        words = WORD.findall(text.lower())
        if not words:
            return 0.0, 0
        get = self.weights.get
        total = sum(map(get, words, ZEROS)) + sum(map(get, map(PAIR, words, words[1:]), ZEROS))
        return total, 2 * len(words) - 1

    def score(self, weighed: Iterable[Weighed]) -> tuple[float, int]:
        """The score of a definition from its strings' weights, and its number of terms."""
        total, count = combined(weighed)
        return (self.bias + total / math.sqrt(count) if count else self.bias), count

    def heaviest(self, texts: Iterable[str]) -> list[str]:
        """The terms that pushed the score up most, heaviest first."""
        weighed: dict[str, float] = {}
        for text in texts:
            for term in terms(text):
                weighed[term] = weighed.get(term, 0.0) + self.weights.get(term, 0.0)
        ranked = sorted(weighed.items(), key=lambda item: -item[1])
        return [term for term, weight in ranked[:EXPLAINED] if weight > 0]


def combined(weighed: Iterable[Weighed]) -> Weighed:
    """Several strings' weights as one (the weight of a part of a definition, or of all of it)."""
    total, count = 0.0, 0
    for part, terms in weighed:
        total += part
        count += terms
    return total, count


def terms(text: str) -> list[str]:
    """The terms of one normalized string: its words, then its adjacent word pairs."""
    words = WORD.findall(text.lower())
    return words + list(map(PAIR, words, words[1:]))


def visible_texts(kind: str, obj: object, normalized: Callable[[str], str]) -> list[str]:
    """The normalized text of every model-visible string of a definition that the model reads
    (all but schema ``type`` keywords: :func:`~mcpwall.inspection.fields.schema_keyword`)."""
    return [normalized(raw) for path, raw in visible_strings(kind, obj) if not schema_keyword(path)]


def parse_model(data: bytes) -> Model:
    """A model from its JSON form (``{"bias", "threshold", "weights": {term: weight}}``, and
    optionally ``short_threshold``).

    Raises:
        ValueError: not such a form.
    """
    parsed = orjson.loads(data)
    if not isinstance(parsed, dict) or not isinstance(parsed.get("weights"), dict):
        raise ValueError("a model is a JSON object with a weights object")
    weights: dict[str, float] = parsed["weights"]
    for term, weight in weights.items():  # JSON keys are strings; the weights are made floats in
        if type(weight) is not float:  # place (a copy would hold two dicts of every term at once)
            weights[term] = _number(weight)
    short = parsed.get("short_threshold")
    return Model(
        weights,
        _number(parsed.get("bias")),
        _number(parsed.get("threshold")),
        math.inf if short is None else _number(short),
    )


def _number(value: object) -> float:
    """A JSON number as a float (not a boolean, string or anything else)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"a model's numbers are JSON numbers, not {value!r}")
    return float(value)


@cache
def packaged_model() -> Model:
    """The model shipped with mcpwall (``inspection/model.json``), read once."""
    return parse_model(resources.files("mcpwall.inspection").joinpath(MODEL_FILE).read_bytes())


def model_findings(
    kind: str, weighed: Iterable[Weighed], texts: Callable[[], Iterable[str]], model: Model | None = None
) -> list[Finding]:
    """One high finding when the definition's score reaches the model's threshold, else none.

    Args:
        kind: the definition's kind (only tools are scored).
        weighed: the `Model.weigh` of each model-visible string (or sums of them), possibly remembered.
        texts: the normalized model-visible strings, read only to explain a finding.
        model: the packaged model when omitted.
    """
    if kind not in KINDS:
        return []
    model = model or packaged_model()
    score, count = model.score(weighed)
    threshold = model.threshold_for(count)
    if score < threshold:
        return []
    heaviest = ", ".join(model.heaviest(texts()))
    return [
        Finding(
            RULE_ID,
            CATEGORY,
            Severity.HIGH,
            "definition",
            heaviest,
            0,
            f"score {score:.2f} >= threshold {threshold:.2f}; heaviest terms: {heaviest}",
            "A learned model reads the whole definition as likely poisoning (see inspection/learned.py).",
        )
    ]
