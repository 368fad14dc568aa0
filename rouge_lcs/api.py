"""The functional façade: one call from texts to scores (thin calls of :class:`Rouge`).

>>> result = rouge(["the cat sat on the mat"], ["the cat sat on a rug"], rouge_types=["rouge1"])
>>> round(result["rouge1"], 4)
0.6667
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rouge_lcs.base.ids import is_id_input
from rouge_lcs.base.validation import References, TextBatch, Texts
from rouge_lcs.config.options import document_options
from rouge_lcs.config.values import options_of
from rouge_lcs.engine.compute import Progress
from rouge_lcs.scores.output import Output, to_output
from rouge_lcs.scores.results import Scores
from rouge_lcs.scores.scorer import SCORER_OPTIONS, function_scorer

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    from typing import Any

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
    return function_scorer(rouge_types, options).score(predictions, references, progress=progress)


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
        {options}
    """
    return output(predictions, references, rouge_types, options)


def output(
    predictions: object,
    references: object,
    rouge_types: Sequence[str] | str | None,
    options: Mapping[str, Any],
    *,
    checked: bool = False,
) -> Output:
    """:func:`rouge`'s result for its keyword ``options`` as given (the evaluate module's too):
    the one place where ``compat="rouge155"`` sends the work to the script's engine.
    ``checked``: texts already checked (a list of ``str`` and a list of lists of ``str``, as
    :func:`rouge_lcs.hub.check_batch` leaves them), not checked again."""
    if options.get("compat") == "rouge155":  # the script's own engine, tokens and report
        from rouge_lcs.rouge155.mode import rouge155_output

        return rouge155_output(predictions, references, options_of(rouge_types, options))
    scorer = function_scorer(rouge_types, options)
    if checked and not is_id_input(predictions, references):
        batch = TextBatch(predictions, references)  # type: ignore[arg-type]
        return to_output(scorer.score_of(batch), scorer.options)
    return to_output(scorer.score(predictions, references), scorer.options)  # type: ignore[arg-type]


document_options(rouge)  # the options are described once, in rouge_lcs.config.options
