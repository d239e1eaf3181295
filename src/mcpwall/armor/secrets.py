"""Secrets leaving in a call's arguments: private keys, cloud keys, tokens, passwords in URLs,
environment dumps, wallet seed phrases — also base64- or hex-encoded, and split across fields.

Outbound data loss prevention at call time: a call that would carry a credential to a tool is
refused (SecretInArguments) before the server sees it. Detection aims at the shape of secrets
(formats with fixed prefixes and lengths, key=value assignments of secret-named variables,
BIP-39 word sequences), not at wording. Every string value is scanned, then the decoded form
of long base64/hex runs, then all values joined (a key split over two fields is still a key).

Values listed in ``armor.secret_allowlist`` are ignored (e.g. a test fixture's fake key).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import Final

from mcpwall.armor.violations import Violation, ViolationType, violation

_SHAPES: Final = (
    ("private-key", r"-----BEGIN (?:[A-Z0-9]{1,12} ){0,3}PRIVATE KEY(?: BLOCK)?-----"),
    ("aws-access-key-id", r"(?<![A-Z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA)[A-Z0-9]{16}(?![A-Z0-9])"),
    ("github-token", r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{40,255})\b"),
    ("slack-token", r"\bxox[abposr]-[A-Za-z0-9-]{10,200}"),
    ("api-key", r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,128}\b|\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,200}"),
    ("google-api-key", r"\bAIza[0-9A-Za-z_-]{35}\b"),
    ("jwt", r"\beyJ[A-Za-z0-9_-]{8,2000}\.eyJ[A-Za-z0-9_-]{8,4000}\.[A-Za-z0-9_-]{8,2000}"),
    ("password-in-url", r"\b[a-z][a-z0-9+.-]{1,20}://[^\s/:@]{1,100}:[^\s/@]{3,200}@[^\s/]{1,200}"),
    (
        "secret-assignment",
        r"(?im:^\s{0,8}(?:export\s{1,4})?[A-Z0-9_]{0,40}(?:SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|PRIVATE_?KEY|"
        r"ACCESS_?KEY)[A-Z0-9_]{0,40}\s{0,4}[=:]\s{0,4}['\"]?[^\s'\"]{8,})",
    ),
)
"""Each kind of secret and its shape (every group inside is non-capturing)."""
_ANY_SHAPE: Final = re.compile("|".join(shape for _, shape in _SHAPES))
"""Every shape in one pattern: one pass tells whether a text holds a secret of any kind."""
_EACH_SHAPE: Final = tuple((kind, re.compile(shape)) for kind, shape in _SHAPES)
"""Each shape alone, in order: which kind a text holds (most specific first), once one is there."""
_ENCODED_RUN: Final = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}|(?:[0-9a-fA-F]{2}){12,}")
_WORD: Final = re.compile(r"[a-z]{3,8}")
SEED_LENGTHS: Final = frozenset({12, 15, 18, 21, 24})


@cache
def _bip39_words() -> frozenset[str]:
    from mnemonic import Mnemonic  # the BIP-39 English word list, loaded on first use

    return frozenset(Mnemonic("english").wordlist)


def find_secret(text: str) -> str | None:
    """The kind of the first secret in a text (plain or encoded), or None."""
    if _ANY_SHAPE.search(text) is not None:
        return next(kind for kind, shape in _EACH_SHAPE if shape.search(text))
    if _seed_phrase(text):
        return "seed-phrase"
    for run in _ENCODED_RUN.findall(text):
        decoded = _decode(run)
        if decoded is not None and decoded != text and (found := find_secret(decoded)):
            return f"encoded-{found}"
    return None


def _seed_phrase(text: str) -> bool:
    words = text.split()
    if not SEED_LENGTHS.intersection(range(12, len(words) + 1)):
        return False
    known = _bip39_words()
    run = 0
    for word in words:
        run = run + 1 if _WORD.fullmatch(word) and word in known else 0
        if run >= min(SEED_LENGTHS):
            return True
    return False


def _decode(run: str) -> str | None:
    raw: bytes | None = None
    if len(run) % 2 == 0 and re.fullmatch(r"[0-9a-fA-F]+", run):
        raw = binascii.unhexlify(run)
    else:
        try:
            raw = base64.b64decode(run + "=" * (-len(run) % 4), altchars=b"-_" if "-" in run or "_" in run else None)
        except (binascii.Error, ValueError):
            return None
    text = raw.decode("utf-8", "ignore")
    printable = sum(ch.isprintable() or ch in "\n\r\t" for ch in text)
    return text if text and printable / len(text) > 0.9 else None


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def check_secrets(arguments: Mapping[str, object], allowlist: Iterable[str] = ()) -> Violation | None:
    """Refuse a call whose arguments carry a secret (SecretInArguments).

    Args:
        arguments: the call's arguments.
        allowlist: literal values that are not secrets here.
    """
    allowed = set(allowlist)
    values = [s for s in _strings(arguments) if s not in allowed]
    for candidate in dict.fromkeys((*values, "".join(values), " ".join(values))):  # one value: one scan
        kind = find_secret(candidate)
        if kind is not None:
            return violation(ViolationType.SECRET_IN_ARGUMENTS, f"arguments carry a {kind}", secret_kind=kind)
    return None
