"""Why a score is what it is: which tokens counted, for one (prediction, reference) pair.

For every rouge type this returns both texts as the scorer sees them (tokens after
normalization, lowercasing and stemming; sentences for ROUGE-Lsum) with a mark per token:

- ROUGE-N: tokens inside a matched n-gram (clipped: an n-gram occurring twice on one side and
  once on the other matches once);
- ROUGE-L: the tokens of the longest common subsequence, as rouge_score's backtrack picks it;
- ROUGE-Lsum: per reference sentence, the union of its LCS with every predicted sentence; union
  tokens beyond the prediction's count of that token are marked *clipped* (not counted).

The counts behind the marks are exactly the scorer's (tests check it), so P/R/F shown next to
the marks are the scores.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.base.validation import fail_value
from rouge_lcs.config.settings import Settings, make_settings
from rouge_lcs.engine import Candidate, lcs_pairs
from rouge_lcs.scores.multiref import prf
from rouge_lcs.text.rouge_types import LCS, NGRAMS, UNION_LCS

if TYPE_CHECKING:
    import numpy as np
    from typing_extensions import Unpack

    from rouge_lcs.config.keywords import ScoringKeywords
else:
    np = lazy_import("numpy")

UNMATCHED, MATCHED, CLIPPED = 0, 1, 2


@dataclass
class Side:
    """One text as scored: sentences of tokens, and a mark per token."""

    sentences: list[list[str]]
    marks: list[list[int]]


@dataclass
class Explanation:
    """One rouge type for one pair."""

    rouge_type: str
    hits: int
    prediction_total: int
    reference_total: int
    precision: float
    recall: float
    fmeasure: float
    prediction: Side
    reference: Side
    unit: str  # what hits count: "1-grams", "tokens of the LCS", …


def _ngram_marks(tokens: list[str], matched: Counter, n: int) -> list[int]:
    marks = [UNMATCHED] * len(tokens)
    left = Counter(matched)
    for i in range(len(tokens) - n + 1):
        gram = tuple(tokens[i : i + n])
        if left[gram] > 0:
            left[gram] -= 1
            for k in range(i, i + n):
                marks[k] = MATCHED
    return marks


def _explain_ngrams(pred: list[str], ref: list[str], n: int) -> tuple[int, int, int, Side, Side]:
    pred_grams = Counter(tuple(pred[i : i + n]) for i in range(len(pred) - n + 1))
    ref_grams = Counter(tuple(ref[i : i + n]) for i in range(len(ref) - n + 1))
    matched = pred_grams & ref_grams
    return (
        sum(matched.values()),
        max(len(pred) - n + 1, 0),
        max(len(ref) - n + 1, 0),
        Side([pred], [_ngram_marks(pred, matched, n)]),
        Side([ref], [_ngram_marks(ref, matched, n)]),
    )


def _ids(*sequences: list[str]) -> tuple[list[list[int]], dict[str, int]]:
    vocab: dict[str, int] = {}
    return [[vocab.setdefault(t, len(vocab)) for t in seq] for seq in sequences], vocab


def _explain_lcs(pred: list[str], ref: list[str]) -> tuple[int, int, int, Side, Side]:
    (pred_ids, ref_ids), _ = _ids(pred, ref)
    pairs = lcs_pairs(ref_ids, Candidate(pred_ids)) if pred and ref else []
    pred_marks, ref_marks = [UNMATCHED] * len(pred), [UNMATCHED] * len(ref)
    for i, j in pairs:
        ref_marks[i] = pred_marks[j] = MATCHED
    return len(pairs), len(pred), len(ref), Side([pred], [pred_marks]), Side([ref], [ref_marks])


def _explain_lsum(
    pred_sents: list[list[str]], ref_sents: list[list[str]]
) -> tuple[int, int, int, Side, Side]:
    pred_marks = [[UNMATCHED] * len(s) for s in pred_sents]
    ref_marks = [[UNMATCHED] * len(s) for s in ref_sents]
    pred_total, ref_total = sum(map(len, pred_sents)), sum(map(len, ref_sents))
    if not pred_total or not ref_total:
        return 0, pred_total, ref_total, Side(pred_sents, pred_marks), Side(ref_sents, ref_marks)
    ids, _ = _ids(*pred_sents, *ref_sents)
    pred_ids, ref_ids = ids[: len(pred_sents)], ids[len(pred_sents) :]
    candidates = [(k, Candidate(c)) for k, c in enumerate(pred_ids) if c]
    pred_left = Counter(t for s in pred_ids for t in s)
    ref_left = Counter(t for s in ref_ids for t in s)
    hits = 0
    for r, ref in enumerate(ref_ids):
        union: set[int] = set()
        for k, cand in candidates:
            for i, j in lcs_pairs(ref, cand) if ref else []:
                union.add(i)
                pred_marks[k][j] = MATCHED
        for i in sorted(union):  # rouge_score's order: sentence by sentence, left to right
            token = ref[i]
            if pred_left[token] > 0 and ref_left[token] > 0:
                pred_left[token] -= 1
                ref_left[token] -= 1
                hits += 1
                ref_marks[r][i] = MATCHED
            else:
                ref_marks[r][i] = CLIPPED
    return hits, pred_total, ref_total, Side(pred_sents, pred_marks), Side(ref_sents, ref_marks)


def explain(
    prediction: str,
    reference: str,
    rouge_types: Sequence[str] | str | None = None,
    **options: Unpack[ScoringKeywords],
) -> list[Explanation]:
    """Explain the scores of one pair, type by type (scoring options as in
    :func:`rouge_lcs.rouge`)."""
    settings = make_settings(rouge_types, **options)
    return explain_with(prediction, reference, settings)


def explain_with(prediction: str, reference: str, settings: Settings) -> list[Explanation]:
    """:func:`explain` with resolved settings."""
    if not isinstance(prediction, str) or not isinstance(reference, str):
        raise TypeError("prediction and reference: expected str")
    tokenize = settings.tokenizer.tokenize
    pred, ref = tokenize(prediction), tokenize(reference)
    out = []
    for rouge_type in settings.rouge_types:
        kernel = rouge_type.rules.kernel
        if not rouge_type.rules.explain or kernel not in (NGRAMS, LCS, UNION_LCS):
            raise fail_value(
                "rouge_types", "types that explain() shows (rougeN, rougeL, rougeLsum)",
                rouge_type.name,
            )  # fmt: skip
        if kernel == NGRAMS:
            counts = _explain_ngrams(pred, ref, rouge_type.n)
            unit = f"{rouge_type.n}-grams"
        elif kernel == LCS:
            counts = _explain_lcs(pred, ref)
            unit = "tokens of the longest common subsequence"
        else:
            split = settings.splitter
            counts = _explain_lsum(
                [tokenize(s) for s in split(prediction)], [tokenize(s) for s in split(reference)]
            )
            unit = "tokens of the union LCS over sentences"
        hits, pred_total, ref_total, pred_side, ref_side = counts
        precision, recall, fmeasure = (
            float(x[0]) for x in prf(np.array([[hits, pred_total, ref_total]]), settings.beta)
        )
        out.append(
            Explanation(
                rouge_type.name,
                hits,
                pred_total,
                ref_total,
                precision,
                recall,
                fmeasure,
                pred_side,
                ref_side,
                unit,
            )
        )
    return out
