"""The functional façade: one call from texts to scores (thin calls of :class:`Rouge`).

>>> result = rouge(["the cat sat on the mat"], ["the cat sat on a rug"], rouge_types=["rouge1"])
>>> round(result["rouge1"], 4)
0.6667
"""

from __future__ import annotations

from collections.abc import Sequence

from rouge_lcs.base.validation import References, Texts
from rouge_lcs.config.options import OPTIONS, document_options
from rouge_lcs.engine.compute import Progress
from rouge_lcs.scores.output import Output
from rouge_lcs.scores.results import Scores
from rouge_lcs.scores.scorer import function_scorer
from rouge_lcs.text.sentences import SplitterSpec
from rouge_lcs.text.tokenizers import TokenizerSpec


def score(
    predictions: Texts,
    references: References,
    rouge_types: Sequence[str] | str | None = None,
    *,
    use_stemmer: bool = False,
    tokenizer: TokenizerSpec = None,
    language: str | None = None,
    normalize_spelling: bool = True,
    lsum_split: SplitterSpec = "auto",
    multi_ref: str = "max_f",
    beta: float = 1.0,
    compat: str | None = None,
    pad_id: int | None = None,
    sentence_end_ids: Sequence[int] | None = None,
    num_proc: int | None = 1,
    num_threads: int | None = None,
    progress: Progress | None = None,
) -> Scores:
    """Score a batch and return per-example :class:`Scores` (options as in :func:`rouge`)."""
    scorer = function_scorer(
        rouge_types,
        use_stemmer=use_stemmer,
        tokenizer=tokenizer,
        language=language,
        normalize_spelling=normalize_spelling,
        lsum_split=lsum_split,
        multi_ref=multi_ref,
        beta=beta,
        compat=compat,
        pad_id=pad_id,
        sentence_end_ids=sentence_end_ids,
        num_proc=num_proc,
        num_threads=num_threads,
    )
    return scorer.score(predictions, references, progress=progress)


def rouge(
    predictions: Texts,
    references: References,
    rouge_types: Sequence[str] | str | None = None,
    *,
    use_stemmer: bool = False,
    tokenizer: TokenizerSpec = None,
    language: str | None = None,
    normalize_spelling: bool = True,
    lsum_split: SplitterSpec = "auto",
    multi_ref: str = "max_f",
    beta: float = 1.0,
    compat: str | None = None,
    pad_id: int | None = None,
    sentence_end_ids: Sequence[int] | None = None,
    use_aggregator: bool = True,
    return_precision_recall: bool = False,
    confidence_level: float | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    return_signature: bool = False,
    num_proc: int | None = 1,
    num_threads: int | None = None,
) -> Output:
    """ROUGE scores in ``evaluate.load("rouge")``'s output format.

    Args:
        predictions (list of str): one text per example, or one sequence of token ids (list of
            int, 1-D NumPy array or torch tensor; a 2-D array/tensor: a row each).
        references (list of str, or list of lists of str): one or several texts per example
            (or token id sequences, when the predictions are ids).
        {options}
    """
    if compat == "rouge155":  # the script's own engine, tokens and report
        from typing import cast  # here: typing costs ~5 ms, rouge155's own imports far more

        from rouge_lcs.rouge155.mode import rouge155_output

        given = {k: v for k, v in locals().items() if k in OPTIONS and k != "rouge_types"}
        return cast(Output, rouge155_output(predictions, references, rouge_types, given))
    scorer = function_scorer(
        rouge_types,
        use_stemmer=use_stemmer,
        tokenizer=tokenizer,
        language=language,
        normalize_spelling=normalize_spelling,
        lsum_split=lsum_split,
        multi_ref=multi_ref,
        beta=beta,
        compat=compat,
        pad_id=pad_id,
        sentence_end_ids=sentence_end_ids,
        num_proc=num_proc,
        num_threads=num_threads,
    )
    return scorer.compute(
        predictions,
        references,
        use_aggregator=use_aggregator,
        return_precision_recall=return_precision_recall,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        seed=seed,
        return_signature=return_signature,
    )


document_options(rouge)  # the options are described once, in rouge_lcs.config.options
