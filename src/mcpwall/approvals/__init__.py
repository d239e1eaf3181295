"""Approvals: tickets bound to the exact call, decided by a human on a channel the model cannot reach.

- ``binding`` — the SHA-256 a ticket is bound to: server, tool, pinned definition hash,
  canonical arguments and policy revision. A changed argument, definition or policy needs a
  new approval; a ticket of one session never approves a call of another.
- ``settings`` — the channel (hold, ticket, elicitation) and its timings.
- ``gate`` — `ApprovalGate`: whether a call that needs confirmation may go now, must wait for
  a human, or is refused; the store holds the tickets, shared with ``mcpwall approvals``.
"""
