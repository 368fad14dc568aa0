"""ROUGE as a reward for RL fine-tuning: TRL's ``GRPOTrainer``, verl and OpenRLHF.

The documented import path of :mod:`rouge_lcs.integrations.rewards`::

    import rouge_lcs.rewards
"""

from __future__ import annotations

from rouge_lcs.integrations import rewards as _moved
from rouge_lcs.integrations.rewards import (
    AsyncRougeReward,
    RougeReward,
    VerlRougeRewardManager,
    async_rouge_reward,
    completion_text,
    openrlhf_reward_func,
    response_of,
    rouge_reward,
    token_rewards,
    verl_compute_score,
    verl_compute_score_batch,
)

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "AsyncRougeReward",
    "RougeReward",
    "async_rouge_reward",
    "completion_text",
    "openrlhf_reward_func",
    "response_of",
    "rouge_reward",
    "token_rewards",
    "verl_compute_score",
    "verl_compute_score_batch",
    "VerlRougeRewardManager",
]


def __getattr__(name: str) -> Any:
    """The moved module's other names, as before the move."""
    return getattr(_moved, name)
