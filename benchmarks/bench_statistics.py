"""Bootstrap interval and paired tests on 10,000 examples x 4 types, 1,000 resamples each.

.venv/bin/python benchmarks/bench_statistics.py [--smoke]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rouge_lcs.scores.statistics import bootstrap_interval, compare


def best_of(fn, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--smoke", action="store_true", help="tiny inputs, one repeat: for the tests"
    )
    args = parser.parse_args()
    examples, resamples, repeats = (200, 100, 1) if args.smoke else (10_000, 1000, 3)
    rng = np.random.default_rng(0)
    a = rng.random((examples, 4))
    b = np.clip(a + rng.normal(0.01, 0.05, a.shape), 0, 1)
    ci = best_of(lambda: bootstrap_interval(a, 0.95, resamples, seed=0), repeats)
    cmp = best_of(lambda: compare(a, b, 0.95, resamples, seed=0), repeats)
    print(f"{examples:,} examples x 4 types, {resamples:,} resamples, best of {repeats}:")
    print(f"  bootstrap interval:                                   {ci:.3f} s")
    print(f"  compare (paired bootstrap + approximate randomization): {cmp:.3f} s")


if __name__ == "__main__":
    main()
