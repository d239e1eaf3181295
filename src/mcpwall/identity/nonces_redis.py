"""Envelope nonces in Redis, shared by gateway processes on several machines.

Each key id has one sorted set, ``mcpwall:envelope-nonces:KEY_ID``: members are its live nonces,
scores their expiry (epoch seconds). A claim is one Lua script, which Redis runs atomically:
drop the members that expired strictly before ``now``, answer REPLAYED if the nonce is a member,
FULL if the set holds ``max_per_key``, else add it. The sorted set is at once the replay set and
the per-key count (``ZCARD``), so nothing can drift between the two. The set's own TTL is set
*relative* (``EXPIRE``, from the caller's ``now`` to its latest expiry, plus a second): an
absolute ``EXPIREAT`` would read the caller's clock against Redis's, and a Redis clock ahead by
more than the window would drop live nonces at once and let them be replayed.

Needs the ``redis`` package (imported only when a ``redis://`` store is configured).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mcpwall.errors import ConfigError
from mcpwall.identity.errors import IdentityError, IdentityFailure
from mcpwall.identity.nonces import NonceOutcome

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.commands.core import AsyncScript

PREFIX: Final = "mcpwall:envelope-nonces:"
TIMEOUT: Final = 5.0
"""Seconds to connect and to wait for an answer (unless the URL sets them): past it the request
is refused rather than held."""

CLAIM_SCRIPT: Final = """
local live = KEYS[1]
local nonce, expires_at, now, max_per_key = ARGV[1], tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', live, '-inf', '(' .. now)
if redis.call('ZSCORE', live, nonce) then
    return 'replayed'
end
if redis.call('ZCARD', live) >= max_per_key then
    return 'full'
end
redis.call('ZADD', live, expires_at, nonce)
local last = tonumber(redis.call('ZRANGE', live, -1, -1, 'WITHSCORES')[2])
redis.call('EXPIRE', live, math.max(1, math.ceil(last - tonumber(now)) + 1))
return 'fresh'
"""


class RedisNonceStore:
    """Nonces in Redis, shared by every process that uses the same server and database.

    Args:
        url: ``redis://`` or ``rediss://`` (host, port, database, credentials).
        max_per_key: live nonces remembered per key before :attr:`NonceOutcome.FULL`.

    Raises:
        ConfigError: the ``redis`` package is not installed, or the URL cannot be parsed.
    """

    def __init__(self, url: str, *, max_per_key: int) -> None:
        try:
            from redis.asyncio import Redis
        except ImportError as exc:
            raise ConfigError(
                "a redis:// nonce store needs the redis package (pip install redis)",
                path="identity.envelope.nonce_store",
            ) from exc
        try:
            self._redis: Redis = Redis.from_url(url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT)
        except ValueError as exc:
            raise ConfigError(f"not a Redis URL: {exc}", path="identity.envelope.nonce_store") from exc
        self._script: AsyncScript = self._redis.register_script(CLAIM_SCRIPT)
        self._max_per_key = max_per_key

    async def claim(self, key_id: str, nonce: str, *, expires_at: float, now: float) -> NonceOutcome:
        """Check and remember ``nonce`` for ``key_id`` (see :meth:`NonceStore.claim`).

        Raises:
            IdentityError: ``ENVELOPE_NONCE_STORE_UNAVAILABLE`` when Redis cannot be asked.
        """
        from redis import RedisError

        arguments: list[str | int] = [nonce, repr(expires_at), repr(now), self._max_per_key]
        try:
            answer = await self._script(keys=[PREFIX + key_id], args=arguments)
        except RedisError as exc:
            raise IdentityError(IdentityFailure.ENVELOPE_NONCE_STORE_UNAVAILABLE, f"redis: {exc!r}") from exc
        return NonceOutcome(answer.decode("ascii") if isinstance(answer, bytes) else answer)

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._redis.aclose()
