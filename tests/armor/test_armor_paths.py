"""Path rule: traversal in every encoding, root boundaries as path components, symlinks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mcpwall.armor.paths import check_path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    (data / "sub").mkdir(parents=True)
    (data / "x.txt").write_text("x", encoding="utf-8")
    (tmp_path / "data-secret").mkdir()
    (tmp_path / "outside").mkdir()
    (data / "out-link").symlink_to(tmp_path / "outside")
    (data / "etc-file").symlink_to(tmp_path / "outside" / "secret.txt")
    (data / "in-link").symlink_to(data / "sub")
    return data


def _check(value: str, root: Path) -> str | None:
    found = check_path(value.format(root=root, parent=root.parent), [str(root)])
    return found.type if found is not None else None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("../x", "PathTraversalAttempt"),
        ("{root}/../outside/x", "PathTraversalAttempt"),
        ("{root}/sub/../x.txt", "PathTraversalAttempt"),
        ("..%2fx", "PathTraversalAttempt"),
        ("%2e%2e/x", "PathTraversalAttempt"),
        ("%2E%2E%2Fx", "PathTraversalAttempt"),
        ("%252e%252e/x", "PathTraversalAttempt"),
        ("%25252e%25252e/x", "PathTraversalAttempt"),
        ("..\\x", "PathTraversalAttempt"),
        ("sub\\..\\..\\x", "PathTraversalAttempt"),
        ("./../x", "PathTraversalAttempt"),
        ("sub/./../../x", "PathTraversalAttempt"),
        ("\uff0e\uff0e\uff0fx", "PathTraversalAttempt"),
        ("\u2024\u2024/x", "PathTraversalAttempt"),
        ("file://{root}/../x", "PathTraversalAttempt"),
        ("file:///%2e%2e/x", "PathTraversalAttempt"),
        ("{root}/x.txt\x00.png", "PathTraversalAttempt"),
        ("{root}/x%00.txt", "PathTraversalAttempt"),
        ("{root}/x\n.txt", "PathTraversalAttempt"),
        ("{root}/x\x1b[0m", "PathTraversalAttempt"),
        ("{root}/%ff%fe", "PathTraversalAttempt"),
        ("%2525252525252e%2e/x", "PathTraversalAttempt"),
    ],
)
def test_path_with_traversal_or_control_character_is_refused(root: Path, value: str, expected: str) -> None:
    assert _check(value, root) == expected


@pytest.mark.parametrize(
    "value",
    [
        "{parent}/data-secret/x",
        "{parent}/data-secret",
        "{parent}/dat",
        "{parent}",
        "/etc/passwd",
        "file:///etc/passwd",
        "FILE:///etc/passwd",
        "file://remote-host/{root}/x",
        "file:/etc/passwd",
        "~/x",
        "~root/x",
        "%2fetc%2fpasswd",
        "\\etc\\passwd",
        "\uff0fetc\uff0fpasswd",
        "{root}/out-link/x",
        "{root}/out-link/new-dir/new-file",
        "{root}/etc-file",
    ],
)
def test_path_resolving_outside_every_root_is_refused(root: Path, value: str) -> None:
    assert _check(value, root) == "PathOutsideBoundary"


@pytest.mark.parametrize(
    "value",
    [
        "{root}",
        "{root}/",
        "{root}/x.txt",
        "{root}/not-yet/created.txt",
        "{root}/sub/.hidden",
        "{root}/sub/..x",
        "{root}/x..txt",
        "{root}/in-link/new.txt",
        "x.txt",
        "sub/new.txt",
        "./x.txt",
        "",
        "file://{root}/x.txt",
        "file://localhost{root}/x.txt",
        "{root}/a%20b.txt",
        "{root}/caf\u00e9.txt",
        "{root}/100%",
    ],
)
def test_path_inside_the_root_is_allowed(root: Path, value: str) -> None:
    assert _check(value, root) is None


def test_symlinked_root_admits_paths_below_its_real_directory(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "alias").symlink_to(real)
    assert check_path(str(real / "x"), [str(tmp_path / "alias")]) is None
    assert check_path(str(tmp_path / "alias" / "x"), [str(tmp_path / "alias")]) is None


def test_empty_root_list_refuses_every_path(root: Path) -> None:
    found = check_path(str(root / "x.txt"), [])
    assert found is not None
    assert found.type == "PathOutsideBoundary"


def test_relative_path_resolves_against_the_configured_base(root: Path) -> None:
    other = root.parent / "outside"
    assert check_path("x.txt", [str(root)], base=str(other)) is not None
    assert check_path("x.txt", [str(root), str(other)], base=str(other)) is None


def test_root_of_the_filesystem_admits_every_absolute_path() -> None:
    assert check_path("/etc/passwd", ["/"]) is None


def test_violation_tells_the_operator_the_resolved_path_but_not_the_model(root: Path) -> None:
    found = check_path(str(root / "out-link" / "x"), [str(root)])
    assert found is not None
    assert os.path.realpath(root.parent / "outside" / "x") in found.reason
    assert "outside" not in found.message
    assert found.detail["resolved"] == os.path.realpath(root.parent / "outside" / "x")
