"""The functional façade: one call from texts to scores (thin calls of :class:`Rouge`).

>>> result = rouge(["the cat sat on the mat"], ["the cat sat on a rug"], rouge_types=["rouge1"])
>>> round(result["rouge1"], 4)
0.6667
"""

from __future__ import annotations

from collections.abc import Sequence

from rouge_lcs.base.validation import References, Texts
from rouge_lcs.config.options import document_options
from rouge_lcs.engine.compute import Progress
from rouge_lcs.rouge155.route import output
from rouge_lcs.scores.output import Output
from rouge_lcs.scores.results import Scores
from rouge_lcs.scores.scorer import SCORER_OPTIONS, function_scorer

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    from typing_extensions import Unpack

    from rouge_lcs.config.keywords import Keywords, ScorerKeywords


def score(
    predictions: Texts,
    references: References,
    rouge_types: Sequence[str] | str | None = None,
    *,
    progress: Progress | None = None,
    **options: Unpack[ScorerKeywords],
) -> Scores:
    """Score a batch and return per-example :class:`Scores` (options as in :func:`rouge`;
    ``progress``: called with the number of examples done, chunk by chunk)."""
    for name in options:
        if name not in SCORER_OPTIONS:  # rouge()'s output options mean nothing here
            raise TypeError(f"unexpected option {name!r}; expected some of {SCORER_OPTIONS}")
    scorer = function_scorer(rouge_types, options)
    if progress is None:  # a call without a keyword costs less (a loop of one-example calls)
        return scorer.score(predictions, references)
    return scorer.score(predictions, references, progress=progress)


def rouge(
    predictions: Texts,
    references: References,
    rouge_types: Sequence[str] | str | None = None,
    **options: Unpack[Keywords],
) -> Output:
    """ROUGE scores in ``evaluate.load("rouge")``'s output format.

    Args:
        predictions (list of str): one text per example, or one sequence of token ids (list of
            int, 1-D NumPy array or torch tensor; a 2-D array/tensor: a row each).
        references (list of str, or list of lists of str): one or several texts per example
            (or token id sequences, when the predictions are ids).

    Keyword Args:
        {options}
    """
    return output(predictions, references, rouge_types, options)


document_options(rouge)  # the options are described once, in rouge_lcs.config.options
