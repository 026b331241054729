"""The scripts in ``benchmarks/`` (not a package) loaded from their paths, for tests that share them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def benchmark_module(name: str) -> ModuleType:
    """``benchmarks/<name>.py`` as a module (loaded once; ``generate`` for sessions, ``serve`` for the app)."""
    key = f"toolhist_bench_{name}"
    if str(BENCHMARKS) not in sys.path:  # the scripts import their siblings (``generate``, ``this_tree``)
        sys.path.append(str(BENCHMARKS))
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, BENCHMARKS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    spec.loader.exec_module(module)
    return module
