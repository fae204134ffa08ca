"""Settings from a file and from ``section.field=value``: parsing, checks, the catalog."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pw_adaptive.batch.jobs import Job, JobError
from pw_adaptive.cli import main
from pw_adaptive.crawling.overrides import (
    Overrides,
    SettingsError,
    catalog,
    format_catalog,
    load_settings_file,
    parse_assignment,
)
from pw_adaptive.render import RenderSettings
from pw_adaptive.settings import CrawlSettings


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("render.explore_clicks=false", ("render", "explore_clicks", False)),
        ("render.explore_clicks=Yes", ("render", "explore_clicks", True)),
        ("render.click_budget_s=5", ("render", "click_budget_s", 5.0)),
        ("render.explore_budget_s=none", ("render", "explore_budget_s", None)),
        ("render.user_agent=Mozilla/5.0 (X11)", ("render", "user_agent", "Mozilla/5.0 (X11)")),
        ("render.browser_args=--a, --b", ("render", "browser_args", ("--a", "--b"))),
        ("crawl.retry_statuses=[429, 503]", ("crawl", "retry_statuses", (429, 503))),
        ("crawl.max_depth=null", ("crawl", "max_depth", None)),
        ("adaptive.patience=4", ("adaptive", "patience", 4)),
    ],
)
def test_assignment_values_take_the_fields_type(
    text: str, expected: tuple[str, str, object]
) -> None:
    assert parse_assignment(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("render.explore_click=false", "did you mean 'render.explore_clicks'"),
        ("rendr.explore_clicks=false", "did you mean 'render'"),
        ("crawl.explore_clicks=false", "did you mean 'render.explore_clicks'"),
        ("render.explore_clicks=maybe", "must be true or false"),
        ("render.click_budget_s=fast", "must be float"),
        ("crawl.max_pages=2.5", "must be int"),
        ("render.explore_clicks", "section.field=value"),
        ("crawl.adaptive={}", "unknown setting"),
    ],
)
def test_bad_assignments_say_why_on_one_line(text: str, message: str) -> None:
    with pytest.raises(SettingsError, match=message) as info:
        Overrides.from_assignments([text])
    assert "\n" not in str(info.value)


def test_values_are_checked_by_the_settings_themselves() -> None:
    with pytest.raises(SettingsError, match="click_concurrency must be >= 1"):
        Overrides.from_assignments(["render.click_concurrency=0"])
    with pytest.raises(SettingsError, match="max_pages must be >= 1"):
        Overrides.from_assignments(["crawl.max_pages=0"])


def test_file_then_assignments_are_laid_over_the_settings(tmp_path: Path) -> None:
    toml = tmp_path / "s.toml"
    toml.write_text(
        "[render]\nexplore_clicks = false\nclick_budget_s = 3\n[crawl]\nmax_pages = 9\n"
    )
    base = load_settings_file(toml)
    over = Overrides.from_assignments(["render.click_budget_s=7", "adaptive.patience=2"], base)
    render = over.apply_render(RenderSettings())
    crawl = over.apply_crawl(CrawlSettings())
    assert (render.explore_clicks, render.click_budget_s) == (False, 7.0)
    assert (crawl.max_pages, crawl.adaptive.patience) == (9, 2)
    js = tmp_path / "s.json"
    js.write_text(json.dumps({"render": {"max_click_explorations": 2}}))
    assert load_settings_file(js).apply_render(RenderSettings()).max_click_explorations == 2


def test_trap_dedup_and_variant_settings_are_reachable() -> None:
    over = Overrides.from_assignments(
        ["traps.max_path_depth=4", "dedup.near_threshold=5", "crawl.variant_evidence=3"]
    )
    crawl = over.apply_crawl(CrawlSettings())
    assert crawl.traps.max_path_depth == 4
    assert crawl.traps.max_url_length == CrawlSettings().traps.max_url_length
    assert crawl.dedup.near_threshold == 5
    assert crawl.variant_evidence == 3
    assert crawl.fingerprint() != CrawlSettings().fingerprint()
    docs = {d.key for d in catalog()}
    assert {"traps.max_path_depth", "dedup.jaccard_threshold"} <= docs
    assert "crawl.traps" not in docs and "crawl.dedup" not in docs
    with pytest.raises(SettingsError, match="positive integer"):
        Overrides.from_assignments(["traps.max_path_depth=0"])
    with pytest.raises(SettingsError, match="jaccard_threshold"):
        Overrides.from_assignments(["dedup.jaccard_threshold=1.5"])


def test_crawl_builds_its_trap_detector_deduper_and_learner_from_the_settings() -> None:
    from pw_adaptive.core.dedup import DedupSettings
    from pw_adaptive.core.query import Query
    from pw_adaptive.core.traps import TrapSettings
    from pw_adaptive.crawling.run import new_run

    settings = CrawlSettings(
        traps=TrapSettings(max_path_depth=2),
        dedup=DedupSettings(near_threshold=6),
        variant_evidence=4,
    )
    run = new_run("https://uni.example/", Query("fees"), settings)
    assert run.frontier.push("https://uni.example/a/b/c", score=0.5, depth=1, blind=False)
    assert run.dedup.near_threshold == 6
    assert run.variants.min_evidence == 4


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("bad.json", "{", "is not JSON"),
        ("bad.toml", "[render\n", "is not TOML"),
        ("list.json", "[1]", "object of sections"),
        ("flat.json", '{"render": 3}', "must be an object"),
        ("typed.json", '{"render": {"explore_clicks": "no"}}', "must be bool"),
    ],
)
def test_bad_files_say_why(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(SettingsError, match=message):
        load_settings_file(path)
    with pytest.raises(SettingsError, match="cannot read"):
        load_settings_file(tmp_path / "missing.json")


def test_catalog_documents_every_render_and_exploration_setting() -> None:
    docs = {d.key: d for d in catalog()}
    for key in (
        "render.explore_clicks",
        "render.max_click_explorations",
        "render.click_budget_s",
        "render.explore_budget_s",
        "crawl.max_pages",
        "adaptive.patience",
    ):
        assert docs[key].doc, key
    assert "crawl.adaptive" not in docs
    assert docs["render.explore_clicks"].default == "true"
    assert "render.explore_budget_s  (float | None" in format_catalog()


def test_cli_settings_and_set_help_list_the_settings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settings"]) == 0
    assert "render.explore_clicks" in capsys.readouterr().out
    assert main(["crawl", "--set", "help"]) == 0
    assert "render.click_budget_s" in capsys.readouterr().out
    assert main(["settings", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert any(d["key"] == "render.explore_budget_s" for d in listed)


def test_cli_rejects_a_bad_setting_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["crawl", "http://x.test/", "-q", "housing", "--set", "render.explore_click=0"])
    assert code == 2
    err = capsys.readouterr().err
    assert "did you mean 'render.explore_clicks'" in err and err.count("\n") == 1


def test_jobs_take_render_settings_and_batch_defaults() -> None:
    job = Job.from_dict(
        {"start_url": "http://x.test/", "query": "housing", "render": {"explore_clicks": False}}
    )
    assert job.render_settings(RenderSettings()).explore_clicks is False
    assert job.to_json()["render"] == {"explore_clicks": False}
    plain = Job("http://x.test/", "housing")
    assert plain.id != job.id
    assert plain.render_settings(RenderSettings()) == RenderSettings()
    with_defaults = Job("http://x.test/", "housing", {"max_pages": 5}).with_defaults(
        {"max_pages": 50, "concurrency": 2}
    )
    assert with_defaults.settings().max_pages == 5
    assert with_defaults.settings().concurrency == 2
    with pytest.raises(JobError, match=r"did you mean 'render\.explore_clicks'"):
        Job("http://x.test/", "housing", render={"explore_click": False})
    with pytest.raises(JobError, match="batch's browser setting"):
        Job("http://x.test/", "housing", render={"headless": False})
