"""rouge_lcs: exact, Unicode-correct, fast ROUGE-N / ROUGE-L / ROUGE-Lsum.

The library is a pure functional core; ``rouge_lcs_metric.py`` adapts it to ``evaluate``.

>>> from rouge_lcs import rouge
>>> rouge(["서울은 대한민국의 수도이며 인구는 약 구백만 명이다"],
...       ["서울의 인구는 약 천만 명이고 대한민국의 수도이다"], rouge_types=["rougeL"])
{'rougeL': 0.2857142857142857}
"""

from rouge_lcs.api import PairStats, Scores, Settings, compute_stats, make_settings, rouge, score
from rouge_lcs.rouge_types import DEFAULT_ROUGE_TYPES

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_ROUGE_TYPES",
    "PairStats",
    "Scores",
    "Settings",
    "__version__",
    "compute_stats",
    "make_settings",
    "rouge",
    "score",
]
