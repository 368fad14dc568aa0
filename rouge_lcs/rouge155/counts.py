"""Per-pair statistics of ROUGE-1.5.5, no rounding: :func:`pair_stats` states the script's rules
for one (peer, model) pair; :func:`batch_stats` computes the same numbers for a whole batch on
the engine's kernels (ROUGE-W, and ROUGE-L under ``-b``, fall back to the per-pair code).

For every metric and every model (reference) of an example we keep the script's four numbers:
``hit``, ``model_count``, ``peer_count`` and ``select`` — the per-model score that ``-f B`` uses
to pick the best model.  :mod:`rouge_lcs.rouge155.report` combines them (``-f A`` / ``-f B``),
rounds and averages; nothing here depends on ``-f``, ``-p`` or the averaging.

- ROUGE-N (``createNGram``/``ngramScore``): clipped n-gram hits; ``select`` is the recall rounded
  to 5 decimals (the script compares ``sprintf("%07.5f")`` strings).
- ROUGE-S/SU (``createSkipBigram``): pairs ``(i, j)``, ``i < j <= i + d + 1`` (any ``j`` when
  ``d < 0``); with ``-u`` each token but the *last* also counts as a unigram (the script's loop
  stops one short), so a one-token summary has no SU units at all.
- ROUGE-L (``lcs``): for each model sentence the union of its LCS positions against every peer
  sentence (the script's backtrack: diagonal on a match, else up when that keeps the length,
  else left); a union token counts while the whole-summary unigram counts of both sides last.
  ``model_count`` is the number of model LCS tokens, ``peer_count`` the peer's unigram count,
  ``select`` the unrounded recall.
- ROUGE-W (``wlcs``): the same walk on the weighted-LCS table with weight ``f(k) = k ** w``;
  the script adds ``f(run)`` for each run of consecutive hits, and weights the model length
  *twice*: ``model_count = (sum_s len(s) ** w) ** w``, ``peer_count = len(peer) ** w``, which
  we reproduce.  A model without tokens makes the script die (division by zero): we raise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import cast

import numpy as np

from rouge_lcs.engine import Candidate, lcs_indices
from rouge_lcs.engine.backend import IdDocs, backend
from rouge_lcs.rouge155.tokenize import Flat, Terms, read_parts, read_text_lcs
from rouge_lcs.text.rouge_types import (
    KINDS,
    LCS,
    NGRAMS,
    ROUGE_KINDS,
    SKIP,
    UNION_LCS,
    WLCS,
    RougeKind,
    RougeType,
)

__all__ = [
    "Metric",
    "Summary",
    "prepare",
    "pair_stats",
    "PairStat",
    "Batch",
    "batch_stats",
    "flat_stats",
]

#: ``(hit, model_count, peer_count, select)`` of one (peer, model) pair for one metric.
PairStat = tuple[float, float, float, float]


#: The kernels of the script's ROUGE-L: the union LCS over the model's sentences (ROUGE-Lsum's
#: count), whichever of the library's LCS kinds names it.
_SCRIPT_LCS = (LCS, UNION_LCS)


def _metric_rules(kind: object, unigrams: bool) -> RougeKind:
    """The record of a metric's kind: a kind of :data:`~rouge_lcs.text.rouge_types.KINDS`, or
    the script's ``N`` (ROUGE-N); ``S`` with ``unigrams`` is ROUGE-SU (the script's ``-u``)."""
    rules = ROUGE_KINDS.get("n" if kind == "N" else kind) if isinstance(kind, str) else None
    if rules is None:
        raise ValueError(f"kind: expected one of {[*KINDS, 'N']}, got {kind!r}")
    if unigrams and not rules.unigrams:
        rules = next(
            (r for r in ROUGE_KINDS.values() if r.unigrams and r.kernel == rules.kernel), None
        )
        if rules is None:
            raise ValueError(f"unigrams: expected False for kind {kind!r} (ROUGE-S only)")
    return rules


@dataclass(frozen=True)
class Metric:
    """One line of the script's report: ``kind`` one of the library's ROUGE kinds (``n``,
    ``L``, ``W``, ``S``, ``SU``; ``Lsum`` is the script's ROUGE-L as well) or the script's
    ``N``, and its parameters; ``rules`` is the kind's record (ValueError for any other kind)."""

    kind: str
    n: int = 0  # ROUGE-N size
    weight: float = 1.2  # ROUGE-W
    weight_text: str = "1.2"  # how the script prints it (Perl's number as the user typed it)
    skip: int = 4  # ROUGE-S skip distance, < 0 unlimited
    skip_text: str = "4"
    unigrams: bool = False  # ROUGE-SU (set for kind "SU")
    rules: RougeKind = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rules = _metric_rules(self.kind, self.unigrams)
        object.__setattr__(self, "rules", rules)  # frozen: as dataclasses' own __init__ does
        object.__setattr__(self, "unigrams", rules.unigrams)

    @property
    def tag(self) -> str:
        """The script's name: ``ROUGE-2``, ``ROUGE-L``, ``ROUGE-W-1.2``, ``ROUGE-SU4``, …"""
        distance = self.skip_text if self.skip >= 0 else "*"
        return self.rules.perl.format(n=self.n, weight=self.weight_text, skip=distance)


class Summary:
    """A summary as the script sees it: whole-text terms and per-sentence terms, and both as
    token ids (:attr:`.Terms.vocab`) for the batched kernels."""

    __slots__ = ("sentences", "sentence_ids", "term_ids", "size", "_terms", "_grams", "_skips")

    def __init__(
        self,
        terms: list[str] | None,
        sentences: list[list[str]],
        sentence_ids: list[list[int]] | None = None,
        term_ids: list[int] | None = None,
    ) -> None:
        self._terms = terms
        self.sentences = sentences
        self.sentence_ids = sentence_ids if sentence_ids is not None else []
        #: ids of the whole text; ``None``: the sentences' ids in order (no ``-b``)
        self.term_ids = term_ids
        self.size = len(terms) if terms is not None else sum(map(len, sentences))
        self._grams: dict[int, Counter] = {}
        self._skips: dict[tuple[int, bool], Counter] = {}

    @property
    def terms(self) -> list[str]:
        """The whole text's terms (``None`` at construction: the sentences' terms in order)."""
        if self._terms is None:
            self._terms = list(chain.from_iterable(self.sentences))
        return self._terms

    def iter_term_ids(self) -> Iterable[int]:
        """The whole text's term ids, without building a list when they are the sentences'."""
        if self.term_ids is not None:
            return self.term_ids
        return chain.from_iterable(self.sentence_ids)

    def ngrams(self, n: int) -> Counter:
        """``createNGram``: n-gram counts (the count total is ``max(0, len - n + 1)``)."""
        grams = self._grams.get(n)
        if grams is None:
            t = self.terms
            grams = Counter(t) if n == 1 else Counter(zip(*(t[i:] for i in range(n))))
            self._grams[n] = grams
        return grams

    def skip_bigrams(self, skip: int, unigrams: bool) -> Counter:
        """``createSkipBigram`` counts (with the script's missing last unigram under ``-u``)."""
        key = (skip, unigrams)
        grams = self._skips.get(key)
        if grams is None:
            t = self.terms
            size = len(t)
            grams = Counter()
            for i in range(size - 1):
                if unigrams:
                    grams[t[i]] += 1
                end = size if skip < 0 else min(size, i + skip + 2)
                first = t[i]
                grams.update((first, t[j]) for j in range(i + 1, end))
            self._skips[key] = grams
        return grams


def prepare(
    lines: Sequence[bytes], terms: Terms, length_limit: int = 0, byte_limit: int = 0
) -> Summary:
    """Read one summary the way the script does (see :mod:`rouge_lcs.rouge155.tokenize`)."""
    kept = read_text_lcs(lines, length_limit, byte_limit)
    sentences = [terms.of_line(s) for s in kept]
    sentence_ids = [terms.ids_of_line(s) for s in kept]
    if byte_limit:  # only -b cuts the whole text and the sentences differently
        # readText's text is its pieces joined by spaces: their terms in order (see read_parts)
        parts = read_parts(lines, length_limit, byte_limit)
        whole = [t for part in parts for t in terms.of_line(part)]
        return Summary(whole, sentences, sentence_ids, terms.ids(whole))
    # readText joins the same (cut) lines with spaces: the same tokens in order
    return Summary(None, sentences, sentence_ids)


def _clipped_hits(model: Counter, peer: Counter) -> int:
    if len(peer) < len(model):
        model, peer = peer, model
    return sum(min(c, peer[g]) for g, c in model.items() if g in peer)


def _round5(x: float) -> float:
    return float(f"{x:.5f}")


# ---------------------------------------------------------------- LCS


def _lcs_positions(model: Sequence[str], peer: Candidate) -> list[int]:
    """Model positions that the script's ``markLCS`` marks for one sentence pair.

    The script walks back from ``(m, n)``: diagonal on a token match, else up when
    ``c[i-1][j] >= c[i][j-1]``, else left: rouge_score's walk, so
    :func:`rouge_lcs.engine.lcs.lcs_indices` (bit rows, linear memory) gives it.  The kernel only
    hashes tokens, so strings serve as ids.
    """
    return lcs_indices(cast(Sequence[int], model), peer)


def _lcs_stat(model: Summary, peer_sentences: list[Candidate], peer: Summary) -> PairStat:
    union: Counter = Counter()
    base = 0
    for sentence in model.sentences:
        base += len(sentence)
        if not sentence:
            continue
        words = set(sentence)
        positions: set[int] = set()
        for cand in peer_sentences:
            if cand.tokens and not words.isdisjoint(cand.positions):
                positions.update(_lcs_positions(sentence, cand))
        union.update(sentence[p] for p in positions)
    # Each union position is a distinct model occurrence and the script decrements both unigram
    # tables once per counted hit, so a term counts min(union, model, peer) times.
    m1, p1 = model.ngrams(1), peer.ngrams(1)
    hit = sum(min(c, m1.get(t, 0), p1.get(t, 0)) for t, c in union.items())
    peer_count = peer.size
    return hit, base, peer_count, (hit / base if base > 0 else 0.0)


# ---------------------------------------------------------------- weighted LCS


def _wlcs_arrays(
    docs: IdDocs, pair_peer: np.ndarray, pair_model: np.ndarray, w: float
) -> PairArrays:
    """ROUGE-W statistics of each pair from the engine's summary-level weighted LCS
    (``Backend.rouge155_wlcs``): the script weights the model length twice,
    ``model_count = (sum_s len(s) ** w) ** w``, and ``peer_count = len(peer) ** w``."""
    peers = np.ascontiguousarray(pair_peer, dtype=np.int64)
    models = np.ascontiguousarray(pair_model, dtype=np.int64)
    hit_base = backend().rouge155_wlcs(docs, peers, models, w)
    hits, bases = hit_base[:, 0].tolist(), hit_base[:, 1].tolist()
    if 0.0 in bases:
        raise ValueError(
            "ROUGE-W: a reference has no tokens; ROUGE-1.5.5 dies on it (division by zero)"
        )
    peer_sizes = np.diff(docs.starts)[peers].tolist()
    select = [(hit / base) ** (1 / w) for hit, base in zip(hits, bases)]
    return (
        hit_base[:, 0].copy(),
        np.array([base**w for base in bases], dtype=np.float64),
        np.array([float(size) ** w for size in peer_sizes], dtype=np.float64),
        np.array(select, dtype=np.float64),
    )


def _wlcs_stat(model: Summary, peer: Summary, w: float) -> PairStat:
    ids = chain(
        peer.iter_term_ids(), model.iter_term_ids(), *peer.sentence_ids, *model.sentence_ids
    )
    docs = Batch([peer, model], max(ids, default=0) + 1).id_docs()
    hit, model_count, peer_count, select = _wlcs_arrays(docs, np.array([0]), np.array([1]), w)
    return float(hit[0]), float(model_count[0]), float(peer_count[0]), float(select[0])


# ---------------------------------------------------------------- one pair, every metric


def pair_stats(
    peer: Summary, models: Sequence[Summary], metrics: Sequence[Metric]
) -> list[list[PairStat]]:
    """``stats[metric][model]`` for one example."""
    out: list[list[PairStat]] = []
    peer_sentences: list[Candidate] | None = None
    for metric in metrics:
        row: list[PairStat] = []
        kernel = metric.rules.kernel
        if kernel == NGRAMS:
            pg = peer.ngrams(metric.n)
            p_count = max(0, peer.size - metric.n + 1)
            for model in models:
                mg = model.ngrams(metric.n)
                m_count = max(0, model.size - metric.n + 1)
                hit = _clipped_hits(mg, pg)
                row.append((hit, m_count, p_count, _round5(hit / m_count) if m_count else 0.0))
        elif kernel == SKIP:
            pg = peer.skip_bigrams(metric.skip, metric.unigrams)
            p_count = sum(pg.values())
            for model in models:
                mg = model.skip_bigrams(metric.skip, metric.unigrams)
                m_count = sum(mg.values())
                hit = _clipped_hits(mg, pg)
                row.append((hit, m_count, p_count, _round5(hit / m_count) if m_count else 0.0))
        elif kernel in _SCRIPT_LCS:
            if peer_sentences is None:
                peer_sentences = [Candidate(cast(Sequence[int], s)) for s in peer.sentences]
            for model in models:
                row.append(_lcs_stat(model, peer_sentences, peer))
        elif kernel == WLCS:
            for model in models:
                row.append(_wlcs_stat(model, peer, metric.weight))
        else:
            raise _no_kernel(metric)
        out.append(row)
    return out


# ---------------------------------------------------------------- a whole batch at once


class Batch:
    """Distinct summaries of a call as integer token ids, flat, for the engine's kernels.

    ``vocab_size`` is a bound above every id (:meth:`.Terms.id_bound`): ids may have gaps, and
    the kernels only need them below it.
    """

    def __init__(self, summaries: Sequence[Summary], vocab_size: int) -> None:
        self.summaries = summaries
        self.vocab_size = max(vocab_size, 1)
        self.lengths = np.fromiter((s.size for s in summaries), dtype=np.int64)
        ids = chain.from_iterable(s.iter_term_ids() for s in summaries)
        self.flat = np.fromiter(ids, dtype=np.int64, count=int(self.lengths.sum()))

    def id_docs(self) -> IdDocs:
        """The summaries as the engine's numbered documents: the whole texts' ids, and the LCS
        sentences' ids (the same tokens in order, except under ``-b``)."""
        starts = np.zeros(self.lengths.size + 1, dtype=np.int64)
        np.cumsum(self.lengths, out=starts[1:])
        sentences = [s for summary in self.summaries for s in summary.sentence_ids]
        sent_lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        sent_starts = np.zeros(len(sentences) + 1, dtype=np.int64)
        np.cumsum(sent_lengths, out=sent_starts[1:])
        sent_ids = np.fromiter(
            chain.from_iterable(sentences), dtype=np.int64, count=int(sent_starts[-1])
        )
        per_summary = (len(summary.sentence_ids) for summary in self.summaries)
        doc_sent = np.zeros(self.lengths.size + 1, dtype=np.int64)
        np.cumsum(np.fromiter(per_summary, dtype=np.int64), out=doc_sent[1:])
        return IdDocs(self.flat, starts, sent_ids, sent_starts, doc_sent, self.vocab_size)


#: ``(hit, model_count, peer_count, select)`` arrays over the pairs of a batch, for one metric.
PairArrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _round5_array(x: np.ndarray) -> np.ndarray:
    """``sprintf("%07.5f")`` as a double, vectorized (see :func:`.report.round5`)."""
    x = np.asarray(x, dtype=np.float64)
    y = x * 1e5
    whole = np.floor(y)
    frac = y - whole
    out = (whole + (frac > 0.5)) / 1e5
    near = np.abs(frac - 0.5) < 1e-6  # at a tie printf decides, on the exact double
    if near.any():
        out[near] = [_round5(v) for v in x[near].tolist()]
    return out


def _recall_stats(hit: np.ndarray, model_count: np.ndarray, peer_count: np.ndarray) -> PairArrays:
    """ROUGE-N/S statistics from hits and counts; ``select`` is the recall rounded to 5."""
    hit = hit.astype(np.float64)
    model_count = model_count.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        recall = np.where(model_count > 0, hit / model_count, 0.0)
    return hit, model_count, peer_count.astype(np.float64), _round5_array(recall)


def _lcs_arrays(hit: np.ndarray, base: np.ndarray, peer_count: np.ndarray) -> PairArrays:
    """ROUGE-L statistics from union-LCS hits (no ``-b``: the sentences are the text)."""
    hit = hit.astype(np.float64)
    base = base.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        select = np.where(base > 0, hit / base, 0.0)
    return hit, base, peer_count.astype(np.float64), select


def _per_pair(
    summaries: Sequence[Summary], pair_peer: np.ndarray, pair_model: np.ndarray, metric: Metric
) -> PairArrays:
    rows = [
        pair_stats(summaries[p], [summaries[m]], [metric])[0][0]
        for p, m in zip(pair_peer.tolist(), pair_model.tolist())
    ]
    arr = np.array(rows, dtype=np.float64).reshape(-1, 4)
    return arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3]


def batch_stats(
    batch: Batch,
    pair_peer: np.ndarray,
    pair_model: np.ndarray,
    metrics: Sequence[Metric],
    byte_limit: int = 0,
) -> list[PairArrays]:
    """Per-pair statistics of every metric for pairs ``(pair_peer[k], pair_model[k])``.

    ROUGE-N, ROUGE-L and ROUGE-S/SU run on the engine (:func:`_engine_stats`), except ROUGE-L
    under ``-b``, where the script clips the sentence LCS with differently cut unigram counts
    and the per-pair path is taken; ROUGE-W is the engine's ``rouge155_wlcs`` on term ids.
    """
    return _engine_stats(
        batch.id_docs(), pair_peer, pair_model, metrics, lambda: batch.summaries, byte_limit
    )


def flat_stats(
    flat: Flat, pair_peer: np.ndarray, pair_model: np.ndarray, metrics: Sequence[Metric]
) -> list[PairArrays]:
    """:func:`batch_stats` for summaries read by :func:`.tokenize.flat_terms` (no ``-l``/``-b``:
    a summary's sentences are its text)."""
    docs = IdDocs(
        flat.ids, flat.doc_start, flat.ids, flat.line_start, flat.doc_line, flat.vocab_size
    )

    def summaries() -> list[Summary]:  # the per-pair statement, on ids
        return [Summary(None, cast(list[list[str]], s), s) for s in flat.sentence_ids()]

    return _engine_stats(docs, pair_peer, pair_model, metrics, summaries)


def _engine_stats(
    docs: IdDocs,
    pair_peer: np.ndarray,
    pair_model: np.ndarray,
    metrics: Sequence[Metric],
    summaries: Callable[[], Sequence[Summary]],
    byte_limit: int = 0,
) -> list[PairArrays]:
    """ROUGE-N and ROUGE-L of every pair in one call of the engine's ``id_counts`` (ROUGE-N is
    the same clipped count as :meth:`Summary.ngrams`, and ROUGE-L of the script is the union LCS
    over the model's sentences, ROUGE-Lsum's, with the same backtrack and clipping as
    :func:`pair_stats`), ROUGE-S/SU in one call of its ``skip_counts`` (the units of
    :meth:`Summary.skip_bigrams`, clipped), on either engine; ROUGE-W in one call of its
    ``rouge155_wlcs`` (the script's summary-level weighted LCS); ROUGE-L under ``-b`` per pair
    on ``summaries()``."""
    out: list[PairArrays | None] = [None] * len(metrics)
    engine = backend()
    peers = np.ascontiguousarray(pair_peer, dtype=np.int64)
    models = np.ascontiguousarray(pair_model, dtype=np.int64)
    kernels = [m.rules.kernel for m in metrics]
    counted = [
        k
        for k, kernel in enumerate(kernels)
        if kernel == NGRAMS or (kernel in _SCRIPT_LCS and not byte_limit)
    ]
    if counted:
        types = [
            RougeType(f"rouge{metrics[k].n}", "n", metrics[k].n)
            if kernels[k] == NGRAMS
            else RougeType("rougeLsum", "Lsum")
            for k in counted
        ]
        counts = engine.id_counts(docs, peers, models, types)
        for column, k in enumerate(counted):
            hit, peer_count, model_count = counts[:, column].T  # (hits, pred total, ref total)
            if kernels[k] == NGRAMS:
                out[k] = _recall_stats(hit, model_count, peer_count)
            else:
                out[k] = _lcs_arrays(hit, model_count, peer_count)
    listed: Sequence[Summary] | None = None
    for k, metric in enumerate(metrics):
        if kernels[k] == SKIP:
            units = engine.skip_counts(
                docs.ids, docs.starts, peers, models, metric.skip, metric.unigrams
            )
            hit, peer_count, model_count = units.T
            out[k] = _recall_stats(hit, model_count, peer_count)
        elif kernels[k] == WLCS:  # the engine's summary-level weighted LCS, on the same ids
            out[k] = _wlcs_arrays(docs, peers, models, metric.weight)
        elif kernels[k] not in (NGRAMS, *_SCRIPT_LCS):
            raise _no_kernel(metric)
        elif out[k] is None:  # ROUGE-L under -b
            if listed is None:
                listed = summaries()
            out[k] = _cut_lcs(docs, listed, peers, models, metric)
    return cast(list[PairArrays], out)


def _no_kernel(metric: Metric) -> ValueError:
    """The error of a metric whose kind's kernel the script's rules do not state."""
    return ValueError(
        f"metrics: kind {metric.kind!r} is counted by kernel {metric.rules.kernel!r}, which "
        f"ROUGE-1.5.5's statistics do not have (expected one of {[NGRAMS, LCS, WLCS, SKIP]})"
    )


def _uncut(summary: Summary) -> bool:
    """Whether ``-b`` left the whole text the sentences' tokens in order (a text under the
    limit): its ROUGE-L statistics are then those without ``-b``."""
    ids = summary.term_ids
    return ids is None or ids == list(chain.from_iterable(summary.sentence_ids))


def _cut_lcs(
    docs: IdDocs,
    summaries: Sequence[Summary],
    peers: np.ndarray,
    models: np.ndarray,
    metric: Metric,
) -> PairArrays:
    """ROUGE-L under ``-b``: pairs of texts that the limit did not cut through the engine's
    summary-level LCS (one call), the others by the per-pair statement."""
    uncut = np.fromiter(map(_uncut, summaries), dtype=bool, count=len(summaries))
    engine_pairs = uncut[peers] & uncut[models]
    counts = backend().id_counts(docs, peers, models, [RougeType("rougeLsum", "Lsum")])
    hit, peer_count, model_count = counts[:, 0].T
    out = [a.copy() for a in _lcs_arrays(hit, model_count, peer_count)]
    cut = np.flatnonzero(~engine_pairs)
    if cut.size:
        rows = _per_pair(summaries, peers[cut], models[cut], metric)
        for column, values in zip(out, rows):
            column[cut] = values
    return out[0], out[1], out[2], out[3]
