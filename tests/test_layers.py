"""The wings import one way: core and text know nothing of the browser or of a
crawl, render knows nothing of a crawl, and nothing below batch knows batch."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pw_adaptive

PACKAGE = Path(pw_adaptive.__file__).parent

# wing -> the wings it must never import (at module level or inside functions)
FORBIDDEN = {
    "core": ("render", "crawling", "batch", "report"),
    "text": ("core", "render", "crawling", "batch", "report"),
    "render": ("crawling", "batch", "report"),
    "crawling": ("batch", "report"),
}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("wing", sorted(FORBIDDEN))
def test_a_wing_does_not_import_the_wings_above_it(wing: str) -> None:
    files = sorted((PACKAGE / wing).rglob("*.py"))
    assert files
    wrong = [
        (str(path.relative_to(PACKAGE)), name)
        for path in files
        for name in sorted(_imports(path))
        if any(name.startswith(f"pw_adaptive.{above}") for above in FORBIDDEN[wing])
    ]
    assert wrong == []
