"""Credential references (``env:``, ``file:``, ``keyring:``) and the one resolver per kind.

The ``keyring`` library is imported only when a ``keyring:`` reference is resolved: mcpwall
starts without it, and a configuration that does not use the keyring never needs it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final

from mcpwall.credentials.redaction import Secrets
from mcpwall.errors import ConfigError

DEFAULT_PATH: Final = "environment.env"
"""The key path errors carry when the caller names none."""

Resolver = Callable[[str, Mapping[str, str], str], str]
"""Resolve the text after a reference's prefix, given mcpwall's environment and the key path."""


def _from_env(name: str, parent_env: Mapping[str, str], path: str) -> str:
    if name not in parent_env:
        raise ConfigError(f"credential reference env:{name} is not set", path=path)
    return parent_env[name]


def _from_file(location: str, parent_env: Mapping[str, str], path: str) -> str:
    try:
        return Path(location).expanduser().read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"credential file {location} cannot be read", path=path) from exc


def _keyring_errors() -> tuple[type[Exception], ...]:
    """The errors a keyring lookup raises when the keyring cannot be used.

    ``keyring`` wraps most backend failures in `KeyringError`, but the Secret Service backend lets
    some through: SecretStorage's (no bus address), jeepney's (an unexpected D-Bus error reply)
    and `OSError` (no socket at the bus address).
    """
    from keyring.errors import KeyringError

    errors: list[type[Exception]] = [KeyringError, OSError]
    try:  # the Secret Service backend's libraries, on Linux only
        from jeepney.wrappers import DBusErrorResponse  # type: ignore[import-untyped]  # jeepney ships no types
        from secretstorage.exceptions import SecretStorageException
    except ImportError:
        pass
    else:
        errors += [SecretStorageException, DBusErrorResponse]
    return tuple(errors)


def _from_keyring(entry: str, parent_env: Mapping[str, str], path: str) -> str:
    service, _, name = entry.rpartition("/")
    if not service or not name:
        raise ConfigError(f"credential reference keyring:{entry} is not of the form keyring:SERVICE/NAME", path=path)
    try:  # imported on first use: most configurations never need the keyring
        import keyring
    except ImportError as exc:
        raise ConfigError("keyring: credential references need the 'keyring' package", path=path) from exc
    try:
        value = keyring.get_password(service, name)
    except _keyring_errors() as exc:
        # No value was read, so the backend's own message cannot carry one.
        raise ConfigError(
            f"credential reference keyring:{service}/{name}: the keyring cannot be read ({exc})", path=path
        ) from exc
    if value is None:
        raise ConfigError(f"credential reference keyring:{service}/{name} is not in the keyring", path=path)
    return value


RESOLVERS: Final[Mapping[str, Resolver]] = {"env:": _from_env, "file:": _from_file, "keyring:": _from_keyring}
"""The reference kinds, by prefix."""


def is_reference(value: str) -> bool:
    """Whether ``value`` names a credential (``env:``, ``file:`` or ``keyring:``) rather than being one."""
    return value.startswith(tuple(RESOLVERS))


def resolve_reference(value: str, parent_env: Mapping[str, str], *, path: str = DEFAULT_PATH) -> str:
    """Resolve a credential reference; any other value is returned as it is.

    ``keyring:SERVICE/NAME`` splits at the last ``/``, so a service may itself contain slashes
    (``keyring:github.com/api/token`` is service ``github.com/api``, name ``token``).

    Args:
        value: a reference (``env:NAME``, ``file:PATH``, ``keyring:SERVICE/NAME``) or a literal.
        parent_env: mcpwall's own environment, where ``env:`` looks.
        path: the configuration key path that errors name.

    Raises:
        ConfigError: when the variable, file or keyring entry is missing or cannot be read, or the
            keyring cannot be used. The message names the reference, never a secret value.
    """
    for prefix, resolver in RESOLVERS.items():
        if value.startswith(prefix):
            return resolver(value[len(prefix) :], parent_env, path)
    return value


def resolve_settings(
    settings: Mapping[str, str], parent_env: Mapping[str, str], *, path: str = DEFAULT_PATH
) -> tuple[dict[str, str], Secrets]:
    """Resolve a server's configured variables, and record every value a reference produced.

    Args:
        settings: variable name to literal value or credential reference.
        parent_env: mcpwall's own environment, where ``env:`` looks.
        path: the configuration key path of ``settings``; errors name ``path.NAME``.

    Returns:
        The resolved variables, and the registry of the values that came from references (literal
        values are configuration, not credentials, and are not recorded).

    Raises:
        ConfigError: when a reference cannot be resolved.
    """
    secrets = Secrets()
    resolved: dict[str, str] = {}
    for name, value in settings.items():
        resolved[name] = resolve_reference(value, parent_env, path=f"{path}.{name}")
        if is_reference(value):
            secrets.add(resolved[name])
    return resolved, secrets
