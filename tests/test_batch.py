"""Batches without a browser: the output directory (result files,
summary.jsonl, skip-done on rerun), executors, and the batch CLI's checks.
Job lines and ids are tested in test_jobs.py."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pw_adaptive.batch import SUMMARY_FILE, BatchRecorder, crawl_many
from pw_adaptive.cli import EXIT_USAGE, main
from pw_adaptive.jobs import Job, JobError
from pw_adaptive.render import RenderSettings

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
    from pw_adaptive.ray_executor import MissingRayError, RayExecutor

    monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` fail
    with pytest.raises(MissingRayError, match=r"pip install 'pw-adaptive\[ray\]'"):
        RayExecutor()


# --- the batch command's checks (nothing runs) --------------------------------------------


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ('{"start_url": "https://a.example/", "query": "x", "max_pagez": 1}\n', [], "line 1: unknown option 'max_pagez'"),
        ("not json\n", [], "line 1: not JSON"),
        ('{"start_url": "https://a.example/", "query": "x"}\n', ["--workers", "0"], "--workers must be >= 1"),
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
