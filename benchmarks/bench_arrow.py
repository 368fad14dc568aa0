"""Pairs read from Parquet and scored: the Arrow columns as they are (the engine reads their
buffers) against the list-of-str path (``to_pylist`` first), end to end, side by side.

    .venv/bin/python benchmarks/bench_arrow.py [--pairs 100000] [--repeats 5] [--smoke]

Short pairs: bench_nfkc.py's 100,000 distinct mixed pairs (Korean from the KorSTS, question
pair, KLUE STS and WMT20 corpora, Chinese written for the project, English headline
references; each text numbered in fullwidth brackets, so no two are equal; ~85% non-ASCII),
written once to a Parquet file in a temporary folder.  Summary-length pairs: the 2,500
REALSumm pairs (one reference each).  Each path: read the file (``pyarrow.parquet``), convert
(list path only: ``to_pylist``), score rouge1/rouge2/rougeL with the default tokenizer on the
default threads (``ROUGE_LCS_NUM_THREADS=1`` for one); the per-example numbers must be
identical.  The two paths run in turn, ``--repeats`` times over (so that both see the same
load on a shared machine).  Printed, best of ``--repeats``: each stage's wall time and the
ratio of the totals.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from bench_nfkc import mixed_pairs
from corpora import load_pairs

from rouge_lcs import Rouge

TYPES = ["rouge1", "rouge2", "rougeL"]


def best(runs, repeats: int) -> list[tuple[object, dict[str, float]]]:
    """Each of ``runs`` (functions giving a (result, stages) pair) called in turn, ``repeats``
    times over, so that they see the same load: its first result and each stage's best time."""
    results = [run() for run in runs]
    for _ in range(repeats - 1):
        for k, run in enumerate(runs):
            _, again = run()
            first, stages = results[k]
            results[k] = first, {name: min(v, again[name]) for name, v in stages.items()}
    return results


def compare(path: Path, repeats: int) -> tuple[dict[str, float], dict[str, float]]:
    scorer = Rouge(TYPES)

    def arrow() -> tuple[object, dict[str, float]]:
        t0 = time.perf_counter()
        table = pq.read_table(path)
        t1 = time.perf_counter()
        scores = scorer.score(table["prediction"], table["reference"])
        return scores, {"read": t1 - t0, "convert": 0.0, "score": time.perf_counter() - t1}

    def lists() -> tuple[object, dict[str, float]]:
        t0 = time.perf_counter()
        table = pq.read_table(path)
        t1 = time.perf_counter()
        preds, refs = table["prediction"].to_pylist(), table["reference"].to_pylist()
        t2 = time.perf_counter()
        scores = scorer.score(preds, refs)
        return scores, {"read": t1 - t0, "convert": t2 - t1, "score": time.perf_counter() - t2}

    (a, ta), (b, tb) = best([arrow, lists], repeats)
    for measure in ("precision", "recall", "fmeasure"):
        assert np.array_equal(getattr(a, measure), getattr(b, measure)), measure
    return ta, tb


def report(title: str, ta: dict[str, float], tb: dict[str, float], n: int) -> None:
    total_a, total_b = sum(ta.values()), sum(tb.values())
    print(f"{title}: {n} pairs")
    for name, t in (("arrow", ta), ("list ", tb)):
        stages = "  ".join(f"{k} {v * 1000:7.1f} ms" for k, v in t.items())
        print(f"  {name}  {stages}  total {sum(t.values()) * 1000:7.1f} ms")
    print(f"  arrow vs list: {total_b / total_a:.2f}x (identical numbers)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one run")
    args = parser.parse_args()
    pairs, repeats = (200, 1) if args.smoke else (args.pairs, args.repeats)
    with tempfile.TemporaryDirectory() as folder:
        short = Path(folder) / "short.parquet"
        preds, refs = mixed_pairs(pairs)
        pq.write_table(pa.table({"prediction": preds, "reference": refs}), short)
        report("short mixed pairs", *compare(short, repeats), pairs)
        long = Path(folder) / "summaries.parquet"
        sp, sr = load_pairs("en_cnndm_realsumm")
        if args.smoke:
            sp, sr = sp[:50], sr[:50]
        pq.write_table(pa.table({"prediction": sp, "reference": [r[0] for r in sr]}), long)
        report("summary-length pairs (REALSumm)", *compare(long, repeats), len(sp))


if __name__ == "__main__":
    main()
