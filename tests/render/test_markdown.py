"""html_to_markdown: pure conversion of cleaned HTML, no browser."""

from __future__ import annotations

import pytest

from pw_adaptive.render.markdown import html_to_markdown


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<h1>Fees</h1>", "# Fees"),
        ("<h2>Housing</h2><p>Halls.</p>", "## Housing\n\nHalls."),
        ("<h3>Deadlines <small>2025</small></h3>", "### Deadlines 2025"),
        ("<h6>Small</h6>", "###### Small"),
    ],
    ids=["h1", "h2-then-paragraph", "inline-inside-heading", "h6"],
)
def test_headings_are_atx(html: str, expected: str) -> None:
    assert html_to_markdown(html) == expected


def test_tables_are_kept_as_pipe_tables() -> None:
    html = (
        "<table><thead><tr><th>Hall</th><th>Weekly rent</th></tr></thead>"
        "<tbody><tr><td>North</td><td>150</td></tr><tr><td>South</td><td>175</td></tr></tbody>"
        "</table>"
    )
    assert html_to_markdown(html) == (
        "| Hall | Weekly rent |\n| --- | --- |\n| North | 150 |\n| South | 175 |"
    )


def test_table_without_header_row_uses_its_first_row() -> None:
    html = (
        "<table><tr><td>Deadline</td><td>30 June</td></tr><tr><td>Fee</td><td>75</td></tr></table>"
    )
    assert html_to_markdown(html).splitlines()[:2] == ["| Deadline | 30 June |", "| --- | --- |"]


@pytest.mark.parametrize(
    "junk",
    [
        "<script>var tracking = 'secret';</script>",
        "<style>.x { color: red }</style>",
        "<noscript>Enable JavaScript</noscript>",
        "<template><p>Template text</p></template>",
        "<svg><text>Icon text</text></svg>",
        "<iframe src='https://ads.example'>Frame text</iframe>",
        "<!-- a comment -->",
        "<select><option>Afghanistan</option></select>",
        "<button>Menu</button>",
    ],
    ids=["script", "style", "noscript", "template", "svg", "iframe", "comment", "select", "button"],
)
def test_non_content_is_removed(junk: str) -> None:
    assert html_to_markdown(f"<p>Before</p>{junk}<p>After</p>") == "Before\n\nAfter"


def test_cjk_text_is_kept_without_added_spaces() -> None:
    html = "<h1>学生宿舍</h1><p>国际学生可以申请<b>校内</b>宿舍。</p><ul><li>申请截止日期：6月30日</li></ul>"
    assert html_to_markdown(html) == (
        "# 学生宿舍\n\n国际学生可以申请**校内**宿舍。\n\n- 申请截止日期：6月30日"
    )


def test_content_links_keep_their_url() -> None:
    html = '<p>See the <a href="https://uni.example/fees">fee table</a> for details.</p>'
    assert html_to_markdown(html) == "See the [fee table](https://uni.example/fees) for details."


@pytest.mark.parametrize(
    "href",
    ["javascript:void(0)", "mailto:office@uni.example", "#top", ""],
    ids=["javascript", "mailto", "fragment", "empty"],
)
def test_links_without_http_url_keep_only_their_text(href: str) -> None:
    assert html_to_markdown(f'<p>Write to <a href="{href}">the office</a>.</p>') == (
        "Write to the office."
    )


def test_links_can_be_dropped_entirely() -> None:
    html = '<p><a href="https://uni.example/a">Apply</a> now</p>'
    assert html_to_markdown(html, links=False) == "Apply now"


def test_link_around_block_content_keeps_the_content() -> None:
    html = '<a href="https://uni.example/halls"><h3>Halls</h3><p>Rooms from 150.</p></a>'
    assert html_to_markdown(html) == "### Halls\n\nRooms from 150."


def test_images_become_their_alt_text() -> None:
    html = '<p><img src="/map.png" alt="Campus map"> and <img src="/deco.png" alt=""></p>'
    assert html_to_markdown(html) == "Campus map and"


def test_layout_tags_are_blocks() -> None:
    html = (
        "<main><header>Intro</header><details><summary>Question?</summary>Answer.</details></main>"
    )
    assert html_to_markdown(html) == "Intro\n\nQuestion?\n\nAnswer."


def test_blank_runs_collapse_and_trailing_spaces_go() -> None:
    html = "<p>One   </p><br><br><br><br><p>Two</p><div>\n\n\n</div><p>Three</p>"
    markdown = html_to_markdown(html)
    assert "\n\n\n" not in markdown
    assert all(line == line.rstrip() for line in markdown.splitlines())
    assert markdown.startswith("One\n\n") and markdown.endswith("Three")


def test_underscores_are_not_escaped() -> None:
    assert html_to_markdown("<p>Form INT_APP_2025.pdf</p>") == "Form INT_APP_2025.pdf"


def test_line_breaks_become_newlines() -> None:
    assert html_to_markdown("<p>Line one<br>Line two</p>") == "Line one\nLine two"


@pytest.mark.parametrize("html", ["", "   ", "<div></div>", "<script>x()</script>"])
def test_empty_input_gives_empty_markdown(html: str) -> None:
    assert html_to_markdown(html) == ""
