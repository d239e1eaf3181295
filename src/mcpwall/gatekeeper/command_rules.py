"""Program rules: what each program is known to risk, as data plus a few small functions.

Every simple command gets zero or more findings (risk, irreversible, reason). No finding
means low risk. A program no rule knows is medium ("unrecognized program"): it could be
anything, so it costs more of the session's risk budget, but it is not pinned.

Writes into sensitive places (``~/.ssh``, shell startup files, ``/etc`` and other system
directories, raw disks) are high and irreversible whichever program makes them.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Literal, NamedTuple

from mcpwall.gatekeeper import git_rules
from mcpwall.gatekeeper.command_parse import shell_inline_command, short_flags, substitutions


class Finding(NamedTuple):
    """One reason a command is risky."""

    risk: Literal["low", "medium", "high"]
    irreversible: bool
    reason: str


Rule = Callable[[tuple[str, ...], bool], list[Finding]]

_LOW = """ls cat grep egrep fgrep rg echo printf pwd head tail wc sort uniq cut tr date whoami id
    uname which whereis file stat du df less more diff cmp tree true false test [ basename
    dirname realpath readlink ps jq yq cd export hostname seq sleep column nl tac md5sum
    sha1sum sha256sum base64 type history tput printenv locale nproc free uptime mkdir cp mv ln
    install tee touch"""
_MEDIUM = {
    "network tool": "curl wget ssh scp sftp telnet ftp socat ping dig nslookup",
    "package manager": "pip pipx uv npm pnpm yarn apt apt-get yum dnf brew gem cargo go apk conda poetry",
    "runs a downloaded package": "npx uvx bunx pnpx",
    "stops processes": "kill killall pkill",
    "controls system services": "systemctl service launchctl",
    "runs a build": "make cmake ninja gradle mvn",
}
_HIGH_IRREVERSIBLE = "dd mkfs mke2fs fdisk sfdisk parted wipefs shred srm wipe blkdiscard"
_POWER = "shutdown reboot halt poweroff"
_CONSTANT: dict[str, list[Finding]] = {
    **{name: [] for name in _LOW.split()},
    **{name: [Finding("medium", False, why)] for why, names in _MEDIUM.items() for name in names.split()},
    **{name: [Finding("high", True, f"{name} destroys data")] for name in _HIGH_IRREVERSIBLE.split()},
    **{name: [Finding("high", False, "stops the machine")] for name in _POWER.split()},
}

SHELLS = frozenset(["sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh", "ash", "source", "."])
INTERPRETERS = frozenset(
    ["python", "perl", "ruby", "node", "php", "lua", "deno", "osascript", "pwsh", "powershell", "awk", "gawk"]
)
_INLINE_FLAGS = frozenset({"-c", "-e", "-r", "--eval", "-E"})

_WRITES_LAST_ARG = frozenset({"cp", "ln", "install", "rsync", "scp"})
_WRITES_ANY_ARG = frozenset({"tee", "touch", "truncate", "mv", "rm", "unlink", "chmod", "chown", "chgrp", "sed"})
_SECRET_DIRS = frozenset({".ssh", ".gnupg", ".aws", ".kube", ".docker"})
_STARTUP_FILES = frozenset(
    {".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zprofile", ".zshenv", ".netrc"}
)
_SYSTEM_ROOTS = frozenset({"etc", "boot", "bin", "sbin", "lib", "lib64", "usr", "root", "sys"})
_HOME = re.compile(r"^(\$HOME|\$\{HOME\}|~[A-Za-z0-9_-]*)(?=/|$)")
_DISK = re.compile(r"^/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper)")
# Every pattern here runs on hostile text: anchored at a word boundary, possessive, linear.
_FUNCTION = re.compile(r"(?<![^\s;&|(){}])([^\s;&|(){}]++)\s*+\(\s*+\)")
_MAX_FUNCTIONS = 16


def sensitive_path(word: str) -> bool:
    """Whether writing to ``word`` could plant keys, persistence or damage the system."""
    path = posixpath.normpath(_HOME.sub("~", word.removeprefix("file://")) or ".")
    parts = path.split("/")
    if _SECRET_DIRS.intersection(parts) or parts[-1] in _STARTUP_FILES or _DISK.match(path):
        return True
    named = [part for part in parts if part not in ("", ".", "..")]
    escapes = path.startswith(("/", ".."))
    return escapes and bool(named) and named[0] in _SYSTEM_ROOTS


def _writes_sensitive(name: str, argv: tuple[str, ...]) -> list[Finding]:
    """A finding when a program that writes, moves or deletes names a sensitive path."""
    args = argv[1:]
    if name in _WRITES_LAST_ARG:
        args = args[-1:]  # only the destination is written
    elif name == "dd":
        args = tuple(arg.removeprefix("of=") for arg in args if arg.startswith("of="))
    elif name not in _WRITES_ANY_ARG:
        return []
    for arg in args:
        if not arg.startswith("-") and sensitive_path(arg):
            return [Finding("high", True, f"{name} writes to {arg}")]
    return []


def _rm(argv: tuple[str, ...], piped: bool) -> list[Finding]:
    if "--recursive" in argv or short_flags(argv[1:]) & {"r", "R"}:
        return [Finding("high", True, "rm -r deletes recursively")]
    return [Finding("medium", True, "rm deletes files")]


def _ownership(argv: tuple[str, ...], piped: bool) -> list[Finding]:
    if "--recursive" in argv or "R" in short_flags(argv[1:]):
        return [Finding("high", True, f"{argv[0]} -R changes a whole tree")]
    return [Finding("medium", False, "changes permissions")]


def _find(argv: tuple[str, ...], piped: bool) -> list[Finding]:
    if "-delete" in argv:
        return [Finding("high", True, "find -delete deletes what it finds")]
    return []


def _sed(argv: tuple[str, ...], piped: bool) -> list[Finding]:
    if "--in-place" in argv or "i" in short_flags(argv[1:]):
        return [Finding("medium", True, "sed -i edits files in place")]
    return []


def _rsync(argv: tuple[str, ...], piped: bool) -> list[Finding]:
    if any(arg.startswith("--delete") for arg in argv):
        return [Finding("high", True, "rsync --delete deletes at the destination")]
    return [Finding("medium", False, "network tool")]


def _netcat(argv: tuple[str, ...], piped: bool) -> list[Finding]:
    if short_flags(argv[1:]) & {"e", "c"}:
        return [Finding("high", False, "netcat -e hands a shell to the network")]
    return [Finding("medium", False, "network tool")]


def _shell(argv: tuple[str, ...], piped: bool) -> list[Finding]:
    if piped:
        return [Finding("high", True, f"pipes text into {argv[0]}")]
    inline = shell_inline_command(argv)
    if inline is None:
        return [Finding("medium", False, "runs a shell script")]
    if substitutions(inline):
        return [Finding("high", True, "a shell runs the output of another command")]
    return []


def _interpreter(argv: tuple[str, ...], piped: bool) -> list[Finding]:
    scripts = [arg for arg in argv[1:] if not arg.startswith("-")]
    if piped and not scripts:
        return [Finding("high", True, f"pipes text into {argv[0]}")]
    if _INLINE_FLAGS.intersection(argv[1:]):
        return [Finding("medium", False, "runs inline interpreter code")]
    return [Finding("medium", False, "runs a script")]


def _eval(argv: tuple[str, ...], piped: bool) -> list[Finding]:
    if substitutions(" ".join(argv[1:])):
        return [Finding("high", True, "eval runs the output of another command")]
    return []


def _crontab(argv: tuple[str, ...], piped: bool) -> list[Finding]:
    if "r" in short_flags(argv[1:]):
        return [Finding("high", True, "crontab -r deletes every scheduled job")]
    return [Finding("medium", False, "schedules persistent jobs")]


def _orchestrator(argv: tuple[str, ...], piped: bool) -> list[Finding]:
    if {"delete", "rm", "rmi", "prune", "destroy", "uninstall"}.intersection(argv[1:]):
        return [Finding("high", True, f"{argv[0]} destroys resources")]
    return [Finding("medium", False, "controls containers or infrastructure")]


def _git(argv: tuple[str, ...], piped: bool) -> list[Finding]:
    found = git_rules.git_finding(argv)
    return [] if found is None else [Finding(*found)]


_RULES: dict[str, Rule] = {
    "rm": _rm,
    "unlink": lambda argv, piped: [Finding("medium", True, "deletes a file")],
    "truncate": lambda argv, piped: [Finding("medium", True, "truncates files")],
    **dict.fromkeys(("chmod", "chown", "chgrp"), _ownership),
    "find": _find,
    "sed": _sed,
    "rsync": _rsync,
    **dict.fromkeys(("nc", "ncat", "netcat"), _netcat),
    **dict.fromkeys(SHELLS, _shell),
    **dict.fromkeys(INTERPRETERS, _interpreter),
    "eval": _eval,
    "crontab": _crontab,
    **dict.fromkeys(("docker", "podman", "kubectl", "helm", "terraform"), _orchestrator),
    "git": _git,
}


def program_findings(name: str, argv: tuple[str, ...], piped: bool) -> list[Finding]:
    """Findings for one simple command whose program is ``name`` (wrappers already stripped).

    Args:
        name: the program's name (see ``command_parse.program_name``).
        argv: the command's words, the program first.
        piped: its standard input comes from a pipe or a process substitution.
    """
    key = "mkfs" if name.startswith("mkfs") else name
    if key not in _RULES and key not in _CONSTANT:
        key = key.rstrip("0123456789.")  # python3.12 -> python, pip3 -> pip
    findings = _writes_sensitive(key, argv)
    if key in _RULES:
        return findings + _RULES[key](argv, piped)
    if key in _CONSTANT:
        return findings + _CONSTANT[key]
    return [*findings, Finding("medium", False, f"unrecognized program {name[:40]!r}")]


def wrapper_findings(wrappers: tuple[str, ...]) -> list[Finding]:
    """Findings for the wrappers stripped from a command (``sudo`` raises it to medium)."""
    return [Finding("medium", False, f"runs as root via {name}") for name in wrappers if name in ("sudo", "doas")]


def redirect_findings(targets: tuple[str, ...]) -> list[Finding]:
    """Findings for output redirections into sensitive places."""
    return [Finding("high", True, f"redirects output into {target}") for target in targets if sensitive_path(target)]


def _fork_bomb(text: str) -> bool:
    """Whether ``text`` defines a shell function that pipes into itself (``:(){ :|:& };:``).

    Only the first few definitions are examined, to keep the cost linear in the text.
    """
    for index, match in enumerate(_FUNCTION.finditer(text)):
        name = re.escape(match.group(1))
        if index >= _MAX_FUNCTIONS or re.search(rf"{name}\s*+\|\s*+{name}", text[match.end() :]):
            return True
    return False


def text_findings(text: str, *, parse_error: bool) -> list[Finding]:
    """Findings about a command line as a whole: fork bombs, text a shell reads differently."""
    findings = []
    if _fork_bomb(text):
        findings.append(Finding("high", True, "fork bomb"))
    if parse_error:
        findings.append(Finding("medium", False, "unbalanced quotes: a shell may read it differently"))
    return findings
