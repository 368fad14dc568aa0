"""Longest-common-subsequence kernels, all without a Python-level O(m·n) loop.

- :func:`lcs_length` — rapidfuzz's bit-parallel ``LCSseq`` (C++), for ROUGE-L.
- :func:`lcs_indices` / :func:`lcs_pairs` — *which* positions form the LCS, chosen by exactly the
  same backtracking tie-break as rouge_score's ``_backtrack_norec``, so that ROUGE-Lsum's
  union-LCS hits equal rouge_score's.  The DP table is never built: its rows are bit vectors
  (Hyyrö's bit-parallel LCS on Python integers, one big-int step per reference token), and the
  walk back reads each row once, so a pair costs O(m) big-int operations on n-bit integers.

rouge_score's backtrack on bit rows
-----------------------------------
This is the one explanation; the three implementations point here: :class:`_Walk` (big ints),
``rouge_lcs/engine/reference/lcs_batch.py`` (numpy, every sentence pair of a batch at once) and
``rouge_lcs/engine/csrc/kernels.h`` (``union_lcs`` and ``union_lcs_word``, 64-bit words).

*The walk.*  ``L[i][j]`` is the LCS length of the first ``i`` reference and ``j`` candidate
tokens.  rouge_score walks back from ``(m, n)`` while ``i > 0`` and ``j > 0``: on a token
match at ``(i, j)`` it takes the diagonal (reference position ``i - 1`` is in the LCS);
otherwise it moves left when ``L[i][j-1] > L[i-1][j]`` and up otherwise.  Without a match,
``L[i][j] = max(L[i][j-1], L[i-1][j])``, so it moves left exactly when the vertical difference
``d(j) = L[i][j] - L[i-1][j]`` (0 or 1) is 1.  Call column ``c`` of row ``i`` a *stop* when
``c`` is a match or ``d(c) = 0``: from ``(i, j)`` the walk moves left along row ``i`` to the
highest stop ``c <= j``, then goes up — to ``(i - 1, c - 1)`` on a match, else to
``(i - 1, c)``.  One step per row; no stop at all (``c`` would be 0) ends the walk.

*The vertical difference from two bit rows.*  Bit ``p`` of row ``i`` stands for column
``p + 1`` and is 0 exactly where ``L[i][.]`` steps up (``L[i][p + 1] = L[i][p] + 1``).  With
``d(0) = 0``, ``d`` changes from column ``p`` to ``p + 1`` exactly where rows ``i - 1`` and
``i`` differ at bit ``p``: it rises where row ``i - 1`` has the bit and row ``i`` not, and
falls in the opposite case.  So ``d(c)`` is the parity of the bits below ``c`` of
``row[i-1] ^ row[i]``, and because ``d`` is 0 or 1 the changes alternate: a rise, a fall, …

*Two ways to find the highest stop, the same stop.*
- Prefix parity (``lcs_batch.py``, ``kernels.h``): bit ``p`` of ``prefix_parity(x)`` is the
  parity of bits ``0..p`` of ``x = row[i-1] ^ row[i]``, i.e. ``d(p + 1)``; so the stops are
  ``match | ~prefix_parity(x)`` cut to the low ``j`` bits, and the highest set bit ``p`` is
  column ``c = p + 1``.  On words (C), the parity of the lower words is carried in.
- Highest differing bit (:class:`_Walk`): let ``t`` be the highest bit below ``j`` where the
  rows differ.  If row ``i - 1`` has bit ``t``, that change was a rise, so ``d(j) = 1`` and
  ``d(t) = 0``: column ``t`` is the highest non-match stop (``t = 0``: none); otherwise
  ``d(j) = 0`` and column ``j`` itself is.  The highest match column ``<= j`` comes from the
  token's positions, and the higher of the two is the stop.  An xor, an and and a one-bit
  test per row, instead of a prefix parity (six full-width shifts and xors on big ints).

Memory is linear in the input (m reference tokens, n candidate tokens), with these bounds:

- bit rows held for the walk: at most ``max(_ROW_BYTES_PER_TOKEN · (m + n), _MIN_ROWS · (n/8 +
  32))`` bytes, i.e. 64·(m + n) + 8·n + 2 KiB.  Only checkpoint rows are kept; the rows between
  two checkpoints are recomputed when the walk reaches them (two forward passes up to a few
  hundred thousand tokens a side, one more level — one more pass — each time the length grows
  by a factor of about 500).
- dense match masks cached by a :class:`Candidate`: at most ``_MASK_BYTES_PER_TOKEN · n`` bytes
  (256·n), for its most frequent tokens; the others are built on demand from their positions.
- token positions: one Python int per candidate token (about 40·n bytes with the lists).

Tokens are small integers (ids interned per call), which hash without collisions.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rouge_lcs.base.lazy import lazy_import

if TYPE_CHECKING:
    import rapidfuzz
else:
    rapidfuzz = lazy_import("rapidfuzz")  # imported by the first lcs_length call

Tokens = Sequence[int]

#: Bytes of dense match masks a Candidate may cache, per candidate token.
_MASK_BYTES_PER_TOKEN = 256
#: Bytes of bit rows the walk may hold, per input token (reference + candidate) ...
_ROW_BYTES_PER_TOKEN = 64
#: ... but always at least this many rows (the checkpoint levels need a few rows each).
_MIN_ROWS = 64


def lcs_length(a: Tokens, b: Tokens) -> int:
    """Length of the longest common subsequence of two token-id sequences."""
    if not a or not b:
        return 0
    return rapidfuzz.distance.LCSseq.similarity(a, b)


def _int_bytes(bits: int) -> int:
    """Approximate size of a CPython int of ``bits`` bits (30-bit digits in 4 bytes + header)."""
    return (bits // 30 + 1) * 4 + 28


class Candidate:
    """A candidate sentence prepared for bit-parallel LCS: token positions and match masks.

    The match mask of a token has bit p set where the candidate has that token at position p.
    Keeping one n-bit mask per distinct token would cost V·n bits (1.5 GB for a 200,000-token
    line); so only the most frequent tokens' masks are kept, within ``_MASK_BYTES_PER_TOKEN · n``
    bytes, and the others are rebuilt from their positions when asked for (O(occurrences + n/8)).
    Nothing is written after construction (a rebuild has a buffer of its own), so one Candidate
    may be read from several threads, as the copies of a :class:`rouge_lcs.RougeState` share
    theirs.
    """

    __slots__ = ("tokens", "width", "full", "positions", "_dense")

    def __init__(self, tokens: Tokens) -> None:
        self.tokens = tokens
        self.width = len(tokens)
        self.full = (1 << self.width) - 1
        positions: dict[int, list[int]] = {}
        for position, token in enumerate(tokens):
            found = positions.get(token)
            if found is None:
                positions[token] = [position]
            else:
                found.append(position)
        #: sorted positions of each distinct token
        self.positions = positions
        self._dense: dict[int, int] = {}
        budget = _MASK_BYTES_PER_TOKEN * self.width
        cost = _int_bytes(self.width)
        if len(positions) <= budget // cost:  # every mask fits (a sentence): no ranking
            for token, found in positions.items():
                self._dense[token] = self._build(found, len(found))
            return
        counts = Counter({token: len(found) for token, found in positions.items()})
        # most_common breaks ties by first occurrence: the cached set is deterministic.
        for token, _ in counts.most_common(budget // cost):
            self._dense[token] = self._build(positions[token], len(positions[token]))

    def _build(self, positions: list[int], count: int) -> int:
        """The mask of the first ``count`` (at least one) of ``positions``."""
        # Setting bits in a little-endian byte buffer and converting once is O(k + n/8);
        # OR-ing 1 << p into an int would copy the whole n-bit int for every occurrence.  The
        # buffer ends at the last occurrence's byte: int.from_bytes skips zero high bytes one
        # at a time, several times slower than it converts the others.
        buffer = bytearray((positions[count - 1] >> 3) + 1)
        for p in positions[:count]:
            buffer[p >> 3] |= 1 << (p & 7)
        return int.from_bytes(buffer, "little")

    def mask(self, token: int, width: int | None = None) -> int:
        """Match mask of ``token`` (0 when the candidate does not have it); with ``width``, a
        mask whose bits at ``width`` and above may be left out (cheaper to build)."""
        mask = self._dense.get(token)
        if mask is not None:
            return mask
        found = self.positions.get(token)
        if not found:
            return 0
        count = len(found) if width is None else bisect_left(found, width)
        return self._build(found, count) if count else 0


def lcs_indices(ref: Tokens, cand: Candidate) -> list[int]:
    """Reference positions of one LCS, as rouge_score's backtrack picks it."""
    return [i for i, _ in lcs_pairs(ref, cand)]


def lcs_step(row: int, match: int, full: int) -> int:
    """Hyyrö's bit-parallel LCS step, the one definition in Python (``csrc/lcs_step.h`` is the
    C one): the row after a reference token whose matches in the row are ``match``
    (``row & mask``), kept to the bits of ``full``.

    ``(row + match) | (row - match)``: the match bits are a subset of the row, so the
    subtraction never borrows and equals ``row ^ match``, several times cheaper on big ints.
    """
    return ((row + match) | (row ^ match)) & full


def _advance(row: int, tokens: Tokens, cand: Candidate, full: int, width: int) -> int:
    """The bit row after ``tokens`` (:func:`lcs_step` per token), kept to the ``width`` bits of
    ``full``."""
    dense = cand._dense
    for token in tokens:
        mask = dense.get(token)
        if mask is None:
            mask = cand.mask(token, width)
        match = row & mask
        if match:  # no match: the row is unchanged
            row = lcs_step(row, match, full)
    return row


def _advance_rows(row: int, tokens: Tokens, cand: Candidate, full: int, width: int) -> list[int]:
    """``row`` and the bit row after each of ``tokens``."""
    dense, rows = cand._dense, [row]
    for token in tokens:
        mask = dense.get(token)
        if mask is None:
            mask = cand.mask(token, width)
        match = row & mask
        if match:
            row = lcs_step(row, match, full)
        rows.append(row)
    return rows


def _levels(m: int, n: int) -> list[int]:
    """Checkpoint strides, coarsest first, ending with 1 (every row).

    With L levels and B = ceil(m ** (1/L)), each level holds at most B rows (the last B + 1), so
    the walk holds at most L·B + 1 rows; L is the smallest that fits the row budget.
    """
    row_bytes = _int_bytes(n)
    cap = max(_MIN_ROWS, _ROW_BYTES_PER_TOKEN * (m + n) // row_bytes)
    levels = 1
    while True:
        base = max(1, round(m ** (1 / levels)))
        while base**levels < m:
            base += 1
        while base > 1 and (base - 1) ** levels >= m:
            base -= 1
        if levels * base + 1 <= cap or base <= 2:
            return [base**k for k in range(levels - 1, -1, -1)]
        levels += 1


class _Walk:
    """rouge_score's backtrack from ``(m, n)``, replayed on bit rows recomputed from checkpoints.

    The walk and why it reads only two rows per step are explained once, in the module
    docstring ("rouge_score's backtrack on bit rows"); this is its "highest differing bit" form.

    The low j bits of a row depend only on the low j bits of the rows above it (additions carry
    upwards only; see :func:`_advance`), and j only decreases: rows recomputed for the walk are
    cut to j bits, so the later blocks cost less.
    """

    def __init__(self, ref: Tokens, cand: Candidate) -> None:
        self.ref, self.cand, self.length = ref, cand, 0
        self.i, self.j = len(ref), cand.width
        self.found: list[tuple[int, int]] = []

    def done(self) -> bool:
        return self.j == 0 or len(self.found) == self.length

    def segment(self, lo: int, hi: int, row: int, strides: list[int]) -> None:
        """Walk rows ``hi`` down to ``lo``: ``row`` is row ``lo``, ``strides[0]`` the spacing of
        the checkpoints to keep here (1: keep every row and walk them)."""
        full = (1 << self.j) - 1
        row &= full
        stride = strides[0]
        if stride == 1:
            self._rows(lo, _advance_rows(row, self.ref[lo:hi], self.cand, full, self.j))
            return
        starts = range(lo, hi, stride)
        kept = [row]
        for start in starts[:-1]:
            kept.append(
                _advance(kept[-1], self.ref[start : start + stride], self.cand, full, self.j)
            )
        for start in reversed(starts):
            if self.done():
                return
            self.segment(start, min(start + stride, hi), kept.pop(), strides[1:])

    def _rows(self, lo: int, rows: list[int]) -> None:
        """The walk through rows ``lo .. lo + len(rows) - 1``, all given."""
        ref, positions = self.ref, self.cand.positions
        found, i, j, length = self.found, self.i, self.j, self.length
        below_j = (1 << j) - 1
        while i > lo and j > 0 and len(found) < length:
            above, here = rows[i - lo - 1], rows[i - lo]
            # Highest column <= j with vertical difference 0 (0: none).
            changed = (above ^ here) & below_j
            if changed:
                top = changed.bit_length() - 1
                flat = top if (above >> top) & 1 else j
            else:
                flat = j
            # Highest match column <= j (position p is column p + 1; 0: none).
            matched = 0
            occurrences = positions.get(ref[i - 1])
            if occurrences:
                k = bisect_left(occurrences, j)
                if k:
                    matched = occurrences[k - 1] + 1
            i -= 1
            if matched and matched >= flat:
                j = matched - 1
                found.append((i, j))
                below_j = (1 << j) - 1
            elif flat:
                if flat != j:
                    j = flat
                    below_j = (1 << j) - 1
            else:
                j = 0  # no stop at all: rouge_score's walk ends here
        self.i, self.j = i, j


def lcs_pairs(ref: Tokens, cand: Candidate) -> list[tuple[int, int]]:
    """``(reference position, candidate position)`` of one LCS, as rouge_score's backtrack picks it.

    The module docstring explains the walk ("rouge_score's backtrack on bit rows") and the
    memory bound.
    """
    m, n = len(ref), cand.width
    if not m or not n:
        return []
    strides = _levels(m, n)
    walk = _Walk(ref, cand)
    if len(strides) == 1:
        rows = _advance_rows(cand.full, ref, cand, cand.full, n)
        walk.length = n - rows[-1].bit_count()
        walk._rows(0, rows)
    else:
        # The first pass keeps the top-level checkpoints and the last row (the LCS length).
        stride = strides[0]
        starts = range(0, m, stride)
        kept = [cand.full]
        for start in starts:
            kept.append(_advance(kept[-1], ref[start : start + stride], cand, cand.full, n))
        walk.length = n - kept.pop().bit_count()
        for start in reversed(starts):
            if walk.done():
                break
            walk.segment(start, min(start + stride, m), kept.pop(), strides[1:])
    walk.found.reverse()
    return walk.found
