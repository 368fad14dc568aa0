"""The evaluate module's ``compute`` against the library call on the same data, side by side.

    .venv/bin/python benchmarks/bench_metric.py [--repeats 5]

REALSumm's 2,500 pairs (sentences one a line), the four default types, defaults otherwise:
``evaluate.load("rouge_lcs_metric.py").compute(predictions=..., references=...)`` (offline,
from the file) against ``rouge_lcs.rouge(predictions, references)``, alternated within each
repeat, best of ``--repeats``; the two results must be equal.  What ``compute`` adds is
evaluate's own work: its Arrow cache of the inputs, the feature checks and the dict round trip.
Our stemming memo is emptied before each run.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

import evaluate  # noqa: E402
from corpora import load_pairs  # noqa: E402

from rouge_lcs import rouge  # noqa: E402
from rouge_lcs.text import stemming  # noqa: E402

SCRIPT = Path(__file__).resolve().parent.parent / "rouge_lcs_metric.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--smoke", action="store_true", help="tiny inputs, one repeat: for the tests"
    )
    args = parser.parse_args()
    preds, refs = load_pairs("en_cnndm_realsumm")
    if args.smoke:
        preds, refs, args.repeats = preds[:5], refs[:5], 1
    refs1 = [r[0] for r in refs]
    metric = evaluate.load(str(SCRIPT))
    print(f"{len(preds)} pairs from en_cnndm_realsumm; best of {args.repeats}\n")
    for stem in (False, True):
        times: dict[str, list[float]] = {"library rouge()": [], "evaluate compute()": []}
        results = {}
        for _ in range(args.repeats):
            for name in times:
                stemming._CACHE.clear()
                start = time.perf_counter()
                if name == "library rouge()":
                    results[name] = rouge(preds, refs1, use_stemmer=stem)
                else:
                    results[name] = metric.compute(
                        predictions=preds, references=refs1, use_stemmer=stem
                    )
                times[name].append(time.perf_counter() - start)
        library, module = min(times["library rouge()"]), min(times["evaluate compute()"])
        same = results["library rouge()"] == results["evaluate compute()"]
        print(
            f"stemming {'on ' if stem else 'off'}: library {library:.4f} s, "
            f"evaluate compute {module:.4f} s, compute / library = {module / library:.2f} "
            f"(results equal: {same})"
        )
        if not same:
            raise SystemExit("the evaluate module's numbers differ from the library's")


if __name__ == "__main__":
    main()
