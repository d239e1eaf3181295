"""The gateway ceiling: no profile or tool setting may allow more than the gateway's.

:func:`apply_ceiling` intersects two :class:`ArmorSettings`; the result admits a call only
if both would. Field by field:

====================================  ======================================================
field                                 combined value
====================================  ======================================================
allowed_paths                         None means "no policy", so the other side wins; two
                                      lists give the intersection of the trees (real paths):
                                      a root inside a root of the other side is kept. An
                                      empty result refuses every path.
path_base                             the profile's, else the ceiling's
path_keys                             union (more keys checked)
allow_network, allow_private_networks,
allow_shell_metacharacters,
allow_interpreter_wrappers            both must allow (AND)
allowed_domains                       None = any; two lists give the entries covered by the
                                      other side (``api.x.com`` ∩ ``*.x.com`` = ``api.x.com``,
                                      ``*.a.x.com`` ∩ ``*.x.com`` = ``*.a.x.com``)
commands                              None = any; commands listed on both sides; their
                                      subcommands intersected (``[]`` = any); a command whose
                                      intersection is empty is removed (not turned into "any")
command_tools                         union of each side's effective globs
rate_limits                           every window of both sides applies (rates joined with
                                      ``;``); storage and strategy are the ceiling's
max_result_bytes                      the smaller
on_oversize                           ``refuse`` if either side refuses
====================================  ======================================================
"""

from __future__ import annotations

import os

from mcpwall.armor.hosts import parse_host
from mcpwall.armor.settings import ArmorSettings, RateLimitSettings


def apply_ceiling(settings: ArmorSettings, ceiling: ArmorSettings) -> ArmorSettings:
    """Intersect a profile's or tool's settings with the gateway ceiling.

    Args:
        settings: the profile's or tool's settings.
        ceiling: the gateway-level settings nothing may exceed.

    Returns:
        Settings that admit a call only when both inputs would.
    """
    return ArmorSettings(
        allowed_paths=_roots(settings.allowed_paths, ceiling.allowed_paths),
        path_base=settings.path_base or ceiling.path_base,
        path_keys=sorted(set(settings.path_keys) | set(ceiling.path_keys)),
        allow_network=settings.allow_network and ceiling.allow_network,
        allowed_domains=_domains(settings.allowed_domains, ceiling.allowed_domains),
        allow_private_networks=settings.allow_private_networks and ceiling.allow_private_networks,
        commands=_commands(settings.commands, ceiling.commands),
        command_tools=sorted(set(settings.effective_command_tools()) | set(ceiling.effective_command_tools())),
        allow_shell_metacharacters=settings.allow_shell_metacharacters and ceiling.allow_shell_metacharacters,
        allow_interpreter_wrappers=settings.allow_interpreter_wrappers and ceiling.allow_interpreter_wrappers,
        rate_limits=_rates(settings.rate_limits, ceiling.rate_limits),
        block_secrets=settings.block_secrets or ceiling.block_secrets,
        secret_allowlist=sorted(set(settings.secret_allowlist) & set(ceiling.secret_allowlist)),
        max_result_bytes=min(settings.max_result_bytes, ceiling.max_result_bytes),
        on_oversize="refuse" if "refuse" in (settings.on_oversize, ceiling.on_oversize) else "truncate",
    )


def _real(path: str) -> str:
    return os.path.realpath(os.path.expanduser(path))


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _roots(mine: list[str] | None, ceiling: list[str] | None) -> list[str] | None:
    if mine is None or ceiling is None:
        return ceiling if mine is None else mine
    kept: dict[str, None] = {}
    for root in map(_real, mine):
        for limit in map(_real, ceiling):
            if _within(root, limit):
                kept[root] = None
            elif _within(limit, root):
                kept[limit] = None
    return list(kept)


def _domain(entry: str) -> tuple[bool, str]:
    wildcard = entry.startswith("*.")
    return wildcard, parse_host(entry.removeprefix("*.")).name


def _covered(entry: tuple[bool, str], others: list[tuple[bool, str]]) -> bool:
    wildcard, name = entry
    for other_wildcard, other in others:
        if other_wildcard and name.endswith("." + other):
            return True
        if other_wildcard == wildcard and other == name:
            return True
    return False


def _domains(mine: list[str] | None, ceiling: list[str] | None) -> list[str] | None:
    if mine is None or ceiling is None:
        return ceiling if mine is None else mine
    left, right = [_domain(e) for e in mine], [_domain(e) for e in ceiling]
    both = [e for e in left if _covered(e, right)] + [e for e in right if _covered(e, left)]
    return list(dict.fromkeys(("*." if wildcard else "") + name for wildcard, name in both))


def _commands(mine: dict[str, list[str]] | None, ceiling: dict[str, list[str]] | None) -> dict[str, list[str]] | None:
    if mine is None or ceiling is None:
        return ceiling if mine is None else mine
    combined: dict[str, list[str]] = {}
    for name in mine.keys() & ceiling.keys():
        left, right = mine[name], ceiling[name]
        if not left or not right:
            combined[name] = list(left or right)
        elif common := [sub for sub in left if sub in right]:
            combined[name] = common
    return combined


def _join(left: str | None, right: str | None) -> str | None:
    return ";".join(rate for rate in (left, right) if rate) or None


def _rates(mine: RateLimitSettings, ceiling: RateLimitSettings) -> RateLimitSettings:
    per_tool = dict(ceiling.per_tool)
    for pattern, rate in mine.per_tool.items():
        per_tool[pattern] = _join(per_tool.get(pattern), rate) or rate
    return RateLimitSettings(
        per_session=_join(mine.per_session, ceiling.per_session),
        per_tool=per_tool,
        storage_uri=ceiling.storage_uri,
        strategy=ceiling.strategy,
    )
