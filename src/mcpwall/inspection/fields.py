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


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def walk_strings(value: object, path: str) -> Iterator[tuple[str, str]]:
    """Every string inside a JSON value, dict keys under schema-name keys included.

    Args:
        value: a decoded JSON value.
        path: the JSON path of ``value``.
    """
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk_strings(item, f"{path}[{index}]")
    elif isinstance(value, dict):
        names_here = path.rsplit(".", 1)[-1] in NAME_KEYS
        for key, item in value.items():
            child = _join(path, str(key))
            if names_here:
                yield child, str(key)
            yield from walk_strings(item, child)


def visible_strings(kind: str, obj: object) -> Iterator[tuple[str, str]]:
    """The model-visible strings of one definition.

    Args:
        kind: ``tool``, ``prompt``, ``resource``, ``resource_template`` or ``instructions``.
        obj: the definition as decoded JSON (a plain string for ``instructions``).

    Raises:
        ValueError: unknown kind.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown definition kind {kind!r}")
    if kind == "instructions":
        yield from walk_strings(obj, "instructions")
        return
    if not isinstance(obj, dict):
        yield from walk_strings(obj, "")
        return
    for key in TOP_KEYS[kind]:
        if isinstance(obj.get(key), str):
            yield key, obj[key]
    for key in NESTED_KEYS[kind]:
        if key in obj:
            yield from walk_strings(obj[key], key)
