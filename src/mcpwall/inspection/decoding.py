"""Hidden channels inside visible text: encoded runs, HTML comments and pseudo-tags.

``hidden_segments(text)`` finds base64, hex and percent-encoded runs of meaningful length and
decodes them (kept only when the bytes are mostly printable text), HTML/markdown comments,
elements hidden by markup (``display:none`` spans, ``hidden`` attributes) and pseudo-tags that
address the model (``<IMPORTANT>``, ``<system>``...). Each becomes a :class:`Segment` that the
detector scans like any other text, remembering that a user reading the description would not
see it.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from urllib.parse import unquote_to_bytes

BASE64_RE = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{20,8192}={0,2}(?![A-Za-z0-9+/=_-])")
HEX_RE = re.compile(r"(?<![0-9A-Fa-f])(?:\\x|0x)?(?:[0-9A-Fa-f]{2}(?:\\x| )?){12,4096}(?![0-9A-Fa-f])")
PERCENT_RE = re.compile(r"[^\s%]{0,40}(?:%[0-9A-Fa-f]{2}[^\s%]{0,40}){4,4096}")
"""A run of percent escapes, with the words between them (``When%20this%20tool%20is``): no
spaces, so a sentence written with %20 decodes whole."""
JOINED_WORDS_RE = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z]{1,30}(?:_[A-Za-z]{1,30}){7,60}(?![A-Za-z0-9_])")
"""Eight or more letter words joined by underscores: long enough to be a sentence, not a name."""
COMMENT_RE = re.compile(r"<!--(.{0,4000}?)-->", re.DOTALL)
PSEUDO_TAG_RE = re.compile(
    r"<\s{0,3}((?:important|system|instructions?|hidden|secret|admin|assistant|context|note_to_ai|ai)"
    r"(?:[-_][a-z]{1,20})?)(?:\s[^<>]{0,120})?\s{0,3}>(.{0,4000}?)</\s{0,3}\1\s{0,3}>",
    re.DOTALL | re.IGNORECASE,
)
HIDDEN_ELEMENT_RE = re.compile(
    r"<(span|div|p)\b[^>]{0,200}(?:display\s{0,3}:\s{0,3}none|visibility\s{0,3}:\s{0,3}hidden"
    r"|font-size\s{0,3}:\s{0,3}0|\bhidden\b)[^>]{0,200}>(.{0,4000}?)</\1\s{0,3}>",
    re.DOTALL | re.IGNORECASE,
)
MIN_BASE64, MIN_HEX, MIN_PERCENT = 20, 24, 12
"""Shortest text each run pattern can match (a cheap test before scanning)."""
MIN_PRINTABLE = 0.9
MIN_LETTERS = 0.5


@dataclass(frozen=True, slots=True)
class Segment:
    """Text a user would not see, surfaced for scanning.

    Attributes:
        channel: ``tag_chars``, ``base64``, ``hex``, ``percent``, ``html_comment``,
            ``pseudo_tag``, ``hidden_element`` or ``joined_words``.
        text: the decoded or surfaced text.
        position: offset of the source in the normalized field text.
        source: the text as it appeared (encoded form or markup).
    """

    channel: str
    text: str
    position: int = 0
    source: str = ""


def readable_text(data: bytes) -> str | None:
    """Decode bytes as UTF-8 when they are mostly printable text with letters, else None."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 6:
        return None
    printable = sum(ch.isprintable() or ch in "\n\t\r" for ch in text)
    letters = sum(ch.isalpha() or ch == " " for ch in text)
    if printable / len(text) < MIN_PRINTABLE or letters / len(text) < MIN_LETTERS:
        return None
    return text


def _decode_base64(run: str) -> str | None:
    if run.isalpha() or run.isdigit() or ("_" in run.strip("_") and "-" not in run and run.islower()):
        return None
    padded = run + "=" * (-len(run) % 4)
    altchars = b"-_" if ("-" in run or "_" in run) else None
    try:
        data = base64.b64decode(padded, altchars=altchars, validate=True)
    except (binascii.Error, ValueError):
        return None
    return readable_text(data)


def _decode_hex(run: str) -> str | None:
    digits = re.sub(r"\\x|0x| ", "", run)
    try:
        return readable_text(bytes.fromhex(digits))
    except ValueError:
        return None


def _decode_percent(run: str) -> str | None:
    return readable_text(unquote_to_bytes(run))


_DECODERS = (("base64", BASE64_RE, _decode_base64, MIN_BASE64), ("hex", HEX_RE, _decode_hex, MIN_HEX))


def _encoded(text: str) -> list[Segment]:
    found: list[Segment] = []
    for channel, pattern, decode, shortest in _DECODERS:
        if len(text) < shortest:
            continue
        for m in pattern.finditer(text):
            decoded = decode(m.group(0))
            if decoded is not None:
                found.append(Segment(channel, decoded, m.start(), m.group(0)))
    if len(text) < MIN_PERCENT or "%" not in text:
        return found
    for m in PERCENT_RE.finditer(text):
        decoded = _decode_percent(m.group(0))
        if decoded is not None:
            found.append(Segment("percent", decoded, m.start(), m.group(0)))
    return found


def _markup(text: str) -> list[Segment]:
    if "<" not in text:
        return []
    found = [Segment("html_comment", m.group(1), m.start(), m.group(0)) for m in COMMENT_RE.finditer(text)]
    found += [Segment("pseudo_tag", m.group(2), m.start(), m.group(0)) for m in PSEUDO_TAG_RE.finditer(text)]
    found += [Segment("hidden_element", m.group(2), m.start(), m.group(0)) for m in HIDDEN_ELEMENT_RE.finditer(text)]
    return found


def _joined_words(text: str) -> list[Segment]:
    """Sentences written as one identifier (``pdf_and_then_call_set_sharing_with_anyone``): an
    enum value or a default the model copies, read again with the underscores as spaces."""
    if "_" not in text:
        return []
    return [
        Segment("joined_words", m.group(0).replace("_", " "), m.start(), m.group(0))
        for m in JOINED_WORDS_RE.finditer(text)
    ]


def hidden_segments(text: str) -> list[Segment]:
    """Every hidden or encoded segment in a normalized text, in order of position.

    Args:
        text: normalized field text.
    """
    return sorted(_encoded(text) + _markup(text) + _joined_words(text), key=lambda s: s.position)
