"""Batches without a browser: the output directory (result files,
summary.jsonl, skip-done on rerun), resuming interrupted and failed jobs
(real crawls over a fake renderer, through the local executor's job body and
the Ray actor's), executors, and the batch CLI's checks. Job lines and ids
are tested in test_jobs.py."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pw_adaptive.batch.jobs import Job, JobError
from pw_adaptive.batch.local import SUMMARY_FILE, BatchRecorder, crawl_many, iter_results, run_job
from pw_adaptive.batch.ray_executor import CrawlWorker, _record
from pw_adaptive.cli import EXIT_USAGE, main
from pw_adaptive.core.links import Link
from pw_adaptive.crawling.api import AdaptiveCrawler
from pw_adaptive.pages import RenderedPage
from pw_adaptive.render.records import RenderSettings
from pw_adaptive.testing import make_page

URL = "https://www.example.ac.uk/"


# --- the output directory -----------------------------------------------------------------


class FakeExecutor:
    """Reports jobs like a real executor would, without a browser.

    ``behaviour[query]``: ``"ok"`` (two pages, a summary), ``"fail"`` (an
    error after one page was written), ``"cancel"`` (a cancelled crawl), or
    ``"no-summary"``.
    """

    def __init__(self, behaviour: dict[str, str] | None = None) -> None:
        self.behaviour = behaviour or {}
        self.ran: list[str] = []

    def run(
        self,
        jobs: Sequence[Job],
        recorder: BatchRecorder,
        render_settings: RenderSettings,
        cancel: threading.Event,
    ) -> None:
        for job in jobs:
            self.ran.append(job.id)
            kind = self.behaviour.get(job.query, "ok")
            writer = recorder.open(job)
            assert writer.part.name == f"{job.id}.jsonl.part"
            writer.write({"type": "page", "url": job.start_url, "relevance": 0.5})
            if kind == "fail":
                recorder.failed(job, writer, "StartPageError: cannot load", 0.5)
                continue
            if kind != "no-summary":
                writer.write({"type": "page", "url": job.start_url + "b", "relevance": 0.0})
                stop = "cancelled" if kind == "cancel" else "coverage_reached"
                writer.write({"type": "summary", "stop_reason": stop, "pages": 2,
                              "relevant_pages": 1, "coverage": 0.75, "elapsed_s": 1.5})  # fmt: skip
            recorder.done(job, writer, 2.0)


def _summary(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / SUMMARY_FILE).read_text("utf-8").splitlines()]


def _jobs(*queries: str) -> list[Job]:
    return [Job(URL, q, {"max_pages": 2}) for q in queries]


def test_each_job_gets_its_result_file_and_one_summary_line_in_job_order(tmp_path: Path) -> None:
    jobs = _jobs("fees", "housing", "library")
    seen: list[str] = []
    outcomes = crawl_many(
        jobs, tmp_path, executor=FakeExecutor({"housing": "fail"}), on_outcome=lambda o: seen.append(o.id)
    )  # fmt: skip
    assert [o.id for o in outcomes] == [j.id for j in jobs] == seen
    assert [o.status for o in outcomes] == ["done", "failed", "done"]
    lines = _summary(tmp_path)
    assert [line["id"] for line in lines] == [j.id for j in jobs]
    assert lines[0] == {
        "id": jobs[0].id, "start_url": URL, "query": "fees", "status": "done",
        "stop_reason": "coverage_reached", "pages": 2, "relevant_pages": 1, "coverage": 0.75,
        "elapsed_s": 2.0, "error": None, "output": f"{jobs[0].id}.jsonl",
    }  # fmt: skip
    assert lines[1]["error"] == "StartPageError: cannot load" and lines[1]["output"] is None
    result = (tmp_path / f"{jobs[0].id}.jsonl").read_text("utf-8").splitlines()
    assert [json.loads(r)["type"] for r in result] == ["page", "page", "summary"]
    # a failed job leaves no result file and no partial file
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [SUMMARY_FILE, f"{jobs[0].id}.jsonl", f"{jobs[2].id}.jsonl"]
    )


def test_a_rerun_skips_done_jobs_retries_failed_ones_and_keeps_one_line_per_job(
    tmp_path: Path,
) -> None:
    jobs = _jobs("fees", "housing", "library")
    crawl_many(jobs, tmp_path, executor=FakeExecutor({"housing": "fail"}))
    first = _summary(tmp_path)
    again = FakeExecutor()
    outcomes = crawl_many(jobs, tmp_path, executor=again)
    assert again.ran == [jobs[1].id]
    assert [o.skipped for o in outcomes] == [True, False, True]
    assert [o.status for o in outcomes] == ["done", "done", "done"]
    lines = _summary(tmp_path)
    assert [line["id"] for line in lines] == [j.id for j in jobs]
    assert lines[0] == first[0] and lines[2] == first[2]  # skipped jobs keep their line
    assert lines[1]["status"] == "done"
    # nothing left to do: the executor is not even asked
    idle = FakeExecutor()
    crawl_many(jobs, tmp_path, executor=idle)
    assert idle.ran == [] and _summary(tmp_path) == lines


def test_a_skipped_job_without_a_summary_line_gets_one_from_its_result_file(
    tmp_path: Path,
) -> None:
    jobs = _jobs("fees")
    crawl_many(jobs, tmp_path, executor=FakeExecutor())
    (tmp_path / SUMMARY_FILE).unlink()
    (outcome,) = crawl_many(jobs, tmp_path, executor=FakeExecutor())
    assert outcome.skipped and outcome.stop_reason == "coverage_reached"
    (line,) = _summary(tmp_path)
    assert line["status"] == "done" and line["pages"] == 2 and line["elapsed_s"] == 1.5


def test_lines_of_other_batches_in_the_same_directory_are_kept(tmp_path: Path) -> None:
    crawl_many(_jobs("fees"), tmp_path, executor=FakeExecutor())
    crawl_many(_jobs("housing"), tmp_path, executor=FakeExecutor())
    assert [line["query"] for line in _summary(tmp_path)] == ["housing", "fees"]


def test_a_cancelled_or_summaryless_crawl_is_not_done(tmp_path: Path) -> None:
    jobs = _jobs("fees", "housing")
    outcomes = crawl_many(
        jobs, tmp_path, executor=FakeExecutor({"fees": "cancel", "housing": "no-summary"})
    )
    assert [o.id for o in outcomes] == [jobs[1].id]  # the cancelled one has no outcome
    assert outcomes[0].status == "failed" and "without a summary" in (outcomes[0].error or "")
    assert [p.name for p in tmp_path.iterdir()] == [SUMMARY_FILE]
    rerun = FakeExecutor()
    crawl_many(jobs, tmp_path, executor=rerun)
    assert rerun.ran == [j.id for j in jobs]


def test_a_torn_summary_file_is_read_up_to_its_last_good_line(tmp_path: Path) -> None:
    jobs = _jobs("fees", "housing")
    crawl_many(jobs, tmp_path, executor=FakeExecutor({"housing": "fail"}))
    with (tmp_path / SUMMARY_FILE).open("a", encoding="utf-8") as fh:
        fh.write('{"id": "half')
    crawl_many(jobs, tmp_path, executor=FakeExecutor())
    assert [line["status"] for line in _summary(tmp_path)] == ["done", "done"]


def test_unknown_executor_names_and_bad_worker_counts_are_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown executor 'dask'"):
        crawl_many(_jobs("fees"), tmp_path, executor="dask")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="workers must be >= 1"):
        crawl_many(_jobs("fees"), tmp_path, workers=0)
    with pytest.raises(JobError, match=r"job 2: job id .* repeats"):
        crawl_many([{"start_url": URL, "query": "fees"}] * 2, tmp_path, executor=FakeExecutor())


def test_without_ray_the_ray_executor_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pw_adaptive.batch.ray_executor import MissingRayError, RayExecutor

    monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` fail
    with pytest.raises(MissingRayError, match=r"pip install 'pw-adaptive\[ray\]'"):
        RayExecutor()


# --- resuming interrupted and failed jobs (real crawls over a fake renderer) ---------------

SITE = "http://portal.test"
PATHS = ["/"] + [f"/section/{i}" for i in range(12)]
RESUME_OPTIONS = {"max_pages": 8, "concurrency": 1, "respect_robots": False,
                  "probe_soft_404": False}  # fmt: skip


class SiteRenderer:
    """A little site where every page links to every other; ``after(n)`` runs
    once ``n`` pages were rendered (to cancel the batch, or to crash)."""

    def __init__(self, stop_after: int | None = None, action: str = "cancel") -> None:
        self.rendered: list[str] = []
        self.stop_after = stop_after
        self.action = action
        self.on_stop: Any = None

    async def render(self, url: str) -> RenderedPage:
        await asyncio.sleep(0)
        if self.stop_after is not None and len(self.rendered) == self.stop_after:
            if self.action == "crash":
                raise RuntimeError("renderer crashed")
            await self.on_stop()
        path = url.removeprefix(SITE) or "/"
        self.rendered.append(path)
        links = tuple(Link(SITE + p, text=f"Student housing {p}") for p in PATHS if p != path)
        text = f"Student housing and accommodation on page {path}. Halls and rooms."
        return make_page(url, title=path, markdown=text, links=links)


class CrawlingExecutor:
    """The local executor's job body (:func:`run_job`) over ``SiteRenderer``s:
    real crawls, state files and resumes, no browser. ``renderer`` is used for
    every job (one job per batch in these tests)."""

    def __init__(self, renderer: SiteRenderer) -> None:
        self.renderer = renderer

    def run(
        self,
        jobs: Sequence[Job],
        recorder: BatchRecorder,
        render_settings: RenderSettings,
        cancel: threading.Event,
    ) -> None:
        async def main() -> None:
            stop = asyncio.Event()

            async def set_stop() -> None:
                cancel.set()
                stop.set()

            self.renderer.on_stop = set_stop
            for job in jobs:

                async def make_crawler(job: Job = job) -> AdaptiveCrawler:
                    return AdaptiveCrawler(job.settings(), renderer=self.renderer)

                await run_job(job, recorder, make_crawler, stop)

        asyncio.run(main())


class RayBodyExecutor(CrawlingExecutor):
    """The Ray executor's two halves in one process: ``CrawlWorker.run_job``
    (the actor's side, its crawler swapped for one over the renderer) and the
    driver's ``_record``."""

    def run(
        self,
        jobs: Sequence[Job],
        recorder: BatchRecorder,
        render_settings: RenderSettings,
        cancel: threading.Event,
    ) -> None:
        renderer = self.renderer

        class Worker(CrawlWorker):
            async def _crawler(self, job: Job) -> AdaptiveCrawler:
                return AdaptiveCrawler(job.settings(), renderer=renderer)

        async def main() -> None:
            worker = Worker(render_settings, {})

            async def set_stop() -> None:
                cancel.set()
                await worker.cancel()

            renderer.on_stop = set_stop
            for job in jobs:
                state = str(recorder.state_path(job))
                reply = await worker.run_job(job.to_json(), state, recorder.held_records(job))
                _record(recorder, job, reply, interrupted=cancel.is_set())

        asyncio.run(main())


EXECUTORS = [CrawlingExecutor, RayBodyExecutor]


def _timeless(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if "elapsed" not in k} for r in records]


def _result(out: Path, job: Job) -> list[dict[str, Any]]:
    return _timeless(list(iter_results(out, job)))


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


@pytest.fixture
def reference(tmp_path: Path) -> list[dict[str, Any]]:
    """The result file of one uninterrupted run of ``_resume_job()``."""
    job = _resume_job()
    crawl_many([job], tmp_path / "reference", executor=CrawlingExecutor(SiteRenderer()))
    records = _result(tmp_path / "reference", job)
    assert records[-1]["stop_reason"] == "budget_exhausted" and records[-1]["pages"] == 8
    return records


def _resume_job(query: str = "student housing") -> Job:
    return Job(SITE + "/", query, RESUME_OPTIONS, id="portal")


def _page_paths(records: list[dict[str, Any]]) -> list[str]:
    return [r["url"].removeprefix(SITE) or "/" for r in records if r["type"] == "page"]


@pytest.mark.parametrize("executor", EXECUTORS, ids=["local", "ray-body"])
def test_an_interrupted_job_resumes_without_refetching_and_ends_as_an_uninterrupted_one(
    tmp_path: Path, reference: list[dict[str, Any]], executor: type[CrawlingExecutor]
) -> None:
    job, out = _resume_job(), tmp_path / "out"
    first = SiteRenderer(stop_after=3)
    assert crawl_many([job], out, executor=executor(first)) == []  # interrupted: no outcome
    part, state = out / "portal.jsonl.part", out / "portal.state"
    assert state.exists() and not (out / "portal.jsonl").exists()
    if executor is CrawlingExecutor:  # the Ray driver writes a job's records when it ends
        # The 4th page was rendering when the batch was cancelled: dropped, fetched next time.
        assert _page_paths(_lines(part)) == first.rendered[:3] == _page_paths(reference)[:3]
    assert (out / SUMMARY_FILE).read_text("utf-8") == ""  # no line for an interrupted job
    second = SiteRenderer()
    (outcome,) = crawl_many([job], out, executor=executor(second))
    assert second.rendered == _page_paths(reference)[3:]  # only the pages not fetched yet
    assert _result(out, job) == reference
    assert outcome.status == "done" and "resumed" in (outcome.note or "")
    assert sorted(p.name for p in out.iterdir()) == ["portal.jsonl", SUMMARY_FILE]
    (line,) = _lines(out / SUMMARY_FILE)
    assert line["status"] == "done" and line["pages"] == 8 and "note" not in line


def test_a_job_killed_mid_write_resumes_from_its_complete_lines(
    tmp_path: Path, reference: list[dict[str, Any]]
) -> None:
    job, out = _resume_job(), tmp_path / "out"
    crawl_many([job], out, executor=CrawlingExecutor(SiteRenderer(stop_after=4)))
    part = out / "portal.jsonl.part"
    # As if killed after saving a page, before writing its line, in the middle of another.
    kept = part.read_text("utf-8").splitlines()[:2]
    part.write_text("\n".join(kept) + '\n{"type":"page","url":"http://por', encoding="utf-8")
    second = SiteRenderer()
    crawl_many([job], out, executor=CrawlingExecutor(second))
    assert second.rendered == _page_paths(reference)[4:]
    assert _result(out, job) == reference


@pytest.mark.parametrize("executor", EXECUTORS, ids=["local", "ray-body"])
def test_a_state_file_of_another_query_is_dropped_and_the_job_starts_over_cleanly(
    tmp_path: Path,
    reference: list[dict[str, Any]],
    executor: type[CrawlingExecutor],
    caplog: pytest.LogCaptureFixture,
) -> None:
    out = tmp_path / "out"
    crawl_many([_resume_job("rowing club")], out, executor=executor(SiteRenderer(stop_after=3)))
    assert (out / "portal.state").exists()
    second = SiteRenderer()
    with caplog.at_level(logging.WARNING, logger="pw_adaptive.batch.local"):
        (outcome,) = crawl_many([_resume_job()], out, executor=executor(second))
    assert outcome.status == "done" and "belongs to another crawl" in (outcome.note or "")
    assert "starts over" in caplog.text and "belongs to another crawl" in caplog.text
    assert second.rendered == _page_paths(reference)  # every page fetched again
    assert _result(out, _resume_job()) == reference


@pytest.mark.parametrize(
    ("state", "note"),
    [("not a database", "not a valid pw_adaptive state file"), (None, None)],
    ids=["state-file-that-is-not-one", "no-state-file"],
)
def test_a_partial_file_without_a_usable_state_file_starts_over(
    tmp_path: Path, reference: list[dict[str, Any]], state: str | None, note: str | None
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    if state is not None:
        (out / "portal.state").write_text(state, encoding="utf-8")
    (out / "portal.jsonl.part").write_text('{"type":"page","url":"old"}\n', encoding="utf-8")
    (outcome,) = crawl_many([_resume_job()], out, executor=CrawlingExecutor(SiteRenderer()))
    assert outcome.status == "done"
    if note is None:
        assert outcome.note is None
    else:
        assert note in (outcome.note or "")
    assert _result(out, _resume_job()) == reference


@pytest.mark.parametrize("executor", EXECUTORS, ids=["local", "ray-body"])
def test_a_failed_job_keeps_its_pages_and_the_next_run_resumes_it(
    tmp_path: Path, reference: list[dict[str, Any]], executor: type[CrawlingExecutor]
) -> None:
    job, out = _resume_job(), tmp_path / "out"
    (failed,) = crawl_many([job], out, executor=executor(SiteRenderer(5, "crash")))
    assert failed.status == "failed" and failed.error == "RuntimeError: renderer crashed"
    assert _page_paths(_lines(out / "portal.jsonl.part")) == _page_paths(reference)[:5]
    assert (out / "portal.state").exists()
    second = SiteRenderer()
    (outcome,) = crawl_many([job], out, executor=executor(second))
    assert second.rendered == _page_paths(reference)[5:]
    assert outcome.status == "done" and _result(out, job) == reference
    assert [line["status"] for line in _lines(out / SUMMARY_FILE)] == ["done"]


def test_a_job_failing_before_its_first_page_leaves_no_partial_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (failed,) = crawl_many(
        [_resume_job()], out, executor=CrawlingExecutor(SiteRenderer(0, "crash"))
    )
    assert failed.status == "failed"
    assert not (out / "portal.jsonl.part").exists() and not (out / "portal.jsonl").exists()


# --- the batch command's checks (nothing runs) --------------------------------------------


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ('{"start_url": "https://a.example/", "query": "fees", "max_pagez": 1}\n', [], "line 1: unknown option 'max_pagez'"),
        ("not json\n", [], "line 1: not JSON"),
        ('{"start_url": "https://a.example/", "query": "fees"}\n', ["--workers", "0"], "--workers must be >= 1"),
    ],
)  # fmt: skip
def test_the_batch_command_rejects_bad_input_with_exit_2_and_writes_nothing(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: str,
    args: list[str],
    message: str,
) -> None:
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text(content, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["batch", str(jobs), "--out", str(out), *args]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("pw-adaptive: error: ") and message in err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()
