"""The configuration schema's descriptions come from the settings' attribute docstrings."""

from __future__ import annotations

from pydantic import BaseModel, Field

from mcpwall.config import Config
from mcpwall.config.schema_docs import attribute_docstrings, json_schema, models


class Inner(BaseModel):
    depth: int = 1
    """How deep."""


class Outer(BaseModel):
    inner: Inner = Field(default_factory=Inner)
    """The inner part,
    over two lines."""
    many: list[Inner] | None = None
    named: int = Field(default=0, description="kept as given")
    """not this one"""
    bare: int = 0


def test_docstrings_under_annotated_attributes_are_read() -> None:
    assert attribute_docstrings(Outer) == {
        "inner": "The inner part,\nover two lines.",
        "named": "not this one",
    }


def test_nested_models_are_found_through_containers_and_unions() -> None:
    assert set(models(Outer)) == {Outer, Inner}


def test_every_property_gets_its_description_and_explicit_ones_are_kept() -> None:
    schema = json_schema(Outer)
    assert schema["properties"]["inner"]["description"] == "The inner part,\nover two lines."
    assert schema["properties"]["named"]["description"] == "kept as given"
    assert "description" not in schema["properties"]["bare"]
    assert schema["$defs"]["Inner"]["properties"]["depth"]["description"] == "How deep."


def test_the_config_schema_describes_nested_settings() -> None:
    schema = json_schema(Config)
    described = [
        name
        for definition in [schema, *schema["$defs"].values()]
        for name, prop in definition.get("properties", {}).items()
        if "description" in prop
    ]
    assert len(described) >= 100
    assert "glob" in schema["$defs"]["ToolLists"]["properties"]["allow"]["description"].lower()


def test_every_setting_of_the_configuration_is_documented() -> None:
    undocumented = [
        f"{model.__name__}.{name}"
        for model in models(Config)
        for name, field in model.model_fields.items()
        if not (field.description or name in attribute_docstrings(model))
    ]
    assert undocumented == []
