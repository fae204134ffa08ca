"""Only ``pw_adaptive/render/`` may need Playwright: everything else imports without it."""

import json
import subprocess
import sys

# Runs in a fresh interpreter with Playwright blocked (a None entry in
# sys.modules makes every ``import playwright...`` raise ImportError).
_SCRIPT = """
import importlib, json, pkgutil, sys
sys.modules["playwright"] = None

def fail(name):
    raise ImportError(f"cannot walk {name}")

import pw_adaptive
names, errors = [], {}
for info in pkgutil.walk_packages(pw_adaptive.__path__, "pw_adaptive.", onerror=fail):
    if info.name == "pw_adaptive.render" or info.name.startswith("pw_adaptive.render."):
        continue
    names.append(info.name)
    try:
        importlib.import_module(info.name)
    except Exception as exc:
        errors[info.name] = repr(exc)
for name in pw_adaptive.__all__:
    try:
        getattr(pw_adaptive, name)
    except Exception as exc:
        errors["pw_adaptive." + name] = repr(exc)
try:
    importlib.import_module("pw_adaptive.render.page")
    renderer = "imported"
except ImportError:
    renderer = "ImportError"
print(json.dumps({"names": names, "errors": errors, "renderer": renderer}))
"""


def _run_without_playwright() -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_every_module_outside_render_imports_without_playwright() -> None:
    result = _run_without_playwright()
    names = result["names"]
    assert isinstance(names, list)
    # the walk found the package's modules, core, crawl and subpackages alike
    expected = [
        "pw_adaptive.core.query",
        "pw_adaptive.pages",
        "pw_adaptive.crawling.api",
        "pw_adaptive.crawling.loop",
    ]
    expected += ["pw_adaptive.testing", "pw_adaptive.text.segment", "pw_adaptive.report.html"]
    assert set(expected) <= set(names)
    assert result["errors"] == {}
    # the block works: the Playwright renderer itself cannot be imported
    assert result["renderer"] == "ImportError"
