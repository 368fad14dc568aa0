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
