"""Tests for pw_adaptive.core.soft404: probe URLs, site keys, probe pages learned
and matched per site, and the checkpoint form of the learned probes."""

from __future__ import annotations

import json
import random

import pytest

from fixtures_site.words import PORTAL_WORDS
from pw_adaptive.core.soft404 import Soft404Detector, site_key


def _long_text(seed: int, words: int = 400) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(PORTAL_WORDS) for _ in range(words))


@pytest.mark.parametrize(
    ("start", "expected_prefix"),
    [
        pytest.param(
            "https://u.edu/portal/index.html", "https://u.edu/pw-adaptive-probe-", id="path"
        ),
        pytest.param(
            "https://u.edu/app/?lang=en#/home",
            "https://u.edu/app/?lang=en#/pw-adaptive-probe-",
            id="hash-route",
        ),
        pytest.param("https://u.edu#!/home", "https://u.edu/#!/pw-adaptive-probe-", id="hashbang"),
        pytest.param("https://u.edu/a#section", "https://u.edu/pw-adaptive-probe-", id="anchor"),
    ],
)
def test_probe_url(start: str, expected_prefix: str) -> None:
    probe = Soft404Detector.probe_url(start)
    assert probe.startswith(expected_prefix)
    assert len(probe) == len(expected_prefix) + 12
    assert probe == Soft404Detector.probe_url(start)


def test_probe_url_differs_per_start_url() -> None:
    assert Soft404Detector.probe_url("https://a.edu/") != Soft404Detector.probe_url(
        "https://b.edu/"
    )


def test_probe_url_rejects_relative() -> None:
    with pytest.raises(ValueError):
        Soft404Detector.probe_url("/relative")


def test_soft_404_is_per_origin() -> None:
    detector = Soft404Detector()
    probe = Soft404Detector.probe_url("https://u.edu/")
    path = probe.removeprefix("https://u.edu")
    not_found = f"Sorry, the page {path} was not found. Go back to the home page."
    detector.learn(probe, not_found)
    assert detector.knows("https://U.EDU")
    assert detector.is_soft_404(probe, not_found)
    echoed = "Sorry, the page /housing/old-halls was not found. Go back to the home page."
    assert detector.is_soft_404("https://u.edu/housing/old-halls", echoed)
    assert not detector.is_soft_404("https://u.edu", "Housing fees for 2025 are listed below.")
    assert not detector.is_soft_404("https://u.edu/housing/fees", "Housing fees are below.")
    assert not detector.is_soft_404("https://other.edu", not_found)


def test_soft_404_home_page_fallback_long_text() -> None:
    detector = Soft404Detector()
    home = _long_text(21)
    detector.learn("https://spa.edu", home)
    assert detector.is_soft_404("https://spa.edu", home + " Cookie banner")
    assert not detector.is_soft_404("https://spa.edu", _long_text(22))


def test_soft_404_ignores_empty_probe() -> None:
    detector = Soft404Detector()
    detector.learn("https://u.edu", "   ")
    assert not detector.knows("https://u.edu")
    assert not detector.is_soft_404("https://u.edu", "")


@pytest.mark.parametrize(
    ("origin", "key"),
    [
        pytest.param("HTTPS://User@U.EDU:8443/a?b#c", "u.edu:8443", id="url-with-port"),
        pytest.param("https://u.edu:443/", "u.edu", id="default-port"),
        pytest.param("http://[::1]:8000/x", "[::1]:8000", id="ipv6"),
        pytest.param("U.edu:8000", "u.edu:8000", id="bare-host"),
    ],
)
def test_site_key(origin: str, key: str) -> None:
    assert site_key(origin) == key


def test_site_key_rejects_empty() -> None:
    with pytest.raises(ValueError):
        site_key("")


def test_soft_404_learned_by_bare_host_strips_probe_token() -> None:
    detector = Soft404Detector()
    probe = Soft404Detector.probe_url("http://127.0.0.1:8000/#/home")
    route = probe.partition("#")[2]
    detector.learn("127.0.0.1:8000", f"Route {route} not found. Back to start.")
    assert detector.knows("http://127.0.0.1:8000/#/x")
    assert detector.is_soft_404("127.0.0.1:8000", f"Route {route} not found. Back to start.")
    assert detector.is_soft_404(
        "http://127.0.0.1:8000/#/housing", "Route #/housing not found. Back to start."
    )


def test_a_restored_soft_404_detector_still_knows_the_probe_pages() -> None:
    detector = Soft404Detector()
    probe = Soft404Detector.probe_url("https://u.edu/")
    path = probe.removeprefix("https://u.edu")
    detector.learn(probe, f"Sorry, the page {path} was not found. Back to the home page.")
    home = " ".join(f"word{i}" for i in range(80))
    detector.learn("https://spa.edu", home)
    restored = Soft404Detector()
    restored.restore(json.loads(json.dumps(detector.state())))
    assert restored.knows("https://u.edu") and restored.knows("https://spa.edu")
    echoed = "Sorry, the page /housing/old-halls was not found. Back to the home page."
    assert restored.is_soft_404("https://u.edu/housing/old-halls", echoed)
    assert restored.is_soft_404("https://spa.edu/x", home + " cookie")
    assert not restored.is_soft_404("https://u.edu/fees", "Tuition fees for 2025 are listed.")
    assert restored.state() == detector.state()


def test_soft_404_restore_rejects_another_version() -> None:
    with pytest.raises(ValueError, match="unsupported"):
        Soft404Detector().restore({"version": 99, "sites": {}})
