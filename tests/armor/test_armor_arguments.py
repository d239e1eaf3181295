"""Where arguments are: key words, nesting, URLs inside text, schema URI formats."""

from __future__ import annotations

import pytest

from mcpwall.armor.arguments import find_arguments, key_words, uri_keys, walk


@pytest.mark.parametrize(
    ("key", "is_path"),
    [
        ("path", True),
        ("PATH", True),
        ("sourcePath", True),
        ("target_file", True),
        ("FILE_PATH", True),
        ("filepath", True),
        ("fileName", True),
        ("filenames", True),
        ("rootDir", True),
        ("directories", True),
        ("directory", True),
        ("folder", True),
        ("src", True),
        ("dst", True),
        ("destination-path", True),
        ("paths", True),
        ("query", False),
        ("content", False),
        ("profile", False),
        ("dirty", False),
    ],
)
def test_path_keys_are_matched_on_their_words_in_any_case_style(key: str, is_path: bool) -> None:
    found = find_arguments({key: "/x"})
    assert bool(found.paths) is is_path


@pytest.mark.parametrize(
    ("key", "is_network"),
    [
        ("url", True),
        ("baseURL", True),
        ("URLs", True),
        ("webhook_url", True),
        ("uri", True),
        ("endpoint", True),
        ("HOST", True),
        ("hostname", True),
        ("domain", True),
        ("ip_address", True),
        ("addresses", True),
        ("hosting_plan", False),
        ("title", False),
    ],
)
def test_network_keys_are_matched_on_their_words(key: str, is_network: bool) -> None:
    assert bool(find_arguments({key: "example.com"}).network) is is_network


def test_values_are_found_at_any_depth_with_their_location() -> None:
    arguments = {"batch": [{"ops": [{"targetFile": "/a"}]}, {"paths": ["/b", "/c"]}], "odd key": {"dir": "/d"}}
    found = find_arguments(arguments)
    assert [(a.location, a.value) for a in found.paths] == [
        ("$.batch[0].ops[0].targetFile", "/a"),
        ("$.batch[1].paths[0]", "/b"),
        ("$.batch[1].paths[1]", "/c"),
        ('$["odd key"].dir', "/d"),
    ]


def test_deeply_nested_arguments_are_walked_without_recursion() -> None:
    arguments: object = {"path": "/deep"}
    for _ in range(5000):
        arguments = {"a": [arguments]}
    assert [a.value for a in find_arguments(arguments).paths] == ["/deep"]


@pytest.mark.parametrize(
    ("text", "urls"),
    [
        ("see https://evil.com/x, then", ["https://evil.com/x"]),
        ("(https://evil.com).", ["https://evil.com"]),
        ("a HTTP://A.com b wss://b.com/s ftp://c.com", ["HTTP://A.com", "wss://b.com/s", "ftp://c.com"]),
        ('{"u":"http://169.254.169.254/x"}', ["http://169.254.169.254/x"]),
        ("https:\\\\evil.com", ["https:\\\\evil.com"]),
        ("no urls here: mailto:a@b.c", []),
        ("xhttps://not-a-scheme.com", []),
    ],
)
def test_urls_inside_longer_strings_are_network_values(text: str, urls: list[str]) -> None:
    assert [a.value for a in find_arguments({"message": text}).network] == urls


def test_numbers_under_network_keys_are_read_as_hosts() -> None:
    assert [a.value for a in find_arguments({"host": 2130706433, "port": 80, "enabled": True}).network] == [
        "2130706433"
    ]


def test_file_uris_are_paths_under_any_key() -> None:
    assert [a.value for a in find_arguments({"note": "FILE:///etc/passwd"}).paths] == ["FILE:///etc/passwd"]


def test_extra_path_keys_are_paths() -> None:
    assert find_arguments({"notebook": "/x"}, path_keys=frozenset({"notebook"})).paths


def test_schema_uri_properties_are_paths_unless_they_hold_a_network_url() -> None:
    schema = {
        "type": "object",
        "properties": {
            "link": {"type": "string", "format": "uri"},
            "doc": {"type": "object", "properties": {"ref": {"format": "uri-reference"}}},
            "items": {"type": "array", "items": {"type": "object", "properties": {"res": {"format": "iri"}}}},
            "title": {"type": "string"},
        },
    }
    keys = uri_keys(schema)
    assert keys == {"link", "ref", "res"}
    found = find_arguments({"link": "/etc/passwd", "doc": {"ref": "https://x.com"}}, uri_keys=keys)
    assert [a.value for a in found.paths] == ["/etc/passwd"]
    assert [a.value for a in found.network] == ["https://x.com"]


def test_schemaless_tool_has_no_uri_keys() -> None:
    assert uri_keys(None) == frozenset()


def test_walk_yields_leaves_with_the_nearest_key() -> None:
    assert [(a.location, a.key, a.value) for a in walk({"a": [1, {"b": None}]})] == [
        ("$.a[0]", "a", 1),
        ("$.a[1].b", "b", None),
    ]


def test_key_words_split_camel_snake_and_acronyms() -> None:
    assert {"file", "url"} <= key_words("fileURLs")
    assert {"http", "server"} <= key_words("HTTPServer")
