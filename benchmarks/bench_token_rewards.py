"""Per-token ROUGE and MBR, side by side in one run.

    .venv/bin/python benchmarks/bench_token_rewards.py [--repeats 5] [--sources 100]

1. Token rewards: 256 completions of 512 ROUGE tokens against one reference each (REALSumm's
   system summaries, one after another until 512 tokens, and the reference of the first
   one's document), rougeL F: ``token_rewards`` (one value per token) against
   ``rouge_reward`` (one value per completion) on the same completions.  The ratio is the
   cost of dense credit over the sequence reward.
2. MBR: ``--sources`` sources of 64 candidates of summary length (each REALSumm document's 25
   system summaries and 39 more made from them: a system summary's sentences in another
   order or with one left out, chosen with a fixed seed), rougeL F, exact MBR: ``mbr``
   against brute force with rouge_score (``RougeScorer.score`` for every ordered pair; timed
   on the first ``--brute`` sources and scaled to all, which is said in the output), with the
   chosen candidates compared.  Then how often the linear ``method="aggregate"`` picks exact
   MBR's candidate, for ROUGE-1 and ROUGE-2.
3. ``RougeState.push``: microseconds per token against references of 100 to 10,000 tokens
   (one step is O(reference length / 64) words).

Best of ``--repeats`` wall times, the contestants taking turns.  The machine is shared: the
load average is printed with the numbers.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import time
from collections.abc import Callable

from corpora import DATA


def _best(fn: Callable[[], object], repeats: int) -> float:
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _rows() -> list[dict]:
    with (DATA / "en_cnndm_realsumm" / "data.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def completions_512(count: int, tokens: int = 512) -> tuple[list[str], list[str]]:
    """``count`` completions of ``tokens`` rouge_score tokens and one reference each."""
    import re

    rows = _rows()
    words = [w for r in rows for w in r["prediction"].split()]
    out, refs, at = [], [], 0
    for i in range(count):
        taken: list[str] = []
        n = 0
        while n < tokens:
            word = words[at % len(words)]
            at += 1
            k = len(re.findall(r"[a-z0-9]+", word.lower()))
            if n + k > tokens:
                continue
            taken.append(word)
            n += k
        out.append(" ".join(taken))
        refs.append(rows[i % len(rows)]["references"][0])
    return out, refs


def mbr_sources(count: int, size: int = 64, seed: int = 0) -> list[list[str]]:
    """Per document: its system summaries, then variants of them up to ``size`` candidates."""
    rng = random.Random(seed)
    by_doc: dict[int, list[dict]] = {}
    for row in _rows():
        by_doc.setdefault(row["doc_id"], []).append(row)
    sources = []
    for doc in sorted(by_doc)[:count]:
        rows = by_doc[doc]
        cands = [r["prediction"] for r in rows]
        while len(cands) < size:
            sents = list(rng.choice(rows).get("prediction_sents") or [])
            if len(sents) > 1 and rng.random() < 0.5:
                sents.pop(rng.randrange(len(sents)))
            else:
                rng.shuffle(sents)
            cands.append(" ".join(sents))
        sources.append(cands[:size])
    return sources


def _brute(cands: list[str], scorer) -> int:
    scores = []
    for i, cand in enumerate(cands):
        values = [
            scorer.score(ref, cand)["rougeL"].fmeasure for j, ref in enumerate(cands) if j != i
        ]
        scores.append(math.fsum(values) / len(values))
    return max(range(len(cands)), key=lambda i: (scores[i], -i))


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--completions", type=int, default=256)
    parser.add_argument("--tokens", type=int, default=512)
    parser.add_argument("--sources", type=int, default=100)
    parser.add_argument("--candidates", type=int, default=64)
    parser.add_argument("--brute", type=int, default=5, help="sources timed for rouge_score")
    parser.add_argument("--state-lengths", default="100,1000,10000")
    parser.add_argument(
        "--smoke", action="store_true", help="tiny inputs, one repeat: for the tests"
    )
    args = parser.parse_args(argv)
    if args.smoke:
        args.repeats, args.completions, args.tokens = 1, 8, 64
        args.sources, args.candidates, args.brute, args.state_lengths = 3, 8, 2, "100"

    from rouge_lcs import RougeState
    from rouge_lcs.integrations.rewards import rouge_reward, token_rewards
    from rouge_lcs.similarity import mbr

    print(f"load average: {os.getloadavg()[0]:.2f} (2 cores); engine: ", end="")
    from rouge_lcs import native

    print(native.implementation())
    results: dict[str, float] = {}

    completions, refs = completions_512(args.completions, args.tokens)
    reward = rouge_reward("rougeL")
    reward(completions=completions, reference=refs)  # warm: the scorer's vocabulary
    t_seq = _best(lambda: reward(completions=completions, reference=refs), args.repeats)
    t_tok = _best(lambda: token_rewards(completions, refs), args.repeats)
    dense = token_rewards(completions, refs)
    sequence = reward(completions=completions, reference=refs)
    worst = max(abs(math.fsum(d) - s) for d, s in zip(dense, sequence))
    results.update(token_rewards_s=t_tok, rouge_reward_s=t_seq, token_ratio=t_tok / t_seq)
    print(
        f"token rewards, {len(completions)} x {args.tokens} tokens: token_rewards "
        f"{t_tok * 1e3:.1f} ms, rouge_reward {t_seq * 1e3:.1f} ms: {t_tok / t_seq:.2f}x "
        f"(increments sum to the reward within {worst:.1e})"
    )

    sources = mbr_sources(args.sources, args.candidates)
    t_mbr = _best(lambda: mbr(sources, tokenizer="rouge_score"), max(1, args.repeats // 2))
    chosen = [r.index for r in mbr(sources, tokenizer="rouge_score")]
    brute_n = min(args.brute, len(sources))
    try:
        from rouge_score.rouge_scorer import RougeScorer
    except ImportError:
        print("MBR: rouge_score is not installed (pip install rouge-score): brute force skipped")
        RougeScorer = None  # noqa: N806
    if RougeScorer is not None and brute_n:
        scorer = RougeScorer(["rougeL"])
        start = time.perf_counter()
        brute = [_brute(c, scorer) for c in sources[:brute_n]]
        t_brute = (time.perf_counter() - start) * len(sources) / brute_n
        same = sum(a == b for a, b in zip(brute, chosen))
        results.update(mbr_s=t_mbr, brute_s=t_brute, mbr_ratio=t_brute / t_mbr)
        print(
            f"MBR, {len(sources)} sources x {args.candidates} candidates, rougeL F: mbr "
            f"{t_mbr:.2f} s, rouge_score brute force {t_brute:.1f} s (timed on {brute_n} "
            f"sources, scaled): {t_brute / t_mbr:.0f}x; same choice on {same}/{brute_n}"
        )
    for rouge_type in ("rouge1", "rouge2"):
        exact = [r.index for r in mbr(sources, rouge_type=rouge_type, tokenizer="rouge_score")]
        t_agg = _best(
            lambda t=rouge_type: mbr(
                sources, rouge_type=t, method="aggregate", tokenizer="rouge_score"
            ),
            max(1, args.repeats // 2),
        )
        approx = mbr(sources, rouge_type=rouge_type, method="aggregate", tokenizer="rouge_score")
        agree = sum(a == b.index for a, b in zip(exact, approx))
        results[f"aggregate_agreement_{rouge_type}"] = agree / len(sources)
        print(
            f"MBR {rouge_type}: method='aggregate' picks exact MBR's candidate on "
            f"{agree}/{len(sources)} sources ({t_agg:.2f} s)"
        )

    words = [w for r in _rows()[:400] for w in r["prediction"].split()]
    for length in map(int, args.state_lengths.split(",")):
        ref = " ".join(words[:length])
        state = RougeState(ref, ["rouge1", "rouge2", "rougeL"])
        pieces = [" " + w for w in words[length : length + 2000]]
        start = time.perf_counter()
        for piece in pieces:
            state.push(piece)
        per = (time.perf_counter() - start) / len(pieces)
        results[f"push_us_{length}"] = per * 1e6
        print(f"RougeState.push against a {length}-word reference: {per * 1e6:.1f} us a word")
    return results


if __name__ == "__main__":
    main()
