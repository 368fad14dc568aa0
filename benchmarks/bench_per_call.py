"""One call per pair, side by side in one run: this library's per-call path against
rouge-score-rs (Rust) called the same way, and the evaluate module's one-example ``compute``.

    .venv/bin/python benchmarks/bench_per_call.py [--repeats 3] [--smoke]

What most code does (HELM, lighteval, the Alpaca / Self-Instruct filters, reward functions):
``scorer.score(target, prediction)`` in a loop, one pair a call.

- REALSumm's 2,500 pairs (sentences one a line), one ``score`` call each: this library's
  ``rouge_lcs.rouge_scorer.RougeScorer`` against ``rouge_score_rs.rouge_scorer.RougeScorer``
  (same arguments, one thread: ``RAYON_NUM_THREADS=1``), rougeL and the four default types,
  stemming off and on;
- 30-token pairs (REALSumm's texts cut to their first 30 words): ``RougeScorer.score`` and
  ``rouge_lcs.score([p], [r], ...)`` (the library's own tokenizer, ``unicode``) against rs's
  ``score``;
- one-example ``compute`` (``tokenizer="rouge_score"``: the stock module's tokens and
  numbers): the evaluate module (``evaluate.load("rouge_lcs_metric.py")``, offline, from
  the file) and its own part (``rouge_lcs.hub.compute``), beside the stock
  ``evaluate.load("rouge")`` when it loads offline, else beside the stock module's
  ``_compute`` body as it runs for one example (a new rouge_score ``RougeScorer``, a
  ``BootstrapAggregator`` and its 1,000 resamples): a lower bound of the stock module's cost.

Contestants alternate within each repeat; best of ``--repeats`` per-call wall times, and the
process CPU time (``time.process_time``, all threads) of that repeat beside it: on a loaded
machine the wall times of both sides stretch alike, the CPU times much less.  Every F of ours
is checked equal to rs's (rouge_score's numbers) and the run fails if one is not.

Results: docs/loops.md ("One pair at a time").
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

os.environ["RAYON_NUM_THREADS"] = "1"  # read once, when rouge-score-rs's pool starts
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

from pathlib import Path  # noqa: E402

from corpora import load_pairs  # noqa: E402

import rouge_lcs  # noqa: E402
from rouge_lcs.dropins import rouge_scorer  # noqa: E402

SCRIPT = Path(__file__).resolve().parent.parent / "rouge_lcs_metric.py"
FOUR = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def race(functions: dict[str, Callable[[], object]], repeats: int, calls: int) -> dict[str, tuple]:
    """Per call: (best wall µs, process CPU µs of that repeat), the contestants taking turns."""
    best = dict.fromkeys(functions, (float("inf"), 0.0))
    for _ in range(repeats):
        for name, function in functions.items():
            wall, cpu = time.perf_counter(), time.process_time()
            function()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            if wall < best[name][0]:
                best[name] = (wall, cpu)
    return {k: (w / calls * 1e6, c / calls * 1e6) for k, (w, c) in best.items()}


def show(title: str, times: dict[str, tuple], peer: str) -> None:
    print(title)
    for name, (wall, cpu) in times.items():
        ratio = "" if name == peer else (
            f"   {times[peer][0] / wall:5.2f}x rs (wall), {times[peer][1] / cpu:5.2f}x (CPU)"
        )  # fmt: skip
        print(f"  {name:<34} {wall:8.1f} us  (CPU {cpu:7.1f} us){ratio}")


def same_f(ours: list[dict], theirs: list[dict]) -> None:
    for a, b in zip(ours, theirs):
        for name, score in a.items():
            if score.fmeasure != b[name].fmeasure:
                raise SystemExit(f"{name}: F {score.fmeasure!r} here, {b[name].fmeasure!r} in rs")


def loops(preds: list[str], refs: list[str], types: list[str], stem: bool, repeats: int) -> None:
    from rouge_score_rs import rouge_scorer as rs_scorer

    ours = rouge_scorer.RougeScorer(types, use_stemmer=stem)
    theirs = rs_scorer.RougeScorer(types, use_stemmer=stem)
    pairs = list(zip(refs, preds))
    same_f([ours.score(t, p) for t, p in pairs], [theirs.score(t, p) for t, p in pairs])
    times = race(
        {
            "rouge_lcs RougeScorer.score": lambda: [ours.score(t, p) for t, p in pairs],
            "rouge-score-rs RougeScorer.score": lambda: [theirs.score(t, p) for t, p in pairs],
        },
        repeats,
        len(pairs),
    )
    label = "+".join(types) if len(types) < 4 else "four types"
    show(f"{label}, stemming {'on' if stem else 'off'}:", times, "rouge-score-rs RougeScorer.score")


def short_pairs(preds: list[str], refs: list[str], repeats: int) -> None:
    from rouge_score_rs import rouge_scorer as rs_scorer

    cut = [(" ".join(t.split()[:30]), " ".join(p.split()[:30])) for t, p in zip(refs, preds)]
    ours = rouge_scorer.RougeScorer(FOUR)
    theirs = rs_scorer.RougeScorer(FOUR)
    same_f([ours.score(t, p) for t, p in cut], [theirs.score(t, p) for t, p in cut])
    score = rouge_lcs.score
    times = race(
        {
            "rouge_lcs RougeScorer.score": lambda: [ours.score(t, p) for t, p in cut],
            "rouge_lcs.score([p], [t])": lambda: [score([p], [t], FOUR) for t, p in cut],
            "rouge-score-rs RougeScorer.score": lambda: [theirs.score(t, p) for t, p in cut],
        },
        repeats,
        len(cut),
    )
    show("30-token pairs, four types, stemming off:", times, "rouge-score-rs RougeScorer.score")


def stock_body(prediction: str, reference: str) -> dict[str, float]:
    """The stock evaluate rouge module's ``_compute`` for one example (rouge_score)."""
    from rouge_score import rouge_scorer as stock
    from rouge_score import scoring

    scorer = stock.RougeScorer(rouge_types=FOUR, use_stemmer=False)
    aggregator = scoring.BootstrapAggregator()
    aggregator.add_scores(scorer.score(reference, prediction))
    result = aggregator.aggregate()
    return {key: result[key].mid.fmeasure for key in result}


def metric_compute(preds: list[str], refs: list[str], repeats: int) -> None:
    import evaluate

    from rouge_lcs.integrations import hub

    module = evaluate.load(str(SCRIPT))
    try:
        stock = evaluate.load("rouge")
        stock_name = "stock evaluate rouge compute()"

        def stock_call(p: str, t: str) -> object:
            return stock.compute(predictions=[p], references=[t])
    except Exception as error:  # offline: the stock module is not cached here
        print(f"(evaluate.load('rouge') cannot be loaded offline: {type(error).__name__})")
        stock_name, stock_call = "stock module's _compute body", stock_body
    pairs = list(zip(preds, refs))
    expected = [stock_body(p, t) for p, t in pairs]
    options = {"tokenizer": "rouge_score"}  # the stock module's tokens, so its numbers
    got = [module.compute(predictions=[p], references=[t], **options) for p, t in pairs]
    mismatch = [(g, e) for g, e in zip(got, expected) if g != pytest_approx(e)]
    if mismatch:
        raise SystemExit(f"the module's numbers differ from rouge_score's: {mismatch[0]}")
    times = race(
        {
            "rouge_lcs_metric compute()": lambda: [
                module.compute(predictions=[p], references=[t], **options) for p, t in pairs
            ],
            "its own part (hub.compute)": lambda: [
                hub.compute([p], [[t]], **options) for p, t in pairs
            ],
            stock_name: lambda: [stock_call(p, t) for p, t in pairs],
        },
        repeats,
        len(pairs),
    )
    print("one-example compute(), four types, REALSumm:")
    for name, (wall, cpu) in times.items():
        ratio = times[stock_name][0] / wall
        print(f"  {name:<34} {wall:9.1f} us  (CPU {cpu:8.1f} us)   {ratio:6.1f}x the stock")


def pytest_approx(values: dict[str, float]) -> dict[str, float]:
    """rouge_score's bootstrap ``mid`` of one example is that example's F up to the mean of
    1,000 equal values (float rounding): compared to 1e-12."""

    class Near(dict):
        def __eq__(self, other: object) -> bool:
            return isinstance(other, dict) and other.keys() == self.keys() and all(
                abs(other[k] - v) <= 1e-12 for k, v in self.items()
            )  # fmt: skip

    return Near(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="tiny inputs: for the tests")
    args = parser.parse_args()
    preds, refs = load_pairs("en_cnndm_realsumm")
    targets = [r[0] for r in refs]
    if args.smoke:
        preds, targets, args.repeats = preds[:20], targets[:20], 1
    print(f"{len(preds)} REALSumm pairs, one call each; best of {args.repeats}\n")
    for types in (["rougeL"], FOUR):
        for stem in (False, True):
            loops(preds, targets, types, stem, args.repeats)
    short_pairs(preds, targets, args.repeats)
    n = 5 if args.smoke else 100
    metric_compute(preds[:n], targets[:n], args.repeats)
    print("\nall numbers equal")


if __name__ == "__main__":
    main()
