"""Loading the shared corpora for benchmarks (read from ../shared/data, never copied)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def load_pairs(name: str) -> tuple[list[str], list[list[str]]]:
    """Predictions and reference lists of one corpus; sentences joined by newlines if known."""
    preds: list[str] = []
    refs: list[list[str]] = []
    for line in (DATA / name / "data.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        if "prediction_sents" in row:
            preds.append("\n".join(row["prediction_sents"]))
            refs.append(["\n".join(s) for s in row["references_sents"]])
        else:
            preds.append(row["prediction"])
            refs.append(row["references"])
    return preds, refs


def concatenated_pairs(target_tokens: int, count: int) -> tuple[list[str], list[str]]:
    """``count`` pairs of about ``target_tokens`` tokens: consecutive texts joined by lines."""
    preds, refs = load_pairs("en_cnndm_realsumm")
    out_p, out_r, k = [], [], 0
    while len(out_p) < count:
        p_parts, r_parts, n = [], [], 0
        while n < target_tokens:
            p_parts.append(preds[k % len(preds)])
            r_parts.append(refs[(k + 1) % len(refs)][0])  # shifted: related, not identical
            n += len(preds[k % len(preds)].split())
            k += 1
        out_p.append("\n".join(p_parts))
        out_r.append("\n".join(r_parts))
    return out_p, out_r


def timed(run: Callable[..., Any], *args: Any) -> tuple[Any, tuple[float, float, float]]:
    """``run(*args)``'s result and its (wall, process CPU, calling thread CPU) seconds."""
    t, c, m = time.perf_counter(), time.process_time(), time.thread_time()
    result = run(*args)
    return result, (time.perf_counter() - t, time.process_time() - c, time.thread_time() - m)
