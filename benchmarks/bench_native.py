"""rouge_lcs's two engines vs rouge-score-rs (Rust), side by side in one run, numbers checked.

    .venv/bin/python benchmarks/bench_native.py [--repeats 3] [--suites realsumm,korean,...]
    .venv/bin/python benchmarks/bench_native.py --pairs 20 --repeats 1   # a smoke run

Suites (four types: rouge1, rouge2, rougeL, rougeLsum; sentences one a line):
- realsumm: REALSumm's 2,500 CNN/DM pairs, ``tokenizer="rouge_score"``, stemming off and on.
- realsumm-unicode: the same pairs with the default ``unicode`` tokenizer vs rouge-score-rs's
  ``UnicodeTokenizer`` (different tokenizers: timed, not compared), stemming off and on.
- korean: ko_korsts, 8,628 pairs, defaults (``unicode`` tokenizer) vs rouge-score-rs's
  ``UnicodeTokenizer`` (a different tokenizer: timed, not compared).
- long: 200 pairs of ~2,000 tokens (consecutive REALSumm texts joined), rouge_score tokens.
- huge: one pair of ~20,000 tokens a side.

Contestants, one after the other in one process, best of ``--repeats``:
- ``rouge_lcs python``: the pure-Python/numpy engine (``ROUGE_LCS_IMPLEMENTATION=python``);
- ``rouge_lcs native``: the compiled core, one thread, through ``score()`` (which keeps its
  thread's vocabulary from one call to the next, as a reward or metric called every step
  does);
- ``native, new vocab``: the same through a new ``Rouge`` each call (a new vocabulary, as
  rouge-score-rs has every call);
- ``rs score``: rouge-score-rs's ``RougeScorer.score`` one pair at a time;
- ``rs score_batch``: its batch call, on one thread (``RAYON_NUM_THREADS=1``, set here before
  rouge-score-rs is imported; pass ``--rayon-threads 2`` for both cores, and
  ``--native-threads 2`` for ours).

Our stemming memo is emptied before each run of ours (a cold start, as rouge-score-rs has no
memo across calls).  For realsumm/long/huge the benchmark checks that the native engine's
per-example F equals the Python engine's exactly and rouge-score-rs's to 1e-12.
Install the contestants with ``pip install -e .[bench]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

_parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
_parser.add_argument("--repeats", type=int, default=3)
_parser.add_argument("--suites", default="realsumm,realsumm-unicode,korean,long,huge")
_parser.add_argument("--rayon-threads", default="1")
_parser.add_argument("--native-threads", default="1", help="ROUGE_LCS_NUM_THREADS for ours")
_parser.add_argument(
    "--pairs", type=int, default=None, help="only the first N pairs of each suite (a smoke run)"
)
ARGS = _parser.parse_args()
# rayon reads this once, when its pool starts: before rouge_score_rs is imported.
os.environ["RAYON_NUM_THREADS"] = ARGS.rayon_threads
os.environ["ROUGE_LCS_NUM_THREADS"] = ARGS.native_threads

import numpy as np  # noqa: E402
from corpora import concatenated_pairs, load_pairs  # noqa: E402
from rouge_score_rs import rouge_scorer as rs_scorer  # noqa: E402
from rouge_score_rs import tokenizers as rs_tokenizers  # noqa: E402

from rouge_lcs import Rouge, score  # noqa: E402
from rouge_lcs.engine import native  # noqa: E402
from rouge_lcs.text import stemming  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _ours(engine: str, preds, refs, stem: bool, tokenizer: str | None) -> np.ndarray:
    os.environ[native.ENV] = engine
    stemming._CACHE.clear()
    return score(preds, refs, TYPES, tokenizer=tokenizer, use_stemmer=stem).fmeasure


def _ours_new_vocabulary(preds, refs, stem: bool, tokenizer: str | None) -> np.ndarray:
    os.environ[native.ENV] = "native"
    stemming._CACHE.clear()
    return Rouge(TYPES, tokenizer=tokenizer, use_stemmer=stem).score(preds, refs).fmeasure


def _rs_scorer(stem: bool, unicode: bool):
    tokenizer = rs_tokenizers.UnicodeTokenizer() if unicode else None
    return rs_scorer.RougeScorer(TYPES, use_stemmer=stem, tokenizer=tokenizer)


def _rs_loop(preds, refs, stem: bool, unicode: bool) -> np.ndarray:
    scorer = _rs_scorer(stem, unicode)
    out = [scorer.score(r, p) for p, r in zip(preds, refs)]
    return np.array([[s[t].fmeasure for t in TYPES] for s in out])


def _rs_batch(preds, refs, stem: bool, unicode: bool) -> np.ndarray:
    out = _rs_scorer(stem, unicode).score_batch(refs, preds)
    return np.array([[s[t].fmeasure for t in TYPES] for s in out])


def _best(fn, repeats: int) -> tuple[float, np.ndarray]:
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def run_suite(name, preds, refs, stem, tokenizer, unicode_rs, repeats, check) -> None:
    contestants = {
        "rouge_lcs python": lambda: _ours("python", preds, refs, stem, tokenizer),
        "rouge_lcs native": lambda: _ours("native", preds, refs, stem, tokenizer),
        "native, new vocab": lambda: _ours_new_vocabulary(preds, refs, stem, tokenizer),
        "rs score": lambda: _rs_loop(preds, refs, stem, unicode_rs),
        "rs score_batch": lambda: _rs_batch(preds, refs, stem, unicode_rs),
    }
    # Alternate contestants within each repeat so machine noise hits all alike.
    times = {k: [] for k in contestants}
    results = {}
    for _ in range(repeats):
        for key, fn in contestants.items():
            t, results[key] = _best(fn, 1)
            times[key].append(t)
    best = {k: min(v) for k, v in times.items()}
    native_t = best["rouge_lcs native"]
    label = f"{name} (stem {'on' if stem else 'off'})"
    for key, t in best.items():
        print(f"{label:28} {key:18} {t:9.4f} s   native is {t / native_t:6.2f}x faster")
    if check:
        same = np.array_equal(results["rouge_lcs native"], results["rouge_lcs python"])
        same = same and np.array_equal(results["native, new vocab"], results["rouge_lcs native"])
        rs_diff = float(np.max(np.abs(results["rouge_lcs native"] - results["rs score_batch"])))
        loop_diff = float(np.max(np.abs(results["rs score"] - results["rs score_batch"])))
        print(
            f"{label:28} check: native == python engine: {same}; "
            f"max |native - rouge-score-rs| = {rs_diff:.1e} (rs loop vs batch {loop_diff:.1e})"
        )
        if not same or rs_diff > 1e-12:
            sys.exit(f"{label}: numbers differ")
    print()


def main() -> None:
    if not native.available():
        sys.exit("rouge_lcs._native is not built: pip install -e . with a C compiler")
    suites = ARGS.suites.split(",")
    cut = slice(ARGS.pairs)  # slice(None): every pair
    print(
        f"best of {ARGS.repeats}; RAYON_NUM_THREADS={ARGS.rayon_threads}; "
        f"ROUGE_LCS_NUM_THREADS={ARGS.native_threads}\n"
    )
    if "realsumm" in suites:
        preds, refs = load_pairs("en_cnndm_realsumm")
        preds, refs1 = preds[cut], [r[0] for r in refs[cut]]
        name = f"realsumm {len(preds):,}"
        for stem in (False, True):
            run_suite(name, preds, refs1, stem, "rouge_score", False, ARGS.repeats, True)
    if "realsumm-unicode" in suites:
        preds, refs = load_pairs("en_cnndm_realsumm")
        preds, refs1 = preds[cut], [r[0] for r in refs[cut]]
        for stem in (False, True):
            run_suite("realsumm unicode", preds, refs1, stem, None, True, ARGS.repeats, False)
    if "korean" in suites:
        preds, refs = load_pairs("ko_korsts")
        preds, refs1 = preds[cut], [r[0] for r in refs[cut]]
        run_suite(f"ko_korsts {len(preds):,}", preds, refs1, False, None, True, ARGS.repeats, False)
    if "long" in suites:
        count = min(200, ARGS.pairs or 200)
        preds, refs = concatenated_pairs(2000, count)
        run_suite(f"{count} x 2,000 tokens", preds, refs, False, "rouge_score", False, 1, True)
    if "huge" in suites:
        tokens = 20000 if ARGS.pairs is None else 2000
        preds, refs = concatenated_pairs(tokens, 1)
        run_suite(f"1 x {tokens:,} tokens", preds, refs, False, "rouge_score", False, 1, True)


if __name__ == "__main__":
    main()
