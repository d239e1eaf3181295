"""``keyring:SERVICE/NAME`` references against a real Secret Service (gnome-keyring on a private bus)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing, contextmanager

import keyring
import pytest
import secretstorage
from keyring.backends.SecretService import Keyring as SecretServiceKeyring

from keyring_session import SecretService, running_secret_service
from mcpwall.credentials import resolve_reference, resolve_settings
from mcpwall.errors import ConfigError

TOKEN = "ghp_Keyring-Secret-4711"


@contextmanager
def secret_service_backend() -> Iterator[None]:
    """Select the Secret Service backend explicitly (no fallback can answer), then restore the previous one."""
    previous = keyring.get_keyring()
    # Constructed directly: keyring.core.load_keyring would first probe the bus, which the tests of an
    # unreachable Secret Service need to fail later, inside resolve_reference.
    keyring.set_keyring(SecretServiceKeyring())  # type: ignore[no-untyped-call]  # keyring's __init__ is unannotated
    try:
        yield
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def secret_service(monkeypatch: pytest.MonkeyPatch) -> Iterator[SecretService]:
    """A private Secret Service for the test, the keyring's backend."""
    with running_secret_service() as service:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", service.address)
        with secret_service_backend():
            yield service


def test_keyring_reference_resolves_to_the_stored_secret(secret_service: SecretService) -> None:
    keyring.set_password("mcpwall-test", "github", TOKEN)

    assert resolve_reference("keyring:mcpwall-test/github", {}) == TOKEN


def test_keyring_secret_is_stored_in_the_private_daemon(secret_service: SecretService) -> None:
    keyring.set_password("mcpwall-test", "github", TOKEN)

    # Read back past keyring, straight from the daemon's default collection.
    with closing(secretstorage.dbus_init()) as connection:
        collection = secretstorage.get_default_collection(connection)
        items = list(collection.search_items({"service": "mcpwall-test", "username": "github"}))
        assert [item.get_secret() for item in items] == [TOKEN.encode()]
    assert type(keyring.get_keyring()) is SecretServiceKeyring


def test_keyring_service_may_contain_slashes(secret_service: SecretService) -> None:
    keyring.set_password("github.com/api", "token", TOKEN)

    assert resolve_reference("keyring:github.com/api/token", {}) == TOKEN


def test_missing_keyring_entry_is_a_config_error_naming_service_and_entry(secret_service: SecretService) -> None:
    keyring.set_password("mcpwall-test", "github", TOKEN)

    with pytest.raises(ConfigError, match=r"keyring:mcpwall-test/gitlab is not in the keyring") as caught:
        resolve_reference("keyring:mcpwall-test/gitlab", {}, path="servers.git.env.TOKEN")

    assert caught.value.path == "servers.git.env.TOKEN"
    assert TOKEN not in str(caught.value)


def test_keyring_values_are_registered_for_redaction(secret_service: SecretService) -> None:
    keyring.set_password("mcpwall-test", "github", TOKEN)

    env, secrets = resolve_settings({"GITHUB_TOKEN": "keyring:mcpwall-test/github", "MODE": "fast-mode"}, {})

    assert env == {"GITHUB_TOKEN": TOKEN, "MODE": "fast-mode"}
    assert secrets.redact(f'{{"echo": "{TOKEN}", "mode": "fast-mode"}}') == (
        '{"echo": "[mcpwall:redacted]", "mode": "fast-mode"}'
    )
    assert TOKEN not in repr(secrets)


@pytest.mark.parametrize("bus_address", [None, "unix:path=/nonexistent/mcpwall-test/bus"], ids=["unset", "no-socket"])
def test_unreachable_secret_service_is_a_config_error(monkeypatch: pytest.MonkeyPatch, bus_address: str | None) -> None:
    if bus_address is None:
        monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    else:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus_address)
    with (
        secret_service_backend(),
        pytest.raises(ConfigError, match=r"keyring:mcpwall-test/github: the keyring cannot be read"),
    ):
        resolve_reference("keyring:mcpwall-test/github", {})
