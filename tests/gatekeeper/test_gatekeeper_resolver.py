"""The resolver: precedence (deny > confirm > allow > default), conflicts, read-only, recovery."""

from __future__ import annotations

import json

import pytest

from mcpwall.gatekeeper.kinds import Classification, KindSource, OperationKind, classify
from mcpwall.gatekeeper.profiles import APPROVE, REJECT, RELEASE, ListName, Profile
from mcpwall.gatekeeper.resolver import resolve
from mcpwall.gatekeeper.settings import OperationOverride
from mcpwall.pipeline.verdict import PermissionLevel

L = PermissionLevel
ALLOW, CONFIRM, DENY = ListName.ALLOW, ListName.CONFIRM, ListName.DENY


def profile(
    name: str, allow: tuple[str, ...] = (), confirm: tuple[str, ...] = (), deny: tuple[str, ...] = ()
) -> Profile:
    return Profile(name=name, allow=list(allow), confirm=list(confirm), deny=list(deny))


def pinned(tool: str) -> Classification:
    return classify("gh", tool, None, False, [OperationOverride(match=f"gh/{tool}", elevatable=False)])


# (tool, profiles, level, decided_by, conflicts as (profile, list))
CASES = [
    ("read_file", [], L.AUTO_APPROVE, None, []),
    ("create_issue", [], L.CONFIRM_SESSION, None, []),
    ("delete_repo", [], L.CONFIRM_SINGLE_USE, None, []),
    ("frobnicate", [], L.CONFIRM_SINGLE_USE, None, []),
    # deny beats confirm beats allow, across profiles
    (
        "delete_repo",
        [profile("a", allow=("gh/*",)), profile("b", confirm=("gh/*",)), profile("c", deny=("gh/delete_*",))],
        L.DENY,
        ("c", DENY),
        [("a", ALLOW), ("b", CONFIRM)],
    ),
    (
        "create_issue",
        [profile("a", allow=("*",)), profile("b", confirm=("gh/*",))],
        L.CONFIRM_SESSION,
        ("b", CONFIRM),
        [("a", ALLOW)],
    ),
    # an allow lowers a default
    ("delete_repo", [profile("a", allow=("gh/delete_repo",))], L.AUTO_APPROVE, ("a", ALLOW), []),
    ("create_issue", [profile("a", allow=("gh/*",))], L.AUTO_APPROVE, ("a", ALLOW), []),
    # a confirm raises a read to at least CONFIRM_SESSION, and never lowers a stricter default
    ("read_file", [profile("a", confirm=("gh/read_*",))], L.CONFIRM_SESSION, ("a", CONFIRM), []),
    ("delete_repo", [profile("a", confirm=("gh/*",))], L.CONFIRM_SINGLE_USE, ("a", CONFIRM), []),
    # an allow cannot lower another profile's confirm, whatever the order
    (
        "delete_repo",
        [profile("b", confirm=("gh/*",)), profile("a", allow=("gh/*",))],
        L.CONFIRM_SINGLE_USE,
        ("b", CONFIRM),
        [("a", ALLOW)],
    ),
    # within one profile the stricter list wins, and it is no conflict
    ("delete_repo", [profile("a", allow=("gh/*",), deny=("gh/delete_*",))], L.DENY, ("a", DENY), []),
    ("create_issue", [profile("a", allow=("gh/*",), confirm=("gh/create_*",))], L.CONFIRM_SESSION, ("a", CONFIRM), []),
    # an unknown kind is never auto-approved, even by allow "*"
    ("frobnicate", [profile("a", allow=("*",))], L.CONFIRM_SINGLE_USE, None, [("a", ALLOW)]),
    # the first of several denies decides
    ("delete_repo", [profile("x", deny=("*",)), profile("y", deny=("gh/*",))], L.DENY, ("x", DENY), []),
    # restricting patterns match case-insensitively, granting patterns exactly
    ("Delete_Repo", [profile("a", deny=("*/delete_*",))], L.DENY, ("a", DENY), []),
    ("READ_FILE", [profile("a", allow=("gh/read_file",))], L.AUTO_APPROVE, None, []),
    ("Write_File", [profile("a", allow=("gh/write_file",))], L.CONFIRM_SINGLE_USE, None, []),
    # a profile that matches nothing changes nothing
    ("delete_repo", [profile("a", allow=("other/*",))], L.CONFIRM_SINGLE_USE, None, []),
]


@pytest.mark.parametrize(("tool", "profiles", "level", "decided_by", "conflicts"), CASES)
def test_resolution_follows_deny_confirm_allow_default_precedence(
    tool: str,
    profiles: list[Profile],
    level: PermissionLevel,
    decided_by: tuple[str, ListName] | None,
    conflicts: list[tuple[str, ListName]],
) -> None:
    resolution = resolve("gh", tool, classify("gh", tool, None, False, []), profiles)
    assert resolution.level is level
    assert resolution.decided_by == decided_by
    assert [(c.profile, c.list) for c in resolution.conflicts] == conflicts


def test_allow_cannot_touch_an_operation_pinned_non_elevatable() -> None:
    resolution = resolve("gh", "delete_repo", pinned("delete_repo"), [profile("a", allow=("gh/*",))])
    assert resolution.level is L.CONFIRM_SINGLE_USE
    assert [(c.profile, c.lost_to) for c in resolution.conflicts] == [("a", "operation is not elevatable")]


def test_pinned_read_stays_auto_approved_without_any_profile() -> None:
    assert resolve("gh", "read_file", pinned("read_file"), []).level is L.AUTO_APPROVE


READ_ONLY = profile("sandbox", deny=("confirm",))


@pytest.mark.parametrize(
    ("tool", "others", "level", "rule"),
    [
        ("delete_repo", [], L.DENY, "gatekeeper.read_only"),
        ("create_issue", [], L.DENY, "gatekeeper.read_only"),
        ("frobnicate", [], L.DENY, "gatekeeper.read_only"),
        ("read_file", [], L.AUTO_APPROVE, "gatekeeper.default"),
        ("read_file", [profile("a", confirm=("gh/*",))], L.DENY, "gatekeeper.read_only"),
        ("create_issue", [profile("a", allow=("gh/*",))], L.AUTO_APPROVE, "gatekeeper.profile.allow"),
    ],
)
def test_read_only_profile_turns_confirmations_into_denials_and_leaves_auto_approvals(
    tool: str, others: list[Profile], level: PermissionLevel, rule: str
) -> None:
    resolution = resolve("gh", tool, classify("gh", tool, None, False, []), [READ_ONLY, *others])
    assert (resolution.level, resolution.rule, resolution.read_only) == (level, rule, True)


@pytest.mark.parametrize("operation", [APPROVE, REJECT, RELEASE])
def test_recovery_operations_are_never_denied_by_profiles(operation: str) -> None:
    server, tool = operation.split("/")
    lockdown = [profile("lockdown", deny=("*", "confirm", "mcpwall/*")), profile("c", confirm=("*",))]
    resolution = resolve(server, tool, classify(server, tool, None, False, []), lockdown)
    assert (resolution.level, resolution.rule) == (L.AUTO_APPROVE, "gatekeeper.recovery")
    assert {c.profile for c in resolution.conflicts} == {"lockdown", "c"}


def test_denial_verdict_names_the_rule_and_violation() -> None:
    resolution = resolve(
        "gh", "delete_repo", classify("gh", "delete_repo", None, False, []), [profile("p", deny=("*",))]
    )
    verdict = resolution.verdict
    assert (verdict.level, verdict.check, verdict.rule, verdict.violation) == (
        L.DENY,
        "gatekeeper",
        "gatekeeper.profile.deny",
        "ProfileDenied",
    )
    assert "profile 'p'" in verdict.reason


def test_confirmation_verdict_carries_no_violation() -> None:
    resolution = resolve("gh", "write_file", classify("gh", "write_file", None, False, []), [])
    assert resolution.verdict.violation is None


def test_explain_data_carries_kind_source_default_effects_conflicts_and_level() -> None:
    profiles = [profile("dev", allow=("gh/*",)), profile("careful", confirm=("gh/write_*",)), profile("idle")]
    resolution = resolve("gh", "write_file", classify("gh", "write_file", None, False, []), profiles)
    data = resolution.to_dict()
    json.dumps(data)
    assert data["kind"] == "update"
    assert data["kind_source"] == "name"
    assert data["default_level"] == "CONFIRM_SINGLE_USE"
    assert data["level"] == "CONFIRM_SINGLE_USE"
    assert data["decided_by"] == {"profile": "careful", "list": "confirm"}
    assert [e["list"] for e in data["effects"]] == ["allow", "confirm", None]  # type: ignore[attr-defined]
    assert data["conflicts"] == [
        {"profile": "dev", "list": "allow", "pattern": "gh/*", "lost_to": "confirm in profile 'careful'"}
    ]


def test_resolution_exposes_kind_source_and_default_level() -> None:
    classification = Classification(OperationKind.EXECUTE, KindSource.OVERRIDE, L.CONFIRM_SESSION, True, "ops")
    resolution = resolve("sh", "x", classification, [])
    assert (resolution.kind, resolution.kind_source, resolution.default_level) == (
        OperationKind.EXECUTE,
        KindSource.OVERRIDE,
        L.CONFIRM_SESSION,
    )
