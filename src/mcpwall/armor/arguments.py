"""Where the paths, URLs and hosts are in a tool call's arguments.

Every value at any depth (objects and arrays; array items inherit their parent's key) is a
leaf :class:`Argument` with a JSON location (``$.files[0].path``). A key is read as words:
camelCase, snake_case, kebab-case and SCREAMING_CASE are split and lower-cased, and a plural
``s``/``es``/``ies`` is made singular (``sourcePaths`` → ``source``, ``path``). A leaf is:

- a **path** when its key has a path word (:data:`PATH_WORDS`), when it is one of the tool's
  configured ``path_keys``, when the value is a ``file:`` URI, or when its key is a property the
  input schema declares ``format: uri``/``uri-reference``/``iri``/``iri-reference`` and the value
  is not a URL with another scheme (a fetch tool's ``url`` is not a path);
- a **network** value when its key has a network word (:data:`NETWORK_WORDS`; numbers count:
  ``host: 2130706433``), and for every other string, each ``http(s)``, ``ws(s)`` or ``ftp(s)``
  URL found inside it (trailing sentence punctuation trimmed).

Key words are matched generously on purpose: ``root_cause: "x"`` is read as a relative path,
which resolves inside the base root and passes; only ``allowed_paths: []`` refuses it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

import orjson

PATH_WORDS = frozenset(
    {"path", "file", "filepath", "filename", "directory", "dir", "folder", "root"}
    | {"source", "destination", "src", "dst", "target"}
)
"""Key words that mark a path argument."""

NETWORK_WORDS = frozenset({"url", "uri", "endpoint", "host", "hostname", "domain", "address"})
"""Key words that mark a URL or host argument."""

URI_FORMATS = frozenset({"uri", "uri-reference", "iri", "iri-reference"})
"""JSON-schema formats that make a property a path unless its value is a network URL."""

_WORD = re.compile(r"[A-Z]+s(?![a-z])|[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_TEXT_URL = re.compile(r"(?<![a-z0-9+.-])(?:https?|wss?|ftps?):[/\\]+[^\s\"'<>`]+", re.IGNORECASE)
_OTHER_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*:[/\\]", re.IGNORECASE)
_TRAILING_PUNCTUATION = ".,;:!?)}'"


@dataclass(frozen=True, slots=True)
class Argument:
    """One leaf value: where it is, the nearest object key above it, and the value."""

    location: str
    key: str | None
    value: object


@dataclass(slots=True)
class FoundArguments:
    """The string values a check must look at, by kind."""

    paths: list[Argument] = field(default_factory=list)
    network: list[Argument] = field(default_factory=list)


def walk(value: object, location: str = "$", key: str | None = None) -> Iterator[Argument]:
    """Yield every leaf value at any depth, without recursion (deep nesting is safe).

    Args:
        value: the arguments object (or any JSON value).
        location: JSON location of ``value``.
        key: the object key ``value`` sits under, if any.

    Yields:
        Leaves in document order.
    """
    stack: list[tuple[str, str | None, object]] = [(location, key, value)]
    while stack:
        where, name, node = stack.pop()
        if isinstance(node, Mapping):
            children = [(child_location(where, str(k)), str(k), v) for k, v in node.items()]
            stack.extend(reversed(children))
        elif isinstance(node, list | tuple):
            stack.extend(reversed([(f"{where}[{i}]", name, v) for i, v in enumerate(node)]))
        else:
            yield Argument(where, name, node)


def child_location(location: str, key: str) -> str:
    """The JSON location of ``key`` under ``location`` (``$.a`` or ``$["a b"]``).

    Args:
        location: the parent's location.
        key: the child's key.

    Returns:
        The child's location.
    """
    return f"{location}.{key}" if key.isidentifier() else f"{location}[{orjson.dumps(key).decode()}]"


@lru_cache(maxsize=4096)
def key_words(key: str) -> frozenset[str]:
    """The lower-case, singular words of a key (``FILE_PATH`` → ``{"file", "path"}``).

    Args:
        key: an argument key.

    Returns:
        Its words, plus the whole key lower-cased with separators removed.
    """
    words = {word.lower() for word in _WORD.findall(key)}
    words.add(re.sub(r"[^a-z0-9]", "", key.lower()))
    return frozenset(_singular(word) for word in words)


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("sses") or word.endswith("ses"):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def find_arguments(
    arguments: object, path_keys: frozenset[str] = frozenset(), uri_keys: frozenset[str] = frozenset()
) -> FoundArguments:
    """Sort the leaves of a call's arguments into path and network values.

    Args:
        arguments: the call's ``arguments`` object.
        path_keys: extra exact keys that hold paths for this tool.
        uri_keys: property names the input schema declares with a URI format.

    Returns:
        The path and network values, each with its location.
    """
    found = FoundArguments()
    for leaf in walk(arguments):
        words = key_words(leaf.key) if leaf.key is not None else frozenset()
        network_key = not words.isdisjoint(NETWORK_WORDS)
        if isinstance(leaf.value, str):
            if _is_path(leaf.key, leaf.value, words, path_keys, uri_keys):
                found.paths.append(leaf)
            _add_network(found, leaf, leaf.value, network_key)
        elif network_key and isinstance(leaf.value, int | float) and not isinstance(leaf.value, bool):
            found.network.append(Argument(leaf.location, leaf.key, str(leaf.value)))
    return found


def _is_path(
    key: str | None, value: str, words: frozenset[str], path_keys: frozenset[str], uri_keys: frozenset[str]
) -> bool:
    if value[:5].lower() == "file:" or not words.isdisjoint(PATH_WORDS) or key in path_keys:
        return True
    return key in uri_keys and not _OTHER_SCHEME.match(value)


def _add_network(found: FoundArguments, leaf: Argument, value: str, network_key: bool) -> None:
    if network_key:
        found.network.append(leaf)
    elif ":/" in value or ":\\" in value:
        for match in _TEXT_URL.finditer(value):
            url = match.group().rstrip(_TRAILING_PUNCTUATION)
            found.network.append(Argument(leaf.location, leaf.key, url))


def uri_keys(input_schema: Mapping[str, object] | None) -> frozenset[str]:
    """Property names (at any depth) that an input schema declares with a URI format.

    Args:
        input_schema: the tool's ``inputSchema``, or None.

    Returns:
        The property names.
    """
    names: set[str] = set()
    stack: list[object] = [input_schema]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            properties = node.get("properties")
            if isinstance(properties, Mapping):
                names.update(str(name) for name, sub in properties.items() if _has_uri_format(sub))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return frozenset(names)


def _has_uri_format(schema: object) -> bool:
    return isinstance(schema, Mapping) and schema.get("format") in URI_FORMATS
