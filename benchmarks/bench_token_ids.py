"""Scoring token ids, side by side in one run (``RAYON_NUM_THREADS=1`` for rouge-score-rs).

    .venv/bin/python benchmarks/bench_token_ids.py [--repeats 7] [--count 2048] [--smoke]

Ids: REALSumm's system summaries and references, their rouge_score tokens numbered by first
occurrence (a word vocabulary, so the ids have a natural frequency distribution), each text
followed by the next two and cut to its first 100 ids; completions in groups of 8 sharing one
reference (a GRPO step).

1. Sequence rewards, ``--count`` completions: ``RougeReward.score_ids`` (TRL's
   ``completion_ids``: lists of ints, checked and converted inside the call), ``score`` on a
   right-padded 2-D NumPy array with ``pad_id``, against rouge-score-rs's ``score_batch`` on
   the same ids written as space-separated numbers (its tokenizer keeps each number whole:
   the same tokens).  Decoding is counted for neither.  rougeL, and rouge1/rouge2/rougeL.
   The F values are compared for equality.
2. Per-token rewards from ids: 64 completions of 1,024 ids against references of 1,024 ids,
   rougeL F: ``token_rewards(None, refs, token_ids=...)`` (one value per id) against the
   sequence reward of the same pairs.

Best of ``--repeats`` wall times, the contestants taking turns; the load average is printed.
Beside the wall times, the best CPU times of the process (``time.process_time``: every thread
of it, rs's pool thread included): on a machine shared with other jobs a wall time is mostly
the scheduler's, the CPU time is the work each contestant did.  Between two timed calls the
process rests 50 ms: rouge-score-rs's pool thread spins on after ``score_batch`` returns, and
on 2 busy cores it took the CPU from whichever contestant ran next (the reward right after rs:
10.8 ms of wall time against 3.5 ms after a rest, the same 3.5 ms of CPU time).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import time
from collections.abc import Callable

os.environ["RAYON_NUM_THREADS"] = "1"  # read once, when rouge-score-rs's pool starts

import numpy as np  # noqa: E402
from corpora import DATA  # noqa: E402

#: The best CPU times of the last :func:`_best` call, by contestant.
CPU: dict[str, float] = {}


def _best(fns: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """The best wall time of each contestant (its best CPU time left in :data:`CPU`)."""
    best = dict.fromkeys(fns, math.inf)
    CPU.clear()
    CPU.update(best)
    for _ in range(repeats):
        for name, fn in fns.items():  # taking turns: a burst of load hits all alike
            time.sleep(0.05)  # the last contestant's threads idle (module doc)
            cpu, start = time.process_time(), time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - start)
            CPU[name] = min(CPU[name], time.process_time() - cpu)
    return best


def _cpu(*names: str) -> str:
    """The CPU times of the last :func:`_best` call, and rs's over each of ours."""
    times = ", ".join(f"{name} {CPU[name] * 1e3:.1f} ms" for name in (*names, "rs"))
    ratios = " / ".join(f"{CPU['rs'] / CPU[name]:.2f}x" for name in names)
    return f"CPU time {times}: {ratios} rs's speed"


def id_pairs(
    count: int, length: int = 100, group: int = 8
) -> tuple[list[list[int]], list[list[int]]]:
    """``count`` completions of up to ``length`` ids, a reference of up to ``length`` ids for
    each group of ``group`` (the same list object, as a trainer's column repeats it)."""
    with (DATA / "en_cnndm_realsumm" / "data.jsonl").open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    vocab: dict[str, int] = {}

    def ids(text: str, size: int) -> list[int]:
        words = re.findall(r"[a-z0-9]+", text.lower())
        return [vocab.setdefault(w, len(vocab)) for w in words][:size]

    def text(i: int, key: str) -> str:  # a summary and the next ones: up to ``length`` ids
        return " ".join(
            r["prediction"] if key == "prediction" else r["references"][0]
            for r in (rows[(i + k) % len(rows)] for k in range(3))
        )

    completions, references = [], []
    for i in range(count):
        completions.append(ids(text(i, "prediction"), length))
        if i % group == 0:
            reference = ids(text(i, "reference"), length)
        references.append(reference)
    return completions, references


def padded(rows: list[list[int]], pad: int) -> np.ndarray:
    out = np.full((len(rows), max(map(len, rows))), pad, dtype=np.int64)
    for k, row in enumerate(rows):
        out[k, : len(row)] = row
    return out


def sequence_rewards(count: int, repeats: int) -> None:
    from rouge_score_rs import rouge_scorer as rs_scorer

    from rouge_lcs import Rouge
    from rouge_lcs.integrations.rewards import rouge_reward

    completions, references = id_pairs(count)
    words_c = [" ".join(map(str, c)) for c in completions]
    words_r = [" ".join(map(str, r)) for r in references]
    pad = -1 % (1 << 31)  # an id no row holds
    matrix = padded(completions, pad)
    mean = sum(map(len, completions)) / len(completions)
    print(f"{count:,} completions, {mean:.0f} ids each on average, groups of 8")
    for types in (["rougeL"], ["rouge1", "rouge2", "rougeL"]):
        reward = rouge_reward(types[0] if len(types) == 1 else dict.fromkeys(types, 1.0))
        scorer = Rouge(types, pad_id=pad)
        rs = rs_scorer.RougeScorer(types)
        ours = scorer.score(completions, references)
        theirs = rs.score_batch(words_r, words_c)
        equal = all(ours.values(t, "fmeasure") == [s[t].fmeasure for s in theirs] for t in types)
        worst = max(
            abs(a - s[t].fmeasure)
            for t in types
            for a, s in zip(ours.values(t, "fmeasure"), theirs)
        )
        same_matrix = all(
            scorer.score(matrix, references).values(t, "fmeasure") == ours.values(t, "fmeasure")
            for t in types
        )
        times = _best(
            {
                "ours": lambda r=reward: r.score_ids(completions, references),
                "matrix": lambda s=scorer: s.score(matrix, references),
                "rs": lambda r=rs: r.score_batch(words_r, words_c),
            },
            repeats,
        )
        print(
            f"{'/'.join(types)}: reward from completion_ids {times['ours'] * 1e3:.1f} ms, "
            f"2-D array with pad_id {times['matrix'] * 1e3:.1f} ms, rouge-score-rs score_batch "
            f"{times['rs'] * 1e3:.1f} ms: {times['rs'] / times['ours']:.2f}x / "
            f"{times['rs'] / times['matrix']:.2f}x rs's speed ({_cpu('ours', 'matrix')}); F "
            f"equal to rs's: {equal} (largest difference {worst:.1e}); array equal to lists: "
            f"{same_matrix}"
        )


def per_token(count: int, length: int, repeats: int) -> None:
    from rouge_lcs.integrations.rewards import rouge_reward, token_rewards

    rng = np.random.default_rng(0)
    base, _ = id_pairs(count * 12, length=length)
    flat = [t for c in base for t in c]
    completions = [flat[k * length : (k + 1) * length] for k in range(count)]
    references = [
        [int(t) for t in rng.permutation(completions[(k + 1) % count])] for k in range(count)
    ]
    reward = rouge_reward("rougeL")
    rows = token_rewards(None, references, token_ids=completions)
    sums_match = all(
        math.isclose(sum(r), s, abs_tol=1e-9)
        for r, s in zip(rows, reward.score_ids(completions, references))
    )
    times = _best(
        {
            "per_token": lambda: token_rewards(None, references, token_ids=completions),
            "sequence": lambda: reward.score_ids(completions, references),
        },
        repeats,
    )
    print(
        f"per-token rewards from ids, {count} completions of {length} ids, rougeL: "
        f"token_rewards {times['per_token'] * 1e3:.1f} ms, sequence reward "
        f"{times['sequence'] * 1e3:.1f} ms: {times['per_token'] / times['sequence']:.1f}x its "
        f"time; increments sum to the sequence reward: {sums_match}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--count", type=int, default=2048)
    parser.add_argument("--smoke", action="store_true", help="a few pairs, one repeat")
    args = parser.parse_args()
    if args.smoke:
        args.count, args.repeats = 32, 1
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    sequence_rewards(args.count, args.repeats)
    per_token(4 if args.smoke else 64, 64 if args.smoke else 1024, args.repeats)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
