"""The oracle of the quality benchmark: the fewest pages a crawler must fetch.

A crawler that knew the site's link graph in advance would fetch, from the
start page, exactly the pages on shortest link paths to the relevant pages.
The oracle of a task is the size of the union of those paths, the start page
counted (1 for a task without relevant pages: the start page must be fetched
to know). A crawler's *efficiency* is ``oracle / pages fetched``.

Two parts:

* :func:`oracle_pages`, a pure function over a link graph (unit-tested);
* :func:`explore`, which builds that graph by breadth-first search from the
  start over real renders (the benchmark's render cache, so pages the crawlers
  rendered cost nothing), layer by layer, until every relevant page has been
  reached or a render bound is hit.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from _corpus import page_key

from pw_adaptive.core.scope import Scope
from pw_adaptive.core.urls import canonicalize_url
from pw_adaptive.pages import RenderedPage

__all__ = ["Graph", "Oracle", "explore", "oracle_pages", "page_links"]


@dataclass(frozen=True)
class Oracle:
    """The oracle of one task."""

    pages: int
    """Pages on the union of shortest paths from the start to every reached
    relevant page, the start included; 1 when there is no relevant page."""
    distances: dict[str, int]
    """Link distance from the start of each reached relevant page."""
    unreached: tuple[str, ...]
    """Relevant pages the graph does not reach."""
    path: tuple[str, ...]
    """The pages of the union, in breadth-first order (the start first)."""


@dataclass
class Graph:
    """A link graph explored from a start page (see :func:`explore`)."""

    edges: dict[str, list[str]]
    """Out-links of every expanded page (requested URL -> canonical URLs in scope)."""
    aliases: dict[str, str]
    """Expanded pages whose final URL differs from the requested one (redirects)."""
    complete: bool
    """False when the render bound stopped the search before every relevant
    page was reached."""
    live_renders: int
    """Pages the search had to render itself (no crawler had rendered them)."""


def oracle_pages(
    edges: Mapping[str, Sequence[str]],
    start: str,
    targets: Iterable[str],
    aliases: Mapping[str, str] | None = None,
) -> Oracle:
    """The union of shortest link paths from ``start`` to every target.

    ``edges`` maps a page to the pages it links to; pages without an entry have
    no known out-links. A target is reached at a page that *is* the target or
    whose final URL (``aliases``: a redirect) is the target, compared by
    ``_corpus.page_key`` (``/guide``, ``/guide/`` and ``/guide/index.html``
    are one page); its distance is
    the least breadth-first depth of such a page.

    Among several shortest paths to a target, each step back towards the
    start prefers a predecessor already in the union, then the one on
    shortest paths to the most targets (so two targets under the same hub
    share it), then the one discovered first. Targets are joined
    nearest first. The result is the union of one shortest path per target:
    exact for a single target, and for several a good, not necessarily
    minimal, shared tree (minimal would be a Steiner tree).
    """
    aliases = aliases or {}
    wanted = list(dict.fromkeys(targets))
    by_key = {page_key(t): t for t in wanted}
    dist: dict[str, int] = {start: 0}
    order: dict[str, int] = {start: 0}
    queue: deque[str] = deque([start])
    while queue:
        node = queue.popleft()
        for child in edges.get(node, ()):
            if child not in dist:
                dist[child] = dist[node] + 1
                order[child] = len(order)
                queue.append(child)
    # The page at which each target is first reached (least depth, then order).
    hit_at: dict[str, str] = {}
    for node in sorted(dist, key=lambda n: (dist[n], order[n])):
        for url in (node, aliases.get(node)):
            target = by_key.get(page_key(url)) if url is not None else None
            if target is not None and target not in hit_at:
                hit_at[target] = node
    preds: dict[str, list[str]] = {}
    for node in sorted(edges, key=lambda n: order.get(n, len(order))):
        if node not in dist:
            continue
        for child in edges[node]:
            if dist.get(child) == dist[node] + 1 and node not in preds.setdefault(child, []):
                preds[child].append(node)
    # How many targets each page leads to along shortest paths: a hub on the
    # way to several targets is the better step back.
    covers: dict[str, set[str]] = {}
    for target, node in hit_at.items():
        covers.setdefault(node, set()).add(target)
    for node in sorted(covers.keys() | preds.keys(), key=lambda n: -dist[n]):
        for parent in preds.get(node, ()):
            covers.setdefault(parent, set()).update(covers.get(node, ()))
    union: set[str] = {start}
    for target in sorted(hit_at, key=lambda t: (dist[hit_at[t]], order[hit_at[t]])):
        node = hit_at[target]
        while node not in union:
            union.add(node)
            node = min(
                preds[node],
                key=lambda p: (p not in union, -len(covers.get(p, ())), order[p]),
            )
    return Oracle(
        pages=len(union),
        distances={t: dist[n] for t, n in hit_at.items()},
        unreached=tuple(t for t in wanted if t not in hit_at),
        path=tuple(sorted(union, key=lambda n: order[n])),
    )


def page_links(page: RenderedPage, scope: Scope) -> tuple[list[str], str | None]:
    """The canonical in-scope out-links of a rendered page and its final URL.

    A page that failed (error, HTTP status >= 400) has no out-links, as for
    the crawler, which follows no link from it. Links found by clicking and
    hidden ones count: a crawler can follow them.
    """
    try:
        final = canonicalize_url(page.final_url) if page.final_url else None
    except ValueError:
        final = None
    if page.error is not None or (page.status is not None and page.status >= 400):
        return [], final
    out: list[str] = []
    seen: set[str] = set()
    for link in page.links:
        try:
            url = canonicalize_url(link.url)
        except ValueError:
            continue
        if url not in seen and scope.allows(url):
            seen.add(url)
            out.append(url)
    return out, final


async def explore(
    start: str,
    targets: Iterable[str],
    render: Callable[[str], Awaitable[RenderedPage]],
    is_cached: Callable[[str], bool],
    scope: Scope,
    *,
    max_live: int = 400,
    batch: int = 4,
) -> Graph:
    """Breadth-first search over renders from ``start`` until every target is reached.

    Layer by layer: every page of layer ``k`` is rendered and its links form
    layer ``k + 1``, so a target first seen while expanding layer ``k`` is at
    distance ``k + 1`` whatever the order inside the layer. That order is
    free, so pages already in the cache are expanded first, and the search
    stops as soon as every target is reached: most of the last layer is then
    never rendered. A target is reached when a discovered page is the target,
    or an expanded page redirects to it (a redirecting link is only known as
    such once rendered). At most ``max_live`` pages not in the cache are
    rendered, ``batch`` at a time; hitting that bound leaves ``complete``
    False.
    """
    wanted = {page_key(t) for t in targets}
    edges: dict[str, list[str]] = {}
    aliases: dict[str, str] = {}
    seen: set[str] = {start}
    reached: set[str] = wanted & {page_key(start)}
    layer = [start]
    live = 0
    complete = True
    while layer and not wanted <= reached:
        ordered = sorted(layer, key=lambda u: not is_cached(u))
        nxt: list[str] = []
        i = 0
        while i < len(ordered) and not wanted <= reached:
            chunk: list[str] = []
            while i < len(ordered) and len(chunk) < batch:
                url = ordered[i]
                i += 1
                if not is_cached(url):
                    if live >= max_live:
                        complete = False
                        continue
                    live += 1
                chunk.append(url)
            pages = await asyncio.gather(*(render(url) for url in chunk))
            for url, page in zip(chunk, pages, strict=True):
                out, final = page_links(page, scope)
                edges[url] = out
                if final is not None and final != url:
                    aliases[url] = final
                    reached.update({page_key(final)} & wanted)
                for child in out:
                    if child not in seen:
                        seen.add(child)
                        nxt.append(child)
                        reached.update({page_key(child)} & wanted)
        layer = nxt
    if not wanted <= reached:
        complete = False
    return Graph(edges=edges, aliases=aliases, complete=complete, live_renders=live)
