"""The pipeline of checks: `Verdict` and `Decision` values, the `Check` base, the `Pipeline`.

The order of checks is written in one place, `mcpwall.pipeline.order.default_checks`. Adding a
check is one module plus one line there.
"""

from mcpwall.pipeline.check import Check, Context
from mcpwall.pipeline.runner import Pipeline
from mcpwall.pipeline.verdict import Decision, PermissionLevel, Verdict

__all__ = ["Check", "Context", "Decision", "PermissionLevel", "Pipeline", "Verdict"]
