"""Settings given by a user without Python: a settings file and ``section.field=value``.

Five sections, each a settings dataclass: ``crawl`` (:class:`CrawlSettings`),
``render`` (:class:`RenderSettings`: the renderer and click exploration),
and three parts of ``crawl`` of their own: ``adaptive`` (:class:`AdaptiveOptions`,
the stopper), ``traps`` (:class:`TrapSettings`, the URL trap limits) and
``dedup`` (:class:`DedupSettings`, content dedup). A settings file is JSON
or TOML (by its suffix; ``.toml`` is TOML, anything else JSON) with one
object/table per section::

    [render]
    explore_clicks = false
    click_budget_s = 5

    [crawl]
    max_pages = 50

An assignment is ``section.field=value`` (``render.explore_clicks=false``);
its value is read as the field's type: ``true``/``false`` (also ``yes``/``no``,
``on``/``off``, ``1``/``0``), numbers, ``none`` for an optional field,
comma-separated items for a tuple; JSON (``[1, 2]``, ``"x"``) is accepted too.

Every name is checked (an unknown one gets a did-you-mean), every value is
checked against the field's type, and the settings object is built, so its
own checks run: any problem is one line of :class:`SettingsError`.
:func:`catalog` lists every name with its type, default and documentation,
read from the docstring under each field.
"""

from __future__ import annotations

import ast
import difflib
import inspect
import itertools
import json
import textwrap
import tomllib
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import MISSING, dataclass, field, fields, is_dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from pw_adaptive.render.records import RenderSettings
from pw_adaptive.settings import CrawlSettings

__all__ = [
    "SECTIONS",
    "Overrides",
    "SettingDoc",
    "SettingsError",
    "catalog",
    "format_catalog",
    "load_settings_file",
    "parse_assignment",
]


def _nested_types() -> dict[str, type[Any]]:
    nested: dict[str, type[Any]] = {}
    for f in fields(CrawlSettings):
        factory = f.default_factory
        if isinstance(factory, type) and is_dataclass(factory):
            nested[f.name] = factory
    return nested


_NESTED_TYPES: Mapping[str, type[Any]] = _nested_types()
"""The settings objects ``CrawlSettings`` holds as fields (``adaptive``,
``traps``, ``dedup``): each is a section of its own, found from the fields so
that a new one is settable without a line here."""

SECTIONS: Mapping[str, type[Any]] = {
    "crawl": CrawlSettings,
    "render": RenderSettings,
    **_NESTED_TYPES,
}
"""Section name -> the settings dataclass it sets."""

_NESTED = tuple(_NESTED_TYPES)
"""Sections that are a field of ``CrawlSettings`` of the same name."""

_NOT_SETTABLE = {("crawl", name) for name in _NESTED}  # set through their own section
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


class SettingsError(ValueError):
    """A bad settings file or assignment; the message is one line."""


@dataclass(frozen=True)
class SettingDoc:
    """One settable name: ``section.name``, its type, default and documentation."""

    section: str
    name: str
    type: str
    default: str
    doc: str

    @property
    def key(self) -> str:
        return f"{self.section}.{self.name}"


@cache
def _hints(section: str) -> dict[str, Any]:
    cls = SECTIONS[section]
    names = {f.name for f in fields(cls)}
    return {
        n: h
        for n, h in typing.get_type_hints(cls).items()
        if n in names and (section, n) not in _NOT_SETTABLE
    }


@cache
def _field_docs(section: str) -> dict[str, str]:
    """The docstring under each field of a section's class (attribute
    docstrings are not kept at run time: read from the source)."""
    cls = SECTIONS[section]
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError, SyntaxError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for node, after in itertools.pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[node.target.id] = " ".join(after.value.value.split())
    return docs


def _type_name(hint: Any) -> str:
    name = str(hint).replace("typing.", "")
    return name[8:-2] if name.startswith("<class '") else name


def catalog() -> list[SettingDoc]:
    """Every settable name, by section then declaration order."""
    out = []
    for section, cls in SECTIONS.items():
        hints = _hints(section)
        docs = _field_docs(section)
        for f in fields(cls):
            if f.name not in hints:
                continue
            if f.default is not MISSING:
                default = f.default
            elif f.default_factory is not MISSING:
                default = f.default_factory()
            else:
                default = None
            out.append(
                SettingDoc(
                    section,
                    f.name,
                    _type_name(hints[f.name]),
                    json.dumps(default, default=str),
                    docs.get(f.name, ""),
                )
            )
    return out


def format_catalog(width: int = 100) -> str:
    """The catalog as text: ``section.name (type, default ...)`` and the doc under it."""
    lines = []
    for d in catalog():
        lines.append(f"{d.key}  ({d.type}, default {d.default})")
        if d.doc:
            lines.extend(
                textwrap.wrap(d.doc, width, initial_indent="    ", subsequent_indent="    ")
            )
    return "\n".join(lines)


def _known(section: str, name: str) -> Any:
    """The type hint of ``section.name``; ``SettingsError`` with a did-you-mean."""
    if section not in SECTIONS:
        close = difflib.get_close_matches(section, list(SECTIONS), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise SettingsError(
            f"unknown settings section {section!r}{hint}; sections are {', '.join(SECTIONS)}"
        )
    hints = _hints(section)
    if name not in hints:
        everything = [f"{s}.{n}" for s in SECTIONS for n in _hints(s)]
        close = difflib.get_close_matches(f"{section}.{name}", everything, n=1)
        if not close:
            close = difflib.get_close_matches(name, list(hints), n=1)
            close = [f"{section}.{c}" for c in close]
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise SettingsError(
            f"unknown setting {section}.{name}{hint}; `pw-adaptive settings` lists them"
        )
    return hints[name]


def _check(key: str, value: Any, hint: Any) -> Any:
    """``value`` (from JSON or TOML) as ``hint`` wants it, or ``SettingsError``."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(hint)
        if value is None and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _check(key, value, arg)
            except SettingsError:
                continue
    elif (hint is bool and isinstance(value, bool)) or (
        hint is int and isinstance(value, int) and not isinstance(value, bool)
    ):
        return value
    elif hint is float and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    elif hint is str and isinstance(value, str):
        return value
    elif origin is tuple and isinstance(value, list | tuple):
        (item, *_rest) = typing.get_args(hint)
        return tuple(_check(key, v, item) for v in value)
    raise SettingsError(f"{key} must be {_type_name(hint)}, got {value!r}")


def _from_text(key: str, text: str, hint: Any) -> Any:
    """The value an assignment's text means for ``hint`` (see the module doc)."""
    raw = text.strip()
    args = typing.get_args(hint)
    optional = typing.get_origin(hint) in (typing.Union, types.UnionType)
    if optional and raw.lower() in ("none", "null") and type(None) in args:
        return None
    base = next((a for a in args if a is not type(None)), hint) if optional else hint
    if base is bool:
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        raise SettingsError(f"{key} must be true or false, got {raw!r}")
    if typing.get_origin(base) is tuple and not raw.startswith("["):
        items = [p.strip() for p in raw.split(",") if p.strip()]
        (item,) = typing.get_args(base)[:1]
        return tuple(_from_text(key, p, item) for p in items)
    if base is str and not raw.startswith('"'):
        return raw
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        raise SettingsError(f"{key} must be {_type_name(hint)}, got {raw!r}") from None
    return _check(key, value, hint)


def parse_assignment(text: str) -> tuple[str, str, Any]:
    """``section.field=value`` -> (section, field, typed value); ``SettingsError``."""
    key, sep, value = text.partition("=")
    key = key.strip()
    section, dot, name = key.partition(".")
    if not sep or not dot or not name:
        raise SettingsError(
            f"--set takes section.field=value (e.g. render.explore_clicks=false), got {text!r}"
        )
    hint = _known(section, name)
    return section, name, _from_text(key, value, hint)


def load_settings_file(path: str | Path) -> Overrides:
    """The overrides a JSON or TOML settings file holds (see the module doc)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"cannot read settings file {p}: {exc}") from exc
    try:
        data = tomllib.loads(text) if p.suffix.lower() == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        kind = "TOML" if p.suffix.lower() == ".toml" else "JSON"
        raise SettingsError(f"settings file {p} is not {kind}: {exc}") from exc
    try:
        return Overrides.from_mapping(data)
    except SettingsError as exc:
        raise SettingsError(f"settings file {p}: {exc}") from exc


@dataclass(frozen=True)
class Overrides:
    """Checked values by section, to lay over settings objects."""

    values: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @classmethod
    def from_mapping(cls, data: Any) -> Overrides:
        """From ``{"section": {"field": value}}`` (a parsed file); every name and
        value checked."""
        if not isinstance(data, Mapping):
            raise SettingsError(f"settings must be an object of sections ({', '.join(SECTIONS)})")
        out: dict[str, dict[str, Any]] = {}
        for section, table in data.items():
            if not isinstance(table, Mapping):
                if section not in SECTIONS:
                    _known(str(section), "")  # an unknown section says so first
                raise SettingsError(f"section {section!r} must be an object of settings")
            for name, value in table.items():
                hint = _known(str(section), str(name))
                out.setdefault(str(section), {})[str(name)] = _check(
                    f"{section}.{name}", value, hint
                )
        return cls(out).validated()

    @classmethod
    def from_assignments(
        cls, assignments: Iterable[str], base: Overrides | None = None
    ) -> Overrides:
        """``base`` with each ``section.field=value`` laid over it, in order."""
        out = {s: dict(v) for s, v in (base.values if base else {}).items()}
        for text in assignments:
            section, name, value = parse_assignment(text)
            out.setdefault(section, {})[name] = value
        return cls(out).validated()

    def merged(self, other: Overrides) -> Overrides:
        """These values with ``other``'s laid over them."""
        out = {s: dict(v) for s, v in self.values.items()}
        for section, table in other.values.items():
            out.setdefault(section, {}).update(table)
        return Overrides(out)

    def section(self, name: str) -> dict[str, Any]:
        return dict(self.values.get(name, {}))

    def validated(self) -> Overrides:
        """Build each section's settings once, so its own checks run now."""
        self.apply_crawl(CrawlSettings())
        self.apply_render(RenderSettings())
        return self

    def apply_crawl(self, settings: CrawlSettings) -> CrawlSettings:
        """``settings`` with the ``crawl`` values, and those of its own sections
        (``adaptive``, ``traps``, ``dedup``), laid over it."""
        try:
            out = replace(settings, **self.section("crawl"))
            for name in _NESTED:
                values = self.section(name)
                if values:
                    out = replace(out, **{name: replace(getattr(out, name), **values)})
        except (ValueError, TypeError) as exc:
            raise SettingsError(str(exc).splitlines()[0]) from exc
        return out

    def apply_render(self, settings: RenderSettings) -> RenderSettings:
        """``settings`` with the ``render`` values laid over it."""
        try:
            return replace(settings, **self.section("render"))
        except (ValueError, TypeError) as exc:
            raise SettingsError(str(exc).splitlines()[0]) from exc
