"""Putting a gateway together from a configuration: checks, policy, audit trail, server process."""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Sequence
from dataclasses import replace

from mcpwall.approvals.gate import ApprovalGate
from mcpwall.armor.ceiling import apply_ceiling
from mcpwall.armor.settings import ArmorSettings
from mcpwall.audit import AuditChain, Auditor
from mcpwall.audit.webhook import WebhookSink
from mcpwall.config.models import Config, ServerSpec
from mcpwall.errors import ConfigError
from mcpwall.gatekeeper.profiles import active_profiles, validate_profiles
from mcpwall.gateway import StdioGateway
from mcpwall.inspection.other import OtherDefinitions
from mcpwall.inspection.review import ToolReviewer
from mcpwall.pipeline import Check, Pipeline
from mcpwall.pipeline.order import default_checks
from mcpwall.session import Policy
from mcpwall.state import AUDIT_FILE, state_dir
from mcpwall.store import Store, default_store
from mcpwall.transports.stdio import StdioUpstream


def policy_revision(config: Config) -> str:
    """A short hash of the whole configuration: approvals are bound to it."""
    return hashlib.sha256(config.model_dump_json().encode()).hexdigest()[:16]


def effective_armor(config: Config, spec: ServerSpec) -> ArmorSettings:
    """A server's argument policy, bounded by the top-level one (the gateway's ceiling)."""
    return apply_ceiling(spec.armor, config.armor) if spec.armor else config.armor


def session_checks(config: Config, spec: ServerSpec) -> list[Check]:
    """The checks of a session with this server, in pipeline order."""
    return default_checks(spec.tools or config.tools, effective_armor(config, spec), config.gatekeeper)


def session_policy(
    config: Config,
    spec: ServerSpec,
    identity: str,
    session: str,
    profiles: Sequence[str],
    store: Store,
    auditor: Auditor,
) -> Policy:
    """Everything that decides one session's calls.

    Raises:
        ConfigError: when a profile is unknown.
    """
    names = list(profiles) or config.gatekeeper.default_profiles
    problems = validate_profiles(config.gatekeeper, names)
    if problems:
        raise ConfigError("; ".join(problems), path="gatekeeper.profiles")
    armor = effective_armor(config, spec)
    checks = session_checks(config, spec)
    reviewer = ToolReviewer(store, identity, config.inspection, auditor)
    return Policy(
        pipeline=Pipeline(checks),
        armor=armor,
        reviewer=reviewer,
        others=OtherDefinitions(store, identity, config.inspection, lambda: reviewer.rules, auditor),
        gate=ApprovalGate(store, identity, session, config.approvals, policy_revision(config)),
        store=store,
        danger=config.gatekeeper.danger_zone,
        profiles=tuple(active_profiles(config.gatekeeper, names)),
    )


def build_stdio_gateway(
    config: Config, upstream: StdioUpstream, identity: str, spec: ServerSpec, profiles: Sequence[str] = ()
) -> StdioGateway:
    """A gateway for ``mcpwall run`` in front of a server `prepare_upstream` made.

    The server may already be running (``mcpwall run`` spawns it first, so that its start-up
    overlaps mcpwall's); if building the gateway fails, it is killed.

    Args:
        config: the configuration.
        upstream: the server process.
        identity: the server's identity (pins, audit).
        spec: its config entry (or an empty one).
        profiles: gatekeeper profiles to activate (default: the config's).

    Raises:
        ConfigError: when a profile is unknown.
    """
    try:
        return _gateway(config, upstream, identity, spec, profiles)
    except BaseException:
        upstream.abandon()
        raise


def _gateway(
    config: Config, server: StdioUpstream, identity: str, spec: ServerSpec, profiles: Sequence[str]
) -> StdioGateway:
    session = uuid.uuid4().hex
    chain = AuditChain(state_dir(config.state_dir) / AUDIT_FILE)
    auditor = Auditor(chain, session=session, server=identity, keep_arguments=config.audit.record_arguments)
    auditor.attach(WebhookSink.from_settings(config.audit.webhook, on_failure=auditor.report))
    store = default_store(config.state_dir)
    policy = session_policy(config, spec, identity, session, profiles, store, auditor)
    policy = replace(policy, secrets=server.secrets)
    profile_names = [p.name for p in policy.profiles]
    store.upsert_session(
        session, server=identity, era="unknown", client_info={}, profiles=profile_names, started=time.time()
    )
    return StdioGateway(server=identity, upstream=server, policy=policy, auditor=auditor, wire=config.wire)
