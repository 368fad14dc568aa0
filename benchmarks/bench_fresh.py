"""A fresh process: import + one REALSumm call, against rouge-score-rs, in new processes.

    .venv/bin/python benchmarks/bench_fresh.py [--repeats 7] [--threads 1]

What an evaluation script, a CLI or a reward server pays: each measurement is a new ``python``
process that first reads REALSumm's 2,500 pairs (first reference each; not timed), then times
with ``time.perf_counter`` inside the child:

- import: the import statement;
- first call: one call on all pairs (four types, ``tokenizer="rouge_score"`` for ours,
  rouge-score-rs's default tokenizer: the same tokens), numpy's import included for ours;
- warm call: the same call again in that process.

A fresh process is import + first call; the goals compare it with rouge-score-rs's, and our
first call with rouge-score-rs's warm call.

Children run ``python -S`` with the checkout and site-packages on ``PYTHONPATH``: no ``.pth``
file imports anything before the clock starts (an editable install's finder imports pathlib
and more, which a wheel install would not), so the import is timed as a user pays it (the
package's bytecode is compiled first, as a wheel install does).  Ours is timed twice:
``rouge()`` (evaluate's per-example lists; the native engine needs no NumPy)
and ``score()`` (NumPy arrays, whose import is then part of the first call).

The interpreter's own start-up (equal for both) is excluded.  rouge-score-rs runs
``score_batch`` with ``RAYON_NUM_THREADS=--threads``; ours with ``ROUGE_LCS_NUM_THREADS``
the same.  Contestants alternate within each repeat so machine noise hits all alike; best of
``--repeats``.  Every child's per-example F is checked: ours equals rouge-score-rs's to 1e-12.

Measured 2026-12-06, 2 cores shared with other jobs (fresh = import + first call, ours over
rs's; ``rouge()`` / ``score()``):

| UTC, load (1 min) | repeats | stemming off | stemming on |
|---|---|---|---|
| 07:48, 13.7 | 5 | 1.36x / 0.46x | 2.69x / 0.95x |
| 08:14, 12.3 | 7 | 1.35x / 0.38x | 2.51x / 0.77x |
| 16:03, 1.7 | 7 | 1.65x / 0.52x | 2.94x / 0.96x |

``--checkout`` side by side at 16:03-16:04 (load 1.7-1.9; the children run in an empty
directory since then: from a checkout's directory they had imported that checkout's code
whatever ``--checkout`` said), stemming off: the previous code's first call 15.0 and 15.0 ms
(fresh 1.58x and 1.55x rs), this code's 13.9 and 13.8 ms (1.62x and 1.64x), warm 9.8-10.7
for both; stemming on 16.4-16.5 against 14.9-15.3 ms.  A first call's extra over a warm one
is now Punkt's English model (~1.3 ms: parsed from its module's source into hash tables),
page faults of new memory and cold caches.

CPU time of the same children (``time.process_time``, which the load does not inflate; best
of 4-5): ours import 17 ms + first call 18 ms (warm 12 ms), stemming on 17 + 19.5 ms;
rouge-score-rs 2 ms + 41.5 ms off, 2 + 78 ms on: 1.24x off, 2.2x on.  Our first call is all C
(encoding with a new vocabulary 8-9 ms against 5 warm, the counts 6 ms, Punkt's model 1-2 ms);
the import is 61 modules, ~45 of them ours, none over ~1.2 ms (no typing, re, dataclasses,
NumPy: tests/test_architecture.py lists what may be imported).  1.5x with stemming off needs
~6 ms less of the 35; ``score()`` pays NumPy's import (~60 ms CPU) in its first call.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from corpora import load_pairs

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

_CHILD = """
import json, sys, time
preds, refs = json.load(open(sys.argv[1]))
stem = sys.argv[2] == "1"
t0 = time.perf_counter()
{imports}
t1 = time.perf_counter()
first = call()
t2 = time.perf_counter()
call()
t3 = time.perf_counter()
print(json.dumps([t1 - t0, t2 - t1, t3 - t2, first]))
"""

# name: (import statement, then a function ``call`` that scores every pair)
BODIES = {
    # The evaluate-style call (per-example lists of floats): the native engine needs no NumPy.
    "rouge_lcs rouge()": (
        "from rouge_lcs import rouge\n"
        "def call():\n"
        f"    out = rouge(preds, refs, {TYPES!r}, tokenizer='rouge_score', use_stemmer=stem,\n"
        "                use_aggregator=False)\n"
        f"    return [list(row) for row in zip(*(out[t] for t in {TYPES!r}))]"
    ),
    # Per-example NumPy arrays: NumPy's import is part of this call.
    "rouge_lcs score()": (
        "from rouge_lcs import score\n"
        "def call():\n"
        f"    out = score(preds, refs, {TYPES!r}, tokenizer='rouge_score', use_stemmer=stem)\n"
        "    return out.fmeasure.tolist()"
    ),
    "rouge-score-rs": (
        "from rouge_score_rs import rouge_scorer\n"
        "def call():\n"
        f"    scorer = rouge_scorer.RougeScorer({TYPES!r}, use_stemmer=stem)\n"
        "    out = scorer.score_batch(refs, preds)\n"
        f"    return [[s[t].fmeasure for t in {TYPES!r}] for s in out]"
    ),
}
RS = "rouge-score-rs"


def main() -> None:
    """Run the contestants in alternating fresh processes and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--threads", default="1")
    parser.add_argument(
        "--pairs", type=int, default=None, help="only the first N pairs (a smoke run)"
    )
    parser.add_argument(
        "--checkout",
        default=str(Path(__file__).resolve().parents[1]),
        help="the rouge_lcs checkout to time (another one for a before/after comparison)",
    )
    args = parser.parse_args()
    preds, refs = load_pairs("en_cnndm_realsumm")
    preds, first_refs = preds[: args.pairs], [r[0] for r in refs[: args.pairs]]
    # python -S: no site, so no .pth file of the environment (an editable install's finder
    # imports pathlib and more) runs before the clock starts; a user's wheel install pays
    # what the import itself pays.  The checkout and site-packages are put on the path.
    paths = [args.checkout, *sorted({sysconfig.get_path("purelib"), sysconfig.get_path("platlib")})]
    env = {
        **os.environ,
        "RAYON_NUM_THREADS": args.threads,
        "ROUGE_LCS_NUM_THREADS": args.threads,
        "PYTHONPATH": os.pathsep.join(paths),
    }
    # A wheel install writes the bytecode; here PYTHONDONTWRITEBYTECODE may be set, and without
    # .pyc files every child would compile the package's sources first.
    compileall.compile_dir(str(Path(args.checkout) / "rouge_lcs"), quiet=1)
    # The children run in an empty directory: -c puts the working directory first on sys.path,
    # so run from a checkout they imported its rouge_lcs rather than --checkout's, and run from
    # a busy /tmp every import listed it again.
    workdir = tempfile.mkdtemp()
    data = os.path.join(workdir, "pairs.json")
    with open(data, "w") as handle:
        json.dump([preds, first_refs], handle)
    print(f"load average at start: {os.getloadavg()[0]:.2f}; {len(preds):,} pairs")
    for stem in ("0", "1"):
        best: dict[str, list[float]] = {}
        results: dict[str, list[list[float]]] = {}
        for _ in range(args.repeats):
            for name, body in BODIES.items():
                code = _CHILD.format(imports=body)
                line = subprocess.run(
                    [sys.executable, "-S", "-c", code, data, stem],
                    check=True,
                    env=env,
                    cwd=workdir,
                    capture_output=True,
                    text=True,
                ).stdout
                *times, results[name] = json.loads(line)
                old = best.get(name, [float("inf")] * 3)
                best[name] = [min(a, b) for a, b in zip(old, times)]
        print(f"stemming {'on' if stem == '1' else 'off'}, ms:")
        rs = best[RS]
        for name, (imp, first, warm) in best.items():
            diff = max(
                abs(a - b)
                for row_a, row_b in zip(results[name], results[RS])
                for a, b in zip(row_a, row_b)
            )
            assert diff <= 1e-12, (name, diff)
            line = (
                f"  {name:18s} import {imp * 1e3:6.1f}  first call {first * 1e3:6.1f}"
                f"  fresh {(imp + first) * 1e3:6.1f}  warm {warm * 1e3:6.1f}"
            )
            if name != RS:
                line += (
                    f"  | fresh {(rs[0] + rs[1]) / (imp + first):.2f}x rs,"
                    f" first call {rs[2] / first:.2f}x rs warm  (max |dF| {diff:.0e})"
                )
            print(line)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    os.unlink(data)
    os.rmdir(workdir)


if __name__ == "__main__":
    main()
