"""rouge_score's ``rouge_scorer`` module on this library's kernels: switch by changing one import.

The documented import path of :mod:`rouge_lcs.dropins.rouge_scorer`::

    import rouge_lcs.rouge_scorer
"""

from __future__ import annotations

from rouge_lcs import tokenizers
from rouge_lcs.dropins import rouge_scorer as _moved
from rouge_lcs.dropins.rouge_scorer import (
    DefaultTokenizer,
    RougeScorer,
)

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "DefaultTokenizer",
    "RougeScorer",
    "tokenizers",
]


def __getattr__(name: str) -> Any:
    """The moved module's other names, as before the move."""
    return getattr(_moved, name)
