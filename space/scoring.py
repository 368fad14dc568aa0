"""Scoring within the Space's time budget, and the API's answers (no gradio).

Every function raises :class:`space.parsing.UserError` for what the visitor can fix; each
result object carries what the page shows and its ``as_dict()`` is the API's JSON answer.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from rouge_lcs import __version__
from rouge_lcs.config.settings import Settings
from rouge_lcs.engine.stats import PairStats
from rouge_lcs.scores.results import Scores
from rouge_lcs.scores.scorer import Rouge
from rouge_lcs.scores.signature import make_signature
from rouge_lcs.scores.statistics import Comparison, compare
from space import limits
from space.choices import (
    DEFAULT_BETA,
    DEFAULT_MULTI_REF,
    DEFAULT_SPLIT,
    DEFAULT_STEMMER,
    DEFAULT_TOKENIZER,
    STANDARD_TYPES,
)
from space.parsing import (
    UserError,
    check_sentences,
    check_text,
    parse_batch,
    parse_comparison,
    parse_references,
    resolve_types,
    settings_for,
    system_name,
    text_field,
)


class Options(NamedTuple):
    """The scoring options of every tab and endpoint, in the order of their widgets (each
    default is the widget's initial value)."""

    rouge_types: Sequence[str] | None = STANDARD_TYPES
    extra_types: str | None = ""
    tokenizer: str | None = DEFAULT_TOKENIZER
    stemmer: bool | None = DEFAULT_STEMMER
    lsum_split: str | None = DEFAULT_SPLIT
    beta: float | None = DEFAULT_BETA
    multi_ref: str | None = DEFAULT_MULTI_REF
    language: str | None = None

    def types(self) -> list[str]:
        """The rouge types asked for (checked against the limits)."""
        return resolve_types(self.rouge_types, self.extra_types)

    def settings(self) -> Settings:
        """The library settings (every refusal a :class:`UserError`)."""
        return settings_for(
            self.types(),
            self.tokenizer,
            self.stemmer,
            self.lsum_split,
            self.beta,
            self.multi_ref,
            self.language,
        )


#: What the stock metric (``evaluate.load("rouge")``, i.e. rouge_score) is, for the numbers
#: shown beside ours.
STOCK = "rouge_score"


def score_with_budget(
    settings: Settings,
    predictions: list[str],
    references: list[list[str]],
    deadline: float,
    what: str = "Batch",
) -> Scores:
    """Score in chunks of ``limits.CHUNK`` examples, stopping with a message past ``deadline``
    (``time.monotonic()``): a request cannot hold a worker longer than its budget."""
    if settings.needs_sentences:
        for k, (pred, refs) in enumerate(zip(predictions, references), start=1):
            for text in [pred, *refs]:
                check_sentences(text, f"{what} row {k}", settings)
                _check_deadline(deadline, what, k - 1, len(predictions))
    scorer = Rouge.from_settings(settings)
    parts = []
    for start in range(0, len(predictions), limits.CHUNK):
        _check_deadline(deadline, what, start, len(predictions))
        stop = start + limits.CHUNK
        parts.append(scorer.stats(predictions[start:stop], references[start:stop]))
    return Scores.from_stats(PairStats.concatenate(parts), settings)


def _check_deadline(deadline: float, what: str, done: int, total: int) -> None:
    if time.monotonic() > deadline:
        raise UserError(
            f"{what}: stopped after {done:,} of {total:,} pairs — more than this demo's "
            f"{limits.TIME_BUDGET_S:.0f} s per request. Score fewer pairs or types here, or use "
            "the library or CLI (no time limit)."
        )


def _stock_scores(
    types: list[str],
    stemmer: bool | None,
    predictions: list[str],
    references: list[list[str]],
    deadline: float,
) -> Scores:
    """The same input scored as the stock metric scores it (the library's rouge_score
    switch): what a visitor would get from ``evaluate.load("rouge")``."""
    settings = settings_for(types, None, stemmer, None, None, None, compat=STOCK)
    return score_with_budget(settings, predictions, references, deadline, "Stock metric")


def signature_text(settings: Settings, n_refs: list[int]) -> str:
    """The reproducibility signature and a sentence to cite it with."""
    sig = make_signature(settings, n_refs)
    return (
        f"{sig}\n\nROUGE computed with rouge_lcs {__version__} (signature above: tokenizer, "
        "normalization, stemming, ROUGE-Lsum sentence split, multi-reference mode, beta, "
        "references per example, aggregation)."
    )


def _interval_signature(settings: Settings, references: list[list[str]]) -> str:
    return make_signature(
        settings,
        [len(r) for r in references],
        confidence_level=limits.CONFIDENCE,
        n_resamples=limits.RESAMPLES,
        seed=limits.SEED,
    )


@dataclass
class PairResult:
    """Everything one scored pair shows: scores, which reference each used, the stock
    metric's numbers, the signature (the explanation is drawn by :mod:`space.render`)."""

    prediction: str
    references: list[str]
    settings: Settings
    scores: Scores
    stock: Scores
    signature: str

    def as_dict(self) -> dict[str, Any]:
        """The API's answer: full-precision scores, the reference used (1-based, ``None`` when
        every reference counts) and the counts of each type, plus the signature."""
        chosen = self.scores.chosen_references()[0]
        counts = self.scores.stats.counts
        out: dict[str, Any] = {}
        for k, (name, score) in enumerate(self.scores.mean().items()):
            out[name] = {
                "precision": float(score.precision),
                "recall": float(score.recall),
                "fmeasure": float(score.fmeasure),
                "reference": int(chosen[k]) + 1 if chosen[k] >= 0 else None,
                "counts": [[int(x) for x in counts[r, k]] for r in range(counts.shape[0])],
            }
        stock = {name: float(s.fmeasure) for name, s in self.stock.mean().items()}
        return {"scores": out, "stock_fmeasure": stock, "signature": self.signature}


def score_pair(
    prediction: str | None, references_text: str | None, *options: Any, **named: Any
) -> PairResult:
    """Score one prediction against one or more references (raises :class:`UserError`);
    ``options`` and ``named`` are :class:`Options`."""
    chosen = Options(*options, **named)
    prediction = text_field(prediction, "Prediction")
    if not prediction.strip():
        raise UserError("Prediction: enter a text to score.")
    check_text(prediction, "Prediction")
    references = parse_references(references_text)
    for k, ref in enumerate(references, start=1):
        check_text(ref, f"Reference {k}")
    types, settings = chosen.types(), chosen.settings()
    check_sentences(prediction, "Prediction", settings)
    for k, ref in enumerate(references, start=1):
        check_sentences(ref, f"Reference {k}", settings)
    result = Rouge.from_settings(settings).score([prediction], [references])
    deadline = time.monotonic() + limits.TIME_BUDGET_S
    stock = _stock_scores(types, chosen.stemmer, [prediction], [references], deadline)
    signature = signature_text(settings, [len(references)])
    return PairResult(prediction, references, settings, result, stock, signature)


@dataclass
class BatchResult:
    """A scored batch: what the page and the API show."""

    predictions: list[str]
    references: list[list[str]]
    settings: Settings
    scores: Scores
    intervals: dict[str, Any]
    stock: Scores
    signature: str

    def as_dict(self) -> dict[str, Any]:
        """The API's answer: means with their 95% CI, per-example F, the signature."""
        return {
            "pairs": len(self.predictions),
            "mean": {
                name: {
                    "precision": float(s.precision),
                    "recall": float(s.recall),
                    "fmeasure": float(s.fmeasure),
                    "fmeasure_ci": list(self.intervals[name].fmeasure),
                }
                for name, s in self.scores.mean().items()
            },
            "stock_mean_fmeasure": {
                name: float(s.fmeasure) for name, s in self.stock.mean().items()
            },
            "per_example_fmeasure": {
                name: self.scores.column(name).tolist() for name in self.scores.rouge_types
            },
            "signature": self.signature,
        }


def score_batch(
    file_path: str | None = None, pasted: str | None = "", *options: Any, **named: Any
) -> BatchResult:
    """Score a batch with bootstrap intervals of the means (raises :class:`UserError`);
    ``options`` and ``named`` are :class:`Options`."""
    deadline = time.monotonic() + limits.TIME_BUDGET_S
    chosen = Options(*options, **named)
    predictions, references = parse_batch(file_path, pasted)
    types, settings = chosen.types(), chosen.settings()
    scores = score_with_budget(settings, predictions, references, deadline)
    intervals = scores.interval(limits.CONFIDENCE, limits.RESAMPLES, limits.SEED)
    stock = _stock_scores(types, chosen.stemmer, predictions, references, deadline)
    sig = _interval_signature(settings, references)
    return BatchResult(predictions, references, settings, scores, intervals, stock, sig)


@dataclass
class ComparisonResult:
    """Two systems scored on the same references, and their paired comparison (F)."""

    settings: Settings
    systems: tuple[str, str]
    predictions: tuple[list[str], list[str]]
    references: list[list[str]]
    f_a: np.ndarray
    f_b: np.ndarray
    comparison: Comparison
    signature: str

    @property
    def pairs(self) -> int:
        """Examples compared."""
        return len(self.references)

    @property
    def names(self) -> list[str]:
        """The rouge types, in the order of the columns."""
        return list(self.settings.names)

    def outcomes(self) -> np.ndarray:
        """``(types, 3)``: examples where B scores higher, the same, lower (F, exactly)."""
        diff = self.f_b - self.f_a
        return np.stack([(diff > 0).sum(0), (diff == 0).sum(0), (diff < 0).sum(0)], axis=1)

    def as_dict(self) -> dict[str, Any]:
        """The API's answer: per type the library's comparison schema
        (:meth:`Comparison.to_dict`, the keys of ``rouge-lcs compare --json``) with the
        per-example wins, ties and losses of B; the systems' names; the signature."""
        types = self.comparison.to_dict(self.names)
        for k, name in enumerate(self.names):
            wins, ties, losses = (int(x) for x in self.outcomes()[k])
            types[name]["b_higher"], types[name]["ties"], types[name]["b_lower"] = (
                wins,
                ties,
                losses,
            )
        return {
            "pairs": self.pairs,
            "systems": list(self.systems),
            "types": types,
            "signature": self.signature,
        }


def compare_systems(
    file_a: str | None = None,
    file_b: str | None = None,
    pasted: str | None = "",
    *options: Any,
    name_a: str | None = "",
    name_b: str | None = "",
    **named: Any,
) -> ComparisonResult:
    """Score systems A and B on the same references and compare their per-example F
    (raises :class:`UserError`); ``options`` and ``named`` are :class:`Options`."""
    deadline = time.monotonic() + limits.TIME_BUDGET_S
    systems = (system_name(name_a, file_a, "A"), system_name(name_b, file_b, "B"))
    preds_a, preds_b, references = parse_comparison(file_a, file_b, pasted)
    settings = Options(*options, **named).settings()
    a = score_with_budget(settings, preds_a, references, deadline, "Compare (system A)")
    b = score_with_budget(settings, preds_b, references, deadline, "Compare (system B)")
    result = compare(a.fmeasure, b.fmeasure, limits.CONFIDENCE, limits.RESAMPLES, limits.SEED)
    sig = _interval_signature(settings, references)
    return ComparisonResult(
        settings, systems, (preds_a, preds_b), references, a.fmeasure, b.fmeasure, result, sig
    )
