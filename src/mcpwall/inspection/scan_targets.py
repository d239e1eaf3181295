"""What ``mcpwall scan`` starts: the stdio servers of a mcpwall config or of an MCP client config.

Client configurations come in two shapes:

- ``{"mcpServers": {name: {command, args, env, cwd}}}``: Claude Desktop
  (``claude_desktop_config.json``), Claude Code (``.mcp.json``), Cursor (``.cursor/mcp.json``);
- ``{"servers": {name: {type, command, args, env, cwd}}}``: VS Code (``.vscode/mcp.json``).

Entries that are not stdio (a ``url``, or a ``type`` other than ``stdio``) are skipped with a
note; so are entries without a command. Environment values are passed through
``armor.environment.server_environment`` when the server starts, so ``env:NAME`` and
``file:PATH`` credential references work here too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcpwall.config.models import Config, ServerSpec
from mcpwall.errors import ConfigError


@dataclass(frozen=True, slots=True)
class ScanTarget:
    """One stdio server to start and list.

    Attributes:
        name: its name in the configuration (also its server identity).
        command: the program.
        args: its arguments.
        env: variables set for it (values may be credential references).
        allowed_env: names copied from mcpwall's environment beyond the baseline.
        cwd: its working directory, or None.
    """

    name: str
    command: str
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    allowed_env: list[str] = field(default_factory=list)
    cwd: str | None = None

    @property
    def argv(self) -> list[str]:
        """The full command line."""
        return [self.command, *self.args]


@dataclass(slots=True)
class ScanPlan:
    """The servers to scan and the notes about entries left out."""

    targets: list[ScanTarget] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def plan_from_config(config: Config) -> ScanPlan:
    """The stdio servers of a mcpwall configuration (``servers:`` entries with a ``command``)."""
    plan = ScanPlan()
    for name, spec in config.servers.items():
        if spec.command is None:
            plan.notes.append(f"{name}: no command (not a stdio server), skipped")
            continue
        plan.targets.append(_from_spec(name, spec.command, spec, config))
    return plan


def _from_spec(name: str, command: str, spec: ServerSpec, config: Config) -> ScanTarget:
    environment = spec.environment or config.environment
    return ScanTarget(
        name=name,
        command=command,
        args=list(spec.args),
        env=dict(environment.env),
        allowed_env=list(environment.allowed_env),
        cwd=spec.cwd,
    )


def plan_from_client_config(path: Path) -> ScanPlan:
    """The stdio servers of an MCP client configuration file.

    Args:
        path: a Claude Desktop / Claude Code / Cursor (``mcpServers``) or VS Code (``servers``) file.

    Raises:
        ConfigError: the file cannot be read, is not JSON, or has neither shape.
    """
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"cannot read client config {path}: {exc}") from exc
    entries = _entries(document)
    if entries is None:
        raise ConfigError(f"{path}: expected an object with 'mcpServers' or 'servers'")
    plan = ScanPlan()
    for name, entry in entries.items():
        target, note = _client_entry(str(name), entry)
        if target is not None:
            plan.targets.append(target)
        if note is not None:
            plan.notes.append(note)
    return plan


def _entries(document: object) -> dict[str, Any] | None:
    if not isinstance(document, dict):
        return None
    for key in ("mcpServers", "servers"):
        if isinstance(document.get(key), dict):
            found: dict[str, Any] = document[key]
            return found
    return None


def _client_entry(name: str, entry: object) -> tuple[ScanTarget | None, str | None]:
    if not isinstance(entry, dict):
        return None, f"{name}: not an object, skipped"
    kind = entry.get("type", "stdio")
    if kind != "stdio" or "url" in entry:
        return None, f"{name}: {kind if kind != 'stdio' else 'url'} server (not stdio), skipped"
    command, args, env = entry.get("command"), entry.get("args", []), entry.get("env", {})
    if not isinstance(command, str) or not command:
        return None, f"{name}: no command, skipped"
    if not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
        return None, f"{name}: args must be a list of strings, skipped"
    if not (isinstance(env, dict) and all(isinstance(v, str) for v in env.values())):
        return None, f"{name}: env must map names to strings, skipped"
    cwd = entry.get("cwd")
    return ScanTarget(name, command, list(args), dict(env), [], cwd if isinstance(cwd, str) else None), None
