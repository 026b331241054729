"""A generated fleet of 2,000 sessions (``benchmarks/fleet_gen.py``) and its single-process scan."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from toolhist.scan import ScanResult, scan

ROOT = Path(__file__).parent.parent.parent
FLEET_SIZE = 2000


def _fleet_gen() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fleet_gen", ROOT / "benchmarks" / "fleet_gen.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def write_fleet() -> Callable[[int, Path], list[Path]]:
    writer: Callable[[int, Path], list[Path]] = _fleet_gen().write_fleet
    return writer


@pytest.fixture(scope="session")
def fleet(tmp_path_factory: pytest.TempPathFactory, write_fleet: Callable[[int, Path], list[Path]]) -> Path:
    out = tmp_path_factory.mktemp("fleet")
    write_fleet(FLEET_SIZE, out)
    return out


@pytest.fixture(scope="session")
def single(fleet: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[ScanResult, Path]:
    """The fleet scanned in this process (``--jobs 1``), with its dataset."""
    dataset = tmp_path_factory.mktemp("single") / "ds"
    return scan(fleet, dataset=dataset), dataset
