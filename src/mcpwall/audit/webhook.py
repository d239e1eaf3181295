"""A webhook sink: audit records POSTed as JSON to a URL, off the message path.

::

    gateway thread                      sink thread
    ──────────────                      ───────────
    offer(record) ── put_nowait ──▶ [bounded queue] ──▶ POST url (httpx, JSON body)
       │ full: dropped += 1                               │ 5xx / 408 / 429 / network error:
       └ never waits                                      │   retry, doubling the delay each time
                                                          └ gave up: on_failure(webhook_failed event),
                                                            at most one per failure_interval

``offer`` only enqueues: a slow or dead receiver can never delay a message. What cannot be
delivered is counted (``dropped`` when the queue was full, ``failed`` after the last retry) and
reported through ``on_failure`` as a ``webhook_failed`` event carrying the status or error,
throttled so a dead receiver yields one event a minute, not one per record. The sink never sends
its own ``webhook_failed`` events (they would fail the same way). ``on_failure`` is called from
the sink's thread: give it something thread-safe (e.g. ``Auditor.emit``, flushed by the gateway).

The URL may carry a secret (a token in the path or query): reports name only its scheme, host
and port.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urlsplit

import orjson
from pydantic import BaseModel, ConfigDict, Field, field_validator

if TYPE_CHECKING:
    import httpx

FAILED_EVENT: Final = "webhook_failed"
RETRY_STATUSES: Final = frozenset({408, 425, 429})
_STOP: Final = object()

FailureHook = Callable[[dict[str, Any]], None]


class WebhookSettings(BaseModel):
    """Sending audit records to an HTTP endpoint (a SIEM, a chat bridge...)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    url: str | None = None
    """Where records are POSTed as JSON (``http://`` or ``https://``); no webhook when unset."""
    types: list[str] = Field(default_factory=list)
    """Record types to send (e.g. ``mcp_detection``, ``mcp_tool_changed``); empty sends every record."""
    timeout_seconds: float = Field(default=5.0, gt=0, le=60)
    """How long one POST may take before it counts as failed."""
    max_queue: int = Field(default=1000, ge=1, le=1_000_000)
    """Records waiting to be sent; beyond this, new records are dropped (and counted)."""
    max_retries: int = Field(default=5, ge=0, le=20)
    """Retries of a failed POST (server errors, 408/425/429, network errors) before giving up."""

    @field_validator("url")
    @classmethod
    def _http_only(cls, value: str | None) -> str | None:
        if value is not None and urlsplit(value).scheme not in ("http", "https"):
            raise ValueError("the webhook URL must start with http:// or https://")
        return value


def redacted(url: str) -> str:
    """The URL without what may hold a secret: only scheme, host and port."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    return f"{parts.scheme}://{host}:{parts.port}" if parts.port else f"{parts.scheme}://{host}"


class _Throttle:
    """Lets one report through per ``interval`` seconds and counts the ones held back."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.last = float("-inf")
        self.held = 0

    def allow(self) -> bool:
        now = time.monotonic()
        if now - self.last >= self.interval:
            self.last = now
            return True
        self.held += 1
        return False


class WebhookSink:
    """Posts audit records to a URL from a background thread.

    Args:
        url: the endpoint.
        types: record types to send; empty sends every record.
        timeout_seconds: per POST.
        max_queue: records waiting at most; more are dropped.
        max_retries: retries of a failed POST.
        backoff_seconds: the first retry's delay, doubled for each next one.
        max_backoff_seconds: the longest delay between retries.
        failure_interval: seconds between two ``webhook_failed`` reports.
        on_failure: receives each ``webhook_failed`` event (called from the sink's thread).
        transport: an httpx transport (tests, proxies); httpx's default otherwise.
    """

    def __init__(
        self,
        url: str,
        types: Iterable[str] = (),
        *,
        timeout_seconds: float = 5.0,
        max_queue: int = 1000,
        max_retries: int = 5,
        backoff_seconds: float = 0.5,
        max_backoff_seconds: float = 30.0,
        failure_interval: float = 60.0,
        on_failure: FailureHook | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.url = url
        self.types = frozenset(types)
        self.max_retries = max_retries
        self.backoff_seconds = backoff_seconds
        self.max_backoff_seconds = max_backoff_seconds
        self.on_failure = on_failure
        self.delivered = self.failed = self.dropped = 0
        self._reported_drops = 0
        self._throttle = _Throttle(failure_interval)
        self._queue: queue.Queue[object] = queue.Queue(maxsize=max_queue)
        self._abort = threading.Event()
        import httpx  # only when a webhook is configured: keeps `mcpwall run` start-up short

        self._client = httpx.Client(timeout=timeout_seconds, transport=transport, follow_redirects=False)
        self._http_error = httpx.HTTPError
        self._thread = threading.Thread(target=self._run, name="mcpwall-webhook", daemon=True)
        self._thread.start()

    @classmethod
    def from_settings(cls, settings: WebhookSettings, on_failure: FailureHook | None = None) -> WebhookSink | None:
        """The sink configured by ``settings``, or None when no URL is set."""
        if settings.url is None:
            return None
        return cls(
            settings.url,
            settings.types,
            timeout_seconds=settings.timeout_seconds,
            max_queue=settings.max_queue,
            max_retries=settings.max_retries,
            on_failure=on_failure,
        )

    def offer(self, record: dict[str, Any]) -> bool:
        """Queue one record for sending if its type is selected; never waits.

        Returns:
            True when queued; False when not selected, or dropped because the queue is full.
        """
        kind = record.get("type")
        if kind == FAILED_EVENT or (self.types and kind not in self.types):
            return False
        try:
            self._queue.put_nowait(record)
        except queue.Full:
            self.dropped += 1
            return False
        return True

    def close(self, timeout: float = 5.0) -> bool:
        """Send what is queued for up to ``timeout`` seconds, then stop.

        Returns:
            True when everything queued was sent or given up on (the thread has stopped).
        """
        end = time.monotonic() + timeout
        try:
            self._queue.put(_STOP, timeout=timeout)
        except queue.Full:
            self._abort.set()
        self._thread.join(max(0.0, end - time.monotonic()))
        if self._thread.is_alive():
            self._abort.set()
            self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        try:
            while not self._abort.is_set():
                record = self._queue.get()
                if not isinstance(record, dict):  # close()'s stop marker
                    break
                self._deliver(record)
            self._final_report()
        finally:
            self._client.close()

    def _deliver(self, record: dict[str, Any]) -> None:
        body = orjson.dumps(record)
        status: int | None = None
        error = ""
        for attempt in range(self.max_retries + 1):
            if attempt and self._abort.wait(min(self.backoff_seconds * 2 ** (attempt - 1), self.max_backoff_seconds)):
                break
            status, error = self._post(body)
            if status is not None and status < 300:
                self.delivered += 1
                return
            if status is not None and status < 500 and status not in RETRY_STATUSES:
                break
        self.failed += 1
        self._report(status, error or f"HTTP {status}")

    def _post(self, body: bytes) -> tuple[int | None, str]:
        try:
            response = self._client.post(self.url, content=body, headers={"content-type": "application/json"})
        except self._http_error as exc:
            return None, f"{type(exc).__name__}: {exc}"
        return response.status_code, ""

    def _report(self, status: int | None, error: str) -> None:
        if self.on_failure is None or not self._throttle.allow():
            return
        held, self._throttle.held = self._throttle.held, 0
        drops, self._reported_drops = self.dropped - self._reported_drops, self.dropped
        self.on_failure(
            {
                "type": FAILED_EVENT,
                "url": redacted(self.url),
                "status": status,
                "error": error[:300],
                "failed": self.failed,
                "dropped": drops,
                "unreported_failures": held,
            }
        )

    def _final_report(self) -> None:
        if self._throttle.held or self.dropped > self._reported_drops:
            self._throttle.last = float("-inf")
            self._report(None, "unreported failures or drops at close")
