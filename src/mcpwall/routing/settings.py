"""Settings of the aggregate gateway (``mcpwall serve``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class RoutingSettings(BaseModel):
    """How one gateway fronts many servers."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pool_size: int = Field(default=5, ge=1, le=256)
    """At most this many upstream servers run at once; the least recently used idle one is
    stopped to start another (its pins are kept, it restarts on next use)."""
    call_timeout_seconds: float = Field(default=30.0, gt=0)
    """A call an upstream has not answered after this long gets an error (TIMEOUT in the audit)."""
    start_timeout_seconds: float = Field(default=30.0, gt=0)
    """How long an upstream may take to start and answer initialize."""
    health_interval_seconds: float = Field(default=30.0, gt=0)
    """Running upstreams are pinged this often; one that does not answer is stopped (and
    restarted on its next use)."""
    max_backoff_seconds: float = Field(default=60.0, gt=0)
    """After repeated failures an upstream is not restarted for 1, 2, 4 ... up to this many
    seconds; meanwhile its calls are answered at once with UPSTREAM_UNAVAILABLE."""
    routes: dict[str, str] = Field(default_factory=dict)
    """Glob over tool names → server, tried after the exact (namespaced) names: ``"web.*": fetch``."""
