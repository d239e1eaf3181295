"""The audit trail: every decision and lifecycle event, hash-chained, in a JSONL file.

`AuditChain` appends records (safe across processes); `verify` checks a file; `Auditor` is what
the gateway calls: it stamps events with time, session and server, and hashes arguments.
"""

from mcpwall.audit.auditor import Auditor
from mcpwall.audit.chain import AuditChain
from mcpwall.audit.verify import Verification, verify

__all__ = ["AuditChain", "Auditor", "Verification", "verify"]
