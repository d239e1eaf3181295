"""Command arguments: which program runs, with which subcommand, and nothing smuggled in.

:func:`check_command` applies, in order:

1. **Shell metacharacters** (unless ``allow_shell_metacharacters``): ``;`` ``|`` ``&`` (so
   ``&&``/``||``) backticks ``$(`` ``>`` ``<`` newline and carriage return, anywhere in a string
   command line or in any word of a list (a server may join the list into a shell string).
   Quotes are not interpreted: ``git commit -m "a; b"`` is refused too (fail closed).
2. **Parsing**: strings are split with :func:`shlex.split` (POSIX rules); unbalanced quotes
   refuse the call.
3. **Unwrapping** ``env`` and assignments (see :mod:`mcpwall.armor.command_line`).
4. **Interpreter wrappers** (unless ``allow_interpreter_wrappers``): ``sh -c``, ``python -c``...
5. **Allowlist** (when ``commands`` is set): the base command must be listed
   (``CommandNotAllowed``); when its list is not empty, its subcommand must be in it, and a call
   without one is refused (``SubcommandNotAllowed``).

:func:`command_like_arguments` finds the command lines in a call's arguments: values of the keys
``command``, ``cmd``, ``commandLine``, ``cmdline``, ``shell_command``, ``script`` and ``args``/``argv`` at any depth
(key case and separators ignored). In one object, ``command: "git"`` and ``args: ["status"]``
form one command line, ``git status``.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from mcpwall.armor.arguments import child_location
from mcpwall.armor.command_line import (
    RefusedCommandLineError,
    basename,
    code_option,
    interpreter_wrapper,
    subcommand,
    unwrap,
)
from mcpwall.armor.settings import ArmorSettings
from mcpwall.armor.violations import Violation, ViolationType, violation

_METACHARACTERS = re.compile(r"[;|&`<>\n\r]|\$\(")
_NOT_LETTER = re.compile(r"[^a-z]")
COMMAND_KEYS = frozenset({"command", "cmd", "commandline", "cmdline", "shellcommand", "script"})
"""Normalized keys whose values are command lines."""
ARGV_KEYS = frozenset({"args", "argv"})
"""Normalized keys whose values are argument lists (joined to a sibling command key)."""


@dataclass(frozen=True, slots=True)
class CommandArgument:
    """A command line found in arguments, with the location of its (first) key."""

    location: str
    value: str | list[str]


def check_command(value: str | list[str], settings: ArmorSettings) -> Violation | None:
    """Check one command line against the command policy.

    Args:
        value: a command line, as a shell string or as a list of words.
        settings: the settings (``commands``, ``allow_shell_metacharacters``,
            ``allow_interpreter_wrappers``).

    Returns:
        A ``CommandNotAllowed`` or ``SubcommandNotAllowed`` violation, or None.
    """
    words = [value] if isinstance(value, str) else value
    if not settings.allow_shell_metacharacters and any(_METACHARACTERS.search(w) for w in words):
        return _refuse(value, "shell metacharacter in the command line")
    try:
        argv = shlex.split(value) if isinstance(value, str) else list(value)
        program = unwrap(argv)
    except (ValueError, RefusedCommandLineError) as error:
        return _refuse(value, f"unreadable command line: {error}")
    if not settings.allow_interpreter_wrappers:
        wrapper = interpreter_wrapper(argv) or code_option(program)
        if wrapper is not None:
            return _refuse(value, f"interpreter wrapper {wrapper!r}")
    if settings.commands is None or not program:
        return None
    return _allowlist_violation(value, program, settings.commands)


def _allowlist_violation(
    value: str | list[str], program: list[str], commands: dict[str, list[str]]
) -> Violation | None:
    base = basename(program[0])
    if base not in commands:
        return _refuse(value, f"command {base!r} is not in commands", command=base)
    allowed = commands[base]
    if not allowed:
        return None
    sub = subcommand(base, program[1:])
    if sub in allowed:
        return None
    reason = f"subcommand {sub!r} of {base!r} is not in {allowed}"
    return violation(ViolationType.SUBCOMMAND_NOT_ALLOWED, reason, command_line=value, command=base, subcommand=sub)


def _refuse(value: str | list[str], reason: str, **detail: object) -> Violation:
    return violation(ViolationType.COMMAND_NOT_ALLOWED, f"{reason}: {value!r}", command_line=value, **detail)


def command_like_arguments(args: Mapping[str, object]) -> list[str | list[str]]:
    """The command lines in a call's arguments (see the module docstring for the keys).

    Args:
        args: the call's ``arguments`` object.

    Returns:
        Each command line, as a string or a list of words.
    """
    return [found.value for found in find_commands(args)]


def find_commands(args: Mapping[str, object]) -> list[CommandArgument]:
    """Like :func:`command_like_arguments`, with the location of each command line.

    Args:
        args: the call's ``arguments`` object.

    Returns:
        The command lines with their JSON locations.
    """
    found: list[CommandArgument] = []
    stack: list[tuple[str, object]] = [("$", args)]
    while stack:
        location, node = stack.pop()
        if isinstance(node, Mapping):
            found.extend(_commands_in_object(location, node))
            stack.extend((child_location(location, str(key)), child) for key, child in node.items())
        elif isinstance(node, list):
            stack.extend((f"{location}[{i}]", child) for i, child in enumerate(node))
    return found


def _commands_in_object(location: str, node: Mapping[object, object]) -> list[CommandArgument]:
    commands = [(str(k), words) for k, v in node.items() if (words := _words(k, v, COMMAND_KEYS))]
    argvs = [(str(k), words) for k, v in node.items() if (words := _words(k, v, ARGV_KEYS))]
    if len(commands) == 1 and len(argvs) == 1:
        key, command = commands[0]
        return [CommandArgument(child_location(location, key), _join(command, argvs[0][1]))]
    return [CommandArgument(child_location(location, key), words) for key, words in commands + argvs]


@lru_cache(maxsize=4096)
def _normalized(key: str) -> str:
    return _NOT_LETTER.sub("", key.lower())


def _words(key: object, value: object, keys: frozenset[str]) -> str | list[str] | None:
    if not isinstance(key, str) or _normalized(key) not in keys:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(not isinstance(v, Mapping | list) for v in value):
        return [str(v) for v in value]
    return None


def _join(command: str | list[str], argv: str | list[str]) -> str | list[str]:
    if isinstance(command, list):
        return command + (shlex.split(argv) if isinstance(argv, str) else argv)
    return f"{command} {argv if isinstance(argv, str) else shlex.join(argv)}"
