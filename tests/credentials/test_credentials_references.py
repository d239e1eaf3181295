"""``env:`` and ``file:`` references, literals, and errors that never show a value."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpwall.credentials import is_reference, resolve_reference, resolve_settings
from mcpwall.errors import ConfigError

TOKEN = "tok-Secret-0815"


def test_env_reference_resolves_from_the_parent_environment() -> None:
    assert resolve_reference("env:API_TOKEN", {"API_TOKEN": TOKEN}) == TOKEN


def test_file_reference_resolves_to_the_stripped_file_text(tmp_path: Path) -> None:
    (tmp_path / "token").write_text(f"{TOKEN}\n", encoding="utf-8")

    assert resolve_reference(f"file:{tmp_path / 'token'}", {}) == TOKEN


@pytest.mark.parametrize("literal", ["plain-value", "", "envelope:x", "http://example.invalid/file:x"])
def test_literal_is_returned_as_it_is(literal: str) -> None:
    assert resolve_reference(literal, {}) == literal
    assert not is_reference(literal)


@pytest.mark.parametrize(
    ("reference", "message"),
    [
        ("env:API_TOKEN", r"credential reference env:API_TOKEN is not set"),
        ("file:/nonexistent/mcpwall/token", r"credential file /nonexistent/mcpwall/token cannot be read"),
        ("keyring:no-slash", r"keyring:no-slash is not of the form keyring:SERVICE/NAME"),
        ("keyring:service/", r"keyring:service/ is not of the form"),
        ("keyring:/name", r"keyring:/name is not of the form"),
    ],
)
def test_unresolvable_reference_is_a_config_error_with_the_key_path(reference: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        resolve_reference(reference, {"OTHER": TOKEN}, path="servers.git.env.TOKEN")

    assert caught.value.path == "servers.git.env.TOKEN"
    assert TOKEN not in str(caught.value)


def test_unreadable_file_error_does_not_show_its_content(tmp_path: Path) -> None:
    secret_file = tmp_path / "token"
    secret_file.write_bytes(b"\xff" + TOKEN.encode())

    with pytest.raises(ConfigError, match=r"cannot be read") as caught:
        resolve_reference(f"file:{secret_file}", {})

    assert TOKEN not in str(caught.value)


def test_settings_record_only_values_that_came_from_references(tmp_path: Path) -> None:
    (tmp_path / "token").write_text("file-Secret-42", encoding="utf-8")
    settings = {"A": "env:API_TOKEN", "B": f"file:{tmp_path / 'token'}", "MODE": "literal-mode"}

    env, secrets = resolve_settings(settings, {"API_TOKEN": TOKEN})

    assert env == {"A": TOKEN, "B": "file-Secret-42", "MODE": "literal-mode"}
    assert len(secrets) == 2
    assert (
        secrets.redact(f"{TOKEN} file-Secret-42 literal-mode") == "[mcpwall:redacted] [mcpwall:redacted] literal-mode"
    )


def test_settings_error_names_the_variable() -> None:
    with pytest.raises(ConfigError, match=r"^servers\.git\.env\.GITHUB_TOKEN: credential reference env:MISSING"):
        resolve_settings({"GITHUB_TOKEN": "env:MISSING"}, {}, path="servers.git.env")
