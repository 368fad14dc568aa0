"""The result of a functional ``rouge()`` call (the evaluate module's too), by the library's
engine or, with ``compat="rouge155"``, by the script's: the one place that sends the work to
one or the other.

It lives here, not in :mod:`rouge_lcs.api`, because the evaluate module's entry point
(:mod:`rouge_lcs.integrations.hub`) calls it too, and a folder never imports the top level;
this is the lowest folder that sees both engines (the script's is loaded only when asked for).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rouge_lcs.base.ids import is_id_input
from rouge_lcs.base.validation import TextBatch
from rouge_lcs.config.values import options_of
from rouge_lcs.scores.output import Output, to_output
from rouge_lcs.scores.scorer import function_scorer

TYPE_CHECKING = False  # not typing's: type checkers treat any name TYPE_CHECKING as true
if TYPE_CHECKING:
    from typing import Any


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
