"""Learn, from the duplicates a crawl meets, which URL variants do not change a page.

Sites serve the same page under many URLs: a print view (``?print=1``), sort
orders (``?sort=asc``), session or view parameters the canonicalizer does not
know, a ``/print`` or ``/amp`` path suffix. Content dedup recognises each of
them, but only after rendering it: on a held-out JavaScript portal 47 of 159
fetches were print views of pages already fetched (issue 13).

``VariantLearner`` watches the duplicates: when a page's content duplicates an
earlier page and the two URLs differ only by one query parameter (added, or
with another value; in the URL's query or in a hash route's, as docsify's
"#/page?id=<heading>"), by one trailing path segment, or by their first path
segment only (``/de/admissions`` showing ``/en/admissions``'s text: a
language copy that falls back to English), or by a trailing slash (a static
server that redirects ``/about`` to ``/about/``), that parameter (or segment, or
segment swap) earns a point of evidence on the host. A first-segment swap also
teaches, at once, that the page under the rest of the path is shared: one
page that two sections show (Sapienza's student network shows its canteens
page under each degree programme's prefix, ``/acsai/info/services/canteens/``
and ``/compsci/...``) is shown by the others too, and they reduce to the URL
first rendered. A page whose content is new,
at a URL that differs from a fetched page by that same parameter, is a
counter-case: the parameter changes the content there (``?page=2``). A rule is
learnt once it has ``min_evidence`` agreeing cases and no counter-case; from
then on ``reduce`` strips it from URLs of that host, and the crawler skips
such a URL when the reduced one is known (``skipped["url_variant"]``), or
queues the reduced one instead.

Pure and deterministic (the crawler feeds it in processing order); its state
is saved in the crawl checkpoint.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import unquote, unquote_plus, urlsplit, urlunsplit

__all__ = [
    "DEFAULT_MIN_EVIDENCE",
    "SHARED_PAGE",
    "SLASH_ADDED",
    "SLASH_REMOVED",
    "VariantLearner",
    "reduced_forms",
    "route_anchor",
    "rule_host",
    "shared_page_rule",
    "slash_twin",
    "variant_rule",
    "without_return_to",
]

DEFAULT_MIN_EVIDENCE = 2
"""Agreeing duplicate pairs before a parameter or path segment is ignored."""

Rule = tuple[str, str]
"""(host, "q:<parameter>"), (host, "r:<parameter of a hash route's query>"),
(host, "p:<trailing path segment>"),
(host, "f:<first segment>><first segment it shows>"),
(host, "t:<the path after the first segment>><the first segment it was shown
under>") for a shared page, or (host, "s:+") / (host, "s:-") for a trailing
slash that the site adds (or removes) by a redirect."""

SHARED_PAGE = "t:"
"""Prefix of a shared page's rule (:func:`shared_page_rule`)."""

SLASH_ADDED = "s:+"
"""Rule: ``/about`` shows ``/about/`` (a path whose last segment has no dot)."""
SLASH_REMOVED = "s:-"
"""Rule: ``/about/`` shows ``/about``."""


def _pairs(query: str) -> list[tuple[str, str]]:
    out = []
    for part in query.split("&"):
        if part:
            key, _, value = part.partition("=")
            out.append((key, value))
    return out


def _one_differing_key(query_a: str, query_b: str) -> str | None:
    """The one parameter two query strings differ by (added, removed or with
    another value), or None (none, several, or a repeated key: too ambiguous
    to learn from)."""
    pairs_a, pairs_b = _pairs(query_a), _pairs(query_b)
    pa, pb = dict(pairs_a), dict(pairs_b)
    if len(pa) != len(pairs_a) or len(pb) != len(pairs_b):
        return None
    differing = {k for k in pa.keys() | pb.keys() if pa.get(k) != pb.get(k)}
    return differing.pop() if len(differing) == 1 else None


def _route(fragment: str) -> tuple[str, str] | None:
    """A route fragment's path and query ("/guide/fees?id=x" -> ("/guide/fees",
    "id=x")); None for a fragment that is no route (canonical URLs keep only
    routes)."""
    if fragment.startswith("!/"):
        fragment = fragment[1:]
    if not fragment.startswith("/"):
        return None
    path, _, query = fragment.partition("?")
    return path, query


def _route_or_root(fragment: str) -> tuple[str, str] | None:
    """:func:`_route`, with no fragment read as the root route (a canonical URL
    drops "#/": a hash router shows its root route without one)."""
    return _route(fragment) if fragment else ("/", "")


def variant_rule(url: str, original: str) -> Rule | None:
    """The rule under which ``url`` is a variant of ``original`` (both canonical):
    the one query parameter they differ by (in the URL's query, or in a hash
    route's: "#/fees?id=rates"), or the one trailing path segment ``url`` adds;
    None when they differ otherwise (or not at all)."""
    a, b = urlsplit(url), urlsplit(original)
    if (a.scheme, a.netloc) != (b.scheme, b.netloc):
        return None
    host = rule_host(url)
    if a.fragment != b.fragment:
        # A hash router's page under another route query: docsify links every
        # heading as "#/page?id=<heading>", the same page scrolled.
        route_a, route_b = _route_or_root(a.fragment), _route_or_root(b.fragment)
        if (a.path, a.query) != (b.path, b.query) or route_a is None or route_b is None:
            return None
        if route_a[0] != route_b[0]:
            return None
        key = _one_differing_key(route_a[1], route_b[1])
        return None if key is None else (host, "r:" + key)
    if a.path == b.path and a.query != b.query:
        key = _one_differing_key(a.query, b.query)
        return None if key is None else (host, "q:" + key)
    if a.query == b.query and a.path != b.path:
        # /about answered by /about/ (a server's redirect to the directory), or
        # the other way round.
        if a.path + "/" == b.path:
            return (host, SLASH_ADDED)
        if a.path == b.path + "/":
            return (host, SLASH_REMOVED)
        longer, shorter = a.path.rstrip("/"), b.path.rstrip("/")
        head, _, segment = longer.rpartition("/")
        if segment and head == shorter:
            return (host, "p:" + segment)
        first_a, rest_a = _first_segment(a.path)
        first_b, rest_b = _first_segment(b.path)
        if first_a and first_b and rest_a == rest_b and rest_a.strip("/"):
            return (host, f"f:{first_a}>{first_b}")
    return None


def route_anchor(url: str, page_url: str, headings: Iterable[str]) -> bool:
    """Whether ``url`` is ``page_url`` itself, scrolled to one of its
    ``headings``: the same hash route with one more route parameter whose
    value is a heading's slug (docsify links every heading as
    "#/guide/fees?id=tuition-fees", and lists them in its sidebar). Such a
    URL renders the page again, so the crawler does not queue it. Both URLs
    canonical; a page without a route (the site's root) counts as the root
    route. A slug matches a heading when both read the same once case,
    spaces and punctuation are dropped (a trailing number allowed: a
    repeated heading's slug is numbered)."""
    if "#" not in url or "?" not in url.partition("#")[2]:
        return False  # no route query: the common case, decided without parsing
    a, b = urlsplit(url), urlsplit(page_url)
    if (a.scheme, a.netloc, a.path, a.query) != (b.scheme, b.netloc, b.path, b.query):
        return False
    route_a, route_b = _route(a.fragment), _route_or_root(b.fragment)
    if route_a is None or route_b is None or route_a[0] != route_b[0]:
        return False
    key = _one_differing_key(route_a[1], route_b[1])
    if key is None:
        return False
    value = dict(_pairs(route_a[1])).get(key)
    if not value or key in dict(_pairs(route_b[1])):
        return False
    slug = _letters(unquote_plus(value))
    if not slug:
        return False
    for heading in headings:
        name = _letters(heading)
        if name and slug.startswith(name) and (slug == name or slug[len(name) :].isdigit()):
            return True
    return False


def _letters(text: str) -> str:
    """``text`` casefolded, with only its letters and digits."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def without_return_to(url: str, page_url: str) -> str:
    """``url`` without the query parameters whose value is the page it was
    found on (``page_url``, whole, or its path with or without its query):
    "return to" parameters of a log-in, print or language link
    (``/auth/login?path=/de/faq/``, ``wp-login.php?redirect_to=...``) make a
    new URL of the same target on every page, each rendered once more. Only
    on the page's own host, and not for the site's root path ("/" is too
    common a value); ``url`` unchanged when no parameter is such."""
    parts = urlsplit(url)
    if not parts.query:
        return url
    netloc, own = _page_names(page_url)
    if parts.netloc != netloc:
        return url
    pairs = [part for part in parts.query.split("&") if part]
    kept = [part for part in pairs if unquote_plus(part.partition("=")[2]) not in own]
    if len(kept) == len(pairs):
        return url
    return urlunsplit(parts._replace(query="&".join(kept)))


@functools.lru_cache(maxsize=64)
def _page_names(page_url: str) -> tuple[str, frozenset[str]]:
    """The host of ``page_url`` and the values that name that page, decoded:
    computed once per page, not once per link on it."""
    page = urlsplit(page_url)
    path_query = page.path + (f"?{page.query}" if page.query else "")
    names = {unquote(u) for u in (page_url, page_url.partition("#")[0], page.path, path_query)}
    names.discard("/")  # a bare "/" is too common a value to say "this page"
    return page.netloc, frozenset(names)


def slash_twin(url: str) -> str | None:
    """``url`` with its path's trailing slash added or removed; None for the
    site's root, which has no twin."""
    parts = urlsplit(url)
    path = parts.path
    if path in ("", "/"):
        return None
    other = path[:-1] if path.endswith("/") else path + "/"
    return urlunsplit((parts.scheme, parts.netloc, other, parts.query, parts.fragment))


def shared_page_rule(url: str, original: str) -> Rule | None:
    """The shared-page rule that ``url`` showing ``original``'s content teaches
    when the two differ by their first path segment only (``variant_rule``'s
    "f:" case): the rest of the path, shown under ``original``'s first
    segment. None otherwise."""
    rule = variant_rule(url, original)
    if rule is None or not rule[1].startswith("f:"):
        return None
    first, rest = _first_segment(urlsplit(original).path)
    return (rule[0], f"{SHARED_PAGE}{rest}>{first}")


def _first_segment(path: str) -> tuple[str, str]:
    """``/de/admissions/`` -> (``de``, ``/admissions/``); no first segment: ("", path)."""
    if not path.startswith("/"):
        return "", path
    first, slash, rest = path[1:].partition("/")
    return (first, slash + rest) if slash else ("", path)


def _apply(url: str, rules: Iterable[str]) -> list[str]:
    """``url`` with the query parameters and trailing path segments of ``rules``
    removed (a path segment only when it is the last one): the reduced URL,
    and for a path cut, the same without its trailing slash after it."""
    parts = urlsplit(url)
    params = {r[2:] for r in rules if r.startswith("q:")}
    route_params = {r[2:] for r in rules if r.startswith("r:")}
    segments = {r[2:] for r in rules if r.startswith("p:")}
    query = parts.query
    if params and query:
        query = _without(query, params)
    fragment = parts.fragment
    if route_params and "?" in fragment and _route(fragment) is not None:
        route_path, _, route_query = fragment.partition("?")
        route_query = _without(route_query, route_params)
        fragment = f"{route_path}?{route_query}" if route_query else route_path
        if fragment in ("/", "!/"):
            fragment = ""  # the root route: what the router shows without one
    paths = [parts.path]
    last_segment = parts.path.rpartition("/")[2]
    if SLASH_ADDED in rules and last_segment and "." not in last_segment:
        paths = [parts.path + "/"]
    elif SLASH_REMOVED in rules and parts.path.endswith("/") and parts.path != "/":
        paths = [parts.path[:-1]]
    swaps = dict(r[2:].split(">", 1) for r in rules if r.startswith("f:"))
    shared = dict(r[2:].rsplit(">", 1) for r in rules if r.startswith(SHARED_PAGE))
    first, rest = _first_segment(parts.path)
    if first in swaps:
        paths = [f"/{swaps[first]}{rest}"]
    elif first and shared.get(rest, first) != first:
        paths = [f"/{shared[rest]}{rest}"]
    if segments:
        head, _, last = paths[0].rstrip("/").rpartition("/")
        if last in segments:
            paths = [head + "/", head] if head else ["/"]
    return [urlunsplit((parts.scheme, parts.netloc, p, query, fragment)) for p in paths]


def rule_host(url: str) -> str:
    """The host a rule of ``url`` is learnt for: its lowercased host name, the
    port left out."""
    return (urlsplit(url).hostname or "").lower()


def reduced_forms(url: str, learnt: Mapping[str, Iterable[str]]) -> list[str]:
    """The forms of ``url`` (canonical) that the rules ``learnt`` for its host
    (:meth:`VariantLearner.learnt_rules`) reduce it to, ``url`` itself left
    out: the pages that show its content."""
    rules = tuple(learnt.get(rule_host(url), ()))
    return [form for form in _apply(url, rules) if form != url] if rules else []


def _without(query: str, keys: set[str]) -> str:
    """``query`` without the parameters named in ``keys``."""
    return "&".join(p for p in query.split("&") if p and p.partition("=")[0] not in keys)


class VariantLearner:
    """Parameters and path segments learnt, per host, not to change content."""

    def __init__(self, min_evidence: int = DEFAULT_MIN_EVIDENCE) -> None:
        if min_evidence < 1:
            raise ValueError(f"min_evidence must be >= 1, got {min_evidence}")
        self.min_evidence = min_evidence
        self._evidence: Counter[Rule] = Counter()
        self._counter: Counter[Rule] = Counter()
        self._by_host: dict[str, set[str]] = {}
        """Rules with evidence, by host: the ones ``observe_distinct`` checks."""

    def observe_duplicate(
        self, url: str, original: str, *, redirect: bool = False, exact: bool = True
    ) -> bool:
        """``url``'s content duplicated ``original``'s. True when this made a rule
        learnt (the caller may then drop queued variants: ``reduce``).

        ``redirect``: the site's server sent ``url`` to ``original``. A
        trailing slash added or removed by a redirect is the server's own
        policy for every path (a directory index), not a likeness of two
        texts: one such redirect is evidence enough. ``exact``: the two texts
        are the same, not only near each other; only then does a
        first-segment swap teach a shared page at once (two programmes'
        admission pages written from one template are near, not the same,
        and a third programme's may hold the answer)."""
        rule = variant_rule(url, original)
        if rule is None:
            return False
        before = self.learnt(rule)
        slash = rule[1] in (SLASH_ADDED, SLASH_REMOVED)
        self._evidence[rule] += self.min_evidence if redirect and slash else 1
        self._by_host.setdefault(rule[0], set()).add(rule[1])
        learnt = self.learnt(rule) and not before
        shared = shared_page_rule(url, original) if exact or redirect else None
        if shared is not None and not self._evidence[shared]:
            # One page shown under two sections is shared: evidence enough.
            self._evidence[shared] = self.min_evidence
            self._by_host[rule[0]].add(shared[1])
            learnt = learnt or self.learnt(shared)
        return learnt

    def observe_distinct(self, url: str, fetched: Callable[[str], bool]) -> None:
        """``url``'s content was new: for each rule of its host that would reduce
        it to a URL already ``fetched``, count a counter-case."""
        host = rule_host(url)
        for rule in self._by_host.get(host, ()):
            if any(r != url and fetched(r) for r in _apply(url, (rule,))):
                self._counter[(host, rule)] += 1

    def learnt(self, rule: Rule) -> bool:
        """Whether ``rule`` has enough evidence and no counter-case."""
        return self._evidence[rule] >= self.min_evidence and not self._counter[rule]

    def rules(self, host: str) -> list[str]:
        """The learnt rules of ``host`` ("q:print", "p:amp"), sorted."""
        return sorted(r for r in self._by_host.get(host, ()) if self.learnt((host, r)))

    def learnt_rules(self) -> dict[str, tuple[str, ...]]:
        """Every host's learnt rules (:meth:`rules`), hosts without any left out."""
        learnt = {host: tuple(self.rules(host)) for host in sorted(self._by_host)}
        return {host: rules for host, rules in learnt.items() if rules}

    def slash_twins(self, url: str) -> list[str]:
        """The trailing-slash forms of ``url`` that a learnt slash rule of its
        host reduces to ``url`` ("/about" for "/about/" once the site is known
        to add the slash): the queued URLs that fetching ``url`` makes known."""
        twin = slash_twin(url)
        if twin is None:
            return []
        rules = self.rules(rule_host(url))
        rule = SLASH_ADDED if urlsplit(url).path.endswith("/") else SLASH_REMOVED
        return [twin] if rule in rules else []

    def has_rules(self, url: str) -> bool:
        """Whether some rule is learnt for ``url``'s host."""
        return bool(self.rules(rule_host(url)))

    def reduce(self, url: str, known: Callable[[str], bool] | None = None) -> str | None:
        """``url`` (canonical) without the learnt parameters and path segments of
        its host, or None when none applies. A path cut has two forms (with and
        without a trailing slash): the first that ``known`` accepts, else the first."""
        host = rule_host(url)
        if host not in self._by_host:
            return None
        forms = reduced_forms(url, {host: self.rules(host)})
        if not forms:
            return None
        if known is not None:
            for form in forms:
                if known(form):
                    return form
        return forms[0]

    def state(self) -> dict[str, Any]:
        """JSON-able state for a checkpoint."""
        return {
            "evidence": [[h, r, n] for (h, r), n in sorted(self._evidence.items())],
            "counter": [[h, r, n] for (h, r), n in sorted(self._counter.items())],
        }

    def restore(self, state: dict[str, Any] | None) -> None:
        """Load what ``state`` saved (None: nothing)."""
        if not state:
            return
        for host, rule, n in state.get("evidence", ()):
            self._evidence[(str(host), str(rule))] = int(n)
            self._by_host.setdefault(str(host), set()).add(str(rule))
        for host, rule, n in state.get("counter", ()):
            self._counter[(str(host), str(rule))] = int(n)
