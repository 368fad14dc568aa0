"""rouge_lcs vs rouge_score on REALSumm (2,500 CNN/DM pairs), side by side in one run.

    .venv/bin/python benchmarks/bench_realsumm.py [--repeats 3]

Both score the four default types (rouge1, rouge2, rougeL, rougeLsum) on sentences joined by
newlines, stemming on and off, with rouge_score-compatible settings (``tokenizer="rouge_score"``;
the numbers are identical, see tests/test_parity_rouge_score.py).  Each configuration is timed
``--repeats`` times alternating the two implementations; the best time of each is reported with
the ratio.  Our stemming memo is emptied before each run (a cold start).  rouge_score is a
test/benchmark dependency only.
"""

from __future__ import annotations

import argparse
import time

from corpora import load_pairs
from rouge_score import rouge_scorer

from rouge_lcs import score
from rouge_lcs.text import stemming

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def load() -> tuple[list[str], list[str]]:
    preds, refs = load_pairs("en_cnndm_realsumm")
    return preds, [r[0] for r in refs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--smoke", action="store_true", help="tiny inputs, one repeat: for the tests"
    )
    args = parser.parse_args()
    preds, refs = load()
    if args.smoke:
        preds, refs, args.repeats = preds[:5], refs[:5], 1
    print(f"{len(preds)} pairs from en_cnndm_realsumm; best of {args.repeats}\n")
    header = ("stemming", "rouge_score s", "rouge_lcs s", "pairs/s (ours)", "ratio")
    print("{:9} {:>14} {:>12} {:>15} {:>7}".format(*header))
    for stem in (False, True):
        theirs, ours = [], []
        for _ in range(args.repeats):
            scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
            start = time.perf_counter()
            for pred, ref in zip(preds, refs):
                scorer.score(ref, pred)
            theirs.append(time.perf_counter() - start)
            stemming._CACHE.clear()  # cold: no word stemmed before (rouge_score never caches)
            start = time.perf_counter()
            score(preds, refs, TYPES, tokenizer="rouge_score", use_stemmer=stem)
            ours.append(time.perf_counter() - start)
        t, o = min(theirs), min(ours)
        label = "on" if stem else "off"
        print(f"{label:9} {t:14.3f} {o:12.3f} {len(preds) / o:15.0f} {t / o:6.1f}x")


if __name__ == "__main__":
    main()
