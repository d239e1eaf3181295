"""The configuration's JSON Schema, with every setting's docstring as its description.

Settings are documented the way the rest of the code is: a docstring under each attribute.
pydantic can read those itself (``use_attribute_docstrings``), but it does so for every model
class at import, parsing source files on every ``mcpwall run`` start (about a quarter of the
configuration's import time) for descriptions only ``mcpwall config schema`` prints. So the
models do not ask for it, and this module adds the descriptions when the schema is printed.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap
import types
from collections.abc import Iterator
from typing import Any, get_args, get_origin

from pydantic import BaseModel


def json_schema(root: type[BaseModel]) -> dict[str, Any]:
    """``root``'s JSON Schema, each property described by its attribute docstring.

    A description pydantic already has (``Field(description=...)``) is kept.
    """
    schema = root.model_json_schema()
    definitions = schema.get("$defs", {})
    for model in models(root):
        target = schema if model is root else definitions.get(model.__name__)
        if isinstance(target, dict):
            _describe(target.get("properties", {}), model)
    return schema


def _describe(properties: dict[str, Any], model: type[BaseModel]) -> None:
    docs = attribute_docstrings(model)
    for name, field in model.model_fields.items():
        described = properties.get(field.alias or name)
        if isinstance(described, dict) and name in docs:
            described.setdefault("description", docs[name])


def models(root: type[BaseModel]) -> Iterator[type[BaseModel]]:
    """``root`` and every model class its fields use, at any depth, each once."""
    seen: set[type[BaseModel]] = set()
    stack = [root]
    while stack:
        model = stack.pop()
        if model in seen:
            continue
        seen.add(model)
        yield model
        for field in model.model_fields.values():
            stack.extend(_models_in(field.annotation))


def _models_in(annotation: Any) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    elif get_origin(annotation) is not None or isinstance(annotation, types.UnionType):
        for argument in get_args(annotation):
            yield from _models_in(argument)


def attribute_docstrings(model: type) -> dict[str, str]:
    """The docstring under each annotated attribute of a class body (its own, not inherited)."""
    try:
        source = textwrap.dedent(inspect.getsource(model))
    except (OSError, TypeError):
        return {}
    body = ast.parse(source).body
    if not body or not isinstance(body[0], ast.ClassDef):
        return {}
    statements = body[0].body
    docs: dict[str, str] = {}
    for statement, following in itertools.pairwise(statements):
        if not (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)):
            continue
        text = (
            following.value.value
            if isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant)
            else None
        )
        if isinstance(text, str):
            docs[statement.target.id] = inspect.cleandoc(text)
    return docs


__all__ = ["attribute_docstrings", "json_schema", "models"]
