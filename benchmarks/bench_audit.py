"""``audit()`` over every recipe on 11,490 CNN/DailyMail-length pairs (the size of the CNN/DM
test set), every pair distinct: REALSumm's 2,500 (summary, reference) pairs (100 documents x 25
systems), then, document by document, one system's summary scored against another system's
summary of the same document as its reference (system i against system i + k, k = 1, 2, ...),
until 11,490 (no pair repeats).  A text does repeat (2,387 distinct texts, each in about 10
pairs, as a test set's references meet every system), and the auditor reads each distinct text
once; ``--distinct-texts`` gives every text of every pair a word of its own ("zq17p"), so that
nothing read for one pair serves another, as on one system's 11,490 distinct outputs.

.venv/bin/python benchmarks/bench_audit.py                   # the full run
.venv/bin/python benchmarks/bench_audit.py --distinct-texts  # every text distinct
.venv/bin/python benchmarks/bench_audit.py --smoke           # 20 pairs (the test suite runs this)

Prints the wall time and the CPU time of one audit (every recipe, reported numbers given; the
CPU of both processes where the auditor forks a second) and the load average.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from rouge_lcs import audit

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "en_cnndm_realsumm"


def pairs(rows: list[dict], size: int) -> tuple[list[str], list[str]]:
    """``size`` distinct (prediction, reference) pairs of CNN/DailyMail length (see above)."""
    preds = ["\n".join(r["prediction_sents"]) for r in rows]
    refs = ["\n".join(r["references_sents"][0]) for r in rows]
    by_doc: dict[object, list[str]] = {}
    for row, pred in zip(rows, preds):
        by_doc.setdefault(row["doc_id"], []).append(pred)
    shift = 1
    while len(preds) < size:
        for summaries in by_doc.values():
            n = len(summaries)
            for i in range(n):
                preds.append(summaries[i])
                refs.append(summaries[(i + shift) % n])
        shift += 1
    return preds[:size], refs[:size]


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (the auditor's second
    process, which it waits for)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def main(argv: list[str]) -> None:
    size = 20 if "--smoke" in argv else 11_490
    rows = [json.loads(line) for line in (DATA / "data.jsonl").open(encoding="utf-8")]
    preds, refs = pairs(rows, size)
    if "--distinct-texts" in argv:  # a word of its own on each text's last line
        preds = [f"{p} zq{k}p" for k, p in enumerate(preds)]
        refs = [f"{r} zq{k}r" for k, r in enumerate(refs)]
    start, cpu = time.perf_counter(), _cpu()
    result = audit(preds, refs, "R1=44.16 R2=21.28 RL=40.90")
    elapsed, cpu = time.perf_counter() - start, _cpu() - cpu
    distinct = len(set(zip(preds, refs)))
    texts = len(set(preds) | set(refs))
    # CPU seconds too: on a shared machine the wall time mostly measures the others' load
    print(
        f"{size:,} pairs ({distinct:,} distinct, {texts:,} distinct texts), "
        f"{len(result.candidates)} candidates: {elapsed:.2f} s ({cpu:.2f} CPU s)"
    )
    print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main(sys.argv[1:])
