"""A batch job's crawl state file, and whether a rerun resumes from it.

Each job of a batch crawls with a state file, ``<job id>.state`` in the output
directory (SQLite, see :mod:`pw_adaptive.crawling.checkpoint`; ``-wal`` and ``-shm``
files sit next to it while it is open or after a kill). The crawl saves to it
every ``checkpoint_every`` pages and sends a record only once it is saved, so
the records a job's ``<id>.jsonl.part`` holds are always a prefix of those
its state file holds. A rerun of an unfinished job therefore resumes: the
pages the state holds are not fetched again, and the saved records the
``.part`` lacks are sent again (``AdaptiveCrawler.run(resend_from=...)``).

:func:`plan_resume` decides, on the side that runs the crawl, before the
crawl starts: resume (the state belongs to this job, holds at least the
records of the ``.part``) or start over (no state file; a state of other
settings or query, of another pw_adaptive version, or not a state file at
all; a ``.part`` longer than the state). Starting over deletes the state
file and says why in :attr:`ResumePlan.note`; it never raises.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pw_adaptive.batch.jobs import Job

__all__ = ["STATE_SUFFIX", "ResumePlan", "plan_resume", "remove_state", "saved_records"]

STATE_SUFFIX = ".state"
"""A job's state file is ``<job id>.state`` in the batch's output directory."""

_SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


@dataclass(frozen=True)
class ResumePlan:
    """How a job's crawl starts."""

    resume: bool
    """Continue the job's ``.part`` (its records are kept); False: start it over."""
    saved: int = 0
    """Records the state file holds (0 when starting over)."""
    note: str | None = None
    """Why a state file was not used (it was deleted), or None."""


def saved_records(job: Job, state: str | os.PathLike[str]) -> int:
    """The records ``state`` holds for ``job``'s crawl (0 when none was saved yet).

    ``ValueError`` (with :class:`~pw_adaptive.crawling.checkpoint.Checkpoint`'s message)
    when the file is not a pw_adaptive state file, is corrupt, is of another
    schema or crawl state layout, or belongs to another crawl: the crawl key
    of the job's start URL, query and settings differs, exactly as
    ``AdaptiveCrawler.run(state_path=...)`` computes and checks it.
    """
    from pw_adaptive.core.query import Query
    from pw_adaptive.core.urls import canonicalize_url
    from pw_adaptive.crawling.api import STATE_LAYOUT, crawl_key
    from pw_adaptive.crawling.checkpoint import Checkpoint

    key = crawl_key(canonicalize_url(job.start_url), Query(job.query), job.settings())
    with Checkpoint(state, crawl_key=key) as checkpoint:
        run = checkpoint.get_state("run")
    if run is None:
        return 0
    if not isinstance(run, dict) or run.get("layout") != STATE_LAYOUT:
        raise ValueError(
            f"state file {os.fspath(state)} was written by another version of pw_adaptive"
        )
    return int(run["records"])


def remove_state(state: str | os.PathLike[str]) -> None:
    """Delete a state file and its SQLite companions (``-wal``, ``-shm``, ``-journal``)."""
    path = Path(state)
    path.unlink(missing_ok=True)
    for suffix in _SQLITE_COMPANIONS:
        path.with_name(path.name + suffix).unlink(missing_ok=True)


def plan_resume(job: Job, state: str | os.PathLike[str], held: int) -> ResumePlan:
    """Resume ``job`` from ``state``, or start it over; ``held`` is the number of
    records its ``.part`` holds (``pw_adaptive.crawling.output.count_records``).

    Resumes when the state file exists, belongs to this job's crawl and holds
    at least ``held`` records. Otherwise the state file (if any) is deleted
    and the plan says to start the ``.part`` over, with a note when a state
    file was there. Never raises for a bad state file.
    """
    path = Path(state)
    if not path.exists():
        return ResumePlan(resume=False)
    try:
        saved = saved_records(job, path)
    except ValueError as exc:
        remove_state(path)
        return ResumePlan(
            resume=False, note=f"{job.id}: state file not resumed, the job starts over: {exc}"
        )
    if saved < held:
        remove_state(path)
        return ResumePlan(
            resume=False,
            note=(
                f"{job.id}: the partial output holds {held} records but state file"
                f" {path.name} saved {saved}; the job starts over"
            ),
        )
    return ResumePlan(resume=True, saved=saved)
