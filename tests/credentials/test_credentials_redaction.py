"""`Secrets.redact`: an echoed secret is replaced in every form it travels in, and nothing else is."""

from __future__ import annotations

import base64
import json
import re
from urllib.parse import quote, quote_plus

import pytest

from mcpwall.credentials import MIN_SECRET_LENGTH, REDACTED, Secrets

TOKEN = "sk-live/Secret+Value=42"


def _result(text: str) -> str:
    """A tools/call result as a server sends it back, with ``text`` echoed in its content."""
    return json.dumps({"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": text}]}})


@pytest.mark.parametrize(
    "echoed",
    [
        pytest.param(TOKEN, id="plain"),
        pytest.param(base64.b64encode(TOKEN.encode()).decode(), id="base64"),
        pytest.param(base64.b64encode(TOKEN.encode()).decode().rstrip("="), id="base64-unpadded"),
        pytest.param(base64.urlsafe_b64encode(TOKEN.encode()).decode(), id="base64-urlsafe"),
        pytest.param(quote(TOKEN, safe=""), id="percent"),
        pytest.param(
            re.sub(r"%[0-9A-F]{2}", lambda m: m.group().lower(), quote(TOKEN, safe="")), id="percent-lower-hex"
        ),
        pytest.param(quote_plus(TOKEN), id="percent-plus"),
    ],
)
def test_echoed_secret_is_redacted_in_a_json_result(echoed: str) -> None:
    redacted = Secrets([TOKEN]).redact(_result(f"token={echoed}; done"))

    assert json.loads(redacted)["result"]["content"][0]["text"] == f"token={REDACTED}; done"


@pytest.mark.parametrize("prefix", [b"", b"u:", b"ab:", b"user:"])
def test_secret_inside_a_longer_base64_string_is_redacted(prefix: bytes) -> None:
    header = "Basic " + base64.b64encode(prefix + TOKEN.encode()).decode()

    redacted = Secrets([TOKEN]).redact(header)

    before, after = redacted.split(REDACTED)
    # Left: the prefix's own characters, and at most one character (plus padding) that mixes both.
    assert len(before) <= len("Basic ") + len(prefix) * 4 // 3 + 1
    assert len(after) <= 3


def test_json_escaped_secret_is_redacted() -> None:
    secret = 'pa"ss\\wörd'

    assert Secrets([secret]).redact(json.dumps({"echo": secret})) == f'{{"echo": "{REDACTED}"}}'


def test_text_without_secrets_is_returned_unchanged() -> None:
    text = _result("nothing to see " * 100)

    assert Secrets([TOKEN, "another-secret"]).redact(text) is text


def test_every_registered_secret_is_redacted() -> None:
    secrets = Secrets(["first-secret", "second-secret"])

    assert secrets.redact("a first-secret b second-secret c") == f"a {REDACTED} b {REDACTED} c"


def test_secret_that_contains_another_is_redacted_whole() -> None:
    secrets = Secrets(["abcdef", "xxabcdefyy"])

    assert secrets.redact("<xxabcdefyy> <abcdef>") == f"<{REDACTED}> <{REDACTED}>"


def test_secret_shorter_than_the_minimum_is_not_redacted() -> None:
    short = "x" * (MIN_SECRET_LENGTH - 1)
    secrets = Secrets()

    assert secrets.add(short) is False
    assert secrets.add("x" * MIN_SECRET_LENGTH) is True
    assert secrets.redact(f"{short}!") == f"{short}!"
    assert len(secrets) == 1


def test_repr_counts_values_and_never_shows_one() -> None:
    secrets = Secrets([TOKEN, "another-secret"])

    assert repr(secrets) == "<Secrets: 2 values>"
    assert TOKEN not in repr(secrets)
    assert str(secrets) == repr(secrets)
