"""Operation kinds: name verbs, trusted annotations, operator overrides, default levels."""

from __future__ import annotations

import pytest

from mcpwall.gatekeeper.kinds import DEFAULT_LEVELS, KindSource, OperationKind, classify, kind_from_annotations
from mcpwall.gatekeeper.settings import OperationOverride
from mcpwall.gatekeeper.verbs import split_words
from mcpwall.pipeline.verdict import PermissionLevel

K = OperationKind
L = PermissionLevel


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("read_file", ["read", "file"]),
        ("getHTTPStatus", ["get", "http", "status"]),
        ("repo.delete-branch", ["repo", "delete", "branch"]),
        ("list_directory_with_sizes", ["list", "directory", "with", "sizes"]),
        ("runV2Script", ["run", "v", "script"]),
        ("", []),
    ],
)
def test_tool_name_splits_into_lower_case_words(name: str, words: list[str]) -> None:
    assert split_words(name) == words


@pytest.mark.parametrize(
    ("tool", "kind"),
    [
        ("read_file", K.READ),
        ("list_directory", K.READ),
        ("getHTTPStatus", K.READ),
        ("search-issues", K.READ),
        ("repo.describe", K.READ),
        ("git_status", K.READ),
        ("create_issue", K.CREATE),
        ("addComment", K.CREATE),
        ("upload_file", K.CREATE),
        ("write_file", K.UPDATE),
        ("edit_file", K.UPDATE),
        ("move_file", K.UPDATE),
        ("setConfig", K.UPDATE),
        ("delete_branch", K.DELETE),
        ("removeUser", K.DELETE),
        ("drop_table", K.DELETE),
        ("kill_process", K.DELETE),
        ("run_command", K.EXECUTE),
        ("execute_sql", K.EXECUTE),
        ("bash", K.EXECUTE),
        ("read_and_delete", K.DELETE),
        ("get_or_create", K.CREATE),
        ("list_then_exec", K.EXECUTE),
        ("update_or_remove", K.DELETE),
        ("frobnicate", K.UNKNOWN),
        ("git_branch", K.UNKNOWN),
        ("list_deleted", K.READ),
        ("d\u0435lete_repo", K.UNKNOWN),  # Cyrillic ie (U+0435): no verb is read into a homoglyph
    ],
)
def test_tool_is_classified_by_the_most_dangerous_verb_in_its_name(tool: str, kind: OperationKind) -> None:
    found = classify("srv", tool, None, False, [])
    assert found.kind is kind
    assert found.source is (KindSource.NONE if kind is K.UNKNOWN else KindSource.NAME)


@pytest.mark.parametrize(
    ("kind", "level"),
    [
        (K.READ, L.AUTO_APPROVE),
        (K.CREATE, L.CONFIRM_SESSION),
        (K.UPDATE, L.CONFIRM_SINGLE_USE),
        (K.DELETE, L.CONFIRM_SINGLE_USE),
        (K.EXECUTE, L.CONFIRM_SINGLE_USE),
        (K.UNKNOWN, L.CONFIRM_SINGLE_USE),
    ],
)
def test_each_kind_has_its_default_level(kind: OperationKind, level: PermissionLevel) -> None:
    assert DEFAULT_LEVELS[kind] is level


def test_unknown_tool_needs_single_use_confirmation_and_is_not_elevatable() -> None:
    found = classify("srv", "frobnicate", None, False, [])
    assert (found.default_level, found.elevatable) == (L.CONFIRM_SINGLE_USE, False)


@pytest.mark.parametrize(
    ("annotations", "kind"),
    [
        ({"readOnlyHint": True}, K.READ),
        ({"readOnlyHint": True, "destructiveHint": True}, K.READ),
        ({"destructiveHint": True}, K.DELETE),
        ({"destructiveHint": True, "idempotentHint": True}, K.DELETE),
        ({"idempotentHint": True}, K.UPDATE),
        ({"readOnlyHint": False, "destructiveHint": False}, K.CREATE),
        ({"openWorldHint": True}, None),
        ({"readOnlyHint": "true"}, None),
        ({}, None),
    ],
)
def test_annotations_map_to_kinds_only_through_explicit_booleans(
    annotations: dict[str, object], kind: OperationKind | None
) -> None:
    found = kind_from_annotations(annotations)
    assert (found[0] if found else None) is kind


def test_annotations_are_ignored_for_an_untrusted_server() -> None:
    found = classify("srv", "delete_everything", {"readOnlyHint": True}, False, [])
    assert (found.kind, found.source) == (K.DELETE, KindSource.NAME)


def test_annotations_classify_a_tool_of_a_trusted_server() -> None:
    found = classify("srv", "delete_everything", {"readOnlyHint": True}, True, [])
    assert (found.kind, found.source, found.default_level) == (K.READ, KindSource.ANNOTATIONS, L.AUTO_APPROVE)


def test_trusted_annotations_without_a_kind_fall_back_to_the_name() -> None:
    found = classify("srv", "create_issue", {"openWorldHint": True}, True, [])
    assert (found.kind, found.source) == (K.CREATE, KindSource.NAME)


def test_operator_override_beats_trusted_annotations() -> None:
    override = OperationOverride(match="srv/*", kind=K.DELETE, rationale="drops data")
    found = classify("srv", "read_file", {"readOnlyHint": True}, True, [override])
    assert (found.kind, found.source, found.rationale) == (K.DELETE, KindSource.OVERRIDE, "drops data")


def test_first_matching_override_wins() -> None:
    first = OperationOverride(match="srv/read_*", kind=K.READ)
    second = OperationOverride(match="srv/*", kind=K.EXECUTE)
    assert classify("srv", "read_x", None, False, [first, second]).kind is K.READ
    assert classify("srv", "other", None, False, [first, second]).kind is K.EXECUTE


def test_override_level_replaces_the_kind_default_level() -> None:
    override = OperationOverride(match="srv/send_mail", level=L.CONFIRM_SINGLE_USE)
    found = classify("srv", "send_mail", None, False, [override])
    assert (found.kind, found.default_level) == (K.CREATE, L.CONFIRM_SINGLE_USE)


def test_override_can_pin_an_operation_non_elevatable() -> None:
    override = OperationOverride(match="*/read_secret", elevatable=False)
    found = classify("vault", "read_secret", None, False, [override])
    assert (found.kind, found.default_level, found.elevatable) == (K.READ, L.AUTO_APPROVE, False)


def test_override_without_kind_or_level_leaves_an_unknown_tool_non_elevatable() -> None:
    override = OperationOverride(match="srv/*", rationale="noted")
    assert classify("srv", "frobnicate", None, False, [override]).elevatable is False


def test_override_with_a_level_classifies_an_unknown_tool() -> None:
    override = OperationOverride(match="srv/frobnicate", level=L.AUTO_APPROVE)
    found = classify("srv", "frobnicate", None, False, [override])
    assert (found.default_level, found.elevatable) == (L.AUTO_APPROVE, True)


def test_override_match_is_case_sensitive() -> None:
    override = OperationOverride(match="srv/delete_x", level=L.AUTO_APPROVE)
    assert classify("srv", "Delete_X", None, False, [override]).source is KindSource.NAME
