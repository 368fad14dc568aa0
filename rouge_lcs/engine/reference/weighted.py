"""ROUGE-W, the weighted longest common subsequence (Lin 2004; ROUGE-1.5.5's ``wlcs``): the
reference engine's implementation, which the C kernel (``csrc/wlcs.h``) equals bit for bit.

With ``f(k) = k ** w`` the table is::

    x[i] == y[j]:  k = l[i-1][j-1];  c[i][j] = c[i-1][j-1] + f(k + 1) - f(k);  l[i][j] = k + 1
    otherwise:     c[i][j] = max(c[i-1][j], c[i][j-1]);  l[i][j] = 0

(the float operations in this order, the script's).  ROUGE-W's hits are ``c[m][n]`` and its
totals ``f(len)``; precision and recall are ``f⁻¹(hits / f(len)) = (hits / len ** w) ** (1/w)``
(:func:`rouge_lcs.scores.multiref.inverse`).  ROUGE-1.5.5's own ROUGE-W is summary-level
(:func:`summary_wlcs`): for each model sentence the script marks the positions its walk back
through the table takes against every peer sentence (:func:`wlcs_marks`), and each run of
marked tokens that the unigram counts still allow adds ``f(run)``.

Powers are Python's ``float ** float`` (C's ``pow``), not NumPy's ``power``, whose vectorized
loops may round differently; the C kernel calls ``pow`` too.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Sequence

from rouge_lcs.base.lazy import lazy_import

# Not typing's TYPE_CHECKING: importing typing costs a fresh process ~3 ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np

    from rouge_lcs.engine.interface import IdDocs
else:
    np = lazy_import("numpy")

#: Move-table cells (bytes) kept at once by the walk back; past this, the table is recomputed
#: block by block from checkpoint rows every ``sqrt(m)`` rows, so memory stays about
#: ``16 * n * sqrt(m)`` bytes instead of ``m * n`` (a 20,000-token sentence pair: ~45 MB, not
#: 400 MB), for twice the time.  Every value and move is the same either way (csrc/wlcs.h's
#: WLCS_TABLE_BYTES).
WLCS_TABLE_CELLS = 1 << 24


def powers(top: int, w: float) -> list[float]:
    """``f(k) = k ** w`` for ``k`` from 0 to ``top``."""
    return [float(k) ** w for k in range(top + 1)]


def wlcs_value(x: Sequence[int], y: Sequence[int], w: float) -> float:
    """``c[m][n]`` of the table (two rows: memory linear in the texts)."""
    if len(y) > len(x):  # rows along the shorter text, as the kernel (the value is the same)
        x, y = y, x
    n = len(y)
    if not x or not n:
        return 0.0
    f = powers(n + 1, w)
    prev_c, prev_l = [0.0] * (n + 1), [0] * (n + 1)
    for token in x:
        cur_c, cur_l = [0.0] * (n + 1), [0] * (n + 1)
        for j in range(1, n + 1):
            if token == y[j - 1]:
                k = prev_l[j - 1]
                cur_c[j] = prev_c[j - 1] + f[k + 1] - f[k]
                cur_l[j] = k + 1
            elif prev_c[j] >= cur_c[j - 1]:
                cur_c[j] = prev_c[j]
            else:
                cur_c[j] = cur_c[j - 1]
        prev_c, prev_l = cur_c, cur_l
    return prev_c[n]


def _rows(
    model: Sequence[int],
    peer: Sequence[int],
    f: list[float],
    row_c: list[float],
    row_l: list[int],
    first: int,
    last: int,
    moves: list[bytes] | None,
) -> tuple[list[float], list[int]]:
    """The table's rows ``first + 1`` to ``last`` from row ``first`` (``row_c``, ``row_l``);
    the move row of each (1 diagonal, 2 up, 3 left) is appended to ``moves`` when given."""
    n = len(peer)
    prev_c, prev_l = row_c, row_l
    for i in range(first + 1, last + 1):
        cur_c = [0.0] * (n + 1)
        cur_l = [0] * (n + 1)
        move = bytearray(n + 1)
        token = model[i - 1]
        for j in range(1, n + 1):
            if token == peer[j - 1]:
                k = prev_l[j - 1]
                cur_c[j] = prev_c[j - 1] + f[k + 1] - f[k]
                cur_l[j] = k + 1
                move[j] = 1
            elif prev_c[j] >= cur_c[j - 1]:
                cur_c[j] = prev_c[j]
                move[j] = 2
            else:
                cur_c[j] = cur_c[j - 1]
                move[j] = 3
        if moves is not None:
            moves.append(bytes(move))
        prev_c, prev_l = cur_c, cur_l
    return prev_c, prev_l


def wlcs_marks(model: Sequence[int], peer: Sequence[int], w: float, mask: list[int]) -> None:
    """The script's ``wlcs_inner`` + ``markLCS``: the walk back from ``(m, n)`` — diagonal on a
    match, else up when ``c[i-1][j] >= c[i][j-1]``, else left — sets ``mask[i]`` for the model
    positions of its diagonal steps.

    The walk reads the move of each row it visits, from the last row up.  A table of at most
    :data:`WLCS_TABLE_CELLS` is kept whole; a bigger one keeps every ``block``-th row's values
    as checkpoints and recomputes one block of moves at a time as the walk enters it (rows are
    a deterministic function of the row above, so the moves are the same)."""
    m, n = len(model), len(peer)
    if m == 0 or n == 0:
        return
    f = powers(n + 1, w)
    zero_c, zero_l = [0.0] * (n + 1), [0] * (n + 1)
    block = m if m * (n + 1) <= WLCS_TABLE_CELLS else max(1, math.isqrt(m))
    # Checkpoint rows as flat arrays (16 bytes a cell, against ~40 in lists of numbers).
    checkpoints = [(array("d", zero_c), array("q", zero_l))]
    row_c, row_l = zero_c, zero_l
    for first in range(0, m - block, block):
        row_c, row_l = _rows(model, peer, f, row_c, row_l, first, first + block, None)
        checkpoints.append((array("d", row_c), array("q", row_l)))
    i, j = m, n
    while i and j:
        first = (i - 1) // block * block  # the block holding row i: rows first + 1 .. last
        last = min(first + block, m)
        moves: list[bytes] = []
        saved_c, saved_l = checkpoints[first // block]
        _rows(model, peer, f, saved_c.tolist(), saved_l.tolist(), first, last, moves)
        while i > first and j:
            step = moves[i - first - 1][j]
            if step == 1:
                i -= 1
                j -= 1
                mask[i] = 1
            elif step == 2:
                i -= 1
            else:
                j -= 1


def summary_wlcs(
    model_sentences: Sequence[Sequence[int]],
    peer_sentences: Sequence[Sequence[int]],
    model_tokens: Sequence[int],
    peer_tokens: Sequence[int],
    w: float,
) -> tuple[float, float]:
    """ROUGE-1.5.5's summary-level ROUGE-W of one (peer, model) pair: ``(hit, base)``, ``base``
    the sum of ``f(len(s))`` over model sentences; the whole texts' unigram counts clip."""
    m1 = Counter(model_tokens)
    p1 = Counter(peer_tokens)
    hit = 0.0
    base = 0.0
    for sentence in model_sentences:
        size = len(sentence)
        base += float(size) ** w
        mask = [0] * size
        for peer_sentence in peer_sentences:
            wlcs_marks(sentence, peer_sentence, w, mask)
        run = 0
        for j, token in enumerate(sentence):
            # The script's loop, literally: a marked token that fails the unigram clip does not
            # end the current run, so the run can continue after it.
            if mask[j] == 1 and m1.get(token, 0) > 0 and p1.get(token, 0) > 0:
                run += 1
                if j + 1 < size and mask[j + 1] == 0 or j + 1 == size:
                    hit += float(run) ** w
                    run = 0
                m1[token] -= 1
                p1[token] -= 1
    return hit, base


def wlcs_pairs(
    ids: np.ndarray, starts: np.ndarray, pair_a: np.ndarray, pair_b: np.ndarray, w: float
) -> np.ndarray:
    """:func:`wlcs_value` of documents ``pair_a[k]`` and ``pair_b[k]`` (float64, one per pair)
    of token ids ``ids`` at offsets ``starts``."""
    flat, bounds = ids.tolist(), starts.tolist()
    docs = [flat[a:b] for a, b in zip(bounds[:-1], bounds[1:])]
    return np.array(
        [wlcs_value(docs[a], docs[b], w) for a, b in zip(pair_a.tolist(), pair_b.tolist())],
        dtype=np.float64,
    )


def summary_wlcs_pairs(
    docs: IdDocs, pair_peer: np.ndarray, pair_model: np.ndarray, w: float
) -> np.ndarray:
    """:func:`summary_wlcs` of each pair of numbered documents: ``(pairs, 2)`` float64."""
    ids, starts = docs.ids.tolist(), docs.starts.tolist()
    sent_ids, sent_starts = docs.sent_ids.tolist(), docs.sent_starts.tolist()
    doc_sent = docs.doc_sent.tolist()

    def sentences(d: int) -> list[list[int]]:
        return [
            sent_ids[sent_starts[s] : sent_starts[s + 1]]
            for s in range(doc_sent[d], doc_sent[d + 1])
        ]

    out = np.zeros((pair_peer.size, 2), dtype=np.float64)
    for k, (p, m) in enumerate(zip(pair_peer.tolist(), pair_model.tolist())):
        out[k] = summary_wlcs(
            sentences(m), sentences(p), ids[starts[m] : starts[m + 1]],
            ids[starts[p] : starts[p + 1]], w,
        )  # fmt: skip
    return out
