"""The engine interface: what both engines implement (see :mod:`rouge_lcs.engine.backend`).

Every kernel that has two implementations, the reference one (:mod:`rouge_lcs.engine.reference`)
and the native one (:mod:`rouge_lcs.engine.native`, the C core), is a method here; both give
bit-identical results, and the tests run each on both.  Code outside :mod:`rouge_lcs.engine`
calls these methods on :func:`~rouge_lcs.engine.backend.backend`'s engine and never asks which
engine it is (tests/test_architecture.py holds this).

- :meth:`Backend.store`: the per-call state that turns texts into per-pair counts
  (:meth:`Store.chunk_stats`: the distinct texts of a chunk and the pairs as indices into them
  in, ``(pairs, types, 3)`` int64 counts ``(hits, prediction_total, reference_total)`` out);
  its :attr:`Store.chunk` is how many examples the batch driver hands it at once;
- :meth:`Store.pair_scores`: one example's counts and scores at once (the per-call path);
- :meth:`Backend.combine`: per-example precision, recall and F from the counts, an example's
  references combined (``multi_ref``);
- :meth:`Backend.threads_serve`: whether ``num_proc`` is better served by threads;
- :meth:`Backend.number_texts`: a chunk's distinct texts and its pairs as indices into them;
- :meth:`Backend.int_lists`: token ids given as lists of ints, read in one pass;
  :meth:`Backend.cut_rows`: a padded 2-D array's rows, cut in one pass;
- the ROUGE-1.5.5 mode's kernels: :meth:`Backend.id_counts` (the counts of texts already
  numbered: token ids, sentence offsets), :meth:`Backend.skip_counts` (ROUGE-S/SU) and
  :meth:`Backend.rouge155_tokens` (the tokens of many summaries, numbered);
- :meth:`Backend.wlcs`: ROUGE-W's weighted LCS of pairs of numbered texts, and
  :meth:`Backend.rouge155_wlcs` ROUGE-1.5.5's summary-level ROUGE-W;
- :meth:`Backend.prefix_counts`: the counts of every prefix of each prediction (per-token
  ROUGE-N and ROUGE-L);
- :meth:`Backend.similarity_rows`: the similarity engine's kernel
  (:mod:`rouge_lcs.engine.similarity`: one query against many choices, pruned, top k).

A new kind of count (weighted LCS, skip-bigrams of the library's own types) is a method here
with its two halves, one in each engine, and a test on both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.base.records import record
from rouge_lcs.config.settings import Settings
from rouge_lcs.text.rouge_types import RougeType

# Not typing's TYPE_CHECKING: importing typing costs a fresh process ~3 ms (type checkers
# treat any name TYPE_CHECKING as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from array import array
    from typing import Protocol

    import numpy as np

    from rouge_lcs.engine.stats import PairPlan, PairStats, ScoresMake

    #: Per-example values: an ``(examples, types)`` array or a flat float64 array.
    Floats = np.ndarray | array[float]
else:
    np = lazy_import("numpy")
    # The interface is for type checkers; at run time its classes are plain (no typing).
    Protocol = object


@record
class IdDocs:
    """Numbered documents: document ``d``'s tokens are ``ids[starts[d]:starts[d + 1]]``; its
    sentences (for ROUGE-Lsum) are ``sent_ids[sent_starts[s]:sent_starts[s + 1]]`` for ``s`` in
    ``doc_sent[d]:doc_sent[d + 1]``; every id is below ``vocab_size``."""

    ids: np.ndarray
    starts: np.ndarray
    sent_ids: np.ndarray
    sent_starts: np.ndarray
    doc_sent: np.ndarray
    vocab_size: int


@record
class Rows:
    """A similarity kernel call (:mod:`rouge_lcs.engine.similarity`): row ``r`` scores query
    ``row_query[r]`` (units ``q_ids[q_starts[q]:q_starts[q + 1]]``, the prediction) against
    the choices ``cands[lo[r]:hi[r]]`` (units ``ids[starts[c]:starts[c + 1]]``, references);
    ``k == 0``: every pair's hits, else each row's ``k`` best; a pair passes when its score is
    > ``floor`` (``strict``) or >=.  Hits are of ``kind`` (0: LCS, 1: clipped overlap), scores
    of ``measure`` (0: F_β, 1: precision, 2: recall); every unit id is below ``vocab``."""

    q_ids: np.ndarray
    q_starts: np.ndarray
    row_query: np.ndarray
    ids: np.ndarray
    starts: np.ndarray
    cands: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    k: int
    floor: float
    strict: bool
    kind: int
    measure: int
    beta: float
    vocab: int


class Store(Protocol):
    """Per-call state of an engine: each distinct text is tokenized once per call."""

    #: Whether the store may serve later calls of the same scorer (identical counts).
    reusable: bool
    #: Examples the batch driver (:mod:`rouge_lcs.engine.compute`) hands it at once: what
    #: bounds its memory per chunk and paces progress.
    chunk: int

    def __len__(self) -> int:
        """Distinct texts (Python) or tokens (native) held: the caller starts afresh past a
        bound, so that memory stays bounded on arbitrarily long inputs."""
        ...

    def chunk_stats(
        self, texts: Sequence[str], pair_pred: array[int], pair_ref: array[int], n_refs: array[int]
    ) -> PairStats:
        """Counts of shape ``(pairs, types, 3)`` as :class:`~rouge_lcs.engine.stats.PairStats`
        for pairs given as int64 indices into ``texts``, ``n_refs`` pairs per example (the batch
        engine's call: the native store keeps the counts flat, so that no NumPy is needed to
        score)."""
        ...

    def token_ids(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The texts' token ids (concatenated) and their offsets (one more than the texts);
        ids stay the same across calls on this store (the similarity engine's input)."""
        ...

    def pair_scores(
        self,
        prediction: str,
        references: list[str],
        mode: str,
        beta: float,
        weights: Sequence[float] | None,
    ) -> tuple[PairStats, array[float], array[float], array[float]]:
        """One example (``prediction`` against each of ``references``, exact ``str``s, at least
        one): its counts and its per-type ``(precision, recall, fmeasure)`` (flat float64
        arrays, one value per type: no NumPy needed), the numbers that
        :meth:`chunk_stats` and :meth:`Backend.combine` give for a batch of that example alone
        (the per-call path, :class:`rouge_lcs.engine.compute.OnePair`: no chunking, no
        numbering, one thread)."""
        ...

    def pair_plan(
        self,
        mode: str,
        beta: float,
        weights: Sequence[float] | None,
        names: tuple[str, ...],
        make: Callable[[float, float, float], object],
        tuple_new: bool,
        fallback: PairPlan,
        max_tokens: int,
    ) -> PairPlan:
        """The per-call path as one callable: ``plan(prediction, references)`` ->
        ``{names[t]: make(p, r, f)}`` with :meth:`pair_scores`' numbers (``references`` a
        non-empty list; ``make`` a tuple subclass made as ``tuple.__new__`` where
        ``tuple_new``, as a namedtuple is).  Inputs it does not take (not exactly ``str``, not
        a list, texts too long for the per-call kernel) get ``fallback(prediction,
        references)``'s value; a call once the store holds more than ``max_tokens`` returns
        ``NotImplemented`` (the caller makes a new store)."""
        ...

    def scores_plan(
        self,
        mode: str,
        beta: float,
        weights: Sequence[float] | None,
        make: ScoresMake,
        fallback: PairPlan,
        max_tokens: int,
    ) -> PairPlan:
        """:meth:`pair_plan` for a batch of one example: ``plan(predictions, references)``,
        ``predictions`` ``[prediction]`` and ``references`` ``[reference]`` or
        ``[[reference, ...]]`` (lists or tuples of exact ``str``s, as
        :func:`~rouge_lcs.base.validation.single_example` takes them) -> ``make(counts, p, r,
        f)``: new flat arrays of the example's int64 counts (references x types x 3) and of its
        per-type float64 precision, recall and F, :meth:`pair_scores`' numbers.  Other inputs
        get ``fallback(predictions, references)``'s value; ``NotImplemented`` as there.  An
        engine (or settings) without such a plan returns ``fallback`` itself: the caller's
        fallback is its own per-call path, over :meth:`pair_scores`."""
        ...


class Backend(Protocol):
    """An engine: the pure-Python/numpy reference or the native core."""

    def store(self, settings: Settings, num_threads: int = 1) -> Store:
        """A :class:`Store` for these settings, counting on ``num_threads`` threads where the
        engine can (the counts never depend on it)."""
        ...

    def combine(
        self, stats: PairStats, mode: str, beta: float, weights: Sequence[float] | None = None
    ) -> tuple[Floats, Floats, Floats]:
        """Per-example ``(precision, recall, fmeasure)`` of the counts, each example's
        references combined by ``mode`` (one of ``config.options.MULTI_REF_MODES``) with F_β:
        ``(examples, types)`` NumPy arrays, or flat float64 arrays of ``examples * types``
        values in that order (no NumPy needed), the same floats either way."""
        ...

    def threads_serve(self, settings: Settings) -> bool:
        """Whether ``num_proc > 1`` is better served by as many threads in this process (the
        engine's text stage and counting kernel both run without the GIL for these
        settings), which gives the same numbers as processes."""
        ...

    def id_counts(
        self,
        docs: IdDocs,
        pair_pred: np.ndarray,
        pair_ref: np.ndarray,
        rouge_types: Sequence[RougeType],
        num_threads: int = 1,
    ) -> np.ndarray:
        """Counts ``(pairs, types, 3)`` of numbered documents (ROUGE-L is counted as the union
        LCS of the sentences, as ROUGE-1.5.5 does), pairs over ``num_threads`` threads where
        the engine can (the counts never depend on it)."""
        ...

    def skip_counts(
        self,
        ids: np.ndarray,
        starts: np.ndarray,
        pair_peer: np.ndarray,
        pair_model: np.ndarray,
        distance: int,
        unigrams: bool,
    ) -> np.ndarray:
        """ROUGE-1.5.5's skip-bigram units ``(pairs, 3)``: ``(clipped hits, peer units, model
        units)``; ``distance`` -1 is unlimited; ``unigrams`` adds ROUGE-SU's unigrams."""
        ...

    def wlcs(
        self,
        ids: np.ndarray,
        starts: np.ndarray,
        pair_a: np.ndarray,
        pair_b: np.ndarray,
        weight: float,
        num_threads: int = 1,
    ) -> np.ndarray:
        """The weighted LCS (:mod:`rouge_lcs.engine.reference.weighted`, ``f(k) = k ** weight``) of
        documents ``pair_a[k]`` and ``pair_b[k]`` (token ids ``ids`` at offsets ``starts``):
        float64, one per pair."""
        ...

    def rouge155_wlcs(
        self,
        docs: IdDocs,
        pair_peer: np.ndarray,
        pair_model: np.ndarray,
        weight: float,
        num_threads: int = 1,
    ) -> np.ndarray:
        """ROUGE-1.5.5's summary-level ROUGE-W of each pair
        (:func:`rouge_lcs.engine.reference.weighted.summary_wlcs`): ``(pairs, 2)`` float64
        ``(hit, base)``."""
        ...

    def rouge155_tokens(self, blob: bytes, lower: bool) -> tuple[np.ndarray, list[str]]:
        """Every ROUGE-1.5.5 token of ``blob`` (maximal runs of ``[a-z0-9]`` bytes, A-Z
        lower-cased first when ``lower``) numbered by first occurrence, -1 for each line break;
        and the distinct tokens in that order."""
        ...

    def number_texts(
        self, pair_texts: list[str], ref_texts: list[str], start: int = 0, stop: int | None = None
    ) -> tuple[list[str], array[int], array[int]]:
        """The distinct strings of items ``start`` to ``stop - 1`` (default: to the end) of two
        lists of equal length (of exact ``str``) in first-seen order, ``pair_texts`` first, and
        those items' indices into them (int64 arrays).  A chunk of a batch is numbered from the
        batch's own lists: no slice per chunk."""
        ...

    def exact_strs(self, items: list[object]) -> bool:
        """Whether every item of the list is exactly a ``str`` (no subclass): validation's
        first check of a batch's texts (:func:`rouge_lcs.base.validation.check_texts`)."""
        ...

    def int_lists(self, seqs: list[object]) -> tuple[np.ndarray, np.ndarray] | None:
        """The ints of a list of lists (or tuples) of ints concatenated (int32 when every one
        is from 0 to 2**31 - 1, the kernels' ids; else int64) and each one's length (int64);
        None when an item is not exactly a list or tuple or an id not exactly an ``int``
        within int64 (token ids given as lists: :mod:`rouge_lcs.base.ids`)."""
        ...

    def cut_rows(self, array: np.ndarray, pad_id: int) -> tuple[np.ndarray, np.ndarray] | None:
        """The rows of a 2-D array of token ids with ``pad_id`` cut from both ends of each
        (int32, concatenated) and each row's length (int64), as
        :func:`rouge_lcs.base.ids.check_ids` cuts them; None where the engine has no faster
        way than that function's NumPy path (which then cuts, checks and names errors)."""
        ...

    def all_utf8(self, texts: Sequence[str]) -> bool:
        """Whether every text encodes as UTF-8 (no lone surrogate): the evaluate module's check
        of a batch (:func:`rouge_lcs.base.validation.check_utf8`)."""
        ...

    def column_sums(self, values: array[float], columns: int) -> list[float]:
        """The correctly rounded sum (``math.fsum``'s) of each of ``columns`` interleaved
        columns of a flat float64 array (rows x columns): the means of a batch's scores."""
        ...

    def prefix_counts(
        self,
        ids: np.ndarray,
        starts: np.ndarray,
        pair_pred: np.ndarray,
        pair_ref: np.ndarray,
        rouge_types: Sequence[RougeType],
    ) -> np.ndarray:
        """Counts ``(sum of prediction lengths, types, 3)`` of every prefix of each pair's
        prediction (its rows the prefixes of 1, 2, … tokens, pair after pair), for documents
        ``ids[starts[d]:starts[d + 1]]`` (ROUGE-N and ROUGE-L only; ``ValueError`` else)."""
        ...

    def similarity_rows(
        self, rows: Rows, num_threads: int = 1
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The hits of a similarity kernel call (:class:`~rouge_lcs.engine.similarity.Rows`):
        ``k == 0``: every pair's hits, row after row (-1 where the pair cannot pass the floor);
        else each row's ``k`` best as int64 ``(hits, choice indices, counts per row)``, score
        descending, lower choice index first on ties; rows over ``num_threads`` threads where the
        engine can (the result never depends on it)."""
        ...
