"""Rate limits: per-session caps and per-tool-pattern windows, memory storage."""

from __future__ import annotations

import pytest

from mcpwall.armor.rate_limits import RateLimiter
from mcpwall.armor.settings import RateLimitSettings


def _limiter(**fields: object) -> RateLimiter:
    return RateLimiter(RateLimitSettings.model_validate(fields))


@pytest.mark.parametrize("strategy", ["moving-window", "fixed-window"])
def test_session_cap_refuses_the_call_past_the_limit(strategy: str) -> None:
    limiter = _limiter(per_session="3/minute", strategy=strategy)
    assert [limiter.hit("s1", f"tool{i}") is None for i in range(4)] == [True, True, True, False]


def test_sessions_are_counted_separately() -> None:
    limiter = _limiter(per_session="1/minute")
    assert limiter.hit("s1", "t") is None
    assert limiter.hit("s2", "t") is None
    assert limiter.hit("s1", "t") is not None


def test_tool_pattern_window_applies_only_to_matching_tools() -> None:
    limiter = _limiter(per_tool={"write_*": "1/minute"})
    assert limiter.hit("s", "write_file") is None
    assert limiter.hit("s", "write_dir") is not None
    assert limiter.hit("s", "read_file") is None
    assert limiter.hit("s", "read_file") is None


def test_every_matching_pattern_keeps_its_own_window() -> None:
    limiter = _limiter(per_tool={"*": "3/minute", "delete_*": "1/minute"})
    assert limiter.hit("s", "delete_x") is None
    refused = limiter.hit("s", "delete_x")
    assert refused is not None
    assert refused.detail["pattern"] == "delete_*"
    assert limiter.hit("s", "list") is None
    assert limiter.hit("s", "list") is None
    assert limiter.hit("s", "list") is not None


def test_refused_calls_use_no_quota() -> None:
    limiter = _limiter(per_session="2/minute", per_tool={"x": "1/minute"})
    assert limiter.hit("s", "x") is None
    assert limiter.hit("s", "x") is not None
    assert limiter.hit("s", "x") is not None
    assert limiter.hit("s", "y") is None


def test_several_windows_in_one_rate_all_apply() -> None:
    limiter = _limiter(per_session="100/minute;2/hour")
    assert limiter.hit("s", "t") is None
    assert limiter.hit("s", "t") is None
    refused = limiter.hit("s", "t")
    assert refused is not None
    assert refused.detail["limit"] == "2 per 1 hour"


def test_session_ids_with_separators_do_not_share_windows() -> None:
    limiter = _limiter(per_session="1/minute")
    assert limiter.hit("a/b", "t") is None
    assert limiter.hit("a%2Fb", "t") is None
    assert limiter.hit("a", "t") is None


def test_refusal_is_a_rate_limit_violation_with_a_generic_message() -> None:
    limiter = _limiter(per_session="1/second")
    limiter.hit("s", "t")
    refused = limiter.hit("s", "t")
    assert refused is not None
    assert refused.type == "RateLimitExceeded"
    assert "1 per 1 second" in refused.reason
    assert "second" not in refused.message
    assert isinstance(refused.detail["retry_after_seconds"], float)


def test_no_limits_admit_every_call() -> None:
    limiter = _limiter()
    assert all(limiter.hit("s", "t") is None for _ in range(1000))


def test_reset_forgets_the_counts() -> None:
    limiter = _limiter(per_session="1/minute")
    limiter.hit("s", "t")
    limiter.reset()
    assert limiter.hit("s", "t") is None


def test_storage_uri_is_honoured() -> None:
    limiter = _limiter(storage_uri="memory://", per_session="1/minute")
    assert type(limiter._storage).__name__ == "MemoryStorage"
