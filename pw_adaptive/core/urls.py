"""URL canonicalization.

Every link the crawler sees goes through :func:`canonicalize_url` before any
filter looks at it (the adbar/courlan lesson: canonicalize before filtering).
The canonical form has two layers:

* **Server part**, normalised per RFC 3986 section 6 ("syntax-based" and
  "scheme-based" normalisation): lowercase scheme and host, IDN host to
  punycode, userinfo dropped, default port (80 for http, 443 for https) dropped,
  empty path -> ``/``, percent-encoding normalised, dot segments removed,
  ``;jsessionid=`` path parameters removed, query parameters sorted with
  tracking and session parameters dropped. Path case, trailing slashes and
  duplicate slashes are kept: they can name different resources.
* **Route fragment**: a fragment is kept only when it is a client-side route
  (``#/...`` or ``#!/...``), because hash-routed single-page applications
  serve different pages under one server URL. The route gets its own cleaning
  (percent-encoding, duplicate slashes collapsed, dot segments removed, query
  sorted, tracking parameters dropped; case and trailing slash kept). Any other
  fragment (``#section``, ``#:~:text=...``, ``#``, ``#!``) only scrolls within
  a document and is dropped.

Percent-encoding policy (one form for every spelling of the same URL):
escapes of unreserved characters (``A-Z a-z 0-9 - . _ ~``) are decoded, other
escapes are kept with uppercase hex, and every character that may not appear
literally in its component (space, non-ASCII, ``"<>\\^`{|}`` ...) is encoded as
UTF-8 escapes. So ``/zh/住宿`` and ``/zh/%e4%bd%8f%e5%ae%bf`` both become
``/zh/%E4%BD%8F%E5%AE%BF``; the canonical URL is always pure ASCII.

Canonicalization is idempotent and fails only with :class:`ValueError`.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from typing import Final
from urllib.parse import quote, unquote, urljoin, urlsplit

__all__ = [
    "ATTACHMENT_EXTENSIONS",
    "canonicalize_url",
    "host_of_canonical",
    "is_home_page",
    "is_route_fragment",
    "is_subtree_root",
    "language_prefix",
    "path_extension",
    "url_host",
]

ATTACHMENT_EXTENSIONS: frozenset[str] = frozenset(
    {"pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp", "rtf", "csv"}
)
"""URL path extensions of documents: listed as attachments, never rendered as pages.
CSV is included because a browser downloads it rather than showing a page."""


def path_extension(url: str) -> str:
    """The lowercased extension of ``url``'s last path segment, or ""."""
    path = unquote(urlsplit(url).path).lower()
    dot = path.rfind(".")
    return path[dot + 1 :] if dot != -1 and "/" not in path[dot:] else ""


# Schemes the crawler fetches; everything else (javascript:, mailto:, tel:,
# data:, file:, ftp:, blob:) is not a page a browser can crawl by navigation.
_HTTP_SCHEMES = frozenset({"http", "https"})

# RFC 3986 section 6.2.3: a port equal to the scheme's default is omitted.
_DEFAULT_PORTS = {"http": 80, "https": 443}

# WHATWG URL standard, "basic URL parser": leading and trailing C0 control or
# space are stripped, ASCII tab and newline are removed from anywhere.
_C0_AND_SPACE = "".join(chr(i) for i in range(0x21))
_TAB_NEWLINE_RE = re.compile(r"[\t\n\r]")
# Any other control character left inside the URL is treated as bad input.
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")

# Userinfo ("user:password@", RFC 3986 section 3.2.1) to mask in error
# messages: credentials must never leave this module.
_USERINFO_RE = re.compile(r"[^\s/?#'\"]*@")

# RFC 3986 section 2.3: unreserved characters.
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# RFC 3986 section 2.2 sub-delims, plus ":" and "@" which make up "pchar"
# (section 3.3). These stay literal; their escapes are kept escaped because
# decoding a reserved character can change the meaning of the URL.
_PCHAR_SAFE = "!$&'()*+,;=:@"
_PATH_SAFE = _PCHAR_SAFE + "/"
_QUERY_SAFE = _PCHAR_SAFE + "/?"  # RFC 3986 section 3.4

# Fast paths: a component made only of characters that are already canonical
# (no "%" and nothing that needs encoding) is returned untouched.
_CLEAN_PATH_RE = re.compile(r"[A-Za-z0-9\-._~!$&'()*+,;=:@/]*")
_CLEAN_QUERY_RE = re.compile(r"[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*")
# RFC 3986 section 2.1: a percent-encoded octet.
_PCT_RE = re.compile(r"%[0-9A-Fa-f]{2}")
# A "%" that does not start a valid escape is data and is encoded as "%25"
# (what browsers send, WHATWG "percent-encode" of a stray "%").
_STRAY_PCT_RE = re.compile(r"%(?![0-9A-Fa-f]{2})")

# Servlet session path parameter (Java Servlet spec, URL rewriting:
# "/path;jsessionid=ABC"). Runs to the next "/" or ";" so other parameters
# survive.
_JSESSIONID_PARAM_RE = re.compile(r";jsessionid=[^/;]*", re.IGNORECASE)

# Hostname syntax (RFC 1123 section 2.1 labels, plus "_" which appears in real
# hostnames): 1-63 characters per label, no empty labels.
_HOST_RE = re.compile(r"[a-z0-9_-]{1,63}(?:\.[a-z0-9_-]{1,63})*")
_FAST_NETLOC_RE = re.compile(
    r"(?P<host>[a-z0-9_-]{1,63}(?:\.[a-z0-9_-]{1,63})*)(?::(?P<port>\d*))?"
)

# A 32-hex-digit value: PHP's default session id (MD5 hex) and the common
# "sid" format. Only then is "sid" a session id; otherwise it may be a
# "site id" or "section id".
_HEX32_RE = re.compile(r"[0-9a-fA-F]{32}")

# Query parameters dropped from every URL, compared case-insensitively.
# Sources: Google Analytics campaign parameters (utm_* prefix, handled apart)
# and linker (_ga, _gl); ad click ids of Google (gclid, dclid, gbraid,
# wbraid), Meta (fbclid), Microsoft (msclkid), Yandex (yclid); Mailchimp
# (mc_cid, mc_eid); HubSpot (_hsenc, _hsmi); Marketo (mkt_tok); Instagram
# (igshid). Session ids of Java servlets (jsessionid), PHP (phpsessid),
# generic "sessionid", classic ASP (aspsessionid* prefix, handled apart) and
# ColdFusion (cfid, cftoken).
_DROPPED_PARAMS = frozenset(
    {
        "_ga",
        "_gl",
        "_hsenc",
        "_hsmi",
        "cfid",
        "cftoken",
        "dclid",
        "fbclid",
        "gbraid",
        "gclid",
        "igshid",
        "jsessionid",
        "mc_cid",
        "mc_eid",
        "mkt_tok",
        "msclkid",
        "phpsessid",
        "sessionid",
        "wbraid",
        "yclid",
    }
)
_DROPPED_PREFIXES = ("utm_", "aspsessionid")

# Client routers treat "//" as "/" (react-router joinPaths, vue-router
# cleanPath), so duplicate slashes in a route fragment name the same route.
_DUPLICATE_SLASHES_RE = re.compile(r"/{2,}")


def _build_pct_map() -> dict[str, str]:
    """Map every spelling of "%XX" to its canonical form (RFC 3986 section 6.2.2)."""
    digits = "0123456789abcdefABCDEF"
    table: dict[str, str] = {}
    for high in digits:
        for low in digits:
            byte = int(high + low, 16)
            char = chr(byte)
            table[f"%{high}{low}"] = char if char in _UNRESERVED else f"%{byte:02X}"
    return table


_PCT_MAP = _build_pct_map()


def canonicalize_url(url: str, base: str | None = None) -> str:
    """Return the canonical form of ``url``, resolved against ``base`` if given.

    ``base`` follows :func:`urllib.parse.urljoin` semantics, so ``"#/fees"``
    relative to ``"https://u.edu/app#/home"`` is ``"https://u.edu/app#/fees"``
    and ``""`` is ``base`` itself. The result is an absolute ``http`` or
    ``https`` URL in the form ``scheme://host[:port]/path[?query][#/route]``
    (see the module docstring for every rule). ``canonicalize_url`` of its own
    result returns the result unchanged.

    Raises:
        ValueError: with a message naming the problem, for an empty or
            relative URL without a base, a scheme other than http(s), a
            missing or invalid host (bad IDN, bad IPv4 or IPv6 literal), an
            invalid port, or control characters. No other exception escapes.
    """
    if not isinstance(url, str):
        raise ValueError(f"URL must be a string, not {type(url).__name__}")
    text = _clean_input(url)
    if base is not None:
        if not isinstance(base, str):
            raise ValueError(f"base URL must be a string, not {type(base).__name__}")
        base_text = _clean_input(base)
        if base_text:
            try:
                text = urljoin(base_text, text)
            except ValueError as exc:
                raise ValueError(
                    f"cannot resolve {_shown(url)} against {_shown(base)}: {exc}"
                ) from None
    if not text:
        raise ValueError("empty URL")
    return _canonicalize_absolute(text, url)


def is_route_fragment(fragment: str) -> bool:
    """Tell whether a fragment names a client-side route (``#/...`` or ``#!/...``).

    The leading ``"#"`` is optional: ``"#/fees"``, ``"/fees"``, ``"#!/fees"``
    and ``"!/fees"`` are routes; ``"#section"``, ``"#:~:text=x"``, ``"#"``,
    ``"#!"`` and ``"#!section"`` are not. The root route ``"#/"`` is a route
    syntactically, but :func:`canonicalize_url` drops it because a hash router
    shows its root route for a URL without a fragment.
    """
    if fragment.startswith("#"):
        fragment = fragment[1:]
    return fragment.startswith("/") or fragment.startswith("!/")


def url_host(url: str) -> str:
    """Return the lowercase ``host[:port]`` of the canonical form of ``url``.

    The port appears only when it is not the scheme's default:
    ``url_host("HTTPS://WWW.Uni.EDU:443/x") == "www.uni.edu"`` and
    ``url_host("http://127.0.0.1:8000/") == "127.0.0.1:8000"``.

    Raises:
        ValueError: when ``url`` cannot be canonicalized.
    """
    return host_of_canonical(canonicalize_url(url))


# --------------------------------------------------------------------------
# Internals.


def _clean_input(text: str) -> str:
    """Strip and reject raw input the way a browser would before parsing."""
    text = text.strip(_C0_AND_SPACE)
    if "\t" in text or "\n" in text or "\r" in text:
        text = _TAB_NEWLINE_RE.sub("", text)
    if _CONTROL_RE.search(text) is not None:
        raise ValueError(f"control character in URL {_shown(text)}")
    return text


def _shown(url: str) -> str:
    """``repr(url)`` for error messages, with any userinfo (credentials) masked."""
    return repr(_USERINFO_RE.sub("***@", url))


def _canonicalize_absolute(text: str, original: str) -> str:
    try:
        parts = urlsplit(text)
    except ValueError as exc:
        reason = _USERINFO_RE.sub("***@", str(exc))
        raise ValueError(f"invalid URL {_shown(original)}: {reason}") from None
    scheme = parts.scheme
    if not scheme:
        raise ValueError(f"relative URL without a base: {_shown(original)}")
    if scheme not in _HTTP_SCHEMES:
        raise ValueError(
            f"unsupported scheme {scheme!r} in {_shown(original)}: only http and https"
        )
    if not parts.netloc:
        raise ValueError(f"missing host in {_shown(original)}")
    hostport = _normalize_authority(parts.netloc, scheme, original)
    path = _normalize_path(parts.path) if parts.path else "/"
    query = _normalize_query(parts.query) if parts.query else ""
    fragment = _normalize_fragment(parts.fragment) if parts.fragment else ""
    if query:
        return f"{scheme}://{hostport}{path}?{query}{fragment}"
    return f"{scheme}://{hostport}{path}{fragment}"


def _normalize_authority(netloc: str, scheme: str, original: str) -> str:
    """Return ``host[:port]``: userinfo dropped, host normalised, default port dropped."""
    if "\\" in netloc:
        # Browsers read a backslash as "/" in http(s) URLs (WHATWG URL
        # standard), so a backslash before "@" shows one host and fetches
        # another: refuse it rather than guess.
        raise ValueError(f"backslash in host of {_shown(original)}")
    hostport = netloc.rpartition("@")[2]
    fast = _FAST_NETLOC_RE.fullmatch(hostport)
    if fast is not None:
        host = fast.group("host")
        port = fast.group("port")
        if host[-1].isdigit() and host.rpartition(".")[2].isdigit():
            host = _normalize_ipv4(host, original)
    else:
        host, port = _split_host_port(hostport, original)
        host = _normalize_host(host, original)
    if port:
        if not (port.isascii() and port.isdigit()):
            raise ValueError(f"invalid port {port!r} in {_shown(original)}")
        number = int(port)
        if number > 65535:
            raise ValueError(f"port {number} out of range in {_shown(original)}")
        if number != _DEFAULT_PORTS[scheme]:
            return f"{host}:{number}"
    return host


def _split_host_port(hostport: str, original: str) -> tuple[str, str | None]:
    if hostport.startswith("["):
        end = hostport.find("]")
        if end < 0:
            raise ValueError(f"unterminated IPv6 literal in {_shown(original)}")
        rest = hostport[end + 1 :]
        if rest and not rest.startswith(":"):
            raise ValueError(f"unexpected text after IPv6 literal in {_shown(original)}")
        return hostport[: end + 1], rest[1:] if rest else None
    host, colon, port = hostport.rpartition(":")
    if not colon:
        return hostport, None
    return host, port


def _normalize_host(host: str, original: str) -> str:
    if not host:
        raise ValueError(f"missing host in {_shown(original)}")
    if host.startswith("["):
        try:
            address = ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            raise ValueError(f"invalid IPv6 literal {host!r} in {_shown(original)}") from None
        return f"[{address.compressed}]"
    if "%" in host:
        # WHATWG host parsing percent-decodes the host before IDNA processing.
        try:
            host = unquote(host, errors="strict")
        except UnicodeError:
            raise ValueError(f"invalid percent-encoded host in {_shown(original)}") from None
    if host.endswith("."):
        # The fully qualified spelling "uni.edu." names the same host.
        host = host[:-1]
    host = host.lower()
    if not host.isascii():
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError as exc:
            raise ValueError(
                f"invalid internationalized host in {_shown(original)}: {exc}"
            ) from None
        host = host.lower()
    if len(host) > 253 or _HOST_RE.fullmatch(host) is None:
        raise ValueError(f"invalid host {host!r} in {_shown(original)}")
    if host.rpartition(".")[2].isdigit():
        host = _normalize_ipv4(host, original)
    return host


def _normalize_ipv4(host: str, original: str) -> str:
    """A host whose last label is numeric must be an IPv4 address (WHATWG)."""
    try:
        return str(ipaddress.IPv4Address(host))
    except ValueError:
        raise ValueError(f"invalid IPv4 address {host!r} in {_shown(original)}") from None


def _normalize_component(text: str, safe: str, clean_re: re.Pattern[str]) -> str:
    """Apply the module's percent-encoding policy to one URL component."""
    if clean_re.fullmatch(text) is not None:
        return text
    if "%" in text:
        text = _STRAY_PCT_RE.sub("%25", text)
        text = _PCT_RE.sub(lambda m: _PCT_MAP[m.group()], text)
    try:
        return quote(text, safe=safe + "%")
    except UnicodeError:
        raise ValueError(f"URL component {text!r} is not valid Unicode") from None


def _remove_dot_segments(path: str) -> str:
    """RFC 3986 section 5.2.4 for an absolute path (starts with "/")."""
    output: list[str] = []
    segments = path.split("/")
    for segment in segments[1:]:
        if segment == "..":
            if output:
                output.pop()
        elif segment != ".":
            output.append(segment)
    if segments[-1] in (".", ".."):
        # "/a/b/.." is the folder "/a/", so the trailing slash stays.
        output.append("")
    return "/" + "/".join(output)


def _normalize_path(path: str) -> str:
    path = _normalize_component(path, _PATH_SAFE, _CLEAN_PATH_RE)
    if ";" in path:
        path = _JSESSIONID_PARAM_RE.sub("", path)
    if "/." in path:
        path = _remove_dot_segments(path)
    return path


def _is_dropped_param(key: str, value: str) -> bool:
    key = key.lower()
    if key in _DROPPED_PARAMS or key.startswith(_DROPPED_PREFIXES):
        return True
    return key == "sid" and _HEX32_RE.fullmatch(value) is not None


def _normalize_query(query: str) -> str:
    """Sort parameters by key (stable for repeated keys), drop tracking ones.

    Pieces are kept as written (``a`` and ``a=`` stay distinct); empty pieces
    (``&&``) disappear. ``+`` is kept as is: it means a space only in form
    encoding, so rewriting it could change the URL.
    """
    pairs: list[tuple[str, str]] = []
    for piece in query.split("&"):
        if not piece:
            continue
        piece = _normalize_component(piece, _QUERY_SAFE, _CLEAN_QUERY_RE)
        key, _, value = piece.partition("=")
        if not _is_dropped_param(key, value):
            pairs.append((key, piece))
    if len(pairs) > 1:
        pairs.sort(key=lambda pair: pair[0])
    return "&".join(piece for _, piece in pairs)


def _normalize_fragment(fragment: str) -> str:
    """Return ``"#" + route`` for a route fragment, ``""`` for anything else.

    Steps, in an order that keeps the result idempotent: cut at a second
    ``"#"`` (an in-page anchor inside the route), normalise percent-encoding,
    remove ``;jsessionid=`` parameters, cut at a text fragment directive
    ``":~:"`` (WICG Scroll-to-Text, allowed after any fragment), then clean
    the route path (duplicate slashes collapsed, dot segments removed) and
    its query (sorted, tracking parameters dropped).
    """
    if fragment.startswith("!/"):
        marker, route = "!", fragment[1:]
    elif fragment.startswith("/"):
        marker, route = "", fragment
    else:
        return ""
    route = route.partition("#")[0]
    route = _normalize_component(route, _QUERY_SAFE, _CLEAN_QUERY_RE)
    if ";" in route:
        route = _JSESSIONID_PARAM_RE.sub("", route)
    route = route.partition(":~:")[0]
    route_path, _, route_query = route.partition("?")
    if "//" in route_path:
        route_path = _DUPLICATE_SLASHES_RE.sub("/", route_path)
    if "/." in route_path:
        route_path = _remove_dot_segments(route_path)
    route_query = _normalize_query(route_query) if route_query else ""
    if route_query:
        return f"#{marker}{route_path}?{route_query}"
    if route_path == "/":
        # The root route is what a hash router shows without any fragment.
        return ""
    return f"#{marker}{route_path}"


def host_of_canonical(url: str) -> str:
    """`url_host` of a canonical URL, without canonicalizing it again.

    Canonical URLs always read `scheme://host[:port]/…` (lowercase host, no
    userinfo, default port dropped), so the host is the text between `://`
    and the next `/`: ten times cheaper than `url_host`, which parses.
    """
    start = url.find("://") + 3
    end = url.find("/", start)
    return url[start:end] if end >= 0 else url[start:]


# ISO 639-1 codes: the first subtag of a language tag in a URL path.
_ISO_639_1_CODES: Final = """aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co
    cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl
    gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg
    ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk
    ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps
    pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta
    te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za
    zh zu"""
_ISO_639_1: Final = frozenset(_ISO_639_1_CODES.split())
# A language tag as sites put it first in their paths: "en", "zh-cn",
# "zh_Hant", "pt-BR", "zh-yue".
_LANGUAGE_TAG: Final = re.compile(r"([a-z]{2})(?:[-_][a-z0-9]{2,8}){0,2}")


def language_prefix(url: str) -> str | None:
    """The language tag that starts ``url``'s path, lowercased ("/zh-CN/intro" ->
    "zh-cn"), or None. Only a first segment whose first subtag is an ISO 639-1
    code counts ("/en/", "/pt-br/"; not "/news/")."""
    path = urlsplit(url).path
    segment = path.lstrip("/").split("/", 1)[0].lower()
    match = _LANGUAGE_TAG.fullmatch(segment)
    if match is None or match.group(1) not in _ISO_639_1:
        return None
    return segment


# Names a server answers a folder with: "/en/index.html" is the page "/en/".
_INDEX_FILES: Final = frozenset({"index.html", "index.htm", "index.php", "default.aspx"})


def is_subtree_root(url: str, links: Iterable[str], *, min_links: int = 3) -> bool:
    """True when ``url`` is a folder (its path ends with "/", no route) whose
    links on its own site all lead into that folder, at least ``min_links``
    of them: the home page of a site published under a base path
    (``/guide/`` of a GitHub Pages project site links only ``/guide/...``).
    A section's index links the rest of its site too (its menu, the
    breadcrumb home); ``/`` is left to :func:`is_home_page`."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    if parts.fragment or not parts.path.endswith("/") or parts.path == "/":
        return False
    inside = 0
    for link in links:
        try:
            target = urlsplit(link)
        except ValueError:
            continue
        if target.netloc != parts.netloc or target.path == parts.path:
            continue
        if not target.path.startswith(parts.path):
            return False
        inside += 1
    return inside >= min_links


def is_home_page(url: str) -> bool:
    """True when ``url`` is a site's home page: its root ("/", "/index.html")
    or the root of one of its language versions ("/en/", "/zh-cn/"; see
    :func:`language_prefix`), with no route fragment ("/#/fees" is a page of
    a single-page app, "/#/" its home)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    fragment = parts.fragment
    if fragment.startswith(("/", "!/")) and fragment.strip("!/"):
        return False
    segments = [s for s in parts.path.split("/") if s and s.lower() not in _INDEX_FILES]
    if not segments:
        return True
    return len(segments) == 1 and language_prefix(url) is not None
