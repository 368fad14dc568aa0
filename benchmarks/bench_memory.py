"""Peak memory and time of one very long one-line pair (issue 15, defect 1), of ROUGE-S/SU
under pyrouge's default flags (issue 24), and of many threads over a large vocabulary.

    .venv/bin/python benchmarks/bench_memory.py                  # n = 100,000 and 200,000
    .venv/bin/python benchmarks/bench_memory.py 20000 50000      # other sizes
    .venv/bin/python benchmarks/bench_memory.py skip             # ROUGE-S*/SU*: 10,000, 20,000
    .venv/bin/python benchmarks/bench_memory.py skip 5000        # other sizes
    .venv/bin/python benchmarks/bench_memory.py threads          # counting scratch vs threads
    .venv/bin/python benchmarks/bench_memory.py stream           # Parquet streamed: 3 sizes
    .venv/bin/python benchmarks/bench_memory.py --smoke          # tiny inputs: for the tests

For each n, a fresh subprocess scores ``rouge([w(n)], [w(n)])`` with the four default types,
where ``w = lambda n: " ".join(f"w{r.randrange(5000)}" for _ in range(n))`` and
``r = random.Random(0)``, and reports the wall time of that call and the process's peak RSS
(``resource.getrusage``; the RSS before the call — interpreter, imports, the two texts — is shown
too).  The numbers are then checked against ones computed independently of the library:

- ROUGE-1 and ROUGE-2 from ``collections.Counter`` clipping of the whitespace tokens;
- ROUGE-L from rapidfuzz's LCS length of the whitespace tokens;
- ROUGE-Lsum equals ROUGE-L: one sentence a side, so the union-LCS hits are the LCS length.

``stream``: the peak RSS of ``rouge-lcs score --data FILE.parquet`` on files of three sizes
(benchmarks/bench_stream.py, which says how it measures and what it found).

(The tokens ``w123`` are the same under the default Unicode tokenizer and ``str.split``.)
Before the fix, 100,000 tokens a side peaked at 1.47 GB and 200,000 raised MemoryError.

``skip``: for each n and each engine, a fresh subprocess runs ``rouge_lcs.rouge155.score`` on
one pair of ``w(n)`` texts with pyrouge's default flags (``-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2``:
ROUGE-S* and SU* count every pair of tokens, ~n²/2 units), and once more with every token the
same word; the reports of the two engines must be equal.  Before issue 24, one 10,000-token
pair took 1.9-2.9 GB and 20,000 tokens ran out of memory at 6 GB.

Results (2 shared cores, the other busy; peak RSS of the whole process, 32 MB before the call;
the engines' reports equal):

     same       n  engine  seconds  peak RSS
    False   10000  native     12.0    129 MB
    False   10000  python     19.3    132 MB
     True   10000  native     43.3    129 MB
     True   10000  python     40.1    147 MB
    False   20000  native     48.4    418 MB
    False   20000  python     84.9    423 MB
     True   20000  native    113.1    418 MB
     True   20000  python    127.2    418 MB

The skip-bigram counts themselves now take O(n) memory; what remains at 20,000 tokens
(~n² bytes, the same on both engines and for any words) is the script's ROUGE-W (``-w 1.2``),
which this benchmark's flags include and which still keeps its whole per-pair table.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _f(hits: int, pred_total: int, ref_total: int) -> float:
    precision, recall = hits / pred_total, hits / ref_total
    return 0.0 if hits == 0 else 2 * precision * recall / (precision + recall)


def child(n: int) -> dict[str, object]:
    """Score one pair of ``n`` tokens a side in this process; return the measurements."""
    import random
    import resource
    import time
    from collections import Counter

    from rapidfuzz.distance import LCSseq

    from rouge_lcs import rouge

    r = random.Random(0)

    def w(n: int) -> str:
        return " ".join(f"w{r.randrange(5000)}" for _ in range(n))

    prediction, reference = w(n), w(n)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    scores = rouge([prediction], [reference])
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    pred, ref = prediction.split(), reference.split()

    def ngram_hits(k: int) -> int:
        grams = [Counter(zip(*(t[i:] for i in range(k)))) for t in (pred, ref)]
        return sum((grams[0] & grams[1]).values())

    lcs = LCSseq.similarity(pred, ref)
    expected = {
        "rouge1": _f(ngram_hits(1), len(pred), len(ref)),
        "rouge2": _f(ngram_hits(2), len(pred) - 1, len(ref) - 1),
        "rougeL": _f(lcs, len(pred), len(ref)),
        "rougeLsum": _f(lcs, len(pred), len(ref)),
    }
    return {
        "n": n,
        "seconds": seconds,
        "rss_before_mb": before,
        "peak_rss_mb": peak,
        "scores": scores,
        "expected": expected,
        "lcs": lcs,
        "lsum_equals_l": scores["rougeLsum"] == scores["rougeL"],
        "max_abs_diff": max(abs(scores[k] - v) for k, v in expected.items()),
    }


def child_skip(n: int, same: bool) -> dict[str, object]:
    """ROUGE-1.5.5 with pyrouge's default flags on one pair of ``n`` tokens, in this process."""
    import random
    import resource
    import time

    from rouge_lcs.engine.backend import implementation
    from rouge_lcs.rouge155 import score

    r = random.Random(0)

    def w(n: int) -> str:
        if same:
            return " ".join(["w1"] * n)
        return " ".join(f"w{r.randrange(5000)}" for _ in range(n))

    prediction, reference = w(n), w(n)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    report = score([prediction], [[reference]], n=4, weight=1.2, skip=-1, unigrams=True)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "engine": implementation(),
        "seconds": seconds,
        "rss_before_mb": before,
        "peak_rss_mb": peak,
        "report": report.text(),
    }


def main_skip(sizes: list[int]) -> int:
    """The ``skip`` benchmark (see the module docstring)."""
    import os

    ok = True
    print(f"{'same':>5} {'n':>7} {'engine':>7} {'seconds':>8} {'RSS before':>11} {'peak RSS':>9}")
    for n in sizes or [10_000, 20_000]:
        for same in (False, True):
            reports = {}
            for engine in ("native", "python"):
                run = subprocess.run(
                    [sys.executable, str(Path(__file__).resolve()), "--skip-child", str(n)]
                    + (["same"] if same else []),
                    capture_output=True,
                    text=True,
                    cwd=HERE.parent,
                    env={**os.environ, "ROUGE_LCS_IMPLEMENTATION": engine},
                )
                if run.returncode:
                    print(f"{n:>7} {engine} failed:\n{run.stderr[-2000:]}")
                    ok = False
                    continue
                m = json.loads(run.stdout)
                reports[engine] = m["report"]
                print(
                    f"{same!s:>5} {n:>7} {m['engine']:>7} {m['seconds']:>8.1f}"
                    f" {m['rss_before_mb']:>8.0f} MB {m['peak_rss_mb']:>6.0f} MB"
                )
            if len(set(reports.values())) != 1:
                print("         the engines' reports differ")
                ok = False
    return 0 if ok else 1


def child_threads(vocab: int, threads: int) -> dict[str, object]:
    """One counting call on a vocabulary of ``vocab`` ids with ``threads`` asked, in this
    process: the threads that ran and the peak RSS (each thread's workspace holds two
    vocabulary-sized tables)."""
    import resource

    import numpy as np

    from rouge_lcs import _native

    n = threads * 4
    ids = np.arange(2 * 64, dtype=np.int32) % vocab
    starts = np.array([0, 64, 128], dtype=np.int64)
    pred, ref = np.zeros(n, dtype=np.int64), np.ones(n, dtype=np.int64)
    types = np.array([0, 1, 1, 0], dtype=np.int64)
    empty, zero = np.zeros(0, dtype=np.int32), np.zeros(3, dtype=np.int64)
    out = np.zeros(n * 2 * 3, dtype=np.int64)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    ran = _native.counts(ids, starts, empty, zero, zero, pred, ref, types, vocab, out, threads)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"ran": ran, "rss_before_mb": before, "peak_rss_mb": peak}


def main_threads() -> int:
    """The ``threads`` benchmark: scratch memory against threads asked and vocabulary."""
    print(f"{'vocabulary':>11} {'asked':>6} {'ran':>4} {'RSS before':>11} {'peak RSS':>9}")
    for vocab in (1_000_000, 10_000_000, 40_000_000):
        for threads in (1, 8, 64):
            run = subprocess.run(
                [
                    sys.executable,
                    str(Path(__file__).resolve()),
                    "--threads-child",
                    str(vocab),
                    str(threads),
                ],
                capture_output=True,
                text=True,
                cwd=HERE.parent,
            )
            if run.returncode:
                print(f"{vocab:>11} {threads:>6} failed:\n{run.stderr[-2000:]}")
                return 1
            m = json.loads(run.stdout)
            print(
                f"{vocab:>11,} {threads:>6} {m['ran']:>4}"
                f" {m['rss_before_mb']:>8.0f} MB {m['peak_rss_mb']:>6.0f} MB"
            )
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--threads-child"]:
        print(json.dumps(child_threads(int(argv[1]), int(argv[2]))))
        return 0
    if argv[:1] == ["threads"]:
        return main_threads()
    if argv[:1] == ["stream"]:
        sys.path.insert(0, str(HERE))
        import bench_stream

        return bench_stream.main(argv[1:])
    if argv[:1] == ["--child"]:
        print(json.dumps(child(int(argv[1]))))
        return 0
    if argv[:1] == ["--skip-child"]:
        print(json.dumps(child_skip(int(argv[1]), argv[2:] == ["same"])))
        return 0
    if argv[:1] == ["--smoke"]:  # tiny inputs, one repeat: for the tests
        return max(main(["2000"]), main_skip([200]), main(["stream", "--smoke"]))
    if argv[:1] == ["skip"]:
        return main_skip([int(a) for a in argv[1:]])
    sizes = [int(a) for a in argv] or [100_000, 200_000]
    ok = True
    print(f"{'n':>8} {'seconds':>8} {'RSS before':>11} {'peak RSS':>9}  LCS    Lsum==L  max|diff|")
    for n in sizes:
        run = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--child", str(n)],
            capture_output=True,
            text=True,
            cwd=HERE.parent,
        )
        if run.returncode:
            print(f"{n:>8} failed:\n{run.stderr[-2000:]}")
            ok = False
            continue
        m = json.loads(run.stdout)
        good = m["lsum_equals_l"] and m["max_abs_diff"] <= 1e-12
        ok = ok and good and m["peak_rss_mb"] < 300
        print(
            f"{n:>8} {m['seconds']:>8.1f} {m['rss_before_mb']:>8.0f} MB {m['peak_rss_mb']:>6.0f} MB"
            f"  {m['lcs']:<6} {m['lsum_equals_l']!s:<8} {m['max_abs_diff']:.1e}"
        )
        print("         scores:", json.dumps(m["scores"]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
