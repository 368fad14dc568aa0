"""``audit()`` over every recipe on 11,490 CNN/DailyMail-length pairs (the size of the CNN/DM
test set): REALSumm's 2,500 pairs (25 systems' summaries) repeated and cut to 11,490.

.venv/bin/python benchmarks/bench_audit.py            # the full run
.venv/bin/python benchmarks/bench_audit.py --smoke    # 20 pairs (the test suite runs this)

Prints the wall time of one audit (every recipe, reported numbers given), the time of the
Perl-script recipes alone, and the load average.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from rouge_lcs import audit

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "en_cnndm_realsumm"


def main(argv: list[str]) -> None:
    size = 20 if "--smoke" in argv else 11_490
    rows = [json.loads(line) for line in (DATA / "data.jsonl").open(encoding="utf-8")]
    rows = (rows * (size // len(rows) + 1))[:size]
    preds = ["\n".join(r["prediction_sents"]) for r in rows]
    refs = ["\n".join(r["references_sents"][0]) for r in rows]
    start = time.perf_counter()
    result = audit(preds, refs, "R1=44.16 R2=21.28 RL=40.90")
    elapsed = time.perf_counter() - start
    print(f"{size:,} pairs, {len(result.candidates)} candidates: {elapsed:.2f} s")
    print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main(sys.argv[1:])
