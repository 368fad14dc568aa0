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
        [sys.executable, "benchmarks/bench_metric_parallel.py", "--smoke"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    assert "library " in run.stdout and "module " in run.stdout
    assert run.stdout.count("identical: True") == 2, run.stdout


def test_module_compute_shares_the_functional_calls_vocabulary(monkeypatch):
    # hub.compute built a fresh Rouge (a cold vocabulary and stem memo) per compute: with
    # num_proc=2 the parent and its forked worker each redid the words they share
    from rouge_lcs.integrations import hub
    from rouge_lcs.scores import scorer as scorer_module

    used = []
    real = scorer_module.Rouge.score_of

    def spy(self, batch):
        used.append(self._stores)
        return real(self, batch)

    monkeypatch.setattr(scorer_module.Rouge, "score_of", spy)
    out = hub.compute(["the cats sat"], [["the cat sat"]], rouge_types=["rouge1"], use_stemmer=True)
    assert out == {"rouge1": 1.0}
    assert used == [scorer_module._FUNCTION_STORES]
