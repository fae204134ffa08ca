"""The measuring helpers of benchmarks/speed.py, on this process and short-lived children.

No browser: the children are Python processes that burn a known amount of CPU
and exit, which is what Chromium's renderers do to a naive CPU sampler.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from benchmark_scripts import load_script

BENCHMARK = Path(__file__).resolve().parent.parent / "benchmarks" / "speed.py"
BURN = "import time\nwhile time.process_time() < {seconds}: pass\n"


def _load() -> ModuleType:
    return load_script("speed.py", "speed_benchmark")


speed = _load()


def _burn(seconds: float) -> None:
    """A child process that uses ``seconds`` of CPU, then exits (and is reaped)."""
    subprocess.run([sys.executable, "-c", BURN.format(seconds=seconds)], check=True)


def _own_cgroup_line() -> str:
    with open("/proc/self/cgroup") as fh:
        return next(line for line in fh if "cpuacct" in line.split(":")[1].split(","))


def test_pss_of_this_process_is_positive_and_a_missing_process_has_none() -> None:
    assert speed.pss_kib(os.getpid()) > 1024  # a Python with Playwright imported: > 1 MiB
    assert speed.pss_kib(2**22 + 1) == 0  # above the kernel's pid_max limit


def test_read_stat_parses_a_command_name_with_spaces_and_parentheses(tmp_path: Path) -> None:
    odd = tmp_path / "a) b (c"
    odd.symlink_to("/bin/sleep")
    child = subprocess.Popen([str(odd), "5"])
    try:
        stat = speed.read_stat(child.pid)
        assert stat is not None
        assert (stat.pid, stat.ppid) == (child.pid, os.getpid())
        assert stat.start_ticks > 0
    finally:
        child.kill()
        child.wait()
    assert speed.read_stat(child.pid) is None


def test_process_tree_holds_live_children_unless_excluded() -> None:
    child = subprocess.Popen(["/bin/sleep", "5"])
    try:
        pids = {s.pid for s in speed.process_tree(os.getpid())}
        assert {os.getpid(), child.pid} <= pids
        excluded = {s.pid for s in speed.process_tree(os.getpid(), frozenset({child.pid}))}
        assert os.getpid() in excluded and child.pid not in excluded
    finally:
        child.kill()
        child.wait()


def test_tree_sampler_still_counts_a_child_that_exited_before_it_stopped() -> None:
    sampler = speed.TreeSampler(interval_s=0.02, pss_every=5)
    sampler.start()
    _burn(0.3)
    sampler.stop()
    # Reading only the live tree at the end would find ~0 s: the child is gone.
    # Its last sample is at most one interval (0.02 s of CPU) before it exited.
    assert sampler.cpu_seconds >= 0.25
    assert sampler.processes_seen >= 2
    assert sampler.overhead_s > 0
    assert sampler.peak_pss_kib >= speed.pss_kib(os.getpid()) // 2


def test_machine_busy_time_counts_a_child_burn() -> None:
    before = speed.machine_busy_seconds()
    _burn(0.3)
    assert speed.machine_busy_seconds() - before >= 0.25  # jiffy sampling: allow 50 ms


def test_cgroup_charges_exited_children_and_is_removed_on_close() -> None:
    home = _own_cgroup_line()
    with speed.cpu_cgroup() as group:
        if group is None:
            pytest.skip("no CPU cgroup can be created on this machine")
        assert _own_cgroup_line().rstrip().endswith(group.path.name)
        before = group.usage_seconds()
        _burn(0.3)
        charged = group.usage_seconds() - before
    assert charged >= 0.3
    assert charged < 5.0  # only this process and its child are in the group
    assert not group.path.exists()
    assert _own_cgroup_line() == home


def _run(runner: str, conc: int, pages: int, seconds: float, cpu: float, mib: float) -> Any:
    measure = speed.Measure(
        seconds=seconds,
        cpu_s_cgroup=cpu,
        cpu_s_tree=cpu * 0.9,
        cpu_s_machine=cpu * 1.1,
        sampler_cpu_s=0.1,
        processes_seen=10,
        peak_mib=mib,
    )
    return speed.Run(runner, conc, pages, measure)


def test_runs_combine_into_totals_and_ratios_divide_by_the_bare_loop() -> None:
    runs = [
        _run(speed.ADAPTIVE, 4, 60, 10.0, 12.0, 500.0),
        _run(speed.BARE, 4, 60, 6.0, 9.0, 400.0),
        _run(speed.ADAPTIVE, 4, 60, 20.0, 12.0, 600.0),
        _run(speed.BARE, 4, 60, 6.0, 9.0, 420.0),
    ]
    adaptive, bare = speed.combine(runs)
    assert (adaptive.runner, adaptive.runs, adaptive.pages) == (speed.ADAPTIVE, 2, 120)
    assert adaptive.pages_per_s == pytest.approx(120 / 30)
    assert adaptive.pages_per_s_spread == pytest.approx((6 - 3) / 2 / 4)
    assert adaptive.cpu_s_per_page == pytest.approx(24 / 120)
    assert adaptive.cpu_s_tree == pytest.approx(21.6)
    assert adaptive.peak_mib == 600.0
    assert bare.pages_per_s_spread == 0.0
    (ratio,) = speed.ratios([adaptive, bare])
    assert ratio.concurrency == 4
    assert ratio.pages_per_s == pytest.approx(4 / 10)
    assert ratio.cpu_s_per_page == pytest.approx((24 / 120) / (18 / 120))
    assert ratio.peak_mib == pytest.approx(600 / 420)
    markdown = speed.markdown_tables([adaptive, bare]).splitlines()
    assert "|  | pw_adaptive | 4 | 4.00 | 0.200 | 600 | 0% | 0% |" in markdown
    assert markdown[-1] == "|  | 4 | 0.40 | 1.33 | 1.43 |"


def test_each_run_is_announced_as_it_ends_and_passed_on_unchanged() -> None:
    err = io.StringIO()
    run = _run(speed.BARE, 8, 40, 12.34, 9.0, 400.0)
    assert speed.announce(run, err) is run
    assert err.getvalue() == "[speed] -: bare playwright at concurrency 8, 40 pages in 12.3 s\n"


def test_cpu_falls_back_to_the_tree_without_a_cgroup_and_the_report_prints_it() -> None:
    measure = speed.Measure(1.0, None, 2.0, 3.0, 0.0, 3, 100.0)
    row = speed.Row.of([speed.Run(speed.ADAPTIVE, 1, 10, measure)])
    assert row.cpu_s_cgroup is None and row.cpu_s_per_page == pytest.approx(0.2)
    assert speed.ratios([row]) == []  # no bare row at that concurrency
    out = io.StringIO()
    speed.print_report([row], "tree", out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("CPU s/page: tree")
    assert lines[2].split()[:4] == ["pw_adaptive", "1", "1", "10"]


def test_sites_are_kept_apart_and_the_peer_has_its_own_ratio() -> None:
    m = speed.Measure(10.0, 5.0, 5.0, 6.0, 0.0, 3, 500.0)
    runs = [
        speed.Run(speed.ADAPTIVE, 4, 20, m, site="a", explore_s=1.0, page_s=10.0, duplicates=1),
        speed.Run(speed.BARE, 4, 20, speed.Measure(5.0, 5.0, 5.0, 6.0, 0.0, 3, 500.0), site="a"),
        speed.Run(speed.ADAPTIVE, 4, 10, m, site="b", page_s=10.0),
        speed.Run(speed.PEER, 4, 10, speed.Measure(20.0, 5.0, 5.0, 6.0, 0.0, 3, 500.0), site="a"),
    ]
    rows = speed.combine(runs)
    assert [(r.site, r.runner) for r in rows] == [
        ("a", speed.ADAPTIVE), ("a", speed.BARE), ("b", speed.ADAPTIVE), ("a", speed.PEER),
    ]  # fmt: skip
    assert rows[0].explore_share == pytest.approx(0.1)
    assert rows[0].duplicate_share == pytest.approx(0.05)
    (bare,) = speed.ratios(rows)
    assert (bare.site, bare.pages_per_s) == ("a", pytest.approx(2.0 / 4.0))
    (peer,) = speed.ratios(rows, speed.PEER)
    assert peer.pages_per_s == pytest.approx(2.0 / 0.5)
    out = io.StringIO()
    speed.print_report(rows, "tree", out)
    assert "== a ==" in out.getvalue() and "== b ==" in out.getvalue()
    assert f"pw_adaptive / {speed.PEER} at concurrency 4: pages/s 4.00" in out.getvalue()


def test_guarded_runs_get_their_own_row_and_their_cost_beside_the_unguarded_ones() -> None:
    runs = [
        _run(speed.ADAPTIVE, 4, 40, 10.0, 16.0, 500.0),
        _run(speed.BARE, 4, 40, 10.0, 18.0, 400.0),
        _run(speed.GUARDED, 4, 40, 12.5, 20.0, 520.0),
    ]
    rows = speed.combine(runs)
    assert [r.runner for r in rows] == [speed.ADAPTIVE, speed.BARE, speed.GUARDED]
    (ratio,) = speed.ratios(rows)  # the bare-loop ratio stays the unguarded crawl's
    assert ratio.pages_per_s == pytest.approx(1.0)
    out = io.StringIO()
    speed.print_report(rows, "tree", out)
    assert "pw_adaptive guard on / off at concurrency 4: pages/s 0.80, CPU s/page 1.25" in (
        out.getvalue()
    )
    assert "| pw_adaptive guard on | 4 | 3.20 | 0.500 | 520 | 0% | 0% |" in (
        speed.markdown_tables(rows)
    )


def test_sites_not_laid_out_are_skipped_with_a_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(speed.CORPUS_ENV, str(tmp_path))
    (tmp_path / "tiny").mkdir()
    (tmp_path / "tiny" / "index.html").write_text("<h1>Tiny</h1>")
    out = io.StringIO()
    sites = speed.discover_sites(["tiny", "absent"], "large", out)
    assert [(s.name, s.start, s.query, s.root) for s in sites] == [
        ("tiny", "/", speed.DEFAULT_QUERY, tmp_path / "tiny")
    ]
    assert "skipping absent" in out.getvalue()
    (fixture,) = speed.discover_sites([], "large", out)
    assert fixture.root is None and fixture.name == "large"


def test_a_site_served_under_a_deep_base_path_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # bme-szoftech is served under /szoftvertechnikak/2024/: its start page
    # is two folders down.
    monkeypatch.setenv(speed.CORPUS_ENV, str(tmp_path))
    start = tmp_path / "bme-szoftech" / "szoftvertechnikak" / "2024"
    start.mkdir(parents=True)
    (start / "index.html").write_text("<h1>Szoftvertechnikák</h1>")
    out = io.StringIO()
    (site,) = speed.discover_sites(["bme-szoftech"], "large", out)
    assert site.root == tmp_path / "bme-szoftech"
    assert site.start == "/szoftvertechnikak/2024/"


FAKE_PEER = """
import json, sys, time
out = sys.argv[sys.argv.index("--out") + 1]
time.sleep(0.6)  # the peer's Python start and imports, which its clock leaves out
json.dump({"launch_s": 0.25, "tasks": [
    {"id": "a", "wall_s": 0.5, "pages": [{"url": "u1"}, {"url": "u2"}]}
]}, open(out, "w"))
"""


def test_the_peer_is_timed_by_its_own_clock_of_launch_and_crawl(tmp_path: Path) -> None:
    script = tmp_path / "peer.py"
    script.write_text(FAKE_PEER)
    meter = speed.Meter(None)
    out = io.StringIO()
    run = speed.run_peer(
        meter, "a", "http://127.0.0.1:1/", "q", 2, out, (Path(sys.executable), script)
    )
    assert run is not None, out.getvalue()
    assert run.runner == speed.PEER and run.pages == 2
    assert run.measure.seconds == pytest.approx(0.75)
    assert run.process_s >= 0.6  # the whole subprocess, kept beside


def test_peer_output_without_its_clock_gives_no_crawl_seconds() -> None:
    assert speed.peer_crawl_seconds({"launch_s": 0.2, "tasks": [{"wall_s": 3.0}]}) == 3.2
    assert speed.peer_crawl_seconds({"tasks": [{"wall_s": 3.0}]}) is None
    assert speed.peer_crawl_seconds({"launch_s": 0.2, "tasks": [{}]}) is None
    assert speed.peer_crawl_seconds({"launch_s": 0.2, "tasks": []}) is None


def test_the_browsers_resolve_only_loopback_unless_told_otherwise() -> None:
    """pw_adaptive and the bare loop get the offline resolver rule that the peer
    always has: without it a real site's look-ups of outside hosts stalled
    pages for the resolver's 5 s timeout, in our runs only."""
    env = {k: v for k, v in os.environ.items() if k != "PW_ADAPTIVE_BROWSER_ARGS"}
    code = (
        "import importlib.util, os, sys\n"
        f"spec = importlib.util.spec_from_file_location('speed_benchmark', {str(BENCHMARK)!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "sys.modules[spec.name] = module\n"
        "spec.loader.exec_module(module)\n"
        "from pw_adaptive.render import RenderSettings\n"
        "from pw_adaptive.render.browser import launch_args\n"
        "print('\\n'.join(launch_args(RenderSettings())))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1" in done.stdout.splitlines()
