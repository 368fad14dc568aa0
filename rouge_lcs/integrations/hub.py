"""The one entry point of the Hugging Face ``evaluate`` module (``rouge_lcs_metric.py``).

The published metric script calls only these functions, so the package's internals can move
without breaking a script that users have already downloaded.
"""

from __future__ import annotations

from typing import Any

from rouge_lcs.base.ids import is_id_input
from rouge_lcs.base.records import record
from rouge_lcs.base.validation import TextBatch
from rouge_lcs.config.options import describe, document_options
from rouge_lcs.engine.backend import checked_texts, checked_utf8
from rouge_lcs.engine.ids import checked_ids
from rouge_lcs.rouge155.route import output
from rouge_lcs.scores.output import Output

TYPE_CHECKING = False  # not typing's: type checkers treat any name TYPE_CHECKING as true
if TYPE_CHECKING:
    from typing_extensions import Unpack

    from rouge_lcs.config.keywords import AllKeywords

__all__ = ["check_batch", "compute", "inputs_description"]


def inputs_description(indent: str = "    ") -> str:
    """The ``Args`` of every option, generated from :data:`rouge_lcs.options.OPTIONS`."""
    return describe(indent)


@record
class IdInput:
    """A batch of token ids as given (checked by :func:`check_batch`)."""

    predictions: Any
    references: Any


def check_batch(predictions: object, references: object) -> TextBatch | IdInput:
    """Check a batch as ``add_batch`` receives it: one clear error naming the argument; every
    text a plain ``str`` that encodes as UTF-8 (Arrow stores UTF-8).  The references are
    lists of lists, which evaluate's storage takes (the library's batch makes one-item lists
    on access).  Token ids (:mod:`rouge_lcs.base.ids`) are checked as ids and kept as given:
    :func:`compute` scores them as they are."""
    if is_id_input(predictions, references):
        checked_ids(predictions, references)  # the errors now, naming the argument
        return IdInput(predictions, references)
    batch = checked_utf8(checked_texts(predictions, references))
    if isinstance(batch.references, list):
        return batch
    return TextBatch(batch.predictions, list(batch.references), batch.single)


def compute(
    predictions: list[str], references: list[list[str]], **options: Unpack[AllKeywords]
) -> Output:
    """The evaluate-style result of checked texts (``references``: a list of texts each).

    Options are those of :func:`rouge_lcs.rouge`; an unknown one is a ``TypeError`` naming it.

    Args:
        predictions (list of str): one text per example.
        references (list of lists of str): the reference texts of each example.
        **options: any of the options below, by name.

    Keyword Args:
        {options}
    """
    # The texts were checked by check_batch (and, through Arrow, come back as lists of str).
    # The scorer is the functional calls' (rouge_lcs.rouge's), sharing their vocabulary: a
    # fresh Rouge per compute started cold, so with num_proc=2 the parent and the forked
    # worker each tokenized and stemmed the words they share again
    # (benchmarks/bench_metric_parallel.py).
    rouge_types = options.pop("rouge_types", None)
    return output(predictions, references, rouge_types, dict(options), checked=True)


document_options(compute)  # the options are described once, in rouge_lcs.config.options
