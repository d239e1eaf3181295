"""Armor settings: the argument, rate and output policy of one profile or tool.

Every field is optional and has a safe default; ``None`` for a policy means "no such policy",
while an empty list means "allow nothing". Settings are validated when they are loaded (bad
globs, rates, roots and domains are rejected then, never at call time) and treated as
immutable afterwards: the armor caches what it compiles from a settings object by identity.

A profile's or tool's settings never allow more than the gateway's: see
:func:`mcpwall.armor.ceiling.apply_ceiling`.
"""

from __future__ import annotations

import os
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from mcpwall.armor.hosts import HostError, parse_host

STORAGE_SCHEMES = frozenset(
    {"memory", "redis", "rediss", "redis+unix", "redis+cluster", "redis+sentinel"}
    | {"valkey", "valkeys", "valkey+unix", "valkey+cluster", "valkey+sentinel"}
    | {"memcached", "mongodb", "mongodb+srv"}
)
"""Storage URI schemes of the ``limits`` library (synchronous storages)."""

RateString = str
"""A rate in the ``limits`` notation: ``"100/minute"``, ``"10/second;500/hour"``."""


class RateLimitSettings(BaseModel):
    """Call-rate windows, counted per session."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    per_session: RateString | None = None
    """Cap on all calls of one session, e.g. ``"100/minute"``; None for no cap."""

    per_tool: dict[str, RateString] = Field(default_factory=dict)
    """Tool-name glob → rate, e.g. ``{"write_*": "30/minute"}``; every matching glob applies,
    each with its own window per session."""

    storage_uri: str = "memory://"
    """Where windows are counted (``limits`` storage URI): ``memory://`` for one process,
    ``redis://host:6379/0`` so several gateway processes share the counts."""

    strategy: Literal["moving-window", "fixed-window"] = "moving-window"
    """Window algorithm: ``moving-window`` is exact; ``fixed-window`` is cheaper but admits up
    to twice the rate across a window boundary."""

    @field_validator("per_session")
    @classmethod
    def _session_rate_parses(cls, value: str | None) -> str | None:
        if value is not None:
            _parse_rate(value)
        return value

    @field_validator("per_tool")
    @classmethod
    def _tool_rates_parse(cls, value: dict[str, str]) -> dict[str, str]:
        for rate in value.values():
            _parse_rate(rate)
        return value

    @field_validator("storage_uri")
    @classmethod
    def _storage_scheme_known(cls, value: str) -> str:
        scheme = value.partition("://")[0]
        if scheme not in STORAGE_SCHEMES:
            raise ValueError(f"unsupported rate-limit storage {scheme!r}")
        return value


class ArmorSettings(BaseModel):
    """Argument, rate and output policy for the tools of one profile (or one tool)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    allowed_paths: list[str] | None = None
    """Roots that path arguments must resolve into (symlinks followed). None: no path policy;
    ``[]``: every path argument is refused. ``~`` is expanded; roots must be absolute."""

    path_base: str | None = None
    """Directory that relative path arguments are resolved against; default: the first root."""

    path_keys: list[str] = Field(default_factory=list)
    """Extra argument keys (exact names) that hold paths, beyond the built-in path words."""

    allow_network: bool = True
    """False refuses every URL, host or address argument."""

    allowed_domains: list[str] | None = None
    """Hosts that network arguments may name: ``github.com`` matches exactly, ``*.github.com``
    matches strict subdomains only. IP literals match exactly. None: any public host."""

    allow_private_networks: bool = False
    """Admit private, loopback, link-local (cloud metadata), multicast, reserved addresses and
    local-only names (``localhost``, ``*.internal``, single-label names)."""

    commands: dict[str, list[str]] | None = None
    """Base command → allowed subcommands (first positional argument); ``[]`` admits any
    subcommand. None: any base command (metacharacter and wrapper rules still apply)."""

    command_tools: list[str] = Field(default_factory=list)
    """Globs of tools whose ``command``/``cmd``/``script``/``argv``/``args`` arguments are
    command lines. Empty: every tool when ``commands`` is set, no tool otherwise."""

    allow_shell_metacharacters: bool = False
    """Admit ``;`` ``|`` ``&`` backticks ``$(`` ``>`` ``<`` and newlines in command lines."""

    allow_interpreter_wrappers: bool = False
    """Admit inline-code wrappers: ``sh -c``, ``python -c``, ``node -e``, ``powershell -Command``."""

    rate_limits: RateLimitSettings = Field(default_factory=RateLimitSettings)
    """Call-rate windows."""

    block_secrets: bool = True
    """Refuse calls whose arguments carry a credential (SecretInArguments)."""
    secret_allowlist: list[str] = Field(default_factory=list)
    """Literal argument values that are not secrets here (e.g. a documented example key)."""
    max_result_bytes: int = Field(default=524288, ge=1024)
    """Largest tools/call result (serialized JSON bytes) passed to the client."""

    on_oversize: Literal["truncate", "refuse"] = "truncate"
    """What happens to a larger result: shrink its text (``truncate``) or withhold it."""

    @field_validator("allowed_paths")
    @classmethod
    def _roots_absolute(cls, value: list[str] | None) -> list[str] | None:
        for root in value or ():
            if not os.path.isabs(os.path.expanduser(root)):
                raise ValueError(f"allowed path {root!r} is not absolute")
        return value

    @field_validator("path_base")
    @classmethod
    def _base_absolute(cls, value: str | None) -> str | None:
        if value is not None and not os.path.isabs(os.path.expanduser(value)):
            raise ValueError(f"path_base {value!r} is not absolute")
        return value

    @field_validator("allowed_domains")
    @classmethod
    def _domains_parse(cls, value: list[str] | None) -> list[str] | None:
        for entry in value or ():
            try:
                parse_host(entry.removeprefix("*."))
            except HostError as error:
                raise ValueError(str(error)) from None
            if "*" in entry.removeprefix("*."):
                raise ValueError(f"wildcard only as a leading '*.' in {entry!r}")
        return value

    @field_validator("commands")
    @classmethod
    def _commands_are_names(cls, value: dict[str, list[str]] | None) -> dict[str, list[str]] | None:
        for name in value or {}:
            if not name or "/" in name or "\\" in name:
                raise ValueError(f"command {name!r} must be a bare program name")
        return value

    def effective_command_tools(self) -> list[str]:
        """The tool globs whose command-like arguments are checked (see ``command_tools``)."""
        if self.command_tools:
            return list(self.command_tools)
        return ["*"] if self.commands is not None else []


def _parse_rate(rate: str) -> None:
    """Raise ValueError unless ``rate`` is in the ``limits`` notation (imported only when a rate
    is configured: ``mcpwall run`` must not pay for it at start-up otherwise)."""
    import limits

    limits.parse_many(rate)
