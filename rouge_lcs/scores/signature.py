"""A sacrebleu-style signature naming every setting that changes a ROUGE number.

Example: ``rouge_lcs:v<version>|tok:unicode-18.0.0|norm:nfkc|case:lower|stem:porter-nltk<v>|
lsum:auto-punkt_tab.english|multi:max_f|beta:1|refs:1|agg:mean``; with ``language="zh"`` a
``lang:zh`` part follows ``rouge_lcs``, and an optional segmenter names its package versions
(``tok:jieba-0.42.1``), and the ``unicode`` tokenizer the Unicode version of its character
classes (``tok:unicode-18.0.0``, rouge_lcs.text.unicode_classes).  A run with a ROUGE-W type
(``rougeW``, ``rougeW-<w>``) says which ROUGE-W it is: ``wlcs:lin``, Lin's weighted LCS
(P, R = f⁻¹(WLCS / f(length)): identical texts score 1), where ``compat="rouge155"``'s
signature says ``wlcs:rouge155`` (the script's, whose recall applies the weight twice: 0.75786
for identical 4-word texts).  Two runs with the same signature give the same numbers; any
option that changes a score changes the signature.  Report it next to the scores.

Token id inputs are no text: no tokenizer, normalization, case or stemmer touched them, so
their signature names none (``tok:ids``) but the padding id cut and ROUGE-Lsum's sentence-end
ids: ``rouge_lcs:v<version>|tok:ids|pad:0|lsum:end-ids-13.198|multi:max_f|beta:1|refs:1|
agg:mean`` (``pad:none``, ``lsum:end-ids-none`` when not given).
"""

from __future__ import annotations

from collections.abc import Sequence

from rouge_lcs.base.version import __version__
from rouge_lcs.config.settings import Settings
from rouge_lcs.text.rouge_types import weights

TYPE_CHECKING = False  # not typing's: type checkers treat any name TYPE_CHECKING as true
if TYPE_CHECKING:
    from rouge_lcs.base.ids import IdOptions


def _number(value: float) -> str:
    return f"{value:g}"


def _stemmer(name: str) -> str:
    """``porter-nltk3.9.1``, ``snowball-french-nltk3.9.1``: NLTK's stemmers change between
    releases (Porter's NLTK_EXTENSIONS did), so the version is part of the name."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"{name}-nltk{version('nltk')}"
    except PackageNotFoundError:  # pragma: no cover - nltk is a dependency
        return name


def _tokenizer(name: str, native: str | None) -> str:
    """``unicode-18.0.0``: the ``unicode`` tokenizer's classes are of one Unicode version, which
    a new table would change (scripts/gen_unicode_table.py)."""
    if native == "unicode" and name == "unicode":
        from rouge_lcs.text.unicode_classes import unicode_version

        return f"{name}-{unicode_version()}"
    return name


def _refs(n_refs: Sequence[int]) -> str:
    counts = sorted({int(n) for n in n_refs})
    if not counts:
        return "0"
    return str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"


def make_signature(
    settings: Settings,
    n_refs: Sequence[int],
    *,
    aggregated: bool = True,
    confidence_level: float | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    ids: IdOptions | None = None,
) -> str:
    """The signature of a scoring run with ``settings`` over examples with ``n_refs`` references
    (``ids``: the options of token id inputs, when ids were scored)."""
    tokenizer = settings.tokenizer
    # No "lang:" part without a language, so signatures of runs without one stay as they were.
    language = [f"lang:{settings.language}"] if settings.language is not None else []
    if ids is not None:  # the ids were the tokens: no text option acted on them
        ends = ".".join(map(str, ids.sentence_end_ids)) or "none"
        text = [
            "tok:ids",
            f"pad:{'none' if ids.pad_id is None else ids.pad_id}",
            f"lsum:end-ids-{ends}",
        ]
    else:
        text = [
            f"tok:{_tokenizer(tokenizer.name, tokenizer.native)}",
            f"norm:{tokenizer.normalization}",
            f"case:{tokenizer.case}",
            f"stem:{_stemmer(tokenizer.stemmer.name) if tokenizer.stemmed else 'no'}",
            f"lsum:{settings.lsum_split}",
        ]
    parts = [
        f"rouge_lcs:v{__version__}",
        *language,
        *text,
        # only with a ROUGE-W type, so that the other signatures stay as they were
        *(["wlcs:lin"] if weights(settings.rouge_types) is not None else []),
        f"multi:{settings.multi_ref}",
        f"beta:{_number(settings.beta)}",
        f"refs:{_refs(n_refs)}",
        f"agg:{'mean' if aggregated else 'none'}",
    ]
    if confidence_level is not None:
        parts.append(f"ci:bootstrap-{_number(confidence_level)}-n{n_resamples}-seed{seed}")
    return "|".join(parts)
