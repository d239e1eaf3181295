"""Secrets leaving in arguments: refused by shape, also encoded or split; near misses pass."""

from __future__ import annotations

import base64

import pytest

from mcpwall.armor.secrets import check_secrets

PEM = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----"
)
SEED = "legal winner thank year wave sausage worth useful legal winner thank yellow"


@pytest.mark.parametrize(
    ("arguments", "kind"),
    [
        ({"content": PEM}, "private-key"),
        ({"query": "AKIAQWERTYUIOPASDFGH site:x.example"}, "aws-access-key-id"),
        ({"text": "token ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"}, "github-token"),
        ({"body": "DATABASE_URL=postgres://app:hunter2secret@db.internal:5432/prod"}, "password-in-url"),
        ({"body": "export STRIPE_SECRET_KEY='abcdEFGH12345678'"}, "secret-assignment"),
        ({"content": SEED}, "seed-phrase"),
        ({"content": base64.b64encode(PEM.encode()).decode()}, "encoded-private-key"),
        ({"content": base64.b64encode(b"API_KEY=sk_test_4eC39HqLyjWDarjtT1zdp7dc").decode()}, "encoded-api-key"),
        ({"content": b"AKIAQWERTYUIOPASDFGH".hex()}, "encoded-aws-access-key-id"),
        ({"access_key": "AKIAQWERTYUI", "suffix": "OPASDFGH"}, "aws-access-key-id"),
        ({"nested": [{"deep": {"value": "xoxb-123456789012-abcdefghij"}}]}, "slack-token"),
    ],
)
def test_a_secret_in_the_arguments_is_refused(arguments: dict[str, object], kind: str) -> None:
    found = check_secrets(arguments)
    assert found is not None
    assert found.type == "SecretInArguments"
    assert found.detail["secret_kind"] == kind
    assert "AKIA" not in found.reason


@pytest.mark.parametrize(
    "arguments",
    [
        {"path": "/home/user/project/README.md"},
        {"text": "please rotate the AWS access key and update the password"},
        {"image": "data:image/png;base64," + base64.b64encode(bytes(range(256)) * 4).decode()},
        {"url": "https://example.com/items/3f2b9c1e-8a7d-4e5f-9b0a-1c2d3e4f5a6b"},
        {"content": "the quick brown fox jumps over the lazy dog and then runs away fast today"},
        {"sql": "SELECT password_hash FROM users WHERE id = 3"},
    ],
)
def test_ordinary_arguments_pass(arguments: dict[str, object]) -> None:
    assert check_secrets(arguments) is None


def test_an_allowlisted_value_is_not_a_secret() -> None:
    key = "AKIAQWERTYUIOPASDFGH"
    assert check_secrets({"k": key}, allowlist=[key]) is None
