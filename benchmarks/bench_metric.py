"""The evaluate module's ``compute`` against the library call on the same data, side by side.

    .venv/bin/python benchmarks/bench_metric.py [--repeats 5] [--one 50] [--stock PATH]

REALSumm's 2,500 pairs (sentences one a line), the four default types, defaults otherwise:
``evaluate.load("rouge_lcs_metric.py").compute(predictions=..., references=...)`` (offline,
from the file) against ``rouge_lcs.rouge(predictions, references)``, alternated within each
repeat, best of ``--repeats``; the two results must be equal.  What ``compute`` adds is
evaluate's own work: its Arrow cache of the inputs, the feature checks and the dict round trip.
Our stemming memo is emptied before each run.

One example per call (``--one`` pairs, each its own ``compute``, as HELM and lighteval call
a metric per sample): the library's ``rouge([p], [r])``, this module's ``compute`` and the
stock ``evaluate`` rouge module's ``compute`` (rouge_score in a loop, BootstrapAggregator),
the four types, stemming off and on; ours with ``compat="rouge_score"`` (the stock tokens and
sentences), so all give the same numbers, checked to 1e-12.  Beside the stock module, the
``rouge_score`` call its ``_compute`` makes (a new ``RougeScorer`` and ``score``): the stock
module's own cost is the difference, as ours is ``compute`` less the library call.  The stock
module is never fetched (HF_*_OFFLINE is set): ``--stock`` names its ``rouge.py`` (a copy
of the Hub's ``evaluate-metric/rouge``), else evaluate's module cache is searched; without it,
those columns are left out.  Per call: the mean over the pairs, best of ``--repeats``,
contestants alternated.

Measured 2026-12-06 08:14-08:16 UTC, load 12.3-16 (2 cores shared), ``--repeats 3``, the stock
module from ``--stock`` (the Hub's ``metrics/rouge/rouge.py`` of huggingface/evaluate); per
call, µs:

| one example | library rouge() | module compute() | stock compute() | rouge_score alone |
|---|---|---|---|---|
| stemming off | 24.7 | 35.4 | 310,692 | 5,614 |
| stemming on | 189.4 (noise) | 34.1 | 271,574 | 9,468 |

Our ``compute`` adds ~10 µs to the library call (within this load's noise); the stock
module costs 0.27-0.31 s a call, ~8,000x ours, of which ~0.26-0.31 s is its own: rouge_score's
``BootstrapAggregator`` resampling one score 1,000 times per type (~90% in a profile) and
evaluate's Arrow round trip (~10%).  2,500 pairs in one call: compute / library 0.95 and 1.54.
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
from rouge_score import rouge_scorer  # noqa: E402

from rouge_lcs import rouge  # noqa: E402
from rouge_lcs.text import stemming  # noqa: E402

SCRIPT = Path(__file__).resolve().parent.parent / "rouge_lcs_metric.py"
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def stock_script(given: str | None) -> Path | None:
    """The stock rouge module's file: ``--stock``, else the newest in evaluate's cache."""
    if given:
        return Path(given)
    cache = Path(evaluate.config.HF_MODULES_CACHE) / "evaluate_modules" / "metrics"
    found = sorted(cache.glob("evaluate-metric--rouge/*/rouge.py"), key=lambda f: f.stat().st_mtime)
    return found[-1] if found else None


def one_example(metric: object, pairs: int, repeats: int, stock_path: str | None) -> None:
    """Each pair its own call: library, this module, the stock module (module doc)."""
    preds, refs = load_pairs("en_cnndm_realsumm")
    preds, refs1 = preds[:pairs], [r[0] for r in refs[:pairs]]
    stock_file = stock_script(stock_path)
    stock = evaluate.load(str(stock_file)) if stock_file else None
    print(f"\none example per call, {len(preds)} pairs, compat='rouge_score'; per call, µs:")
    if stock is None:
        print("  (the stock module is not in evaluate's cache: pass --stock PATH to time it)")
    for stem in (False, True):
        calls = {
            "library rouge()": lambda p, r, s=stem: rouge(
                [p], [r], use_stemmer=s, compat="rouge_score"
            ),
            "module compute()": lambda p, r, s=stem: metric.compute(  # type: ignore[attr-defined]
                predictions=[p], references=[r], use_stemmer=s, compat="rouge_score"
            ),
        }
        if stock is not None:
            calls["stock compute()"] = lambda p, r, s=stem: stock.compute(
                predictions=[p], references=[r], use_stemmer=s
            )
            # what the stock _compute scores with (a scorer per call, as it builds one)
            calls["rouge_score"] = lambda p, r, s=stem: {
                key: value.fmeasure
                for key, value in rouge_scorer.RougeScorer(TYPES, use_stemmer=s).score(r, p).items()
            }
        best = dict.fromkeys(calls, float("inf"))
        results: dict[str, list[dict]] = {}
        for _ in range(repeats):
            for name, call in calls.items():
                start = time.perf_counter()
                results[name] = [call(p, r) for p, r in zip(preds, refs1)]
                best[name] = min(best[name], (time.perf_counter() - start) / len(preds))
        want = results["library rouge()"]
        for name, got in results.items():
            diff = max(abs(a[t] - b[t]) for a, b in zip(want, got) for t in a)
            if diff > 1e-12:
                raise SystemExit(f"{name} differs from the library by {diff:.1e}")
        line = "  ".join(f"{name} {t * 1e6:8.1f}" for name, t in best.items())
        ratio = ""
        if stock is not None:
            ours, theirs = best["module compute()"], best["stock compute()"]
            stock_own = theirs - best["rouge_score"]
            ratio = (
                f"  | stock / module = {theirs / ours:.0f}; stock's own {stock_own * 1e6:.0f} µs"
            )
        compute_own = best["module compute()"] - best["library rouge()"]
        print(
            f"  stemming {'on ' if stem else 'off'}: {line}{ratio}; compute's own "
            f"{compute_own * 1e6:.0f} µs"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--smoke", action="store_true", help="tiny inputs, one repeat: for the tests"
    )
    parser.add_argument("--one", type=int, default=50, help="pairs of the one-example rows")
    parser.add_argument("--stock", default=None, help="the stock rouge module's rouge.py")
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
    one_example(metric, 3 if args.smoke else args.one, args.repeats, args.stock)


if __name__ == "__main__":
    main()
