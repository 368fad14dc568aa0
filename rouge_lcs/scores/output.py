"""The ``evaluate.load("rouge")`` output format, built from per-example :class:`Scores`.

``{type: F}`` (a mean, or a list per example), plus on request ``<type>_precision`` /
``<type>_recall``, bootstrap intervals ``<type>_low`` / ``<type>_high`` (and
``<type>_precision_low`` …), and ``signature``.
"""

from __future__ import annotations

from rouge_lcs.base.records import record
from rouge_lcs.base.validation import check_bool, check_confidence_level, check_int, check_seed
from rouge_lcs.scores.results import Scores
from rouge_lcs.scores.signature import make_signature
from rouge_lcs.scores.statistics import MAX_RESAMPLES

Output = dict[str, "float | list[float] | str"]


@record
class OutputOptions:
    """What to report (the ``output`` options of :mod:`rouge_lcs.config.options`), checked."""

    use_aggregator: bool = True
    return_precision_recall: bool = False
    confidence_level: float | None = None
    n_resamples: int = 1000
    seed: int = 0
    return_signature: bool = False

    def __post_init__(self) -> None:
        check_bool(self.use_aggregator, "use_aggregator")
        check_bool(self.return_precision_recall, "return_precision_recall")
        check_bool(self.return_signature, "return_signature")
        level = check_confidence_level(self.confidence_level)
        object.__setattr__(self, "confidence_level", level)
        check_int(self.n_resamples, "n_resamples", 1, MAX_RESAMPLES)
        check_seed(self.seed)
        if level is not None and not self.use_aggregator:
            raise ValueError(
                "confidence_level: expected None with use_aggregator=False (intervals describe "
                f"the mean), got {level!r}"
            )


def to_output(scores: Scores, options: OutputOptions) -> Output:
    """The evaluate-style dict of ``scores`` (keys in rouge_score / HF order)."""
    measures = ("precision", "recall") if options.return_precision_recall else ()
    out: Output = {}
    names = scores.rouge_types
    if options.use_aggregator:
        means = scores.mean()
        for name in names:
            out[name] = means[name].fmeasure
        for name in names:
            for measure in measures:
                out[f"{name}_{measure}"] = getattr(means[name], measure)
        if options.confidence_level is not None:
            intervals = scores.interval(options.confidence_level, options.n_resamples, options.seed)
            for name in names:
                out[f"{name}_low"], out[f"{name}_high"] = intervals[name].fmeasure
                for measure in measures:
                    low, high = getattr(intervals[name], measure)
                    out[f"{name}_{measure}_low"], out[f"{name}_{measure}_high"] = low, high
    else:
        for name in names:
            out[name] = scores.values(name)
        for name in names:
            for measure in measures:
                out[f"{name}_{measure}"] = scores.values(name, measure)
    if options.return_signature:
        out["signature"] = make_signature(
            scores.settings,
            scores.stats.ref_counts(),
            aggregated=options.use_aggregator,
            confidence_level=options.confidence_level,
            n_resamples=options.n_resamples,
            seed=options.seed,
            ids=scores.ids,
        )
    return out
