"""The counts of every ROUGE kind (:data:`rouge_lcs.text.rouge_types.ROUGE_KINDS`) from an
engine's kernels, the same for both engines: each kind's record names its kernel
(:attr:`~rouge_lcs.text.rouge_types.RougeKind.kernel`).

The counting kernel of each engine counts the kinds of the kernels :data:`COUNTED` (ROUGE-N,
ROUGE-L and ROUGE-Lsum); the other kernels are the engine's own of the
:class:`~rouge_lcs.engine.interface.Backend`, on the same token ids:

- ROUGE-W (``Backend.wlcs``): hits are the weighted LCS of the whole texts, totals
  ``f(len) = len ** weight``; precision and recall are ``f⁻¹(hits / total)``
  (:func:`rouge_lcs.scores.multiref.prf` with the types' weights).  Its counts are floats:
  a batch with a ROUGE-W type has float64 counts (integers up to 2**53 are exact in them, so
  the other types' scores are unchanged); a batch without one keeps int64 counts.
- ROUGE-S (``Backend.skip_counts``): clipped skip bigrams ``(t[i], t[j])``,
  ``i < j <= i + skip + 1`` (any ``j`` for ``rougeS*``); totals the units of each side.
- ROUGE-SU: ROUGE-S's units and every unigram (ROUGE-1's), added: the two kinds of unit never
  match each other, so hits and totals add.  (ROUGE-1.5.5's ``-U`` leaves out each text's
  last unigram; ``compat="rouge155"`` keeps that.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.engine.interface import IdDocs
from rouge_lcs.text.rouge_types import (
    LCS,
    NGRAMS,
    SKIP,
    UNION_LCS,
    WLCS,
    RougeType,
    unknown_kind,
)

# Not typing's TYPE_CHECKING: importing typing costs a fresh process ~3 ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np

    from rouge_lcs.engine.interface import Backend
else:
    np = lazy_import("numpy")

#: The kernels of each engine's counting kernel (the kinds it counts itself).
COUNTED = (NGRAMS, LCS, UNION_LCS)
#: The kernels called here, the engine's other kernels.
OTHER = (WLCS, SKIP)

_ROUGE1 = RougeType("rouge1", "n", 1)


def weighted_totals(lengths: Sequence[int] | np.ndarray, w: float) -> np.ndarray:
    """``f(len) = len ** w`` of each length, float64 (both engines' ROUGE-W totals), as
    Python's ``float ** float`` (C's ``pow``): NumPy's vectorized ``power`` may round
    differently.  Each distinct length is raised once (a corpus has a few hundred)."""
    distinct, where = np.unique(np.asarray(lengths, dtype=np.int64), return_inverse=True)
    return np.array([float(n) ** w for n in distinct.tolist()], dtype=np.float64)[where]


#: Relative distance from ``f(len)`` within which a pair's texts are compared token by token
#: (:func:`_identical_exact`): far above the rounding of a whole match's sum (~len * 2**-53
#: of it), so that no identical pair is missed; a filter only, the comparison is exact.
_NEAR_WHOLE = 1e-6


def _identical_exact(
    out: np.ndarray,
    ids: np.ndarray,
    starts: np.ndarray,
    pair_pred: np.ndarray,
    pair_ref: np.ndarray,
) -> None:
    """Set the hits of each pair of identical texts to their total ``f(len)``, exactly.

    The kernels add a run's weight step by step, ``f(k + 1) - f(k)`` (ROUGE-1.5.5's table),
    and the rounding of those steps left identical texts of 1,000 distinct words at
    ``hits / total = 1.0000000000000022`` (ROUGE-W above 1); 1 is the exact value.  Only
    pairs of equal lengths whose hits are already that close are compared."""
    lengths = np.diff(starts)
    a, b = lengths[pair_pred], lengths[pair_ref]
    near = (a == b) & (a > 0) & (np.abs(out[:, 0] - out[:, 1]) <= _NEAR_WHOLE * out[:, 1])
    for row in np.flatnonzero(near).tolist():
        p, r = int(pair_pred[row]), int(pair_ref[row])
        if p == r or np.array_equal(ids[starts[p] : starts[p + 1]], ids[starts[r] : starts[r + 1]]):
            out[row, 0] = out[row, 1]


def only_counted(rouge_types: Sequence[RougeType]) -> bool:
    """Whether the counting kernel counts every type (then nothing here runs)."""
    return all(t.rules.kernel in COUNTED for t in rouge_types)


def kind_counts(
    rouge_type: RougeType,
    engine: Backend,
    ids: np.ndarray,
    starts: np.ndarray,
    pair_pred: np.ndarray,
    pair_ref: np.ndarray,
    num_threads: int = 1,
) -> np.ndarray:
    """``(pairs, 3)`` counts of one ROUGE-W/S/SU type, documents given as token ids ``ids``
    at offsets ``starts`` (float64 for ROUGE-W, else int64)."""
    rules = rouge_type.rules
    if rules.kernel == WLCS:
        w = rouge_type.weight
        totals = weighted_totals(np.diff(starts), w)
        out = np.empty((pair_pred.size, 3), dtype=np.float64)
        out[:, 0] = engine.wlcs(ids, starts, pair_pred, pair_ref, w, num_threads)
        out[:, 1], out[:, 2] = totals[pair_pred], totals[pair_ref]
        _identical_exact(out, ids, starts, pair_pred, pair_ref)
        return out
    if rules.kernel == SKIP:
        units = engine.skip_counts(ids, starts, pair_pred, pair_ref, rouge_type.skip, False)
        if rules.unigrams:
            empty = np.zeros(0, dtype=np.int64)
            vocab = int(ids.max()) + 1 if ids.size else 1
            docs = IdDocs(ids, starts, empty, np.zeros(1, np.int64), np.zeros_like(starts), vocab)
            units = units + engine.id_counts(docs, pair_pred, pair_ref, [_ROUGE1])[:, 0]
        return units
    raise unknown_kind(rouge_type)


def all_counts(
    rouge_types: Sequence[RougeType],
    counted: Callable[[Sequence[RougeType]], np.ndarray],
    engine: Backend,
    ids: np.ndarray,
    starts: np.ndarray,
    pair_pred: np.ndarray,
    pair_ref: np.ndarray,
    num_threads: int = 1,
) -> np.ndarray:
    """``(pairs, types, 3)`` counts of every type: ``counted(types)`` gives the counting
    kernel's (:data:`COUNTED` kernels), :func:`kind_counts` the others; float64 when a type's
    kernel is the weighted LCS (ROUGE-W), else int64."""
    rules = [t.rules for t in rouge_types]
    weighted = any(r.kernel == WLCS for r in rules)
    out = np.zeros(
        (pair_pred.size, len(rouge_types), 3), dtype=np.float64 if weighted else np.int64
    )
    base = [k for k, r in enumerate(rules) if r.kernel in COUNTED]
    if base:
        out[:, base] = counted([rouge_types[k] for k in base])
    for k, rouge_type in enumerate(rouge_types):
        if rules[k].kernel not in COUNTED:
            out[:, k] = kind_counts(
                rouge_type, engine, ids, starts, pair_pred, pair_ref, num_threads
            )
    return out
