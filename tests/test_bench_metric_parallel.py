"""Smoke test of benchmarks/bench_metric_parallel.py on tiny input (its numbers are not checked:
speed lives in benchmarks/, never in timed tests)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_bench_metric_parallel_runs_on_tiny_input():
    pytest.importorskip("evaluate")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    run = subprocess.run(
        [sys.executable, "benchmarks/bench_metric_parallel.py", "--pairs", "40", "--repeats", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    assert "library " in run.stdout and "module " in run.stdout
    assert run.stdout.count("identical: True") == 2, run.stdout
