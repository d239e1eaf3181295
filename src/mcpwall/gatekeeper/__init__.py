"""The gatekeeper: every tools/call resolves to exactly one permission level. Pure; no I/O.

How one call is decided (:func:`evaluate` writes this order down once)::

    classify (kinds)            override > trusted annotations > name verbs; UNKNOWN is strict
      -> assess (danger_zone)   command arguments raise the default level, may pin it
      -> resolve (resolver)     profiles: deny > confirm > allow > default; read-only sessions
      -> gate (danger_zone)     a session past its risk budget denies every non-READ call

After the call executed, ``DangerZone.record`` adds its risk to the session's
:class:`RiskBudget`, which the store persists.

Modules:
    kinds         OperationKind, Classification, classify
    verbs         the verb table (data) and tool-name word splitting
    settings      config models: GatekeeperSettings, ProfileBody, OperationOverride, DangerZoneSettings
    profiles      Profile, recovery operations, active_profiles, validate_profiles
    resolver      Resolution (with explain data), resolve
    command_parse shell-like text to simple commands, wrappers stripped, substitutions found
    command_rules per-program risk rules; git_rules for git
    command_risk  CommandRisk, classify_command
    danger_zone   RiskBudget, DangerZone, find_commands
    evaluate      evaluate: the whole chain for one call
"""

from mcpwall.gatekeeper.command_risk import CommandRisk, RiskLevel, classify_command
from mcpwall.gatekeeper.danger_zone import DangerZone, RiskBudget, find_commands
from mcpwall.gatekeeper.evaluate import evaluate
from mcpwall.gatekeeper.kinds import DEFAULT_LEVELS, Classification, KindSource, OperationKind, classify
from mcpwall.gatekeeper.profiles import (
    APPROVE,
    CONFIRM_PSEUDO_OPERATION,
    RECOVERY_OPERATIONS,
    REJECT,
    RELEASE,
    ListName,
    Profile,
    active_profiles,
    is_recovery,
    validate_profiles,
)
from mcpwall.gatekeeper.resolver import Conflict, ProfileEffect, Resolution, resolve
from mcpwall.gatekeeper.settings import DangerZoneSettings, GatekeeperSettings, OperationOverride, ProfileBody

__all__ = [
    "APPROVE",
    "CONFIRM_PSEUDO_OPERATION",
    "DEFAULT_LEVELS",
    "RECOVERY_OPERATIONS",
    "REJECT",
    "RELEASE",
    "Classification",
    "CommandRisk",
    "Conflict",
    "DangerZone",
    "DangerZoneSettings",
    "GatekeeperSettings",
    "KindSource",
    "ListName",
    "OperationKind",
    "OperationOverride",
    "Profile",
    "ProfileBody",
    "ProfileEffect",
    "Resolution",
    "RiskBudget",
    "RiskLevel",
    "active_profiles",
    "classify",
    "classify_command",
    "evaluate",
    "find_commands",
    "is_recovery",
    "resolve",
    "validate_profiles",
]
