"""rouge_score's ``tokenizers`` module: ``from rouge_lcs import tokenizers``.

The documented import path of :mod:`rouge_lcs.dropins.tokenizers`::

    import rouge_lcs.tokenizers
"""

from __future__ import annotations

from rouge_lcs.dropins import tokenizers as _moved
from rouge_lcs.dropins.tokenizers import *  # noqa: F403  (its __all__, the names of this path)

__all__ = _moved.__all__

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms
if TYPE_CHECKING:
    from typing import Any


def __getattr__(name: str) -> Any:
    """The moved module's other names, as before the move."""
    return getattr(_moved, name)
