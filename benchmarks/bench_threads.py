"""One thread against two, by argument and by ROUGE_LCS_NUM_THREADS, side by side in one run.

    .venv/bin/python benchmarks/bench_threads.py [--repeats 15]

Suites: REALSumm (2,500 pairs, sentences on lines), REALSumm with each text on one line (the
sentences joined by spaces: ROUGE-Lsum splits them with Punkt) and 200 pairs of ~2,000 tokens,
four types, ``tokenizer="rouge_score"``, stemming off and on; the three scorers alternate within
each repeat and the numbers must be identical.  Printed, best of ``--repeats``: wall time, the
process's CPU time (all threads: the work), and the calling thread's CPU time
(``time.thread_time``).  The calling thread runs its own shard and every serial step, so on a
machine with a free core for the other thread its CPU time is the wall time to expect; when
other jobs hold the cores, wall time measures them, and the thread-time ratio is the one to
read (it assumes balanced shards: they are cut to equal lengths).
"""

from __future__ import annotations

import argparse
import os

from corpora import concatenated_pairs, load_pairs, timed

from rouge_lcs import Rouge

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument(
        "--smoke", action="store_true", help="tiny inputs, one repeat: for the tests"
    )
    args = parser.parse_args()
    preds, refs = load_pairs("en_cnndm_realsumm")
    if args.smoke:
        preds, refs, args.repeats = preds[:5], refs[:5], 1
    suites = {
        "REALSumm": (preds, [r[0] for r in refs]),
        "REALSumm, one line (Punkt)": (
            [p.replace("\n", " ") for p in preds],
            [r[0].replace("\n", " ") for r in refs],
        ),
        "200 x 2,000 tokens": concatenated_pairs(2000, 200)
        if not args.smoke
        else concatenated_pairs(50, 5),
    }
    print(f"load average {os.getloadavg()[0]:.2f}")
    for name, (p, r) in suites.items():
        for stem in (False, True):
            scorers = {
                "1 thread": (
                    "1",
                    Rouge(TYPES, tokenizer="rouge_score", use_stemmer=stem, num_threads=1),
                ),
                "num_threads=2": (
                    "1",
                    Rouge(TYPES, tokenizer="rouge_score", use_stemmer=stem, num_threads=2),
                ),
                "ROUGE_LCS_NUM_THREADS=2": (
                    "2",
                    Rouge(TYPES, tokenizer="rouge_score", use_stemmer=stem),
                ),
            }
            best = {k: [float("inf")] * 3 for k in scorers}
            want = None
            for _ in range(args.repeats):
                for label, (variable, scorer) in scorers.items():
                    os.environ["ROUGE_LCS_NUM_THREADS"] = variable
                    scores, spent = timed(scorer.score, p, r)
                    got = scores.fmeasure
                    best[label] = [min(a, b) for a, b in zip(best[label], spent)]
                    if want is None:
                        want = got
                    assert (got == want).all(), "numbers differ between thread counts"
            one = best["1 thread"]
            print(f"{name}, stemming {'on' if stem else 'off'}:")
            for label, (wall, cpu, main_cpu) in best.items():
                print(
                    f"  {label:24} wall {wall * 1e3:7.1f} ms ({one[0] / wall:4.2f}x)"
                    f"  cpu {cpu * 1e3:7.1f} ms"
                    f"  calling thread {main_cpu * 1e3:7.1f} ms ({one[2] / main_cpu:4.2f}x)"
                )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
