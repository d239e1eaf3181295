"""``mcpwall policy explain``: every check's verdict on a hypothetical call, as a real process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml
from operator_cli import OperatorCli

SERVER_CONFIG: dict[str, Any] = {
    "tools": {"deny": ["drop_*"]},
    "armor": {"allowed_domains": ["example.com"]},
    "gatekeeper": {
        "profiles": {
            "builder": {"allow": ["fs/create_*"]},
            "careful": {"deny": ["fs/delete_*"]},
            "read-only": {"deny": ["confirm"]},
        },
        "trusted_annotations": ["notes"],
    },
    "servers": {"fs": {"command": "fs-server"}},
}


def write_config(tmp_path: Path) -> tuple[Path, Path]:
    """The table's config, with ``allowed_paths`` set to a data directory under tmp_path."""
    data = tmp_path / "data"
    data.mkdir()
    config = {**SERVER_CONFIG, "armor": {**SERVER_CONFIG["armor"], "allowed_paths": [str(data)]}}
    path = tmp_path / "mcpwall.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path, data


def explain(cli: OperatorCli, config: Path, *args: str) -> dict[str, Any]:
    done = cli("policy", "explain", "--config", str(config), *args, "--json")
    assert done.returncode == 0, done.stderr
    parsed: dict[str, Any] = orjson.loads(done.stdout)
    return parsed


CASES = [
    pytest.param("fs", "read_file", {"path": "DATA/x.txt"}, [], ("AUTO_APPROVE", "read", []), id="read-auto-approved"),
    pytest.param(
        "fs", "write_file", {"path": "DATA/x.txt"}, [], ("CONFIRM_SINGLE_USE", "update", []), id="write-confirm"
    ),
    pytest.param(
        "fs", "create_directory", {"path": "DATA/d"}, [], ("CONFIRM_SESSION", "create", []), id="create-default"
    ),
    pytest.param(
        "fs",
        "create_directory",
        {"path": "DATA/d"},
        ["builder"],
        ("AUTO_APPROVE", "create", []),
        id="profile-allow-lowers-create",
    ),
    pytest.param("fs", "delete_file", {}, ["careful"], ("DENY", "delete", ["ProfileDenied"]), id="profile-deny"),
    pytest.param(
        "fs",
        "write_file",
        {"path": "DATA/x.txt"},
        ["read-only"],
        ("DENY", "update", ["ReadOnlySession"]),
        id="read-only-denies-confirm",
    ),
    pytest.param(
        "fs",
        "read_file",
        {"path": "DATA/x.txt"},
        ["read-only"],
        ("AUTO_APPROVE", "read", []),
        id="read-only-keeps-reads",
    ),
    pytest.param(
        "fs",
        "read_file",
        {"path": "/etc/passwd"},
        [],
        ("DENY", "read", ["PathOutsideBoundary"]),
        id="path-outside-allowed-paths",
    ),
    pytest.param(
        "web",
        "fetch",
        {"url": "https://evil.example.org/x"},
        [],
        ("DENY", "read", ["DomainNotAllowed"]),
        id="domain-not-allowed",
    ),
    pytest.param(
        "fs",
        "drop_table",
        {"path": "/etc/passwd"},
        [],
        ("DENY", "delete", ["ToolExplicitlyDenied", "PathOutsideBoundary"]),
        id="every-check-runs-after-a-deny",
    ),
]


@pytest.mark.parametrize(("server", "tool", "arguments", "profiles", "expected"), CASES)
def test_explain_reports_the_level_kind_and_violations(
    tmp_path: Path,
    server: str,
    tool: str,
    arguments: dict[str, str],
    profiles: list[str],
    expected: tuple[str, str, list[str]],
) -> None:
    config, data = write_config(tmp_path)
    args = {key: value.replace("DATA", str(data)) for key, value in arguments.items()}
    options = [f"--profile={name}" for name in profiles]

    found = explain(
        OperatorCli(tmp_path),
        config,
        "--server",
        server,
        "--tool",
        tool,
        "--args",
        orjson.dumps(args).decode(),
        *options,
    )

    assert (found["level"], found["kind"], [v["type"] for v in found["violations"]]) == expected
    assert [v["check"] for v in found["verdicts"]] == ["tool-lists", "inspection", "gatekeeper", "armor"]


def test_explain_json_carries_the_gatekeeper_resolution_without_the_classification_object(tmp_path: Path) -> None:
    config, _ = write_config(tmp_path)

    found = explain(OperatorCli(tmp_path), config, "--server", "fs", "--tool", "create_file", "--profile", "builder")

    (gatekeeper,) = [v for v in found["verdicts"] if v["check"] == "gatekeeper"]
    detail = gatekeeper["detail"]
    assert "classification" not in detail
    assert (detail["kind"], detail["kind_source"], detail["default_level"]) == ("create", "name", "CONFIRM_SESSION")
    assert detail["effects"] == [{"profile": "builder", "list": "allow", "pattern": "fs/create_*", "read_only": False}]
    assert detail["decided_by"] == {"profile": "builder", "list": "allow"}
    assert found["decided_by"] == {"check": "gatekeeper", "rule": "gatekeeper.profile.allow"}


def test_explain_lists_every_armor_violation_with_type_and_reason(tmp_path: Path) -> None:
    config, _ = write_config(tmp_path)
    args = orjson.dumps({"path": "/etc/passwd", "url": "https://evil.example.org/"}).decode()

    found = explain(OperatorCli(tmp_path), config, "--server", "fs", "--tool", "read_file", "--args", args)

    types = [(v["check"], v["type"], v["argument"]) for v in found["violations"]]
    assert types == [("armor", "PathOutsideBoundary", "$.path"), ("armor", "DomainNotAllowed", "$.url")]
    assert all(v["reason"] for v in found["violations"])


def test_explain_uses_the_annotations_of_a_given_definition_when_trusted(tmp_path: Path) -> None:
    config, _ = write_config(tmp_path)
    definition = tmp_path / "zap.json"
    definition.write_text('{"name": "zap", "annotations": {"readOnlyHint": true}}', encoding="utf-8")
    cli = OperatorCli(tmp_path)

    unseen = explain(cli, config, "--server", "notes", "--tool", "zap")
    seen = explain(cli, config, "--server", "notes", "--tool", "zap", "--definition", str(definition))

    assert (unseen["level"], unseen["kind"]) == ("CONFIRM_SINGLE_USE", "unknown")
    assert (seen["level"], seen["kind"]) == ("AUTO_APPROVE", "read")


def test_explain_text_walks_every_check_and_says_rate_limits_are_not_simulated(tmp_path: Path) -> None:
    config, _ = write_config(tmp_path)
    args = orjson.dumps({"path": "/etc/passwd"}).decode()

    done = OperatorCli(tmp_path)(
        "policy",
        "explain",
        "--config",
        str(config),
        "--server",
        "fs",
        "--tool",
        "write_file",
        "--args",
        args,
        "--profile",
        "read-only",
    )

    assert done.returncode == 0, done.stderr
    for text in (
        "1. tool-lists: no objection",
        "3. gatekeeper: DENY (gatekeeper.read_only)",
        "kind: update (from name",
        "default level: CONFIRM_SINGLE_USE",
        "read-only session (by read-only)",
        "4. armor: DENY (armor.PathOutsideBoundary)",
        "PathOutsideBoundary: $.path:",
        "rate limits: not simulated",
        "final level: DENY",
    ):
        assert text in done.stdout


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["--profile", "nobody"], id="unknown-profile"),
        pytest.param(["--args", "[1, 2]"], id="arguments-not-an-object"),
        pytest.param(["--args", "{"], id="arguments-not-json"),
        pytest.param(["--definition", "/nonexistent/tool.json"], id="definition-unreadable"),
    ],
)
def test_explain_exits_2_on_usage_errors(tmp_path: Path, args: list[str]) -> None:
    config, _ = write_config(tmp_path)

    done = OperatorCli(tmp_path)("policy", "explain", "--config", str(config), "--server", "fs", "--tool", "t", *args)

    assert done.returncode == 2
    assert done.stdout == ""


def test_explain_exits_2_when_the_config_does_not_load(tmp_path: Path) -> None:
    config = tmp_path / "bad.yaml"
    config.write_text("tools:\n  allowed: ['*']\n", encoding="utf-8")

    done = OperatorCli(tmp_path)("policy", "explain", "--config", str(config), "--server", "fs", "--tool", "t")

    assert done.returncode == 2
    assert "tools.allowed" in done.stderr
