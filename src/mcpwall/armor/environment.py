"""The environment a spawned server gets: a minimum, plus only what the config allows or sets.

Credential references (``env:NAME``, ``file:PATH``) are resolved at start. Their values go into
the server's environment only: never into argv, logs or audit records.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Final

from mcpwall.errors import ConfigError

BASELINE: Final = ("PATH", "HOME", "LANG")
"""Names every server gets from mcpwall's environment (when mcpwall has them)."""


def resolve_reference(value: str, parent: Mapping[str, str]) -> str:
    """Resolve a credential reference; any other value is returned as it is.

    Raises:
        ConfigError: when a referenced variable or file is missing (the value is never shown).
    """
    if value.startswith("env:"):
        name = value[4:]
        if name not in parent:
            raise ConfigError(f"credential reference env:{name} is not set", path="environment.env")
        return parent[name]
    if value.startswith("file:"):
        try:
            return Path(value[5:]).expanduser().read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ConfigError(f"credential file {value[5:]} cannot be read", path="environment.env") from exc
    return value


def server_environment(parent: Mapping[str, str], allowed: list[str], settings: Mapping[str, str]) -> dict[str, str]:
    """Build a server's environment.

    Args:
        parent: mcpwall's own environment.
        allowed: names copied from ``parent`` beyond the baseline.
        settings: variables set for the server (values may be credential references).

    Raises:
        ConfigError: when a credential reference cannot be resolved.
    """
    env = {name: parent[name] for name in (*BASELINE, *allowed) if name in parent}
    env.update({name: resolve_reference(value, parent) for name, value in settings.items()})
    return env
