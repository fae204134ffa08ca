"""The real corpus: sites written by others, their manifests and their labels.

Sites are described by ``benchmarks/corpus/sites/<name>.json`` and laid out by
``benchmarks/corpus/layout.py`` (content is never committed). Two of them live
in the steering repository's ``shared/data/real-sites/`` (``"source":
"shared"``), found beside this checkout or under ``$PW_ADAPTIVE_REAL_SITES``.
Label sets are ``benchmarks/labels/*.json`` plus ``labels/*.json`` of the shared
folder; each names its site, and each task has a query, its language, a start
path, the relevant pages, verbatim facts and neutral ``borderline`` pages.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
SITES_DIR = ROOT / "benchmarks" / "corpus" / "sites"
LABELS_DIR = ROOT / "benchmarks" / "labels"
REAL_SITES_ENV = "PW_ADAPTIVE_REAL_SITES"
"""Names the folder that holds the shared real sites (``qu-edu-iq/``, ...,
``labels/``) when the repository is not checked out next to ``shared/``."""
CORPUS_ENV = "PW_ADAPTIVE_CORPUS"
"""Names the folder that ``benchmarks/corpus/layout.py`` laid sites out in."""


def shared_dir() -> Path:
    folder = os.environ.get(REAL_SITES_ENV)
    return Path(folder) if folder else (ROOT.parent / "shared" / "data" / "real-sites")


def corpus_dir() -> Path:
    folder = os.environ.get(CORPUS_ENV)
    return Path(folder) if folder else ROOT / "benchmarks" / "corpus" / "build"


@dataclass(frozen=True)
class Site:
    """One site of the real corpus and where it is served from."""

    name: str
    root: Path
    languages: tuple[str, ...]
    manifest: dict[str, Any]

    @property
    def laid_out(self) -> bool:
        return self.root.is_dir()


def sites() -> dict[str, Site]:
    """Every site with a manifest, by name (laid out or not)."""
    out: dict[str, Site] = {}
    for path in sorted(SITES_DIR.glob("*.json")):
        manifest = json.loads(path.read_text(encoding="utf-8"))
        name = manifest["name"]
        base = shared_dir() if manifest.get("source") == "shared" else corpus_dir()
        out[name] = Site(
            name, (base / name).resolve(), tuple(manifest.get("languages", ())), manifest
        )
    return out


def label_sets() -> list[dict[str, Any]]:
    """Every label set (ours, then the shared folder's), each with ``root_path``."""
    known = sites()
    paths = sorted(LABELS_DIR.glob("*.json")) + sorted((shared_dir() / "labels").glob("*.json"))
    out = []
    for path in paths:
        labels = json.loads(path.read_text(encoding="utf-8"))
        site = known.get(labels["site"])
        if site is not None:
            labels["root_path"] = site.root
            labels["languages"] = site.languages
        else:  # a label set whose site has no manifest yet: its own root
            labels["root_path"] = (ROOT / labels.get("root", labels["site"])).resolve()
            labels["languages"] = ()
        labels["file"] = path.name
        out.append(labels)
    return out


def page_key(url: str) -> str:
    """The URL under which a corpus page is counted: a directory, its index
    file and its name without the slash (``/guide/``, ``/guide/index.html``,
    ``/guide``) are one page, keyed ``/guide``; the root stays ``/``.

    The static server answers all three with the same file (the last by a
    redirect to the first), and sites link one form or another (mah-webb
    links ``/courses/me132a``; a label read from the files may name
    ``/courses/me132a/index.html``), so labels, fetched pages, marks and the
    oracle's targets are compared by this key."""
    parts = urlsplit(url)
    path = parts.path
    if path.endswith("/index.html"):
        path = path[: -len("index.html")]
    if len(path) > 1 and path.endswith("/"):
        path = path[:-1]
    return url if path == parts.path else urlunsplit(parts._replace(path=path))


def html_sibling(local: Path) -> Path | None:
    """The ``.html`` file a static host answers a path with when the path
    names no file and no folder with an index: ``projects/cupcake.html``
    for ``projects/cupcake``, as GitHub Pages and most static hosts answer
    it; None when there is none or the path is answered as it is. The
    benchmarks' static server (``quality._StaticHandler``) and
    :func:`page_file` both follow it."""
    if local.is_file() or (local / "index.html").is_file():
        return None
    sibling = local.with_name(local.name + ".html")
    return sibling if sibling.is_file() else None


@functools.lru_cache(maxsize=64)
def _is_docsify(index: Path) -> bool:
    """Whether the page ``index`` is a docsify site's (read once per page: the
    labels ask it of every route)."""
    return index.is_file() and "$docsify" in index.read_text(encoding="utf-8", errors="replace")


def docsify_route_file(index: Path, route: str) -> Path | None:
    """The Markdown file docsify renders for the hash ``route`` ("/a/b",
    "/a/", "/a/b?id=heading") of the site whose page is ``index``, or None
    when ``index`` is no docsify page or the file is not there. Docsify (with
    its default ``basePath`` and ``ext``) fetches ``a/b.md`` for ``#/a/b`` and a
    folder's ``README.md`` for ``#/a/`` and ``#/``, relative to ``index``."""
    if not _is_docsify(index):
        return None
    route = route.split("?", 1)[0].lstrip("/")
    name = route + "README.md" if route.endswith("/") or not route else route + ".md"
    md = index.parent / name
    return md if md.is_file() else None


def page_file(root: Path, path: str) -> Path | None:
    """The file a static server answers ``path`` with, or None (decoded path);
    for a docsify route ("/#/a/b"), the Markdown file docsify renders."""
    path, _, fragment = unquote(path).partition("#")
    rel = path.split("?", 1)[0].lstrip("/")
    if fragment.startswith("/") and fragment.strip("/"):
        index = root / rel if rel.endswith(".html") else root / rel / "index.html"
        md = docsify_route_file(index, fragment)
        if md is not None:
            return md
    target = root / rel
    if target.is_file():
        return target
    if (target / "index.html").is_file():  # "/x" is redirected to "/x/", its index
        return target / "index.html"
    return html_sibling(target) if rel else None
