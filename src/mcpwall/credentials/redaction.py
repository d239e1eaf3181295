"""The `Secrets` registry: resolved credential values, and redaction of every form they travel in.

A server that echoes its token back (in a result, an error or a log line) must not hand it to the
agent, the log or the audit trail. Each registered value is expanded once into the forms it is
likely to travel in:

- as it is, and JSON-escaped (results are JSON text);
- percent-encoded (``quote`` and ``quote_plus``, upper- and lower-case hex);
- base64 (standard and URL-safe alphabets, padded and not), including the three alignments of
  the value inside a longer encoded string (``Basic base64(user:token)``): for each alignment the
  characters that depend only on the value.

Redaction first asks ``str.__contains__`` (a fast C substring search) which forms occur at all:
the usual result contains none and is returned as it is, after a few linear scans. Only when a
form occurs is one compiled alternation of the forms found (longest first) run over the text.

Values shorter than `MIN_SECRET_LENGTH` are not redacted: replacing every ``1234`` or ``true``
in every result would mangle ordinary text, and a credential that short protects nothing.
"""

from __future__ import annotations

import base64
import functools
import json
import re
from collections.abc import Iterable, Iterator
from typing import Final
from urllib.parse import quote, quote_plus

REDACTED: Final = "[mcpwall:redacted]"
"""What a secret value is replaced with."""

MIN_SECRET_LENGTH: Final = 6
"""Values (and encoded forms) shorter than this many characters are not redacted."""

_URLSAFE: Final = str.maketrans("+/", "-_")
_PERCENT_HEX: Final = re.compile(r"%[0-9A-F]{2}")


def _base64_forms(raw: bytes) -> Iterator[str]:
    full = base64.b64encode(raw).decode("ascii")
    yield full
    yield full.rstrip("=")
    for shift in range(3):
        # Characters of base64(prefix + raw) that depend only on raw: bits [8*shift, 8*(shift+len)).
        encoded = base64.b64encode(b"\0" * shift + raw).decode("ascii")
        yield encoded[-(-8 * shift // 6) : 8 * (shift + len(raw)) // 6]


def _percent_forms(value: str) -> Iterator[str]:
    for encoded in (quote(value, safe=""), quote(value), quote_plus(value)):
        yield encoded
        yield _PERCENT_HEX.sub(lambda match: match.group().lower(), encoded)


def forms(value: str) -> frozenset[str]:
    """The forms of ``value`` that redaction looks for (those shorter than `MIN_SECRET_LENGTH` left out)."""
    if len(value) < MIN_SECRET_LENGTH:
        return frozenset()
    found = {value, json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}
    found.update(_percent_forms(value))
    encoded = list(_base64_forms(value.encode("utf-8")))
    found.update(encoded)
    found.update(form.translate(_URLSAFE) for form in encoded)
    return frozenset(form for form in found if len(form) >= MIN_SECRET_LENGTH)


@functools.lru_cache(maxsize=64)
def _alternation(found: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(map(re.escape, found)))


class Secrets:
    """The secret values resolved for one server, to be kept out of everything the gateway emits.

    Its ``repr`` shows how many values it holds, never a value.

    Args:
        values: the values to register now (more can be added with `add`).
    """

    __slots__ = ("_count", "_forms")

    def __init__(self, values: Iterable[str] = ()) -> None:
        self._count = 0
        self._forms: tuple[str, ...] = ()
        for value in values:
            self.add(value)

    def add(self, value: str) -> bool:
        """Register a value.

        Returns:
            Whether the value will be redacted (False when it is shorter than `MIN_SECRET_LENGTH`).
        """
        new = forms(value)
        if not new:
            return False
        self._count += 1
        # Longest first: a regex alternation takes the first alternative that matches, not the longest.
        self._forms = tuple(sorted(new.union(self._forms), key=lambda form: (-len(form), form)))
        return True

    def redact(self, text: str) -> str:
        """``text`` with every occurrence of a registered value, in any of its forms, replaced by `REDACTED`."""
        found = tuple(form for form in self._forms if form in text)
        if not found:
            return text
        return _alternation(found).sub(REDACTED, text)

    def __len__(self) -> int:
        return self._count

    def __repr__(self) -> str:
        return f"<Secrets: {self._count} value{'s' if self._count != 1 else ''}>"
