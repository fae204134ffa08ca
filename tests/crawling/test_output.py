from __future__ import annotations

import io
import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from pw_adaptive.crawling.output import (
    JsonlWriter,
    count_records,
    dumps_record,
    prepare_append,
    repair_tail,
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(st.dictionaries(st.text(), json_values, max_size=6))
def test_every_record_is_exactly_one_line_that_round_trips(record: dict[str, object]) -> None:
    line = dumps_record(record)
    assert line.endswith("\n") and line.count("\n") == 1
    assert json.loads(line) == record


def test_appending_cuts_a_torn_last_line(tmp_path: Path) -> None:
    out = tmp_path / "crawl.jsonl"
    out.write_text('{"type":"page","url":"a"}\n{"type":"page","ur', encoding="utf-8")
    with JsonlWriter(out, append=True) as writer:
        writer.write({"type": "summary"})
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(x)["type"] for x in lines] == ["page", "summary"]


def test_repair_tail_of_a_file_without_any_newline_empties_it(tmp_path: Path) -> None:
    out = tmp_path / "x.jsonl"
    out.write_bytes(b'{"torn')
    assert repair_tail(out) == 6
    assert out.read_bytes() == b""


def test_repair_tail_keeps_a_complete_file(tmp_path: Path) -> None:
    out = tmp_path / "x.jsonl"
    out.write_bytes(b"{}\n{}\n")
    assert repair_tail(out) == 0
    assert out.read_bytes() == b"{}\n{}\n"


def test_writer_to_a_stream_is_not_closed() -> None:
    stream = io.StringIO()
    with JsonlWriter(stream) as writer:
        writer.write({"a": "宿舍"})
    assert stream.getvalue() == '{"a":"宿舍"}\n'


def test_prepare_append_cuts_a_torn_tail_and_the_old_summary_and_counts_records(
    tmp_path: Path,
) -> None:
    out = tmp_path / "crawl.jsonl"
    out.write_text(
        '{"type":"page","url":"a"}\n{"type":"attachment","url":"b"}\n'
        '{"type":"summary","stop_reason":"cancelled"}\n{"type":"pa',
        encoding="utf-8",
    )
    assert prepare_append(out) == 2
    assert [json.loads(x)["type"] for x in out.read_text("utf-8").splitlines()] == [
        "page",
        "attachment",
    ]
    with JsonlWriter(out, append=True) as writer:
        assert writer.records_before == 2
        writer.write({"type": "summary"})
    assert prepare_append(out) == 2


def test_prepare_append_of_a_missing_or_summary_only_file_counts_nothing(tmp_path: Path) -> None:
    assert prepare_append(tmp_path / "none.jsonl") == 0
    out = tmp_path / "s.jsonl"
    out.write_text('{"type":"summary"}\n', encoding="utf-8")
    assert prepare_append(out) == 0 and out.read_bytes() == b""


def test_count_records_counts_what_prepare_append_keeps_and_changes_nothing(
    tmp_path: Path,
) -> None:
    out = tmp_path / "crawl.jsonl"
    content = (
        b'{"type":"page","url":"a"}\n{"type":"summary"}\n{"type":"skip","url":"b"}\n'
        b'{"type":"summary"}\n{"type":"summary"}\n{"type":"pa'
    )
    out.write_bytes(content)
    assert count_records(out) == 3 and out.read_bytes() == content
    assert prepare_append(out) == 3
    assert count_records(tmp_path / "none.jsonl") == 0
