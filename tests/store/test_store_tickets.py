"""Tickets: decided once, before expiry; a once approval is spent once, a session one lasts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from mcpwall.store import SqliteStore, Ticket, TicketLevel, TicketScope

BINDING = "b" * 64


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    with SqliteStore(tmp_path / "mcpwall.db") as opened:
        yield opened


def open_ticket(store: SqliteStore, level: TicketLevel = "CONFIRM_SINGLE_USE", session: str = "s1") -> Ticket:
    return store.create_ticket(
        session=session, server="git", tool="push", binding=BINDING, level=level, expires=100.0, now=10.0
    )


def approve(store: SqliteStore, ticket: Ticket, *, session_scope: bool = False) -> Ticket | None:
    scope: TicketScope = "session" if session_scope else "once"
    return store.decide_ticket(ticket.id, approve=True, scope=scope, decided_by="alice", channel="cli", now=20.0)


def consume(store: SqliteStore, session: str = "s1", binding: str = BINDING, tool: str = "push") -> Ticket | None:
    return store.consume_approval(session=session, server="git", tool=tool, binding=binding, now=30.0)


def test_ticket_gets_a_short_base32_id_and_starts_pending(store: SqliteStore) -> None:
    ticket = open_ticket(store)

    assert len(ticket.id) == 8
    assert set(ticket.id) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
    assert (ticket.status, ticket.scope) == ("pending", "once")
    assert store.get_ticket(ticket.id.lower()) == ticket


def test_decision_records_who_when_and_where(store: SqliteStore) -> None:
    ticket = open_ticket(store)

    decided = approve(store, ticket)

    assert decided is not None
    assert (decided.status, decided.decided_by, decided.decided_at, decided.channel) == (
        "approved",
        "alice",
        20.0,
        "cli",
    )


def test_a_ticket_is_decided_only_once(store: SqliteStore) -> None:
    ticket = open_ticket(store)
    approve(store, ticket)

    denied = store.decide_ticket(ticket.id, approve=False, scope="once", decided_by="bob", channel="cli", now=21.0)

    assert denied is None
    found = store.get_ticket(ticket.id)
    assert found is not None
    assert (found.status, found.decided_by) == ("approved", "alice")


def test_an_expired_ticket_cannot_be_decided_and_is_marked_expired(store: SqliteStore) -> None:
    ticket = open_ticket(store)

    late = store.decide_ticket(ticket.id, approve=True, scope="once", decided_by="alice", channel="cli", now=100.0)

    assert late is None
    found = store.get_ticket(ticket.id)
    assert found is not None
    assert found.status == "expired"


def test_unknown_ticket_cannot_be_decided(store: SqliteStore) -> None:
    assert store.decide_ticket("AAAAAAAA", approve=True, scope="once", decided_by="a", channel="cli") is None


def test_single_use_ticket_cannot_be_granted_for_the_session(store: SqliteStore) -> None:
    ticket = open_ticket(store, "CONFIRM_SINGLE_USE")

    assert approve(store, ticket, session_scope=True) is None
    assert store.get_ticket(ticket.id) == ticket


def test_once_approval_is_consumed_exactly_once(store: SqliteStore) -> None:
    ticket = open_ticket(store)
    approve(store, ticket)

    first = consume(store)
    second = consume(store)

    assert first is not None
    assert (first.id, first.status, first.consumed_at) == (ticket.id, "consumed", 30.0)
    assert second is None


@pytest.mark.parametrize(("session", "binding"), [("s2", BINDING), ("s1", "c" * 64)])
def test_once_approval_is_bound_to_its_session_and_call(store: SqliteStore, session: str, binding: str) -> None:
    approve(store, open_ticket(store))

    assert consume(store, session=session, binding=binding) is None
    assert consume(store) is not None


def test_session_approval_covers_other_calls_of_the_tool_without_being_consumed(store: SqliteStore) -> None:
    ticket = open_ticket(store, "CONFIRM_SESSION")
    approve(store, ticket, session_scope=True)

    grants = [consume(store, binding=b * 64) for b in "xyz"]

    assert [g.id if g else None for g in grants] == [ticket.id] * 3
    assert [g.status if g else None for g in grants] == ["approved"] * 3
    assert consume(store, session="s2") is None
    assert consume(store, tool="force_push") is None


def test_denied_ticket_lets_nothing_through(store: SqliteStore) -> None:
    ticket = open_ticket(store)
    store.decide_ticket(ticket.id, approve=False, scope="once", decided_by="alice", channel="cli", now=20.0)

    assert consume(store) is None


def test_pending_ticket_lets_nothing_through(store: SqliteStore) -> None:
    open_ticket(store)

    assert consume(store) is None


def test_expiry_marks_only_pending_tickets_past_their_deadline(store: SqliteStore) -> None:
    stale, decided = open_ticket(store), open_ticket(store)
    fresh = store.create_ticket(
        session="s1", server="git", tool="push", binding=BINDING, level="CONFIRM_SESSION", expires=500.0, now=10.0
    )
    approve(store, decided)

    assert store.expire_tickets(now=200.0) == 1

    statuses = {t.id: t.status for t in store.list_tickets()}
    assert statuses == {stale.id: "expired", decided.id: "approved", fresh.id: "pending"}


def test_tickets_list_by_status_and_session(store: SqliteStore) -> None:
    mine, theirs = open_ticket(store, session="s1"), open_ticket(store, session="s2")
    approve(store, theirs)

    assert [t.id for t in store.list_tickets("pending")] == [mine.id]
    assert [t.id for t in store.list_tickets(session="s2")] == [theirs.id]
    assert {t.id for t in store.list_tickets()} == {mine.id, theirs.id}
