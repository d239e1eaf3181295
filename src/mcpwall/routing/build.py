"""Building an `Aggregate` for one client session: a link per configured server, each with its
own policy session (profiles from the client's identity), all writing to one audit chain, each
attached to the gateway's shared `UpstreamPool` (one server process per gateway, not per session)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from mcpwall.assembly import session_policy
from mcpwall.audit import AuditChain, Auditor
from mcpwall.config.models import Config
from mcpwall.routing.aggregate import Aggregate, Manifest
from mcpwall.routing.link import UpstreamLink
from mcpwall.routing.pool import UpstreamPool
from mcpwall.store import Store


def build_aggregate(
    config: Config,
    *,
    session: str,
    chain: AuditChain,
    store: Store,
    pool: UpstreamPool,
    send: Callable[[bytes], None],
    flush: Callable[[], None],
    profiles: Sequence[str] = (),
    manifest: Manifest | None = None,
) -> Aggregate:
    """An aggregate over every server of ``config`` (all in ``pool``) for one client session.

    Raises:
        ConfigError: when a profile is unknown.
    """
    aggregate: Aggregate | None = None

    def deliver(link: UpstreamLink, message: dict[str, object]) -> None:
        assert aggregate is not None  # noqa: S101 -- set below, before any link starts
        aggregate.deliver(link, message)

    links = {}
    for name in config.servers:
        upstream, identity, spec = pool.port(name), pool.identities[name], config.servers[name]
        auditor = Auditor(chain, session=session, server=identity, keep_arguments=config.audit.record_arguments)
        policy = session_policy(config, spec, identity, session, profiles, store, auditor)
        links[name] = UpstreamLink(
            identity,
            upstream,
            replace(policy, secrets=upstream.secrets, shared_budget=len(config.servers) > 1),
            auditor,
            deliver,
            flush,
            config.wire.max_line_bytes,
        )
    front_audit = Auditor(chain, session=session, server="mcpwall")
    aggregate = Aggregate(links, config.routing, front_audit, send, manifest)
    return aggregate
