"""Scanning configured servers: start each, list its tools, inspect and pin them, stop it.

``scan_all(targets, ...)`` runs a few servers at a time (anyio task group and a capacity
limiter). For each :class:`~mcpwall.inspection.scan_targets.ScanTarget`:

1. the environment is built as for ``mcpwall run`` (baseline + allowed names + ``env``);
2. the official SDK client starts it over stdio (legacy handshake: every server speaks it),
   its stderr going to a scratch file (the last line is quoted when it fails);
3. ``tools/list`` is walked page by page, results kept as the raw JSON the server sent (the SDK's
   models would drop unknown keys and the pins would not match what the gateway sees);
4. a :class:`~mcpwall.inspection.review.ToolReviewer` reviews the listing against the store's
   pins, so the audit trail gets ``mcp_tool_seen`` (and ``mcp_detection`` /
   ``mcp_tool_changed``) events exactly as when the gateway lists the server.

Everything happens inside ``anyio.fail_after(timeout)``; leaving the client's context stops the
server. A server that cannot be started, answered wrongly or too late is reported in its
:class:`ServerScan` (and audited as ``mcp_scan_failed``), never raised.
"""

from __future__ import annotations

import io
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, TextIO

import anyio
import mcp_types
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from pydantic import BaseModel, ConfigDict, Field

from mcpwall.armor.environment import server_environment
from mcpwall.audit import AuditChain, Auditor
from mcpwall.inspection.findings import Finding, Severity
from mcpwall.inspection.pins import server_identity
from mcpwall.inspection.review import ToolReviewer
from mcpwall.inspection.scan_targets import ScanTarget
from mcpwall.inspection.settings import InspectionSettings
from mcpwall.store import Store

PAGE_CAP: Final = 100
"""The most tools/list pages read from one server: a paginator that never ends cannot hang a scan."""
STDERR_QUOTE: Final = 200
"""Characters of a failed server's last stderr line quoted in its report."""


class RawToolPage(BaseModel):
    """One tools/list result with every tool kept as the JSON object the server sent."""

    model_config = ConfigDict(extra="allow")

    tools: list[dict[str, Any]]
    next_cursor: str | None = Field(default=None, alias="nextCursor")


@dataclass(frozen=True, slots=True)
class ToolScan:
    """What the scan concluded about one tool.

    Attributes:
        name: the tool name.
        status: the pin status (``new``, ``unchanged``, ``changed``, ``approved``, ``blocked``).
        max_severity: the highest finding severity, or None.
        blocked: whether the gateway would hide it (and refuse its calls) until approved.
        findings: the findings, highest severity first.
    """

    name: str
    status: str
    max_severity: str | None
    blocked: bool
    findings: list[Finding] = field(default_factory=list)

    def reaches(self, threshold: Severity) -> bool:
        """Whether its worst finding is at or above ``threshold``."""
        return self.max_severity is not None and Severity.parse(self.max_severity) >= threshold


@dataclass(slots=True)
class ServerScan:
    """The outcome for one server: its tools, or why it could not be listed."""

    name: str
    identity: str
    tools: list[ToolScan] = field(default_factory=list)
    error: str | None = None

    def flagged(self, threshold: Severity) -> list[ToolScan]:
        """The tools with a finding at or above ``threshold``."""
        return [tool for tool in self.tools if tool.reaches(threshold)]

    @property
    def max_severity(self) -> Severity | None:
        """The highest severity over its tools, or None."""
        found = [Severity.parse(t.max_severity) for t in self.tools if t.max_severity is not None]
        return max(found, default=None)


@dataclass(frozen=True, slots=True)
class ScanContext:
    """What every server's scan shares: the store, settings, audit chain and limits."""

    store: Store
    settings: InspectionSettings
    chain: AuditChain
    session: str
    timeout: float
    parent_env: dict[str, str]


async def list_raw_tools(client: Client) -> list[dict[str, Any]]:
    """Every tool of a connected server, as raw JSON objects, following ``nextCursor``."""
    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(PAGE_CAP):
        request = mcp_types.ListToolsRequest(params=mcp_types.PaginatedRequestParams(cursor=cursor))
        page = await client.session.send_request(request, RawToolPage)
        tools += page.tools
        cursor = page.next_cursor
        if cursor is None:
            break
    return tools


def review_listing(context: ScanContext, identity: str, tools: list[dict[str, Any]]) -> list[ToolScan]:
    """Review a listing against the pins (audited as the gateway would) and describe each tool."""
    auditor = Auditor(context.chain, session=context.session, server=identity)
    reviewer = ToolReviewer(context.store, identity, context.settings, auditor)
    reviews = reviewer.review(tools)
    auditor.flush()
    reviewer.settle()
    described = []
    for tool in tools:
        review = reviews.get(str(tool.get("name")))
        if review is not None:
            _, findings = reviewer.inspector.inspect_tool(tool)
            described.append(ToolScan(review.tool, review.status, review.max_severity, review.blocked, findings))
    return described


async def _listed(target: ScanTarget, env: dict[str, str], errlog: TextIO) -> list[dict[str, Any]]:
    params = StdioServerParameters(command=target.command, args=target.args, env=env, cwd=target.cwd)
    async with Client(stdio_client(params, errlog=errlog), mode="legacy", cache=None) as client:
        return await list_raw_tools(client)


def _describe(exc: BaseException, errlog: TextIO) -> str:
    if isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        return _describe(exc.exceptions[0], errlog)
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    errlog.seek(0)
    lines = [line.strip() for line in errlog.read().splitlines() if line.strip()]
    return f"{text} (stderr: {lines[-1][:STDERR_QUOTE]})" if lines else text


async def scan_server(target: ScanTarget, context: ScanContext) -> ServerScan:
    """Start one server, list, review and pin its tools, and stop it.

    Args:
        target: the server to start.
        context: store, settings, audit chain, session id, timeout and mcpwall's environment.
    """
    identity = server_identity(target.argv, target.name)
    scan = ServerScan(target.name, identity)
    with io.TextIOWrapper(tempfile.TemporaryFile(), encoding="utf-8", errors="replace") as errlog:
        try:
            env, _ = server_environment(context.parent_env, target.allowed_env, target.env)
            with anyio.fail_after(context.timeout):
                tools = await _listed(target, env, errlog)
        except TimeoutError:
            scan.error = f"no tools/list answer within {context.timeout:g} s"
        except Exception as exc:  # noqa: BLE001 -- boundary: whatever one server does is reported, the scan goes on
            scan.error = _describe(exc, errlog)
    if scan.error is None:
        scan.tools = review_listing(context, identity, tools)
    else:
        context.chain.append(_failure_event(context.session, identity, scan.error))
    return scan


def _failure_event(session: str, server: str, error: str) -> dict[str, Any]:
    return {"type": "mcp_scan_failed", "ts": time.time(), "session": session, "server": server, "error": error}


async def scan_all(
    targets: list[ScanTarget],
    context: ScanContext,
    *,
    jobs: int = 4,
    on_done: Callable[[ServerScan], None] | None = None,
) -> list[ServerScan]:
    """Scan every target, ``jobs`` at a time; results in the targets' order.

    Args:
        targets: the servers to scan.
        context: what the scans share.
        jobs: how many servers run at once.
        on_done: called with each result as it completes (progress display).
    """
    results: list[ServerScan | None] = [None] * len(targets)
    limiter = anyio.CapacityLimiter(max(1, jobs))

    async def one(index: int, target: ScanTarget) -> None:
        async with limiter:
            result = await scan_server(target, context)
        results[index] = result
        if on_done is not None:
            on_done(result)

    async with anyio.create_task_group() as group:
        for index, target in enumerate(targets):
            group.start_soon(one, index, target)
    return [result for result in results if result is not None]


def parent_environment() -> dict[str, str]:
    """mcpwall's own environment (what allowed names and ``env:`` references read)."""
    return dict(os.environ)
