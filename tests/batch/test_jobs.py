"""Jobs of a batch: reading and checking job lines, options, ids, round trips."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pw_adaptive.batch.jobs import Job, JobError, job_id, load_jobs, parse_jobs

URL = "https://www.example.ac.uk/"


def _lines(*objects: Any) -> list[str]:
    return [json.dumps(o) for o in objects]


def test_a_job_line_maps_flat_and_nested_options_onto_crawl_settings() -> None:
    (job,) = parse_jobs(
        _lines({"start_url": URL, "query": "fees", "max_pages": 7, "options": {"patience": 2}})
    )
    settings = job.settings()
    assert settings.max_pages == 7
    assert settings.adaptive.patience == 2
    assert dict(job.options) == {"max_pages": 7, "patience": 2}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"start_url": URL, "query": "fees", "max_page": 3}, "unknown option 'max_page' (did you mean 'max_pages'?)"),
        ({"start_url": URL, "query": "fees", "max_pages": "3"}, "option 'max_pages' must be int, got '3'"),
        ({"start_url": URL, "query": "fees", "max_pages": True}, "option 'max_pages' must be int"),
        ({"start_url": URL, "query": "fees", "allowed_hosts": "a.example"}, "'allowed_hosts' must be tuple[str, ...]"),
        ({"start_url": URL, "query": "fees", "max_pages": 0}, "max_pages must be >= 1"),
        ({"start_url": URL, "query": "fees", "adaptive": {}}, "unknown option 'adaptive'"),
        ({"query": "fees"}, "missing start_url"),
        ({"start_url": URL}, "missing query"),
        ({"start_url": URL, "query": "   "}, "query must be a non-empty string"),
        ({"start_url": "ftp://x.example/", "query": "fees"}, "ftp"),
        ({"start_url": URL, "query": "fees", "max_pages": 3, "options": {"max_pages": 4}}, "given twice: max_pages"),
        ({"start_url": URL, "query": "fees", "id": "../etc/passwd"}, "must be 1-100 characters"),
        ({"start_url": URL, "query": "fees", "id": "Summary"}, "reserved"),
        ([URL, "fees"], "must be a JSON object"),
    ],
)  # fmt: skip
def test_a_bad_job_line_is_an_error_naming_the_line(line: Any, message: str) -> None:
    good = {"start_url": URL, "query": "housing"}
    with pytest.raises(JobError) as info:
        parse_jobs([json.dumps(good), "", json.dumps(line)], source="jobs.jsonl")
    assert str(info.value).startswith("jobs.jsonl line 3: ")
    assert message in str(info.value)


def test_a_line_that_is_not_json_is_an_error_with_its_column() -> None:
    with pytest.raises(JobError, match=r"^j line 1: not JSON \(.* at column 2\)"):
        parse_jobs(["{start_url: 1}"], source="j")


def test_the_same_job_twice_or_a_repeated_id_is_an_error() -> None:
    job = {"start_url": URL, "query": "fees"}
    with pytest.raises(JobError, match=r"line 2: job id .* repeats line 1"):
        parse_jobs(_lines(job, job))
    with pytest.raises(JobError, match="line 2: job id 'B' repeats line 1"):
        parse_jobs(_lines({**job, "id": "b"}, {"start_url": URL, "query": "fees", "id": "B"}))


def test_blank_lines_are_ignored_and_an_empty_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "jobs.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    with pytest.raises(JobError, match="holds no job"):
        load_jobs(path)
    with pytest.raises(JobError, match="cannot read"):
        load_jobs(tmp_path / "missing.jsonl")


def test_job_ids_are_stable_file_name_safe_and_depend_on_every_input() -> None:
    a = job_id(URL, "fees", {"max_pages": 5, "patience": 2})
    assert a == job_id(URL, "fees", {"patience": 2, "max_pages": 5})  # option order
    assert a.startswith("www.example.ac.uk-") and len(a) == len("www.example.ac.uk-") + 12
    others = {
        job_id(URL, "fees", {"max_pages": 6, "patience": 2}),
        job_id(URL, "tuition fees", {"max_pages": 5, "patience": 2}),
        job_id("https://www.example.ac.uk/study/", "fees", {"max_pages": 5, "patience": 2}),
    }
    assert a not in others and len(others) == 3
    assert Job(URL, "fees", {"max_pages": 5, "patience": 2}).id == a
    assert Job(URL, "fees", id="uni-42_fees.v2").id == "uni-42_fees.v2"
    odd = job_id("http://[::1]:8080/", "宿舍")
    assert odd.startswith("1-") and all(c.isalnum() or c in ".-" for c in odd)


def test_a_job_round_trips_through_its_json() -> None:
    job = Job(URL, "fees", {"max_pages": 5, "allowed_hosts": ["a.example"]})
    again = Job.from_dict(json.loads(json.dumps(job.to_json())))
    assert again == job and again.settings().allowed_hosts == ("a.example",)
