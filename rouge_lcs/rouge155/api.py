"""``score()``: ROUGE-1.5.5's numbers for lists of texts, without Perl.

Statistics are computed once per (example, metric, reference) by :mod:`.counts`; combination
over references, rounding and the bootstrap average are arithmetic on them (:mod:`.report`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from itertools import chain

import numpy as np

from rouge_lcs.base.validation import (
    MAX_INT,
    check_bool,
    check_choice,
    check_int,
    check_number,
    fail_value,
)
from rouge_lcs.rouge155.counts import (
    Batch,
    Metric,
    PairArrays,
    batch_stats,
    flat_stats,
    prepare,
)
from rouge_lcs.rouge155.report import Report, bootstrap_averages, combine_arrays, prf_arrays
from rouge_lcs.rouge155.tokenize import Terms, flat_terms, lines_of, script_bytes
from rouge_lcs.scores.statistics import MAX_RESAMPLES
from rouge_lcs.text.rouge_types import MAX_N

__all__ = ["Options", "Reading", "score", "score_lines", "metrics_for", "shared_reading"]

Text = str | Sequence[str]


def _perl_number(value: float | int | str) -> str:
    """How Perl prints a number the user gave (kept verbatim when given as a string)."""
    if isinstance(value, str):
        return value
    return f"{value:.15g}"  # Perl's default number format


@dataclass(frozen=True)
class Options:
    """The script's flags.  Field comments name the flag."""

    n: int = 2  # -n N (0: no ROUGE-N)
    rouge_l: bool = True  # not -x
    weight: float | str | None = None  # -w W
    skip: int | str | None = None  # -2 D (negative: any distance)
    unigrams: bool | str = False  # -u (True) / -U ("both": ROUGE-S and ROUGE-SU)
    stem: bool = False  # -m
    stopwords: bool = False  # -s
    length_limit: int | None = None  # -l N (words)
    byte_limit: int | None = None  # -b N (bytes)
    multi_ref: str = "A"  # -f A|B
    alpha: float = 0.5  # -p
    confidence: float | str = 95  # -c
    resamples: int = 1000  # -r

    def validate(self) -> None:
        """Reject what the script rejects (it dies), what it silently misreads, and what no
        summary evaluation needs but would exhaust time, memory or floating point.

        Bounds, as the library's: ``n`` up to 1,000 (each N is one more pass over every
        pair), ``resamples`` up to 10**6 (the bootstrap holds resamples × metrics numbers),
        ``-l``/``-b``/``-2`` below 2**63.  ``weight`` from 1 to 10: below 1 the weighted LCS
        rewards gaps and the script's recall exceeds 1 (``-w 0.5``: R 3.04721 on a six-word
        pair); above 10, ``k ** w`` leaves the doubles for sentences of ~1,000 tokens and
        more (``-w 100``) and the script prints NaN.
        """
        check_int(self.n, "n (-n)", 0, MAX_N)
        check_bool(self.rouge_l, "rouge_l (-x)")
        check_bool(self.stem, "stem (-m)")
        check_bool(self.stopwords, "stopwords (-s)")
        for name, flag in (("length_limit", "-l"), ("byte_limit", "-b")):
            value = getattr(self, name)
            if value is not None:
                check_int(value, f"{name} ({flag})", 0)
        if self.length_limit and self.byte_limit:
            raise ValueError(
                "length_limit (-l) and byte_limit (-b): expected one of them (they are exclusive), "
                "got both"
            )
        check_choice(self.multi_ref, "multi_ref (-f)", ("A", "B"))
        alpha = check_number(self.alpha, "alpha (-p)")
        if not 0 <= alpha <= 1:
            raise fail_value("alpha (-p)", "a number from 0 to 1", self.alpha)
        if self.weight is not None:
            weight = _flag_number(self.weight, "weight (-w)")
            if not MIN_WEIGHT <= weight <= MAX_WEIGHT:
                raise fail_value(
                    "weight (-w)", f"a number from {MIN_WEIGHT:g} to {MAX_WEIGHT:g}", self.weight
                )
        if self.skip is not None:
            skip = self.skip if isinstance(self.skip, int) else _flag_int(self.skip, "skip (-2)")
            check_int(skip, "skip (-2)", -MAX_INT, MAX_INT)
        confidence = _flag_number(self.confidence, "confidence (-c)")
        if not 0 <= confidence <= 100:
            raise fail_value("confidence (-c)", "a number from 0 to 100", self.confidence)
        check_int(self.resamples, "resamples (-r)", 1, MAX_RESAMPLES)
        if self.unigrams not in (False, True, "both"):
            raise fail_value("unigrams (-u/-U)", "False, True or 'both'", self.unigrams)
        if not metrics_for(self):
            raise ValueError("no metric selected (n=0, rouge_l=False, no weight, no skip)")


#: ``-w`` bounds (see :meth:`Options.validate`).
MIN_WEIGHT, MAX_WEIGHT = 1.0, 10.0


def _flag_number(value: object, name: str) -> float:
    """A finite number given as a number or as the text the user typed (kept for printing)."""
    if isinstance(value, str):
        if not perl_numeral(value, False):
            raise fail_value(name, "a number (ASCII digits)", value)
        number = float(value)
        if not math.isfinite(number):
            raise fail_value(name, "a finite number", value)
        return number
    return check_number(value, name)


#: The numerals the script's Perl reads as the number they show: ASCII digits, a sign, a
#: point and an exponent.  Python's ``int``/``float`` also read ``1_0`` and fullwidth or other
#: Unicode digits, which Perl reads as 1 and 0 (the digits before the first other character).
_PERL_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_PERL_REAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


def perl_numeral(text: str, integer: bool) -> bool:
    """Whether ``text`` is a numeral (an integer one with ``integer``) Perl reads whole."""
    return (_PERL_INT if integer else _PERL_REAL).fullmatch(text.strip()) is not None


def _flag_int(value: str, name: str) -> int:
    """An integer given as the text the user typed."""
    if not perl_numeral(value, True):
        raise fail_value(name, "an integer (ASCII digits)", value)
    return int(value)


def metrics_for(opts: Options) -> list[Metric]:
    """The metrics the script prints for these flags, in its order."""
    metrics = [Metric("N", n=k) for k in range(1, opts.n + 1)]
    if opts.rouge_l:
        metrics.append(Metric("L"))
    if opts.weight is not None:
        weight, text = float(opts.weight), _perl_number(opts.weight)
        metrics.append(Metric("W", weight=weight, weight_text=text))
    if opts.skip is not None:
        skip, text = int(opts.skip), _perl_number(opts.skip)
        if opts.unigrams == "both":  # -U: ROUGE-S then ROUGE-SU
            metrics.append(Metric("S", skip=skip, skip_text=text))
            metrics.append(Metric("S", skip=skip, skip_text=text, unigrams=True))
        else:
            metrics.append(Metric("S", skip=skip, skip_text=text, unigrams=bool(opts.unigrams)))
    return metrics


#: Lines read for several calls: a :class:`Terms` per ``(-m, -s)`` (see :func:`shared_reading`).
Reading = dict[tuple[bool, bool], Terms]

#: The reading the calls inside :func:`shared_reading` share (``None``: outside one).
_READING: ContextVar[Reading | None] = ContextVar("rouge155_reading", default=None)


@contextmanager
def shared_reading(store: Reading | None = None) -> Iterator[Reading]:
    """Inside the block, the calls of :func:`score` and :func:`score_lines` (in this thread or
    task) with the same ``-m`` and ``-s`` read each line once for all of them: its terms
    (tokens, stop words, stems) are kept in ``store`` (a new one by default; pass the one a
    block yielded to go on sharing it later), which the block yields.  The flag sets an audit
    tries differ in ``-l``/``-b``, which cut the lines before they are read: a line that none
    cuts was tokenized and stemmed once per flag set.  The numbers are the same (the ids of
    terms are labels only)."""
    store = {} if store is None else store
    token = _READING.set(store)
    try:
        yield store
    finally:
        _READING.reset(token)


def _terms(stem: bool, stopwords: bool) -> Terms:
    """A :class:`Terms` for ``-m``/``-s``: the block's shared one inside :func:`shared_reading`."""
    store = _READING.get()
    if store is None:
        return Terms(stem=stem, remove_stopwords=stopwords)
    found = store.get((stem, stopwords))
    if found is None:
        found = store[stem, stopwords] = Terms(stem=stem, remove_stopwords=stopwords)
    return found


#: ``stats(pair_peer, pair_model, metrics)``: per-pair statistics of the distinct summaries.
StatsOf = Callable[[np.ndarray, np.ndarray, list[Metric]], list[PairArrays]]


def score_lines(
    peers: Sequence[list[bytes]],
    models: Sequence[Sequence[list[bytes]]],
    opts: Options,
    *,
    eval_ids: Sequence[str] | None = None,
    peer_id: str = "1",
    details: bool = True,
    exact_average: bool = False,
) -> Report:
    """Score summaries given as the lines the script reads (see :func:`.tokenize.lines_of`).

    ``exact_average=True`` recomputes every average with the script's own float sums (the
    default takes that path only where it can change a printed digit; see
    :func:`.report.bootstrap_averages`).
    """
    # Each distinct summary is read once.
    index: dict[tuple[bytes, ...], int] = {}
    distinct: list[list[bytes]] = []

    # The same list object (a reference shared by many examples) is looked up by identity
    # first; the lists are alive for the whole call, so ids are not reused meanwhile.
    by_object: dict[int, int] = {}

    def summary_id(lines: list[bytes]) -> int:
        k = by_object.get(id(lines))
        if k is not None:
            return k
        key = tuple(lines)
        k = index.get(key)
        if k is None:
            k = index[key] = len(distinct)
            distinct.append(lines)
        by_object[id(lines)] = k
        return k

    peer_of = [summary_id(lines) for lines in peers]
    model_of = [[summary_id(lines) for lines in model_lines] for model_lines in models]

    def stats(
        pair_peer: np.ndarray, pair_model: np.ndarray, metrics: list[Metric]
    ) -> list[PairArrays]:
        terms = _terms(opts.stem, opts.stopwords)
        if not opts.length_limit and not opts.byte_limit:
            blob = b"\n".join(b"\n".join(lines) for lines in distinct)
            line_counts = [len(lines) or 1 for lines in distinct]
            if blob.count(b"\n") == sum(line_counts) - 1:  # no line holds a line break
                flat = flat_terms(blob, line_counts, terms, lower=False)
                return flat_stats(flat, pair_peer, pair_model, metrics)
        return _summary_stats(distinct, terms, opts, pair_peer, pair_model, metrics)

    return _score(
        peer_of, model_of, stats, opts, eval_ids=eval_ids, peer_id=peer_id, details=details,
        exact_average=exact_average,
    )  # fmt: skip


def _summary_stats(
    distinct: Sequence[list[bytes]],
    terms: Terms,
    opts: Options,
    pair_peer: np.ndarray,
    pair_model: np.ndarray,
    metrics: list[Metric],
) -> list[PairArrays]:
    """Statistics through one :class:`.counts.Summary` per distinct summary (``-l``, ``-b``)."""
    limits = (opts.length_limit or 0, opts.byte_limit or 0)
    summaries = [prepare(lines, terms, *limits) for lines in distinct]
    batch = Batch(summaries, terms.id_bound())
    return batch_stats(batch, pair_peer, pair_model, metrics, limits[1])


def _score(
    peer_of: list[int],
    model_of: list[list[int]],
    stats_of: StatsOf,
    opts: Options,
    *,
    eval_ids: Sequence[str] | None,
    peer_id: str,
    details: bool,
    exact_average: bool,
) -> Report:
    """The report of examples given as indices of distinct summaries: example ``i`` has peer
    ``peer_of[i]`` and models ``model_of[i]``; ``stats_of`` reads the summaries and computes
    the per-pair statistics."""
    opts.validate()
    if len(peer_of) != len(model_of):
        raise ValueError(f"{len(peer_of)} predictions but {len(model_of)} reference lists")
    if not peer_of:
        raise ValueError("no examples")
    for i, model_ids in enumerate(model_of):
        if not model_ids:
            raise ValueError(f"example {i}: no reference")
    ids = [str(i + 1) for i in range(len(peer_of))] if eval_ids is None else list(eval_ids)
    if len(ids) != len(peer_of):
        raise ValueError("eval_ids must have one id per example")
    metrics = metrics_for(opts)

    # Each distinct (peer, model) pair is scored once (systems that output the same summary
    # for a document, a reference listed twice); ``slots`` maps every slot to its pair.
    sizes = np.fromiter(map(len, model_of), dtype=np.int64, count=len(model_of))
    first = np.cumsum(sizes) - sizes
    slot_model = np.fromiter(
        chain.from_iterable(model_of), dtype=np.int64, count=int(first[-1] + sizes[-1])
    )
    slot_peer = np.repeat(np.asarray(peer_of, dtype=np.int64), sizes)
    n_summaries = int(max(slot_model.max(), max(peer_of))) + 1
    keys, slots = np.unique(slot_peer * n_summaries + slot_model, return_inverse=True)
    unique_stats = stats_of(keys // n_summaries, keys % n_summaries, metrics)
    stats = [tuple(column[slots] for column in metric_stats) for metric_stats in unique_stats]
    per_example = []
    for metric, (hit, model_count, peer_count, select) in zip(metrics, stats):
        weighted = metric.rules.weighted
        combined = combine_arrays(
            hit, model_count, peer_count, select, first, opts.multi_ref, sequential=weighted
        )
        per_example.append(prf_arrays(*combined, opts.alpha, metric.weight if weighted else None))
    columns = np.stack([column for rpf in per_example for column in rpf], axis=1)
    test_ids = [f"{e}.{peer_id}" for e in ids]
    flat = bootstrap_averages(
        columns, test_ids, opts.resamples, float(opts.confidence), exact=exact_average
    )
    averages = [flat[3 * m : 3 * m + 3] for m in range(len(metrics))]
    return Report(
        metrics=metrics,
        eval_ids=ids,
        peer_id=peer_id,
        per_example=per_example,
        averages=averages,
        confidence_text=_perl_number(opts.confidence),
        details=details,
    )


def score(
    predictions: Sequence[Text],
    references: Sequence[Text | Sequence[Text]],
    *,
    n: int = 2,
    rouge_l: bool = True,
    stem: bool = False,
    stopwords: bool = False,
    length_limit: int | None = None,
    byte_limit: int | None = None,
    multi_ref: str = "A",
    alpha: float = 0.5,
    weight: float | str | None = None,
    skip: int | str | None = None,
    unigrams: bool | str = False,
    confidence: float | str = 95,
    resamples: int = 1000,
    peer_id: str = "1",
) -> Report:
    """ROUGE-1.5.5's per-example and average numbers, as the script prints them.

    ``predictions[i]`` is a text (sentences separated by ``"\\n"``, as in the script's SPL files:
    ROUGE-L is the union LCS over these sentences) or a list of sentences.  ``references[i]``
    is one reference (a text) or a list of references (each a text or a list of sentences).

    Flags: ``n`` -n, ``rouge_l=False`` -x, ``stem`` -m, ``stopwords`` -s, ``length_limit`` -l,
    ``byte_limit`` -b, ``multi_ref`` -f, ``alpha`` -p, ``weight`` -w, ``skip`` -2,
    ``unigrams=True`` -u, ``unigrams="both"`` -U, ``confidence`` -c, ``resamples`` -r.

    Returns a :class:`~rouge_lcs.rouge155.report.Report`: ``.per_example_dicts()`` (``-d``
    numbers with pyrouge keys), ``.to_dict()`` (the printed averages as pyrouge's
    ``output_to_dict``), ``.text()`` (the script's stdout).

    >>> r = score(["Police killed the gunman"], ["The gunman killed the policeman"])
    >>> r.per_example_dicts()[0]["rouge_1_f_score"], r.to_dict()["rouge_2_recall"]
    (0.66667, 0.5)
    """
    if isinstance(predictions, str) or isinstance(references, str):
        raise TypeError("predictions and references must be lists (one item per example)")
    opts = Options(
        n=n,
        rouge_l=rouge_l,
        weight=weight,
        skip=skip,
        unigrams=unigrams,
        stem=stem,
        stopwords=stopwords,
        length_limit=length_limit,
        byte_limit=byte_limit,
        multi_ref=multi_ref,
        alpha=alpha,
        confidence=confidence,
        resamples=resamples,
    )
    # Each distinct text is read once (a list of sentences is keyed by its tuple).
    index: dict[object, int] = {}
    peer_of = [
        index.setdefault(p if isinstance(p, str) else tuple(p), len(index)) for p in predictions
    ]
    model_of = [
        [index.setdefault(r if isinstance(r, str) else tuple(r), len(index)) for r in refs]
        if not isinstance(refs, str)
        else [index.setdefault(refs, len(index))]
        for refs in references
    ]
    distinct = [key if isinstance(key, str) else "\n".join(key) for key in index]  # type: ignore[arg-type]

    def stats(
        pair_peer: np.ndarray, pair_model: np.ndarray, metrics: list[Metric]
    ) -> list[PairArrays]:
        terms = _terms(stem, stopwords)
        if not length_limit and not byte_limit:
            # All texts as one: lines_of's lines, each text's own (empty ones never count).
            blob = script_bytes("\n".join(distinct))
            line_counts = [text.count("\n") + 1 for text in distinct]
            flat = flat_terms(blob, line_counts, terms, lower=True)
            return flat_stats(flat, pair_peer, pair_model, metrics)
        lines = [lines_of(text) for text in distinct]
        return _summary_stats(lines, terms, opts, pair_peer, pair_model, metrics)

    return _score(
        peer_of, model_of, stats, opts, eval_ids=None, peer_id=peer_id, details=True,
        exact_average=False,
    )  # fmt: skip
