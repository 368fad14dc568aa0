"""Every benchmark keeps running: each ``benchmarks/*.py`` is imported against this source tree
(a name the package no longer has fails here, not in the next timing), and the ones with an
argument parser run it (``--help``), without the minutes of a real measurement."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BENCHMARKS = sorted(p.name for p in (REPO / "benchmarks").glob("bench_*.py"))


def _has_help(name: str) -> bool:
    """Whether the benchmark parses its arguments with argparse (others take sizes or suite
    names, or none, and are imported only)."""
    source = (REPO / "benchmarks" / name).read_text("utf-8")
    return "argparse.ArgumentParser" in source and "parse_args(" in source


def test_every_benchmark_is_listed():
    assert len(BENCHMARKS) >= 15, BENCHMARKS


@pytest.mark.parametrize("name", BENCHMARKS)
def test_benchmark_starts(name):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "benchmarks")])}
    if not _has_help(name):
        command = ["-c", f"import {name[:-3]}; print('usage: imported')"]
    else:
        command = [str(REPO / "benchmarks" / name), "--help"]
    run = subprocess.run(
        [sys.executable, *command],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "usage" in run.stdout.lower(), run.stdout[-500:]


def test_bench_arrow_smoke():
    """bench_arrow.py end to end on tiny input: it writes Parquet, scores both paths and
    checks that their numbers are identical (it asserts so)."""
    pytest.importorskip("pyarrow", reason="pyarrow is not installed (the test extra has it)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "benchmarks")])}
    run = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "bench_arrow.py"), "--smoke"],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.count("identical numbers") == 2, run.stdout


def test_templated_dedup_benchmark_runs_on_a_tiny_input():
    # The three contestants on 200 templated texts: the same kept set (the run asserts it).
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "benchmarks")])}
    run = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "bench_templated.py"), "--count", "200",
         "--repeats", "1"],
        env=env, cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.count("same kept set") == 3, run.stdout


def test_bench_audit_smoke():
    """benchmarks/bench_audit.py on 20 pairs: the distinct pairs it builds and one audit."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    run = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "bench_audit.py"), "--smoke"],
        env=env, cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    assert "20 pairs (20 distinct)" in run.stdout, run.stdout


@pytest.mark.slow
@pytest.mark.parametrize("engine,module", [("spark", "pyspark"), ("ray", "ray")])
def test_cluster_benchmark_runs_on_tiny_input(engine, module):
    import importlib.util
    import shutil

    missing = importlib.util.find_spec(module) is None or (
        engine == "spark" and shutil.which("java") is None
    )
    if missing:
        message = f"{module} (or Spark's Java runtime) is not installed: the test extra and .ci/run"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "benchmarks")])}
    run = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "bench_cluster.py"),
            "--rows",
            "300",
            "--partitions",
            "2",
            "--engine",
            engine,
        ],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert f"{engine}: 300 rows" in run.stdout and "ratio" in run.stdout, run.stdout


def test_bench_stream_smoke():
    """bench_stream.py end to end on tiny input: it writes two Parquet files, streams each
    through ``rouge-lcs score --data -o`` in a fresh interpreter and reads both peaks."""
    pytest.importorskip("pyarrow", reason="pyarrow is not installed (the test extra has it)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "benchmarks")])}
    run = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "bench_stream.py"), "--smoke"],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.count("peak RSS") == 3, run.stdout
