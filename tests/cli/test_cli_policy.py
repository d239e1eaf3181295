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


ROWS = [
    # id, server/tool, arguments (DATA is the allowed root), profiles, level, kind, violation types
    ("read-auto-approved", "fs/read_file", {"path": "DATA/x.txt"}, "", "AUTO_APPROVE", "read", ""),
    ("write-confirm-single-use", "fs/write_file", {"path": "DATA/x.txt"}, "", "CONFIRM_SINGLE_USE", "update", ""),
    ("create-confirm-session", "fs/create_directory", {"path": "DATA/d"}, "", "CONFIRM_SESSION", "create", ""),
    ("profile-allow-lowers-create", "fs/create_directory", {"path": "DATA/d"}, "builder", "AUTO_APPROVE", "create", ""),
    ("profile-deny", "fs/delete_file", {}, "careful", "DENY", "delete", "ProfileDenied"),
    ("read-only-denies-confirm", "fs/write_file", {}, "read-only", "DENY", "update", "ReadOnlySession"),
    ("read-only-keeps-reads", "fs/read_file", {}, "read-only", "AUTO_APPROVE", "read", ""),
    ("two-profiles-stack", "fs/create_file", {}, "builder,read-only", "AUTO_APPROVE", "create", ""),
    ("path-outside-allowed-paths", "fs/read_file", {"path": "/etc/passwd"}, "", "DENY", "read", "PathOutsideBoundary"),
    ("domain-not-allowed", "web/fetch", {"url": "https://evil.example.org/x"}, "", "DENY", "read", "DomainNotAllowed"),
    (
        "every-check-runs-after-a-deny",
        "fs/drop_table",
        {"path": "/etc/passwd"},
        "",
        "DENY",
        "delete",
        "ToolExplicitlyDenied,PathOutsideBoundary",
    ),
]


@pytest.mark.parametrize(
    ("operation", "arguments", "profiles", "level", "kind", "violations"),
    [pytest.param(*row[1:], id=row[0]) for row in ROWS],
)
def test_explain_reports_the_level_kind_and_violations(
    tmp_path: Path, operation: str, arguments: dict[str, str], profiles: str, level: str, kind: str, violations: str
) -> None:
    config, data = write_config(tmp_path)
    server, tool = operation.split("/")
    args = orjson.dumps({key: value.replace("DATA", str(data)) for key, value in arguments.items()}).decode()
    options = [f"--profile={name}" for name in profiles.split(",") if name]

    found = explain(OperatorCli(tmp_path), config, "--server", server, "--tool", tool, "--args", args, *options)

    assert (found["level"], found["kind"]) == (level, kind)
    assert [v["type"] for v in found["violations"]] == [t for t in violations.split(",") if t]
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
