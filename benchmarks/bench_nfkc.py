"""NFKC in C on the text stage's threads against CPython's ``unicodedata.normalize`` on the
calling thread, side by side in one run, on short mixed-language pairs.

    .venv/bin/python benchmarks/bench_nfkc.py [--pairs 100000] [--repeats 7] [--smoke]

Pairs: distinct short pairs cut from the shared corpora (Korean: KorSTS, question pairs, KLUE
STS, WMT20 outputs; English: the headline references) and the Chinese pairs written for the
project (tests/language_samples.py), each text given a running number in fullwidth brackets so
that no two are equal (and so that NFKC has fullwidth punctuation to rewrite, as in CJK text):
about 85% of the texts are non-ASCII.  Scorers: the default tokenizer (``unicode``), rouge1,
rouge2 and rougeL, on 1 and 2 threads, with NFKC in C (today's build) and with the encoder told
to call ``unicodedata.normalize`` instead (the previous path); the numbers must be identical.
Printed, best of ``--repeats``: wall time, the process's CPU time and the calling thread's CPU
time (it runs its own shard and every serial step: with a core free for the other thread, the
wall time to expect; when other jobs hold the cores, wall time measures them).

Measured 2026-12-03 (2 cores, ``--repeats 9``): at 13:28-13:29 UTC (load average 0.2-0.4, three
runs) C NFKC on one thread 111-113 ms, 4.0x the CPython path; two threads against one 1.56-1.60x
wall, 1.58-1.62x on the calling thread.  At 13:49 (load average 0.7-0.9; the CPython path itself
15% slower than at 13:28) 142 ms, 3.7x; two threads 1.42-1.47x wall, 1.53-1.58x on the calling
thread: the second thread's share is slower when the machine's second core is busy, and the
calling thread waits for it.  The same runs with the build of 10:50 (in turn, 13:29-13:30):
120-124 ms and 1.64-1.70x wall, against 114 ms and 1.55-1.56x with today's (its one thread got
faster: ASCII, Hangul syllables and CJK ideographs go through NFKC without reading their
records).  At 10:48 the build of then gave 133-135 ms and 1.44-1.47x.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from corpora import load_pairs, timed

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from language_samples import SAMPLES  # noqa: E402

from rouge_lcs import Rouge  # noqa: E402
from rouge_lcs.engine import native  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeL"]
KOREAN = ["ko_korsts", "ko_question_pair", "ko_klue_sts_dev", "ko_mt_wmt20_korsacrebleu_sample"]


def mixed_pairs(count: int) -> tuple[list[str], list[str]]:
    """``count`` distinct (prediction, reference) pairs: Korean, Chinese and English in turn
    (9 : 8 : 3), each text numbered in fullwidth brackets."""
    korean = [(p, r[0]) for name in KOREAN for p, r in zip(*load_pairs(name))]
    english = [(r[0], r[1]) for r in load_pairs("en_headlines_rougemetric")[1]]
    chinese = SAMPLES["zh"]
    plan = ["ko"] * 9 + ["zh"] * 8 + ["en"] * 3
    preds, refs = [], []
    for k in range(count):
        lang = plan[k % len(plan)]
        if lang == "ko":
            p, r = korean[k % len(korean)]
        elif lang == "zh":
            a, b = chinese[k % len(chinese)], chinese[(k + 1) % len(chinese)]
            p, r = f"{a[0]}，{b[0]}。", f"{a[1]}，{b[1]}。"
        else:
            p, r = english[k % len(english)]
        tag = f"（{k}）" if lang != "en" else f" ({k})"
        preds.append(p + tag)
        refs.append(r + tag)
    return preds, refs


@contextmanager
def python_nfkc(on: bool) -> Iterator[None]:
    """While on: every encoder made calls ``unicodedata.normalize`` (the previous path)."""
    real = native._native.Encoder
    if on:
        native._native.Encoder = lambda *a, **k: real(*a, **{**k, "native_nfkc": False})
    try:
        yield
    finally:
        native._native.Encoder = real


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument(
        "--smoke", action="store_true", help="tiny inputs, one repeat: for the tests"
    )
    args = parser.parse_args()
    if args.smoke:
        args.pairs, args.repeats = 200, 1
    preds, refs = mixed_pairs(args.pairs)
    non_ascii = sum(not t.isascii() for t in preds + refs) / (2 * len(preds))
    print(f"load average {os.getloadavg()[0]:.2f}; {len(preds):,} pairs, {non_ascii:.0%} non-ASCII")
    cases: dict[str, tuple[bool, Any]] = {
        f"{path}, {threads} thread{'s' * (threads > 1)}": (
            path == "CPython NFKC",
            Rouge(TYPES, num_threads=threads),
        )
        for path in ("CPython NFKC", "C NFKC")
        for threads in (1, 2)
    }
    best = {k: [float("inf")] * 3 for k in cases}
    want = None
    for _ in range(args.repeats):
        for label, (old, scorer) in cases.items():
            with python_nfkc(old):
                scores, spent = timed(scorer.score, preds, refs)
                got = scores.fmeasure
            best[label] = [min(a, b) for a, b in zip(best[label], spent)]
            if want is None:
                want = got
            assert (got == want).all(), f"{label}: numbers differ"
    base = best["CPython NFKC, 1 thread"]
    for label, (wall, cpu, main) in best.items():
        print(
            f"  {label:24} wall {wall * 1e3:7.1f} ms ({base[0] / wall:4.2f}x)"
            f"  cpu {cpu * 1e3:7.1f} ms ({base[1] / cpu:4.2f}x)"
            f"  calling thread {main * 1e3:7.1f} ms ({base[2] / main:4.2f}x)"
        )
    one, two = best["C NFKC, 1 thread"], best["C NFKC, 2 threads"]
    print(
        f"  C NFKC, 2 threads against 1: wall {one[0] / two[0]:4.2f}x,"
        f" calling thread {one[2] / two[2]:4.2f}x (the wall time to expect with a free core)"
    )


if __name__ == "__main__":
    main()
