"""num_proc=1 vs num_proc=2 through the evaluate module, beside the same library call.

    .venv/bin/python benchmarks/bench_metric_parallel.py [--repeats 3] [--pairs 10000]

The same pairs as bench_parallel.py (REALSumm, then KorSTS and the Korean question pairs; all
distinct), the four default types, stemming on, a tokenizer written in Python (it holds the
GIL, so ``num_proc=2`` forks a worker process), scored twice in one run:

- ``library``: ``rouge_lcs.rouge(..., num_proc=N)``;
- ``module``: ``evaluate.load(<path to rouge_lcs_metric.py>).compute(..., num_proc=N)``.

Both rows run in this one process (evaluate, datasets and their imports loaded for both), so
their ratios are side by side. It prints the best wall time of each, the CPU time of this
process and of its waited-for children, the speed-up, and the load average at start and end
(these machines are shared: a speed-up under load says little, the CPU split says more).
"""

from __future__ import annotations

import argparse
import os
import threading
import time
from pathlib import Path

from bench_parallel import load, python_tokenizer

from rouge_lcs import rouge

SCRIPT = Path(__file__).resolve().parents[1] / "rouge_lcs_metric.py"


def _times() -> tuple[float, float]:
    t = os.times()
    return t.user + t.system, t.children_user + t.children_system


def _join_reapers() -> None:
    """Wait for the threads that reap finished workers (the call returns before they exit)."""
    for thread in threading.enumerate():
        if thread.name == "rouge-lcs-reap":
            thread.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=10000)
    args = parser.parse_args()
    import evaluate

    metric = evaluate.load(str(SCRIPT))
    preds, refs = load(args.pairs)
    print(f"{len(preds)} pairs, four default types, stemming on, a Python tokenizer, "
          f"best of {args.repeats}")  # fmt: skip
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    calls = {
        "library": lambda n: rouge(
            preds, refs, use_stemmer=True, tokenizer=python_tokenizer, num_proc=n
        ),
        "module": lambda n: metric.compute(
            predictions=preds, references=refs, use_stemmer=True, tokenizer=python_tokenizer,
            num_proc=n,
        ),
    }  # fmt: skip
    for label, call in calls.items():
        call(1)  # set-up: imports, caches
        best: dict[int, tuple[float, float, float]] = {}
        results = {}
        for _ in range(args.repeats):
            for num_proc in (1, 2):
                (own, children), start = _times(), time.perf_counter()
                results[num_proc] = call(num_proc)
                wall = time.perf_counter() - start
                _join_reapers()  # a worker's CPU is counted once it is reaped
                own2, children2 = _times()
                run = (wall, own2 - own, children2 - children)
                best[num_proc] = min(best.get(num_proc, run), run)
        (w1, c1, _), (w2, c2, k2) = best[1], best[2]
        print(
            f"{label:8s} num_proc=1: {w1:.3f} s (CPU {c1:.3f} s)   "
            f"num_proc=2: {w2:.3f} s (CPU {c2:.3f} s + worker {k2:.3f} s)   "
            f"speed-up {w1 / w2:.2f}x   identical: {results[1] == results[2]}"
        )
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
