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

from rouge_lcs.api import make_settings, score


def add_rouge_columns(
    dataset,
    rouge_types: object = None,
    *,
    prediction_column: str = "prediction",
    reference_column: str = "references",
    num_proc: int | None = None,
    batch_size: int = 1000,
    return_precision_recall: bool = False,
    **options: object,
):
    """Return ``dataset`` with per-example score columns added.

    Columns: ``<type>`` (the F-measure) and, with ``return_precision_recall``,
    ``<type>_precision`` and ``<type>_recall``.  The reference column may hold one string or a
    list of strings per row.  ``options`` are the scoring options of :func:`rouge_lcs.rouge`
    (``use_stemmer``, ``tokenizer``, ``lsum_split``, ``multi_ref``, ``beta``).
    """
    settings = make_settings(rouge_types, **options)  # fail on a bad option before any work
    names = settings.names
    columns = set(getattr(dataset, "column_names", []))
    for column, argument in (
        (prediction_column, "prediction_column"),
        (reference_column, "reference_column"),
    ):
        if columns and column not in columns:
            raise ValueError(f"{argument}: no column {column!r}; the dataset has {sorted(columns)}")

    def score_batch(batch: dict) -> dict:
        result = score(batch[prediction_column], batch[reference_column], names, **options)
        out = {name: result.column(name).tolist() for name in names}
        if return_precision_recall:
            for name in names:
                out[f"{name}_precision"] = result.column(name, "precision").tolist()
                out[f"{name}_recall"] = result.column(name, "recall").tolist()
        return out

    return dataset.map(
        score_batch, batched=True, batch_size=batch_size, num_proc=num_proc, desc="ROUGE"
    )


def mean_scores(dataset, columns: Sequence[str]) -> dict[str, float]:
    """Exact means (``math.fsum``) of score columns, as ``rouge_lcs.rouge`` aggregates them."""
    return {name: math.fsum(dataset[name]) / len(dataset) for name in columns}
