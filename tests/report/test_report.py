"""The HTML report without a browser: reading the JSON Lines, the document's
content (escaping, tree, trap badges, stop reason, plot), the CLI, and the
``skip`` records the crawler writes for it."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from pw_adaptive import AdaptiveCrawler, CrawlSettings
from pw_adaptive.cli import EXIT_OK, EXIT_USAGE, main
from pw_adaptive.core.links import Link, Region
from pw_adaptive.core.stopper import coverage_of
from pw_adaptive.crawling.run import SKIP_RECORDS_PER_REASON
from pw_adaptive.pages import RenderedPage
from pw_adaptive.records import AttachmentRecord, PageRecord, SkipRecord
from pw_adaptive.report import ReportInputError, read_log, render_html, write_report
from pw_adaptive.report.html import STOP_REASONS, tree_structure
from pw_adaptive.report.log import SNIPPET_CHARS, parse_lines
from pw_adaptive.report.plot import series
from pw_adaptive.testing import FakeRenderer, make_page

SITE = "http://portal.test"
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes"'


def page(order: int, path: str, parent: str | None, **kw: Any) -> dict[str, Any]:
    record = {
        "type": "page", "url": SITE + path, "final_url": SITE + path, "title": f"Page {path}",
        "depth": path.count("/") - 1, "relevance": 0.0, "link_score": 0.5, "blind": False,
        "evidence": [0, 0], "fresh": False, "status": 200,
        "parent": None if parent is None else SITE + parent, "headings": [], "links": 3,
        "error": None, "note": None, "elapsed_s": 0.1, "markdown": f"# Page {order}",
    }  # fmt: skip
    record.update(kw)
    return record


def summary(**kw: Any) -> dict[str, Any]:
    record = {
        "type": "summary", "start_url": SITE + "/", "query": "student housing",
        "terms": ["student", "housing"], "stop_reason": "coverage_reached", "pages": 4,
        "relevant_pages": 2, "attachments": 0, "coverage": 1.0,
        "evidence": {"student": 3, "housing": 3}, "skipped": {"calendar": 1}, "failures": {},
        "elapsed_s": 2.5, "evidence_per_term": 3,
    }  # fmt: skip
    record.update(kw)
    return record


RECORDS = [
    page(1, "/", None, link_score=1.0, evidence=[0, 0]),
    {
        "type": "skip",
        "url": SITE + "/calendar/2031/05/",
        "parent": SITE + "/",
        "reason": "calendar",
    },
    page(2, "/life", "/", blind=True, link_score=0.1, evidence=[1, 0]),
    page(3, "/life/halls", "/life", relevance=0.6, fresh=True, evidence=[2, 2], title=HOSTILE),
    page(4, "/life/halls/prices", "/life/halls", relevance=0.4, evidence=[3, 3]),
    {
        "type": "attachment",
        "url": SITE + "/f.pdf",
        "text": "fees",
        "page": SITE + "/life/halls",
        "kind": "pdf",
        "status": 200,
        "content_type": "application/pdf",
        "size": 9,
        "error": None,
        "content": "x",
    },
    summary(),
]


def lines(records: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(r, ensure_ascii=False) + "\n" for r in records]


class _Nesting(HTMLParser):
    """Records, for each element with an id, the ids of its ancestors; and all tags."""

    VOID = frozenset({"meta", "br", "img", "input", "link", "hr"})

    def __init__(self, track_classes: bool = True) -> None:
        super().__init__()
        self.track_classes = track_classes  # quadratic: small documents only
        self.stack: list[tuple[str, str | None]] = []
        self.ancestors: dict[str, list[str]] = {}
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.classes_under: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        for _, anc in self.stack if self.track_classes else ():
            if anc is not None and a.get("class"):
                self.classes_under.setdefault(anc, []).append(str(a["class"]))
        if a.get("id"):
            self.ancestors[str(a["id"])] = [i for _, i in self.stack if i is not None]
        if tag not in self.VOID:
            self.stack.append((tag, a.get("id")))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break


def parse(document: str, track_classes: bool = True) -> _Nesting:
    parser = _Nesting(track_classes)
    parser.feed(document)
    return parser


# ---------------------------------------------------------------- reading


def test_all_record_types_are_read_and_markdown_is_cut_to_a_snippet() -> None:
    big = page(1, "/", None, markdown="word " * 50_000)
    log = parse_lines(lines([big, *RECORDS[1:]]))
    assert [p.order for p in log.pages] == [1, 2, 3, 4]
    assert len(log.pages[0].snippet) <= SNIPPET_CHARS and log.pages[0].snippet.endswith("…")
    assert log.skips[0].reason == "calendar" and log.skips[0].parent == SITE + "/"
    assert log.attachments[0].kind == "pdf"
    assert log.summary is not None and log.summary["stop_reason"] == "coverage_reached"
    assert log.notes == ()


def test_unknown_types_are_ignored_and_torn_lines_noted() -> None:
    text = [*lines([{"type": "future-thing", "x": 1}, *RECORDS]), '{"type": "page", "url": "htt']
    log = parse_lines(text)
    assert len(log.pages) == 4
    assert log.notes == ("1 unreadable line ignored (a torn last line after a crash?)",)


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "page", "url": 5},
        {"type": "page", "url": SITE, "relevance": "high"},
        {"type": "page", "url": SITE, "relevance": float("nan")},
        {"type": "page", "url": SITE, "evidence": "3"},
        {"type": "skip", "url": SITE},
        {"type": "summary", "terms": "student"},
        {"type": "summary", "skipped": {"calendar": "many"}},
        {"type": "summary", "qualifiers": "gent"},
        {"type": "summary", "qualifiers": [1.5]},
    ],
    ids=[
        "url-not-str",
        "relevance-str",
        "relevance-nan",
        "evidence-str",
        "skip-no-parent",
        "terms-str",
        "skipped-str",
        "qualifiers-str",
        "qualifiers-float",
    ],
)
def test_records_with_wrong_field_types_are_ignored(bad: dict[str, Any]) -> None:
    log = parse_lines(lines([*RECORDS[:-1], bad, RECORDS[-1]]))
    assert len(log.pages) == 4 and "1 unreadable line ignored" in log.notes[0]


def test_without_a_summary_the_pages_are_kept_with_a_note() -> None:
    log = parse_lines(lines(RECORDS[:-1]))
    assert log.summary is None and len(log.pages) == 4
    assert any("no summary" in n for n in log.notes)


def test_a_resumed_crawl_shows_the_last_summary() -> None:
    first = summary(stop_reason="cancelled")
    log = parse_lines(lines([*RECORDS[:2], first, *RECORDS[2:]]))
    assert log.summary is not None and log.summary["stop_reason"] == "coverage_reached"
    assert any("resumed" in n for n in log.notes)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "no crawl records"),
        (b"just some text\nnot json\n", "none a crawl record"),
        (b'{"a": 1}\n[1, 2]\n', "not a pw-adaptive JSON Lines file"),
        (b'\xff\xfe{"type": "page"}\n', "not UTF-8"),
    ],
    ids=["empty", "text", "other-json", "binary"],
)
def test_input_that_is_not_a_crawl_is_refused(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(content)
    with pytest.raises(ReportInputError, match=message):
        read_log(path)


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ReportInputError, match="no such file"):
        read_log(tmp_path / "missing.jsonl")


# ---------------------------------------------------------------- the document


def test_hostile_text_is_escaped_and_only_http_urls_are_links() -> None:
    records = [*RECORDS[:-1], page(5, "/x", "/", final_url="javascript:alert(1)", title=HOSTILE,
                                   markdown=HOSTILE), summary(query=HOSTILE)]  # fmt: skip
    document = render_html(parse_lines(lines(records)))
    assert document.count("<script") == 1  # the report's own
    assert "<img" not in document and "onerror=alert" not in document.replace(
        "onerror=alert(1)&gt;", ""
    )
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in document
    hrefs = [a.get("href") or "" for tag, a in parse(document).tags if tag == "a"]
    assert hrefs and all(h.startswith("http://") for h in hrefs)
    assert "javascript:alert(1)" in document  # shown as text


def test_nothing_is_loaded_from_anywhere_and_the_csp_matches_the_inline_code() -> None:
    document = render_html(parse_lines(lines(RECORDS)))
    tags = parse(document).tags
    assert not [t for t, a in tags if t in {"link", "img", "iframe", "object", "embed"}]
    assert not [a for t, a in tags if "src" in a], "no external or inline src"
    assert "url(" not in document and "@import" not in document
    csp = next(
        a["content"] or "" for t, a in tags if a.get("http-equiv") == "Content-Security-Policy"
    )
    assert "default-src 'none'" in csp
    for tag in ("style", "script"):
        body = re.search(rf"<{tag}>(.*?)</{tag}>", document, re.S)
        assert body is not None
        digest = base64.b64encode(hashlib.sha256(body.group(1).encode()).digest()).decode()
        assert f"{tag}-src 'sha256-{digest}'" in csp


def test_the_tree_nests_pages_by_parent_with_trap_and_blind_badges() -> None:
    document = render_html(parse_lines(lines(RECORDS)))
    nesting = parse(document)
    assert nesting.ancestors["p1"] == ["tree"]
    assert nesting.ancestors["p2"] == ["tree", "p1"]
    assert nesting.ancestors["p3"] == ["tree", "p1", "p2"]
    assert nesting.ancestors["p4"] == ["tree", "p1", "p2", "p3"]
    assert "badge trap" in nesting.classes_under["p1"]
    assert "badge trap" not in nesting.classes_under["p2"]  # the trap hangs under the home page
    assert "badge blind" in nesting.classes_under["p2"]
    assert "badge blind" not in nesting.classes_under["p3"]
    assert "trap: calendar</span>" in document
    assert f"{SITE}/calendar/2031/05/" in document


def test_the_pages_of_the_final_answer_are_counted_and_set_in_bold() -> None:
    records = [
        page(1, "/", None),
        page(2, "/news", "/", relevance=0.2, relevant=True),  # marked early
        page(3, "/life/halls", "/", relevance=0.6, relevant=True),
        page(4, "/life/halls/prices", "/life/halls", relevance=0.4, relevant=True),
        page(5, "/life/map", "/", relevance=0.5),  # never marked
        summary(pages=5),
    ]
    document = render_html(parse_lines(lines(records)))
    classes = {a["id"]: a.get("class") for tag, a in parse(document).tags if tag == "li"}
    assert classes == {
        "p1": "node", "p2": "node", "p3": "node relevant", "p4": "node relevant", "p5": "node",
    }  # fmt: skip
    assert "5 fetched, 2 relevant" in document


def test_the_answer_leaves_out_pages_that_name_only_a_site_wide_word() -> None:
    # "housing in Gent" on a site where every page names Gent: the summary's
    # qualifier terms let the report judge the answer as the crawl did.
    records = [
        page(1, "/", None, named=[1]),
        page(2, "/life/halls", "/", relevance=0.6, relevant=True, named=[0, 1]),
        *(
            page(i, f"/clubs/c{i}", "/", relevance=0.4, relevant=True, named=[1])
            for i in range(3, 9)
        ),
        page(9, "/faq", "/", relevance=0.1, named=[1]),
    ]
    head = summary(query="housing in Gent", terms=["housing", "gent"], pages=9)
    old = render_html(parse_lines(lines([*records, head])))
    assert "9 fetched, 7 relevant" in old  # a log without qualifiers: as before
    document = render_html(parse_lines(lines([*records, {**head, "qualifiers": [1]}])))
    assert "9 fetched, 1 relevant" in document
    classes = {a["id"]: a.get("class") for tag, a in parse(document).tags if tag == "li"}
    assert [key for key, value in classes.items() if value == "node relevant"] == ["p2"]


def test_a_parent_that_is_missing_or_later_makes_a_root_and_cycles_cannot_happen() -> None:
    records = [page(1, "/a", "/b"), page(2, "/b", "/a"), page(3, "/c", "/gone")]
    skips = [{"type": "skip", "url": SITE + "/t", "parent": SITE + "/gone", "reason": "calendar"}]
    log = parse_lines(lines([*records, *skips]))
    roots, children, traps, orphans = tree_structure(log.pages, log.skips)
    assert roots == [0, 2] and children == {0: [1]} and traps == {}
    assert [s.url for s in orphans] == [SITE + "/t"]
    assert "Trap skips from pages not in the file" in render_html(log)


def test_a_deep_chain_renders_without_recursion() -> None:
    records = [page(1, "/0", None)] + [page(i + 1, f"/{i}", f"/{i - 1}") for i in range(1, 1200)]
    document = render_html(parse_lines(lines(records)))
    assert document.count("<details open>") == 1199
    assert len(parse(document, track_classes=False).ancestors["p1200"]) == 1200


@pytest.mark.parametrize("reason", sorted(STOP_REASONS))
def test_the_banner_names_the_stop_reason_and_why(reason: str) -> None:
    document = render_html(parse_lines(lines([*RECORDS[:-1], summary(stop_reason=reason)])))
    banner = re.search(r'<p class="banner [a-z]+" id="stop-reason">(.*?)</p>', document)
    assert banner is not None
    assert f"<strong>{reason}</strong>" in banner.group(1)
    assert STOP_REASONS[reason] in banner.group(1)


def test_the_banner_quotes_the_crawls_own_account_of_its_stop() -> None:
    why = "5 pages in a row added nothing new (patience 5), coverage 50% of 2 terms"
    stop = {"reason": "saturated", "why": why, "sitemap": {"files": 1}}
    document = render_html(
        parse_lines(lines([*RECORDS[:-1], summary(stop_reason="saturated", stop=stop)]))
    )
    assert f'<span id="stop-why">The crawl: {why}.</span>' in document


def test_an_interrupted_crawl_is_reported_with_a_note_and_no_stop_reason() -> None:
    document = render_html(parse_lines(lines(RECORDS[:-1])))
    assert "No stop reason" in document and 'id="notes"' in document
    assert "term 1" in document and "term 2" in document  # terms unknown without a summary


def test_the_plot_has_coverage_and_one_line_per_term_and_a_dot_per_page() -> None:
    log = parse_lines(lines(RECORDS))
    document = render_html(log)
    svg = re.search(r'<svg id="plot".*?</svg>', document, re.S)
    assert svg is not None
    assert svg.group(0).count('<polyline class="coverage"') == 1
    assert svg.group(0).count('<polyline class="term"') == 2
    assert svg.group(0).count('<circle class="relevance"') == 4
    assert "MIN_RELEVANCE 0.05" in svg.group(0)


def test_coverage_over_fetch_order_is_the_stoppers_and_ends_at_the_summarys() -> None:
    log = parse_lines(lines(RECORDS))
    coverage, per_term = series(log.pages, 2, 3)
    assert coverage == [coverage_of(p.evidence, 3) for p in log.pages] == [0.0, 1 / 6, 2 / 3, 1.0]
    assert per_term == [[0.0, 1 / 3, 2 / 3, 1.0], [0.0, 0.0, 2 / 3, 1.0]]
    assert log.summary is not None and coverage[-1] == log.summary["coverage"]


def test_the_pages_table_is_sorted_by_relevance() -> None:
    document = render_html(parse_lines(lines(RECORDS)))
    table = re.search(r'<table class="sortable" id="pages">.*?</table>', document, re.S)
    assert table is not None
    orders = re.findall(r'<tr><td data-v="(\d+)">', table.group(0))
    assert orders == ["3", "4", "1", "2"]


def test_a_large_crawl_gives_a_report_of_bounded_size() -> None:
    markdown = "Student housing and accommodation details. " * 500  # ~22 kB a page
    records = [page(1, "/", None, markdown=markdown)]
    records += [page(i, f"/p{i}", "/", markdown=markdown) for i in range(2, 2001)]
    text = lines([*records, summary()])
    document = render_html(parse_lines(text))
    assert len(document) < 4_000_000  # against ~44 MB of JSON Lines
    assert len(document) * 10 < sum(len(x) for x in text)


# ---------------------------------------------------------------- writing and the CLI


def test_write_report_replaces_the_target_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, target = tmp_path / "crawl.jsonl", tmp_path / "report.html"
    source.write_text("".join(lines(RECORDS)), encoding="utf-8")
    target.write_text("old report", encoding="utf-8")

    def broken(_log: Any) -> str:
        raise RuntimeError("render failed")

    monkeypatch.setattr("pw_adaptive.report.render_html", broken)
    with pytest.raises(RuntimeError):
        write_report(source, target)
    assert target.read_text(encoding="utf-8") == "old report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["crawl.jsonl", "report.html"]
    monkeypatch.undo()
    write_report(source, target)
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert target.stat().st_mode & 0o777 == 0o644


def test_cli_report_writes_the_html_next_to_the_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "crawl.jsonl"
    source.write_text("".join(lines(RECORDS)), encoding="utf-8")
    assert main(["report", str(source)]) == EXIT_OK
    assert "Stopped: <strong>coverage_reached</strong>" in (tmp_path / "crawl.html").read_text()
    assert "4 pages, coverage_reached" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "no such file"), ("not json at all\n", "not a pw-adaptive JSON Lines file")],
    ids=["missing", "not-jsonl"],
)
def test_cli_report_exits_2_with_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, message: str
) -> None:
    source, out = tmp_path / "crawl.jsonl", tmp_path / "out.html"
    if content is not None:
        source.write_text(content, encoding="utf-8")
    assert main(["report", str(source), "-o", str(out)]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not out.exists()


def test_cli_report_refuses_to_overwrite_its_input(tmp_path: Path) -> None:
    source = tmp_path / "crawl.jsonl"
    source.write_text("".join(lines(RECORDS)), encoding="utf-8")
    assert main(["report", str(source), "-o", str(source)]) == EXIT_USAGE
    assert main(["report", str(source), "-o", str(tmp_path)]) == EXIT_USAGE
    assert source.read_text(encoding="utf-8") == "".join(lines(RECORDS))


# ---------------------------------------------------------------- skip records from the crawler


def trap_site(url: str) -> RenderedPage:
    """A home page linking 30 calendar months, a repeated-segment path and two pages."""
    path = url.removeprefix(SITE) or "/"
    links: list[Link] = []
    if path == "/":
        links = [Link(f"{SITE}/calendar/{2031 + i}/05/", text="next month") for i in range(30)]
        links += [
            Link(SITE + "/a/a/a/a/a/", text="more"),
            Link(SITE + "/housing", text="Housing"),
        ]
    elif path == "/housing":
        links = [Link(f"{SITE}/calendar/2031/05/", text="events", region=Region.FOOTER)]
    text = "Student housing: halls and rooms." if path == "/housing" else "Welcome."
    return make_page(url, title=path, markdown=text, links=links)


def _trap_crawl(state: Path | None = None) -> tuple[Any, list[dict[str, Any]]]:
    settings = CrawlSettings(concurrency=1, respect_robots=False, probe_soft_404=False)
    emitted: list[dict[str, Any]] = []
    crawler = AdaptiveCrawler(settings, renderer=FakeRenderer(trap_site))
    result = asyncio.run(
        crawler.run(SITE + "/", "student housing", on_record=emitted.append, state_path=state)
    )
    return result, emitted


def test_trap_skips_are_emitted_once_per_url_and_bounded_per_reason() -> None:
    result, emitted = _trap_crawl()
    skips = [r for r in emitted if r["type"] == "skip"]
    by_reason = {r: [s for s in skips if s["reason"] == r] for r in {s["reason"] for s in skips}}
    assert len(by_reason["calendar"]) == SKIP_RECORDS_PER_REASON < 30
    assert [s["url"] for s in by_reason["repeated_segments"]] == [SITE + "/a/a/a/a/a/"]
    assert all(s["parent"] == SITE + "/" for s in skips)  # /housing's link was refused before
    assert len({s["url"] for s in skips}) == len(skips)
    assert result.summary()["skipped"]["calendar"] >= 30  # the counts keep every skip
    assert [s.to_json() for s in result.skips] == skips
    assert result.summary()["evidence_per_term"] == CrawlSettings().adaptive.evidence_per_term
    assert emitted[-1]["type"] == "summary"


def test_skip_records_survive_a_checkpoint(tmp_path: Path) -> None:
    state = tmp_path / "state.sqlite"
    first, _ = _trap_crawl(state)
    again, emitted = _trap_crawl(state)  # finished: restored, nothing fetched again
    assert again.skips == first.skips and len(first.skips) > SKIP_RECORDS_PER_REASON
    assert not [r for r in emitted if r["type"] == "skip"]


def test_skip_record_json() -> None:
    record = SkipRecord(url=SITE + "/x", parent=SITE + "/", reason="calendar")
    assert record.to_json() == {
        "type": "skip", "url": SITE + "/x", "parent": SITE + "/", "reason": "calendar"
    }  # fmt: skip


def test_records_read_back_what_to_json_wrote() -> None:
    page_record = PageRecord(
        url=SITE + "/a", final_url=SITE + "/b", title="T", depth=2, relevance=0.5,
        link_score=0.25, blind=True, evidence=(1, 2), fresh=True, markdown="# T", status=200,
        parent=SITE + "/", headings=("T",), links=4, error=None, note="soft_404", elapsed_s=0.5,
    )  # fmt: skip
    attachment = AttachmentRecord(
        url=SITE + "/f.pdf", text="fees", page=SITE + "/a", kind="pdf", status=200,
        content_type="application/pdf", size=9, content="x", error=None,
    )  # fmt: skip
    skip = SkipRecord(url=SITE + "/x", parent=SITE + "/", reason="calendar")
    for record in (page_record, attachment, skip):
        assert type(record).from_json(record.to_json()) == record


def test_time_per_page_says_where_a_slow_crawl_spent_its_time() -> None:
    slow = {
        "navigation_s": 0.5, "ready_s": 0.3, "extract_s": 0.2, "explore_s": 9.0,
        "attachments_s": 0.0, "total_s": 10.0,
    }  # fmt: skip
    fast = dict(slow, explore_s=0.0, total_s=1.0)
    records = [
        page(1, "/", None, timings=slow),
        page(2, "/life", "/", timings=fast),
        summary(
            timings={"explore_s": 9.0, "total_s": 11.0, "explore_share": 0.45},
            exploration={
                "clicked": 12, "opened_together": 4, "reused": 30, "inert": 5,
                "predicted": 2, "placeholders": 0, "left_to_others": 1,
                "fresh_copies": 3, "restorations": 6, "restorations_failed": 1,
                "spent_s": 9.04,
            },
        ),
    ]  # fmt: skip
    log = parse_lines(lines(records))
    assert log.pages[0].timings.explore_s == 9.0
    document = render_html(log)
    assert 'id="time-parts"' in document and 'id="time-pages"' in document
    assert "<td>click exploration</td><td>9.0</td><td>82%</td>" in document
    assert "45% of the pages' time in click exploration" in document
    assert (
        "12 candidates clicked (4 menu groups opened together), 38 answered without"
        " a click, 3 fresh copies of a page, 6 restorations (1 failed), 9.0 s"
    ) in document
    # A file without timings (an older crawl) has no time section.
    assert 'id="time-parts"' not in render_html(parse_lines(lines(RECORDS)))
