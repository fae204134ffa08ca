"""benchmarks/compare_quality.py: two runs of quality.py, totals and the tasks that moved."""

from __future__ import annotations

import io
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import compare_quality  # noqa: E402
from quality import Row  # noqa: E402


def _row(task: str, group: str = "site", crawler: str = "pw_adaptive", **kw: Any) -> dict[str, Any]:
    base = dict(
        crawler=crawler, task=task, group=group, pages=10, relevant=1, found=1, harvest=0.1,
        facts=2, facts_found=2, last_relevant_at=3, stop_reason="saturated", oracle=2,
        efficiency=0.2, identified=1, identified_relevant=1, identified_irrelevant=0,
    )  # fmt: skip
    base.update(kw)
    return asdict(Row(**base))


def _absent(pages: int) -> dict[str, Any]:
    """A topic the site lacks, crawled for ``pages`` pages."""
    return _row(
        "absent", relevant=0, found=0, facts=0, facts_found=0, pages=pages, identified=0,
        identified_relevant=0, stop_reason="no_relevant_pages",
    )  # fmt: skip


def _run(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"meta": {}, "rows": rows}), encoding="utf-8")
    return path


def test_totals_and_the_tasks_that_moved(tmp_path: Path) -> None:
    before = _run(
        tmp_path / "a.json",
        [
            _row("same"),
            _row("lost", found=1, facts_found=2),
            _absent(13),
            _row("fix", group="fixtures", found=0),
            _row("other-crawler", crawler="breadth-first", found=0),
        ],
    )
    after = _run(
        tmp_path / "b.json",
        [
            _row("same"),
            _row("lost", found=0, facts_found=0, identified_relevant=0, identified_irrelevant=1),
            _absent(11),
            _row("fix", group="fixtures", found=1),
        ],
    )
    out = io.StringIO()
    assert compare_quality.main([str(before), str(after)], out=out) == 0
    lines = out.getvalue().splitlines()
    # Real tasks only (the fixture task is left out), pw_adaptive's rows only.
    first, second = lines[2], lines[3]
    assert "| 3 | 1.000 | 1.000 | 2 / 2 (1.000) |" in first
    assert "| 1: absent 13 |" in first
    assert "| 3 | 0.500 | 0.500 | 1 / 2 (0.500) |" in second
    assert second.endswith("| 0: none |")
    assert "tasks that find more pages: 0, fewer: 1; more facts: 0, fewer: 1" in lines[5]
    assert "a right mark lost: 1; a wrong mark gained: 1" in lines[5]
    moved = lines[7:]
    assert moved == [
        "absent: found 0 -> 0 of 0; facts 0 -> 0 of 0; pages 13 -> 11;"
        " marks right/wrong 0/0 -> 0/0; no_relevant_pages",
        "lost: found 1 -> 0 of 1; facts 2 -> 0 of 2; pages 10 -> 10;"
        " marks right/wrong 1/0 -> 0/1; saturated",
    ]
    fixtures = io.StringIO()
    assert compare_quality.main([str(before), str(after), "--group", "fixtures"], out=fixtures) == 0
    assert fixtures.getvalue().splitlines()[-1].startswith("fix: found 0 -> 1 of 1")


def test_a_task_in_one_run_only_is_named(tmp_path: Path) -> None:
    before = _run(tmp_path / "a.json", [_row("x"), _row("gone")])
    after = _run(tmp_path / "b.json", [_row("x"), _row("new")])
    out = io.StringIO()
    assert compare_quality.main([str(before), str(after)], out=out) == 0
    text = out.getvalue()
    assert "only in the before run: gone" in text and "only in the after run: new" in text


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read it as JSON"),
        ("{not json", "cannot read it as JSON"),
        ('{"meta": {}}', "no 'rows' list"),
        ('{"rows": [{"task": "t"}]}', "lacks the fields"),
        ('{"rows": []}', "no rows of crawler 'pw_adaptive'"),
    ],
)
def test_a_file_that_is_not_a_run_exits_2_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, message: str
) -> None:
    good = _run(tmp_path / "good.json", [_row("x")])
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content, encoding="utf-8")
    assert compare_quality.main([str(good), str(bad)], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith("compare_quality: ") and message in err and "bad.json" in err
