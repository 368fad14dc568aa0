"""From per-pair counts to per-example precision, recall and F, across several references.

Counts arrive flat, as :class:`~rouge_lcs.engine.stats.PairStats` holds them: an integer array
of shape ``(pairs, types, 3)`` holding ``(hits, prediction_total, reference_total)``, one row
per (example, reference) pair with the pairs of an example consecutive, and ``n_refs`` saying
how many pairs each example has.  Modes:

- ``max_f``: per type, the reference with the best F (first on ties) — rouge_score / HF.
- ``max_recall``: per type, the reference with the best recall — ROUGE-1.5.5 ``-f B``.
- ``pooled``: hits and totals summed over references, then P/R/F — ROUGE-1.5.5 ``-f A``.
- ``mean``: the mean of the per-reference P, R and F (added in reference order).
"""

from __future__ import annotations

# The arithmetic lives with the counts (engine/stats.py), where both engines reach it: the
# reference engine's combine is this one, and the native kernel (csrc/scores.h) equals it.
from rouge_lcs.engine.stats import chosen_reference, combine, prf

__all__ = ["chosen_reference", "combine", "prf"]
