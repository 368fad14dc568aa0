"""Longest-common-subsequence kernels, all without a Python-level O(m·n) loop.

- :func:`lcs_length` — rapidfuzz's bit-parallel ``LCSseq`` (C++), for ROUGE-L.
- :func:`lcs_indices` — *which* reference positions form the LCS, chosen by exactly the same
  backtracking tie-break as rouge_score's ``_backtrack_norec``, so that ROUGE-Lsum's union-LCS
  hits equal rouge_score's.  The DP table is never built: the rows are kept as bit vectors
  (Hyyrö's bit-parallel LCS on Python integers, one big-int step per reference token), and any
  backtrack reads each row once, so it costs O(m log n) big-int operations instead of the
  O(m·n) table.

Tokens are small integers (ids interned per call), which hash without collisions.
"""

from __future__ import annotations

from collections.abc import Sequence

from rapidfuzz.distance import LCSseq

Tokens = Sequence[int]


def lcs_length(a: Tokens, b: Tokens) -> int:
    """Length of the longest common subsequence of two token-id sequences."""
    if not a or not b:
        return 0
    return LCSseq.similarity(a, b)


class Candidate:
    """A candidate sentence prepared for bit-parallel LCS: tokens and per-token match masks."""

    __slots__ = ("tokens", "masks", "full")

    def __init__(self, tokens: Tokens) -> None:
        self.tokens = tokens
        masks: dict[int, int] = {}
        for position, token in enumerate(tokens):
            masks[token] = masks.get(token, 0) | (1 << position)
        self.masks = masks
        self.full = (1 << len(tokens)) - 1


def _prefix_parity(bits: int, width: int) -> int:
    """Bit p of the result is the parity of bits 0..p of ``bits`` (log-step doubling)."""
    shift = 1
    while shift < width:
        bits ^= bits << shift
        shift <<= 1
    return bits


def lcs_indices(ref: Tokens, cand: Candidate) -> list[int]:
    """Reference positions of one LCS, as rouge_score's backtrack picks it."""
    return [i for i, _ in lcs_pairs(ref, cand)]


def lcs_pairs(ref: Tokens, cand: Candidate) -> list[tuple[int, int]]:
    """``(reference position, candidate position)`` of one LCS, as rouge_score's backtrack picks it.

    rouge_score walks back from ``(m, n)``: on a token match it takes the diagonal; otherwise it
    moves left when ``L[i][j-1] > L[i-1][j]`` and up otherwise.  Without a match at ``(i, j)``
    that test holds exactly when the vertical difference ``L[i][j] - L[i-1][j]`` is 1.  Bit row
    ``i`` has a zero at each column where ``L[i][.]`` steps up, so the vertical difference (0
    or 1) is the running parity of ``row[i-1] ^ row[i]``.  Each step of the walk decreases ``i``:
    in row ``i`` it jumps straight to the last column ``<= j`` that is a match or has vertical
    difference 0 — a handful of big-int operations per row, O(m log n) per call.
    """
    masks, full = cand.masks, cand.full
    width = len(cand.tokens)
    row = full
    rows = [row]
    for token in ref:
        match = row & masks.get(token, 0)
        row = ((row + match) | (row - match)) & full
        rows.append(row)
    length = width - row.bit_count()
    if length == 0:
        return []
    found: list[tuple[int, int]] = []
    i, j = len(ref), width
    while j > 0 and len(found) < length:
        match = masks.get(ref[i - 1], 0)
        flat = ~_prefix_parity(rows[i - 1] ^ rows[i], width)  # vertical difference 0
        stops = (match | flat) & ((1 << j) - 1)
        if not stops:
            break
        column = stops.bit_length()  # bit p is column p + 1
        i -= 1
        if match >> (column - 1) & 1:
            j = column - 1
            found.append((i, j))
        else:
            j = column
    found.reverse()
    return found
