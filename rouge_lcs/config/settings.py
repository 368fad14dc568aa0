"""Scoring settings: the options that change a score, checked once and resolved to objects.

>>> settings = make_settings(["ROUGE-1", "rougeLsum"], use_stemmer=True, tokenizer="rouge_score")
>>> settings.names, settings.tokenizer.name, settings.tokenizer.stemmed
(['rouge1', 'rougeLsum'], 'rouge_score', True)
"""

from __future__ import annotations

from collections.abc import Sequence

from rouge_lcs.base.records import record
from rouge_lcs.base.validation import check_beta, check_bool, check_choice
from rouge_lcs.config.options import COMPAT_PRESETS, MULTI_REF_MODES, OPTIONS
from rouge_lcs.text.rouge_types import RougeType, parse_rouge_types
from rouge_lcs.text.sentences import SplitFn, Splitter, SplitterSpec, resolve_splitter
from rouge_lcs.text.tokenizers import ResolvedTokenizer, TokenizerSpec, resolve_tokenizer


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


def apply_compat(compat: object, given: dict[str, object]) -> dict[str, object]:
    """The options with a ``compat`` preset applied: each option the preset names takes the
    preset's value; giving it another (non-default) value as well is a ``ValueError``."""
    if compat is None:
        return given
    if compat == "rouge155":  # a different engine, not settings of this one
        raise ValueError(
            "compat: 'rouge155' scores through rouge_lcs.rouge155 (the script's own tokens and "
            "report); use rouge_lcs.rouge(..., compat='rouge155') or rouge_lcs.rouge155.score"
        )
    preset = COMPAT_PRESETS[check_choice(compat, "compat", tuple(OPTIONS["compat"].choices))]
    resolved = dict(given)
    for name, value in preset.items():
        if given[name] not in (OPTIONS[name].default, value):
            raise ValueError(
                f"{name}: expected {value!r} or nothing with compat={compat!r}, got {given[name]!r}"
            )
        resolved[name] = value
    return resolved


def make_settings(
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
) -> Settings:
    """Check and resolve the scoring options
    (meanings: :data:`rouge_lcs.config.options.OPTIONS`)."""
    options = apply_compat(
        compat,
        {
            "tokenizer": tokenizer,
            "lsum_split": lsum_split,
            "multi_ref": multi_ref,
            "language": language,
        },
    )
    # Each resolver checks its argument's type itself (values may come from untyped callers).
    chosen_language = options["language"]
    return Settings(
        rouge_types=parse_rouge_types(rouge_types),
        tokenizer=resolve_tokenizer(
            options["tokenizer"],
            check_bool(use_stemmer, "use_stemmer"),
            chosen_language,
            check_bool(normalize_spelling, "normalize_spelling"),
        ),
        splitter_spec=resolve_splitter(options["lsum_split"], chosen_language),
        multi_ref=check_choice(options["multi_ref"], "multi_ref", MULTI_REF_MODES),
        beta=check_beta(beta),
    )
