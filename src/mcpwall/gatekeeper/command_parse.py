"""Shell-like text, taken apart the way a shell would run it (closely enough to judge risk).

The parse over-approximates on purpose: whatever a shell *might* run is handed to the risk
rules, so a trick that confuses this parser can only add segments, never hide one.

- ``;``, ``&&``, ``||``, ``|``, ``&``, newlines and parentheses separate simple commands
  (``shlex`` with ``punctuation_chars``; comments are *not* stripped, because ``shlex`` would
  cut ``a#b; rm -rf /`` at the ``#`` where a shell does not).
- Command substitutions (``$(…)``, backticks, ``<(…)``, ``>(…)``) are found in the raw text,
  inside quotes too, and returned for classification as commands of their own.
- Wrappers (``sudo``, ``env``, ``nice``, ``timeout``, ``xargs``, shell keywords such as
  ``then``/``do``…) and leading ``VAR=value`` assignments are stripped; a binary given by path
  (``/usr/bin/rm``, ``\\rm``) is known by its base name.
- Text ``shlex`` cannot parse (unbalanced quotes) is split on whitespace and operators instead
  and flagged, so the rules can treat it with suspicion.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from dataclasses import dataclass

_OPERATOR = re.compile(r"^[();<>|&]+$")
_FALLBACK_TOKEN = re.compile(r"[();<>|&]+|[^\s();<>|&]+")
_OPENER = re.compile(r"[$<>]\(")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PIPES = frozenset({"|", "|&"})

WRAPPERS: dict[str, frozenset[str]] = {
    "sudo": frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group"}),
    "doas": frozenset({"-u", "-C"}),
    "env": frozenset({"-u", "-C", "--unset", "--chdir"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "ionice": frozenset({"-c", "-n", "-p"}),
    "stdbuf": frozenset({"-i", "-o", "-e"}),
    "timeout": frozenset({"-s", "-k", "--signal", "--kill-after"}),
    "xargs": frozenset({"-I", "-n", "-P", "-d", "-E", "-L", "-s", "-a"}),
    "time": frozenset({"-f", "-o"}),
    "watch": frozenset({"-n", "--interval"}),
    "exec": frozenset({"-a"}),
    **{name: frozenset() for name in ("nohup", "command", "builtin", "setsid", "unbuffer")},
    **{word: frozenset() for word in ("then", "do", "else", "elif", "if", "while", "until", "!", "{")},
}
"""Programs (and shell keywords) that run the rest of their arguments as a command, with
their options that take a value."""

_POSITIONAL_AFTER_OPTIONS = {"timeout": 1}  # timeout DURATION COMMAND…
_SSH_OPTIONS_WITH_VALUE = frozenset(
    [
        "-b",
        "-c",
        "-D",
        "-E",
        "-e",
        "-F",
        "-I",
        "-i",
        "-J",
        "-L",
        "-l",
        "-m",
        "-O",
        "-o",
        "-p",
        "-Q",
        "-R",
        "-S",
        "-W",
        "-w",
    ]
)


@dataclass(frozen=True, slots=True)
class Segment:
    """One simple command of a compound command line.

    Attributes:
        argv: the words, wrappers included.
        piped: its standard input comes from a pipe.
        writes: targets of its output redirections (``>``, ``>>``, ``&>``…).
    """

    argv: tuple[str, ...]
    piped: bool = False
    writes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ParsedCommand:
    """A command line taken apart.

    Attributes:
        segments: the simple commands, in order.
        substitutions: texts of command and process substitutions, to classify as commands.
        parse_error: ``shlex`` could not parse the text; the segments come from a cruder split.
    """

    segments: tuple[Segment, ...]
    substitutions: tuple[str, ...]
    parse_error: bool


def _tokens(text: str) -> tuple[list[str], bool]:
    """Shell words and operators of ``text``, and whether the fallback split was used."""
    lexer = shlex.shlex(text.replace("\n", " ; "), posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer), False
    except ValueError:
        return _FALLBACK_TOKEN.findall(text.replace("'", " ").replace('"', " ")), True


def _segments(tokens: list[str]) -> list[Segment]:
    """Group tokens into simple commands, noting pipes and redirect targets."""
    segments: list[Segment] = []
    argv: list[str] = []
    writes: list[str] = []
    piped = False
    pending: str | None = None
    for token in tokens:
        if pending is not None:
            if ">" in pending:
                writes.append(token)
            pending = None
        elif not _OPERATOR.match(token):
            argv.append(token)
        elif "<(" in token:
            piped = True  # process substitution: the program reads another command's output
        elif "<" in token or ">" in token:
            pending = token
        else:
            if token.startswith("(") and argv and argv[-1] == "$":
                argv.pop()  # the "$" of "$(": the substitution splits off as a segment of its own
            segments.append(Segment(tuple(argv), piped, tuple(writes)))
            argv, writes, piped = [], [], token in _PIPES
    segments.append(Segment(tuple(argv), piped, tuple(writes)))
    return [segment for segment in segments if segment.argv or segment.writes]


def substitutions(text: str) -> list[str]:
    """Texts a shell would run as commands inside ``text``: ``$(…)``, backticks, ``<(…)``.

    The span is greedy (from the first opener to the last ``)``), which may take in more than
    the substitution; the excess is classified too, which only errs towards caution. Found
    with ``find``/``rfind``, not a backtracking regex, so hostile text costs linear time.
    """
    found: list[str] = []
    opener = _OPENER.search(text)
    if opener is not None and text.rfind(")") > opener.end():
        found.append(text[opener.end() : text.rfind(")")])
    found.extend(text.split("`")[1::2])
    return [part for part in found if part.strip()]


def parse_command(text: str) -> ParsedCommand:
    """Take a command line apart into simple commands and substitutions.

    Args:
        text: a command line, as a shell would receive it.

    Returns:
        The parsed command.
    """
    tokens, parse_error = _tokens(text)
    return ParsedCommand(tuple(_segments(tokens)), tuple(substitutions(text)), parse_error)


def program_name(word: str) -> str:
    """The name a program is known by: base name, alias-escape removed, lower case.

    Lower case because case-insensitive file systems (macOS) run ``RM`` as ``rm``.
    """
    return posixpath.basename(word.lstrip("\\")).lower()


def skip_options(argv: tuple[str, ...], start: int, with_value: frozenset[str]) -> int:
    """Index of the first word after the options starting at ``start``."""
    index = start
    while index < len(argv):
        word = argv[index]
        if word == "--":
            return index + 1
        if not word.startswith("-") or word == "-":
            break
        index += 2 if word in with_value else 1
    return index


def unwrap(argv: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Strip wrappers and leading ``VAR=value`` words from a simple command.

    Args:
        argv: a simple command's words.

    Returns:
        The wrapped command's words, and the names of the wrappers stripped (``sudo``…).
    """
    wrappers: list[str] = []
    index = 0
    while index < len(argv):
        word = argv[index]
        name = program_name(word)
        if _ASSIGNMENT.match(word):
            index += 1
        elif name in WRAPPERS:
            wrappers.append(name)
            index = skip_options(argv, index + 1, WRAPPERS[name])
            index += _POSITIONAL_AFTER_OPTIONS.get(name, 0)
        else:
            break
    return argv[index:], tuple(wrappers)


def short_flags(args: tuple[str, ...]) -> set[str]:
    """Letters of the short option clusters in ``args`` (``-rf`` gives ``{"r", "f"}``)."""
    return {char for arg in args if arg.startswith("-") and not arg.startswith("--") for char in arg[1:]}


def shell_inline_command(argv: tuple[str, ...]) -> str | None:
    """The command string of ``sh -c STRING`` (also ``-lc``, ``-ec``…), or None."""
    inline = False
    for arg in argv[1:]:
        if arg.startswith("-") and not arg.startswith("--"):
            inline = inline or "c" in arg[1:]
        elif inline:
            return arg
    return None


def _exec_commands(argv: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Commands run by ``find … -exec CMD … ;`` (and ``-execdir``, ``-ok``, ``-okdir``)."""
    starts = [i + 1 for i, arg in enumerate(argv) if arg in ("-exec", "-execdir", "-ok", "-okdir")]
    commands = []
    for start in starts:
        end = next((i for i in range(start, len(argv)) if argv[i] in (";", "+")), len(argv))
        commands.append(argv[start:end])
    return commands


def _ssh_remote(argv: tuple[str, ...]) -> list[str]:
    """The remote command of ``ssh [options] host command…``."""
    index = skip_options(argv, 1, _SSH_OPTIONS_WITH_VALUE) + 1
    return [" ".join(argv[index:])] if index < len(argv) else []


def nested_commands(name: str, argv: tuple[str, ...]) -> list[str | tuple[str, ...]]:
    """Commands that ``argv`` runs in turn: ``sh -c``, ``su -c``, ``eval``, ``ssh``, ``find -exec``.

    Args:
        name: the program's name.
        argv: the command's words, the program first.

    Returns:
        Command lines (str) and argv arrays (tuple) to classify as commands of their own.
    """
    if name in ("sh", "bash", "zsh", "dash", "ksh", "fish", "ash", "su"):
        inline = shell_inline_command(argv)
        return [] if inline is None else [inline]
    if name == "eval":
        return [" ".join(argv[1:])]
    if name == "ssh":
        return list(_ssh_remote(argv))
    if name == "find":
        return list(_exec_commands(argv))
    return []
