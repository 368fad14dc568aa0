"""The one entry point of the Hugging Face ``evaluate`` module (``rouge_lcs_metric.py``).

The documented import path of :mod:`rouge_lcs.integrations.hub`::

    import rouge_lcs.hub
"""

from __future__ import annotations

from rouge_lcs.integrations import hub as _moved
from rouge_lcs.integrations.hub import *  # noqa: F403  (its __all__, the names of this path)

__all__ = _moved.__all__

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms
if TYPE_CHECKING:
    from typing import Any


def __getattr__(name: str) -> Any:
    """The moved module's other names, as before the move."""
    return getattr(_moved, name)
