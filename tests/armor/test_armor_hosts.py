"""Host reading: IP literals in every notation, IDNA, confusables, public vs local."""

from __future__ import annotations

import ipaddress

import pytest

from mcpwall.armor.hosts import HostError, is_local_name, is_public_ip, parse_host

UNSPECIFIED = "0.0.0.0"  # noqa: S104 -- an address under test, nothing binds to it


@pytest.mark.parametrize(
    ("host", "canonical"),
    [
        ("127.0.0.1", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("0x7F000001", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("0177.0.0.01", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"),
        ("127.0.0.1.", "127.0.0.1"),
        ("0", UNSPECIFIED),
        ("0x", UNSPECIFIED),
        ("169.254.43518", "169.254.169.254"),
        ("[::1]", "::1"),
        ("::1", "::1"),
        ("[::ffff:127.0.0.1]", "::ffff:7f00:1"),
        ("[FE80::1%25eth0]", "fe80::1"),
        ("GitHub.COM", "github.com"),
        ("github.com.", "github.com"),
        ("bücher.de", "xn--bcher-kva.de"),
        ("xn--bcher-kva.de", "xn--bcher-kva.de"),
        ("\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com", "example.com"),
        ("例え.jp", "xn--r8jz45g.jp"),
        ("under_score.example.com", "under_score.example.com"),
    ],
)
def test_hosts_reduce_to_one_canonical_form(host: str, canonical: str) -> None:
    assert parse_host(host).name == canonical


@pytest.mark.parametrize(
    "host",
    [
        "",
        ".",
        "a..b",
        "1.2.3.4.5",
        "256.1.1.1",
        "1.16777216",
        "4294967296",
        "08.0.0.1",
        "foo.0x10",
        "foo.123",
        "[::1",
        "[zz::1]",
        "-bad.com",
        "bad-.com",
        "a" * 64 + ".com",
        "x" * 254,
        "xn--pple-43d.com",
        "\u0430pple.com",
        "\u0430\u0440\u0440\u04cf\u0435.com",
        "\u03bf\u03c1\u03b5\u03bd.com",
        "xn--zz.com",
        "exa mple.com",
    ],
)
def test_malformed_or_confusable_hosts_are_refused(host: str) -> None:
    with pytest.raises(HostError):
        parse_host(host)


@pytest.mark.parametrize("host", ["пример.рф", "münchen.de", "中文.cn", "日本語の例.jp"])
def test_single_script_international_names_are_accepted(host: str) -> None:
    assert parse_host(host).name.startswith("xn--")


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("8.8.8.8", True),
        ("2001:4860:4860::8888", True),
        ("127.0.0.1", False),
        ("10.1.2.3", False),
        ("169.254.169.254", False),
        ("100.64.0.1", False),
        ("224.0.0.1", False),
        ("239.255.255.250", False),
        ("240.0.0.1", False),
        (UNSPECIFIED, False),
        ("192.0.2.1", False),
        ("::", False),
        ("::1", False),
        ("fe80::1", False),
        ("fc00::1", False),
        ("ff02::1", False),
        ("::ffff:10.0.0.1", False),
        ("::ffff:8.8.8.8", False),
        ("64:ff9b::a00:1", False),
        ("64:ff9b::808:808", False),  # Python calls NAT64 reserved: refused either way
        ("2002:a00:1::", False),
        ("2002:808:808::", True),
        ("2001:0:4136:e378:8000:63bf:f5ff:fffe", False),
    ],
)
def test_only_global_unicast_addresses_are_public(address: str, public: bool) -> None:
    assert is_public_ip(ipaddress.ip_address(address)) is public


@pytest.mark.parametrize(
    ("name", "local"),
    [
        ("localhost", True),
        ("a.localhost", True),
        ("metadata", True),
        ("metadata.google.internal", True),
        ("nas.local", True),
        ("router.home.arpa", True),
        ("example.com", False),
        ("notlocalhost.com", False),
        ("internal.example.com", False),
    ],
)
def test_local_only_names_are_recognised(name: str, local: bool) -> None:
    assert is_local_name(name) is local
