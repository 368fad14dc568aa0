"""One line for ``compute_metrics`` in a ``transformers`` ``Trainer`` / ``Seq2SeqTrainer``.

The documented import path of :mod:`rouge_lcs.integrations.trainer`::

    import rouge_lcs.trainer
"""

from __future__ import annotations

from rouge_lcs.integrations import trainer as _moved
from rouge_lcs.integrations.trainer import *  # noqa: F403  (its __all__, the names of this path)

__all__ = _moved.__all__

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms
if TYPE_CHECKING:
    from typing import Any


def __getattr__(name: str) -> Any:
    """The moved module's other names, as before the move."""
    return getattr(_moved, name)
