"""What a fixture server received, written where a test can read it back.

Every fixture server built on the SDK installs `RecordCalls` as middleware. When the
environment variable `FIXTURE_LOG` names a file, each inbound `tools/call` is appended to
it as one JSON line, before the tool runs:

    {"method": "tools/call", "name": "echo", "arguments": {"text": "hi"},
     "protocol_version": "2026-07-28", "request_id": 3, "params": {...raw params...}}

`params` is the request's params exactly as the SDK decoded them off the wire, `_meta`
included, so a test can assert what the upstream really got. With `FIXTURE_LOG_ALL=1`
every inbound request and notification is recorded, not only `tools/call`.

This file is imported by the fixture scripts from their own directory (a script's
directory is first on `sys.path`); it is not a test module.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext

LOG_ENV = "FIXTURE_LOG"
LOG_ALL_ENV = "FIXTURE_LOG_ALL"


def record(entry: Mapping[str, Any]) -> None:
    """Append one JSON line to the file named by `FIXTURE_LOG`; a no-op when it is unset."""
    path = os.environ.get(LOG_ENV)
    if not path:
        return
    line = json.dumps(entry, ensure_ascii=False, default=str) + "\n"
    # One write of one line in append mode: lines from concurrent calls never interleave.
    with open(path, "a", encoding="utf-8") as log:
        log.write(line)


class RecordCalls:
    """Server middleware that records inbound `tools/call` requests (or everything)."""

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method == "tools/call" or os.environ.get(LOG_ALL_ENV) == "1":
            params = dict(ctx.params or {})
            record(
                {
                    "method": ctx.method,
                    "name": params.get("name"),
                    "arguments": params.get("arguments"),
                    "protocol_version": ctx.protocol_version,
                    "request_id": ctx.request_id,
                    "params": params,
                }
            )
        return await call_next(ctx)
