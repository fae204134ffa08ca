"""A batch's output directory: result files, state files, ``summary.jsonl``.

:class:`BatchRecorder` owns the directory; executors report every job to it
(see :mod:`pw_adaptive.batch.local`). In the directory:

* ``<job id>.jsonl`` per finished job: the crawl's JSON Lines (pages,
  attachments, the final summary), exactly what ``pw-adaptive crawl --out``
  writes. It is written as ``<job id>.jsonl.part`` and renamed once the
  summary record is in it, so a result file that exists is complete: a rerun
  skips its job.
* ``<job id>.state`` per unfinished job: the crawl's state file (see
  :mod:`pw_adaptive.batch.job_state`), saved every ``checkpoint_every`` pages and
  deleted once the result file is renamed. A job that was interrupted (the
  batch cancelled, the process killed) or failed keeps its ``.part`` and its
  state file, and the next run resumes it: pages already fetched are not
  fetched again, the ``.part`` is completed from the state file and appended
  to, and the result file ends up as an uninterrupted crawl writes it. A
  state file of other settings or another query (a job id reused), of
  another pw_adaptive version, or not a state file is deleted and the job
  starts over, with a warning on the ``pw_adaptive.batch.local`` logger and in the
  outcome's ``note``.
* ``summary.jsonl``: one line per job (:meth:`JobOutcome.to_json`): status
  ``done`` or ``failed``, stop reason, pages, relevant pages, coverage,
  elapsed seconds, error. A line is appended as each job ends, so a batch
  that is killed keeps what it finished; when the batch ends the file is
  rewritten (temporary file, then rename) with exactly one line per job, the
  latest, in the order of the jobs, followed by the lines of jobs from other
  batches written to the same directory. A job skipped as done keeps its line
  (rebuilt from its result file's summary record when it is missing).
"""

from __future__ import annotations

import json
import logging
import os
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from pw_adaptive.batch.job_state import STATE_SUFFIX, ResumePlan, remove_state
from pw_adaptive.batch.jobs import Job
from pw_adaptive.core.stopper import StopReason
from pw_adaptive.crawling.output import JsonlWriter, count_records, dumps_record

__all__ = [
    "PART_SUFFIX",
    "RESULT_SUFFIX",
    "SUMMARY_FILE",
    "BatchRecorder",
    "JobOutcome",
    "JobWriter",
    "OutcomeSink",
    "describe_error",
    "read_records",
]

SUMMARY_FILE = "summary.jsonl"
"""Name of the per-job summary file in a batch's output directory."""

RESULT_SUFFIX = ".jsonl"
PART_SUFFIX = ".jsonl.part"

logger = logging.getLogger("pw_adaptive.batch.local")
"""Notes on resumed and restarted jobs (the batch's logger, whichever module logs)."""


def describe_error(exc: BaseException) -> str:
    """One line for a failed job: the exception's class and first line."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


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
    note: str | None = None
    """How the job started when it did not simply start: resumed from its
    state file, or started over because the state file could not be used
    (not written to the file; also logged)."""

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
    """A job's result file while it is written: records go to ``<id>.jsonl.part``.

    With ``resume`` the ``.part`` of an earlier run is continued: a torn last
    line and a summary line are cut (``pw_adaptive.crawling.output.prepare_append``)
    and ``records_before`` counts the records kept; otherwise it is started
    over. ``records`` counts the records it holds, the summary excepted.
    """

    def __init__(self, part: Path, *, resume: bool = False) -> None:
        self.part = part
        self.summary: dict[str, Any] | None = None
        self._writer = JsonlWriter(part, append=resume)
        self.records_before = self._writer.records_before
        self.records = self.records_before

    def write(self, record: dict[str, Any]) -> None:
        """Write one record (the crawl's ``on_record`` sink)."""
        self._writer.write(record)
        if record.get("type") == "summary":
            self.summary = record
        else:
            self.records += 1

    def close(self) -> None:
        self._writer.close()


class BatchRecorder:
    """Owns a batch's output directory; executors report every job to it.

    For a job the crawling side calls
    :func:`~pw_adaptive.batch.job_state.plan_resume` with :meth:`state_path` and
    the records the ``.part`` holds (:meth:`held_records`, or
    :attr:`JobWriter.records_before` of a writer opened to resume; see
    :func:`pw_adaptive.batch.local.run_job`); the executor calls :meth:`started`
    with the plan and :meth:`open`, writes each record to the returned
    :class:`JobWriter` as it comes, then calls exactly one of :meth:`done`,
    :meth:`failed` (or :meth:`raised`) or :meth:`interrupted`.
    Calls must come from one thread at a time (each executor calls from one
    thread).
    """

    def __init__(self, out_dir: str | os.PathLike[str], on_outcome: OutcomeSink | None = None):
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.summary_path = self.out_dir / SUMMARY_FILE
        self._on_outcome = on_outcome
        self.outcomes: dict[str, JobOutcome] = {}
        self._notes: dict[str, str] = {}

    def result_path(self, job: Job) -> Path:
        return self.out_dir / f"{job.id}{RESULT_SUFFIX}"

    def part_path(self, job: Job) -> Path:
        return self.out_dir / f"{job.id}{PART_SUFFIX}"

    def state_path(self, job: Job) -> Path:
        """The job's crawl state file (absolute: a Ray actor opens it on its side)."""
        return self.out_dir.resolve() / f"{job.id}{STATE_SUFFIX}"

    def is_done(self, job: Job) -> bool:
        """The job's result file exists: it was renamed there complete."""
        return self.result_path(job).is_file()

    def held_records(self, job: Job) -> int:
        """The complete records the job's ``.part`` holds (a torn last line and
        summary lines not counted): what a resumed crawl need not send again."""
        return count_records(self.part_path(job))

    def started(self, job: Job, plan: ResumePlan) -> None:
        """Note how the job starts: a state file that could not be used (a
        warning) or a resume (info); the note goes to the job's outcome."""
        if plan.note is not None:
            logger.warning("%s", plan.note)
            self._notes[job.id] = plan.note
        elif plan.resume and plan.saved:
            note = f"{job.id}: resumed from its state file ({plan.saved} records saved)"
            logger.info("%s", note)
            self._notes[job.id] = note

    def open(self, job: Job, *, resume: bool = False) -> JobWriter:
        """The job's ``.part``: continued when ``resume`` (see :class:`JobWriter`),
        otherwise started over."""
        return JobWriter(self.part_path(job), resume=resume)

    def done(self, job: Job, writer: JobWriter, elapsed_s: float) -> JobOutcome | None:
        """The crawl ended with its summary record: rename the file, delete the
        state file, record the job.

        A crawl that stopped as ``cancelled`` is not done: it is handed to
        :meth:`interrupted` (None is returned) and resumes on the next run.
        """
        writer.close()
        summary = writer.summary
        if summary is None:
            return self.failed(job, writer, "the crawl ended without a summary record", elapsed_s)
        if summary.get("stop_reason") == StopReason.CANCELLED:
            self.interrupted(job, writer)
            return None
        os.replace(writer.part, self.result_path(job))
        remove_state(self.state_path(job))
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
        """The job could not finish: record the error; the next run resumes it.

        The pages it fetched are good (a crash, a browser that died, a site
        that went down midway), so its state file is kept, and so is its
        ``.part`` when it holds records. A ``.part`` with no record, or one
        without a state file to resume it from, is deleted. (A state file is
        never deleted here: the crawl that failed may still hold it open.)
        """
        if writer is not None:
            writer.close()
            if writer.records == 0 or not self.state_path(job).exists():
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

    def raised(
        self,
        job: Job,
        writer: JobWriter | None,
        error: str,
        elapsed_s: float,
        *,
        cancelled: bool,
    ) -> None:
        """The job's crawl raised (or its worker died): :meth:`interrupted`
        when the batch was being cancelled (a crawl may raise as it stops),
        :meth:`failed` otherwise."""
        if cancelled:
            self.interrupted(job, writer)
        else:
            self.failed(job, writer, error, elapsed_s)

    def interrupted(self, job: Job, writer: JobWriter | None) -> None:
        """The batch was cancelled during the job: no line, no result file.

        The ``.part`` and the state file are kept for the next run to resume;
        a ``.part`` without a state file cannot be resumed and is deleted.
        """
        self._notes.pop(job.id, None)
        if writer is not None:
            writer.close()
            if not self.state_path(job).exists():
                writer.part.unlink(missing_ok=True)

    def skipped(self, job: Job, previous: Mapping[str, dict[str, Any]]) -> JobOutcome:
        """A job done in an earlier run: its line from ``previous`` (the summary
        file's latest line per id) or rebuilt from its result file."""
        line = previous.get(job.id)
        if line is None or line.get("status") != "done":
            last = deque(read_records(self.result_path(job)), maxlen=1)
            summary = last[0] if last else {}
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
        note = self._notes.pop(outcome.id, None)
        if note is not None:
            outcome = replace(outcome, note=note)
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

    def compact(self, jobs: Sequence[Job], previous: Mapping[str, dict[str, Any]]) -> None:
        """Rewrite the summary file: one line per job, the latest, in job order,
        then the lines of other jobs (other batches) in their order.

        ``previous`` is :meth:`previous_lines` read before the batch ran: the
        lines appended since are this batch's, and :attr:`outcomes` holds them.
        """
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


def read_records(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a JSON Lines file, in order (blank lines skipped)."""
    with path.open(encoding="utf-8") as fh:
        for raw in fh:
            if raw.strip():
                yield json.loads(raw)
