"""Batch scaling: 20 fixture jobs with 1, 2 and 4 local workers and on a local Ray.

Serves the fixture portals on 127.0.0.1 and runs the same batch of jobs
(``--jobs`` fixture tasks taken round-robin over the portals, each with
``--pages`` as its budget and ``--concurrency`` pages in flight) once per
executor, each into a fresh output directory. Prints, per executor, the wall
time, the pages fetched, pages per second, the speed-up against 1 local
worker, the peak memory of this process and all its descendants (Chromium,
Ray's processes; summed PSS), and whether every job found the same pages and
stop reason as with 1 worker. Ray is started once beforehand (its start-up
time is printed apart); its actors and their browsers start inside the timed
run. Writes the figures as JSON.

    .venv/bin/python benchmarks/batch_scale.py [--jobs 20] [--pages 8] [--concurrency 1]
        [--workers 1 2 4] [--ray-workers 2] [--json benchmarks/results/batch_scale.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from itertools import zip_longest
from pathlib import Path
from typing import Any

from fixtures_site import serve_portals
from pw_adaptive.batch.jobs import Job
from pw_adaptive.batch.local import Executor, LocalExecutor, crawl_many, iter_results

os.environ.setdefault(
    "PW_ADAPTIVE_BROWSER_ARGS", '"--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"'
)


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def _pss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


@contextmanager
def peak_memory() -> Iterator[dict[str, float]]:
    """Samples the summed PSS of this process tree every 0.5 s; ``peak_mib`` at exit."""
    found = {"peak_mib": 0.0}
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            total = sum(_pss_kib(pid) for pid in _descendants(os.getpid()))
            found["peak_mib"] = max(found["peak_mib"], total / 1024)
            stop.wait(0.5)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield found
    finally:
        stop.set()
        thread.join()


@dataclass
class Row:
    executor: str
    workers: int
    wall_s: float
    jobs_done: int
    jobs_failed: int
    pages: int
    pages_per_s: float
    speedup_vs_1: float = 0.0
    peak_mib: float = 0.0
    same_as_1_worker: bool | None = None


def pick_jobs(tasks: list[dict[str, Any]], count: int, options: dict[str, Any]) -> list[Job]:
    """``count`` tasks taken round-robin over the portals (every site gets work)."""
    by_portal: dict[str, list[dict[str, Any]]] = {}
    for task in tasks:
        by_portal.setdefault(task["portal"], []).append(task)
    ordered = [t for group in zip_longest(*by_portal.values()) for t in group if t is not None]
    return [Job(t["start_url"], t["query"], options, id=t["id"]) for t in ordered[:count]]


def fingerprints(out: Path, jobs: list[Job]) -> dict[str, tuple[frozenset[str], str]]:
    found = {}
    for job in jobs:
        records = list(iter_results(out, job))
        if records:
            pages = frozenset(r["url"] for r in records if r["type"] == "page")
            found[job.id] = (pages, str(records[-1]["stop_reason"]))
    return found


def run_one(name: str, workers: int, executor: Executor, jobs: list[Job], root: Path) -> Row:
    out = root / f"{name}-{workers}"
    shutil.rmtree(out, ignore_errors=True)
    with peak_memory() as memory:
        started = time.monotonic()
        outcomes = crawl_many(jobs, out, executor=executor)
        wall = time.monotonic() - started
    pages = sum(o.pages for o in outcomes)
    failed = sum(o.status == "failed" for o in outcomes)
    row = Row(name, workers, round(wall, 2), len(outcomes) - failed, failed, pages,
              round(pages / wall, 2), peak_mib=round(memory["peak_mib"]))  # fmt: skip
    print(f"  {name:5} workers={workers}: {wall:6.1f} s, {pages} pages, "
          f"{pages / wall:.2f} pages/s, peak {memory['peak_mib']:.0f} MiB", flush=True)  # fmt: skip
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--jobs", type=int, default=20)
    parser.add_argument("--pages", type=int, default=8, help="max_pages of every job")
    parser.add_argument("--concurrency", type=int, default=1, help="pages in flight per job")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--ray-workers", type=int, nargs="*", default=[2])
    parser.add_argument("--json", default="benchmarks/results/batch_scale.json")
    args = parser.parse_args(argv)
    options = {"max_pages": args.pages, "concurrency": args.concurrency}
    load_before = os.getloadavg()
    root = Path(tempfile.mkdtemp(prefix="batch-scale-"))
    rows: list[Row] = []
    ray_start_s: float | None = None
    try:
        with serve_portals() as sites:
            jobs = pick_jobs(sites.tasks(), args.jobs, options)
            print(f"{len(jobs)} jobs, max_pages={args.pages}, concurrency={args.concurrency}, "
                  f"{os.cpu_count()} CPUs, load average {load_before[0]:.1f}", flush=True)  # fmt: skip
            reference: dict[str, Any] | None = None
            for workers in args.workers:
                row = run_one("local", workers, LocalExecutor(workers), jobs, root)
                found = fingerprints(root / f"local-{workers}", jobs)
                if workers == 1:
                    reference = found
                elif reference is not None:
                    row.same_as_1_worker = found == reference
                rows.append(row)
            if args.ray_workers:
                import ray

                from pw_adaptive.batch.ray_executor import RayExecutor

                temp = tempfile.mkdtemp(prefix="pwray", dir="/tmp")
                started = time.monotonic()
                ray.init(num_cpus=max(args.ray_workers), include_dashboard=False,
                         object_store_memory=200 * 1024 * 1024, _temp_dir=temp)  # fmt: skip
                ray_start_s = round(time.monotonic() - started, 2)
                print(f"  ray started in {ray_start_s:.1f} s", flush=True)
                try:
                    for workers in args.ray_workers:
                        row = run_one("ray", workers, RayExecutor(workers=workers), jobs, root)
                        found = fingerprints(root / f"ray-{workers}", jobs)
                        row.same_as_1_worker = None if reference is None else found == reference
                        rows.append(row)
                finally:
                    ray.shutdown()
                    shutil.rmtree(temp, ignore_errors=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    base = next((r.wall_s for r in rows if r.executor == "local" and r.workers == 1), None)
    for row in rows:
        row.speedup_vs_1 = round(base / row.wall_s, 2) if base else 0.0
    print()
    print("| executor | workers | wall s | pages | pages/s | speed-up vs 1 worker "
          "| peak MiB | same pages as 1 worker |")  # fmt: skip
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        same = "-" if r.same_as_1_worker is None else ("yes" if r.same_as_1_worker else "NO")
        print(f"| {r.executor} | {r.workers} | {r.wall_s:.1f} | {r.pages} | {r.pages_per_s:.2f} "
              f"| {r.speedup_vs_1:.2f} | {r.peak_mib:.0f} | {same} |")  # fmt: skip
    result = {
        "jobs": args.jobs,
        "max_pages": args.pages,
        "concurrency": args.concurrency,
        "cpus": os.cpu_count(),
        "load_average_before": round(load_before[0], 2),
        "ray_start_s": ray_start_s,
        "rows": [asdict(r) for r in rows],
    }
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
