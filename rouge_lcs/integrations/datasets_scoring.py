"""Scoring a Hugging Face ``datasets.Dataset`` with its own ``map(batched=True, num_proc=N)``.

This is how to go past one process (and, with a sharded dataset, past one machine): datasets'
machinery splits, schedules and caches the work; each batch is scored by :func:`rouge_lcs.score`.
No import of ``datasets`` is needed here: any object with a compatible ``map`` works.

Example (run in tests/test_scale.py; see also README)::

    from datasets import Dataset
    ds = Dataset.from_dict({"prediction": ["a b c"], "references": [["a b d"]]})
    ds = add_rouge_columns(ds, rouge_types=["rouge1"], num_proc=2)
    ds["rouge1"], mean_scores(ds, ["rouge1"])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rouge_lcs.scores.scorer import Rouge

__all__ = [
    "add_rouge_columns",
    "mean_scores",
]


def add_rouge_columns(
    dataset: Any,
    rouge_types: Sequence[str] | str | None = None,
    *,
    prediction_column: str = "prediction",
    reference_column: str | None = None,
    num_proc: int | None = None,
    batch_size: int = 1000,
    return_precision_recall: bool = False,
    **options: Any,
) -> Any:
    """Return ``dataset`` with per-example score columns added.

    Columns: ``<type>`` (the F-measure) and, with ``return_precision_recall``,
    ``<type>_precision`` and ``<type>_recall``.  The reference column may hold one string or a
    list of strings per row; by default it is ``references``, or ``reference`` when the
    dataset has only that.  ``options`` are the scoring options of :func:`rouge_lcs.rouge`
    (``use_stemmer``, ``tokenizer``, ``lsum_split``, ``multi_ref``, ``beta``).
    """
    scorer = Rouge(rouge_types, **options)  # fail on a bad option before any work
    names = scorer.rouge_types
    columns = set(getattr(dataset, "column_names", []))
    if reference_column is None:  # "references" (lists or texts), else "reference"
        reference_column = "reference" if "reference" in columns - {"references"} else "references"
    for column, argument in (
        (prediction_column, "prediction_column"),
        (reference_column, "reference_column"),
    ):
        if columns and column not in columns:
            raise ValueError(f"{argument}: no column {column!r}; the dataset has {sorted(columns)}")

    def score_batch(batch: dict[str, Any]) -> dict[str, list[float]]:
        result = scorer.score(batch[prediction_column], batch[reference_column])
        out = {name: result.column(name).tolist() for name in names}
        if return_precision_recall:
            for name in names:
                out[f"{name}_precision"] = result.column(name, "precision").tolist()
                out[f"{name}_recall"] = result.column(name, "recall").tolist()
        return out

    return dataset.map(
        score_batch, batched=True, batch_size=batch_size, num_proc=num_proc, desc="ROUGE"
    )


def mean_scores(dataset: Any, columns: Sequence[str]) -> dict[str, float]:
    """Exact means (``math.fsum``) of score columns, as ``rouge_lcs.rouge`` aggregates them."""
    return {name: math.fsum(dataset[name]) / len(dataset) for name in columns}
