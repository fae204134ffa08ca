"""Many crawls at once: the local executor and :func:`crawl_many`.

A batch is a sequence of :class:`~pw_adaptive.batch.jobs.Job` (a start URL, a
query and crawl options; see :mod:`pw_adaptive.batch.jobs`). :func:`crawl_many`
runs the jobs not done yet on an executor and writes one output directory
(:mod:`pw_adaptive.batch.output`): ``<job id>.jsonl`` per finished job,
``summary.jsonl`` with one line per job, and, for a job not finished yet,
its ``<job id>.jsonl.part`` and crawl state file ``<job id>.state``, from
which the next run resumes it (:mod:`pw_adaptive.batch.job_state`).

A failing job (start URL unreachable, a crash) is recorded as failed and
never stops the others. Executors: :class:`LocalExecutor` (one browser in
this process, a context per job) and ``pw_adaptive.batch.ray_executor.RayExecutor``
(a Ray cluster). Both hand every record to the same :class:`BatchRecorder`,
so their output directories are identical but for timings.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pw_adaptive.batch.job_state import plan_resume
from pw_adaptive.batch.jobs import Job, check_jobs
from pw_adaptive.batch.output import (
    RESULT_SUFFIX,
    SUMMARY_FILE,
    BatchRecorder,
    JobOutcome,
    JobWriter,
    OutcomeSink,
    describe_error,
    read_records,
)
from pw_adaptive.render.records import RenderSettings

if TYPE_CHECKING:
    from pw_adaptive.crawling.api import AdaptiveCrawler

__all__ = [
    "SUMMARY_FILE",
    "BatchRecorder",
    "Executor",
    "JobOutcome",
    "LocalExecutor",
    "crawl_many",
    "run_job",
]


async def run_job(
    job: Job,
    recorder: BatchRecorder,
    make_crawler: Callable[[], Awaitable[AdaptiveCrawler]],
    cancel: asyncio.Event,
) -> None:
    """Run one job in this process and report it to ``recorder``.

    The job resumes from its state file when it can (:func:`plan_resume`):
    its ``.part`` is continued and the crawl sends the saved records it
    lacks, then the new ones. Setting ``cancel`` stops the crawl; the job is
    then reported as interrupted, its ``.part`` and state file kept. Any
    exception fails the job (never raised).
    """
    started = time.monotonic()
    writer: JobWriter | None = None
    try:
        crawler = await make_crawler()
        state = recorder.state_path(job)
        # Opened to resume first: that cuts a torn tail and counts the records
        # kept, in one pass over the .part, and the plan needs that count.
        writer = recorder.open(job, resume=True)
        plan = plan_resume(job, state, writer.records_before)
        recorder.started(job, plan)
        if not plan.resume:
            writer.close()
            writer = recorder.open(job)
        await crawler.run(
            job.start_url,
            job.query,
            on_record=writer.write,
            state_path=state,
            cancel=cancel,
            resend_from=writer.records_before,
        )
    except Exception as exc:
        elapsed = time.monotonic() - started
        recorder.raised(job, writer, describe_error(exc), elapsed, cancelled=cancel.is_set())
        return
    recorder.done(job, writer, time.monotonic() - started)


class Executor(Protocol):
    """Runs jobs and reports each to a :class:`BatchRecorder`.

    ``run`` returns when every job was reported, or soon after ``cancel`` is
    set (jobs in flight are then reported as interrupted). It is called from
    one thread and reports from one thread. An executor that crawls in this
    process runs each job with :func:`run_job`, which resumes it from its
    state file; one that crawls elsewhere does what ``run_job`` does there
    (see ``pw_adaptive.batch.ray_executor``).
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

        from pw_adaptive.crawling.api import AdaptiveCrawler
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

                    async def make_crawler() -> AdaptiveCrawler:
                        return AdaptiveCrawler(
                            job.settings(),
                            render_settings=job.render_settings(render_settings),
                            browser=await live_browser(),
                        )

                    await run_job(job, recorder, make_crawler, stop)

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
        from pw_adaptive.batch.ray_executor import RayExecutor

        return RayExecutor(workers=workers)
    if workers is not None:
        raise ValueError("workers is an option of the executor given; pass it there")
    if isinstance(executor, str):
        raise ValueError(f"unknown executor {executor!r}: 'local', 'ray' or an Executor")
    return executor


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
    ``RayExecutor`` (see :mod:`pw_adaptive.batch.ray_executor`). ``on_outcome`` is
    called as each job ends or is skipped. Setting ``cancel`` stops the batch:
    jobs in flight stop (they resume next time from their state file), no new
    one starts. Jobs interrupted or failed in an earlier run resume.

    Returns the outcome of every job that ended or was skipped, in job order.
    A job that failed is an outcome with ``status == "failed"``, never an
    exception; a browser that cannot be launched at all raises.
    """
    batch = check_jobs(enumerate(jobs, 1))
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
        recorder.compact(batch, previous)
    return [recorder.outcomes[job.id] for job in batch if job.id in recorder.outcomes]


def iter_results(out_dir: str | os.PathLike[str], job: Job) -> Iterator[dict[str, Any]]:
    """The records of a done job's result file, in order (empty when not done)."""
    path = Path(out_dir) / f"{job.id}{RESULT_SUFFIX}"
    if path.is_file():
        yield from read_records(path)
