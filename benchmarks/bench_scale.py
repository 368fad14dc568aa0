"""Speed and memory at scale: rouge_lcs vs rouge_score vs torchmetrics, and against the floor.

    .venv/bin/python benchmarks/bench_scale.py            # everything (~15 minutes)
    .venv/bin/python benchmarks/bench_scale.py realsumm   # one suite: realsumm, long, huge
    .venv/bin/python benchmarks/bench_scale.py --repeats 1 long   # faster, noisier
    .venv/bin/python benchmarks/bench_scale.py --smoke   # tiny inputs, one repeat: for the tests

Every measurement runs in a fresh subprocess (so peak RSS is that run's own), one after the
other in one invocation, best of ``--repeats`` (3) runs; read the ratios, not the absolute
times (these machines are noisy).

Suites
- realsumm: 2,500 CNN/DM pairs (sentences on lines), rouge1/rouge2/rougeL/rougeLsum, stemming
  off and on, with rouge_score-compatible settings (identical numbers).  The floor is the time to
  only tokenize and stem every distinct text once with the same tokenizer.
- long: 200 pairs of ~2,000 tokens, each side built by concatenating consecutive REALSumm texts.
  rouge_score and torchmetrics are O(m·n) in Python: they are timed on the first pairs only and
  their throughput extrapolated (said in the output).
- huge: one pair of ~20,000 tokens a side; time and peak RSS; rouge_score is given 300 s.

torchmetrics' ROUGE-Lsum calls ``nltk.download("punkt_tab")``, impossible offline: its sentence
splitter is replaced by a newline split (the texts have one sentence a line, so the work is the
same).  torch must be installed (``pip install torch==2.13.0 torchmetrics``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from corpora import concatenated_pairs, load_pairs

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
HERE = Path(__file__).resolve().parent


def _rss_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def data(suite: str) -> tuple[list[str], list[str]]:
    if suite == "realsumm":
        preds, refs = load_pairs("en_cnndm_realsumm")
        return preds, [r[0] for r in refs]
    if suite == "tiny":  # --smoke
        preds, refs = load_pairs("en_cnndm_realsumm")
        return preds[:10], [r[0] for r in refs[:10]]
    if suite == "long":
        return concatenated_pairs(2000, 200)
    if suite == "huge":
        return concatenated_pairs(20000, 1)
    raise ValueError(suite)


def make_runner(impl: str, stem: bool):
    """A function scoring (preds, refs) with one implementation."""
    if impl == "rouge_lcs":
        from rouge_lcs import score

        return lambda p, r: score(p, r, TYPES, tokenizer="rouge_score", use_stemmer=stem)
    if impl == "floor":
        from rouge_lcs.text.tokenizers import resolve_tokenizer

        tokenize = resolve_tokenizer("rouge_score", stem).tokenize
        return lambda p, r: [tokenize(t) for t in dict.fromkeys([*p, *r])]
    if impl == "rouge_score":
        from rouge_score import rouge_scorer

        scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
        return lambda p, r: [scorer.score(b, a) for a, b in zip(p, r)]
    if impl == "torchmetrics":
        import torchmetrics.functional.text.rouge as tm_rouge
        from torchmetrics.text.rouge import ROUGEScore

        tm_rouge._split_sentence = lambda text: text.split("\n")  # offline: see the docstring
        metric = ROUGEScore(use_stemmer=stem, rouge_keys=tuple(TYPES), accumulate="best")
        return lambda p, r: metric(p, r)
    raise ValueError(impl)


def worker(impl: str, suite: str, stem: bool, limit: int | None) -> dict:
    preds, refs = data(suite)
    if limit:
        preds, refs = preds[:limit], refs[:limit]
    run = make_runner(impl, stem)
    if impl != "floor":
        run(preds[:20], refs[:20])  # imports and lazy set-up, outside the timing
    if impl in ("rouge_lcs", "floor"):
        from rouge_lcs.text import stemming

        stemming._CACHE.clear()  # cold start: no word stemmed yet
    before = _rss_mb("VmRSS")
    start = time.perf_counter()
    run(preds, refs)
    seconds = time.perf_counter() - start
    return {
        "pairs": len(preds),
        "seconds": seconds,
        "rss_before_mb": before,
        "peak_rss_mb": _rss_mb("VmHWM"),
    }


REPEATS = 3


def measure(impl: str, suite: str, stem: bool, limit: int | None = None, timeout: float = 900):
    """Best of ``REPEATS`` fresh worker runs (time: minimum; memory: maximum peak)."""
    runs = [_measure_once(impl, suite, stem, limit, timeout) for _ in range(REPEATS)]
    if any("timeout" in run for run in runs):
        return next(run for run in runs if "timeout" in run)
    best = min(runs, key=lambda run: run["seconds"])
    return {**best, "peak_rss_mb": max(run["peak_rss_mb"] for run in runs)}


def _measure_once(impl: str, suite: str, stem: bool, limit: int | None, timeout: float):
    """Run one worker; on timeout, report its peak RSS so far and kill it."""
    args = [sys.executable, __file__, "--worker", impl, suite, str(int(stem)), str(limit or 0)]
    proc = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=HERE
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        peak = float("nan")
        status = Path(f"/proc/{proc.pid}/status")
        if status.exists():
            for line in status.read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = int(line.split()[1]) / 1024
        proc.kill()
        proc.communicate()
        return {"timeout": timeout, "peak_rss_mb": peak}
    if proc.returncode:
        raise RuntimeError(f"{impl} {suite} failed: {err[-2000:]}")
    return json.loads(out.strip().splitlines()[-1])


def _row(name: str, m: dict, reference: dict | None, note: str = "") -> str:
    if "timeout" in m:
        return (
            f"| {name} | not finished after {m['timeout']:.0f} s (killed) | | "
            f"{m['peak_rss_mb']:.0f} MB when killed | | {note} |"
        )
    rate = m["pairs"] / m["seconds"]
    ratio = ""
    if reference is not None and m is not reference and "timeout" not in reference:
        ratio = f"{rate / (reference['pairs'] / reference['seconds']):.1f}×"
    memory = f"{m['peak_rss_mb']:.0f} MB ({m['peak_rss_mb'] - m['rss_before_mb']:+.0f})"
    return (
        f"| {name} | {m['seconds']:.3f} s for {m['pairs']} | {rate:,.1f} | "
        f"{memory} | {ratio} | {note} |"
    )


HEADER = (
    "| implementation | time | pairs/s | peak RSS (scoring) | vs rouge_score | |\n"
    "|---|---|---|---|---|---|"
)


def suite_realsumm() -> None:
    print("\n## REALSumm, 2,500 pairs, four types\n")
    for stem in (False, True):
        print(f"\nstemming {'on' if stem else 'off'}:\n")
        print(HEADER)
        rs = measure("rouge_score", "realsumm", stem)
        ours = measure("rouge_lcs", "realsumm", stem)
        tm = measure("torchmetrics", "realsumm", stem)
        floor = measure("floor", "realsumm", stem)
        print(_row("rouge_score", rs, rs))
        print(_row("torchmetrics", tm, rs))
        ratio = ours["seconds"] / floor["seconds"]
        print(_row("rouge_lcs", ours, rs, f"total / floor = {ratio:.2f}"))
        print(_row("floor: tokenize+stem only", floor, rs))


def suite_long() -> None:
    print("\n## 200 pairs of ~2,000 tokens, four types, stemming on\n")
    print(HEADER)
    ours = measure("rouge_lcs", "long", True)
    rs = measure("rouge_score", "long", True, limit=4)
    tm = measure("torchmetrics", "long", True, limit=4)
    print(_row("rouge_score (first 4 pairs)", rs, rs))
    print(_row("torchmetrics (first 4 pairs)", tm, rs))
    print(_row("rouge_lcs (all 200)", ours, rs))


def suite_huge() -> None:
    print("\n## One pair of ~20,000 tokens a side, four types, stemming on\n")
    print(HEADER)
    ours = measure("rouge_lcs", "huge", True)
    print(_row("rouge_lcs", ours, None))
    rs = _measure_once("rouge_score", "huge", True, None, timeout=300)
    print(_row("rouge_score", rs, ours))


def suite_tiny() -> None:
    """Every implementation once on 10 REALSumm pairs (``--smoke``: that each still runs)."""
    print("\n## REALSumm, 10 pairs, four types, stemming on\n")
    print(HEADER)
    rs = measure("rouge_score", "tiny", True)
    for impl in ("rouge_score", "torchmetrics", "rouge_lcs", "floor"):
        print(_row(impl, rs if impl == "rouge_score" else measure(impl, "tiny", True), rs))


SUITES = {"realsumm": suite_realsumm, "long": suite_long, "huge": suite_huge}


def main(argv: list[str]) -> None:
    global REPEATS
    if argv[:1] == ["--smoke"]:
        REPEATS = 1
        suite_tiny()
        return
    if argv[:1] == ["--repeats"]:
        REPEATS, argv = int(argv[1]), argv[2:]
    if argv[:1] == ["--worker"]:
        impl, suite, stem, limit = argv[1:5]
        print(json.dumps(worker(impl, suite, stem == "1", int(limit) or None)))
        return
    for name in argv or list(SUITES):
        SUITES[name]()


if __name__ == "__main__":
    main(sys.argv[1:])
