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
        pytest.param(
            ["crawl", "http://x.example/", "--query", "f", "--concurrency", "100"], id="conc-100"
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


def test_each_browser_arg_is_one_chromium_argument_kept_whole() -> None:
    from pw_adaptive.cli import build_parser, render_settings_of

    rule = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"
    for command in (["crawl", "http://x.example/", "-q", "fees"], ["batch", "j", "-o", "r"]):
        args = build_parser().parse_args(
            [*command, f"--browser-arg={rule}", "--browser-arg=--lang=en-GB"]
        )
        assert render_settings_of(args).browser_args == (rule, "--lang=en-GB")


def test_user_agent_option_reaches_the_render_settings() -> None:
    from pw_adaptive.cli import build_parser, render_settings_of

    args = build_parser().parse_args(["crawl", "http://x.example/", "-q", "f"])
    assert render_settings_of(args).user_agent is None  # the default that names us
    args = build_parser().parse_args(
        ["crawl", "http://x.example/", "-q", "f", "--user-agent", "AcmeBot/2 (+https://a.example)"]
    )
    assert render_settings_of(args).user_agent == "AcmeBot/2 (+https://a.example)"


def test_user_agent_with_a_newline_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["crawl", "http://x.example/", "-q", "fees", "--user-agent", "a\nb"]) == EXIT_USAGE
    assert "control characters" in capsys.readouterr().err


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    from pw_adaptive import __version__

    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"pw-adaptive {__version__}"


def test_help_is_written_for_users(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert "``" not in text and "argument parsing" not in text
    assert "pw-adaptive crawl https://" in text and "exit codes" in text
    for command in ("crawl", "batch", "serve-fixtures", "report"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        sub = capsys.readouterr().out
        assert "``" not in sub
        # Each command's help opens with a description of what it does.
        assert sub.split("\n\n")[1].strip()[0].isupper(), command
