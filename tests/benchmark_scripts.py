"""Benchmark scripts loaded as modules, for the tests of their helpers.

``tests/`` is on ``sys.path`` in every test session (pytest puts a
``conftest.py``'s folder there), so test files anywhere under it import this.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load_script(filename: str, name: str) -> ModuleType:
    """``benchmarks/<filename>`` as the module ``name`` (registered in
    ``sys.modules``: dataclasses look their module up there)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / filename)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
