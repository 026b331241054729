"""``toolhist scan s3://…`` against moto's S3 server on 127.0.0.1: the same table as the local folder.

Run by ``./dev test-s3`` in its own venv (``.[s3-test]``, from the same constraints.txt as every other
install: the ``sdk`` extra's botocore range admits the botocore s3fs's aiobotocore pins): moto's
server and s3fs are needed here only. Nothing
reaches the network: dummy credentials, and the endpoint is always given explicitly (a
``--storage-option`` or ``AWS_ENDPOINT_URL``) as the moto server on 127.0.0.1.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import boto3
import pandas as pd
import pytest
from moto.server import ThreadedMotoServer

from toolhist.fleet import read_table
from toolhist.scan import scan

ROOT = Path(__file__).parent.parent
BUCKET = "sessions"


def _fleet_gen() -> object:
    spec = importlib.util.spec_from_file_location("fleet_gen", ROOT / "benchmarks" / "fleet_gen.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    os.environ.update(
        {
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_DEFAULT_REGION": "us-east-1",
        }
    )
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()


@pytest.fixture(scope="module")
def fleet(endpoint: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """200 generated files (2 truncated) plus the real samples, locally and in s3://sessions/fleet/."""
    local = tmp_path_factory.mktemp("fleet")
    _fleet_gen().write_fleet(200, local)  # type: ignore[attr-defined]
    samples = local / "samples"
    samples.mkdir()
    for sample in sorted((ROOT / "sample_logs").iterdir()):
        shutil.copyfile(sample, samples / sample.name)
    s3 = boto3.client("s3", endpoint_url=endpoint)
    s3.create_bucket(Bucket=BUCKET)
    for path in sorted(local.rglob("*")):
        if path.is_file():
            s3.upload_file(str(path), BUCKET, f"fleet/{path.relative_to(local).as_posix()}")
    return local


def local_names(frame: pd.DataFrame, local: Path) -> pd.DataFrame:
    """``s3://sessions/fleet/x`` -> the local path of x, so the two scans compare row for row."""
    out = frame.copy()
    out["file"] = [str(local / f.removeprefix(f"s3://{BUCKET}/fleet/")) for f in out["file"]]
    return out


def test_api_s3_equals_local_folder(endpoint: str, fleet: Path) -> None:
    want = scan(fleet)
    got = scan(f"s3://{BUCKET}/fleet", storage_options={"endpoint_url": endpoint})
    assert got.frame["file"].str.startswith(f"s3://{BUCKET}/fleet/").all()
    pd.testing.assert_frame_equal(local_names(got.frame, fleet), want.frame)
    pd.testing.assert_frame_equal(local_names(got.violations, fleet), want.violations, check_dtype=False)
    # a truncated object is a row with the reader's reason, naming the object (not a temporary copy)
    assert [u.file for u in got.unreadable] == [
        f"s3://{BUCKET}/fleet/{Path(u.file).relative_to(fleet).as_posix()}" for u in want.unreadable
    ]
    for remote, here in zip(got.unreadable, want.unreadable, strict=True):
        assert remote.reason == here.reason.replace(here.file, remote.file)
    assert got.rules == want.rules


def test_cli_s3_on_a_local_cluster_writes_the_dataset(endpoint: str, fleet: Path, tmp_path: Path) -> None:
    exe = shutil.which("toolhist", path=str(Path(sys.executable).parent))
    assert exe is not None
    env = {**os.environ, "AWS_ENDPOINT_URL": endpoint}  # the endpoint from the environment this time
    proc = subprocess.run(
        [
            exe,
            "scan",
            f"s3://{BUCKET}/fleet/2026-11-0*/*.json",
            "--jobs",
            "2",
            "--dataset",
            str(tmp_path / "ds"),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    want = scan(sorted(str(p) for p in fleet.glob("2026-11-0*/*.json")), dataset=tmp_path / "local")
    sessions = read_table(tmp_path / "ds", "sessions")
    assert len(sessions) == len(want.sessions) > 0
    pd.testing.assert_frame_equal(
        local_names(sessions, fleet).drop(columns=["started", "date"]),
        read_table(tmp_path / "local", "sessions").drop(columns=["started", "date"]),
    )
    assert proc.stdout.endswith(f"\nwrote {tmp_path / 'ds'}\n")
    assert "scanning " in proc.stderr


def test_missing_bucket_is_a_usage_error(endpoint: str) -> None:
    exe = shutil.which("toolhist", path=str(Path(sys.executable).parent))
    assert exe is not None
    proc = subprocess.run(
        [exe, "scan", "s3://no-such-bucket/x", "--storage-option", f"endpoint_url={endpoint}"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("toolhist: error: s3://no-such-bucket/x: ")
    assert "Traceback" not in proc.stderr
