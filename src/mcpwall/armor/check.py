"""All argument rules for one tools/call, as one fast function.

:func:`check_arguments` finds the path, network and command values in a call's arguments
(:mod:`~mcpwall.armor.arguments`, :mod:`~mcpwall.armor.commands`) and checks each
(:mod:`~mcpwall.armor.paths`, :mod:`~mcpwall.armor.network`). What it compiles from settings
(real roots, canonical domains, tool globs) and from input schemas (URI-format properties) is
cached by object identity, so the per-call cost is the walk and the checks. Rules that the
settings leave fully open are skipped. Each violation's ``detail`` carries the argument's JSON
location under ``argument``, and its ``reason`` starts with it.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import re
from collections.abc import Mapping
from dataclasses import dataclass

from mcpwall.armor.arguments import find_arguments, uri_keys
from mcpwall.armor.commands import check_command, find_commands
from mcpwall.armor.identity_cache import IdentityCache
from mcpwall.armor.network import NetworkPolicy, check_network, compile_network
from mcpwall.armor.paths import PathRoots, check_path, compile_roots
from mcpwall.armor.settings import ArmorSettings
from mcpwall.armor.violations import Violation


@dataclass(frozen=True, slots=True)
class CompiledArmor:
    """What :func:`check_arguments` needs from settings, computed once per settings object."""

    settings: ArmorSettings
    roots: PathRoots | None
    path_keys: frozenset[str]
    network: NetworkPolicy | None
    command_tools: re.Pattern[str] | None


def compile_armor(settings: ArmorSettings) -> CompiledArmor:
    """Compile settings for :func:`check_arguments` (cached there by identity).

    Args:
        settings: validated settings.

    Returns:
        The compiled form.
    """
    roots = None
    if settings.allowed_paths is not None:
        roots = compile_roots(tuple(settings.allowed_paths), settings.path_base)
    open_network = settings.allow_network and settings.allowed_domains is None and settings.allow_private_networks
    globs = settings.effective_command_tools()
    return CompiledArmor(
        settings=settings,
        roots=roots,
        path_keys=frozenset(settings.path_keys),
        network=None if open_network else compile_network(settings),
        command_tools=re.compile("|".join(fnmatch.translate(g) for g in globs)) if globs else None,
    )


_COMPILED: IdentityCache[ArmorSettings, CompiledArmor] = IdentityCache()
_SCHEMAS: IdentityCache[Mapping[str, object], frozenset[str]] = IdentityCache(maxsize=1024)


def check_arguments(
    tool_name: str,
    arguments: Mapping[str, object],
    input_schema: Mapping[str, object] | None,
    settings: ArmorSettings,
) -> list[Violation]:
    """Check every path, URL, host and command line in a call's arguments.

    Args:
        tool_name: the tool called (matched against ``command_tools``).
        arguments: the call's ``arguments`` object.
        input_schema: the tool's ``inputSchema`` (for ``format: uri`` properties), or None.
        settings: the effective settings (after :func:`~mcpwall.armor.ceiling.apply_ceiling`).

    Returns:
        Every violation found, in argument order per rule; empty when the call passes.
    """
    armor = _COMPILED.get(settings, compile_armor)
    violations: list[Violation] = []
    if armor.roots is not None or armor.network is not None:
        schema_keys: frozenset[str] = frozenset()
        if armor.roots is not None and input_schema:
            schema_keys = _SCHEMAS.get(input_schema, uri_keys)
        found = find_arguments(arguments, armor.path_keys, schema_keys)
        if armor.roots is not None:
            violations += [_at(v, a.location) for a in found.paths if (v := check_path(str(a.value), armor.roots))]
        if armor.network is not None:
            network = armor.network
            violations += [_at(v, a.location) for a in found.network if (v := check_network(str(a.value), network))]
    if armor.command_tools is not None and armor.command_tools.match(tool_name):
        found_commands = find_commands(arguments)
        violations += [_at(v, c.location) for c in found_commands if (v := check_command(c.value, settings))]
    return violations


def _at(found: Violation, location: str) -> Violation:
    return dataclasses.replace(
        found, reason=f"{location}: {found.reason}", detail={**found.detail, "argument": location}
    )
