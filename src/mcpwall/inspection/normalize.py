"""Text normalization: undo the disguises a poisoned definition uses before rules match.

``normalize(raw)`` returns a :class:`NormalizedText`: the text rules match against (ANSI escapes,
invisible and bidi characters removed, Unicode tag characters removed, NFKC applied, Latin
look-alike letters folded) together with every :class:`Disguise` observed on the way and the
hidden :class:`Segment` s (tag-character payloads, decoded base64/hex/percent runs, HTML comments
and pseudo-tags) that the detector scans as text the user does not see. ``make_visible`` is the
function every report passes matched text through, so raw escapes never reach a console.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from mcpwall.inspection import decoding
from mcpwall.inspection.decoding import Segment
from mcpwall.inspection.gloss import gloss

ANSI_RE = re.compile(
    r"\x1b\[[0-?]{0,32}[ -/]{0,8}[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]{0,512}(?:\x07|\x1b\\)?"  # OSC (title, hyperlinks)
    r"|\x1b[@-Z\\-_]"  # other two-byte escapes
    r"|\x9b[0-?]{0,32}[ -/]{0,8}[@-~]"  # 8-bit CSI
)
TAG_FIRST, TAG_LAST = 0xE0000, 0xE007F
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
BIDI_MARKS = frozenset("\u200e\u200f\u061c")
ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u180e\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f")
"""Zero-width characters, with the combining grapheme joiner and the Khmer and Mongolian marks that draw nothing."""
INVISIBLE_RUN_CHARS = "".join(ZERO_WIDTH)
JOIN_LOOKAHEAD = 16
"""Characters after an invisible one that `_joins_words` reads (a bounded slice: a text of many
invisible characters costs no more than a few per character)."""
_BOLD_WORD = re.compile(r"\*\*([A-Za-z][a-z]{1,20})\*\*")
"""One word set in markdown bold inside a sentence (**Ignore** all **previous** instructions): read as the word.
A bold label (``**IMPORTANT:**``) is left as it is."""
SOFT_HYPHEN = "\u00ad"
"""A hyphenation point: between two letters it is typography (removed, not reported); elsewhere it is invisible."""
FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
BIDI_OPENERS = frozenset("\u202a\u202b\u2066\u2067\u2068")
"""Embeddings and isolates (not overrides): they set the direction of what follows, without reordering letters."""
BIDI_CLOSERS = frozenset("\u202c\u2069")
RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")
"""Hebrew, Arabic, Syriac, Thaana, N'Ko... letters: text an embedding or isolate exists for."""
_EMOJI_FLAG_TAGS = re.compile(
    "(?<=\U0001f3f4)[\U000e0061-\U000e007a]{2}[\U000e0030-\U000e0039\U000e0061-\U000e007a]{1,3}\U000e007f"
)
"""The tags of a subdivision flag emoji (black flag, an ISO 3166-2 code in tag letters, cancel tag: England's flag)."""
_STYLE_ONLY = re.compile(
    r"\x1b\[(?:(?:0|1|3|4|2[2-4]|39|49|3[1-7]|9[1-7]|38;5;(?:[1-9]|1[0-5]|1[7-9]|[2-9]\d|1\d\d|2[0-2]\d|23[01]|23[89]|24\d|25[0-5]))(?:;|(?=m)))*m"
    r"|\x1b\[0?K"
)
"""ANSI sequences that only style text the user still sees (bold, underline, a visible colour, reset) or clear
the rest of a line: no concealment, no black, no background, no cursor movement."""
_WORD_RE = re.compile(r"\w{2,64}")
_DISGUISABLE_ASCII = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""The only ASCII characters ``make_visible`` rewrites (ESC, so ANSI escapes, among them)."""
_SPACED_HOME = re.compile(r"~/\s{0,3}\.\s{1,3}(?=[A-Za-z])")
"""A home path split by a space after its dot (``~/. ssh/id_rsa``), so that no path rule reads it."""
_CONFUSABLES = str.maketrans(
    "аеорсхуіјѕԁһӏԛԝАВЕКМНОРСТХУІЈЅԌԜαοικνρτυχεΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcxyijsdhlqwABEKMHOPCTXYIJSGWaoikvptuxeABEZHIKMNOPTYX",
)


@dataclass(frozen=True, slots=True)
class Disguise:
    """One disguise observed in a field.

    Attributes:
        kind: ``ansi``, ``tag_chars``, ``bidi``, ``bidi_mark``, ``zero_width``, ``invisible``,
            ``homoglyph``, ``base64``, ``hex``, ``percent``, ``html_comment`` or ``pseudo_tag``.
        position: offset in the raw text (or the normalized text for decoded runs).
        raw: the disguised text, made visible.
        inside_word: an invisible character sat between two letters (a split word).
    """

    kind: str
    position: int
    raw: str
    inside_word: bool = False


@dataclass(frozen=True, slots=True)
class NormalizedText:
    """The result of :func:`normalize`."""

    text: str
    disguises: tuple[Disguise, ...]
    hidden: tuple[Segment, ...]
    gloss: str | None = None
    """The text with words of other languages in English (see :mod:`~mcpwall.inspection.gloss`)."""


JOINERS = frozenset("\u200c\u200d")
"""Zero-width non-joiner and joiner: part of the spelling in several scripts."""
JOINING_SCRIPTS = 0x0590
"""From Hebrew on (Arabic, Syriac, Thaana, the Indic scripts...), past Latin, Greek and Cyrillic."""


def _is_invisible(ch: str) -> bool:
    if ch in ZERO_WIDTH or ch in FILLERS or ch in BIDI_CONTROLS or ch in BIDI_MARKS:
        return True
    if "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef":
        return True
    return unicodedata.category(ch) == "Cf"


def make_visible(text: str) -> str:
    """Replace ANSI escapes and invisible characters with visible markers.

    ``ESC[31m`` becomes ``\\x1b[31m`` and U+200B becomes ``<U+200B>``; other control characters
    (except newline and tab) become ``<U+00XX>``.

    Args:
        text: any text taken from a definition.
    """
    if text.isascii() and _DISGUISABLE_ASCII.search(text) is None:
        return text  # invisible, tag, bidi and 8-bit CSI characters are all outside ASCII
    text = ANSI_RE.sub(lambda m: m.group(0).encode("unicode_escape").decode("ascii"), text)
    out: list[str] = []
    for ch in text:
        code = ord(ch)
        if _is_invisible(ch) or TAG_FIRST <= code <= TAG_LAST or _is_control(ch):
            out.append(f"<U+{code:04X}>")
        else:
            out.append(ch)
    return "".join(out)


def _is_control(ch: str) -> bool:
    return unicodedata.category(ch) == "Cc" and ch not in "\n\t\r"


def _strip_ansi(text: str, found: list[Disguise]) -> str:
    can_overwrite = "\r" in text or "\x08" in text  # with a carriage return, clearing a line hides it
    found.extend(
        Disguise(_ansi_kind(m.group(0), can_overwrite), m.start(), make_visible(m.group(0)))
        for m in ANSI_RE.finditer(text)
    )
    return ANSI_RE.sub("", text)


def _ansi_kind(sequence: str, can_overwrite: bool) -> str:
    """``ansi_style`` for a sequence that only styles visible text, else ``ansi`` (it can hide or rewrite)."""
    style = not can_overwrite and _STYLE_ONLY.fullmatch(sequence) is not None
    return "ansi_style" if style else "ansi"


def _invisible_kind(ch: str, before: str, after: str) -> str:
    if ch in BIDI_CONTROLS:
        return "bidi_mark" if _sets_rtl_direction(ch, before, after) else "bidi"
    if ch in BIDI_MARKS:
        return "bidi_mark"
    return "zero_width" if ch in ZERO_WIDTH else "invisible"


def _splits_word(ch: str, before: str, after: str) -> bool:
    """Whether an invisible character between ``before`` and ``after`` splits a word.

    A zero-width non-joiner or joiner between two letters of Arabic, Indic and other scripts
    that write with them (Persian ``می‌خواهم``) is spelling, not a disguise; in Latin, Cyrillic
    or Greek words any invisible character is one (``ig<U+200B>nore``).
    """
    if not (before.isalnum() and after.isalnum()):
        return False
    return not (ch in JOINERS and ord(before) >= JOINING_SCRIPTS and ord(after) >= JOINING_SCRIPTS)


def _joins_words(before: str, rest: str) -> bool:
    """Whether removing an invisible run here would glue a word to the next sentence's first word
    (``operations<U+200B>Ignore``): a lower-case letter before the run and a capital after it."""
    after = rest.lstrip(INVISIBLE_RUN_CHARS)[:1]
    return before.islower() and after.isupper()


def _sets_rtl_direction(ch: str, before: str, after: str) -> bool:
    """An embedding or isolate opening on right-to-left letters, or closing after them (FSI, a Hebrew word, PDI):
    how Hebrew or Arabic is set in left-to-right text. Overrides, and controls around Latin text, reorder."""
    if ch in BIDI_OPENERS:
        return RIGHT_TO_LEFT.match(after) is not None
    return ch in BIDI_CLOSERS and RIGHT_TO_LEFT.match(before) is not None


def _flag_tags(text: str) -> set[int]:
    """Positions of the tag characters that spell subdivision flag emoji (they are the flag, not hidden text)."""
    if "\U0001f3f4" not in text:
        return set()
    return {i for m in _EMOJI_FLAG_TAGS.finditer(text) for i in range(m.start(), m.end())}


def _strip_invisible(text: str, found: list[Disguise], hidden: list[Segment]) -> str:
    kept: list[str] = []
    tags: list[str] = []
    flags = _flag_tags(text)
    for i, ch in enumerate(text):
        code = ord(ch)
        if TAG_FIRST <= code <= TAG_LAST:
            if i not in flags:
                tags.append(chr(code - TAG_FIRST) if 0x20 <= code - TAG_FIRST < 0x7F else " ")
            continue
        if not _is_invisible(ch):
            kept.append(ch)
            continue
        before, after = text[i - 1 : i], text[i + 1 : i + 2]
        if ch == SOFT_HYPHEN and before.isalpha() and after.isalpha():
            continue
        inside = bool(before and after) and _splits_word(ch, before, after)
        found.append(Disguise(_invisible_kind(ch, before, after), i, f"<U+{code:04X}>", inside))
        if _joins_words(before, text[i + 1 : i + 1 + JOIN_LOOKAHEAD]):
            kept.append(" ")
    if tags:
        payload = "".join(tags)
        found.append(Disguise("tag_chars", 0, make_visible(payload[:200])))
        hidden.append(Segment("tag_chars", payload))
    return "".join(kept)


def fold_confusables(text: str) -> str:
    """Map Cyrillic and Greek letters that look Latin onto their Latin twins."""
    return text.translate(_CONFUSABLES)


def _mixed_script_words(text: str, found: list[Disguise]) -> None:
    for m in _WORD_RE.finditer(text):
        word = m.group(0)
        has_latin = any("a" <= c.lower() <= "z" for c in word)
        lookalike = any(c != f for c, f in zip(word, fold_confusables(word), strict=True))
        if has_latin and lookalike:
            found.append(Disguise("homoglyph", m.start(), word))


def normalize(raw: str) -> NormalizedText:
    """Normalize one model-visible string for matching.

    Args:
        raw: the string as the server sent it.

    Returns:
        The matchable text, the disguises seen, and the hidden segments to scan as well.
    """
    found: list[Disguise] = []
    hidden: list[Segment] = []
    if raw.isascii() and "\x1b" not in raw:
        text = raw  # nothing to strip, NFKC-stable, no look-alikes: only encoded runs to find
        glossed = gloss(text)
    else:
        text = _strip_ansi(raw, found)
        text = _strip_invisible(text, found, hidden)
        text = unicodedata.normalize("NFKC", text)
        _mixed_script_words(text, found)
        glossed = gloss(text)  # before look-alikes are folded: the lexicon is written in Cyrillic
        glossed = None if glossed is None else fold_confusables(glossed)
        text = fold_confusables(text)
    if "**" in text:
        text = _BOLD_WORD.sub(r"\1", text)
    if "~/" in text:
        text = _SPACED_HOME.sub("~/.", text)
    for seg in decoding.hidden_segments(text):
        found.append(Disguise(seg.channel, seg.position, make_visible(seg.source[:200])))
        hidden.append(seg)
    for seg in list(hidden):
        if seg.channel == "tag_chars":
            hidden.extend(decoding.hidden_segments(seg.text))
    return NormalizedText(text, tuple(found), tuple(hidden), glossed)


CONTEXT = 60
"""Characters of surrounding text a finding shows on each side of its match."""


def visible_context(text: str, start: int, end: int) -> str:
    """The text around ``text[start:end]``, made visible (see :func:`make_visible`)."""
    return make_visible(text[max(0, start - CONTEXT) : end + CONTEXT])
