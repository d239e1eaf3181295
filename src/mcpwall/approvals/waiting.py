"""Waiting for a human's decision on a held call (the ``hold`` channel)."""

from __future__ import annotations

import asyncio

from mcpwall.approvals.gate import ApprovalGate


async def decision(gate: ApprovalGate, ticket: str) -> str:
    """Poll the shared store until the ticket is decided or the hold times out.

    Returns:
        ``approved``, ``denied``, or ``expired`` (a timeout is recorded as a denial).
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + gate.settings.hold_seconds
    status = gate.status(ticket)
    while status == "pending" and loop.time() < deadline:
        await asyncio.sleep(gate.settings.poll_seconds)
        status = gate.status(ticket)
    if status == "pending":
        gate.decide(ticket, approve=False, channel="timeout", by="mcpwall")
        status = "expired"
    return status
