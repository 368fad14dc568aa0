"""num_proc=1 vs num_proc=2 on ~18,700 distinct real pairs, side by side in one run.

    .venv/bin/python benchmarks/bench_parallel.py [--repeats 3]

The pairs are every pair of REALSumm (English, sentences on lines), KorSTS and the Korean
question pairs (short Korean sentences), all distinct texts.  Results must be identical; the
script checks that and reports the best time of each and the speed-up.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from corpora import load_pairs

from rouge_lcs import score


def load() -> tuple[list[str], list[list[str]]]:
    preds: list[str] = []
    refs: list[list[str]] = []
    for name in ("en_cnndm_realsumm", "ko_korsts", "ko_question_pair"):
        p, r = load_pairs(name)
        preds += p
        refs += r
    return preds, refs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    preds, refs = load()
    score(preds[:50], refs[:50], use_stemmer=True)  # imports, Punkt set-up
    best = {1: float("inf"), 2: float("inf")}
    results = {}
    for _ in range(args.repeats):
        for num_proc in (1, 2):
            start = time.perf_counter()
            results[num_proc] = score(preds, refs, use_stemmer=True, num_proc=num_proc)
            best[num_proc] = min(best[num_proc], time.perf_counter() - start)
    same = all(
        np.array_equal(getattr(results[1], m), getattr(results[2], m))
        for m in ("precision", "recall", "fmeasure")
    )
    print(f"{len(preds)} pairs, four default types, stemming on, best of {args.repeats}")
    print(
        f"num_proc=1: {best[1]:.3f} s   num_proc=2: {best[2]:.3f} s   "
        f"speed-up {best[1] / best[2]:.2f}x   identical: {same}"
    )


if __name__ == "__main__":
    main()
