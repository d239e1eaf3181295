"""The gateway's view of the audit trail: typed helpers that stamp and append events."""

from __future__ import annotations

import hashlib
import time
from queue import SimpleQueue
from typing import Any

import orjson

from mcpwall.audit.chain import AuditChain
from mcpwall.audit.webhook import WebhookSink


def arguments_digest(arguments: Any) -> str:
    """SHA-256 of the canonical JSON of a call's arguments."""
    return hashlib.sha256(orjson.dumps(arguments, option=orjson.OPT_SORT_KEYS)).hexdigest()


class Auditor:
    """Stamps events with time, session and server and appends them to the chain.

    Args:
        chain: where records go.
        session: the mcpwall session id.
        server: the server identity.
        keep_arguments: characters of arguments to keep in records (0: only their hash).
    """

    def __init__(self, chain: AuditChain, *, session: str, server: str, keep_arguments: int = 0) -> None:
        self.chain = chain
        self.session = session
        self.server = server
        self.keep_arguments = keep_arguments
        self._queue: list[dict[str, Any]] = []
        self._from_threads: SimpleQueue[dict[str, Any]] = SimpleQueue()
        self.sink: WebhookSink | None = None

    def emit(self, event_type: str, **fields: Any) -> None:
        """Queue one event; `flush` writes it (the gateway flushes before forwarding anything)."""
        event = {"type": event_type, "ts": time.time(), "session": self.session, "server": self.server}
        event.update(fields)
        self._queue.append(event)

    def flush(self) -> None:
        """Write every queued event to the chain.

        Raises:
            OSError: when the trail cannot be written; the gateway then forwards nothing.
        """
        while not self._from_threads.empty():
            self._queue.append(self._from_threads.get_nowait())
        if self._queue:
            events, self._queue = self._queue, []
            records = self.chain.append_many(events)
            if self.sink is not None:
                for record in records:
                    self.sink.offer(record)

    def attach(self, sink: WebhookSink | None) -> None:
        """Send every record to a webhook as well; its failures come back as audit events."""
        self.sink = sink

    def report(self, event: dict[str, Any]) -> None:
        """Queue an event from another thread (the webhook's); written at the next flush."""
        stamped = {"ts": time.time(), "session": self.session, "server": self.server, **event}
        self._from_threads.put(stamped)

    def close(self) -> None:
        """Flush, stop the webhook (bounded), and close the chain."""
        self.flush()
        if self.sink is not None:
            self.sink.close(timeout=5.0)
            self.sink = None
        self.flush()
        self.chain.close()

    def arguments(self, arguments: Any) -> dict[str, Any]:
        """The audit form of a call's arguments: a hash, plus a truncated copy if configured."""
        out: dict[str, Any] = {"arguments_sha256": arguments_digest(arguments)}
        if self.keep_arguments:
            out["arguments"] = orjson.dumps(arguments).decode()[: self.keep_arguments]
        return out
