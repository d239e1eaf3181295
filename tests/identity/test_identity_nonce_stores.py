"""Envelope nonce stores: the same claims against memory, the SQLite state database and a real Redis.

Every store answers the same table (fresh, replayed, full, expired). The shared ones are then
shown to be shared: two verifiers, two OS processes and several racing processes over one state
directory or one ``redis-server`` (started by the test, see tests/redis_server.py) refuse a
replay, and exactly one of several simultaneous claims of a nonce wins. Clocks are pinned.
"""

from __future__ import annotations

import selectors
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from subprocess import PIPE

import anyio
import orjson
import pytest
from identity_keys import NOW, ed25519_key

from mcpwall.identity import (
    Authenticator,
    EnvelopeSettings,
    EnvelopeVerifier,
    IdentityError,
    IdentityFailure,
    IdentitySettings,
    NonceOutcome,
    NonceStore,
    encode_public_key,
    open_nonce_store,
    sign_request,
)
from mcpwall.store import SqliteStore
from redis_server import free_port, running_redis

pytestmark = pytest.mark.anyio

FRESH, REPLAYED, FULL = NonceOutcome.FRESH, NonceOutcome.REPLAYED, NonceOutcome.FULL
WAIT = 10.0
"""Seconds any one wait of these tests may take."""
PROCESS_TIMEOUT = 60
"""Seconds a subprocess may take; it is killed past that."""
BODY = b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}'


@pytest.fixture(params=["memory", "state", "redis"])
def setting(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each store's ``nonce_store`` setting (a private redis-server for ``redis``)."""
    if request.param != "redis":
        yield request.param
        return
    with running_redis() as uri:
        yield uri


@pytest.fixture(params=["state", "redis"])
def shared(request: pytest.FixtureRequest) -> Iterator[str]:
    """The setting of each store shared between processes."""
    if request.param == "state":
        yield "state"
        return
    with running_redis() as uri:
        yield uri


def opened(setting: str, state: Path, max_per_key: int = 10) -> NonceStore:
    return open_nonce_store(setting, max_per_key=max_per_key, configured_state_dir=str(state))


async def claims(store: NonceStore, *attempts: tuple[str, str, float, float]) -> list[NonceOutcome]:
    """The outcomes of ``(key, nonce, expires_at, now)`` claims, in order."""
    with anyio.fail_after(WAIT):
        return [await store.claim(key, nonce, expires_at=expires, now=now) for key, nonce, expires, now in attempts]


async def test_each_store_refuses_a_nonce_used_again_while_it_lives(setting: str, tmp_path: Path) -> None:
    store = opened(setting, tmp_path)
    try:
        outcomes = await claims(
            store,
            ("k", "nonce-a", NOW + 30, NOW),
            ("k", "nonce-a", NOW + 31, NOW + 1),
            ("k", "nonce-a", NOW + 60, NOW + 30),
            ("other", "nonce-a", NOW + 30, NOW),
        )
    finally:
        await store.aclose()
    assert outcomes == [FRESH, REPLAYED, REPLAYED, FRESH]


async def test_each_store_forgets_a_nonce_only_after_its_expiry(setting: str, tmp_path: Path) -> None:
    store = opened(setting, tmp_path)
    try:
        outcomes = await claims(
            store,
            ("k", "nonce-a", NOW + 30, NOW),
            ("k", "nonce-a", NOW + 60, NOW + 30),
            ("k", "nonce-a", NOW + 60.001, NOW + 30.001),
        )
    finally:
        await store.aclose()
    assert outcomes == [FRESH, REPLAYED, FRESH]


async def test_full_key_is_refused_without_forgetting_a_live_nonce(setting: str, tmp_path: Path) -> None:
    store = opened(setting, tmp_path, max_per_key=2)
    try:
        outcomes = await claims(
            store,
            ("k", "n1", NOW + 10, NOW),
            ("k", "n2", NOW + 30, NOW),
            ("k", "n3", NOW + 30, NOW),
            ("k", "n1", NOW + 10, NOW + 5),
            ("k", "n2", NOW + 30, NOW + 5),
            ("other", "n3", NOW + 30, NOW + 5),
            ("k", "n3", NOW + 40, NOW + 11),
            ("k", "n4", NOW + 40, NOW + 11),
        )
    finally:
        await store.aclose()
    assert outcomes == [FRESH, FRESH, FULL, REPLAYED, REPLAYED, FRESH, FRESH, FULL]


async def test_count_of_a_key_comes_back_down_as_its_nonces_expire(setting: str, tmp_path: Path) -> None:
    store = opened(setting, tmp_path, max_per_key=3)
    try:
        filled = await claims(store, *[("k", f"old-{n}", NOW + n, NOW) for n in range(3)])
        refilled = await claims(store, *[("k", f"new-{n}", NOW + 30, NOW + 10) for n in range(4)])
    finally:
        await store.aclose()
    assert filled == [FRESH] * 3
    assert refilled == [FRESH, FRESH, FRESH, FULL]


def envelope_settings(nonce_store: str) -> EnvelopeSettings:
    key = encode_public_key(ed25519_key("agent-1").public_key())
    return EnvelopeSettings.model_validate(
        {"keys": {"k1": {"subject": "agent-1", "public_key": key}}, "nonce_store": nonce_store}
    )


def signed(nonce: str | None = None) -> dict[str, str]:
    return sign_request(
        ed25519_key("agent-1"), key_id="k1", method="POST", path="/mcp", body=BODY, now=NOW, nonce=nonce
    )


async def verify(verifier: EnvelopeVerifier, headers: dict[str, str]) -> str:
    """The envelope's subject, or the refusal's failure code."""
    with anyio.fail_after(WAIT):
        try:
            return (await verifier.verify(method="POST", path="/mcp", headers=headers, body=BODY, now=NOW)).subject
        except IdentityError as error:
            return error.failure


@pytest.mark.requirement("identity:envelope-replay-refused")
async def test_replay_sent_to_a_second_verifier_is_refused_only_by_a_shared_store(setting: str, tmp_path: Path) -> None:
    settings, headers = envelope_settings(setting), signed()
    first = EnvelopeVerifier(settings, state_dir=str(tmp_path))
    second = EnvelopeVerifier(settings, state_dir=str(tmp_path))
    try:
        outcomes = [await verify(first, headers), await verify(second, headers)]
    finally:
        await first.aclose()
        await second.aclose()
    replay = "agent-1" if setting == "memory" else IdentityFailure.ENVELOPE_REPLAYED  # memory: each process its own
    assert outcomes == ["agent-1", replay]


VERIFY_SCRIPT = """
import sys, anyio, orjson
from mcpwall.identity import EnvelopeSettings, EnvelopeVerifier, IdentityError
settings, state_dir, headers, body, now = sys.argv[1], sys.argv[2], orjson.loads(sys.argv[3]), sys.argv[4], float(sys.argv[5])

async def main():
    verifier = EnvelopeVerifier(EnvelopeSettings.model_validate_json(settings), state_dir=state_dir)
    try:
        print((await verifier.verify(method="POST", path="/mcp", headers=headers, body=body.encode(), now=now)).subject)
    except IdentityError as error:
        print(error.failure)
    finally:
        await verifier.aclose()

anyio.run(main)
"""
"""One gateway-like process: verify one envelope against the configured store, print the outcome."""


def verify_in_process(settings: EnvelopeSettings, state: Path, headers: dict[str, str]) -> str:
    argv = [sys.executable, "-c", VERIFY_SCRIPT, settings.model_dump_json(), str(state), orjson.dumps(headers).decode()]
    argv += [BODY.decode(), repr(NOW)]
    done = subprocess.run(argv, capture_output=True, text=True, encoding="utf-8", timeout=PROCESS_TIMEOUT, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.requirement("identity:envelope-replay-refused")
def test_replay_sent_to_another_gateway_process_is_refused(shared: str, tmp_path: Path) -> None:
    settings, headers = envelope_settings(shared), signed()

    outcomes = [verify_in_process(settings, tmp_path, headers) for _ in range(2)]

    assert outcomes == ["agent-1", IdentityFailure.ENVELOPE_REPLAYED]


CLAIM_SCRIPT = """
import sys, anyio, orjson
from mcpwall.identity import open_nonce_store
setting, state_dir, now, nonces = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4:]

async def main():
    store = open_nonce_store(setting, max_per_key=100_000, configured_state_dir=state_dir)
    print("ready", flush=True)
    sys.stdin.readline()
    outcomes = [await store.claim("k", nonce, expires_at=now + 30, now=now) for nonce in nonces]
    await store.aclose()
    print(orjson.dumps(outcomes).decode())

anyio.run(main)
"""
"""One process claiming the same nonces as its siblings once all are ready; prints each outcome.
Racers go in pairs: the two of a pair claim the list in the same order, head to head, and the
other pair starts from its middle (on one shared order the first racer would stay ahead)."""
RACERS = 4


def await_ready(racer: subprocess.Popen[str]) -> None:
    """Wait (bounded) for a racer's ``ready`` line."""
    assert racer.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(racer.stdout, selectors.EVENT_READ)
        assert selector.select(timeout=PROCESS_TIMEOUT), "a racer did not get ready"
    assert racer.stdout.readline().strip() == "ready"


def race(setting: str, state: Path, nonces: list[str]) -> list[dict[str, str]]:
    """Start the racers, release them together once all are ready; each one's outcome by nonce."""
    starts = [racer // 2 * len(nonces) // 2 for racer in range(RACERS)]
    orders = [nonces[start:] + nonces[:start] for start in starts]
    argvs = [[sys.executable, "-c", CLAIM_SCRIPT, setting, str(state), repr(NOW), *order] for order in orders]
    racers = [subprocess.Popen(argv, stdin=PIPE, stdout=PIPE, stderr=PIPE, text=True) for argv in argvs]
    try:
        for racer in racers:
            await_ready(racer)
        for racer in racers:
            assert racer.stdin is not None
            racer.stdin.write("go\n")
            racer.stdin.flush()
        results = [racer.communicate(timeout=PROCESS_TIMEOUT) for racer in racers]
    finally:
        for racer in racers:
            racer.kill()
            racer.wait(timeout=PROCESS_TIMEOUT)
    assert [racer.returncode for racer in racers] == [0] * RACERS, [stderr for _, stderr in results]
    return [
        dict(zip(order, orjson.loads(stdout), strict=True)) for order, (stdout, _) in zip(orders, results, strict=True)
    ]


def test_exactly_one_of_several_processes_claiming_a_nonce_at_once_gets_it(shared: str, tmp_path: Path) -> None:
    nonces = [f"race-{n:04d}" for n in range(500)]
    if shared == "state":
        SqliteStore(tmp_path / "mcpwall.db").close()  # created before the race: the race is about claims

    outcomes = race(shared, tmp_path, nonces)

    winners = [sum(run[nonce] == "fresh" for run in outcomes) for nonce in nonces]
    assert winners == [1] * len(nonces)
    assert {outcome for run in outcomes for outcome in run.values()} == {"fresh", "replayed"}


async def test_state_store_remembers_nonces_across_a_restart(tmp_path: Path) -> None:
    before = opened("state", tmp_path)
    assert await claims(before, ("k", "nonce-a", NOW + 30, NOW)) == [FRESH]
    await before.aclose()

    after = opened("state", tmp_path)
    try:
        assert await claims(after, ("k", "nonce-a", NOW + 30, NOW + 1)) == [REPLAYED]
    finally:
        await after.aclose()


async def test_unreachable_redis_refuses_the_request(tmp_path: Path) -> None:
    verifier = EnvelopeVerifier(envelope_settings(f"redis://127.0.0.1:{free_port()}/0"))
    try:
        assert await verify(verifier, signed()) == IdentityFailure.ENVELOPE_NONCE_STORE_UNAVAILABLE
    finally:
        await verifier.aclose()


async def test_authenticator_uses_the_state_database_of_its_state_dir_by_default(tmp_path: Path) -> None:
    key = encode_public_key(ed25519_key("agent-1").public_key())
    settings = IdentitySettings.model_validate(
        {"envelope": {"keys": {"k1": {"subject": "agent-1", "public_key": key}}}, "agents": {"default": {}}}
    )
    headers, outcomes = signed(), []
    for _ in range(2):
        authenticator = Authenticator(settings, state_dir=str(tmp_path))
        try:
            with anyio.fail_after(WAIT):
                outcomes.append(
                    (
                        await authenticator.authenticate(
                            method="POST", path="/mcp", headers=headers, body=BODY, now=NOW
                        )
                    ).subject
                )
        except IdentityError as error:
            outcomes.append(error.failure)
        finally:
            await authenticator.aclose()

    assert settings.envelope is not None
    assert settings.envelope.nonce_store == "state"
    assert outcomes == ["agent-1", IdentityFailure.ENVELOPE_REPLAYED]
    assert (tmp_path / "mcpwall.db").exists()


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        ("memory", True),
        ("state", True),
        ("redis://127.0.0.1:6379/0", True),
        ("rediss://:secret@redis.internal:6380/2", True),
        ("redis://", False),
        ("sqlite:///tmp/nonces.db", False),
        ("memcached://127.0.0.1:11211", False),
        ("State", False),
    ],
)
def test_nonce_store_setting_names_a_known_store(value: str, valid: bool) -> None:
    data = {"keys": envelope_settings("memory").model_dump()["keys"], "nonce_store": value}
    if valid:
        assert EnvelopeSettings.model_validate(data).nonce_store == value
    else:
        with pytest.raises(ValueError, match="nonce_store must be"):
            EnvelopeSettings.model_validate(data)
