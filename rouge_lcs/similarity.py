"""ROUGE similarity at scale: one-against-many, many-against-many, top-k and deduplication.

The calls of rapidfuzz's ``process`` module (``cdist``, ``extract``, ``score_cutoff``,
``workers``) with ROUGE scores, and the greedy filter of the Self-Instruct / Alpaca pipelines:

>>> from rouge_lcs.similarity import cdist, dedup, extract
>>> extract("the cat sat", ["a cat sat down", "dogs bark", "the cat sat"], limit=2)
[('the cat sat', 1.0, 2), ('a cat sat down', 0.5714285714285715, 0)]
>>> dedup(["the cat sat", "the cat sat down", "dogs bark"], threshold=0.7).kept
[0, 2]

A cell scores the query as the prediction and the choice as the reference, so
``measure="precision"`` / ``"recall"`` mean what they mean in :func:`rouge_lcs.score`, and every
score equals ``score``'s for that pair (F is symmetric).  Scoring options (``rouge_type`` —
``rougeL`` or ``rougeN`` —, ``tokenizer``, ``use_stemmer``, ``language``, ``beta``, ``compat``)
have ``score``'s meanings; ``tokenizer="rouge_score"`` gives rouge_score's ``_score_lcs``
numbers.  ``workers``: threads (``-1``: every core).  How it is fast, and why pruning never
changes an answer: :mod:`rouge_lcs.scores.similarity`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.base.validation import (
    check_bool,
    check_choice,
    check_int,
    check_number,
    fail_type,
    fail_value,
)
from rouge_lcs.config.settings import make_settings
from rouge_lcs.scores.similarity import (
    MEASURES,
    NO_FLOOR,
    Interner,
    Scoring,
    Units,
    greedy,
    hits_matrix,
    top_k,
)

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")

__all__ = [
    "DedupResult",
    "MBRResult",
    "SimilarityIndex",
    "cdist",
    "dedup",
    "extract",
    "filter_dataset",
    "mbr",
]


def _texts(value: object, name: str) -> list[str]:
    """A list of str (a str subclass becomes its plain text); a string is not a list."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        tolist = getattr(value, "tolist", None)
        if isinstance(value, (str, bytes)) or not callable(tolist):
            raise fail_type(name, "a list of str", value)
        value = tolist()
        if not isinstance(value, list):
            raise fail_type(name, "a list of str", value)
    items = list(value)
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise fail_type(f"{name}[{i}]", "str", item)
    return [t if type(t) is str else str.__str__(t) for t in items]


def _text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise fail_type(name, "str", value)
    return value if type(value) is str else str.__str__(value)


def _fraction(value: object, name: str) -> float:
    number = check_number(value, name)
    if not 0.0 <= number <= 1.0:
        raise fail_value(name, "a number from 0 to 1", value)
    return number


def _cutoff(value: object) -> float:
    return NO_FLOOR if value is None else _fraction(value, "score_cutoff")


def _workers(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail_type("workers", "a positive integer or -1 (every core)", value)
    if value == -1:
        return min(os.cpu_count() or 1, 64)
    if not 1 <= value <= 64:
        raise fail_value("workers", "an integer from 1 to 64, or -1 (every core)", value)
    return value


def _interner(rouge_type: object, options: dict[str, Any]) -> Interner:
    if not isinstance(rouge_type, str):
        raise fail_type("rouge_type", "a str such as 'rougeL' or 'rouge1'", rouge_type)
    settings = make_settings([rouge_type], **options)
    if settings.rouge_types[0].kind == "Lsum":
        raise fail_value(
            "rouge_type", "'rougeL' or 'rougeN' (rougeLsum needs sentences; use score)", rouge_type
        )
    return Interner(settings)


def _scoring(rouge_type: object, measure: object, options: dict[str, Any]) -> Scoring:
    check_choice(measure, "measure", MEASURES)
    return Scoring(_interner(rouge_type, options), str(measure))


def cdist(
    queries: Sequence[str],
    choices: Sequence[str],
    *,
    rouge_type: str = "rougeL",
    measure: str = "fmeasure",
    score_cutoff: float | None = None,
    workers: int = 1,
    **options: Any,
) -> np.ndarray:
    """Scores of every (query, choice) pair: an array of shape ``(len(queries), len(choices))``.

    Args:
        queries: texts scored as predictions.
        choices: texts scored as references.
        rouge_type: ``"rougeL"`` or ``"rougeN"`` (``"rouge1"``, ``"rouge2"``, ...).
        measure: ``"fmeasure"``, ``"precision"`` or ``"recall"``.
        score_cutoff: cells below it are 0 (that is where pruning pays); None: every score.
        workers: threads (``-1``: every core); the numbers do not depend on it.
        **options: ``tokenizer``, ``use_stemmer``, ``language``, ``beta``, ``compat`` as in
            :func:`rouge_lcs.score`.
    """
    query_texts, choice_texts = _texts(queries, "queries"), _texts(choices, "choices")
    floor, threads = _cutoff(score_cutoff), _workers(workers)
    scoring = _scoring(rouge_type, measure, options)
    interner = scoring.interner
    return hits_matrix(
        scoring, interner.units(query_texts), interner.units(choice_texts), floor, threads
    )


def extract(
    query: str,
    choices: Sequence[str],
    *,
    limit: int | None = 10,
    score_cutoff: float | None = None,
    rouge_type: str = "rougeL",
    measure: str = "fmeasure",
    workers: int = 1,
    **options: Any,
) -> list[tuple[str, float, int]]:
    """The ``limit`` choices most similar to ``query`` as ``(choice, score, index)``, best
    first, lower index first on ties; ``limit=None``: all of them; with ``score_cutoff``, only
    choices scoring at least that.  Other arguments as in :func:`cdist`."""
    text, choice_texts = _text(query, "query"), _texts(choices, "choices")
    k = None if limit is None else check_int(limit, "limit")
    floor, threads = _cutoff(score_cutoff), _workers(workers)
    scoring = _scoring(rouge_type, measure, options)
    interner = scoring.interner
    queries, pool = interner.units([text]), interner.units(choice_texts)
    cands = np.arange(len(pool), dtype=np.int64)
    found = top_k(scoring, queries, 0, pool, cands, k, floor, False, threads)
    return [(choice_texts[i], value, i) for i, value in found]


@dataclass(frozen=True)
class DedupResult:
    """What :func:`dedup` decided.

    Attributes:
        kept: indices of the kept texts, increasing.
        matches: for each dropped text's index, ``(index of the kept text it matched best,
            score)`` — that score is above the threshold.
        neighbors: with ``neighbors=k``, for every text the ``k`` kept texts before it most
            similar to it, ``[(index, score), ...]`` best first (lower index on ties); else
            None.
    """

    kept: list[int]
    matches: dict[int, tuple[int, float]] = field(default_factory=dict)
    neighbors: list[list[tuple[int, float]]] | None = None

    @property
    def dropped(self) -> list[int]:
        """Indices of the dropped texts, increasing."""
        return sorted(self.matches)


def dedup(
    texts: Sequence[str],
    *,
    threshold: float = 0.7,
    rouge_type: str = "rougeL",
    measure: str = "fmeasure",
    neighbors: int = 0,
    prefilter: bool = True,
    workers: int = 1,
    progress: Callable[[int], object] | None = None,
    **options: Any,
) -> DedupResult:
    """The pipelines' greedy filter: in input order, a text is dropped when its best score
    against the texts kept before it is strictly greater than ``threshold``.

    Args:
        texts: the texts, in order.
        threshold: from 0 to 1 (Self-Instruct / Alpaca: 0.7).
        neighbors: also record each text's ``neighbors`` most similar kept texts.
        prefilter: draw candidates from an inverted index with prefix filtering (exact: the
            same result; used when ``neighbors`` is 0); False: compare with every kept text.
        progress: called with the number of texts done since the last call.
        rouge_type, measure, workers, **options: as in :func:`cdist`.
    """
    items = _texts(texts, "texts")
    limit = _fraction(threshold, "threshold")
    k = check_int(neighbors, "neighbors")
    check_bool(prefilter, "prefilter")
    threads = _workers(workers)
    scoring = _scoring(rouge_type, measure, options)
    units = scoring.interner.units(items)
    kept, matches, near = greedy(scoring, units, limit, k, prefilter, threads, progress)
    return DedupResult(kept, matches, near)


class SimilarityIndex:
    """Texts tokenized once, for generation loops that add texts batch by batch.

    >>> index = SimilarityIndex()
    >>> index.add(["the cat sat on the mat"])
    [0]
    >>> index.max_score("the cat sat on a mat")
    0.8333333333333334
    """

    def __init__(
        self,
        texts: Sequence[str] = (),
        *,
        rouge_type: str = "rougeL",
        measure: str = "fmeasure",
        workers: int = 1,
        **options: Any,
    ) -> None:
        self._scoring = _scoring(rouge_type, measure, options)
        self._workers = _workers(workers)
        self._texts: list[str] = []
        self._units: Units = self._scoring.interner.units([])
        if texts:
            self.add(texts)

    def __len__(self) -> int:
        return len(self._texts)

    @property
    def texts(self) -> list[str]:
        """The indexed texts, in the order they were added (their indices)."""
        return list(self._texts)

    def add(self, texts: Sequence[str]) -> list[int]:
        """Index ``texts``; returns their indices."""
        items = _texts(texts, "texts")
        start = len(self._texts)
        self._units.extend(*self._scoring.interner.encode(items))
        self._texts.extend(items)
        return list(range(start, len(self._texts)))

    def _top(self, query: object, k: int | None, floor: float) -> list[tuple[int, float]]:
        units = self._scoring.interner.units([_text(query, "query")])
        cands = np.arange(len(self._units), dtype=np.int64)
        return top_k(self._scoring, units, 0, self._units, cands, k, floor, False, self._workers)

    def max_score(self, query: str) -> float:
        """The best score of ``query`` against the indexed texts (0.0 when there are none)."""
        found = self._top(query, 1, NO_FLOOR)
        return found[0][1] if found else 0.0

    def extract(
        self, query: str, *, limit: int | None = 10, score_cutoff: float | None = None
    ) -> list[tuple[str, float, int]]:
        """As :func:`extract` against the indexed texts."""
        k = None if limit is None else check_int(limit, "limit")
        found = self._top(query, k, _cutoff(score_cutoff))
        return [(self._texts[i], value, i) for i, value in found]


def filter_dataset(dataset: Any, column: str, *, threshold: float = 0.7, **kwargs: Any) -> Any:
    """A Hugging Face ``datasets.Dataset`` with the rows :func:`dedup` keeps of ``column``
    (``dataset.select``; other arguments as in :func:`dedup`)."""
    if not isinstance(column, str):
        raise fail_type("column", "a column name (str)", column)
    names = getattr(dataset, "column_names", None)
    if names is None or not callable(getattr(dataset, "select", None)):
        raise fail_type("dataset", "a datasets.Dataset", dataset)
    if column not in names:
        raise fail_value("column", f"one of {list(names)}", column)
    result = dedup(dataset[column], threshold=threshold, **kwargs)
    return dataset.select(result.kept)


# --- minimum Bayes risk ----------------------------------------------------------------------


@dataclass(frozen=True)
class MBRResult:
    """What :func:`mbr` chose for one source.

    Attributes:
        index: the chosen candidate (the highest expected ROUGE; the first on ties).
        scores: each candidate's expected ROUGE against the pseudo-references (the mean over
            them, exactly rounded: equal expectations tie exactly).
        matrix: with ``return_matrix=True`` (exact method), ``matrix[i, j]`` = ROUGE of
            candidate ``i`` (prediction) against pseudo-reference ``j``; else None.
    """

    index: int
    scores: list[float]
    matrix: np.ndarray | None = None


def _mbr_sources(candidates: object) -> tuple[list[list[str]], bool]:
    """The candidate lists, and whether one source (a list of str) was given."""
    if isinstance(candidates, (str, bytes)) or not isinstance(candidates, Sequence):
        raise fail_type("candidates", "a list of str, or a list of lists of str", candidates)
    if not candidates:
        raise fail_value("candidates", "at least one candidate", candidates)
    if all(isinstance(c, str) for c in candidates):
        return [_texts(candidates, "candidates")], True
    return [_texts(c, f"candidates[{i}]") for i, c in enumerate(candidates)], False


def _aggregate_scores(
    cands: list[str],
    refs: list[str] | None,
    tokenize: Callable[[str], list[str]],
    n: int,
    measure: str,
    beta: float,
) -> list[float]:
    """Reference aggregation (Vamvas & Sennrich, 2024) for ROUGE-N: each candidate against the
    mean n-gram counts of the pseudo-references (itself left out), in linear time."""
    import math
    from collections import Counter

    def grams(text: str) -> Counter[tuple[str, ...]]:
        tokens = tokenize(text)
        return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))

    counts = [grams(c) for c in cands]
    pool = counts if refs is None else [grams(r) for r in refs]
    total: Counter[tuple[str, ...]] = Counter()
    for c in pool:
        total.update(c)
    size = sum(total.values())
    b2 = beta * beta
    out = []
    for c in counts:
        own = sum(c.values())
        if refs is None:
            k = len(pool) - 1
            if k == 0:
                out.append(math.nan)
                continue
            hits = math.fsum(min(v, (total[g] - v) / k) for g, v in c.items())
            ref_total = (size - own) / k
        else:
            k = len(pool)
            hits = math.fsum(min(v, total[g] / k) for g, v in c.items())
            ref_total = size / k
        p = hits / own if own else 0.0
        r = hits / ref_total if ref_total else 0.0
        f = (1 + b2) * p * r / (r + b2 * p) if r + b2 * p > 0 else 0.0
        out.append({"precision": p, "recall": r, "fmeasure": f}[measure])
    return out


def mbr(
    candidates: Sequence[str] | Sequence[Sequence[str]],
    *,
    references: Sequence[str] | Sequence[Sequence[str]] | None = None,
    rouge_type: str = "rougeL",
    measure: str = "fmeasure",
    method: str = "exact",
    return_matrix: bool = False,
    workers: int = 1,
    **options: Any,
) -> MBRResult | list[MBRResult]:
    """Minimum Bayes risk selection with ROUGE as the utility.

    For each candidate, its expected ROUGE (as the prediction) against the pseudo-references
    — by default the other candidates (each candidate's own row leaves itself out, as MBR
    with sampled candidates does) — and the candidate with the highest one.

    >>> mbr(["the cat sat", "the cat sat down", "dogs bark"]).index
    0

    Args:
        candidates: one source's candidates (a list of str: one :class:`MBRResult`), or a list
            of such lists (a list of results, one per source).
        references: pseudo-references instead of the candidates themselves (the same shape:
            one list, or one list per source); nothing is left out then.
        rouge_type: ``"rougeL"`` or ``"rougeN"``.
        measure: ``"fmeasure"``, ``"precision"`` or ``"recall"``.
        method: ``"exact"`` (every candidate against every pseudo-reference, on the
            similarity kernel) or ``"aggregate"`` (ROUGE-N only: against the pseudo-references'
            mean n-gram counts, linear in the number of candidates; an approximation whose
            choice agrees with exact MBR on most sources, see docs/training_loops.md).
        return_matrix: keep the exact method's score matrix in each result.
        workers, **options: as in :func:`cdist`.
    """
    sources, single = _mbr_sources(candidates)
    check_choice(method, "method", ("exact", "aggregate"))
    check_bool(return_matrix, "return_matrix")
    threads = _workers(workers)
    scoring = _scoring(rouge_type, measure, options)
    settings = scoring.interner.settings
    pseudo: list[list[str]] | list[None]
    if references is None:
        pseudo = [None] * len(sources)
    else:
        given, one = _mbr_sources(references)
        if one != single or len(given) != len(sources):
            raise fail_value(
                "references",
                "the shape of candidates (one list, or one list per source)",
                references,
            )
        pseudo = given
    rouge_kind = settings.rouge_types[0]
    if method == "aggregate" and rouge_kind.kind != "n":
        raise fail_value("method", "'exact' for ROUGE-L ('aggregate' is for ROUGE-N)", method)
    import math

    results = []
    for cands, refs in zip(sources, pseudo):
        matrix = None
        if method == "aggregate":
            scores = _aggregate_scores(
                cands,
                refs,
                settings.tokenizer.tokenize,
                rouge_kind.n,
                str(measure),
                settings.beta,
            )
        else:
            interner = scoring.interner
            queries = interner.units(cands)
            pool = queries if refs is None else interner.units(refs)
            matrix = hits_matrix(scoring, queries, pool, NO_FLOOR, threads)
            rows = matrix.tolist()
            if refs is None:
                k = len(cands) - 1
                scores = [
                    math.fsum(v for j, v in enumerate(row) if j != i) / k if k else math.nan
                    for i, row in enumerate(rows)
                ]
            else:
                scores = [math.fsum(row) / len(row) for row in rows]
        best = 0
        for i, value in enumerate(scores):
            if value > scores[best]:  # NaN (a lone candidate) is never chosen over a number
                best = i
        results.append(MBRResult(best, scores, matrix if return_matrix else None))
    return results[0] if single else results
