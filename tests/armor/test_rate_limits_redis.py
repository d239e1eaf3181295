"""Rate limits in redis: several mcpwall processes share one window, against a real redis-server."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import orjson
import pytest

from mcpwall.armor.rate_limits import RateLimiter
from mcpwall.armor.settings import RateLimitSettings
from redis_server import running_redis

PROCESS_TIMEOUT = 60
"""Seconds a limiter subprocess may take; subprocess.run kills it past that."""

HIT_SCRIPT = """
import sys, orjson
from mcpwall.armor.rate_limits import RateLimiter
from mcpwall.armor.settings import RateLimitSettings
settings, session, tools = sys.argv[1], sys.argv[2], sys.argv[3:]
limiter = RateLimiter(RateLimitSettings.model_validate_json(settings))
print(orjson.dumps([v.type if (v := limiter.hit(session, tool)) else None for tool in tools]).decode())
"""
"""One mcpwall-like process: open a limiter, make the calls, print each refusal's type."""


@pytest.fixture
def redis_uri() -> Iterator[str]:
    """A private redis-server for the test, killed after it."""
    with running_redis() as uri:
        yield uri


def limiter(uri: str, **fields: object) -> RateLimiter:
    return RateLimiter(RateLimitSettings.model_validate({"storage_uri": uri, **fields}))


def run_process(settings: RateLimitSettings, session: str, *tools: str) -> list[str | None]:
    argv = [sys.executable, "-c", HIT_SCRIPT, settings.model_dump_json(), session, *tools]
    done = subprocess.run(argv, capture_output=True, text=True, encoding="utf-8", timeout=PROCESS_TIMEOUT, check=False)
    assert done.returncode == 0, done.stderr
    refusals: list[str | None] = orjson.loads(done.stdout)
    return refusals


@pytest.mark.parametrize("strategy", ["moving-window", "fixed-window"])
def test_two_limiters_on_one_redis_share_the_session_window(redis_uri: str, strategy: str) -> None:
    first = limiter(redis_uri, per_session="3/minute", strategy=strategy)
    second = limiter(redis_uri, per_session="3/minute", strategy=strategy)

    admitted = [first.hit("s1", "a"), second.hit("s1", "b"), first.hit("s1", "c")]
    refused = [second.hit("s1", "d"), first.hit("s1", "e")]

    assert admitted == [None, None, None]
    assert [v.type if v else None for v in refused] == ["RateLimitExceeded", "RateLimitExceeded"]


def test_the_shared_refusal_names_the_window_and_when_to_retry(redis_uri: str) -> None:
    first = limiter(redis_uri, per_tool={"write_*": "1/minute"})
    second = limiter(redis_uri, per_tool={"write_*": "1/minute"})
    assert first.hit("s1", "write_file") is None

    refused = second.hit("s1", "write_dir")

    assert refused is not None
    assert (refused.detail["scope"], refused.detail["pattern"], refused.detail["limit"]) == (
        "tool",
        "write_*",
        "1 per 1 minute",
    )
    retry_after = refused.detail["retry_after_seconds"]
    assert isinstance(retry_after, float)
    assert 0 <= retry_after <= 60


def test_sessions_keep_separate_windows_in_redis(redis_uri: str) -> None:
    first = limiter(redis_uri, per_session="1/minute")
    second = limiter(redis_uri, per_session="1/minute")

    assert first.hit("s1", "t") is None
    assert second.hit("s2", "t") is None
    assert second.hit("s1", "t") is not None


def test_reset_forgets_the_shared_counts(redis_uri: str) -> None:
    first = limiter(redis_uri, per_session="1/minute")
    second = limiter(redis_uri, per_session="1/minute")
    assert first.hit("s1", "t") is None

    second.reset()

    assert first.hit("s1", "t") is None


def test_two_processes_share_one_window_through_redis(redis_uri: str) -> None:
    settings = RateLimitSettings(per_session="3/minute", storage_uri=redis_uri)

    first = run_process(settings, "s1", "a", "b")
    second = run_process(settings, "s1", "c", "d")
    third = run_process(settings, "s1", "e")

    assert first == [None, None]
    assert second == [None, "RateLimitExceeded"]
    assert third == ["RateLimitExceeded"]
