"""rouge_lcs: exact, Unicode-correct, fast ROUGE-N / ROUGE-L / ROUGE-Lsum.

>>> from rouge_lcs import Rouge, rouge
>>> rouge(["서울은 대한민국의 수도이며 인구는 약 구백만 명이다"],
...       ["서울의 인구는 약 천만 명이고 대한민국의 수도이다"], rouge_types=["rougeL"])
{'rougeL': 0.2857142857142857}
>>> Rouge(["rouge1"]).score(["a b c"], ["a b b d"]).mean()["rouge1"]
Score(precision=0.6666666666666666, recall=0.5, fmeasure=0.5714285714285715)

Layout: settings -> engine (per-pair statistics) -> results -> output; see README.
"""

from __future__ import annotations

from rouge_lcs.base.lazy import import_module
from rouge_lcs.base.version import __version__

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:  # what type checkers and IDEs see; at run time these load on first use
    from typing import Any

    from rouge_lcs.api import rouge, score
    from rouge_lcs.config.settings import Settings, make_settings
    from rouge_lcs.engine.stats import PairStats
    from rouge_lcs.engine.workers import Workers
    from rouge_lcs.recipes.auditor import Audit, audit
    from rouge_lcs.scores.results import Interval, Score, ScoreInterval, Scores
    from rouge_lcs.scores.scorer import Rouge
    from rouge_lcs.scores.state import RougeState
    from rouge_lcs.text.rouge_types import DEFAULT_ROUGE_TYPES

# Public name -> the module that defines it.  `import rouge_lcs` runs none of them (PEP 562):
# a process that only reads __version__, or imports the CLI or a submodule, does not pay for
# the option table, the engines and the scorer (~30-40 ms); the first use of a name (or
# `from rouge_lcs import rouge`) imports its module once and binds it here.
_LAZY = {
    "rouge": "rouge_lcs.api",
    "score": "rouge_lcs.api",
    "Settings": "rouge_lcs.config.settings",
    "make_settings": "rouge_lcs.config.settings",
    "PairStats": "rouge_lcs.engine.stats",
    "Workers": "rouge_lcs.engine.workers",
    "audit": "rouge_lcs.recipes.auditor",
    "Audit": "rouge_lcs.recipes.auditor",
    "Interval": "rouge_lcs.scores.results",
    "Score": "rouge_lcs.scores.results",
    "ScoreInterval": "rouge_lcs.scores.results",
    "Scores": "rouge_lcs.scores.results",
    "Rouge": "rouge_lcs.scores.scorer",
    "RougeState": "rouge_lcs.scores.state",
    "DEFAULT_ROUGE_TYPES": "rouge_lcs.text.rouge_types",
}

__all__ = [
    "Audit",
    "DEFAULT_ROUGE_TYPES",
    "Interval",
    "PairStats",
    "Rouge",
    "RougeState",
    "Score",
    "ScoreInterval",
    "Scores",
    "Settings",
    "Workers",
    "__version__",
    "audit",
    "make_settings",
    "rouge",
    "score",
]


def __getattr__(name: str) -> Any:
    """Import a public name's module at its first use, or a submodule (``rouge_lcs.engine``
    was reachable after ``import rouge_lcs`` when the package imported everything eagerly).

    The import system's per-module locks make a first use from several threads at once safe;
    the value is bound in the package, so later reads never come here.
    """
    module = _LAZY.get(name)
    if module is not None:
        value = getattr(import_module(module), name)
        globals()[name] = value
        return value
    if not name.startswith("__"):
        try:
            return import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names too, before their first use (for ``dir()`` and completion)."""
    return sorted(set(globals()) | set(__all__))
