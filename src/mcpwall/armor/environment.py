"""The environment a spawned server gets: a minimum, plus only what the config allows or sets.

Credential references (``env:NAME``, ``file:PATH``, ``keyring:SERVICE/NAME``) are resolved at
start by `mcpwall.credentials`. Their values go into the server's environment only — never into
argv, logs or audit records — and are returned as a `Secrets` registry so that the gateway can
replace them with a marker when a server echoes one back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from mcpwall.credentials import Secrets, resolve_settings

BASELINE: Final = ("PATH", "HOME", "LANG")
"""Names every server gets from mcpwall's environment (when mcpwall has them)."""


def server_environment(
    parent: Mapping[str, str], allowed: list[str], settings: Mapping[str, str]
) -> tuple[dict[str, str], Secrets]:
    """Build a server's environment.

    Args:
        parent: mcpwall's own environment.
        allowed: names copied from ``parent`` beyond the baseline (proxy and CA variables too:
            nothing passes unless listed).
        settings: variables set for the server (values may be credential references).

    Returns:
        The environment, and the credentials resolved into it.

    Raises:
        ConfigError: when a credential reference cannot be resolved (the value is never shown).
    """
    env = {name: parent[name] for name in (*BASELINE, *allowed) if name in parent}
    resolved, secrets = resolve_settings(settings, parent)
    env.update(resolved)
    return env, secrets
