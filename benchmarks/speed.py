"""Speed: pw_adaptive beside a bare Playwright loop at concurrency 1, 4 and 8, and Crawl4AI.

Serves each site from a separate process on 127.0.0.1: a fixture portal
(``large`` by default), or with ``--sites`` the real sites
(``../shared/data/real-sites/njust-manual`` and ``qu-edu-iq``) and every corpus
site laid out under ``$PW_ADAPTIVE_CORPUS`` (``/work/corpus/<name>/``; manifests
in ``benchmarks/corpus/sites/``; a site not laid out is skipped with a line),
served from disk by ``benchmarks/quality.py``'s static server. ``--sites all``
measures all of them. The start page and query are a site's first labelled
task with relevant pages (``benchmarks/labels/``, else the real sites'
``labels/``), else its base path and "admissions". Each site is crawled with
pw_adaptive with the stopper off (so the run fetches ``--pages`` pages when the
site has that many), then the same URLs are replayed with a bare Playwright
loop in the same run: one browser, a fresh page per URL,
``goto(wait_until="load")`` and ``content()``. The bare loop is the practical
limit of a Playwright crawler that does nothing but render. Crawl4AI's
best-first crawler (``benchmarks/peers/crawl4ai_run.py`` under
``.venv-peers/bin/python``, made by ``make peers``) then crawls the same start
URL with the same budget at concurrency 4, ``--repeat`` times like
pw_adaptive; when it is not installed the run says so and goes on. For each
site, runner and concurrency it prints and saves:

- **pages/s**: pages over wall-clock seconds, browser launch included (both
  runners pay it). pw_adaptive runs in this process, imported once; Crawl4AI
  runs in a subprocess, so its seconds are its own clock of its browser's
  launch and its crawl (``launch_s`` and the task's ``wall_s``), not its
  Python's start and imports (``process_s`` in the JSON has the whole
  subprocess);
- **CPU s/page**: CPU seconds of this Python process plus everything it starts
  (the Playwright driver, every Chromium process), over pages; Crawl4AI's
  include its Python's start and imports;
- **peak MiB**: the peak of the summed PSS of that same process tree, sampled
  every 300 ms (PSS splits shared pages between the processes that map them,
  so the sum does not count Chromium's shared memory once per process);

- **expl%** (pw_adaptive): seconds of click exploration over the pages'
  seconds (the crawl summary's ``timings``: ``explore_s`` / ``total_s``;
  pages render concurrently, so at concurrency 1 this is the share of the
  wall time, above it the share of the rendering work);
- **dup%** (pw_adaptive): renders whose content turned out to duplicate an
  earlier page's (``duplicate_content``, ``near_duplicate_content``,
  ``duplicate_url``, ``duplicate_canonical`` notes) over all renders;

and the ratios pw_adaptive / bare loop for the three at each concurrency, and
pw_adaptive / Crawl4AI at concurrency 4.

The sites are served on 127.0.0.1, so pw_adaptive's private-address guard
(``pw_adaptive.netguard``), on by default when the start URL is public, is
off in these runs. ``--guard`` adds, after each pw_adaptive run, one with
127.0.0.1 treated as public (``CrawlSettings.treat_as_public``): the guard on,
as on a real site, and its cost printed beside the unguarded runs.

CPU accounting
--------------
Chromium starts and ends renderer and utility processes during a crawl; a
process that has exited can no longer be read from ``/proc``. Three methods
are measured in the same run, so they can be checked against each other:

1. **cgroup** (the figure reported when available): the benchmark creates a
   CPU-accounting cgroup (v1 ``cpuacct``, else a writable cgroup v2 directory),
   moves itself into it after the fixture server has started, and reads the
   cgroup's usage counter before and after each run. Every process started
   from then on is born in the cgroup and the kernel charges it all its CPU
   time, exited processes included; so this is exact, up to processes still
   exiting when a run ends (the benchmark waits for the tree to empty between
   runs). It needs root or a delegated cgroup.
2. **tree**: a sampler thread reads ``utime + stime`` of every process of the
   tree every 100 ms and remembers each process's last-seen value (keyed by pid
   and start time, so a reused pid is a new process); an exited process counts
   with its last sample. The residual error is an undercount: the CPU a process
   spent after its last sample (at most one 100 ms interval of it, for each
   process that exits during the run: typically its teardown), plus
   processes that lived less than one interval, plus ``/proc``'s clock-tick
   resolution (10 ms per process). On the ``large`` portal the tree figure
   comes out at about 90% of the cgroup figure.
3. **machine**: busy time of all cores from ``/proc/stat`` (user, nice,
   system, irq, softirq, steal). It also counts the fixture server, the kernel's
   network stack and anything else running on the machine, so it is an upper
   bound that is only meaningful on an otherwise idle machine.

The sampler's own CPU (measured with ``time.thread_time`` inside its thread) is
subtracted from all three. Expect tree <= cgroup <= machine; the printed
``tree/cg`` column is the cross-check.

Each runner runs ``--repeat`` times (default 2) at each concurrency; a row
sums the runs (pages, seconds, CPU; the highest peak), and ``+-`` is half the
range of the runs' pages/s, a gauge of the noise.

    .venv/bin/python benchmarks/speed.py [--portal large] [--sites all | NAME ...]
        [--pages 60] [--repeat 2] [--concurrency 1 4 8] [--no-peer]
        [--json benchmarks/results/speed.json] [--markdown] [--no-cgroup]

Linux only (``/proc``). The default run takes about 2.5 minutes on 2 idle cores.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable as a script from anywhere
    sys.path.insert(0, str(ROOT))

from benchmarks.peers.peer_common import RESOLVER_ARG  # noqa: E402

# Offline, a look-up of an outside host (a real site's fonts, analytics and
# comment widgets) can stall a page for the resolver's 5 s timeout: resolve
# nothing but loopback, for pw_adaptive and the bare loop with the peer's own
# rule, as the Makefile does. Set before pw_adaptive reads it.
os.environ.setdefault("PW_ADAPTIVE_BROWSER_ARGS", shlex.quote(RESOLVER_ARG))

from playwright.async_api import Error as PlaywrightError  # noqa: E402
from playwright.async_api import Page, async_playwright  # noqa: E402

from fixtures_site.server import load_portals  # noqa: E402
from pw_adaptive.crawling.api import AdaptiveCrawler  # noqa: E402
from pw_adaptive.render import RenderSettings  # noqa: E402
from pw_adaptive.render.browser import launch_browser  # noqa: E402
from pw_adaptive.settings import CrawlSettings  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")
SAMPLE_INTERVAL_S = 0.1
"""How often the sampler reads the CPU ticks of the process tree (about 2 ms a time)."""
PSS_EVERY = 3
"""Read PSS every third sample (300 ms): smaps_rollup costs ~0.5 ms per Chromium process."""
CGROUP_V1_CPUACCT = Path("/sys/fs/cgroup/cpuacct")
CGROUP_V2_MOUNTS = (Path("/sys/fs/cgroup/unified"), Path("/sys/fs/cgroup"))
BARE = "bare playwright"
BARE_STEP_S = 40.0
"""The bare loop's bound on one step (navigate, read the DOM, close) of one URL."""
ADAPTIVE = "pw_adaptive"
GUARDED = "pw_adaptive guard on"
"""pw_adaptive with its private-address guard on (``--guard``)."""


# --- /proc readers --------------------------------------------------------------


@dataclass(frozen=True)
class ProcStat:
    """The fields of ``/proc/PID/stat`` the benchmark uses."""

    pid: int
    ppid: int
    start_ticks: int
    """Start time in clock ticks after boot: with the pid, identifies a process."""
    cpu_ticks: int
    """``utime + stime`` of the process itself (not of its waited-for children)."""


def read_stat(pid: int) -> ProcStat | None:
    """``/proc/PID/stat`` parsed, or None when the process is gone."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            text = fh.read()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: split after the last ")".
    fields = text.rsplit(")", 1)[1].split()
    try:
        # fields[0] is field 3 of proc(5): ppid is 4, utime 14, stime 15, starttime 22.
        return ProcStat(pid, int(fields[1]), int(fields[19]), int(fields[11]) + int(fields[12]))
    except (IndexError, ValueError):
        return None


def all_stats() -> dict[int, ProcStat]:
    """Every process of the machine, by pid."""
    out: dict[int, ProcStat] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = read_stat(int(entry))
            if stat is not None:
                out[stat.pid] = stat
    return out


def process_tree(
    root: int, exclude: frozenset[int] = frozenset(), stats: dict[int, ProcStat] | None = None
) -> list[ProcStat]:
    """``root`` and its live descendants, minus the subtrees rooted at ``exclude``."""
    stats = all_stats() if stats is None else stats
    children: dict[int, list[int]] = {}
    for stat in stats.values():
        children.setdefault(stat.ppid, []).append(stat.pid)
    out: list[ProcStat] = []
    todo = [root]
    while todo:
        pid = todo.pop()
        if pid in exclude or pid not in stats:
            continue
        out.append(stats[pid])
        todo.extend(children.get(pid, []))
    return out


def pss_kib(pid: int) -> int:
    """Proportional set size of a process in KiB (0 when it is gone or unreadable)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def machine_busy_seconds() -> float:
    """Busy CPU seconds of all cores since boot, from the first line of ``/proc/stat``.

    Busy is user + nice + system + irq + softirq + steal; idle and iowait are
    not busy, and guest time is already inside user.
    """
    with open("/proc/stat") as fh:
        fields = fh.readline().split()
    assert fields[0] == "cpu", fields
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in fields[1:9])
    return (user + nice + system + irq + softirq + steal) / CLK_TCK


# --- cgroup CPU accounting ------------------------------------------------------


class CpuCgroup:
    """A CPU-accounting cgroup that this process moves into, for exact CPU totals.

    Every process forked after ``enter()`` is born in the cgroup, and the
    kernel charges all of its CPU time there, even after it has exited.
    ``close()`` moves this process back where it was and removes the cgroup.
    """

    def __init__(self, path: Path, version: int, home: Path) -> None:
        self.path = path
        self.version = version
        self._home = home

    @property
    def method(self) -> str:
        return "cgroup v1 cpuacct" if self.version == 1 else "cgroup v2 cpu.stat"

    @classmethod
    def create(cls, name: str) -> CpuCgroup | None:
        """A new empty cgroup named ``name``, or None when none can be created here."""
        candidates: list[tuple[Path, int]] = []
        if (CGROUP_V1_CPUACCT / "cpuacct.usage").exists():
            candidates.append((CGROUP_V1_CPUACCT, 1))
        for mount in CGROUP_V2_MOUNTS:
            if (mount / "cgroup.procs").exists() and (mount / "cgroup.controllers").exists():
                candidates.append((mount, 2))
                break
        for mount, version in candidates:
            home = mount / _own_cgroup(version).lstrip("/")
            path = home / name
            try:
                path.mkdir()
            except OSError:
                continue
            group = cls(path, version, home)
            try:
                group.usage_seconds()
            except OSError:
                group.remove()
                continue
            return group
        return None

    def enter(self) -> None:
        """Move this process (all its threads) into the cgroup."""
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def usage_seconds(self) -> float:
        """CPU seconds charged to the cgroup since it was created."""
        if self.version == 1:
            return int((self.path / "cpuacct.usage").read_text()) / 1e9
        for line in (self.path / "cpu.stat").read_text().splitlines():
            key, value = line.split()
            if key == "usage_usec":
                return int(value) / 1e6
        raise OSError(f"no usage_usec in {self.path / 'cpu.stat'}")

    def close(self, timeout_s: float = 5.0) -> None:
        """Move this process back home and remove the cgroup once its other members exit."""
        with suppress(OSError):
            (self._home / "cgroup.procs").write_text(str(os.getpid()))
        self.remove(timeout_s)

    def remove(self, timeout_s: float = 0.0) -> None:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:  # busy: processes still exiting
                if time.monotonic() >= deadline:
                    return
                time.sleep(0.05)


def _own_cgroup(version: int) -> str:
    """This process's cgroup path in the v1 ``cpuacct`` hierarchy or in the v2 one."""
    with open("/proc/self/cgroup") as fh:
        for line in fh:
            _id, controllers, path = line.rstrip("\n").split(":", 2)
            if version == 2 and _id == "0" and controllers == "":
                return path
            if version == 1 and "cpuacct" in controllers.split(","):
                return path
    return "/"


@contextmanager
def cpu_cgroup(enabled: bool = True) -> Iterator[CpuCgroup | None]:
    """A ``CpuCgroup`` this process has entered (None when unavailable), closed on exit."""
    group = CpuCgroup.create(f"pw_adaptive_speed_{os.getpid()}") if enabled else None
    if group is not None:
        try:
            group.enter()
        except OSError:  # created but not joinable (e.g. a v2 tree without delegation)
            group.remove()
            group = None
    if group is None:
        yield None
        return
    try:
        yield group
    finally:
        group.close()


# --- sampling the process tree --------------------------------------------------


class TreeSampler:
    """Samples this process's tree: remembered CPU ticks per process, and peak summed PSS.

    ``start()`` takes the baseline; from then on a thread samples every
    ``interval_s`` until ``stop()``, which takes one last sample. ``cpu_seconds``
    counts each process seen with its last sample (minus its baseline if it
    was already running); ``overhead_s`` is the sampler thread's own CPU.
    """

    def __init__(
        self,
        root: int | None = None,
        exclude: frozenset[int] = frozenset(),
        interval_s: float = SAMPLE_INTERVAL_S,
        pss_every: int = PSS_EVERY,
    ) -> None:
        self.root = os.getpid() if root is None else root
        self.exclude = exclude
        self.interval_s = interval_s
        self.pss_every = pss_every
        self.samples = 0
        self.peak_pss_kib = 0
        self.overhead_s = 0.0
        self._baseline: dict[tuple[int, int], int] = {}
        self._last: dict[tuple[int, int], int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="speed-sampler", daemon=True)

    def start(self) -> None:
        for stat in process_tree(self.root, self.exclude):
            self._baseline[(stat.pid, stat.start_ticks)] = stat.cpu_ticks
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    @property
    def processes_seen(self) -> int:
        return len(self._last)

    @property
    def cpu_seconds(self) -> float:
        ticks = sum(last - self._baseline.get(key, 0) for key, last in self._last.items())
        return ticks / CLK_TCK

    def sample(self, pss: bool = True) -> None:
        """Read the tree's CPU ticks, and its summed PSS when ``pss``."""
        tree = process_tree(self.root, self.exclude)
        for stat in tree:
            self._last[(stat.pid, stat.start_ticks)] = stat.cpu_ticks
        if pss:
            self.peak_pss_kib = max(self.peak_pss_kib, sum(pss_kib(stat.pid) for stat in tree))
        self.samples += 1

    def _run(self) -> None:
        t0 = time.thread_time()
        while True:
            self.sample(pss=self.samples % self.pss_every == 0)
            if self._stop.wait(self.interval_s):
                break
        self.sample(pss=False)  # the tree is down to this process: its PSS is no peak
        self.overhead_s = time.thread_time() - t0


# --- the measured runs ----------------------------------------------------------


@dataclass(frozen=True)
class Measure:
    """What one run cost, whatever it ran."""

    seconds: float
    cpu_s_cgroup: float | None
    cpu_s_tree: float
    cpu_s_machine: float
    sampler_cpu_s: float
    processes_seen: int
    peak_mib: float


class Meter:
    """Measures runs: wall clock, CPU by the three methods, peak PSS of the tree."""

    def __init__(self, cgroup: CpuCgroup | None, exclude: frozenset[int] = frozenset()) -> None:
        self.cgroup = cgroup
        self.exclude = exclude

    @property
    def method(self) -> str:
        return self.cgroup.method if self.cgroup else "tree"

    @contextmanager
    def measure(self) -> Iterator[list[Measure]]:
        """Measures the body; the yielded list holds the ``Measure`` once the body is done."""
        out: list[Measure] = []
        wait_for_quiet_tree(self.exclude)
        sampler = TreeSampler(exclude=self.exclude)
        cg0 = self.cgroup.usage_seconds() if self.cgroup else 0.0
        machine0 = machine_busy_seconds()
        t0 = time.perf_counter()
        sampler.start()
        try:
            yield out
        finally:
            seconds = time.perf_counter() - t0
            wait_for_quiet_tree(self.exclude)  # let Chromium finish exiting: its CPU counts
            sampler.stop()
            machine = machine_busy_seconds() - machine0
            cgroup = self.cgroup.usage_seconds() - cg0 if self.cgroup else None
        overhead = sampler.overhead_s
        out.append(
            Measure(
                seconds=seconds,
                cpu_s_cgroup=None if cgroup is None else cgroup - overhead,
                cpu_s_tree=sampler.cpu_seconds - overhead,
                cpu_s_machine=machine - overhead,
                sampler_cpu_s=overhead,
                processes_seen=sampler.processes_seen,
                peak_mib=sampler.peak_pss_kib / 1024,
            )
        )


def wait_for_quiet_tree(exclude: frozenset[int], timeout_s: float = 5.0) -> None:
    """Wait until this process has no descendants left but the excluded ones."""
    deadline = time.monotonic() + timeout_s
    while len(process_tree(os.getpid(), exclude)) > 1 and time.monotonic() < deadline:
        time.sleep(0.05)


@dataclass(frozen=True)
class Run:
    """One measured run of one runner at one concurrency on one site."""

    runner: str
    concurrency: int
    pages: int
    measure: Measure
    site: str = ""
    explore_s: float = 0.0
    """pw_adaptive: seconds of click exploration (the summary's ``timings``)."""
    page_s: float = 0.0
    """pw_adaptive: the pages' seconds, summed (the summary's ``timings.total_s``)."""
    duplicates: int = 0
    """pw_adaptive: renders whose content duplicated an earlier page's."""
    stalled: int = 0
    """The bare loop: steps cut off at ``BARE_STEP_S`` (each costs its time)."""
    process_s: float = 0.0
    """Crawl4AI: its whole subprocess's seconds (Python's start and imports
    included); ``measure.seconds`` holds its own clock of the browser's launch
    and the crawl, what pw_adaptive's seconds hold."""


@dataclass(frozen=True)
class Row:
    """The runs of one runner at one concurrency on one site, combined: totals over all runs."""

    runner: str
    concurrency: int
    runs: int
    pages: int
    seconds: float
    pages_per_s: float
    pages_per_s_spread: float
    """Half the range of the runs' pages/s, as a share of ``pages_per_s``: the noise."""
    cpu_s_per_page: float
    """By the best method available (``cpu_method`` in the JSON): the cgroup, else the tree."""
    cpu_s_cgroup: float | None
    cpu_s_tree: float
    cpu_s_machine: float
    sampler_cpu_s: float
    processes_per_run: float
    peak_mib: float
    """The highest peak of the runs."""
    site: str = ""
    explore_share: float = 0.0
    """Click exploration over the pages' time (pw_adaptive rows; pages render
    concurrently: at concurrency 1 this is the share of the wall time)."""
    duplicate_share: float = 0.0
    """Renders that duplicated an earlier page's content, over all renders."""

    @classmethod
    def of(cls, runs: Sequence[Run]) -> Row:
        """Pages, seconds and CPU summed over ``runs`` (one runner, one concurrency, one site)."""
        first = runs[0]
        assert all(
            (r.runner, r.concurrency, r.site) == (first.runner, first.concurrency, first.site)
            for r in runs
        )
        ms = [r.measure for r in runs]
        pages = sum(r.pages for r in runs)
        seconds = sum(m.seconds for m in ms)
        cgroup = None if ms[0].cpu_s_cgroup is None else sum(m.cpu_s_cgroup or 0.0 for m in ms)
        tree = sum(m.cpu_s_tree for m in ms)
        rates = [r.pages / r.measure.seconds for r in runs]
        page_s = sum(r.page_s for r in runs)
        return cls(
            runner=first.runner,
            concurrency=first.concurrency,
            runs=len(runs),
            pages=pages,
            seconds=seconds,
            pages_per_s=pages / seconds,
            pages_per_s_spread=(max(rates) - min(rates)) / 2 / (pages / seconds),
            cpu_s_per_page=(tree if cgroup is None else cgroup) / max(pages, 1),
            cpu_s_cgroup=cgroup,
            cpu_s_tree=tree,
            cpu_s_machine=sum(m.cpu_s_machine for m in ms),
            sampler_cpu_s=sum(m.sampler_cpu_s for m in ms),
            processes_per_run=sum(m.processes_seen for m in ms) / len(ms),
            peak_mib=max(m.peak_mib for m in ms),
            site=first.site,
            explore_share=sum(r.explore_s for r in runs) / page_s if page_s > 0 else 0.0,
            duplicate_share=sum(r.duplicates for r in runs) / max(pages, 1),
        )


def combine(runs: Sequence[Run]) -> list[Row]:
    """One ``Row`` per (site, runner, concurrency), in the order they first ran."""
    groups: dict[tuple[str, str, int], list[Run]] = {}
    for run in runs:
        groups.setdefault((run.site, run.runner, run.concurrency), []).append(run)
    return [Row.of(group) for group in groups.values()]


@dataclass(frozen=True)
class Ratio:
    """pw_adaptive / bare loop at one concurrency (above 1: pw_adaptive has more)."""

    concurrency: int
    pages_per_s: float
    cpu_s_per_page: float
    peak_mib: float
    site: str = ""


def ratios(rows: Sequence[Row], baseline: str = BARE) -> list[Ratio]:
    """One ``Ratio`` per (site, concurrency) that has both a pw_adaptive row and a
    ``baseline`` row (the bare loop, or a peer crawler)."""
    base = {(r.site, r.concurrency): r for r in rows if r.runner == baseline}
    out = []
    for r in rows:
        b = base.get((r.site, r.concurrency))
        if r.runner != ADAPTIVE or b is None:
            continue
        out.append(
            Ratio(
                r.concurrency,
                r.pages_per_s / b.pages_per_s,
                r.cpu_s_per_page / b.cpu_s_per_page if b.cpu_s_per_page > 0 else float("nan"),
                r.peak_mib / b.peak_mib if b.peak_mib > 0 else float("nan"),
                r.site,
            )
        )
    return out


# --- the sites --------------------------------------------------------------------

REAL_SITES = ("njust-manual", "qu-edu-iq")
"""The real sites of ``../shared/data/real-sites`` every full run measures."""
CORPUS_ENV = "PW_ADAPTIVE_CORPUS"
MANIFESTS = ROOT / "benchmarks" / "corpus" / "sites"
LABELS = ROOT / "benchmarks" / "labels"
DEFAULT_QUERY = "admissions"
"""Query of a corpus site without labels (the stopper is off: it only orders links)."""


@dataclass(frozen=True)
class Site:
    """A site to measure: a fixture portal (``root`` None) or a folder served from disk."""

    name: str
    start: str
    """Path of the start page."""
    query: str
    root: Path | None = None


def real_sites_dir() -> Path:
    folder = os.environ.get("PW_ADAPTIVE_REAL_SITES")
    return Path(folder) if folder else ROOT.parent / "shared" / "data" / "real-sites"


def _labels(name: str) -> dict[str, Any] | None:
    for path in (LABELS / f"{name}.json", real_sites_dir() / "labels" / f"{name}.json"):
        if path.is_file():
            data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            return data
    return None


def _site_of(name: str, root: Path, base_path: str = "/") -> Site:
    labels = _labels(name)
    tasks = [t for t in (labels or {}).get("tasks", []) if t.get("relevant")]
    if tasks:
        return Site(name, tasks[0]["start"], tasks[0]["query"], root)
    return Site(name, base_path or "/", DEFAULT_QUERY, root)


def discover_sites(names: Sequence[str], portal: str, out: TextIO) -> list[Site]:
    """The sites named (``all``: the fixture portal, the real sites and every
    corpus site laid out under ``$PW_ADAPTIVE_CORPUS``); a site whose folder is
    missing is skipped with a line on ``out``."""
    wanted = list(names) or [portal]
    manifests: dict[str, dict[str, Any]] = {}
    if MANIFESTS.is_dir():
        for path in sorted(MANIFESTS.glob("*.json")):
            manifests[path.stem] = json.loads(path.read_text(encoding="utf-8"))
    if "all" in wanted:
        wanted = [portal, *REAL_SITES, *(n for n in manifests if n not in REAL_SITES)]
    corpus = Path(os.environ.get(CORPUS_ENV) or ROOT / "benchmarks" / "corpus" / "build")
    portals = set(load_portals())
    sites: list[Site] = []
    for name in dict.fromkeys(wanted):
        if name in portals:
            truth = load_portals()[name].truth()
            task = next(t for t in truth["tasks"] if t["relevant"])
            sites.append(Site(name, task["start"], task["query"]))
            continue
        manifest = manifests.get(name, {})
        shared = name in REAL_SITES or manifest.get("source") == "shared"
        root = (real_sites_dir() if shared else corpus) / name
        base_path = str(manifest.get("base_path") or "/")
        # The start page: at the root, under the site's base path (a build
        # served under "/szoftvertechnikak/2024/"), or one folder down.
        if not (
            (root / "index.html").is_file()
            or (root / base_path.strip("/") / "index.html").is_file()
            or any(root.glob("*/index.html"))
        ):
            print(f"skipping {name}: not laid out at {root}", file=out)
            continue
        sites.append(_site_of(name, root, base_path))
    return sites


@contextmanager
def fixture_server(portal: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``python -m fixtures_site serve`` in its own process: (portal URL, process).

    Out of process, the server neither competes for this process's GIL nor
    counts in its CPU and memory; it is started before the benchmark enters
    its cgroup, so it stays out of that too.
    """
    proc = subprocess.Popen(
        [sys.executable, "-m", "fixtures_site", "serve", "--portal", portal],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().split()
        if len(line) != 2 or line[0] != portal:
            raise RuntimeError(f"fixture server did not start: {line!r}")
        yield line[1].rstrip("/"), proc
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextmanager
def directory_server(root: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``root`` served on 127.0.0.1 by ``benchmarks/quality.py``'s static server, in
    its own process (kept out of the measured tree, as the fixture server)."""
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--serve-dir", str(root)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # a browser dropping a blocked image: a broken pipe
        text=True,
    )
    try:
        assert proc.stdout is not None
        origin = proc.stdout.readline().strip()
        if not origin.startswith("http://127.0.0.1:"):
            raise RuntimeError(f"static server did not start: {origin!r}")
        yield origin, proc
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _serve_forever(root: Path) -> int:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from quality import serve_directory  # the benchmarks' static server

    with serve_directory(root) as origin:
        print(origin, flush=True)
        threading.Event().wait()
    return 0


# --- the runners -------------------------------------------------------------------


async def run_crawler(
    meter: Meter,
    start: str,
    query: str,
    pages: int,
    concurrency: int,
    site: str = "",
    *,
    guard: bool = False,
) -> tuple[Run, list[str]]:
    """pw_adaptive with its default render settings and the stopper off; with
    ``guard``, the start URL's host counts as public, which turns the
    private-address guard on as for a real site."""
    settings = CrawlSettings(
        max_pages=pages,
        concurrency=concurrency,
        adaptive_stop=False,
        probe_soft_404=False,
        treat_as_public=(urlsplit(start).hostname or "",) if guard else (),
    )
    crawler = AdaptiveCrawler(settings, render_settings=RenderSettings())
    with meter.measure() as measured:
        result = await crawler.run(start, query)
    urls = [p.url for p in result.pages]
    duplicates = sum(1 for p in result.pages if p.note and "duplicate" in p.note)
    run = Run(
        GUARDED if guard else ADAPTIVE,
        concurrency,
        len(urls),
        measured[0],
        site=site,
        explore_s=result.timings()["explore_s"],
        page_s=result.timings()["total_s"],
        duplicates=duplicates,
    )
    return run, urls


async def _read_dom(page: Page) -> str:
    """The page's DOM; after a script sent the page on (a start page that picks a
    language), the DOM of the document it went to, once loaded, as pw_adaptive
    reads it. Playwright refuses to read a page that is navigating, and then
    closing the page hung until the step's bound (dskobe's start page)."""
    try:
        return await page.content()
    except PlaywrightError as exc:
        if "navigating" not in str(exc):
            raise
        await page.wait_for_load_state("load")
        return await page.content()


async def run_bare(meter: Meter, urls: list[str], concurrency: int, site: str = "") -> Run:
    """The practical limit: one browser, a fresh page per URL, goto until load, content."""
    with meter.measure() as measured:
        async with async_playwright() as pw:
            browser = await launch_browser(pw, RenderSettings())
            context = await browser.new_context()
            queue: asyncio.Queue[str] = asyncio.Queue()
            for url in urls:
                queue.put_nowait(url)

            stalled = 0

            async def worker() -> None:
                nonlocal stalled
                while not queue.empty():
                    url = queue.get_nowait()
                    page = await context.new_page()
                    try:
                        # Playwright bounds goto (30 s) but not reading the DOM of
                        # a page whose main thread never yields: a guard per step
                        # keeps one such page from hanging the whole benchmark.
                        await asyncio.wait_for(page.goto(url, wait_until="load"), BARE_STEP_S)
                        await asyncio.wait_for(_read_dom(page), BARE_STEP_S)
                    except TimeoutError:
                        stalled += 1
                    except Exception:  # a failing URL costs its time; the loop goes on
                        pass
                    finally:
                        try:
                            await asyncio.wait_for(page.close(), BARE_STEP_S)
                        except TimeoutError:
                            stalled += 1

            await asyncio.gather(*(worker() for _ in range(concurrency)))
            await browser.close()
    return Run(BARE, concurrency, len(urls), measured[0], site=site, stalled=stalled)


PEER = "crawl4ai bestfirst"
PEER_CONCURRENCY = 4


def peer_paths() -> tuple[Path, Path]:
    """The peers' Python (``make peers``) and Crawl4AI's runner script."""
    return (
        ROOT / ".venv-peers" / "bin" / "python",
        ROOT / "benchmarks" / "peers" / "crawl4ai_run.py",
    )


def run_peer(
    meter: Meter,
    site: str,
    start: str,
    query: str,
    pages: int,
    out: TextIO,
    paths: tuple[Path, Path] | None = None,
) -> Run | None:
    """Crawl4AI's best-first crawler on the same start URL and budget, as a
    subprocess (its own virtualenv); None, with a line on ``out``, when it is
    not installed or fails."""
    python, script = paths or peer_paths()
    if not python.exists() or not script.exists():
        print(f"peer skipped on {site}: {python} or {script} missing (make peers)", file=out)
        return None
    import tempfile

    with tempfile.TemporaryDirectory(prefix="pw-speed-peer-") as tmp:
        tasks, result = Path(tmp) / "tasks.json", Path(tmp) / "out.json"
        tasks.write_text(json.dumps([{"id": site, "start_url": start, "query": query}]))
        argv = [
            str(python), str(script), "--tasks", str(tasks), "--out", str(result),
            "--strategy", "bestfirst", "--budget", str(pages),
            "--concurrency", str(PEER_CONCURRENCY),
        ]  # fmt: skip
        if not query.isascii():
            # Its keyword scorer matches raw URLs: a non-ASCII keyword needs its
            # percent-encoded form to match an encoded path (see the runner's doc).
            argv.append("--url-encoded-keywords")
        with meter.measure() as measured:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=1800, check=False)
        if done.returncode != 0 or not result.exists():
            tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            print(f"peer failed on {site}: {tail[0][:200]}", file=out)
            return None
        data = json.loads(result.read_text(encoding="utf-8"))
    task = (data.get("tasks") or [{}])[0]
    if task.get("error"):
        print(f"peer error on {site}: {str(task['error'])[:200]}", file=out)
    fetched = len(task.get("pages") or [])
    if not fetched:
        return None
    measure = measured[0]
    crawl_s = peer_crawl_seconds(data)
    if crawl_s is not None:
        measure = replace(measure, seconds=crawl_s)
    return Run(PEER, PEER_CONCURRENCY, fetched, measure, site=site, process_s=measured[0].seconds)


def peer_crawl_seconds(data: dict[str, Any]) -> float | None:
    """The peer's seconds as pw_adaptive's are counted: its browser's launch
    plus its crawl, by its own clock (``launch_s`` and the task's ``wall_s``),
    without its Python's start and imports; None when the output lacks them."""
    task = (data.get("tasks") or [{}])[0]
    launch, wall = data.get("launch_s"), task.get("wall_s")
    if not isinstance(launch, int | float) or not isinstance(wall, int | float) or wall <= 0:
        return None
    return float(launch) + float(wall)


async def run_site(
    meter: Meter,
    base: str,
    site: Site,
    pages: int,
    concurrencies: Sequence[int],
    repeat: int,
    guard: bool = False,
) -> list[Run]:
    """At each concurrency, ``repeat`` times: a pw_adaptive crawl, then the bare
    loop over the URLs that crawl fetched (and with ``guard``, a pw_adaptive
    crawl with its private-address guard on)."""
    runs: list[Run] = []
    for conc in concurrencies:
        for _ in range(repeat):
            run, urls = await run_crawler(
                meter, base + site.start, site.query, pages, conc, site.name
            )
            runs.append(announce(run))
            runs.append(announce(await run_bare(meter, urls, conc, site.name)))
            if guard:
                guarded, _ = await run_crawler(
                    meter, base + site.start, site.query, pages, conc, site.name, guard=True
                )
                runs.append(announce(guarded))
    return runs


def announce(run: Run, err: TextIO | None = None) -> Run:
    """Say on stderr that ``run`` is done (the tables come only at the end of a
    long run: a run that never ends is then the one after the last line)."""
    print(
        f"[speed] {run.site or '-'}: {run.runner} at concurrency {run.concurrency}, "
        f"{run.pages} pages in {run.measure.seconds:.1f} s"
        + (f", {run.stalled} steps cut off at {BARE_STEP_S:.0f} s" if run.stalled else ""),
        file=err if err is not None else sys.stderr,
        flush=True,
    )
    return run


async def run_all(
    meter: Meter, base: str, portal: str, pages: int, concurrencies: Sequence[int], repeat: int
) -> list[Run]:
    """``run_site`` on a fixture portal (its first task with relevant pages)."""
    truth = load_portals()[portal].truth()
    task = next(t for t in truth["tasks"] if t["relevant"])
    site = Site(portal, task["start"], task["query"])
    return await run_site(meter, base, site, pages, concurrencies, repeat)


def _cpu(value: float | None, pages: int) -> str:
    return "-" if value is None else f"{value / max(pages, 1):.3f}"


def print_report(rows: Sequence[Row], method: str, out: TextIO) -> None:
    """Per site: the rows (CPU s/page by all three methods; pw_adaptive's share of
    wall time in click exploration and of renders that duplicated an earlier
    page), then the ratios to the bare loop and to the peer."""
    print(f"CPU s/page: {method} (reported); tree and machine-wide for cross-check", file=out)
    sites = list(dict.fromkeys(r.site for r in rows))
    for site in sites:
        mine = [r for r in rows if r.site == site]
        if len(sites) > 1 or site:
            print(f"\n== {site} ==", file=out)
        print(
            f"{'runner':<21}{'conc':>5}{'runs':>5}{'pages':>6}{'sec':>7}{'pages/s':>8}{'+-':>5}"
            f"{'cpu s/page':>11}{'tree':>7}{'machine':>8}{'tree/cg':>8}{'procs':>6}{'peak MiB':>9}"
            f"{'expl%':>6}{'dup%':>6}",
            file=out,
        )
        for r in mine:
            cross = f"{r.cpu_s_tree / r.cpu_s_cgroup:.2f}" if r.cpu_s_cgroup else "-"
            extra = (
                f"{r.explore_share:>6.0%}{r.duplicate_share:>6.0%}"
                if r.runner in (ADAPTIVE, GUARDED)
                else f"{'-':>6}{'-':>6}"
            )
            print(
                f"{r.runner:<21}{r.concurrency:>5}{r.runs:>5}{r.pages:>6}{r.seconds:>7.1f}"
                f"{r.pages_per_s:>8.2f}{r.pages_per_s_spread:>5.0%}{r.cpu_s_per_page:>11.3f}"
                f"{_cpu(r.cpu_s_tree, r.pages):>7}{_cpu(r.cpu_s_machine, r.pages):>8}{cross:>8}"
                f"{r.processes_per_run:>6.0f}{r.peak_mib:>9.0f}{extra}",
                file=out,
            )
        print(file=out)
        print("pw_adaptive / bare playwright (above 1: pw_adaptive has more)", file=out)
        print(f"{'conc':>4}{'pages/s':>9}{'cpu s/page':>12}{'peak MiB':>10}", file=out)
        for q in ratios(mine):
            print(
                f"{q.concurrency:>4}{q.pages_per_s:>9.2f}{q.cpu_s_per_page:>12.2f}"
                f"{q.peak_mib:>10.2f}",
                file=out,
            )
        adaptive = {r.concurrency: r for r in mine if r.runner == ADAPTIVE}
        for r in mine:
            mate = adaptive.get(r.concurrency)
            if mate is None:
                continue
            if r.runner == GUARDED:
                _print_ratio("pw_adaptive guard on / off", r, mate, out)
            elif r.runner == PEER:
                _print_ratio(f"pw_adaptive / {PEER}", mate, r, out)


def _print_ratio(label: str, top: Row, bottom: Row, out: TextIO) -> None:
    """One line: ``top``'s pages/s and CPU s/page over ``bottom``'s."""
    print(
        f"{label} at concurrency {top.concurrency}: pages/s "
        f"{top.pages_per_s / bottom.pages_per_s:.2f}, CPU s/page "
        f"{top.cpu_s_per_page / max(bottom.cpu_s_per_page, 1e-9):.2f}",
        file=out,
    )


def markdown_tables(rows: Sequence[Row]) -> str:
    """The rows and the ratios as the Markdown tables of docs/benchmarks.md."""
    lines = [
        "| site | runner | concurrency | pages/s | CPU s/page | peak MiB (PSS) "
        "| exploration share | duplicate renders |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        extra = (
            f"{r.explore_share:.0%} | {r.duplicate_share:.0%}"
            if r.runner in (ADAPTIVE, GUARDED)
            else "- | -"
        )
        lines.append(
            f"| {r.site} | {r.runner} | {r.concurrency} | {r.pages_per_s:.2f} "
            f"| {r.cpu_s_per_page:.3f} | {r.peak_mib:.0f} | {extra} |"
        )
    lines += [
        "",
        "| site | concurrency | pages/s ratio | CPU s/page ratio | peak memory ratio |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for q in ratios(rows):
        lines.append(
            f"| {q.site} | {q.concurrency} | {q.pages_per_s:.2f} | {q.cpu_s_per_page:.2f} "
            f"| {q.peak_mib:.2f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--portal", default="large", help="fixture portal (default: large)")
    parser.add_argument(
        "--sites",
        nargs="+",
        default=[],
        help="sites to measure: fixture portal names, real or corpus site names, or `all` "
        "(the portal, njust-manual, qu-edu-iq and every corpus site laid out); default: --portal",
    )
    parser.add_argument("--pages", type=int, default=60, help="pages per run (default: 60)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 8])
    parser.add_argument(
        "--repeat", type=int, default=2, help="runs of each runner per concurrency (default: 2)"
    )
    parser.add_argument(
        "--no-peer", action="store_true", help="do not run Crawl4AI even when installed"
    )
    parser.add_argument(
        "--guard",
        action="store_true",
        help="also run pw_adaptive with its private-address guard on (127.0.0.1 counted public)",
    )
    parser.add_argument("--json", type=Path, default=None, help="write rows, ratios and runs here")
    parser.add_argument(
        "--markdown", action="store_true", help="also print the tables for docs/benchmarks.md"
    )
    parser.add_argument(
        "--no-cgroup", action="store_true", help="do not use a cgroup (tree CPU is reported)"
    )
    default_python, default_script = peer_paths()
    parser.add_argument(
        "--peer-python", type=Path, default=default_python, help="Python of the peers' virtualenv"
    )
    parser.add_argument(
        "--peer-script", type=Path, default=default_script, help="Crawl4AI's runner script"
    )
    parser.add_argument("--serve-dir", type=Path, help=argparse.SUPPRESS)  # the static server
    args = parser.parse_args(argv)
    if args.serve_dir is not None:
        return _serve_forever(args.serve_dir)
    sites = discover_sites(args.sites, args.portal, out)
    if not sites:
        print("no site to measure", file=out)
        return 2
    load_before = os.getloadavg()[0]
    runs: list[Run] = []
    # The servers start first, so they stay out of the cgroup.
    with ExitStack() as stack:
        origins: dict[str, str] = {}
        servers: set[int] = set()
        for site in sites:
            if site.root is None:
                origin, proc = stack.enter_context(fixture_server(site.name))
            else:
                origin, proc = stack.enter_context(directory_server(site.root))
            origins[site.name] = origin.rstrip("/")
            servers.add(proc.pid)
        group = stack.enter_context(cpu_cgroup(not args.no_cgroup))
        meter = Meter(group, exclude=frozenset(servers))
        for site in sites:
            base = origins[site.name]
            runs += asyncio.run(
                run_site(meter, base, site, args.pages, args.concurrency, args.repeat, args.guard)
            )
            for _ in range(0 if args.no_peer else args.repeat):
                peer = run_peer(
                    meter,
                    site.name,
                    base + site.start,
                    site.query,
                    args.pages,
                    out,
                    (args.peer_python, args.peer_script),
                )
                if peer is not None:
                    runs.append(announce(peer))
    load_after = os.getloadavg()[0]
    rows = combine(runs)
    print_report(rows, meter.method, out)
    sampler_share = sum(r.sampler_cpu_s for r in rows) / sum(r.seconds for r in rows)
    print(
        f"({os.cpu_count()} cores; 1-min load average {load_before:.2f} before, "
        f"{load_after:.2f} after; the sampler's CPU, {sampler_share:.0%} of one core, "
        "is subtracted; sec includes browser launch)",
        file=out,
    )
    if args.markdown:
        print(file=out)
        print(markdown_tables(rows), file=out)
    if args.json:
        data: dict[str, Any] = {
            "date": datetime.date.today().isoformat(),
            "command": "benchmarks/speed.py " + " ".join(sys.argv[1:] if argv is None else argv),
            "portal": args.portal,
            "sites": [asdict(s) | {"root": str(s.root) if s.root else None} for s in sites],
            "pages": args.pages,
            "repeat": args.repeat,
            "cores": os.cpu_count(),
            "python": platform.python_version(),
            "load_average_before": load_before,
            "load_average_after": load_after,
            "cpu_method": meter.method,
            "rows": [asdict(r) for r in rows],
            "ratios": [asdict(q) for q in ratios(rows)],
            "peer_ratios": [asdict(q) for q in ratios(rows, PEER)],
            "guard": args.guard,
            "runs": [asdict(r) for r in runs],
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(data, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
