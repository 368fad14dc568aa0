"""num_proc=1 vs num_proc=2 and Workers(2) through the evaluate module, beside the library call.

    .venv/bin/python benchmarks/bench_metric_parallel.py [--repeats 5] [--pairs 10000[,20000…]]
        [--ballast MB]

The same pairs as bench_parallel.py (REALSumm, then KorSTS and the Korean question pairs; all
distinct, 18,704 at most), the four default types, stemming on, a tokenizer written in Python
(it holds the GIL, so ``num_proc=2`` forks a worker process), scored in one run by:

- ``library``: ``rouge_lcs.rouge(..., num_proc=N)``;
- ``module``: ``evaluate.load(<path to rouge_lcs_metric.py>).compute(..., num_proc=N)``;

each with ``num_proc`` 1, 2 and a ``rouge_lcs.Workers(2)`` made once for the run (its worker is
forked at the set-up call and kept).

Both rows run in this one process (evaluate, datasets and their imports loaded for both: the
heap a worker is forked from is the module's), each repeat running the six calls in turn, so
that the rows see the same load.  For each ``--pairs`` size it prints the best wall time of
each, the CPU time of this process and of its worker in those runs (the worker's includes its
exit), the speed-up, and the load average at start and end; and the CPU that other processes
used during the run, as a share of the machine (from ``/proc/stat``): these machines are shared,
and a speed-up measured while others keep the second core busy says little.

``--repeated K``: REALSumm's 2,500 pairs K times over instead (each distinct example is scored
once and its counts given to every copy).

Measured 2026-12-03 17:11 UTC (2 cores, load average 0.9, other processes ~11% of the CPUs;
``--repeats 7 --pairs 10000``, two runs), speed-up over num_proc=1, library / module:
``num_proc=2`` 1.38x / 1.39x and 1.39x / 1.37x; ``Workers(2)`` 1.66x / 1.66x and 1.67x / 1.64x,
with one process at 0.123-0.127 s (earlier builds of the day, 16:22-16:26: one process
0.140-0.152 s, ``Workers(2)`` 1.47-1.72x, ``num_proc=2`` 1.21-1.47x).  A num_proc=2 module
call's serial steps (timed in it, 15:58-16:02): checking the batch ~3 ms, the distinct examples
~2 ms, the fork 14-16 ms (a process of ~500 MB), the means ~1.5 ms; and the pages both
processes then write are copied one by one (perf: ~3,700 more page faults in this process and
~4,800 in the worker than one process takes, ~2.4 us each here).  ``Workers(2)`` pays neither:
pickling the batch for its worker takes ~2.5 ms, writing it 1-3 ms.  ``--ballast 3000``
(17:11): num_proc=2 0.78x / 0.78x, ``Workers(2)`` 1.70x / 1.66x.
``--repeated 4`` (2026-12-02 16:23 UTC): 2.36x / 2.31x, where before each distinct example
was scored once per shard it met: 0.84x / 0.86x.
"""

from __future__ import annotations

import argparse
import os
import resource
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_parallel import load, python_tokenizer

from rouge_lcs import Workers, rouge

SCRIPT = Path(__file__).resolve().parents[1] / "rouge_lcs_metric.py"


def _times() -> tuple[float, float]:
    """CPU seconds of this process and of its reaped children (to the microsecond, where
    ``os.times`` counts 10 ms ticks)."""
    own, children = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def _machine() -> tuple[float, float] | None:
    """Busy and total CPU seconds of the whole machine since boot (Linux), else ``None``."""
    try:
        with open("/proc/stat") as stat:
            ticks = [int(v) for v in stat.readline().split()[1:]]
    except OSError:
        return None
    hz = os.sysconf("SC_CLK_TCK")
    idle = ticks[3] + ticks[4]  # idle and iowait
    return (sum(ticks) - idle) / hz, sum(ticks) / hz


def _join_reapers() -> None:
    """Wait for the threads that reap finished workers (the call returns before they exit)."""
    for thread in threading.enumerate():
        if thread.name == "rouge-lcs-reap":
            thread.join()


def _calls(metric: Any, preds: list[str], refs: list[list[str]]) -> dict[str, Callable]:
    """The two rows: the library call and the evaluate module's, with ``num_proc`` to give."""
    return {
        "library": lambda n: rouge(
            preds, refs, use_stemmer=True, tokenizer=python_tokenizer, num_proc=n
        ),
        "module": lambda n: metric.compute(
            predictions=preds, references=refs, use_stemmer=True, tokenizer=python_tokenizer,
            num_proc=n,
        ),
    }  # fmt: skip


def measure(
    calls: dict, repeats: int, workers: Workers
) -> dict[str, dict[object, tuple[float, float, float]]]:
    """Best (wall, own CPU, worker CPU) of each call with ``num_proc`` 1, 2 and ``workers``
    (processes kept between calls), the calls taking turns; checks that all three give the
    same result."""
    best: dict[str, dict[object, tuple[float, float, float]]] = {label: {} for label in calls}
    for call in calls.values():
        call(1)  # set-up: imports, caches
        call(workers)  # and the kept workers' fork
    for _ in range(repeats):
        for label, call in calls.items():
            results = {}
            for num_proc in (1, 2, workers):
                key = "kept" if num_proc is workers else num_proc
                (own, children), start = _times(), time.perf_counter()
                results[key] = call(num_proc)
                wall = time.perf_counter() - start
                _join_reapers()  # a worker's CPU is counted once it is reaped
                own2, children2 = _times()
                run = (wall, own2 - own, children2 - children)
                best[label][key] = min(best[label].get(key, run), run)
            if not results[1] == results[2] == results["kept"]:
                raise SystemExit(f"{label}: num_proc=2 changed the numbers")
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--pairs", default="10000", help="sizes, comma-separated")
    parser.add_argument("--smoke", action="store_true", help="40 pairs, one repeat: for the tests")
    parser.add_argument(
        "--repeated",
        type=int,
        default=0,
        metavar="K",
        help="REALSumm's 2,500 pairs K times over, in order, instead of distinct pairs",
    )
    parser.add_argument(
        "--ballast",
        type=int,
        default=0,
        metavar="MB",
        help="hold MB megabytes of written memory (a model's weights in a training process)",
    )
    args = parser.parse_args()
    # Written, so that every page is mapped: a fork copies the page tables of what is mapped.
    ballast = [bytearray(b"w" * (1 << 20)) for _ in range(args.ballast)]
    sizes = [40] if args.smoke else [int(size) for size in args.pairs.split(",")]
    repeats = 1 if args.smoke else args.repeats
    import evaluate

    metric = evaluate.load(str(SCRIPT))
    all_preds, all_refs = load(max(*sizes, 2500 if args.repeated else 0))
    if args.repeated:  # every example recurs K times (bench_parallel.load's first 2,500 pairs)
        all_preds, all_refs = all_preds[:2500] * args.repeated, all_refs[:2500] * args.repeated
        sizes = [len(all_preds)]
    print(f"four default types, stemming on, a Python tokenizer, best of {repeats}")
    if ballast:
        print(f"holding {len(ballast)} MB of written memory")
    for size in sizes:
        preds, refs = all_preds[:size], all_refs[:size]
        calls = _calls(metric, preds, refs)
        load_start, machine, (own, children) = os.getloadavg()[0], _machine(), _times()
        with Workers(2) as workers:
            best = measure(calls, repeats, workers)
        print(f"{len(preds)} pairs; load average {load_start:.2f} at start")
        for label, runs in best.items():
            (w1, c1, _), (w2, c2, k2), (wk, ck, _) = runs[1], runs[2], runs["kept"]
            print(
                f"  {label:8s} num_proc=1: {w1:.3f} s (CPU {c1:.3f} s)   "
                f"num_proc=2: {w2:.3f} s (CPU {c2:.3f} s + worker {k2:.3f} s)   "
                f"speed-up {w1 / w2:.2f}x   Workers(2): {wk:.3f} s (CPU {ck:.3f} s)   "
                f"speed-up {w1 / wk:.2f}x   identical: True"
            )
        machine_end, (own2, children2) = _machine(), _times()
        others = ""
        if machine is not None and machine_end is not None:
            ours = own2 - own + children2 - children
            busy, total = machine_end[0] - machine[0], machine_end[1] - machine[1]
            others = f", other processes used {max(0.0, busy - ours) / total:.0%} of the CPUs"
        print(f"  load average {os.getloadavg()[0]:.2f} at end{others}")


if __name__ == "__main__":
    main()
