"""Network rule: strict URL and host reading, private addresses, domain allowlists."""

from __future__ import annotations

import pytest

from mcpwall.armor.network import check_network
from mcpwall.armor.settings import ArmorSettings

ALLOWLIST = ArmorSettings(allowed_domains=["*.github.com", "example.org", "bücher.de", "93.184.216.34"])
OPEN = ArmorSettings()


def _type(value: str, settings: ArmorSettings) -> str | None:
    found = check_network(value, settings)
    return found.type if found is not None else None


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://2130706433/",
        "http://0x7f.1/",
        "http://0x7f000001/",
        "http://0177.0.0.1/",
        "http://0177.1/",
        "http://127.1/",
        "http://127.0.0.1./",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:7f00:1]/",
        "http://[0:0:0:0:0:ffff:127.0.0.1]/",
        "http://[64:ff9b::7f00:1]/",
        "http://[2002:7f00:1::]/",
        "http://[::127.0.0.1]/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[fe80::1]/",
        "http://10.0.0.1/",
        "http://0300.0250.0.1/",
        "http://172.16.0.1/",
        "http://100.64.0.1/",
        "http://0.0.0.0/",
        "http://0/",
        "http://224.0.0.1/",
        "http://255.255.255.255/",
        "http://localhost:8080/",
        "http://LOCALHOST/",
        "http://app.localhost/",
        "http://metadata.google.internal/",
        "http://printer.local/",
        "http://metadata/",
        "http://%31%32%37.0.0.1/",
        "http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/",
        "http://127\u30020\u30020\u30021/",
        "http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/",
        "localhost",
        "10.0.0.1:22",
        "user@192.168.1.1",
        "::1",
        "[::1]:80",
        "2130706433",
        "127.1",
    ],
)
def test_private_loopback_link_local_and_local_hosts_are_refused(url: str) -> None:
    assert _type(url, OPEN) == "NetworkNotAllowed"
    assert _type(url, OPEN.model_copy(update={"allow_private_networks": True})) is None


@pytest.mark.parametrize(
    "url",
    [
        "https://good.com@evil.com/",
        "https://user:pass@example.org/",
        "https://example.org\\@evil.com/",
        "https://example.org\\evil.com/",
        "ssh://git\\@evil.com/x",
        "git@a\\b.com:repo",
        "https://xn--pple-43d.com/",
        "https://\u0430pple.com/",
        "https://\u0430\u0440\u0440\u04cf\u0435.com/",
        "https://paypa\u04cf.com/",
        "https://exa%40mple.org/",
        "https://%2565xample.org/",
        "https://example.org:99999/",
        "https://example.org:80a/",
        "https://ex ample.org/",
        "https://example..org/",
        "https://evil.com../",
        "http://1.2.3.4.5/",
        "http://foo.0x10/",
        "http://08.0.0.1/",
        "http:///",
        "https://[::1/",
        "https://[v1.x]/",
    ],
)
def test_ambiguous_or_malformed_host_is_refused_even_without_an_allowlist(url: str) -> None:
    assert _type(url, OPEN) == "DomainNotAllowed"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://api.github.com/repos", None),
        ("https://a.b.github.com/", None),
        ("https://API.GitHub.com./x", None),
        ("https://github.com/", "DomainNotAllowed"),
        ("https://evilgithub.com/", "DomainNotAllowed"),
        ("https://github.com.evil.com/", "DomainNotAllowed"),
        ("https://api.github.com.evil.com/", "DomainNotAllowed"),
        ("https://example.org/", None),
        ("https://example.org:8443/x?y#z", None),
        ("https://www.example.org/", "DomainNotAllowed"),
        ("https://example.org.evil.com/", "DomainNotAllowed"),
        ("https://evil.com/?next=https://example.org/", "DomainNotAllowed"),
        ("https://evil.com#@example.org", "DomainNotAllowed"),
        ("https://bücher.de/", None),
        ("https://xn--bcher-kva.de/", None),
        ("https://BÜCHER.de/", None),
        ("https://bucher.de/", "DomainNotAllowed"),
        ("https:\\\\example.org/", None),
        ("https:\\\\evil.com/", "DomainNotAllowed"),
        ("https:/evil.com/", "DomainNotAllowed"),
        ("//evil.com/x", "DomainNotAllowed"),
        ("ws://api.github.com/socket", None),
        ("ftp://evil.com/", "DomainNotAllowed"),
        ("ssh://git@api.github.com/x", None),
        ("ssh://git@evil.com/x", "DomainNotAllowed"),
        ("git@api.github.com:org/repo.git", None),
        ("git@evil.com:org/repo.git", "DomainNotAllowed"),
        ("https://93.184.216.34/", None),
        ("https://1572395042/", None),
        ("https://93.184.216.35/", "DomainNotAllowed"),
        ("https://8.8.8.8/", "DomainNotAllowed"),
        ("mail@example.org", None),
        ("mail@evil.com", "DomainNotAllowed"),
        ("evil.com", "DomainNotAllowed"),
        ("example.org:443", None),
        ("file:///etc/passwd", None),
        ("/var/run/socket", None),
        ("1 Main Street, Springfield", None),
    ],
)
def test_domain_allowlist_matches_exact_names_and_wildcard_subdomains_only(url: str, expected: str | None) -> None:
    assert _type(url, ALLOWLIST) == expected


@pytest.mark.parametrize("url", ["https://api.github.com/", "example.org", "8.8.8.8"])
def test_network_off_refuses_every_network_value(url: str) -> None:
    assert _type(url, ArmorSettings(allow_network=False)) == "NetworkNotAllowed"


@pytest.mark.parametrize("url", ["https://8.8.8.8/", "https://[2001:4860:4860::8888]/", "https://example.com/"])
def test_public_hosts_pass_without_an_allowlist(url: str) -> None:
    assert _type(url, OPEN) is None


def test_listing_a_private_address_does_not_admit_it_without_allow_private_networks() -> None:
    settings = ArmorSettings(allowed_domains=["10.0.0.5", "localhost"])
    assert _type("http://10.0.0.5/", settings) == "NetworkNotAllowed"
    assert _type("http://localhost/", settings) == "NetworkNotAllowed"
    admitted = settings.model_copy(update={"allow_private_networks": True})
    assert _type("http://10.0.0.5/", admitted) is None
    assert _type("http://10.0.0.6/", admitted) == "DomainNotAllowed"


def test_refusal_message_names_no_host() -> None:
    found = check_network("https://evil.com/", ALLOWLIST)
    assert found is not None
    assert "evil" not in found.message
    assert "evil.com" in found.reason
    assert found.detail["host"] == "evil.com"
