"""``compat="rouge155"`` for :func:`rouge_lcs.rouge` and the evaluate module.

The library's options map onto the script's flags: the rougeN types give ``-n`` (the largest N),
``rougeL``/``rougeLsum`` give ROUGE-L (the script's ROUGE-L is summary-level, over the lines of
a text), ``rougeW``/``rougeW-<weight>`` ``-w`` (one weight), ``rougeS<d>``/``rougeSU<d>``
``-2 d`` with ``-u`` (SU alone) or ``-U`` (both; one distance), ``use_stemmer`` ``-m``,
``multi_ref`` ``-f`` (``pooled`` = A, the script's default;
``max_recall`` = B), ``beta`` ``-p`` (alpha = 1 / (1 + beta²)), ``confidence_level`` ``-c`` and
``n_resamples`` ``-r``.  The output has pyrouge's keys (``rouge_1_recall``, ``rouge_l_f_score``,
…): with ``use_aggregator`` the averages the script prints (with their ``_cb``/``_ce``
confidence bounds), else per-example lists.  The script's own tokenizer, sentence lines and
bootstrap are used, so the options that choose ours (``tokenizer``, ``language``,
``lsum_split``, ``seed``) cannot be given; flags without a library option (``-s``, ``-l``,
``-b``) are in :func:`rouge_lcs.rouge155.score`.

>>> from rouge_lcs import rouge
>>> rouge(["Police killed the gunman"], ["The gunman killed the policeman"],
...       ["rouge1", "rouge2"], compat="rouge155")["rouge_1_f_score"]
0.66667
"""

from __future__ import annotations

from rouge_lcs.base.validation import check_choice, check_texts
from rouge_lcs.config.values import Options
from rouge_lcs.rouge155.api import score
from rouge_lcs.rouge155.report import Report
from rouge_lcs.scores.output import Output
from rouge_lcs.text.rouge_types import (
    LCS,
    NGRAMS,
    SKIP,
    UNION_LCS,
    RougeType,
    parse_rouge_types,
)

_MULTI_REF = {"pooled": "A", "max_f": "A", "max_recall": "B"}


def _one(values: set[object], what: str, types: list[RougeType]) -> object:
    """The one value the script's flag takes, or a ValueError naming the types."""
    if len(values) > 1:
        names = ", ".join(t.name for t in types)
        raise ValueError(
            f"rouge_types: ROUGE-1.5.5 takes one {what} per run, got {names} with compat='rouge155'"
        )
    return values.pop() if values else None


def _script_flags(types: tuple[RougeType, ...]) -> tuple[float | None, int | None, bool | str]:
    """``-w``, ``-2`` and ``-u``/``-U`` of the ROUGE-W, ROUGE-S and ROUGE-SU types."""
    weighted = [t for t in types if t.rules.weighted]
    skipped = [t for t in types if t.rules.kernel == SKIP]
    weight = _one({t.weight for t in weighted}, "weight (-w)", weighted)
    skip = _one({t.skip for t in skipped}, "skip distance (-2)", skipped)
    kinds = {t.rules.unigrams for t in skipped}
    unigrams: bool | str = "both" if kinds == {False, True} else kinds == {True}
    return weight, skip, unigrams  # type: ignore[return-value]


def _flag_text(weight: float | None, skip: int | None, unigrams: bool | str) -> str:
    """The ``-w``/``-2``/``-u``/``-U`` part of the signature's flags."""
    out = f" -w {weight:.15g}" if weight is not None else ""
    if skip is not None:
        out += f" -2 {skip}" + (" -U" if unigrams == "both" else " -u" if unigrams else "")
    return out


def rouge155_report(
    predictions: object, references: object, options: Options
) -> tuple[Report, Options, str]:
    """The script's report for ``rouge(..., compat="rouge155", **options)``, the options (their
    output options checked) and the signature (see the module docstring).  ``options``' compat
    checks ran where it was built (:func:`rouge_lcs.config.values.resolve_compat`)."""
    multi_ref = check_choice(options.multi_ref, "multi_ref", tuple(_MULTI_REF))
    types = parse_rouge_types(options.rouge_types)
    n = max((t.n for t in types if t.rules.kernel == NGRAMS), default=0)
    beta, stem = options.beta, options.use_stemmer
    weight, skip, unigrams = _script_flags(types)
    level = options.confidence_level
    batch = check_texts(predictions, references)
    report = score(
        batch.predictions,
        batch.references,
        n=n,
        rouge_l=any(t.rules.kernel in (LCS, UNION_LCS) for t in types),
        weight=weight,
        skip=skip,
        unigrams=unigrams,
        stem=stem,
        multi_ref=_MULTI_REF[multi_ref],
        alpha=1.0 / (1.0 + beta * beta),
        confidence=95 if level is None else level * 100,
        resamples=options.n_resamples,
    )
    from rouge_lcs.base.version import __version__

    flags = f"-n {n}{_flag_text(weight, skip, unigrams)}{' -m' if stem else ''}"
    flags += f" -f {_MULTI_REF[multi_ref]}"
    signature = (
        f"rouge_lcs:v{__version__}|compat:rouge155|flags:{flags} -p {1 / (1 + beta * beta):g}"
    )
    if weight is not None:  # the script's ROUGE-W, not Lin's (rouge_lcs.scores.signature)
        signature += "|wlcs:rouge155"

    return report, options, signature


def rouge155_output(predictions: object, references: object, options: Options) -> Output:
    """The output of ``rouge(..., compat="rouge155", **options)`` (see the module docstring)."""
    report, _, signature = rouge155_report(predictions, references, options)
    out: Output
    if options.use_aggregator:
        out = dict(report.to_dict())
    else:
        rows = report.per_example_dicts()
        out = {key: [row[key] for row in rows] for key in rows[0]}
    if options.return_signature:
        out["signature"] = signature
    return out
