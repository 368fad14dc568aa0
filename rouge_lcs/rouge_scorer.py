"""rouge_score's ``rouge_scorer`` module on this library's kernels: switch by changing one import.

The documented import path of :mod:`rouge_lcs.dropins.rouge_scorer`::

    import rouge_lcs.rouge_scorer
"""

from __future__ import annotations

from rouge_lcs import tokenizers as _tokenizers
from rouge_lcs.dropins import rouge_scorer as _moved
from rouge_lcs.dropins.rouge_scorer import *  # noqa: F403  (its __all__, the names of this path)

__all__ = _moved.__all__
# rouge_score's rouge_scorer.tokenizers: the tokenizers module of the same import level
tokenizers = _tokenizers  # type: ignore[misc]

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms
if TYPE_CHECKING:
    from typing import Any


def __getattr__(name: str) -> Any:
    """The moved module's other names, as before the move."""
    return getattr(_moved, name)
