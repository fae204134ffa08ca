"""llms.txt parsing: the pages a site lists, with their titles and descriptions."""

from __future__ import annotations

from pw_adaptive.core.llms_txt import MAX_LLMS_BYTES, LlmsEntry, parse_llms_txt

URL = "https://www.uni.test/ar/llms.txt"

LLMS = """# Al-Example University

> The university's site: admissions, academics and student services.

## Overview & Core Pages

- [Admission requirements](https://www.uni.test/ar/admissions/requirements/): documents and conditions
- [**Academic calendar**](/ar/academics/calendar/) - exam dates for the year
* [Study in Iraq](students/study-iraq/ "Study here")
1. [Contact](https://www.uni.test/ar/contact/): phone, e-mail
- [Admission requirements](https://www.uni.test/ar/admissions/requirements/): listed twice

Some prose with [a link inside it](https://www.uni.test/ar/news/) is not an entry.

## Optional

- [Mail us](mailto:info@uni.test): mail is not a page
- ![logo](https://www.uni.test/logo.png)
"""


def test_entries_are_the_list_items_that_start_with_a_link() -> None:
    entries = parse_llms_txt(LLMS.encode(), URL, "text/plain; charset=utf-8")
    assert entries == (
        LlmsEntry(
            "https://www.uni.test/ar/admissions/requirements/",
            "Admission requirements",
            "documents and conditions",
        ),
        LlmsEntry(
            "https://www.uni.test/ar/academics/calendar/",
            "Academic calendar",
            "exam dates for the year",
        ),
        LlmsEntry("https://www.uni.test/ar/students/study-iraq/", "Study in Iraq", ""),
        LlmsEntry("https://www.uni.test/ar/contact/", "Contact", "phone, e-mail"),
    )


def test_arabic_and_chinese_titles_are_kept_as_written() -> None:
    text = "- [شروط القبول والتسجيل](/ar/students/admission/): معلومات شاملة\n- [宿舍](/dorm/)\n"
    entries = parse_llms_txt(text.encode(), URL)
    assert [(e.title, e.description) for e in entries] == [
        ("شروط القبول والتسجيل", "معلومات شاملة"),
        ("宿舍", ""),
    ]
    assert entries[1].url == "https://www.uni.test/dorm/"


def test_an_html_page_served_for_a_missing_file_is_no_llms_txt() -> None:
    page = b"<!doctype html><html><body><ul><li>- [Home](/)</li></ul></body></html>"
    assert parse_llms_txt(page, URL, "text/html") == ()
    # Some servers call everything text/plain: the body still tells.
    assert parse_llms_txt(b"\n  <html>\n- [Home](/)\n", URL, "text/plain") == ()
    # A markdown file served with its own type is read.
    assert parse_llms_txt(b"- [Home](/)\n", URL, "text/markdown") != ()


def test_an_oversized_or_undecodable_body_reads_safely() -> None:
    assert parse_llms_txt(b"- [Home](/)\n" + b" " * MAX_LLMS_BYTES, URL) == ()
    entries = parse_llms_txt(b"- [Caf\xe9](/cafe/)\n", URL)
    assert entries[0].url == "https://www.uni.test/cafe/"


def test_a_byte_order_mark_and_windows_line_ends_are_read() -> None:
    body = "\ufeff- [Fees](/fees/)\r\n- [Housing](/housing/): halls and rent\r\n".encode()
    entries = parse_llms_txt(body, URL)
    assert [(e.url, e.title, e.description) for e in entries] == [
        ("https://www.uni.test/fees/", "Fees", ""),
        ("https://www.uni.test/housing/", "Housing", "halls and rent"),
    ]
