"""A batch's jobs: what one job is, and how jobs are read and checked.

A :class:`Job` is one crawl of a batch: a start URL, a query, crawl
options (:data:`OPTION_TYPES`: every :class:`~pw_adaptive.settings.CrawlSettings`
field and the stopper's options, given flat) and render settings (a ``render``
object of :class:`~pw_adaptive.render.RenderSettings` fields, as in a
settings file: ``{"render": {"explore_clicks": false}}``). A job is checked when it is
built, so a bad one never reaches an executor: :class:`JobError` names the
problem (an unknown option with the closest known one, an ill-typed value, a
bad URL, an empty query, a bad or reserved id). :func:`parse_jobs` and
:func:`load_jobs` read a jobs file, JSON Lines with one job object per line,
and check every line before anything runs (:func:`check_jobs`, which
:func:`~pw_adaptive.batch.local.crawl_many` uses too). :func:`job_id` is a job's default
id, which names its result file (see :mod:`pw_adaptive.batch.local`).
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import os
import re
import types
import typing
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pw_adaptive.core.stopper import AdaptiveOptions
from pw_adaptive.render.records import RenderSettings
from pw_adaptive.settings import CrawlSettings

__all__ = [
    "OPTION_TYPES",
    "Job",
    "JobError",
    "check_jobs",
    "job_id",
    "load_jobs",
    "parse_jobs",
]

_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_SLUG_RE = re.compile(r"[^a-z0-9.-]+")
_RESERVED_IDS = {"summary"}  # summary.jsonl is the batch summary (batch.SUMMARY_FILE)
_JOB_KEYS = ("id", "start_url", "query", "options", "render")
_LAUNCH_FIELDS = ("browser_args", "executable_path", "headless")
"""Render settings of the browser, shared by a batch's jobs: set for the whole
batch (``--set render.X=...``), not per job."""


class JobError(ValueError):
    """A job that cannot run: bad JSON, a missing field, an unknown or ill-typed option."""


# Options a job may set: every CrawlSettings field (the nested ``adaptive``
# object excepted) and the stopper's options, given flat.
_SETTINGS_TYPES: dict[str, Any] = {
    name: hint
    for name, hint in typing.get_type_hints(CrawlSettings).items()
    if name != "adaptive" and name in {f.name for f in fields(CrawlSettings)}
}
_ADAPTIVE_TYPES: dict[str, Any] = {
    name: hint
    for name, hint in typing.get_type_hints(AdaptiveOptions).items()
    if name in {f.name for f in fields(AdaptiveOptions)}
}
OPTION_TYPES: Mapping[str, Any] = {**_SETTINGS_TYPES, **_ADAPTIVE_TYPES}
"""Every option a job may set, with its type: :class:`CrawlSettings` fields
and the stopper's ``coverage_threshold``, ``evidence_per_term``, ``patience``,
``min_gain``."""


def _type_ok(value: Any, hint: Any) -> bool:
    """Whether a JSON value fits a settings annotation (int, float, bool, str,
    None, ``X | None``, ``tuple[str, ...]``)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_type_ok(value, arg) for arg in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    if origin is tuple:
        (item, *_rest) = typing.get_args(hint)
        return isinstance(value, list | tuple) and all(_type_ok(v, item) for v in value)
    return False


def _type_name(hint: Any) -> str:
    name = str(hint).replace("typing.", "")
    return name[8:-2] if name.startswith("<class '") else name


def job_id(start_url: str, query: str, options: Mapping[str, Any] | None = None) -> str:
    """The default id of a job: its host, then a hash of start URL, query and options.

    Stable across runs and versions (only the given options count, not the
    defaults), safe as a file name (``[a-z0-9.-]``), e.g.
    ``www.example.ac.uk-5f0c2a9e81d4``.
    """
    blob = json.dumps([start_url, query, dict(options or {})], sort_keys=True, ensure_ascii=False)
    digest = hashlib.blake2b(blob.encode(), digest_size=6).hexdigest()
    try:
        host = urlsplit(start_url).hostname or ""
    except ValueError:
        host = ""
    slug = _SLUG_RE.sub("-", host.lower()).strip(".-")[:60]
    return f"{slug or 'job'}-{digest}"


@dataclass(frozen=True)
class Job:
    """One crawl of a batch: ``start_url``, ``query`` and crawl ``options``.

    ``options`` are :data:`OPTION_TYPES` names (``max_pages``, ``concurrency``,
    ``time_limit_s``, ``patience``, ...), checked on construction
    (:class:`JobError` names the unknown option and the closest known one).
    ``id`` names the job's result file; empty: :func:`job_id` of the rest.
    """

    start_url: str
    query: str
    options: Mapping[str, Any] = field(default_factory=dict)
    id: str = ""
    render: Mapping[str, Any] = field(default_factory=dict)
    """Render settings of this job (``RenderSettings`` fields: ``explore_clicks``,
    ``click_budget_s``, ...) laid over the batch's; the browser's own
    (``browser_args``, ``executable_path``, ``headless``) are the batch's."""

    def __post_init__(self) -> None:
        from pw_adaptive.core.query import Query
        from pw_adaptive.core.urls import canonicalize_url

        if not isinstance(self.start_url, str) or not self.start_url.strip():
            raise JobError("start_url must be a non-empty string")
        if not isinstance(self.query, str) or not self.query.strip():
            raise JobError("query must be a non-empty string")
        try:
            canonicalize_url(self.start_url)
            Query(self.query)
        except ValueError as exc:
            raise JobError(str(exc)) from exc
        options = dict(self.options)
        for name, value in options.items():
            hint = OPTION_TYPES.get(name)
            if hint is None:
                close = difflib.get_close_matches(name, list(OPTION_TYPES), n=1)
                hint_text = f" (did you mean {close[0]!r}?)" if close else ""
                raise JobError(
                    f"unknown option {name!r}{hint_text}; "
                    f"options are {', '.join(sorted(OPTION_TYPES))}"
                )
            if not _type_ok(value, hint):
                raise JobError(f"option {name!r} must be {_type_name(hint)}, got {value!r}")
        try:
            CrawlSettings.from_options(**options)
        except (ValueError, TypeError) as exc:
            raise JobError(str(exc)) from exc
        object.__setattr__(self, "options", types.MappingProxyType(options))
        render = self._checked_render()
        object.__setattr__(self, "render", types.MappingProxyType(render))
        if self.id:
            if not isinstance(self.id, str) or not _ID_RE.fullmatch(self.id):
                raise JobError(
                    f"id {self.id!r} must be 1-100 characters of A-Z a-z 0-9 . _ -, "
                    "starting with a letter or digit"
                )
            if self.id.lower() in _RESERVED_IDS:
                raise JobError(f"id {self.id!r} is reserved (it names the batch summary file)")
        else:
            keyed = {**options, "render": render} if render else options
            object.__setattr__(self, "id", job_id(self.start_url, self.query, keyed))

    def _checked_render(self) -> dict[str, Any]:
        from pw_adaptive.crawling.overrides import Overrides, SettingsError

        if not isinstance(self.render, Mapping):
            raise JobError("render must be a JSON object of render settings")
        render = dict(self.render)
        launch = sorted(set(render) & set(_LAUNCH_FIELDS))
        if launch:
            raise JobError(
                f"render.{launch[0]} is the batch's browser setting: "
                f"give it to the batch (--set render.{launch[0]}=...), not to a job"
            )
        try:
            Overrides.from_mapping({"render": render})
        except SettingsError as exc:
            raise JobError(str(exc)) from exc
        return render

    def render_settings(self, base: RenderSettings) -> RenderSettings:
        """The batch's render settings ``base`` with this job's ``render`` laid over."""
        return dataclasses.replace(base, **self.render) if self.render else base

    def with_defaults(self, defaults: Mapping[str, Any]) -> Job:
        """This job with ``defaults`` (crawl options) under its own options; same id."""
        return Job(self.start_url, self.query, {**defaults, **self.options}, self.id, self.render)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Job:
        """A job from one JSON object: ``start_url``, ``query``, optional ``id``,
        and options given flat or in an ``options`` object (not both for one name)."""
        if not isinstance(data, Mapping):
            raise JobError(f"a job must be a JSON object, got {type(data).__name__}")
        missing = [k for k in ("start_url", "query") if k not in data]
        if missing:
            raise JobError(f"missing {' and '.join(missing)}")
        nested = data.get("options", {})
        if not isinstance(nested, Mapping):
            raise JobError("options must be a JSON object")
        flat = {k: v for k, v in data.items() if k not in _JOB_KEYS}
        both = sorted(set(flat) & set(nested))
        if both:
            raise JobError(f"option(s) given twice: {', '.join(both)}")
        job_id_value = data.get("id") or ""
        if not isinstance(job_id_value, str):
            raise JobError(f"id must be a string, got {job_id_value!r}")
        render = data.get("render", {})
        if not isinstance(render, Mapping):
            raise JobError("render must be a JSON object of render settings")
        return cls(data["start_url"], data["query"], {**nested, **flat}, job_id_value, render)

    def settings(self) -> CrawlSettings:
        """The crawl settings of this job."""
        return CrawlSettings.from_options(**self.options)

    def to_json(self) -> dict[str, Any]:
        """The job as one JSON object, readable by :meth:`from_dict`."""
        out = {"id": self.id, "start_url": self.start_url, "query": self.query, **self.options}
        if self.render:
            out["render"] = dict(self.render)
        return out


def check_jobs(
    items: Iterable[tuple[int, Job | Mapping[str, Any]]], *, source: str = "", unit: str = "job"
) -> list[Job]:
    """Jobs from numbered :class:`Job` or job objects, every one checked.

    The first bad one raises :class:`JobError` naming its place: ``source``,
    ``unit`` and its number (``"jobs.jsonl line 3: ..."``, ``"job 3: ..."``).
    Two jobs with the same id (the same job twice, or a repeated user id,
    case ignored) are an error.
    """
    jobs: list[Job] = []
    first: dict[str, int] = {}
    for number, item in items:
        where = f"{source} {unit} {number}".lstrip()
        try:
            job = item if isinstance(item, Job) else Job.from_dict(item)
        except JobError as exc:
            raise JobError(f"{where}: {exc}") from exc
        key = job.id.lower()
        if key in first:
            raise JobError(f"{where}: job id {job.id!r} repeats {unit} {first[key]}")
        first[key] = number
        jobs.append(job)
    return jobs


def parse_jobs(lines: Iterable[str], *, source: str = "jobs") -> list[Job]:
    """Jobs from JSON Lines: one job object per line, blank lines ignored.

    Every line is checked before anything runs (:func:`check_jobs`); the
    first bad one raises :class:`JobError` naming ``source`` and the line.
    """

    def decoded() -> Iterator[tuple[int, Any]]:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError as exc:
                raise JobError(
                    f"{source} line {number}: not JSON ({exc.msg} at column {exc.colno})"
                ) from exc

    return check_jobs(decoded(), source=source, unit="line")


def load_jobs(path: str | os.PathLike[str]) -> list[Job]:
    """Jobs from a JSON Lines file (see :func:`parse_jobs`); ``JobError`` when
    the file cannot be read or a line is bad."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise JobError(f"cannot read {p}: {exc}") from exc
    jobs = parse_jobs(text.splitlines(), source=str(p))
    if not jobs:
        raise JobError(f"{p} holds no job")
    return jobs
