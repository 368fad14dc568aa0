"""``ROUGEScore``: a ``torchmetrics.Metric`` whose state is a few sums, not lists of scores.

The documented import path of :mod:`rouge_lcs.integrations.torchmetrics`::

    import rouge_lcs.torchmetrics
"""

from __future__ import annotations

from rouge_lcs.integrations import torchmetrics as _moved
from rouge_lcs.integrations.torchmetrics import *  # noqa: F403  (its __all__, the names of this path)

__all__ = _moved.__all__

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms
if TYPE_CHECKING:
    from typing import Any


def __getattr__(name: str) -> Any:
    """The moved module's other names, as before the move."""
    return getattr(_moved, name)
