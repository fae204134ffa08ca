"""Many crawls at once: job outcomes, the output directory, and the local executor.

A batch is a sequence of :class:`~pw_adaptive.jobs.Job` (a start URL, a
query and crawl options; see :mod:`pw_adaptive.jobs`). :func:`crawl_many` runs the jobs not done yet on an executor and
writes, in one output directory:

* ``<job id>.jsonl`` per finished job: the crawl's JSON Lines (pages,
  attachments, the final summary), exactly what ``pw-adaptive crawl --out``
  writes. It is written as ``<job id>.jsonl.part`` and renamed once the
  summary record is in it, so a result file that exists is complete: a rerun
  skips its job (resumable batches). A job that failed or was interrupted
  leaves no result file and runs again on the next run.
* ``summary.jsonl``: one line per job (:meth:`JobOutcome.to_json`): status
  ``done`` or ``failed``, stop reason, pages, relevant pages, coverage,
  elapsed seconds, error. A line is appended as each job ends, so a batch
  that is killed keeps what it finished; when the batch ends the file is
  rewritten (temporary file, then rename) with exactly one line per job, the
  latest, in the order of the jobs, followed by the lines of jobs from other
  batches written to the same directory. A job skipped as done keeps its line
  (rebuilt from its result file's summary record when it is missing).

A failing job (start URL unreachable, a crash) is recorded as failed and
never stops the others. Executors: :class:`LocalExecutor` (one browser in
this process, a context per job) and ``pw_adaptive.ray_executor.RayExecutor``
(a Ray cluster). Both hand every record to the same :class:`BatchRecorder`,
so their output directories are identical but for timings.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from pw_adaptive.adaptive import StopReason
from pw_adaptive.jobs import Job, JobError
from pw_adaptive.output import JsonlWriter, dumps_record
from pw_adaptive.render.records import RenderSettings

__all__ = [
    "SUMMARY_FILE",
    "BatchRecorder",
    "Executor",
    "JobOutcome",
    "LocalExecutor",
    "crawl_many",
]

SUMMARY_FILE = "summary.jsonl"
"""Name of the per-job summary file in a batch's output directory."""

RESULT_SUFFIX = ".jsonl"
PART_SUFFIX = ".jsonl.part"


@dataclass(frozen=True)
class JobOutcome:
    """How one job of a batch ended: one line of ``summary.jsonl``."""

    id: str
    start_url: str
    query: str
    status: Literal["done", "failed"]
    stop_reason: str | None
    """The crawl's stop reason; None when the job failed."""
    pages: int
    relevant_pages: int
    coverage: float | None
    elapsed_s: float
    """Wall-clock seconds of the job, browser context included."""
    error: str | None = None
    output: str | None = None
    """The result file's name in the output directory (None when failed)."""
    skipped: bool = False
    """Done in an earlier run and not run again (not written to the file)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "start_url": self.start_url,
            "query": self.query,
            "status": self.status,
            "stop_reason": self.stop_reason,
            "pages": self.pages,
            "relevant_pages": self.relevant_pages,
            "coverage": self.coverage,
            "elapsed_s": round(self.elapsed_s, 3),
            "error": self.error,
            "output": self.output,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, skipped: bool = False) -> JobOutcome:
        return cls(
            id=data["id"],
            start_url=data["start_url"],
            query=data["query"],
            status=data["status"],
            stop_reason=data.get("stop_reason"),
            pages=int(data.get("pages") or 0),
            relevant_pages=int(data.get("relevant_pages") or 0),
            coverage=data.get("coverage"),
            elapsed_s=float(data.get("elapsed_s") or 0.0),
            error=data.get("error"),
            output=data.get("output"),
            skipped=skipped,
        )


OutcomeSink = Callable[[JobOutcome], None]


class JobWriter:
    """A job's result file while it is written: records go to ``<id>.jsonl.part``."""

    def __init__(self, part: Path) -> None:
        self.part = part
        self.summary: dict[str, Any] | None = None
        self._writer = JsonlWriter(part)

    def write(self, record: dict[str, Any]) -> None:
        """Write one record (the crawl's ``on_record`` sink)."""
        self._writer.write(record)
        if record.get("type") == "summary":
            self.summary = record

    def close(self) -> None:
        self._writer.close()


class BatchRecorder:
    """Owns a batch's output directory; executors report every job to it.

    For a job the executor calls :meth:`open`, then writes each record to the
    returned :class:`JobWriter` as it comes, then exactly one of
    :meth:`done`, :meth:`failed` or :meth:`interrupted`. Calls must come from
    one thread at a time (each executor calls from one thread).
    """

    def __init__(self, out_dir: str | os.PathLike[str], on_outcome: OutcomeSink | None = None):
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.summary_path = self.out_dir / SUMMARY_FILE
        self._on_outcome = on_outcome
        self.outcomes: dict[str, JobOutcome] = {}

    def result_path(self, job: Job) -> Path:
        return self.out_dir / f"{job.id}{RESULT_SUFFIX}"

    def is_done(self, job: Job) -> bool:
        """The job's result file exists: it was renamed there complete."""
        return self.result_path(job).is_file()

    def open(self, job: Job) -> JobWriter:
        """Start the job's result file (a leftover ``.part`` is overwritten)."""
        return JobWriter(self.out_dir / f"{job.id}{PART_SUFFIX}")

    def done(self, job: Job, writer: JobWriter, elapsed_s: float) -> JobOutcome | None:
        """The crawl ended with its summary record: rename the file, record the job.

        A crawl that stopped as ``cancelled`` is not done: it is handed to
        :meth:`interrupted` (None is returned) and runs again on the next run.
        """
        writer.close()
        summary = writer.summary
        if summary is None:
            return self.failed(job, writer, "the crawl ended without a summary record", elapsed_s)
        if summary.get("stop_reason") == StopReason.CANCELLED:
            self.interrupted(job, writer)
            return None
        os.replace(writer.part, self.result_path(job))
        outcome = JobOutcome(
            id=job.id,
            start_url=job.start_url,
            query=job.query,
            status="done",
            stop_reason=str(summary["stop_reason"]),
            pages=summary["pages"],
            relevant_pages=summary.get("relevant_pages", 0),
            coverage=summary.get("coverage"),
            elapsed_s=elapsed_s,
            output=self.result_path(job).name,
        )
        return self._record(outcome)

    def failed(
        self, job: Job, writer: JobWriter | None, error: str, elapsed_s: float
    ) -> JobOutcome:
        """The job could not finish: drop its partial file, record the error."""
        if writer is not None:
            writer.close()
            writer.part.unlink(missing_ok=True)
        outcome = JobOutcome(
            id=job.id,
            start_url=job.start_url,
            query=job.query,
            status="failed",
            stop_reason=None,
            pages=0,
            relevant_pages=0,
            coverage=None,
            elapsed_s=elapsed_s,
            error=error,
        )
        return self._record(outcome)

    def interrupted(self, job: Job, writer: JobWriter | None) -> None:
        """The batch was cancelled during the job: no line, no result file."""
        if writer is not None:
            writer.close()
            writer.part.unlink(missing_ok=True)

    def skipped(self, job: Job, previous: Mapping[str, dict[str, Any]]) -> JobOutcome:
        """A job done in an earlier run: its line from ``previous`` (the summary
        file's latest line per id) or rebuilt from its result file."""
        line = previous.get(job.id)
        if line is None or line.get("status") != "done":
            summary = _last_record(self.result_path(job))
            line = {
                "id": job.id,
                "start_url": job.start_url,
                "query": job.query,
                "status": "done",
                "stop_reason": summary.get("stop_reason"),
                "pages": summary.get("pages", 0),
                "relevant_pages": summary.get("relevant_pages", 0),
                "coverage": summary.get("coverage"),
                "elapsed_s": summary.get("elapsed_s", 0.0),
                "output": self.result_path(job).name,
            }
        outcome = JobOutcome.from_json(line, skipped=True)
        self.outcomes[job.id] = outcome
        if self._on_outcome is not None:
            self._on_outcome(outcome)
        return outcome

    def _record(self, outcome: JobOutcome) -> JobOutcome:
        with self.summary_path.open("a", encoding="utf-8") as fh:
            fh.write(dumps_record(outcome.to_json()))
        self.outcomes[outcome.id] = outcome
        if self._on_outcome is not None:
            self._on_outcome(outcome)
        return outcome

    def previous_lines(self) -> dict[str, dict[str, Any]]:
        """The summary file's latest line per job id (torn or bad lines ignored)."""
        lines: dict[str, dict[str, Any]] = {}
        if not self.summary_path.exists():
            return lines
        with self.summary_path.open(encoding="utf-8") as fh:
            for raw in fh:
                try:
                    data = json.loads(raw)
                except json.JSONDecodeError:
                    continue
                if isinstance(data, dict) and isinstance(data.get("id"), str):
                    lines.pop(data["id"], None)  # keep first-seen order of the latest
                    lines[data["id"]] = data
        return lines

    def compact(self, jobs: Sequence[Job]) -> None:
        """Rewrite the summary file: one line per job, the latest, in job order,
        then the lines of other jobs (other batches) in their order."""
        previous = self.previous_lines()
        ordered: list[dict[str, Any]] = []
        for job in jobs:
            outcome = self.outcomes.get(job.id)
            if outcome is not None:
                ordered.append(outcome.to_json())
            elif job.id in previous:
                ordered.append(previous[job.id])
        ids = {job.id for job in jobs}
        ordered.extend(line for key, line in previous.items() if key not in ids)
        tmp = self.summary_path.with_name(SUMMARY_FILE + ".tmp")
        with tmp.open("w", encoding="utf-8") as fh:
            for line in ordered:
                fh.write(dumps_record(line))
        os.replace(tmp, self.summary_path)


def _last_record(path: Path) -> dict[str, Any]:
    last: dict[str, Any] = {}
    with path.open(encoding="utf-8") as fh:
        for raw in fh:
            if raw.strip():
                last = json.loads(raw)
    return last


def describe_error(exc: BaseException) -> str:
    """One line for a failed job: the exception's class and first line."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


class Executor(Protocol):
    """Runs jobs and reports each to a :class:`BatchRecorder`.

    ``run`` returns when every job was reported, or soon after ``cancel`` is
    set (jobs in flight are then reported as interrupted). It is called from
    one thread and reports from one thread.
    """

    def run(
        self,
        jobs: Sequence[Job],
        recorder: BatchRecorder,
        render_settings: RenderSettings,
        cancel: threading.Event,
    ) -> None: ...


class LocalExecutor:
    """Runs ``workers`` jobs at once in this process, on one shared Chromium.

    Each job gets its own browser context (cookies, cache and service workers
    are not shared between jobs); the crawl's records go straight to the job's
    file, so memory holds at most ``workers`` crawls. When the browser dies it
    is launched again for the next job (the jobs it took down are failed).
    Runs on its own event loop in a worker thread, like :func:`~pw_adaptive.crawl`.
    """

    def __init__(self, workers: int = 2) -> None:
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        self.workers = workers

    def run(
        self,
        jobs: Sequence[Job],
        recorder: BatchRecorder,
        render_settings: RenderSettings,
        cancel: threading.Event,
    ) -> None:
        if not jobs:
            return
        with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="pw-batch") as pool:
            pool.submit(asyncio.run, self._run(jobs, recorder, render_settings, cancel)).result()

    async def _run(
        self,
        jobs: Sequence[Job],
        recorder: BatchRecorder,
        render_settings: RenderSettings,
        cancel: threading.Event,
    ) -> None:
        from playwright.async_api import Browser, async_playwright

        from pw_adaptive.api import AdaptiveCrawler
        from pw_adaptive.render.browser import launch_browser

        stop = asyncio.Event()
        semaphore = asyncio.Semaphore(self.workers)
        launch_lock = asyncio.Lock()

        async def watch_cancel() -> None:
            while not cancel.is_set():
                await asyncio.sleep(0.1)
            stop.set()

        async with async_playwright() as playwright:
            browser: Browser = await launch_browser(playwright, render_settings)

            async def live_browser() -> Browser:
                nonlocal browser
                async with launch_lock:
                    if not browser.is_connected():
                        browser = await launch_browser(playwright, render_settings)
                    return browser

            async def one(job: Job) -> None:
                async with semaphore:
                    if stop.is_set():
                        return
                    started = time.monotonic()
                    writer: JobWriter | None = None
                    try:
                        crawler = AdaptiveCrawler(
                            job.settings(),
                            render_settings=render_settings,
                            browser=await live_browser(),
                        )
                        writer = recorder.open(job)
                        await crawler.run(
                            job.start_url, job.query, on_record=writer.write, cancel=stop
                        )
                    except Exception as exc:
                        if stop.is_set():
                            recorder.interrupted(job, writer)
                        else:
                            recorder.failed(
                                job, writer, describe_error(exc), time.monotonic() - started
                            )
                        return
                    recorder.done(job, writer, time.monotonic() - started)

            watcher = asyncio.create_task(watch_cancel())
            try:
                await asyncio.gather(*(one(job) for job in jobs))
            finally:
                watcher.cancel()
                if browser.is_connected():
                    await browser.close()


def _executor_for(executor: Executor | str | None, workers: int | None) -> Executor:
    if executor is None or executor == "local":
        return LocalExecutor(2 if workers is None else workers)
    if executor == "ray":
        from pw_adaptive.ray_executor import RayExecutor

        return RayExecutor(workers=workers)
    if workers is not None:
        raise ValueError("workers is an option of the executor given; pass it there")
    if isinstance(executor, str):
        raise ValueError(f"unknown executor {executor!r}: 'local', 'ray' or an Executor")
    return executor


def _as_jobs(jobs: Iterable[Job | Mapping[str, Any]]) -> list[Job]:
    out: list[Job] = []
    seen: set[str] = set()
    for i, item in enumerate(jobs, 1):
        try:
            job = item if isinstance(item, Job) else Job.from_dict(item)
        except JobError as exc:
            raise JobError(f"job {i}: {exc}") from exc
        if job.id.lower() in seen:
            raise JobError(f"job {i}: job id {job.id!r} repeats an earlier job")
        seen.add(job.id.lower())
        out.append(job)
    return out


def crawl_many(
    jobs: Iterable[Job | Mapping[str, Any]],
    out_dir: str | os.PathLike[str],
    *,
    executor: Executor | Literal["local", "ray"] | None = None,
    workers: int | None = None,
    render_settings: RenderSettings | None = None,
    on_outcome: OutcomeSink | None = None,
    cancel: threading.Event | None = None,
) -> list[JobOutcome]:
    """Run a batch of crawls; results and ``summary.jsonl`` go to ``out_dir``.

    ``jobs`` are :class:`Job` or job objects as in a jobs file (checked all
    before anything runs: :class:`JobError`). Jobs whose result file exists
    are skipped. ``executor``: a :class:`LocalExecutor` (the default, with
    ``workers`` jobs at once, 2 when not given), ``"ray"`` or a
    ``RayExecutor`` (see :mod:`pw_adaptive.ray_executor`). ``on_outcome`` is
    called as each job ends or is skipped. Setting ``cancel`` stops the batch:
    jobs in flight are dropped (they run again next time), no new one starts.

    Returns the outcome of every job that ended or was skipped, in job order.
    A job that failed is an outcome with ``status == "failed"``, never an
    exception; a browser that cannot be launched at all raises.
    """
    batch = _as_jobs(jobs)
    runner = _executor_for(executor, workers)
    recorder = BatchRecorder(out_dir, on_outcome)
    previous = recorder.previous_lines()
    todo: list[Job] = []
    for job in batch:
        if recorder.is_done(job):
            recorder.skipped(job, previous)
        else:
            todo.append(job)
    try:
        runner.run(todo, recorder, render_settings or RenderSettings(), cancel or threading.Event())
    finally:
        recorder.compact(batch)
    return [recorder.outcomes[job.id] for job in batch if job.id in recorder.outcomes]


def iter_results(out_dir: str | os.PathLike[str], job: Job) -> Iterator[dict[str, Any]]:
    """The records of a done job's result file, in order (empty when not done)."""
    path = Path(out_dir) / f"{job.id}{RESULT_SUFFIX}"
    if not path.is_file():
        return
    with path.open(encoding="utf-8") as fh:
        for raw in fh:
            if raw.strip():
                yield json.loads(raw)
