"""Finding and launching Chromium.

Order of discovery (``find_chromium``):

1. the path in the environment variable ``PW_ADAPTIVE_CHROMIUM`` (an error when
   that file does not exist: a user who names a browser wants that one);
2. Playwright's own Chromium, when ``python -m playwright install chromium`` ran;
3. for a headless launch, a system Chromium headless shell (Debian's
   ``chromium-headless-shell`` package);
4. a system Chromium or Chrome at a well-known path.

The headless shell is Chromium's old headless mode built as a program of its
own, without the full browser's user interface layers; Playwright launches
its own copy of it for every headless launch that names no executable
(``launch_browser`` does the same when Playwright's copy is installed). It
renders the same pages with less work than the full browser's new headless
mode: in a same-run comparison on two real sites, 21-32% more pages per
second (``docs/benchmarks.md``, Speed, the fifteenth session).

Extra command-line arguments come from ``PW_ADAPTIVE_BROWSER_ARGS`` (split like a
shell would) followed by ``RenderSettings.browser_args``.

Playwright is imported only where it is called: finding a browser, the
environment names and the errors work without it (``pw_adaptive.cli``,
``pw_adaptive.batch.ray_executor``).
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import weakref
from collections.abc import Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

from pw_adaptive.render.records import RenderSettings

if TYPE_CHECKING:
    from playwright.async_api import Browser, Playwright

__all__ = [
    "BLOCKING_ARGS",
    "BROWSER_ARGS_ENV",
    "CHROMIUM_ENV",
    "QUIET_ARGS",
    "SYSTEM_CHROMIUM_PATHS",
    "SYSTEM_HEADLESS_SHELL_PATHS",
    "BrowserClosedError",
    "BrowserNotFoundError",
    "blocks_resources",
    "browser_args",
    "find_chromium",
    "launch_args",
    "launch_browser",
    "playwright_chromium_installed",
    "playwright_headless_shell_installed",
    "playwright_shell_first",
]

CHROMIUM_ENV = "PW_ADAPTIVE_CHROMIUM"
"""Environment variable naming the Chromium executable to use."""

BROWSER_ARGS_ENV = "PW_ADAPTIVE_BROWSER_ARGS"
"""Environment variable holding extra Chromium arguments, shell-quoted."""

SYSTEM_CHROMIUM_PATHS: tuple[str, ...] = (
    "/usr/lib/chromium/chromium",  # Debian: the real binary behind the /usr/bin wrapper
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/lib/chromium-browser/chromium-browser",
    "/snap/bin/chromium",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
    "/opt/google/chrome/chrome",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
)
"""System browsers tried, in order, when Playwright's own is not installed."""

SYSTEM_HEADLESS_SHELL_PATHS: tuple[str, ...] = (
    "/usr/lib/chromium/chromium-headless-shell",  # Debian's chromium-headless-shell
    "/usr/bin/chromium-headless-shell",
)
"""System headless shells, tried before ``SYSTEM_CHROMIUM_PATHS`` for a headless launch."""

QUIET_ARGS: tuple[str, ...] = (
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)
"""Always passed: no GPU, and no background traffic (updates, sync, field trials) that
stalls or pollutes a crawl on a machine without internet."""

BLOCKING_ARGS: tuple[str, ...] = (
    "--blink-settings=imagesEnabled=false",
    "--disable-remote-fonts",
    "--autoplay-policy=user-gesture-required",
)
"""Passed with ``RenderSettings.block_resources``: Chromium itself loads no image
and no web font, and plays no media on its own. Blocking them by routing every
request through Playwright instead cost 15-25% of the pages per second on real
sites (each request paused and answered from Python)."""

_NATIVE_BLOCKING: weakref.WeakSet[Browser] = weakref.WeakSet()


def blocks_resources(browser: Browser | None) -> bool:
    """Whether ``browser`` was launched here with ``BLOCKING_ARGS`` (a browser
    someone else launched gets its images and fonts aborted by a route)."""
    return browser is not None and browser in _NATIVE_BLOCKING


_FIX = (
    "run `python -m playwright install chromium`, or `apt-get install chromium`, "
    f"or set {CHROMIUM_ENV} to a Chromium executable"
)


class BrowserNotFoundError(RuntimeError):
    """No usable Chromium: the message names what was tried and how to fix it."""


class BrowserClosedError(RuntimeError):
    """The browser a crawl was given went away (closed, crashed, killed) mid-crawl."""


def _is_executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_chromium(
    playwright: Playwright | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    headless: bool = True,
) -> str | None:
    """Return the Chromium executable to launch, or None when there is none.

    Playwright's own Chromium is considered only when ``playwright`` is given (its
    path comes from the running driver); it is then preferred to a system browser.
    For a ``headless`` launch a system headless shell comes before a system
    Chromium; a headed launch needs the full browser.

    Raises ``BrowserNotFoundError`` when ``PW_ADAPTIVE_CHROMIUM`` names a file that
    does not exist or cannot be executed.
    """
    env = os.environ if environ is None else environ
    chosen = env.get(CHROMIUM_ENV, "").strip()
    if chosen:
        if not _is_executable(chosen):
            raise BrowserNotFoundError(
                f"{CHROMIUM_ENV}={chosen!r} is not an executable file; {_FIX}"
            )
        return chosen
    if playwright is not None:
        bundled = _bundled_path(playwright)
        if bundled:
            return bundled
    paths = (
        (*SYSTEM_HEADLESS_SHELL_PATHS, *SYSTEM_CHROMIUM_PATHS)
        if headless
        else SYSTEM_CHROMIUM_PATHS
    )
    for path in paths:
        if _is_executable(path):
            return path
    return None


def _bundled_path(playwright: Playwright) -> str | None:
    try:
        path = playwright.chromium.executable_path
    except Exception:  # the driver may not know a path for this platform
        return None
    return path if path and _is_executable(path) else None


def playwright_chromium_installed(*, environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``python -m playwright install chromium`` has installed the Chromium
    this Playwright version expects, checked on disk without starting the driver.

    Reads the expected revision from the driver's ``browsers.json`` and looks for
    the ``INSTALLATION_COMPLETE`` marker Playwright writes in
    ``<registry>/chromium-<revision>``; the registry is ``PLAYWRIGHT_BROWSERS_PATH``
    or the platform's cache directory (``~/.cache/ms-playwright`` on Linux).
    """
    return _playwright_installed("chromium", environ)


def playwright_headless_shell_installed(*, environ: Mapping[str, str] | None = None) -> bool:
    """Whether Playwright's own headless shell (``chromium-headless-shell``, which
    ``python -m playwright install chromium`` installs beside its Chromium and
    launches for a headless launch that names no executable) is installed:
    the marker in ``<registry>/chromium_headless_shell-<revision>``."""
    return _playwright_installed("chromium-headless-shell", environ)


def _playwright_installed(name: str, environ: Mapping[str, str] | None) -> bool:
    env = os.environ if environ is None else environ
    try:
        import playwright

        package = Path(playwright.__file__).parent / "driver" / "package"
        data = json.loads((package / "browsers.json").read_text("utf-8"))
        revision = next(b["revision"] for b in data["browsers"] if b["name"] == name)
    except Exception:  # an unexpected driver layout: assume not installed
        return False
    custom = env.get("PLAYWRIGHT_BROWSERS_PATH", "")
    if custom == "0":
        registry = package / ".local-browsers"
    elif custom:
        registry = Path(custom)
    elif sys.platform == "darwin":
        registry = Path.home() / "Library" / "Caches" / "ms-playwright"
    elif sys.platform == "win32":
        registry = Path(env.get("LOCALAPPDATA", str(Path.home()))) / "ms-playwright"
    else:
        registry = Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ms-playwright"
    folder = f"{name.replace('-', '_')}-{revision}"
    return (registry / folder / "INSTALLATION_COMPLETE").is_file()


def browser_args(
    settings: RenderSettings | None = None, *, environ: Mapping[str, str] | None = None
) -> list[str]:
    """The Chromium arguments for a launch: quiet defaults, then the environment's, then
    the settings'. A malformed ``PW_ADAPTIVE_BROWSER_ARGS`` raises ValueError."""
    env = os.environ if environ is None else environ
    args = list(QUIET_ARGS)
    raw = env.get(BROWSER_ARGS_ENV, "")
    if raw.strip():
        try:
            args.extend(shlex.split(raw))
        except ValueError as exc:
            raise ValueError(f"cannot parse {BROWSER_ARGS_ENV}={raw!r}: {exc}") from exc
    if settings is not None:
        args.extend(settings.browser_args)
    return args


def launch_args(settings: RenderSettings, extra_args: Sequence[str] = ()) -> list[str]:
    """Everything ``launch_browser`` passes to Chromium: ``browser_args``, then
    ``extra_args``, then ``BLOCKING_ARGS`` when the settings block resources."""
    args = [*browser_args(settings), *extra_args]
    if settings.block_resources:
        args.extend(BLOCKING_ARGS)
    return args


def playwright_shell_first(
    settings: RenderSettings | None = None, *, environ: Mapping[str, str] | None = None
) -> bool:
    """Whether a launch with ``settings`` tries Playwright's own headless shell
    first: a headless launch that names no executable (neither
    ``settings.executable_path`` nor ``PW_ADAPTIVE_CHROMIUM``) when that shell
    is installed. Playwright launches it for such a launch."""
    settings = settings or RenderSettings()
    env = os.environ if environ is None else environ
    return (
        settings.headless
        and not settings.executable_path
        and not env.get(CHROMIUM_ENV, "").strip()
        and playwright_headless_shell_installed(environ=env)
    )


async def launch_browser(
    playwright: Playwright,
    settings: RenderSettings | None = None,
    *,
    extra_args: Sequence[str] = (),
) -> Browser:
    """Launch headless Chromium with the discovered executable and the arguments of
    ``browser_args`` plus ``extra_args``.

    ``settings.executable_path`` wins over discovery. Without it or
    ``PW_ADAPTIVE_CHROMIUM``, a headless launch takes Playwright's own headless
    shell when it is installed (``playwright_shell_first``: named to Playwright
    by no executable at all), then ``find_chromium``'s. Raises
    ``BrowserNotFoundError`` when no browser is found or the one found does not
    start.
    """
    settings = settings or RenderSettings()
    args = launch_args(settings, extra_args)
    browser: Browser | None = None
    if playwright_shell_first(settings):
        with suppress(Exception):  # a broken download: the discovered executable instead
            browser = await playwright.chromium.launch(headless=True, args=args)
    if browser is None:
        browser = await _launch_discovered(playwright, settings, args)
    if settings.block_resources:
        _NATIVE_BLOCKING.add(browser)
    return browser


async def _launch_discovered(
    playwright: Playwright, settings: RenderSettings, args: list[str]
) -> Browser:
    path = settings.executable_path or find_chromium(playwright, headless=settings.headless)
    if path is None:
        tried = ", ".join(
            (
                "Playwright's bundled Chromium",
                *SYSTEM_HEADLESS_SHELL_PATHS[:1],
                *SYSTEM_CHROMIUM_PATHS[:4],
            )
        )
        raise BrowserNotFoundError(f"no Chromium found (tried {tried}, ...); {_FIX}")
    try:
        return await playwright.chromium.launch(
            executable_path=path,
            headless=settings.headless,
            args=args,
        )
    except Exception as exc:
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else repr(exc)
        raise BrowserNotFoundError(
            f"Chromium at {path!r} did not start ({first_line}); {_FIX}"
        ) from exc
