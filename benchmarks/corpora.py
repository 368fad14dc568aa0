"""Loading the shared corpora for benchmarks (read from ../shared/data, never copied)."""

from __future__ import annotations

import json
from pathlib import Path

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
