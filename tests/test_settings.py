from __future__ import annotations

from dataclasses import replace

import pytest

from pw_adaptive.core.links import DEFAULT_INHERIT
from pw_adaptive.settings import CrawlSettings


def test_flat_stopper_options_reach_the_adaptive_options() -> None:
    settings = CrawlSettings.from_options(max_pages=20, patience=3, evidence_per_term=2)
    assert settings.max_pages == 20
    assert settings.adaptive.patience == 3
    assert settings.adaptive.evidence_per_term == 2


def test_inherit_default_is_the_link_scorers() -> None:
    assert CrawlSettings().inherit == DEFAULT_INHERIT


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"max_pages": 0}, id="zero-budget"),
        pytest.param({"max_pages": -5}, id="negative-budget"),
        pytest.param({"concurrency": 0}, id="zero-concurrency"),
        pytest.param({"time_limit_s": -1.0}, id="negative-time"),
        pytest.param({"host_delay_s": -1.0}, id="negative-delay"),
        pytest.param({"patience": 0}, id="zero-patience"),
        pytest.param({"no_such_option": 1}, id="unknown-option"),
    ],
)
def test_bad_options_are_value_errors(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        CrawlSettings.from_options(**options)


def test_fingerprint_ignores_speed_knobs_but_not_the_budget() -> None:
    base = CrawlSettings()
    assert base.fingerprint() == CrawlSettings(concurrency=8, time_limit_s=5).fingerprint()
    assert base.fingerprint() != CrawlSettings(max_pages=5).fingerprint()
    # The stopper's options count too (the cold count's rule, here).
    seed_cold = replace(base.adaptive, clue_resets_cold=True)
    assert base.fingerprint() != CrawlSettings(adaptive=seed_cold).fingerprint()
