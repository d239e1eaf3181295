"""Rules for git: the one program with enough ways to destroy history to need its own module.

Global options (``-C dir``, ``-c key=value``, ``--git-dir=…``) are skipped to find the
subcommand, so ``git -C repo push -f`` is still a force push.
"""

from __future__ import annotations

from typing import Literal

from mcpwall.gatekeeper.command_parse import short_flags, skip_options

GitFinding = tuple[Literal["medium", "high"], bool, str]
"""Risk, irreversible, reason: the fields of ``command_rules.Finding``, which imports this."""

_GLOBAL_OPTIONS_WITH_VALUE = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"})
_READ_ONLY = frozenset(
    [
        "status",
        "log",
        "diff",
        "show",
        "blame",
        "describe",
        "grep",
        "shortlog",
        "rev-parse",
        "ls-files",
        "ls-tree",
        "cat-file",
        "show-ref",
        "whatchanged",
        "version",
        "help",
    ]
)
_NETWORK = frozenset({"fetch", "pull", "clone", "push", "ls-remote", "submodule"})


def _force_push(args: tuple[str, ...]) -> bool:
    """Whether a push rewrites or deletes remote history."""
    long_forms = ("--force", "--force-with-lease", "--mirror", "--delete", "--prune")
    refspecs = [arg for arg in args if not arg.startswith("-")][1:]
    return (
        any(arg.startswith(long_forms) for arg in args)
        or bool(short_flags(args) & {"f", "d"})
        or any(spec.startswith(("+", ":")) for spec in refspecs)
    )


def _destroys_history(sub: str, args: tuple[str, ...]) -> str | None:
    """Why ``git sub args`` cannot be undone, or None."""
    if sub == "push" and _force_push(args):
        return "git push --force rewrites or deletes remote history"
    if sub == "reset" and "--hard" in args:
        return "git reset --hard discards uncommitted work"
    if sub == "clean" and ("--force" in args or "f" in short_flags(args)):
        return "git clean -f deletes untracked files"
    if sub in ("filter-branch", "filter-repo") or (sub == "reflog" and "expire" in args):
        return f"git {sub} rewrites history"
    if sub == "gc" and any(arg.startswith("--prune") for arg in args):
        return "git gc --prune drops unreachable commits"
    return None


def git_finding(argv: tuple[str, ...]) -> GitFinding | None:
    """What a git command line risks; None when it only reads.

    Args:
        argv: ``("git", …)`` with wrappers already stripped.
    """
    index = skip_options(argv, 1, _GLOBAL_OPTIONS_WITH_VALUE)
    if index >= len(argv):
        return None
    sub, args = argv[index], argv[index + 1 :]
    why = _destroys_history(sub, args)
    if why is not None:
        return ("high", True, why)
    if sub in _READ_ONLY:
        return None
    if sub in _NETWORK:
        return ("medium", False, f"git {sub} reaches the network")
    return ("medium", False, f"git {sub} changes the repository")
