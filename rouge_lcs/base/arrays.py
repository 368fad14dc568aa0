"""Small numpy helpers for ragged data stored flat (concatenated segments with their lengths)."""

from __future__ import annotations

from rouge_lcs.base.lazy import lazy_import

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")


def positions(lengths: np.ndarray) -> np.ndarray:
    """0, 1, …, len-1 for each segment length, concatenated."""
    return np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)


def expand(starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Indices ``starts[k] .. starts[k] + sizes[k] - 1`` for every k, concatenated."""
    return np.repeat(starts, sizes) + positions(sizes)


def popcount(words: np.ndarray) -> np.ndarray:
    """The number of set bits of each uint64 of ``words``, as uint8: ``np.bitwise_count``
    (numpy 2.0+), else :func:`swar_popcount` (numpy 1.x)."""
    count = getattr(np, "bitwise_count", None)
    return count(words) if count is not None else swar_popcount(words)


def swar_popcount(words: np.ndarray) -> np.ndarray:
    """``np.bitwise_count`` of uint64 words without it: the classic SWAR sum (bit pairs,
    nibbles, bytes, then one multiply that adds the eight bytes into the top one), exact in
    uint64 arithmetic, which wraps.  The constants are uint64 scalars so that numpy 1.x's
    value-based casting and NEP 50 promote alike."""
    x = words.astype(np.uint64)
    x -= (x >> np.uint64(1)) & np.uint64(0x5555555555555555)
    m2 = np.uint64(0x3333333333333333)
    x = (x & m2) + ((x >> np.uint64(2)) & m2)
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((x * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.uint8)
