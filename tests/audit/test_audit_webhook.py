"""The webhook sink: records POSTed as JSON off the message path, retried, failures reported."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from pydantic import ValidationError

from mcpwall.audit.webhook import WebhookSettings, WebhookSink, redacted

WAIT = 10.0
"""Upper bound of every wait in these tests."""


class Receiver:
    """A real local HTTP server that records each POST and answers with scripted statuses."""

    def __init__(self, statuses: list[int] | None = None) -> None:
        self.posts: list[dict[str, Any]] = []
        self.statuses = list(statuses or [])
        self.release = threading.Event()
        self.release.set()
        self.changed = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["content-length"]))
                receiver.release.wait(WAIT)
                status = receiver.statuses.pop(0) if receiver.statuses else 200
                with receiver.changed:
                    receiver.posts.append(
                        {"status": status, "content_type": self.headers["content-type"], "body": json.loads(body)}
                    )
                    receiver.changed.notify_all()
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                """Quiet: the test reads ``posts``."""

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)

    def wait_for(self, count: int) -> list[dict[str, Any]]:
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.posts) >= count, WAIT), self.posts
        return self.posts


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    made = Receiver()
    made.thread.start()
    try:
        yield made
    finally:
        made.release.set()
        made.server.shutdown()
        made.server.server_close()


class Failures:
    """Collects ``webhook_failed`` events, as the auditor would."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.arrived = threading.Event()

    def __call__(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        self.arrived.set()


def sink(url: str, **options: Any) -> WebhookSink:
    options.setdefault("backoff_seconds", 0.01)
    return WebhookSink(url, **options)


def dead_url() -> str:
    """A local URL where nothing listens (the port was just released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://user:secret@127.0.0.1:{port}/hook?token=abc"


def test_every_record_is_posted_as_json(receiver: Receiver) -> None:
    hook = sink(receiver.url)

    for seq in range(3):
        assert hook.offer({"type": "mcp_tool_seen", "seq": seq})

    posts = receiver.wait_for(3)
    assert hook.close(WAIT)
    assert [p["body"] for p in posts] == [{"type": "mcp_tool_seen", "seq": seq} for seq in range(3)]
    assert {p["content_type"] for p in posts} == {"application/json"}
    assert hook.delivered == 3


def test_only_selected_record_types_are_sent(receiver: Receiver) -> None:
    hook = sink(receiver.url, types=["mcp_detection"])

    queued = [hook.offer({"type": kind}) for kind in ("mcp_tool_seen", "mcp_detection", "call_allowed")]

    assert queued == [False, True, False]
    assert hook.close(WAIT)
    assert [p["body"]["type"] for p in receiver.posts] == ["mcp_detection"]
    assert hook.delivered == 1


def test_a_server_error_is_retried_until_it_succeeds(receiver: Receiver) -> None:
    receiver.statuses = [500, 503]
    failures = Failures()
    hook = sink(receiver.url, on_failure=failures)

    hook.offer({"type": "mcp_detection", "rule": "x"})

    posts = receiver.wait_for(3)
    assert hook.close(WAIT)
    assert [p["status"] for p in posts] == [500, 503, 200]
    assert (hook.delivered, hook.failed, failures.events) == (1, 0, [])


def test_a_client_error_is_not_retried_and_is_reported(receiver: Receiver) -> None:
    receiver.statuses = [400]
    failures = Failures()
    hook = sink(receiver.url, on_failure=failures)

    hook.offer({"type": "mcp_detection"})

    assert failures.arrived.wait(WAIT)
    assert hook.close(WAIT)
    assert len(receiver.posts) == 1
    assert failures.events[0]["status"] == 400
    assert failures.events[0]["error"] == "HTTP 400"


def test_a_dead_receiver_is_reported_once_throttled_and_never_holds_the_caller() -> None:
    failures = Failures()
    hook = sink(dead_url(), max_retries=2, on_failure=failures)

    queued = [hook.offer({"type": "mcp_tool_seen", "seq": seq}) for seq in range(3)]

    assert queued == [True, True, True]
    assert failures.arrived.wait(WAIT)
    assert hook.close(WAIT)
    first = failures.events[0]
    assert first["type"] == "webhook_failed"
    assert first["status"] is None
    assert "ConnectError" in first["error"]
    assert first["url"].startswith("http://127.0.0.1:")
    assert "secret" not in json.dumps(failures.events)
    assert "token" not in json.dumps(failures.events)
    assert hook.failed == 3
    assert len(failures.events) == 2  # the first failure, then one summary of the two held back at close
    assert failures.events[1]["unreported_failures"] == 2


def test_records_beyond_the_queue_are_dropped_and_counted(receiver: Receiver) -> None:
    receiver.release.clear()  # the receiver holds the first POST: the sink's thread is busy
    failures = Failures()
    hook = sink(receiver.url, max_queue=1, on_failure=failures)

    queued = [hook.offer({"type": "mcp_tool_seen", "seq": seq}) for seq in range(6)]
    receiver.release.set()

    assert hook.close(WAIT)
    assert sum(queued) <= 2  # one in flight at most, one waiting
    assert hook.dropped == 6 - sum(queued)
    assert hook.delivered == sum(queued)
    assert failures.events[-1]["dropped"] == hook.dropped


def test_the_sink_never_sends_its_own_failure_events(receiver: Receiver) -> None:
    hook = sink(receiver.url)

    assert not hook.offer({"type": "webhook_failed", "error": "x"})
    assert hook.close(WAIT)


def test_close_gives_up_when_the_receiver_never_answers(receiver: Receiver) -> None:
    receiver.release.clear()
    hook = sink(receiver.url, timeout_seconds=0.5, max_retries=0)
    hook.offer({"type": "mcp_tool_seen"})

    assert hook.close(WAIT)
    assert hook.failed == 1


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://user:pw@hooks.example.com/T0/B1/secret?x=1", "https://hooks.example.com"),
        ("http://127.0.0.1:8080/hook", "http://127.0.0.1:8080"),
    ],
)
def test_reports_show_only_scheme_host_and_port(url: str, shown: str) -> None:
    assert redacted(url) == shown


def test_settings_forbid_unknown_keys_and_non_http_urls() -> None:
    assert WebhookSettings().url is None
    assert WebhookSink.from_settings(WebhookSettings()) is None
    with pytest.raises(ValidationError):
        WebhookSettings.model_validate({"url": "https://x.example", "typo": 1})
    with pytest.raises(ValidationError, match="http"):
        WebhookSettings(url="file:///etc/passwd")


def test_a_sink_built_from_settings_posts_selected_types(receiver: Receiver) -> None:
    settings = WebhookSettings(url=receiver.url, types=["mcp_tool_changed"], max_queue=10)
    hook = WebhookSink.from_settings(settings)
    assert hook is not None
    close: Callable[[float], bool] = hook.close

    hook.offer({"type": "mcp_tool_changed", "tool": "t"})

    assert receiver.wait_for(1)[0]["body"] == {"type": "mcp_tool_changed", "tool": "t"}
    assert close(WAIT)
