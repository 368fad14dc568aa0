"""One line for ``compute_metrics`` in a ``transformers`` ``Trainer`` / ``Seq2SeqTrainer``.

The documented import path of :mod:`rouge_lcs.integrations.trainer`::

    import rouge_lcs.trainer
"""

from __future__ import annotations

from rouge_lcs.integrations import trainer as _moved
from rouge_lcs.integrations.trainer import (
    logits_to_ids,
    make_compute_metrics,
)

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "logits_to_ids",
    "make_compute_metrics",
]


def __getattr__(name: str) -> Any:
    """The moved module's other names, as before the move."""
    return getattr(_moved, name)
