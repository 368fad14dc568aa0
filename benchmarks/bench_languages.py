"""Cost of each tokenizer per 1,000 tokens it produces, and of a whole scoring call per language.

    .venv/bin/python benchmarks/bench_languages.py [--repeats 5]

Texts: English and Korean from the shared corpora (REALSumm summaries, KorSTS sentences); Chinese,
Japanese and Thai from tests/language_samples.py (written for the project), repeated with a
running number so that no two texts are equal.  Each tokenizer is called directly on every text
(no memo: the document store's once-per-text cache is not what is measured); the table reports
the best of ``--repeats`` runs, in microseconds per 1,000 output tokens, after one warm-up run
(which pays for loading dictionaries; that one-off cost is reported separately).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from corpora import load_pairs

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from language_samples import SAMPLES  # noqa: E402

from rouge_lcs import score  # noqa: E402
from rouge_lcs.text.tokenizers import resolve_tokenizer  # noqa: E402


def _texts(code: str, n: int = 400) -> list[str]:
    if code == "en":
        preds, refs = load_pairs("en_cnndm_realsumm")
        return [p.replace("\n", " ") for p in preds[:n]]
    if code == "ko":
        preds, refs = load_pairs("ko_korsts")
        return preds[:n]
    base = [t for pair in SAMPLES[code] for t in pair]
    sep = {"zh": "，", "ja": "、", "th": " "}[code]
    # Several sample sentences per text, as in a summary; a number keeps texts distinct.
    return [sep.join(base[(k + j) % len(base)] for j in range(4)) + f"{sep}{k}" for k in range(n)]


# (tokenizer, language of the texts it is meant for)
CASES = [
    ("rouge_score", "en"),
    ("unicode", "en"),
    ("whitespace", "en"),
    ("unicode", "ko"),
    ("kiwi", "ko"),
    ("char", "zh"),
    ("unicode", "zh"),
    ("jieba", "zh"),
    ("char", "ja"),
    ("mecab", "ja"),
    ("thai", "th"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--smoke", action="store_true", help="tiny inputs, one repeat: for the tests"
    )
    args = parser.parse_args()
    size = 20 if args.smoke else 400
    if args.smoke:
        args.repeats = 1
    print(f"{'tokenizer':<12}{'texts':<7}{'tokens':>9}{'µs / 1k tokens':>16}{'first load (s)':>16}")
    for name, code in CASES:
        texts = _texts(code, size)
        start = time.perf_counter()
        try:
            tokenize = resolve_tokenizer(name, language=code).split
        except ImportError as error:
            print(f"{name:<12}{code:<7}  skipped: {error}")
            continue
        n_tokens = sum(len(tokenize(t)) for t in texts)  # warm-up
        load = time.perf_counter() - start
        best = float("inf")
        for _ in range(args.repeats):
            start = time.perf_counter()
            for text in texts:
                tokenize(text)
            best = min(best, time.perf_counter() - start)
        per_1k = best / n_tokens * 1e9
        print(f"{name:<12}{code:<7}{n_tokens:>9}{per_1k:>16.0f}{load:>16.2f}")
    print(f"\nWhole call, four default types, {size} pairs per language (default tokenizer):")
    for code in ("en", "ko", "zh", "ja", "th"):
        texts = _texts(code, size)
        preds, refs = texts[: size // 2], texts[size // 2 :]
        score(preds[:5], refs[:5], language=code)  # warm-up
        start = time.perf_counter()
        score(preds, refs, language=code)
        print(f"  {code}: {time.perf_counter() - start:.3f} s")


if __name__ == "__main__":
    main()
