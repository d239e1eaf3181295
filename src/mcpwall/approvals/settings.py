"""How a human is asked to confirm a call."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class ApprovalSettings(BaseModel):
    """Confirmation channels and their timings."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    channel: Literal["hold", "ticket", "elicitation"] = "hold"
    """``hold``: the call waits while a human runs ``mcpwall approvals approve ID`` elsewhere;
    ``ticket``: the model is told at once that the user must approve ticket ID, and an identical
    retry after approval proceeds once; ``elicitation``: the user is asked through the client
    (when it declared the elicitation capability; otherwise ``hold``)."""
    hold_seconds: float = Field(default=120.0, gt=0, le=3600)
    """How long a held call waits for a decision; then it is denied."""
    ticket_seconds: float = Field(default=600.0, gt=0, le=86400)
    """How long a ticket can be approved."""
    poll_seconds: float = Field(default=0.2, gt=0, le=5)
    """How often a held call looks for a decision in the shared state database."""
