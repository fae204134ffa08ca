"""Bad input to the CLI and the library: a one-line error (exit 2 / ``ValueError``)
before anything is rendered or written. No browser is started here: the library
tests give the crawler a renderer that fails the test if it is ever called."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from pw_adaptive import AdaptiveCrawler, CrawlSettings, crawl
from pw_adaptive.cli import EXIT_USAGE, main, markdown_filename
from pw_adaptive.core.query import MAX_TERMS
from pw_adaptive.crawling.checkpoint import Checkpoint
from pw_adaptive.pages import RenderedPage

START = "http://127.0.0.1:9/"


class NeverRenderer:
    """A renderer that must not be reached: bad input is refused before any page."""

    async def render(self, url: str) -> RenderedPage:
        raise AssertionError(f"rendered {url} despite bad input")


def _run(start: str, query: str, state: Path | None = None, **options: Any) -> list[Any]:
    records: list[Any] = []
    crawler = AdaptiveCrawler(CrawlSettings(**options), renderer=NeverRenderer())
    asyncio.run(crawler.run(start, query, on_record=records.append, state_path=state))
    return records


def _one_line(exc: pytest.ExceptionInfo[ValueError]) -> str:
    message = str(exc.value)
    assert message and "\n" not in message
    return message


@pytest.mark.parametrize(
    ("start", "query"),
    [
        pytest.param("not a url", "fees", id="malformed"),
        pytest.param("http://", "fees", id="no-host"),
        pytest.param("http://[::1/", "fees", id="bad-ipv6"),
        pytest.param("http://h.example:99999/", "fees", id="bad-port"),
        pytest.param("ftp://h.example/", "fees", id="ftp"),
        pytest.param("file:///etc/passwd", "fees", id="file"),
        pytest.param("javascript:alert(1)", "fees", id="javascript"),
        pytest.param("data:text/html,hi", "fees", id="data"),
        pytest.param(START, "", id="empty-query"),
        pytest.param(START, "the of and", id="stop-words-only"),
        pytest.param(START, " ".join(f"w{i}" for i in range(MAX_TERMS + 1)), id="65-terms"),
    ],
)
def test_library_refuses_bad_urls_and_queries_before_rendering(start: str, query: str) -> None:
    with pytest.raises(ValueError) as exc:
        _run(start, query)
    _one_line(exc)


def test_a_query_of_max_terms_is_accepted() -> None:
    from pw_adaptive.core.query import Query

    assert MAX_TERMS == 64
    assert len(Query(" ".join(f"w{i}" for i in range(MAX_TERMS)))) == MAX_TERMS


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"max_pages": 0}, id="zero-budget"),
        pytest.param({"max_pages": -5}, id="negative-budget"),
        pytest.param({"max_depth": -1}, id="negative-depth"),
        pytest.param({"concurrency": 0}, id="zero-concurrency"),
        pytest.param({"time_limit_s": 0}, id="zero-time"),
        pytest.param({"host_delay_s": -1.0}, id="negative-delay"),
        pytest.param({"no_such_option": 1}, id="unknown-option"),
    ],
)
def test_crawl_refuses_bad_options_with_a_one_line_value_error(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError) as exc:
        crawl(START, "fees", **options)
    _one_line(exc)


def _state_cases(tmp_path: Path) -> dict[str, Path]:
    directory = tmp_path / "dir.sqlite"
    directory.mkdir()
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"\x00\xffnot sqlite at all" * 100)
    other = tmp_path / "other.sqlite"
    Checkpoint(other, crawl_key="another crawl").close()
    return {"directory": directory, "garbage": garbage, "other-crawl": other}


@pytest.mark.parametrize("case", ["directory", "garbage", "other-crawl"])
def test_library_refuses_unusable_state_files_and_leaves_them_alone(
    tmp_path: Path, case: str
) -> None:
    state = _state_cases(tmp_path)[case]
    before = state.read_bytes() if state.is_file() else None
    records: list[Any] = []
    with pytest.raises(ValueError) as exc:
        records = _run(START, "fees", state)
    assert "state file" in _one_line(exc)
    assert records == []
    if before is not None:
        assert state.read_bytes() == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_library_refuses_an_unreadable_state_file(tmp_path: Path) -> None:
    state = tmp_path / "locked.sqlite"
    Checkpoint(state, crawl_key="x").close()
    state.chmod(0)
    with pytest.raises(ValueError) as exc:
        _run(START, "fees", state)
    _one_line(exc)


@pytest.mark.parametrize("case", ["directory", "garbage", "other-crawl"])
def test_cli_exits_2_on_unusable_state_files_without_writing_output(
    tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    state = _state_cases(tmp_path)[case]
    out, md = tmp_path / "out.jsonl", tmp_path / "md"
    argv = ["crawl", START, "--query", "fees", "--state", str(state), "--out", str(out),
            "--markdown-dir", str(md), "--quiet"]  # fmt: skip
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err.strip()
    assert err.startswith("pw-adaptive:") and "\n" not in err and "state" in err
    assert not out.exists() and not md.exists()


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param(["--max-depth", "-1"], id="negative-depth"),
        pytest.param(["--max-pages", "0"], id="zero-budget"),
        pytest.param(["--time-limit", "0"], id="zero-time"),
        pytest.param(["--delay", "-2"], id="negative-delay"),
        pytest.param(["--query", ""], id="empty-query"),
    ],
)
def test_cli_exits_2_on_bad_numbers(
    tmp_path: Path, extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.jsonl"
    assert main(["crawl", START, "--query", "fees", *extra, "--out", str(out)]) == EXIT_USAGE
    err = capsys.readouterr().err.strip()
    assert err.startswith("pw-adaptive: error:") and "\n" not in err
    assert not out.exists()


def test_credentials_never_reach_error_messages() -> None:
    with pytest.raises(ValueError) as exc:
        _run("http://user:hunter2@h.example:99999/", "fees")
    assert "hunter2" not in _one_line(exc)


# ------------------------------------------------------- markdown file names

MAX_NAME_BYTES = 150
_WINDOWS_RESERVED = set('<>:"/\\|?*') | {chr(i) for i in range(32)}
_WINDOWS_DEVICES = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
                    *(f"lpt{i}" for i in range(10))}  # fmt: skip


@pytest.mark.parametrize(
    "url",
    [
        pytest.param("http://h.example/../../etc/passwd", id="dot-dot"),
        pytest.param("http://h.example/%2e%2e/%2e%2e/etc/passwd", id="encoded-dot-dot"),
        pytest.param("http://h.example/a/..%2f..%2fsecret", id="encoded-slash"),
        pytest.param("http://h.example/a%00b", id="nul-escape"),
        pytest.param("http://h.example/a\x00b", id="nul-raw"),
        pytest.param("http://h.example/" + "宿舍" * 400, id="long-cjk"),
        pytest.param("http://h.example/" + "x" * 5000, id="long-ascii"),
        pytest.param('http://h.example/a<b>c:d"e|f?g*h', id="windows-reserved"),
        pytest.param("http://h.example/CON", id="device-name"),
        pytest.param("http://con/", id="device-host"),
        pytest.param("http://h.example/.hidden", id="dot-file"),
        pytest.param("http://h.example/trailing. ", id="trailing-dot-space"),
        pytest.param("http://user:hunter2@h.example/x", id="userinfo"),
        pytest.param("http://h.example/#/a/../../b", id="route"),
        pytest.param("", id="empty"),
    ],
)
def test_markdown_file_names_are_safe_portable_and_bounded(url: str, tmp_path: Path) -> None:
    name = markdown_filename(url)
    assert len(name.encode("utf-8")) <= MAX_NAME_BYTES
    assert "hunter2" not in name
    assert name.endswith(".md") and not name.startswith(".")
    assert not (set(name) & _WINDOWS_RESERVED) and ".." not in name
    assert name.split(".")[0].lower() not in _WINDOWS_DEVICES  # "CON.md" is a device too
    # Written inside the directory, never elsewhere.
    target = tmp_path / name
    target.write_text("x", encoding="utf-8")
    assert target.resolve().parent == tmp_path.resolve()


def test_host_lists_given_as_one_string_are_not_split_into_letters() -> None:
    with pytest.raises(ValueError, match="treat_as_public"):
        CrawlSettings(treat_as_public="127.0.0.1")  # type: ignore[arg-type]
    settings = CrawlSettings.from_options(allowed_hosts="a.example", treat_as_public="b.example")
    assert settings.allowed_hosts == ("a.example",)
    assert settings.treat_as_public == ("b.example",)
