"""The batch modules import one way: local -> ray_executor -> output."""

from __future__ import annotations

import ast
from pathlib import Path

import pw_adaptive

PACKAGE = Path(pw_adaptive.__file__).parent / "batch"


def _imported_modules(module: str) -> set[str]:
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):  # lazy imports inside functions count too
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_ray_executor_does_not_import_batch() -> None:
    assert "pw_adaptive.batch.local" not in _imported_modules("ray_executor")
    assert "pw_adaptive.batch.local" not in _imported_modules("output")


def test_describe_error_is_one_line() -> None:
    from pw_adaptive.batch.output import describe_error

    assert describe_error(ValueError("bad\nmore")) == "ValueError: bad"
    assert describe_error(RuntimeError()) == "RuntimeError"
