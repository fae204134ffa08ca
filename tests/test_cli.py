"""CLI argument handling; no browser is started by any of these."""

from __future__ import annotations

from pathlib import Path

import pytest

from pw_adaptive.cli import EXIT_USAGE, main, markdown_filename


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["crawl", "not a url", "--query", "fees"], id="malformed-url"),
        pytest.param(["crawl", "ftp://x.example/", "--query", "fees"], id="ftp-url"),
        pytest.param(["crawl", "javascript:alert(1)", "--query", "fees"], id="javascript-url"),
        pytest.param(["crawl", "http://x.example/", "--query", "  "], id="empty-query"),
        pytest.param(["crawl", "http://x.example/", "--query", "the of and"], id="stopword-query"),
        pytest.param(
            ["crawl", "http://x.example/", "--query", " ".join(f"w{i}" for i in range(65))],
            id="65-term-query",
        ),
        pytest.param(
            ["crawl", "http://x.example/", "--query", "f", "--max-pages", "-1"], id="neg-budget"
        ),
        pytest.param(
            ["crawl", "http://x.example/", "--query", "f", "--concurrency", "0"], id="zero-conc"
        ),
        pytest.param(
            ["crawl", "http://x.example/", "--query", "f", "--max-pages", "ten"], id="not-int"
        ),
        pytest.param(["crawl", "http://x.example/"], id="no-query"),
        pytest.param(["frobnicate"], id="unknown-command"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "out.jsonl"
    assert main([*argv, "--out", str(out)] if argv[0] == "crawl" else argv) == EXIT_USAGE
    err = capsys.readouterr().err.strip()
    assert err.startswith("pw-adaptive: error:") and "\n" not in err
    assert not out.exists()  # nothing written half-way


@pytest.mark.parametrize(
    "url",
    [
        pytest.param("http://h.example/../../etc/passwd", id="traversal"),
        pytest.param("http://h.example/" + "a" * 5000, id="very-long"),
        pytest.param("http://h.example/#/宿舍/../..", id="cjk-route"),
        pytest.param("http://h.example/a/b\\..\\c", id="backslashes"),
    ],
)
def test_markdown_file_names_are_safe_and_bounded(url: str) -> None:
    name = markdown_filename(url)
    assert "/" not in name and "\\" not in name and not name.startswith(".")
    assert ".." not in name
    assert len(name) <= 120 and name.endswith(".md")


def test_distinct_urls_get_distinct_file_names() -> None:
    assert markdown_filename("http://h.example/#/fees") != markdown_filename(
        "http://h.example/#!/fees"
    )
