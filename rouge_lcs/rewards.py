"""ROUGE as a reward for RL fine-tuning: TRL's ``GRPOTrainer``, verl and OpenRLHF.

The documented import path of :mod:`rouge_lcs.integrations.rewards`::

    import rouge_lcs.rewards
"""

from __future__ import annotations

from rouge_lcs.integrations import rewards as _moved
from rouge_lcs.integrations.rewards import *  # noqa: F403  (its __all__, the names of this path)

__all__ = _moved.__all__

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms
if TYPE_CHECKING:
    from typing import Any


def __getattr__(name: str) -> Any:
    """The moved module's other names, as before the move."""
    return getattr(_moved, name)
