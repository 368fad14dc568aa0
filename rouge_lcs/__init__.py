"""rouge_lcs: exact, Unicode-correct, fast ROUGE-N / ROUGE-L / ROUGE-Lsum.

>>> from rouge_lcs import Rouge, rouge
>>> rouge(["서울은 대한민국의 수도이며 인구는 약 구백만 명이다"],
...       ["서울의 인구는 약 천만 명이고 대한민국의 수도이다"], rouge_types=["rougeL"])
{'rougeL': 0.2857142857142857}
>>> Rouge(["rouge1"]).score(["a b c"], ["a b b d"]).mean()["rouge1"]
Score(precision=0.6666666666666666, recall=0.5, fmeasure=0.5714285714285715)

Layout: settings -> engine (per-pair statistics) -> results -> output; see README.
"""

from rouge_lcs.api import rouge, score
from rouge_lcs.base.version import __version__
from rouge_lcs.config.settings import Settings, make_settings
from rouge_lcs.engine.stats import PairStats
from rouge_lcs.scores.results import Interval, Score, ScoreInterval, Scores
from rouge_lcs.scores.scorer import Rouge
from rouge_lcs.text.rouge_types import DEFAULT_ROUGE_TYPES

__all__ = [
    "DEFAULT_ROUGE_TYPES",
    "Interval",
    "PairStats",
    "Rouge",
    "Score",
    "ScoreInterval",
    "Scores",
    "Settings",
    "__version__",
    "make_settings",
    "rouge",
    "score",
]
