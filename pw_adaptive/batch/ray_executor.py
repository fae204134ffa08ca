"""Run a batch on a Ray cluster: one actor per worker, each owning its Chromium.

``RayExecutor`` is an executor for :func:`pw_adaptive.batch.local.crawl_many`. It
starts ``workers`` actors (:class:`CrawlWorker`), each with its own Playwright
and Chromium, keeps every actor busy with one job at a time, and takes each
job's records back as soon as that job ends (``ray.wait``). The driver writes
them through the same :class:`~pw_adaptive.batch.output.BatchRecorder` as the local
executor, so the output directory is the same (timings aside).

Each job travels with the absolute path of its state file
(``<out>/<id>.state``) and the number of records its ``.part`` holds; the
actor crawls with that state file when the output directory exists on its
node (a shared file system, or a Ray on one machine), so an interrupted or
failed job resumes on the next run exactly as with the local executor. On a
node that does not see the output directory the job runs without a state
file, as a fresh crawl, and cannot resume (a warning says so once per
batch); results are still written by the driver alone. Cancelling the batch
asks every busy actor to stop its crawl (stop reason ``cancelled``, state
saved) and waits up to :data:`CANCEL_WAIT_S` for their replies.

Ray is an optional dependency (``pip install 'pw-adaptive[ray]'``), imported
only when a batch runs on it. Every node needs pw_adaptive and a Chromium
(see docs/scale.md).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pw_adaptive.batch.job_state import ResumePlan, plan_resume
from pw_adaptive.batch.jobs import Job
from pw_adaptive.batch.output import BatchRecorder, describe_error
from pw_adaptive.render.browser import BROWSER_ARGS_ENV, CHROMIUM_ENV
from pw_adaptive.render.records import RenderSettings

__all__ = ["CrawlWorker", "MissingRayError", "RayExecutor", "import_ray"]

FORWARDED_ENV = (BROWSER_ARGS_ENV, CHROMIUM_ENV)
"""Driver environment variables a worker takes when its own environment lacks them."""

_POLL_S = 0.2
CANCEL_WAIT_S = 15.0
"""Seconds a cancelled batch waits for the busy actors' replies (their crawls
stop within about a second); jobs still running then are interrupted as they are."""

logger = logging.getLogger(__name__)

if TYPE_CHECKING:
    from pw_adaptive.crawling.api import AdaptiveCrawler


class MissingRayError(ImportError):
    """Ray is not installed; the message says how to install it."""


def import_ray() -> Any:
    """``import ray``, or :class:`MissingRayError` telling how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise MissingRayError(
            "running a batch on Ray needs Ray: pip install 'pw-adaptive[ray]'"
        ) from exc
    return ray


class CrawlWorker:
    """The body of a Ray actor: one Playwright and one Chromium, one job at a time.

    Chromium is launched on the first job and again when it has died. Each
    job gets its own browser context. :meth:`run_job` never raises for a job
    that fails: the error comes back in the reply. :meth:`cancel` stops the
    job running (and any later one) as a cancelled crawl.
    """

    def __init__(self, render_settings: RenderSettings, environ: Mapping[str, str]) -> None:
        for key, value in environ.items():
            os.environ.setdefault(key, value)
        self._render_settings = render_settings
        self._playwright: Any = None
        self._browser: Any = None
        self._cancelled = False
        self._stop: asyncio.Event | None = None

    async def _live_browser(self) -> Any:
        from playwright.async_api import async_playwright

        from pw_adaptive.render.browser import launch_browser

        if self._playwright is None:
            self._playwright = await async_playwright().start()
        if self._browser is None or not self._browser.is_connected():
            self._browser = await launch_browser(self._playwright, self._render_settings)
        return self._browser

    async def _crawler(self, job: Job) -> AdaptiveCrawler:
        from pw_adaptive.crawling.api import AdaptiveCrawler

        return AdaptiveCrawler(
            job.settings(),
            render_settings=job.render_settings(self._render_settings),
            browser=await self._live_browser(),
        )

    async def run_job(
        self, job_data: Mapping[str, Any], state_path: str | None = None, held: int = 0
    ) -> dict[str, Any]:
        """Crawl one job (as :meth:`Job.to_json`) with its state file.

        ``state_path`` is the job's state file on the driver and ``held`` the
        records its ``.part`` holds. When the file's directory exists here the
        crawl saves to it and resumes from it (:func:`plan_resume`), sending
        the saved records from the ``held``-th on; otherwise it runs without
        one. Returns ``{"id", "records", "error", "elapsed_s", "plan",
        "checkpointed"}``: the records sent, in order; the
        :class:`~pw_adaptive.batch.job_state.ResumePlan` (``resume``: the records
        continue the ``.part``); whether a state file was used.
        """
        started = time.monotonic()
        records: list[dict[str, Any]] = []
        error: str | None = None
        plan = ResumePlan(resume=False)
        state = Path(state_path) if state_path is not None else None
        if state is not None and not state.parent.is_dir():
            state = None  # the output directory is not visible on this node
        self._stop = asyncio.Event()
        if self._cancelled:
            self._stop.set()
        try:
            job = Job.from_dict(job_data)
            crawler = await self._crawler(job)
            if state is not None:
                plan = plan_resume(job, state, held)
            await crawler.run(
                job.start_url,
                job.query,
                on_record=records.append,
                state_path=state,
                cancel=self._stop,
                resend_from=held if plan.resume else None,
            )
        except Exception as exc:
            error = describe_error(exc)
        return {
            "id": job_data.get("id"),
            "records": records,
            "error": error,
            "elapsed_s": time.monotonic() - started,
            "plan": plan,
            "checkpointed": state is not None,
        }

    async def cancel(self) -> None:
        """Stop the running job's crawl (stop reason ``cancelled``) and any later one."""
        self._cancelled = True
        if self._stop is not None:
            self._stop.set()

    async def close(self) -> None:
        """Close Chromium and stop Playwright."""
        if self._browser is not None and self._browser.is_connected():
            await self._browser.close()
        if self._playwright is not None:
            await self._playwright.stop()
        self._browser = self._playwright = None


class RayExecutor:
    """Runs a batch's jobs on Ray actors, ``workers`` at once.

    ``address``: a running cluster (``"auto"``, ``"ray://head:10001"``, or
    ``RAY_ADDRESS`` when None and set); None starts a local Ray for the
    batch and shuts it down afterwards. When Ray is already initialised in
    this process it is used as it is and left running. ``workers`` defaults
    to the cluster's CPUs divided by ``cpus_per_worker`` (the CPUs each actor
    reserves: Chromium renders on them). ``init_kwargs`` go to ``ray.init``
    (for instance ``_temp_dir``, ``num_cpus``, ``runtime_env``).
    """

    def __init__(
        self,
        address: str | None = None,
        *,
        workers: int | None = None,
        cpus_per_worker: float = 1.0,
        init_kwargs: Mapping[str, Any] | None = None,
    ) -> None:
        if workers is not None and workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        if cpus_per_worker <= 0:
            raise ValueError(f"cpus_per_worker must be > 0, got {cpus_per_worker}")
        self.address = address
        self.workers = workers
        self.cpus_per_worker = cpus_per_worker
        self.init_kwargs = dict(init_kwargs or {})
        import_ray()  # fail early, before any job is looked at

    def _init(self, ray: Any) -> bool:
        """Connect to or start Ray; True when this call started it."""
        if ray.is_initialized():
            return False
        kwargs: dict[str, Any] = {"include_dashboard": False, **self.init_kwargs}
        address = self.address or os.environ.get("RAY_ADDRESS") or None
        if address:
            kwargs["address"] = address
        elif "num_cpus" not in kwargs and self.workers is not None:
            # A local Ray must fit every worker, whatever the core count.
            needed = int(self.workers * self.cpus_per_worker + 0.999)
            kwargs["num_cpus"] = max(os.cpu_count() or 1, needed)
        ray.init(**kwargs)
        return True

    def run(
        self,
        jobs: Sequence[Job],
        recorder: BatchRecorder,
        render_settings: RenderSettings,
        cancel: threading.Event,
    ) -> None:
        if not jobs:
            return
        ray = import_ray()
        started_here = self._init(ray)
        actors: list[Any] = []
        try:
            cpus = float(ray.cluster_resources().get("CPU", 1.0))
            count = self.workers or max(1, int(cpus // self.cpus_per_worker))
            count = min(count, len(jobs))
            actor_class = ray.remote(num_cpus=self.cpus_per_worker, max_restarts=0)(CrawlWorker)
            environ = {k: os.environ[k] for k in FORWARDED_ENV if k in os.environ}

            def new_actor() -> Any:
                actor = actor_class.remote(render_settings, environ)
                actors.append(actor)
                return actor

            queue = deque(jobs)
            pending: dict[Any, tuple[Any, Job, float]] = {}
            warned = False

            def submit(actor: Any) -> None:
                job = queue.popleft()
                state = str(recorder.state_path(job))
                ref = actor.run_job.remote(job.to_json(), state, recorder.held_records(job))
                pending[ref] = (actor, job, time.monotonic())

            def collect(ref: Any) -> Any:
                """Record a finished job; returns its actor, or a new one if it died."""
                nonlocal warned
                actor, job, submitted = pending.pop(ref)
                try:
                    reply = ray.get(ref)
                except Exception as exc:  # the actor died (Chromium took it down, OOM)
                    elapsed = time.monotonic() - submitted
                    recorder.raised(
                        job, None, describe_error(exc), elapsed, cancelled=cancel.is_set()
                    )
                    actors.remove(actor)
                    ray.kill(actor)
                    return new_actor() if not cancel.is_set() else None
                if not reply["checkpointed"] and not warned:
                    warned = True
                    logger.warning(
                        "%s is not visible on every Ray node: jobs there run without a"
                        " state file and cannot resume (use a shared file system)",
                        recorder.out_dir.resolve(),
                    )
                _record(recorder, job, reply, interrupted=cancel.is_set())
                return actor

            for _ in range(count):
                submit(new_actor())
            while pending and not cancel.is_set():
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=_POLL_S)
                for ref in ready:
                    actor = collect(ref)
                    if queue and not cancel.is_set():
                        submit(actor)
            if pending:  # cancelled: the busy actors stop their crawls, state saved
                for actor, _job, _ in pending.values():
                    actor.cancel.remote()
                deadline = time.monotonic() + CANCEL_WAIT_S
                while pending and time.monotonic() < deadline:
                    ready, _ = ray.wait(list(pending), num_returns=1, timeout=_POLL_S)
                    for ref in ready:
                        collect(ref)
            for _actor, job, _ in pending.values():
                recorder.interrupted(job, None)
        finally:
            _close(ray, actors)
            if started_here:
                ray.shutdown()


def _record(
    recorder: BatchRecorder, job: Job, reply: Mapping[str, Any], *, interrupted: bool = False
) -> None:
    """Write a job's reply through ``recorder``: its ``.part`` continued or
    started over as the actor's resume plan says, then done or failed (a
    failure while the batch is cancelled counts as interrupted, as locally:
    :meth:`BatchRecorder.raised`)."""
    plan: ResumePlan = reply["plan"]
    recorder.started(job, plan)
    writer = recorder.open(job, resume=plan.resume)
    for record in reply["records"]:
        writer.write(record)
    elapsed = float(reply["elapsed_s"])
    if reply["error"]:
        recorder.raised(job, writer, str(reply["error"]), elapsed, cancelled=interrupted)
    else:
        recorder.done(job, writer, elapsed)


def _close(ray: Any, actors: Sequence[Any]) -> None:
    """Close every actor's browser (bounded wait), then end the actors."""
    closing = [actor.close.remote() for actor in actors]
    if closing:
        ray.wait(closing, num_returns=len(closing), timeout=30)
    for actor in actors:
        ray.kill(actor)
