"""The ``evaluate.load("rouge")`` output format, built from per-example :class:`Scores`.

``{type: F}`` (a mean, or a list per example), plus on request ``<type>_precision`` /
``<type>_recall``, bootstrap intervals ``<type>_low`` / ``<type>_high`` (and
``<type>_precision_low`` …), and ``signature``.
"""

from __future__ import annotations

from rouge_lcs.config.values import Options
from rouge_lcs.scores.results import Scores
from rouge_lcs.scores.signature import make_signature

Output = dict[str, "float | list[float] | str"]


def to_output(scores: Scores, options: Options) -> Output:
    """The evaluate-style dict of ``scores`` (keys in rouge_score / HF order; what is
    reported: ``options``' output options)."""
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
