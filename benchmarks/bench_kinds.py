"""ROUGE-W, ROUGE-S and ROUGE-SU beside ROUGE-L and ROUGE-2, side by side in one run.

    .venv/bin/python benchmarks/bench_kinds.py [--repeats 3] [--tokens 4500] [--tiny]

1. One single-sentence pair of ``--tokens`` tokens each (300-word vocabulary): ROUGE-W of the
   library (the weighted-LCS value), ROUGE-1.5.5's ROUGE-W (``rouge_lcs.rouge155.score``, the
   script's summary-level marks), and ROUGE-L of the same pair.
2. REALSumm (2,500 CNN/DM pairs): ``rougeW`` against ``rougeL``, ``rougeSU4`` against
   ``rouge2`` (``score``, one thread).
3. REALSumm with ``compat="rouge155"``: ``rougeW`` against ``rougeL`` (the script's ROUGE-L).

Best of ``--repeats`` each; the ratios are what the goals read (W under 0.5 s on the long pair;
W within 2x of L; SU4 within 2x of ROUGE-2).  ``--tiny`` runs every step on a few pairs.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

from rouge_lcs import rouge, score
from rouge_lcs.rouge155 import score as rouge155_score


def best(fn: Callable[[], object], repeats: int) -> float:
    """The best wall time of ``repeats`` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def long_pair(tokens: int) -> tuple[str, str]:
    """Two single-sentence texts of ``tokens`` words from a 300-word vocabulary."""
    rng = random.Random(0)
    words = [f"w{k}" for k in range(300)]
    return tuple(" ".join(rng.choice(words) for _ in range(tokens)) for _ in range(2))  # type: ignore[return-value]


def realsumm(tiny: bool) -> tuple[list[str], list[str]]:
    """REALSumm's pairs (a few with ``tiny``, or when the data is absent)."""
    try:
        from corpora import load_pairs

        preds, refs = load_pairs("en_cnndm_realsumm")
    except (ImportError, OSError):
        preds, refs = ["the cat sat on the mat"] * 4, [["the cat was on the mat"]] * 4
    if tiny:
        preds, refs = preds[:8], refs[:8]
    return preds, [r[0] for r in refs]


def row(label: str, ours: float, base: float, base_label: str) -> None:
    print(f"{label:34} {ours:9.4f} s   {base_label:10} {base:9.4f} s   ratio {ours / base:6.2f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--tokens", type=int, default=4500)
    parser.add_argument("--tiny", action="store_true", help="a smoke run on tiny inputs")
    parser.add_argument(
        "--smoke", action="store_true", dest="tiny", help="tiny inputs, one repeat: for the tests"
    )
    args = parser.parse_args(argv)
    tokens = 50 if args.tiny else args.tokens
    repeats = 1 if args.tiny else args.repeats
    print(f"load: {os.getloadavg()[0]:.2f} (1 min); best of {repeats}\n")
    pred, ref = long_pair(tokens)
    w = best(lambda: score([pred], [ref], ["rougeW"]), repeats)
    w155 = best(lambda: rouge155_score([pred], [ref], n=0, rouge_l=False, weight=1.2), repeats)
    lcs = best(lambda: score([pred], [ref], ["rougeL"]), repeats)
    print(f"one pair of {tokens} tokens (one sentence each)")
    row("rougeW (weighted LCS value)", w, lcs, "rougeL")
    row("ROUGE-1.5.5 -w 1.2 (marks)", w155, lcs, "rougeL")
    preds, refs = realsumm(args.tiny)
    print(f"\n{len(preds)} REALSumm pairs")
    timed = {
        t: best(lambda t=t: score(preds, refs, [t], tokenizer="rouge_score"), repeats)
        for t in ("rougeW", "rougeL", "rougeSU4", "rouge2")
    }
    row("rougeW", timed["rougeW"], timed["rougeL"], "rougeL")
    row("rougeSU4", timed["rougeSU4"], timed["rouge2"], "rouge2")
    compat = {
        t: best(lambda t=t: rouge(preds, refs, [t], compat="rouge155"), repeats)
        for t in ("rougeW", "rougeL")
    }
    row("compat='rouge155' rougeW", compat["rougeW"], compat["rougeL"], "rougeL")


if __name__ == "__main__":
    main()
