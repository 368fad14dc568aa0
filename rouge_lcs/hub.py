"""The one entry point of the Hugging Face ``evaluate`` module (``rouge_lcs_metric.py``).

The documented import path of :mod:`rouge_lcs.integrations.hub`::

    import rouge_lcs.hub
"""

from __future__ import annotations

from rouge_lcs.integrations import hub as _moved
from rouge_lcs.integrations.hub import (
    check_batch,
    compute,
    inputs_description,
)

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "check_batch",
    "compute",
    "inputs_description",
]


def __getattr__(name: str) -> Any:
    """The moved module's other names, as before the move."""
    return getattr(_moved, name)
