"""Command rule: base command, subcommand, metacharacters, interpreter wrappers."""

from __future__ import annotations

import pytest

from mcpwall.armor.commands import check_command, command_like_arguments
from mcpwall.armor.settings import ArmorSettings

POLICY = ArmorSettings(commands={"cargo": ["build", "test"], "git": ["status", "log"], "ls": []})


def _type(value: str | list[str], settings: ArmorSettings = POLICY) -> str | None:
    found = check_command(value, settings)
    return found.type if found is not None else None


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cargo test -q", None),
        ("cargo build --release", None),
        ("cargo --locked test", None),
        ("cargo +nightly test", None),
        ("/usr/bin/cargo test", None),
        ("env FOO=1 cargo test", None),
        ("/usr/bin/env -i FOO=1 cargo test", None),
        ("env -u HOME -- cargo test", None),
        ("FOO=1 cargo test", None),
        ("git -C /repo status", None),
        ("ls -la /tmp", None),
        ("ls", None),
        (["cargo", "test", "a b"], None),
        ("cargo publish", "SubcommandNotAllowed"),
        ("cargo --locked publish", "SubcommandNotAllowed"),
        ("cargo -- publish", "SubcommandNotAllowed"),
        ("cargo --color always publish", "SubcommandNotAllowed"),
        ("/usr/bin/env FOO=1 cargo publish", "SubcommandNotAllowed"),
        ("env env -i cargo publish", "SubcommandNotAllowed"),
        ("env -uHOME cargo publish", "SubcommandNotAllowed"),
        ("git -C /repo push", "SubcommandNotAllowed"),
        ("git --bare push", "SubcommandNotAllowed"),
        ("cargo", "SubcommandNotAllowed"),
        ("cargo --version", "SubcommandNotAllowed"),
        (["cargo", "publish"], "SubcommandNotAllowed"),
        ("rm -rf /", "CommandNotAllowed"),
        ("/bin/rm -rf /", "CommandNotAllowed"),
        ("./cargo.sh test", "CommandNotAllowed"),
        ("sudo cargo test", "CommandNotAllowed"),
        ("env", "CommandNotAllowed"),
        ("env FOO=1", "CommandNotAllowed"),
        ("env -S 'cargo publish'", "CommandNotAllowed"),
        ("env --split-string='cargo publish'", "CommandNotAllowed"),
        ("Cargo test", "CommandNotAllowed"),
        ("'unclosed", "CommandNotAllowed"),
    ],
)
def test_base_command_and_subcommand_must_be_listed(command: str | list[str], expected: str | None) -> None:
    assert _type(command) == expected


@pytest.mark.parametrize(
    "command",
    [
        "git status; rm -rf /",
        "git status && rm -rf /",
        "git status || rm -rf /",
        "git status | sh",
        "git status & rm -rf /",
        "git log `rm -rf /`",
        "git log $(rm -rf /)",
        "git log > /etc/passwd",
        "git log < /etc/passwd",
        "git status\nrm -rf /",
        "git status\r\nrm -rf /",
        "git log 'a;b'",
        ["git", "log", "x;rm -rf /"],
        ["git", "log", "$(id)"],
    ],
)
def test_shell_metacharacters_are_refused_unless_allowed(command: str | list[str]) -> None:
    assert _type(command) == "CommandNotAllowed"
    assert _type(command, ArmorSettings(allow_shell_metacharacters=True)) is None


@pytest.mark.parametrize(
    "command",
    [
        "bash -c 'x'",
        "sh -c x",
        "/bin/zsh -c x",
        "bash -lc x",
        "bash --login -c x",
        "dash -ec x",
        "fish --command x",
        "python -c 'import os'",
        "python3 -c x",
        "/usr/bin/python3.12 -Ic x",
        "node -e x",
        "node --eval=x",
        "node -p x",
        "bun -e x",
        "deno eval x",
        "perl -e x",
        "perl -ne x",
        "ruby -e x",
        "php -r x",
        "powershell -Command x",
        "pwsh -c x",
        "powershell.exe -EncodedCommand AAAA",
        "pwsh -enc AAAA",
        "powershell /Command x",
        "cmd /c dir",
        "CMD.EXE /C dir",
        "env FOO=1 bash -c x",
        "timeout 5 sh -c x",
        "xargs sh -c x",
        ["bash", "-c", "x"],
        "git -c core.pager='sh -c x' log",
        "git -ccore.fsmonitor=x status",
        "git --config-env=core.pager=X log",
        "git --exec-path=/tmp/evil log",
        "cargo --config target.x.runner='y' test",
    ],
)
def test_interpreter_wrappers_are_refused_unless_allowed(command: str | list[str]) -> None:
    assert _type(command, ArmorSettings()) == "CommandNotAllowed"
    assert _type(command, ArmorSettings(allow_interpreter_wrappers=True)) is None


@pytest.mark.parametrize(
    "command", ["bash script.sh", "python3 tool.py --verbose", "node server.js", "ssh -c aes128-ctr host", "git log"]
)
def test_interpreters_running_files_and_look_alike_names_are_not_wrappers(command: str) -> None:
    assert _type(command, ArmorSettings()) is None


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git -c color.ui=never log", None),
        ("git -c color.ui=never push", "SubcommandNotAllowed"),
        ("cargo --config net.offline=true test", None),
        ("cargo --config net.offline=true publish", "SubcommandNotAllowed"),
    ],
)
def test_options_taking_a_value_are_skipped_when_looking_for_the_subcommand(command: str, expected: str | None) -> None:
    permissive = POLICY.model_copy(update={"allow_interpreter_wrappers": True})
    assert _type(command, permissive) == expected


def test_no_command_policy_admits_any_base_command() -> None:
    assert _type("anything --goes here", ArmorSettings()) is None


def test_empty_command_line_is_not_a_violation() -> None:
    assert _type("") is None
    assert _type([]) is None


def test_refusal_message_does_not_name_the_allowed_subcommands() -> None:
    found = check_command("cargo publish", POLICY)
    assert found is not None
    assert "build" not in found.message
    assert "publish" in found.reason
    assert found.detail["subcommand"] == "publish"


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"command": "git status"}, ["git status"]),
        ({"cmd": ["git", "status"]}, [["git", "status"]]),
        ({"command": "git", "args": ["log", "a b"]}, ["git log 'a b'"]),
        ({"command": ["git"], "args": ["log"]}, [["git", "log"]]),
        ({"command": "git", "args": "log -1"}, ["git log -1"]),
        ({"argv": ["git", "log"]}, [["git", "log"]]),
        ({"script": "echo hi"}, ["echo hi"]),
        ({"commandLine": "ls"}, ["ls"]),
        ({"SHELL_COMMAND": "ls"}, ["ls"]),
        ({"subcommand": "status"}, []),
        ({"options": {"cmd": "ls"}}, ["ls"]),
        ({"steps": [{"command": "ls"}, {"command": "pwd"}]}, ["ls", "pwd"]),
        ({"args": [1, 2]}, [["1", "2"]]),
        ({"args": {"nested": "object"}}, []),
        ({"path": "/x", "query": "q"}, []),
    ],
)
def test_command_like_arguments_are_found_at_any_depth(arguments: dict[str, object], expected: list[object]) -> None:
    assert sorted(map(str, command_like_arguments(arguments))) == sorted(map(str, expected))
