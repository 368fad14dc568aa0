"""ROUGE inside training loops, side by side in one run: an RL reward step and a torchmetrics
update + compute, against what people use there today.

    .venv/bin/python benchmarks/bench_loops.py [--repeats 5]

Reward: REALSumm's completions in groups of 8 sharing a reference (each document's reference
with 24 of its 25 system summaries: 300 groups, 2,400 completions), rougeL F, one thread each
(``RAYON_NUM_THREADS=1`` for rouge-score-rs).  Contestants:
- ``rouge_reward`` (this library), the whole batch in one call as TRL makes it: the first call
  of a new reward, and later calls (the reward is built once per training run);
- rouge-score-rs's ``RougeScorer.score_batch`` (Rust) on the same pairs;
- the loop people write with rouge_score, one ``scorer.score(reference, completion)`` per
  completion, the scorer built once;
- the per-completion ``evaluate.load("rouge").compute(predictions=[c], references=[r])`` loop:
  the stock module cannot be loaded offline here, so its ``compute`` body is run per
  completion instead (a new ``RougeScorer``, a ``BootstrapAggregator``, ``aggregate()`` with its
  1,000 resamples) — a lower bound, without evaluate's own per-call overhead.  Timed on the
  first 240 completions and scaled to 2,400.
A step of 4,096 completions (512 groups; REALSumm's groups again, in turn) is timed too.

torchmetrics: REALSumm's 2,500 pairs, rouge1/rouge2/rougeL (torchmetrics' rougeLsum needs an
NLTK download), ``update`` in batches of 64 then ``compute``: this library's ``ROUGEScore`` with
``tokenizer="rouge_score"`` vs ``torchmetrics.text.rouge.ROUGEScore``; the numbers are checked
equal (2e-6: torchmetrics keeps float32 values).

Best of ``--repeats`` wall times, the fast contestants taking turns (the slow loops: best of
2).  Install the contestants with ``pip install -e .[bench,torch]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable

os.environ["RAYON_NUM_THREADS"] = "1"  # read once, when rouge-score-rs's pool starts

import numpy as np  # noqa: E402
from corpora import DATA  # noqa: E402

GROUP = 8


def _groups() -> tuple[list[str], list[str]]:
    import json

    by_doc: dict[int, list[dict]] = {}
    for line in (DATA / "en_cnndm_realsumm" / "data.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        by_doc.setdefault(row["doc_id"], []).append(row)
    completions, references = [], []
    for rows in by_doc.values():
        for r in rows[:24]:
            completions.append(r["prediction"])
            references.append(rows[0]["references"][0])  # the document's reference
    return completions, references


def _best(function: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def _race(functions: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Best wall time of each, the contestants taking turns (a noisy 2-core machine slows
    whichever runs during a burst; turns spread that over all of them)."""
    best = dict.fromkeys(functions, float("inf"))
    for _ in range(repeats):
        for name, function in functions.items():
            start = time.perf_counter()
            function()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def _load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def bench_reward(repeats: int, size: int | None = None) -> None:
    from rouge_score import rouge_scorer, scoring
    from rouge_score_rs import rouge_scorer as rs_scorer

    from rouge_lcs.integrations.rewards import rouge_reward

    completions, references = _groups()
    completions, references = completions[:size], references[:size]
    n = len(completions)
    print(f"\n## Reward: {n} completions in groups of {GROUP}, rougeL F, one thread\n")
    reward = rouge_reward("rougeL", tokenizer="rouge_score")
    ours = reward(completions=completions, reference=references)
    rs = rs_scorer.RougeScorer(["rougeL"])
    theirs = [s["rougeL"].fmeasure for s in rs.score_batch(references, completions)]
    stock = rouge_scorer.RougeScorer(["rougeL"])
    loop = [stock.score(r, c)["rougeL"].fmeasure for c, r in zip(completions, references)]
    assert np.allclose(ours, theirs, atol=1e-12, rtol=0) and np.allclose(ours, loop, atol=1e-12)

    def first_call() -> None:
        rouge_reward("rougeL", tokenizer="rouge_score")(
            completions=completions, reference=references
        )

    def evaluate_body(count: int) -> None:
        # what evaluate's stock rouge module runs in each compute(predictions=[c], references=[r])
        for c, r in zip(completions[:count], references[:count]):
            scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)
            aggregator = scoring.BootstrapAggregator()
            aggregator.add_scores(scorer.score(r, c))
            aggregator.aggregate()

    times = _race(
        {
            "rouge_reward, later calls": lambda: reward(
                completions=completions, reference=references
            ),
            "rouge_reward, first call of a new reward": first_call,
            "rouge-score-rs score_batch": lambda: rs.score_batch(references, completions),
        },
        repeats,
    )
    times |= {
        "rouge_score loop (scorer.score per completion)": _best(
            lambda: [stock.score(r, c) for c, r in zip(completions, references)], 2
        ),
        "evaluate rouge compute per completion (its body; 240 timed, x10)": 10
        * _best(lambda: evaluate_body(240), 2),
    }
    base = times["rouge_reward, later calls"]
    print("| | time | per completion | vs rouge_reward |")
    print("|---|---|---|---|")
    for name, seconds in times.items():
        print(
            f"| {name} | {seconds * 1e3:.1f} ms | {seconds / n * 1e6:.2f} µs "
            f"| {seconds / base:.1f}× |"
        )

    step = [(completions[k % n], references[k % n]) for k in range(4096)]
    step_c, step_r = [c for c, _ in step], [r for _, r in step]
    default = rouge_reward("rougeL")  # the default (unicode) tokenizer: same tokens on ASCII
    steps = _race(
        {
            "ours": lambda: reward(completions=step_c, reference=step_r),
            "rs": lambda: rs.score_batch(step_r, step_c),
            "default": lambda: default(completions=step_c, reference=step_r),
        },
        repeats,
    )
    t_step, t_step_rs, t_default = steps["ours"], steps["rs"], steps["default"]
    print(
        f"\nA step of 4,096 completions (512 groups): rouge_reward {t_step * 1e3:.1f} ms "
        f"(default tokenizer: {t_default * 1e3:.1f} ms), rouge-score-rs score_batch "
        f"{t_step_rs * 1e3:.1f} ms."
    )


def bench_torchmetrics(repeats: int, size: int | None = None) -> None:
    from corpora import load_pairs
    from torchmetrics.text.rouge import ROUGEScore as TorchmetricsROUGE

    from rouge_lcs.integrations.torchmetrics import ROUGEScore

    preds, refs = load_pairs("en_cnndm_realsumm")
    preds, targets = preds[:size], [r[0] for r in refs[:size]]
    keys = ("rouge1", "rouge2", "rougeL")
    print(f"\n## torchmetrics: {len(preds)} REALSumm pairs, {', '.join(keys)}, batches of 64\n")

    def run(metric) -> dict:
        for start in range(0, len(preds), 64):
            metric.update(preds[start : start + 64], targets[start : start + 64])
        return metric.compute()

    ours = run(ROUGEScore(rouge_keys=keys, tokenizer="rouge_score"))
    theirs = run(TorchmetricsROUGE(rouge_keys=keys))
    assert all(abs(float(ours[k]) - float(theirs[k])) < 2e-6 for k in theirs)
    t_ours = _best(lambda: run(ROUGEScore(rouge_keys=keys, tokenizer="rouge_score")), repeats)
    t_theirs = _best(lambda: run(TorchmetricsROUGE(rouge_keys=keys)), 2)
    print("| | update + compute | vs ours |")
    print("|---|---|---|")
    print(f"| rouge_lcs.torchmetrics.ROUGEScore | {t_ours * 1e3:.1f} ms | 1.0× |")
    print(f"| torchmetrics ROUGEScore | {t_theirs * 1e3:.1f} ms | {t_theirs / t_ours:.1f}× |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument(
        "--smoke", action="store_true", help="tiny inputs, one repeat: for the tests"
    )
    args = parser.parse_args()
    size = 24 if args.smoke else None
    if args.smoke:
        args.repeats = 1
    print(f"{time.strftime('%Y-%m-%d')}, Python {sys.version.split()[0]}")
    print(f"load before: {_load()}")
    bench_reward(args.repeats, size)
    bench_torchmetrics(args.repeats, size)
    print(f"\nload after: {_load()}")


if __name__ == "__main__":
    main()
