"""Reading a command line: the program that really runs, its subcommand, inline-code wrappers.

- **Base command**: the basename of the first word (``/usr/bin/cargo`` → ``cargo``; the binary's
  location is not checked, so pair the command policy with a path policy), after unwrapping:
  leading ``VAR=value`` assignments, and ``env`` with its assignments and options (``-i``,
  ``-0``, ``-v``, ``-u NAME``, ``-C DIR``, ``-P PATH``, ``--unset=NAME``, ``--``), repeatedly
  (``env env cargo``). ``env -S``/``--split-string`` re-splits a string into a new command
  line, so it is refused. ``env`` with nothing to run prints the environment and is itself the
  base command. Privilege wrappers (``sudo``, ``doas``, ``su``) are *not* unwrapped: they are
  base commands like any other, refused unless listed (``sudo: [systemctl]``).
- **Subcommand**: the first positional argument after the base command. ``-x``, ``--opt`` and
  ``--opt=value`` are options; ``--`` ends options. Options that take their value as the next
  word are known only for a few programs (:data:`VALUE_OPTIONS`: ``git -C dir``,
  ``cargo --config k=v``, ``cargo +toolchain``); elsewhere the value is taken for the
  subcommand, which refuses the call rather than admitting it (write ``--opt=value``).
- **Interpreter wrappers**: an interpreter anywhere in the line (also after ``timeout``,
  ``xargs``, ``find -exec``...) followed anywhere by its inline-code flag: ``sh|bash|zsh|... -c``
  (also in clusters: ``bash -lc``), ``python* -c``, ``node|bun -e|-p|--eval|--print``,
  ``deno eval``, ``perl -e|-E``, ``ruby|lua|Rscript|osascript -e``, ``php -r``,
  ``powershell|pwsh -Command|-EncodedCommand`` (any prefix, any case), ``cmd /c|/k``.
  Matching is deliberately broad (``python script.py -c x`` is refused too). Global options
  that make a program run any code count as wrappers too (:data:`CODE_OPTIONS`: ``git -c``,
  ``git --config-env``, ``git --exec-path``, ``cargo --config``).
  Not detected: Windows PowerShell's implicit ``-Command`` (script text as first argument),
  and programs that evaluate code without a flag (``awk``, ``python -m timeit``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "git": frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"}),
    "cargo": frozenset({"--explain", "--color", "-C", "--config", "-Z"}),
}
"""Per program, the options before the subcommand that take the next word as their value."""

CODE_OPTIONS: dict[str, tuple[str, ...]] = {
    "git": ("-c", "--config-env", "--exec-path"),
    "cargo": ("--config",),
}
"""Per program, options before the subcommand that can make it run any code (``git -c
core.pager=...``, ``cargo --config target.x.runner=...``): treated as interpreter wrappers."""

_PLUS_OPTIONS = frozenset({"cargo", "rustup"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_ENV_VALUE_LETTERS = frozenset("uCP")
_ENV_LONG_VALUE = frozenset({"--unset", "--chdir"})
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "csh", "tcsh", "fish", "rbash", "yash"})
_PYTHON = re.compile(r"(?:python|pypy|py)[0-9.]*[mdw]?\Z")
_E_FLAG = frozenset({"ruby", "jruby", "lua", "luajit", "rscript", "osascript"})


class RefusedCommandLineError(ValueError):
    """A command line that cannot be read safely; ``str(error)`` is the reason."""


def basename(word: str) -> str:
    """The program name of a command word (``/usr/bin/env`` → ``env``, ``C:\\x\\y`` → ``y``).

    Args:
        word: the first word of a command line.

    Returns:
        Its last path component.
    """
    return word.replace("\\", "/").rsplit("/", 1)[-1]


def unwrap(argv: list[str]) -> list[str]:
    """Strip leading assignments and ``env`` wrappers, down to the program that runs.

    Args:
        argv: the command line as words.

    Returns:
        The words from the base command on.

    Raises:
        RefusedCommandLineError: ``env -S`` (re-splitting) or another unreadable ``env`` use.
    """
    i = 0
    while True:
        while i < len(argv) and _ASSIGNMENT.match(argv[i]):
            i += 1
        if i >= len(argv) or basename(argv[i]) != "env":
            return argv[i:]
        after = _skip_env_options(argv, i + 1)
        if after >= len(argv):
            return argv[i:]
        i = after


def _skip_env_options(argv: list[str], i: int) -> int:
    while i < len(argv):
        word = argv[i]
        if word == "--":
            return i + 1
        if word.startswith("--split-string") or (word.startswith("-") and "S" in _short_letters(word)):
            raise RefusedCommandLineError("env -S re-splits a string into a command line")
        if word in _ENV_LONG_VALUE or (not word.startswith("--") and _takes_next(word)):
            i += 2
        elif word.startswith("-") or _ASSIGNMENT.match(word):
            i += 1
        else:
            return i
    return i


def _short_letters(word: str) -> str:
    return word[1:] if word.startswith("-") and not word.startswith("--") else ""


def _takes_next(word: str) -> bool:
    letters = _short_letters(word)
    for position, letter in enumerate(letters):
        if letter in _ENV_VALUE_LETTERS:
            return position == len(letters) - 1
    return False


def subcommand(base: str, args: list[str]) -> str | None:
    """The first positional argument after the base command's options.

    Args:
        base: the base command's name.
        args: the words after the base command.

    Returns:
        The subcommand, or None when there is none.
    """
    return _split_global(base, args)[1]


def code_option(program: list[str]) -> str | None:
    """A global option that lets the program run any code (see :data:`CODE_OPTIONS`).

    Args:
        program: the unwrapped command line, base command first.

    Returns:
        The offending option word, or None.
    """
    base = basename(program[0]) if program else ""
    risky = CODE_OPTIONS.get(base, ())
    for word in _split_global(base, program[1:])[0] if risky else ():
        if any(word == opt or word.startswith(opt + "=") or (len(opt) == 2 and word.startswith(opt)) for opt in risky):
            return f"{base} {word}"
    return None


def _split_global(base: str, args: list[str]) -> tuple[list[str], str | None]:
    """The option words before the subcommand, and the subcommand."""
    value_options = VALUE_OPTIONS.get(base, frozenset())
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            return args[:i], args[i + 1] if i + 1 < len(args) else None
        if word in value_options:
            i += 2
        elif (word.startswith("-") and word != "-") or (base in _PLUS_OPTIONS and word.startswith("+")):
            i += 1
        else:
            return args[:i], word
    return args, None


def _short_cluster(letters: str) -> Callable[[str], bool]:
    def has(word: str) -> bool:
        return not word.startswith("--") and any(letter in letters for letter in _short_letters(word))

    return has


def _long_or_short(longs: frozenset[str], letters: str) -> Callable[[str], bool]:
    short = _short_cluster(letters)
    return lambda word: word.partition("=")[0] in longs or short(word)


def _powershell_command(word: str) -> bool:
    name = word.lower().lstrip("-/")
    if not name or word[:1] not in "-/":
        return False
    return name == "ec" or "command".startswith(name) or "encodedcommand".startswith(name)


_INLINE_CODE: list[tuple[Callable[[str], bool], Callable[[str], bool]]] = [
    (_SHELLS.__contains__, _long_or_short(frozenset({"--command"}), "c")),
    (lambda name: bool(_PYTHON.match(name)), _short_cluster("c")),
    ({"node", "nodejs", "bun"}.__contains__, _long_or_short(frozenset({"--eval", "--print"}), "ep")),
    ("deno".__eq__, "eval".__eq__),
    ("perl".__eq__, _short_cluster("eE")),
    (_E_FLAG.__contains__, _short_cluster("e")),
    ("php".__eq__, _short_cluster("r")),
    ({"powershell", "pwsh"}.__contains__, _powershell_command),
    ("cmd".__eq__, lambda word: word.lower() in {"/c", "/k", "/r"}),
]


def interpreter_wrapper(argv: list[str]) -> str | None:
    """Find an interpreter running inline code anywhere in a command line.

    Args:
        argv: the command line as words.

    Returns:
        ``"<interpreter> <flag>"`` for the first wrapper found, or None.
    """
    names = [basename(word).lower().removesuffix(".exe") for word in argv]
    for is_interpreter, is_flag in _INLINE_CODE:
        first = next((i for i, name in enumerate(names) if is_interpreter(name)), None)
        if first is None:
            continue
        flag = next((word for word in argv[first + 1 :] if is_flag(word)), None)
        if flag is not None:
            return f"{argv[first]} {flag}"
    return None
