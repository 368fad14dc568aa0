"""rouge_score's ``scoring`` module for code written against it: ``from rouge_lcs import scoring``.

The documented import path of :mod:`rouge_lcs.dropins.scoring`::

    import rouge_lcs.scoring
"""

from __future__ import annotations

from rouge_lcs.dropins import scoring as _moved
from rouge_lcs.dropins.scoring import *  # noqa: F403  (its __all__, the names of this path)

__all__ = _moved.__all__

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms
if TYPE_CHECKING:
    from typing import Any


def __getattr__(name: str) -> Any:
    """The moved module's other names, as before the move."""
    return getattr(_moved, name)
