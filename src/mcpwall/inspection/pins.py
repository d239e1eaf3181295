"""Pinning primitives: canonical bytes, definition hashes, field-level diffs, server identity.

Pins cover the whole model-visible definition (name, title, description, both schemas and the
annotations), never the description alone: a rug pull can add a parameter or flip
``destructiveHint``. Hashes are SHA-256 over canonical JSON (sorted keys at every depth, no
insignificant whitespace, UTF-8 kept as is — RFC 8785 style), so equal definitions pin equal
whatever their key order or formatting on the wire.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Literal

import orjson

PINNED_KEYS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations")
RUNNERS = frozenset({"npx", "bunx", "pnpx", "uvx", "pipx", "deno", "node", "bun"})
CONTAINER_RUNNERS = frozenset({"docker", "podman"})
CONTAINER_VALUE_FLAGS = frozenset(
    {
        "-e",
        "--env",
        "-v",
        "--volume",
        "--name",
        "-p",
        "--publish",
        "--mount",
        "-w",
        "--workdir",
        "--network",
        "--env-file",
        "-u",
        "--user",
    }
)
SCRIPT_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts", ".sh", ".exe", ".jar")
VERSION_RE = re.compile(r"(?<=.)@[^/@]{1,64}$")
SHORT_HASH = 12

ChangeKind = Literal["added", "removed", "changed"]


@dataclass(frozen=True, slots=True)
class FieldChange:
    """One difference between two definitions.

    Attributes:
        path: JSON path of the field, e.g. ``inputSchema.properties.x``.
        kind: ``added``, ``removed`` or ``changed``.
        before: the old value (None when added).
        after: the new value (None when removed).
    """

    path: str
    kind: ChangeKind
    before: Any = None
    after: Any = None


def canonical_json(obj: Any) -> bytes:
    """Canonical JSON bytes: keys sorted at every depth, compact, non-ASCII kept as UTF-8.

    Args:
        obj: a JSON-compatible value.

    Raises:
        TypeError: the value is not JSON-serializable (orjson.JSONEncodeError is a TypeError).
    """
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)


def pinned_view(tool: dict[str, Any]) -> dict[str, Any]:
    """The part of a tool definition a pin covers (missing keys omitted)."""
    return {key: tool[key] for key in PINNED_KEYS if key in tool}


def definition_hash(tool: dict[str, Any]) -> str:
    """SHA-256 hex of the canonical model-visible definition of a tool."""
    return hashlib.sha256(canonical_json(pinned_view(tool))).hexdigest()


def instructions_hash(text: str | None) -> str:
    """SHA-256 hex of server instructions (None and empty hash alike)."""
    return hashlib.sha256((text or "").encode("utf-8")).hexdigest()


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _diff(path: str, old: Any, new: Any, out: list[FieldChange]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(old.keys() | new.keys()):
            child = _join(path, str(key))
            if key not in new:
                out.append(FieldChange(child, "removed", old[key], None))
            elif key not in old:
                out.append(FieldChange(child, "added", None, new[key]))
            else:
                _diff(child, old[key], new[key], out)
    elif canonical_json(old) != canonical_json(new):
        out.append(FieldChange(path, "changed", old, new))


def diff_definitions(old: dict[str, Any], new: dict[str, Any]) -> list[FieldChange]:
    """Field-level changes between two tool definitions, over the pinned keys only.

    Objects are compared key by key; lists and scalars are compared whole.

    Args:
        old: the approved definition.
        new: the definition now listed.
    """
    changes: list[FieldChange] = []
    _diff("", pinned_view(old), pinned_view(new), changes)
    return changes


def _package_name(arg: str) -> str:
    name = VERSION_RE.sub("", arg)
    return name.rsplit("/", 1)[-1]


def _after_runner(args: list[str]) -> str | None:
    rest = [a for a in args if not a.startswith("-")]
    if args[:1] == ["-m"] or "-m" in args:
        index = args.index("-m")
        return args[index + 1] if index + 1 < len(args) else None
    return _package_name(rest[0]) if rest else None


def _container_image(args: list[str]) -> str | None:
    skip = False
    for arg in args[1:] if args[:1] == ["run"] else args:
        if skip:
            skip = False
        elif arg in CONTAINER_VALUE_FLAGS:
            skip = True
        elif not arg.startswith("-"):
            return arg.rsplit("/", 1)[-1].split(":", 1)[0].split("@", 1)[0] or None
    return None


def _derived(command: list[str]) -> str | None:
    program = PurePath(command[0]).name.lower()
    program = program.removesuffix(".exe").removesuffix(".cmd")
    args = command[1:]
    if program in CONTAINER_RUNNERS:
        return _container_image(args)
    if program in RUNNERS or re.fullmatch(r"python(?:\d(?:\.\d{1,2})?)?", program):
        found = _after_runner(args)
        if found:
            return PurePath(found).stem if found.endswith(SCRIPT_SUFFIXES) else found
    for arg in reversed(command):
        if arg.endswith(SCRIPT_SUFFIXES) or "/" in arg or "\\" in arg:
            return PurePath(arg.replace("\\", "/")).stem or None
    return None


def server_identity(command: list[str], name: str | None) -> str:
    """A stable identity for a server: its configured name, else one derived from its command.

    ``npx @scope/server-x …`` → ``server-x``, ``npx -y pkg@1.2`` → ``pkg``,
    ``python -m mcp_server_y`` → ``mcp_server_y``, ``uvx mcp-server-z`` → ``mcp-server-z``, a
    path to a script or binary → its stem, anything else → ``cmd-`` + a short SHA-256 of the
    command line.

    Args:
        command: the argv that starts the server.
        name: the name given in the configuration, if any.
    """
    if name:
        return name
    derived = _derived(command) if command else None
    if derived:
        return derived
    digest = hashlib.sha256(canonical_json(command)).hexdigest()[:SHORT_HASH]
    return f"cmd-{digest}"
