"""The options as keyword arguments, typed once: ``**options: Unpack[ScorerKeywords]``.

The doors (:func:`rouge_lcs.rouge`, :func:`rouge_lcs.score`, :class:`rouge_lcs.Rouge`,
:func:`rouge_lcs.config.settings.make_settings`, the integrations) take their options as
keywords typed by these classes, so type checkers and editors see every name and type while
the signature is written here alone; at run time the keywords become one
:class:`rouge_lcs.config.values.Options`, which checks them (an unknown name is a
``TypeError`` naming it).  The tests check these classes against
:data:`rouge_lcs.config.options.OPTIONS` and :class:`~rouge_lcs.config.values.Options`.

This module imports :mod:`typing` (~3 ms of a fresh process): the library's modules import it
only for type checkers (``if TYPE_CHECKING:``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    from rouge_lcs.config.values import ProcessPool
    from rouge_lcs.text.sentences import SplitterSpec
    from rouge_lcs.text.tokenizers import TokenizerSpec


class ScoringKeywords(TypedDict, total=False):
    """The ``scoring`` options but ``rouge_types`` (which the doors take by position too)."""

    use_stemmer: bool
    tokenizer: TokenizerSpec
    language: str | None
    normalize_spelling: bool
    lsum_split: SplitterSpec
    multi_ref: str
    beta: float
    compat: str | None


class ScorerKeywords(ScoringKeywords, total=False):
    """What a scorer holds: the scoring options, the ``ids`` and the ``execution`` options."""

    pad_id: int | None
    sentence_end_ids: Sequence[int] | None
    num_proc: int | ProcessPool | None
    num_threads: int | None


class OutputKeywords(TypedDict, total=False):
    """The ``output`` options: what is reported from the per-example scores."""

    use_aggregator: bool
    return_precision_recall: bool
    confidence_level: float | None
    n_resamples: int
    seed: int
    return_signature: bool


class Keywords(ScorerKeywords, OutputKeywords, total=False):
    """Every option but ``rouge_types``: :func:`rouge_lcs.rouge`'s keywords."""


class AllKeywords(Keywords, total=False):
    """Every option, ``rouge_types`` too (the evaluate module's ``compute``)."""

    rouge_types: Sequence[str] | str | None
