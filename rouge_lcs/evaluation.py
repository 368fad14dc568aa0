"""``evaluate``'s summarization evaluator with this metric, under transformers 4 and 5.

The documented import path of :mod:`rouge_lcs.integrations.evaluation`::

    import rouge_lcs.evaluation
"""

from __future__ import annotations

from rouge_lcs.integrations import evaluation as _moved
from rouge_lcs.integrations.evaluation import *  # noqa: F403  (its __all__, the names of this path)

__all__ = _moved.__all__

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms
if TYPE_CHECKING:
    from typing import Any


def __getattr__(name: str) -> Any:
    """The moved module's other names, as before the move."""
    return getattr(_moved, name)
