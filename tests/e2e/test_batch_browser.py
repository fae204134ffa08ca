"""Batches end to end on the fixture portals: the local executor (through the
CLI) and a local Ray with 2 CPUs give, per job, the pages and stop reason of
a single ``crawl()``; a rerun skips done jobs; an unreachable site fails
alone; a job interrupted mid-crawl resumes on the rerun without fetching
its pages again and ends as an uninterrupted one. One Ray for the module; it
must leave no process behind."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from logged_portal import LoggedPortal, serve_logged_portal  # tests/e2e/logged_portal.py

from pw_adaptive import Job, crawl
from pw_adaptive.batch.local import SUMMARY_FILE, LocalExecutor, crawl_many, iter_results
from pw_adaptive.batch.ray_executor import RayExecutor
from pw_adaptive.cli import EXIT_JOBS_FAILED, main

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

# Small crawls that end in three different ways.
TASKS = {
    "classic-empty-reactor": {"max_pages": 15, "concurrency": 2},  # no_relevant_pages
    "large-library": {"max_pages": 15, "concurrency": 2},  # saturated
    "classic-fees": {"max_pages": 4, "concurrency": 2},  # budget_exhausted
}


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def jobs(fixture_site: Any) -> list[Job]:
    tasks = {t["id"]: t for t in fixture_site.tasks()}
    found = [Job(tasks[k]["start_url"], tasks[k]["query"], opts) for k, opts in TASKS.items()]
    unreachable = Job(f"http://127.0.0.1:{_closed_port()}/", "tuition fees", id="unreachable")
    return [*found, unreachable]


@pytest.fixture(scope="module")
def jobs_file(jobs: list[Job], tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("batch") / "jobs.jsonl"
    path.write_text("".join(json.dumps(j.to_json()) + "\n" for j in jobs), encoding="utf-8")
    return path


Fingerprint = tuple[frozenset[str], str]


@pytest.fixture(scope="module")
def singles(jobs: list[Job]) -> dict[str, Fingerprint]:
    """Each reachable job as a single ``crawl()``: its page URLs and stop reason."""
    out = {}
    for job in jobs[:-1]:
        result = crawl(job.start_url, job.query, **job.options)
        out[job.id] = (frozenset(p.url for p in result.pages), str(result.stop_reason))
    return out


def _fingerprints(out: Path, jobs: list[Job]) -> dict[str, Fingerprint]:
    found = {}
    for job in jobs:
        records = list(iter_results(out, job))
        if records:
            urls = frozenset(r["url"] for r in records if r["type"] == "page")
            found[job.id] = (urls, records[-1]["stop_reason"])
    return found


def _summary(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / SUMMARY_FILE).read_text("utf-8").splitlines()]


@pytest.fixture(scope="module")
def local_out(jobs_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("local")
    argv = ["batch", str(jobs_file), "--out", str(out), "--workers", "2", "--quiet"]
    assert main(argv) == EXIT_JOBS_FAILED  # the unreachable job failed, the others ran
    return out


def test_local_batch_gives_the_results_of_single_crawls(
    local_out: Path, jobs: list[Job], singles: dict[str, Fingerprint]
) -> None:
    assert _fingerprints(local_out, jobs) == singles
    assert {s[1] for s in singles.values()} == {
        "no_relevant_pages",
        "saturated",
        "budget_exhausted",
    }


def test_an_unreachable_site_is_recorded_as_failed_while_the_others_finish(
    local_out: Path, jobs: list[Job]
) -> None:
    lines = _summary(local_out)
    assert [line["id"] for line in lines] == [j.id for j in jobs]
    assert [line["status"] for line in lines] == ["done", "done", "done", "failed"]
    failed = lines[-1]
    assert "cannot load the start URL" in failed["error"] and failed["output"] is None
    assert not (local_out / "unreachable.jsonl").exists()
    assert not list(local_out.glob("*.part"))
    for line, job in zip(lines[:-1], jobs, strict=False):
        assert line["output"] == f"{job.id}.jsonl" and line["pages"] > 0
        assert line["elapsed_s"] > 0 and line["stop_reason"] is not None


def test_a_rerun_skips_done_jobs_and_retries_the_failed_one(
    local_out: Path, jobs_file: Path, jobs: list[Job], capsys: pytest.CaptureFixture[str]
) -> None:
    before = {p.name: p.stat().st_mtime_ns for p in local_out.glob("*.jsonl")}
    lines_before = _summary(local_out)
    capsys.readouterr()
    assert main(["batch", str(jobs_file), "--out", str(local_out)]) == EXIT_JOBS_FAILED
    err = capsys.readouterr().err
    assert err.count("skipped") == 4 and "3 skipped (done before), 1 failed" in err
    after = {
        p.name: p.stat().st_mtime_ns for p in local_out.glob("*.jsonl") if p.name != SUMMARY_FILE
    }
    assert after == {k: v for k, v in before.items() if k != SUMMARY_FILE}  # not rewritten
    lines = _summary(local_out)
    assert lines[:3] == lines_before[:3] and len(lines) == 4
    assert lines[3]["status"] == "failed"


@pytest.fixture(scope="module")
def ray_session() -> Iterator[Any]:
    """A local Ray with 2 CPUs and its files in a private temp dir; after it
    shuts down no process of it may remain."""
    ray = pytest.importorskip("ray", reason="install the ray extra: pip install '.[ray]'")
    temp = tempfile.mkdtemp(prefix="pwray", dir="/tmp")  # short: Ray's socket paths
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        object_store_memory=100 * 1024 * 1024,
        _temp_dir=temp,
    )
    try:
        yield ray
    finally:
        ray.shutdown()
        left = _processes_mentioning(temp)
        deadline = time.monotonic() + 15
        while left and time.monotonic() < deadline:
            time.sleep(0.2)
            left = _processes_mentioning(temp)
        shutil.rmtree(temp, ignore_errors=True)
        assert not left, f"Ray processes left after shutdown: {left}"


def _processes_mentioning(text: str) -> list[str]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmdline = fh.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in cmdline:
            found.append(f"{entry}: {cmdline[:120]}")
    return found


def test_a_local_ray_gives_the_same_results_and_summary_as_local(
    ray_session: Any,
    jobs_file: Path,
    jobs: list[Job],
    singles: dict[str, Fingerprint],
    local_out: Path,
    tmp_path: Path,
) -> None:
    out = tmp_path / "ray"
    argv = ["batch", str(jobs_file), "--out", str(out), "--ray", "--workers", "2", "--quiet"]
    assert main(argv) == EXIT_JOBS_FAILED
    assert _fingerprints(out, jobs) == singles

    def timeless(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in line.items() if k != "elapsed_s"} for line in lines]

    assert timeless(_summary(out)) == timeless(_summary(local_out))
    assert ray_session.is_initialized()  # a Ray the caller started is left running


# --- an interrupted job resumes where it stopped ----------------------------------------------

RESUME_QUERY = "tuition fees 2026/27"
RESUME_OPTIONS = {"max_pages": 12, "concurrency": 2}
STOP_AFTER_PAGES = 4


@pytest.fixture(scope="module")
def logged_portal() -> Iterator[LoggedPortal]:
    with serve_logged_portal() as logged:
        yield logged


def _timeless_records(out: Path, job: Job) -> list[dict[str, Any]]:
    # Wall-clock figures (elapsed seconds, per-page timings) differ run to run.
    return [
        {k: v for k, v in r.items() if "elapsed" not in k and "timings" not in k}
        for r in iter_results(out, job)
    ]


def _part_pages(part: Path) -> list[str]:
    lines = part.read_text("utf-8").splitlines()
    return [r["url"] for r in map(json.loads, lines) if r["type"] == "page"]


def _saved_records(state: Path) -> int:
    """Records a job's state file holds (0 before its first save); read-only."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{state}?mode=ro", uri=True)) as db:
            row = db.execute("SELECT value FROM state WHERE key = 'run'").fetchone()
    except sqlite3.Error:
        return 0
    return int(json.loads(row[0])["records"]) if row else 0


@pytest.fixture(scope="module")
def resume_reference(
    logged_portal: LoggedPortal, tmp_path_factory: pytest.TempPathFactory
) -> list[dict[str, Any]]:
    """What one uninterrupted batch run of the resume job writes (timings aside)."""
    job = Job(logged_portal.url, RESUME_QUERY, RESUME_OPTIONS, id="large")
    out = tmp_path_factory.mktemp("reference")
    logged_portal.phase = "reference"
    crawl_many([job], out, executor=LocalExecutor(1))
    return _timeless_records(out, job)


@pytest.mark.parametrize("executor", ["local", "ray"])
def test_an_interrupted_batch_job_resumes_and_writes_what_an_uninterrupted_one_writes(
    logged_portal: LoggedPortal,
    resume_reference: list[dict[str, Any]],
    tmp_path: Path,
    request: pytest.FixtureRequest,
    executor: str,
) -> None:
    if executor == "ray":
        request.getfixturevalue("ray_session")

    def runner() -> Any:
        return LocalExecutor(1) if executor == "local" else RayExecutor(workers=1)

    job = Job(logged_portal.url, RESUME_QUERY, RESUME_OPTIONS, id="large")
    ref_pages = [r["url"] for r in resume_reference if r["type"] == "page"]
    assert len(ref_pages) > STOP_AFTER_PAGES + 2
    out = tmp_path / "out"
    part, state = out / "large.jsonl.part", out / "large.state"
    cancel = threading.Event()

    def cancel_after_pages() -> None:  # the state file is saved after every page
        deadline = time.monotonic() + 120
        while _saved_records(state) < STOP_AFTER_PAGES and time.monotonic() < deadline:
            time.sleep(0.02)
        cancel.set()

    logged_portal.phase = f"interrupted-{executor}"
    watcher = threading.Thread(target=cancel_after_pages, daemon=True)
    watcher.start()
    assert crawl_many([job], out, executor=runner(), cancel=cancel) == []
    watcher.join()
    before = _part_pages(part)
    assert STOP_AFTER_PAGES <= len(before) < len(ref_pages)
    assert state.exists() and not (out / "large.jsonl").exists()

    logged_portal.phase = f"resumed-{executor}"
    (outcome,) = crawl_many([job], out, executor=runner())
    assert outcome.status == "done" and "resumed" in (outcome.note or "")
    assert _timeless_records(out, job) == resume_reference  # pages, order, stop reason
    # The rerun asked the server for none of the pages fetched before the interruption.
    done_paths = {url.removeprefix(logged_portal.url.rstrip("/")) for url in before}
    resumed_paths = set(logged_portal.paths(f"resumed-{executor}"))
    assert resumed_paths and not done_paths & resumed_paths
    assert sorted(p.name for p in out.iterdir()) == ["large.jsonl", SUMMARY_FILE]
