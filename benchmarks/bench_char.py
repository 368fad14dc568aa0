"""Character-level ROUGE (``tokenizer="char"``) against rouge-score-rs's CharacterTokenizer.

    cd benchmarks && ../.venv/bin/python bench_char.py [--repeats 7]

Texts: Korean pairs from the shared KorSTS corpus (read, never copied), and Chinese and Japanese
pairs built from tests/language_samples.py (several sample sentences per text, a running number
so that no two texts are equal; the sample pairs are each other's reference).  One call scores
every pair, four types, best of ``--repeats`` after a warm-up call, side by side in one run:
our native engine (the char tokenizer in C for texts of CJK, kana, Hangul and ASCII), our
Python engine, and rouge-score-rs ``score_batch`` with its ``CharacterTokenizer`` (another
tokenizer's definition: timed, not compared).
"""

from __future__ import annotations

import argparse
import os
import sys
from functools import partial
from pathlib import Path

from bench_statistics import best_of
from corpora import load_pairs

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from language_samples import SAMPLES  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _pairs(code: str, n: int = 2000) -> tuple[list[str], list[str]]:
    if code == "ko":
        preds, refs = load_pairs("ko_korsts")
        return preds[:n], [r[0] for r in refs[:n]]
    base = SAMPLES[code]
    sep = {"zh": "，", "ja": "、"}[code]
    preds = [sep.join(base[(k + j) % len(base)][0] for j in range(3)) + f"{k}" for k in range(n)]
    refs = [sep.join(base[(k + j) % len(base)][1] for j in range(3)) + f"{k}" for k in range(n)]
    return preds, refs


def _best(fn, repeats: int) -> float:
    fn()  # warm-up: the first call pays for loading and first-time setup
    return best_of(fn, repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument(
        "--smoke", action="store_true", help="tiny inputs, one repeat: for the tests"
    )
    args = parser.parse_args()
    if args.smoke:
        args.repeats = 1
    size = 20 if args.smoke else 2000
    from rouge_score_rs import rouge_scorer as rs_scorer
    from rouge_score_rs import tokenizers as rs_tokenizers

    from rouge_lcs import Rouge

    print(f"load average {os.getloadavg()[0]:.2f}")
    print("| texts | native | Python engine | rs score_batch (CharacterTokenizer) | native vs rs |")
    print("|---|---|---|---|---|")
    for code in ("zh", "ja", "ko"):
        preds, refs = _pairs(code, size)
        scorer = Rouge(TYPES, tokenizer="char")
        times = {}
        for engine in ("native", "python"):
            os.environ["ROUGE_LCS_IMPLEMENTATION"] = engine
            times[engine] = _best(partial(scorer.score, preds, refs), args.repeats)
        rs = rs_scorer.RougeScorer(TYPES, tokenizer=rs_tokenizers.CharacterTokenizer())
        times["rs"] = _best(partial(rs.score_batch, refs, preds), args.repeats)
        print(
            f"| {code}, {len(preds):,} pairs | {times['native'] * 1e3:.1f} ms "
            f"| {times['python'] * 1e3:.1f} ms | {times['rs'] * 1e3:.1f} ms "
            f"| {times['rs'] / times['native']:.1f}× |"
        )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
