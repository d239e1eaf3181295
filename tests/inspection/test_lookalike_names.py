"""Look-alike names between servers (`collisions.lookalikes`): which name is the copy, and what
is not a look-alike. The gateway path is in tests/integration/test_name_collisions.py."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from mcpwall.collisions import Imitation, lookalikes
from mcpwall.inspection.naming import name_skeleton, odd_letters

SERVERS = Path(__file__).resolve().parents[2].parent / "shared" / "servers"


@pytest.mark.parametrize(
    ("copy", "real"),
    [
        ("read_fiIe", "read_file"),
        ("read_fi1e", "read_file"),
        ("r\u0435ad_file", "read_file"),
        ("l\u03bfgin", "login"),
        ("send_rnessage", "send_message"),
        ("Iist_files", "list_files"),
    ],
)
def test_look_alike_letters_share_a_skeleton(copy: str, real: str) -> None:
    assert name_skeleton(copy) == name_skeleton(real)


@pytest.mark.parametrize(("one", "other"), [("read_file", "read_files"), ("get_id", "get_ld"), ("tool_v1", "tool_v2")])
def test_different_letters_do_not(one: str, other: str) -> None:
    assert name_skeleton(one) != name_skeleton(other)


def test_stand_in_letters_are_counted_inside_words_only() -> None:
    assert [odd_letters(n) for n in ("read_n0te", "r\u0435ad_file", "read_file", "tool_v1", "i18n", "getId")] == [
        1,
        1,
        0,
        0,
        0,
        0,
    ]


def test_the_name_with_stand_in_letters_is_the_copy_whichever_was_listed_first() -> None:
    listers = [("read_n0te", "mimic", 1.0), ("read_note", "notes", 2.0)]
    assert lookalikes(["read_note"], "notes", listers) == {}
    assert lookalikes(["read_n0te"], "mimic", listers) == {"read_n0te": Imitation(["read_note"], ["notes"])}


def test_without_stand_in_letters_the_later_listed_name_is_the_copy() -> None:
    listers = [
        ("turn_on", "lights", 1.0),
        ("tum_on", "mimic", 2.0),
        ("deIete_note", "mimic", 2.0),
        ("delete_note", "notes", 3.0),
    ]
    assert lookalikes(["tum_on", "deIete_note"], "mimic", listers) == {"tum_on": Imitation(["turn_on"], ["lights"])}
    assert lookalikes(["turn_on"], "lights", listers) == {}
    assert lookalikes(["delete_note"], "notes", listers) == {"delete_note": Imitation(["deIete_note"], ["mimic"])}


def test_a_new_server_is_later_than_every_listed_one() -> None:
    listers = [("read_file", "files", 1.0), ("read_fiIe", "other", 2.0)]
    assert lookalikes(["read_fiIe", "read_file"], "newcomer", listers) == {
        "read_fiIe": Imitation(["read_file"], ["files"]),
        "read_file": Imitation(["read_fiIe"], ["other"]),
    }


def test_case_and_separator_variants_and_own_names_are_not_look_alikes() -> None:
    listers = [("read_file", "files", 1.0), ("Read-File", "other", 2.0), ("read_fiIe", "mimic", 3.0)]
    assert lookalikes(["Read-File"], "other", listers) == {}
    assert lookalikes(["read_fiIe"], "files", [("read_fiIe", "files", 0.5), ("read_file", "files", 1.0)]) == {}


def test_no_two_tools_of_the_real_servers_are_look_alikes() -> None:
    listers = []
    for path in sorted(SERVERS.glob("*.json")):
        tools = orjson.loads(path.read_bytes()).get("tools") or []
        listers += [(tool["name"], path.stem, 1.0) for tool in tools]
    assert len({server for _, server, _ in listers}) == 13
    for server in {server for _, server, _ in listers}:
        names = [tool for tool, lister, _ in listers if lister == server]
        assert lookalikes(names, server, listers) == {}
