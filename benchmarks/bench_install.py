"""Speed and numbers whatever ``regex`` is installed: the default tokenizer's classes are the
project's own (rouge_lcs/text/unicode_data.py), so another ``regex`` release must change neither.

    .venv/bin/pip install --target /tmp/regex-old 'regex==2024.11.6'
    .venv/bin/python benchmarks/bench_install.py --regex /tmp/regex-old [--regex DIR …]
        [--tree OTHER_CHECKOUT …] [--repeats 5] [--smoke]

Each configuration — a checkout (``--tree``, default this one; a checkout's extension must be
built in place) with a ``regex`` release first on ``sys.path`` (``--regex DIR``, made with
``pip install --target DIR``; ``installed`` is the environment's own) — runs in its own process,
the configurations in turn, ``--repeats`` rounds, best round kept, so that a busy machine slows
each alike.  Workloads, the default tokenizer: 100,000 short mixed Korean/Chinese/English pairs
(bench_nfkc.py's) with rouge1/2/L on one thread and on two; 200 pairs of ~2,000 tokens
(REALSumm texts joined) on one thread; ROUGE-Lsum on REALSumm's 2,500 pairs without newlines
(Punkt). Every configuration's scores must equal the first's (printed: ``same``).

Measured 2026-12-06 05:30-05:31 UTC (2 cores, load average 4.1-4.5: other jobs were running,
so read the ratios, not the times), ``--repeats 3 --tree <this checkout> --tree <the checkout
before the table became the project's own, 8825b64> --regex <regex 2026.11.19>``; the installed
regex is 2026.12.2, what a fresh install gets.  Every configuration gave the same scores.

| workload | this checkout, regex 2026.12.2 | 8825b64, regex 2026.12.2 | 8825b64, regex 2026.11.19 |
|---|---|---|---|
| mixed, 1 thread | 0.83 s | 5.67 s (6.8x) | 0.68 s |
| mixed, 2 threads | 0.71 s | 5.64 s (7.9x) | 0.24 s |
| 2,000-token pairs, 1 thread | 72 ms | 513 ms (7.1x) | 94 ms |
| rougeLsum, Punkt, 1 thread | 48 ms | 233 ms (4.8x) | 28 ms |

Before, a fresh install (regex 2026.12.2) turned the native tokenizer off; now the native path
is on whatever regex is installed (``native unicode True`` in every configuration of this
checkout).  The spread between the first and last columns is the load's: the same checkout
with regex 2026.11.19 put first ran 0.74 s / 0.79 s / 93 ms / 42 ms in the same run.  Checked
again at 05:55 (load 0.8-1.5, one core taken by an install), the mixed pairs only, best of 3,
the two checkouts in turn twice: 0.190-0.197 s on one thread and 0.197-0.198 s on two for this
one with regex 2026.12.2, 0.192-0.194 s and 0.208-0.209 s for 8825b64 with regex 2026.11.19.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import hashlib, json, os, sys, time
sys.path.insert(0, sys.argv[1])
from corpora import concatenated_pairs, load_pairs
from bench_nfkc import mixed_pairs
import rouge_lcs
from rouge_lcs import Rouge
from rouge_lcs.engine import native
import regex
smoke = sys.argv[2] == "1"
n = 2_000 if smoke else 100_000
preds, refs = mixed_pairs(n)
long_p, long_r = concatenated_pairs(200 if not smoke else 300, 200 if not smoke else 5)
rs_p, rs_r = load_pairs("en_cnndm_realsumm")
rs_p = [p.replace("\n", " ") for p in rs_p]
rs_r = [r[0].replace("\n", " ") for r in rs_r]
if smoke:
    rs_p, rs_r = rs_p[:50], rs_r[:50]
if not smoke:
    long_p, long_r = concatenated_pairs(2000, 200)
TYPES = ["rouge1", "rouge2", "rougeL"]
work = {
    "mixed, 1 thread": (Rouge(TYPES, num_threads=1), preds, refs),
    "mixed, 2 threads": (Rouge(TYPES, num_threads=2), preds, refs),
    "2,000-token pairs, 1 thread": (Rouge(TYPES, num_threads=1), long_p, long_r),
    "rougeLsum, Punkt, 1 thread": (Rouge(["rougeLsum"], num_threads=1), rs_p, rs_r),
}
out = {"regex": regex.__version__, "native_unicode": native.native_unicode(),
       "file": rouge_lcs.__file__, "times": {}, "digest": {}}
for name, (scorer, p, r) in work.items():
    # warm: modules imported, patterns compiled; other texts, so that no document is cached
    scorer.score([t + " 0" for t in p[:100]], [t + " 1" for t in r[:100]])
    t = time.perf_counter()
    got = scorer.score(p, r)
    out["times"][name] = time.perf_counter() - t
    out["digest"][name] = hashlib.sha256(got.fmeasure.tobytes()).hexdigest()[:12]
print(json.dumps(out))
"""


def run(tree: Path, regex_dir: str | None, smoke: bool) -> dict:
    """One round of one configuration, in its own process."""
    path = [str(tree)] + ([regex_dir] if regex_dir else [])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(ROOT / "benchmarks"), "1" if smoke else "0"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    result: dict = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", type=Path, default=[])
    parser.add_argument("--regex", action="append", default=[])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    trees = args.tree or [ROOT]
    configs = [(t, r) for t in trees for r in [None, *args.regex]]
    best: dict[int, dict] = {}
    for _ in range(1 if args.smoke else args.repeats):
        for k, (tree, regex_dir) in enumerate(configs):
            got = run(tree, regex_dir, args.smoke)
            if k not in best:
                best[k] = got
            else:
                for name, t in got["times"].items():
                    best[k]["times"][name] = min(best[k]["times"][name], t)
    first = best[0]
    print(f"{os.uname().nodename}: load {os.getloadavg()[0]:.1f}; best of {args.repeats}")
    for k, (tree, _) in enumerate(configs):
        got = best[k]
        same = "same" if got["digest"] == first["digest"] else "DIFFER"
        label = f"{tree.name} + regex {got['regex']}"
        print(f"{label}: native unicode {got['native_unicode']}, scores {same}")
        for name, t in got["times"].items():
            ratio = t / first["times"][name]
            print(f"    {name:32s} {t * 1000:9.1f} ms  ({ratio:.2f}x the first)")
    digest = hashlib.sha256(json.dumps(first["digest"]).encode()).hexdigest()[:8]
    print(f"scores digest {digest}")
    if any(best[k]["digest"] != first["digest"] for k in best):
        raise SystemExit("the scores differ between configurations")


if __name__ == "__main__":
    main()
