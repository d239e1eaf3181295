"""Path arguments: no traversal, and the real path inside an allowed root.

A path value is read in every form a server might read it in, and each form must pass:

1. the value as sent; a ``file://`` URI (``file:///x``, ``file://localhost/x``, ``file:/x``) is
   reduced to its path, and a URI naming a remote host is refused;
2. percent-decoded, repeatedly (``%252e`` → ``%2e`` → ``.``), up to four rounds;
3. Unicode NFKC-normalized (fullwidth ``\uff0e\uff0e\uff0f`` → ``../``);
4. with backslashes read as separators.

Checks, in order:

- a ``..`` component in any form → ``PathTraversalAttempt`` (before anything else: a value that
  tries to climb is refused even when it would land inside a root);
- a NUL or control character in any form, or undecodable percent-encoding →
  ``PathTraversalAttempt``;
- every form, ``~``-expanded, made absolute against the base directory (``path_base``, default
  the first root) and resolved with ``os.path.realpath`` (symlinks followed for the existing
  part, including dangling links, and the missing tail appended) must equal a root or lie
  below it as a path-component prefix (``/data`` admits ``/data`` and ``/data/x``, never
  ``/data-secret/x``) → else ``PathOutsideBoundary``.

Roots are resolved to real paths once, when first used. POSIX semantics; case-sensitive.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import unquote

from mcpwall.armor.violations import Violation, ViolationType, violation

_MAX_DECODE_ROUNDS = 4
_FILE_URI = re.compile(r"file:(?://([^/?#]*))?([^?#]*)", re.IGNORECASE | re.DOTALL)
_SEPARATORS = re.compile(r"[/\\]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_LOCAL_FILE_HOSTS = frozenset({"", "localhost"})


@dataclass(frozen=True, slots=True)
class PathRoots:
    """Allowed roots as real paths, and the base for relative paths."""

    roots: tuple[str, ...]
    base: str | None


@lru_cache(maxsize=256)
def compile_roots(roots: tuple[str, ...], base: str | None = None) -> PathRoots:
    """Resolve roots to real paths (symlinks followed) once.

    Args:
        roots: allowed roots, absolute or ``~``-prefixed.
        base: directory for relative paths; default the first root.

    Returns:
        The compiled roots.
    """
    real = tuple(os.path.realpath(os.path.expanduser(root)) for root in roots)
    if base is None and roots:
        base = roots[0]
    return PathRoots(real, os.path.expanduser(base) if base is not None else None)


def check_path(value: str, roots: Sequence[str] | PathRoots, base: str | None = None) -> Violation | None:
    """Check one path argument against the allowed roots.

    Args:
        value: the path as sent (plain path or ``file://`` URI).
        roots: allowed roots, or roots compiled by :func:`compile_roots`.
        base: directory for relative paths when ``roots`` is not compiled.

    Returns:
        A ``PathTraversalAttempt`` or ``PathOutsideBoundary`` violation, or None.
    """
    policy = roots if isinstance(roots, PathRoots) else compile_roots(tuple(roots), base)
    uri = _FILE_URI.match(value)
    forms, problem = _forms(uri.group(2) if uri is not None else value)
    problem = problem or _traversal_problem(forms)
    if problem is not None:
        return violation(ViolationType.PATH_TRAVERSAL_ATTEMPT, f"path {value!r}: {problem}", path=value)
    host = uri.group(1) if uri is not None else None
    if host is not None and host.lower() not in _LOCAL_FILE_HOSTS:
        reason = f"path {value!r}: file URI names remote host {host!r}"
        return violation(ViolationType.PATH_OUTSIDE_BOUNDARY, reason, path=value)
    return _boundary_violation(value, forms, policy)


def _forms(value: str) -> tuple[list[str], str | None]:
    """Every reading of ``value``, or a reason it cannot be read unambiguously."""
    forms = [value]
    for _ in range(_MAX_DECODE_ROUNDS):
        if "%" not in forms[-1]:
            break
        try:
            decoded = unquote(forms[-1], errors="strict")
        except UnicodeDecodeError:
            return [], "undecodable percent-encoding"
        if decoded == forms[-1]:
            break
        forms.append(decoded)
    else:
        if "%" in forms[-1] and unquote(forms[-1]) != forms[-1]:
            return [], "percent-encoded more than four times"
    forms += [normal for form in forms if (normal := _nfkc(form)) != form]
    return forms, None


def _nfkc(form: str) -> str:
    return form if form.isascii() else unicodedata.normalize("NFKC", form)


def _traversal_problem(forms: list[str]) -> str | None:
    for form in forms:
        if ".." in form and ".." in _SEPARATORS.split(form):
            return "'..' component"
    for form in forms:
        if _CONTROL.search(form):
            return "NUL or control character"
    return None


def _boundary_violation(value: str, forms: list[str], policy: PathRoots) -> Violation | None:
    if not policy.roots:
        return violation(ViolationType.PATH_OUTSIDE_BOUNDARY, f"path {value!r}: no path is allowed", path=value)
    candidates = dict.fromkeys(forms + [form.replace("\\", "/") for form in forms if "\\" in form])
    for form in candidates:
        real = _resolve(form, policy.base)
        if not _inside(real, policy.roots):
            reason = f"path {value!r} resolves to {real!r}, outside {list(policy.roots)}"
            return violation(
                ViolationType.PATH_OUTSIDE_BOUNDARY, reason, path=value, resolved=real, roots=list(policy.roots)
            )
    return None


def _resolve(form: str, base: str | None) -> str:
    path = os.path.expanduser(form) if form.startswith("~") else form
    if not os.path.isabs(path):
        path = os.path.join(base or os.sep, path)
    return os.path.realpath(path)


def _inside(real: str, roots: tuple[str, ...]) -> bool:
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)
