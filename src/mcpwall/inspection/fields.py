"""Model-visible fields: every string a definition shows the model, with its JSON path.

``visible_strings(kind, obj)`` walks one definition of a given kind — ``tool``, ``prompt``,
``resource``, ``resource_template`` or ``instructions`` — and yields ``(path, text)`` pairs:
names, titles, descriptions, every string anywhere in ``inputSchema`` / ``outputSchema``
(property names included: they reach the model as much as descriptions do), annotations,
prompt arguments, resource URIs and MIME types.
"""

from __future__ import annotations

from collections.abc import Iterator

KINDS = frozenset({"tool", "prompt", "resource", "resource_template", "instructions"})
SCHEMAS = ("inputSchema", "outputSchema")
NAME_KEYS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
TOP_KEYS: dict[str, tuple[str, ...]] = {
    "tool": ("name", "title", "description"),
    "prompt": ("name", "title", "description"),
    "resource": ("name", "title", "description", "uri", "mimeType"),
    "resource_template": ("name", "title", "description", "uriTemplate", "mimeType"),
}
NESTED_KEYS: dict[str, tuple[str, ...]] = {
    "tool": ("inputSchema", "outputSchema", "annotations"),
    "prompt": ("arguments",),
    "resource": ("annotations",),
    "resource_template": ("annotations",),
}


def schema_keyword(path: str) -> bool:
    """Whether a string is a JSON Schema ``type`` keyword's value (``string``, ``object``...), not
    a property named ``type``: the rules read it like any string; the learned model leaves it out,
    since how many parameters of each type a definition has is no sign of poisoning (trained on
    it, the model weighed the type words of hand-written attacks against real servers' ones)."""
    if not path.endswith(".type") or not path.startswith(SCHEMAS):  # most strings: one test each
        return False
    parent = path[: -len(".type")]
    return parent.rpartition(".")[2] not in NAME_KEYS


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def walk_strings(value: object, path: str) -> Iterator[tuple[str, str]]:
    """Every string inside a JSON value, dict keys under schema-name keys included.

    Args:
        value: a decoded JSON value.
        path: the JSON path of ``value``.
    """
    found: list[tuple[str, str]] = []
    _collect(value, path, found)
    return iter(found)


def _collect(value: object, path: str, found: list[tuple[str, str]]) -> None:
    """Append the strings of ``value`` in document order (a list, not nested generators: faster)."""
    if isinstance(value, str):
        found.append((path, value))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _collect(item, f"{path}[{index}]", found)
    elif isinstance(value, dict):
        names_here = path.rsplit(".", 1)[-1] in NAME_KEYS
        for key, item in value.items():
            child = _join(path, str(key))
            if names_here:
                found.append((child, str(key)))
            _collect(item, child, found)


def visible_parts(kind: str, obj: object) -> Iterator[tuple[str, object]]:
    """The top-level values of one definition that the model sees, with their JSON paths.

    Walking each part with :func:`walk_strings` gives :func:`visible_strings`, in order.

    Args:
        kind: ``tool``, ``prompt``, ``resource``, ``resource_template`` or ``instructions``.
        obj: the definition as decoded JSON (a plain string for ``instructions``).

    Raises:
        ValueError: unknown kind.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown definition kind {kind!r}")
    if kind == "instructions":
        yield "instructions", obj
        return
    if not isinstance(obj, dict):
        yield "", obj
        return
    for key in TOP_KEYS[kind]:
        if obj.get(key) is not None:  # a list or object where a string belongs is walked, not skipped
            yield key, obj[key]
    for key in NESTED_KEYS[kind]:
        if key in obj:
            yield key, obj[key]


def visible_strings(kind: str, obj: object) -> Iterator[tuple[str, str]]:
    """The model-visible strings of one definition.

    Args:
        kind: ``tool``, ``prompt``, ``resource``, ``resource_template`` or ``instructions``.
        obj: the definition as decoded JSON (a plain string for ``instructions``).

    Raises:
        ValueError: unknown kind.
    """
    for path, value in visible_parts(kind, obj):
        yield from walk_strings(value, path)
