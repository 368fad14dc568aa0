"""Scoring settings: the options that change a score, checked once and resolved to objects.

>>> settings = make_settings(["ROUGE-1", "rougeLsum"], use_stemmer=True, tokenizer="rouge_score")
>>> settings.names, settings.tokenizer.name, settings.tokenizer.stemmed
(['rouge1', 'rougeLsum'], 'rouge_score', True)
"""

from __future__ import annotations

from collections.abc import Sequence

from rouge_lcs.base.records import record
from rouge_lcs.config.options import names
from rouge_lcs.config.values import Options, options_of
from rouge_lcs.text.rouge_types import RougeType, parse_rouge_types
from rouge_lcs.text.sentences import SplitFn, Splitter, resolve_splitter
from rouge_lcs.text.tokenizers import ResolvedTokenizer, resolve_tokenizer

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    from typing_extensions import Unpack

    from rouge_lcs.config.keywords import ScoringKeywords

#: The options :func:`make_settings` takes by keyword.
SCORING = [name for name in names("scoring") if name != "rouge_types"]


@record
class Settings:
    """Every option that changes a score, resolved and validated
    (see :mod:`rouge_lcs.config.options`)."""

    rouge_types: tuple[RougeType, ...]
    tokenizer: ResolvedTokenizer
    splitter_spec: Splitter
    multi_ref: str
    beta: float

    @property
    def language(self) -> str | None:
        """The ISO 639-1 code the settings were made for, or ``None``."""
        return self.tokenizer.language

    @property
    def names(self) -> list[str]:
        """Canonical rouge type names, in the requested order."""
        return [t.name for t in self.rouge_types]

    @property
    def needs_sentences(self) -> bool:
        """Whether any type is counted over sentences (ROUGE-Lsum; only then are texts split
        into sentences)."""
        return any(t.rules.sentences for t in self.rouge_types)

    @property
    def lsum_split(self) -> str:
        """The sentence split's name as the signature shows it (e.g. ``auto-builtin``)."""
        return self.splitter_spec.name

    @property
    def splitter(self) -> SplitFn:
        """The sentence-splitting function."""
        return self.splitter_spec.split


def make_settings(
    rouge_types: Sequence[str] | str | None = None, **options: Unpack[ScoringKeywords]
) -> Settings:
    """Check and resolve the scoring options (meanings: :data:`rouge_lcs.config.options.OPTIONS`;
    other options are a ``TypeError``)."""
    return settings_of(options_of(rouge_types, dict(options), SCORING))


def settings_of(options: Options) -> Settings:
    """The resolved :class:`Settings` of a checked :class:`Options` (its scoring options)."""
    if options.rouge155:  # a different engine, not settings of this one
        raise ValueError(
            "compat: 'rouge155' scores through rouge_lcs.rouge155 (the script's own tokens and "
            "report); use rouge_lcs.rouge(..., compat='rouge155') or rouge_lcs.rouge155.score"
        )
    # Each resolver checks its argument's type itself (values may come from untyped callers).
    language = options.language
    return Settings(
        rouge_types=parse_rouge_types(options.rouge_types),
        tokenizer=resolve_tokenizer(
            options.tokenizer, options.use_stemmer, language, options.normalize_spelling
        ),
        splitter_spec=resolve_splitter(options.lsum_split, language),
        multi_ref=options.multi_ref,
        beta=options.beta,
    )
