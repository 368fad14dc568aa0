"""num_proc=1 vs num_proc=2 on 10,000 distinct real pairs, side by side in one run.

    .venv/bin/python benchmarks/bench_parallel.py [--repeats 3] [--pairs 10000]

The pairs are the first ``--pairs`` of REALSumm (English, sentences on lines), KorSTS and the
Korean question pairs (short Korean sentences), all distinct texts, scored with the four
default types and stemming on (what the evaluate module's ``compute(..., num_proc=N)`` passes
to the library), with two tokenizers:

- ``default``: the built-in ``unicode`` tokenizer (on the native engine ``num_proc=N`` runs N
  threads in this process);
- ``callable``: a Python function (holds the GIL: ``num_proc=N`` forks N worker processes).

For each it prints the best wall time of each ``num_proc`` and the CPU time of that run (this
process and its waited-for children), the speed-up, and the load average.  Results must be
identical; the script checks that.
"""

from __future__ import annotations

import argparse
import os
import re
import time

import numpy as np
from corpora import load_pairs

from rouge_lcs import score

_WORD = re.compile(r"\w+")


def python_tokenizer(text: str) -> list[str]:
    """A tokenizer written in Python (lowercased words), as users pass one."""
    return _WORD.findall(text.lower())


def load(limit: int) -> tuple[list[str], list[list[str]]]:
    preds: list[str] = []
    refs: list[list[str]] = []
    for name in ("en_cnndm_realsumm", "ko_korsts", "ko_question_pair"):
        p, r = load_pairs(name)
        preds += p
        refs += r
    return preds[:limit], refs[:limit]


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=10000)
    parser.add_argument(
        "--smoke", action="store_true", help="tiny inputs, one repeat: for the tests"
    )
    args = parser.parse_args()
    if args.smoke:
        args.pairs, args.repeats = 60, 1
    preds, refs = load(args.pairs)
    print(f"{len(preds)} pairs, four default types, stemming on, best of {args.repeats}")
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    for label, tokenizer in (("default", None), ("callable", python_tokenizer)):
        score(preds[:50], refs[:50], use_stemmer=True, tokenizer=tokenizer)  # imports, set-up
        best = {1: (float("inf"), 0.0), 2: (float("inf"), 0.0)}
        results = {}
        for _ in range(args.repeats):
            for num_proc in (1, 2):
                start, cpu = time.perf_counter(), _cpu()
                results[num_proc] = score(
                    preds, refs, use_stemmer=True, tokenizer=tokenizer, num_proc=num_proc
                )
                wall, cpu = time.perf_counter() - start, _cpu() - cpu
                best[num_proc] = min(best[num_proc], (wall, cpu))
        same = all(
            np.array_equal(getattr(results[1], m), getattr(results[2], m))
            for m in ("precision", "recall", "fmeasure")
        )
        (w1, c1), (w2, c2) = best[1], best[2]
        print(
            f"{label:8s} num_proc=1: {w1:.3f} s (CPU {c1:.3f} s)   "
            f"num_proc=2: {w2:.3f} s (CPU {c2:.3f} s)   "
            f"speed-up {w1 / w2:.2f}x   identical: {same}"
        )
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
