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
changes an answer: :mod:`rouge_lcs.similarity.search`.

Token ids stand for texts as in :func:`rouge_lcs.score`: a sequence of ints (a list, a tuple, a
1-D NumPy array or torch tensor) per text, or a 2-D array/tensor (a row each, ``pad_id=`` cut
from both ends) or a tokenizer's masked batch (``{"input_ids": ..., "attention_mask": ...}``)
for a whole argument.  Ids are scored as they are: every score equals that of the same ids
written as space-separated words with the ``whitespace`` tokenizer.  Texts and ids are not
mixed in one call (nor in one :class:`SimilarityIndex`); text options (stemming, a language, a
tokenizer) are refused with ids.

>>> cdist([[1, 2, 3]], [[1, 3], [4]])
array([[0.8, 0. ]])
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping, Sequence

from rouge_lcs.base.arrow import ArrowTexts, arrow_texts
from rouge_lcs.base.ids import IdColumn, check_pad_id, id_sequence, is_id_column, is_id_sequence
from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.base.records import record
from rouge_lcs.base.validation import (
    check_bool,
    check_choice,
    check_int,
    check_number,
    fail_type,
    fail_value,
)
from rouge_lcs.config.settings import make_settings
from rouge_lcs.engine.ids import check_id_settings, checked_column
from rouge_lcs.scores.results import MEASURES
from rouge_lcs.similarity.search import (
    NO_FLOOR,
    Interner,
    Scoring,
    Units,
    greedy,
    hits_matrix,
    interner,
    top_k,
)
from rouge_lcs.text.rouge_types import NGRAMS

# Records, not dataclasses, and TYPE_CHECKING not typing's: ``dataclasses`` imports inspect,
# ast, dis, tokenize and more, typing imports re (~10 ms together), and a script that only
# calls dedup() once pays them in full (see rouge_lcs.base.records).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    import numpy as np
    from typing_extensions import Unpack

    from rouge_lcs.config.keywords import ScoringKeywords
else:
    np = lazy_import("numpy")

#: Tokens queries may bring before an index renumbers its texts, at least.
_QUERY_VOCAB = 1 << 16

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
    """A list of str (a str subclass becomes its plain text); a string is not a list; an
    Arrow column of strings gives its texts (a null is a ValueError naming the row)."""
    arrow = arrow_texts(value, name)
    if isinstance(arrow, ArrowTexts):
        return arrow.tolist()
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


def _column(value: object, name: str, pad_id: int | None = None) -> Sequence[str] | IdColumn:
    """As :func:`_texts`, but an Arrow column of strings stays one: where the texts are only
    encoded (not handed back), the engine reads its buffers, with no ``str`` per row; token
    id sequences (module doc) become one :class:`~rouge_lcs.base.ids.IdColumn`."""
    if is_id_column(value):
        return checked_column(value, name, pad_id)
    arrow = arrow_texts(value, name)
    if isinstance(arrow, ArrowTexts):
        return arrow
    return _texts(value, name)


def _text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise fail_type(name, "str", value)
    return value if type(value) is str else str.__str__(value)


def _query(value: object, name: str, pad_id: int | None) -> list[str] | IdColumn:
    """One query: a text, or one sequence of token ids (a column of one)."""
    if not isinstance(value, str) and is_id_sequence(value):
        ids = id_sequence(value, name, pad_id)
        return IdColumn(ids, np.array([0, ids.size], dtype=np.int64))
    if not isinstance(value, str):
        raise fail_type(name, "str or a sequence of token ids (ints)", value)
    return [_text(value, name)]


def _rows(value: object) -> list[Any]:
    """The items of an argument of token ids as given, to hand back (a 2-D array's or a
    masked batch's rows, padding included)."""
    if isinstance(value, Mapping):
        value = value["input_ids"]
    return list(value)  # type: ignore[call-overload]


def _items(
    value: object, name: str, pad_id: int | None
) -> tuple[list[Any], Sequence[str] | IdColumn]:
    """The items of an argument as given (texts, or id sequences) and what is encoded."""
    if is_id_column(value):
        return _rows(value), checked_column(value, name, pad_id)
    texts = _texts(value, name)
    return texts, texts


def _kinds(columns: Sequence[tuple[str, object]]) -> bool:
    """Whether the call's non-empty arguments (``(name, column)``) are token ids; texts beside
    ids are a ``ValueError`` naming the first argument that differs from the first."""
    first: tuple[str, bool] | None = None
    for name, column in columns:
        if not len(column):  # type: ignore[arg-type]
            continue
        ids = isinstance(column, IdColumn)
        if first is None:
            first = (name, ids)
        elif ids != first[1]:
            kinds = ("texts", "token ids")
            raise ValueError(
                f"{name}: expected {kinds[first[1]]} like {first[0]}, got {kinds[ids]} (texts "
                "and token ids cannot be mixed in one call: decode the ids, or tokenize the "
                "texts)"
            )
    return first is not None and first[1]


def _fraction(value: object, name: str) -> float:
    number = check_number(value, name)
    if not 0.0 <= number <= 1.0:
        raise fail_value(name, "a number from 0 to 1", value)
    return number


def _cutoff(value: object) -> float:
    return NO_FLOOR if value is None else _fraction(value, "score_cutoff")


def _num_threads(value: object) -> int:
    """The thread count of the public ``workers=`` argument.

    One name per API: these calls take rapidfuzz's ``workers`` (as ``process.cdist`` and
    ``process.extract`` do, ``-1`` for every core; documented, and the CLI's ``dedup`` /
    ``similar --workers``), where ``rouge()`` and the rest of the library say ``num_threads``;
    below this function, in the engine, it is ``num_threads`` everywhere.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail_type("workers", "a positive integer or -1 (every core)", value)
    if value == -1:
        return min(os.cpu_count() or 1, 64)
    if not 1 <= value <= 64:
        raise fail_value("workers", "an integer from 1 to 64, or -1 (every core)", value)
    return value


#: Options of :func:`rouge_lcs.score` that similarity takes (``**options``).
_SCORING_OPTIONS = ("tokenizer", "use_stemmer", "language", "normalize_spelling", "beta", "compat")
#: Options of ``score`` that mean nothing here: a cell is one pair, and rougeLsum is refused.
_MEANINGLESS = {
    "lsum_split": "rougeLsum's sentence splitter (similarity scores rougeL or rougeN)",
    "multi_ref": "how several references combine (a similarity cell is one pair)",
}


def _dtype(value: object) -> np.dtype | None:
    """None, or a NumPy floating type (scores are fractions: an integer type would hold 0/1)."""
    if value is None:
        return None
    try:
        kind = np.dtype(value)  # type: ignore[call-overload]
    except TypeError:
        if isinstance(value, str):  # a name NumPy does not know
            raise fail_value("dtype", "a NumPy floating type such as 'float32'", value) from None
        raise fail_type("dtype", "a NumPy floating type such as np.float32", value) from None
    if kind.kind != "f":
        raise fail_value("dtype", "a floating type (np.float16, np.float32, np.float64)", value)
    return kind


def _interner(
    rouge_type: object, options: Mapping[str, Any], call: str, ids: bool = False
) -> Interner:
    if not isinstance(rouge_type, str):
        raise fail_type("rouge_type", "a str such as 'rougeL' or 'rouge1'", rouge_type)
    for name in options:
        if name in _MEANINGLESS:
            raise TypeError(f"{call}() does not take {name}=: it sets {_MEANINGLESS[name]}")
        if name not in _SCORING_OPTIONS:
            raise TypeError(
                f"{call}() got an unexpected keyword argument {name!r} (scoring options: "
                f"{', '.join(_SCORING_OPTIONS)})"
            )
    settings = make_settings([rouge_type], **options)
    if ids:  # stemming, a language, a tokenizer: refused (ids are scored as they are)
        check_id_settings(settings)
    if not settings.rouge_types[0].rules.similarity:
        raise fail_value(
            "rouge_type",
            "'rougeL' or 'rougeN' (rougeLsum needs sentences, rougeW/S/SU have no similarity "
            "kernel; use score)",
            rouge_type,
        )
    return interner(settings)


def _scoring(
    rouge_type: object, measure: object, options: Mapping[str, Any], call: str, ids: bool = False
) -> Scoring:
    check_choice(measure, "measure", MEASURES)
    return Scoring(_interner(rouge_type, options, call, ids), str(measure))


def cdist(
    queries: Sequence[str],
    choices: Sequence[str],
    *,
    rouge_type: str = "rougeL",
    measure: str = "fmeasure",
    score_cutoff: float | None = None,
    workers: int = 1,
    dtype: Any = None,
    pad_id: int | None = None,
    **options: Unpack[ScoringKeywords],
) -> np.ndarray:
    """Scores of every (query, choice) pair: an array of shape ``(len(queries), len(choices))``.

    Args:
        queries: texts scored as predictions (or token ids, module doc).
        choices: texts scored as references (or token ids, with ids queries).
        rouge_type: ``"rougeL"`` or ``"rougeN"`` (``"rouge1"``, ``"rouge2"``, ...).
        measure: ``"fmeasure"``, ``"precision"`` or ``"recall"``.
        score_cutoff: cells below it are 0 (that is where pruning pays); None: every score.
        workers: threads (``-1``: every core); the numbers do not depend on it.
        dtype: the result's floating type, as rapidfuzz's ``cdist`` takes it: ``np.float32``
            halves the memory of a large matrix (each score is computed in float64 and
            rounded once); None: float64.
        pad_id: token id inputs: the padding id cut from both ends of each sequence.
        **options: ``tokenizer``, ``use_stemmer``, ``language``, ``beta``, ``compat`` as in
            :func:`rouge_lcs.score`.
    """
    pad_id = check_pad_id(pad_id)
    query_texts = _column(queries, "queries", pad_id)
    choice_texts = _column(choices, "choices", pad_id)
    ids = _kinds([("queries", query_texts), ("choices", choice_texts)])
    floor, threads = _cutoff(score_cutoff), _num_threads(workers)
    result_type = _dtype(dtype)
    scoring = _scoring(rouge_type, measure, options, "cdist", ids)
    interner = scoring.interner
    return hits_matrix(
        scoring,
        interner.units(query_texts),
        interner.units(choice_texts),
        floor,
        threads,
        result_type,
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
    pad_id: int | None = None,
    **options: Unpack[ScoringKeywords],
) -> list[tuple[Any, float, int]]:
    """The ``limit`` choices most similar to ``query`` as ``(choice, score, index)``, best
    first, lower index first on ties; ``limit=None``: all of them; with ``score_cutoff``, only
    choices scoring at least that.  Other arguments as in :func:`cdist` (token ids: ``query``
    one sequence, each choice handed back as given)."""
    pad_id = check_pad_id(pad_id)
    text = _query(query, "query", pad_id)
    choice_texts, choice_column = _items(choices, "choices", pad_id)
    ids = _kinds([("query", text), ("choices", choice_column)])
    k = None if limit is None else check_int(limit, "limit")
    floor, threads = _cutoff(score_cutoff), _num_threads(workers)
    scoring = _scoring(rouge_type, measure, options, "extract", ids)
    interner = scoring.interner
    queries, pool = interner.units(text), interner.units(choice_column)
    cands = np.arange(len(pool), dtype=np.int64)
    found = top_k(scoring, queries, 0, pool, cands, k, floor, False, threads)
    return [(choice_texts[i], value, i) for i, value in found]


#: ``DedupResult.matches``' default, replaced by a new dict per result (as dataclasses'
#: ``field(default_factory=dict)`` gives).
_NO_MATCHES: dict[int, tuple[int, float]] = {}


@record
class DedupResult:
    """What :func:`dedup` decided.

    Attributes:
        kept: indices of the kept texts, increasing.
        matches: for each dropped text's index, ``(index of the kept text it matched best,
            score)`` — that score is above the threshold.
        neighbors: with ``neighbors=k``, for every text the ``k`` kept texts before it most
            similar to it, ``[(index, score), ...]`` best first (lower index on ties); else
            None.

    With ``seeds``, ``kept``, the keys of ``matches`` and the rows of ``neighbors`` are about
    ``texts``; a match or neighbour index ``j`` is into ``seeds + texts`` (below
    ``len(seeds)``: a seed).
    """

    kept: list[int]
    matches: dict[int, tuple[int, float]] = _NO_MATCHES
    neighbors: list[list[tuple[int, float]]] | None = None

    def __post_init__(self) -> None:
        if self.matches is _NO_MATCHES:  # each result its own dict, never the shared default
            self.__dict__["matches"] = {}

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
    progress: Callable[[int], object] | bool | None = None,
    seeds: Sequence[str] | None = None,
    pad_id: int | None = None,
    **options: Unpack[ScoringKeywords],
) -> DedupResult:
    """The pipelines' greedy filter: in input order, a text is dropped when its best score
    against the texts kept before it is strictly greater than ``threshold``.

    Args:
        texts: the texts, in order (or token ids, as in :func:`cdist`).
        threshold: from 0 to 1 (Self-Instruct / Alpaca: 0.7).
        neighbors: also record each text's ``neighbors`` most similar kept texts.
        prefilter: draw candidates from an inverted index with prefix filtering (exact: the
            same result; used when ``neighbors`` is 0); False: compare with every kept text.
        progress: True: a progress bar on stderr (tqdm's, installed separately); or a callable,
            called with the number of texts done since the last call; None or False: none.
        seeds: texts that every text is also compared with and that are never dropped nor
            compared with each other — Alpaca's and Self-Instruct's 175 seed tasks, which their
            loops score each new instruction against, with the instructions kept so far.
        rouge_type: as in :func:`cdist`.
        measure: as in :func:`cdist`.
        workers: as in :func:`cdist`.
        pad_id: as in :func:`cdist`.
        **options: as in :func:`cdist`.
    """
    pad_id = check_pad_id(pad_id)
    items = _column(texts, "texts", pad_id)
    pool = [] if seeds is None else _column(seeds, "seeds", pad_id)
    ids = _kinds([("texts", items), ("seeds", pool)])
    if progress is not None and not isinstance(progress, bool) and not callable(progress):
        raise fail_type("progress", "True, False, None or a callable", progress)
    limit = _fraction(threshold, "threshold")
    k = check_int(neighbors, "neighbors")
    check_bool(prefilter, "prefilter")
    threads = _num_threads(workers)
    scoring = _scoring(rouge_type, measure, options, "dedup", ids)
    # encoded one after the other (ids agree across calls): seeds and texts may be a list
    # and an Arrow column
    units = scoring.interner.units(pool)
    units.extend(*scoring.interner.encode(items))
    start = len(pool)
    if progress is True:
        from tqdm import tqdm

        with tqdm(total=len(items), unit="texts", smoothing=0.1) as bar:
            found = greedy(scoring, units, limit, k, prefilter, threads, bar.update, start)
    else:
        report = progress if callable(progress) else None
        found = greedy(scoring, units, limit, k, prefilter, threads, report, start)
    kept, matches, near = found
    return DedupResult(
        [i - start for i in kept[start:]],
        {i - start: match for i, match in matches.items()},
        near,
    )


class SimilarityIndex:
    """Texts tokenized once, for generation loops that add texts batch by batch.

    Thread-safe: queries run concurrently (the kernel releases the GIL), each against the
    texts indexed when it starts; :meth:`add` calls are serialized and give each text one
    index.  Queries do not grow the index: the tokens a query brings are forgotten (ids are
    renumbered from the indexed texts alone once queries have brought more tokens than the
    texts hold).

    An index holds texts or token ids (module doc; ``pad_id`` as in :func:`cdist`), decided by
    the first non-empty :meth:`add`; its queries are then of the same kind.

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
        pad_id: int | None = None,
        **options: Unpack[ScoringKeywords],
    ) -> None:
        self._pad_id = check_pad_id(pad_id)
        items = texts if is_id_column(texts) else _texts(texts, "texts")
        self._scoring = _scoring(rouge_type, measure, options, "SimilarityIndex")
        self._measure = str(measure)
        self._num_threads = _num_threads(workers)
        self._lock = threading.Lock()
        self._texts: list[Any] = []
        self._units: Units = self._scoring.interner.units([])
        #: The interner's vocabulary when the indexed texts were last encoded.
        self._indexed_vocab = 0
        if len(items):
            self.add(items)

    def __len__(self) -> int:
        return len(self._texts)

    @property
    def texts(self) -> list[Any]:
        """The indexed texts (or id sequences, as given), in the order they were added (their
        indices)."""
        with self._lock:
            return list(self._texts)

    def _kind(self, column: Sequence[str] | IdColumn, name: str) -> None:
        """Refuse texts in an index of ids and the other way round; the first ids make the
        scoring refuse text options (a ``ValueError`` naming the option)."""
        if not len(column):
            return
        ids = isinstance(column, IdColumn)
        interner = self._scoring.interner
        interner.check_holds("ids" if ids else "texts", name)
        if ids and interner.holds is None:
            check_id_settings(interner.settings)

    def add(self, texts: Sequence[str]) -> list[int]:
        """Index ``texts`` (or id sequences); returns their indices."""
        items, column = _items(texts, "texts", self._pad_id)
        with self._lock:
            self._kind(column, "texts")
            start = len(self._texts)
            self._units.extend(*self._scoring.interner.encode(column))
            self._texts.extend(items)
            self._indexed_vocab = self._scoring.interner.vocab
            return list(range(start, len(self._texts)))

    def _renumber(self) -> None:
        """Encode the indexed texts afresh (under the lock) once queries have brought more
        new tokens than the texts hold: memory stays bounded by the index, not the queries.
        A query already running keeps the units it started with."""
        current = self._scoring.interner
        if current.vocab - self._indexed_vocab <= max(self._indexed_vocab, _QUERY_VOCAB):
            return  # (always, for ids: a query's new ids are never numbered)
        scoring = Scoring(interner(current.settings), self._measure)
        self._units = scoring.interner.units(self._texts)
        self._scoring = scoring
        self._indexed_vocab = scoring.interner.vocab

    def _top(self, query: object, k: int | None, floor: float) -> list[tuple[int, float]]:
        return self._tops(_query(query, "query", self._pad_id), k, floor, "query")[0]

    def _tops(
        self, items: Sequence[str] | IdColumn, k: int | None, floor: float, name: str
    ) -> list[list[tuple[int, float]]]:
        """Each text's ``k`` best ``(index, score)`` over the indexed texts, tokenized in one
        call."""
        with self._lock:
            self._kind(items, name)
            scoring = self._scoring
            # the queries' n-grams are looked up, never added (their tokens: see _renumber)
            units = scoring.interner.units(items, grow=False)
            choices = self._units.snapshot()
            self._renumber()
        cands = np.arange(len(choices), dtype=np.int64)
        threads = self._num_threads
        return [
            top_k(scoring, units, row, choices, cands, k, floor, False, threads)
            for row in range(len(items))
        ]

    def max_score(self, query: str | Sequence[int]) -> float:
        """The best score of ``query`` against the indexed texts (0.0 when there are none)."""
        found = self._top(query, 1, NO_FLOOR)
        return found[0][1] if found else 0.0

    def extract(
        self,
        query: str | Sequence[int],
        *,
        limit: int | None = 10,
        score_cutoff: float | None = None,
    ) -> list[tuple[Any, float, int]]:
        """As :func:`extract` against the indexed texts."""
        k = None if limit is None else check_int(limit, "limit")
        found = self._top(query, k, _cutoff(score_cutoff))
        texts = self._texts  # appended to only: the indices found are there
        return [(texts[i], value, i) for i, value in found]

    def top_matches(
        self,
        queries: Sequence[str],
        *,
        limit: int | None = 10,
        score_cutoff: float | None = None,
    ) -> list[list[tuple[int, float]]]:
        """For each query, :meth:`extract`'s matches as ``(index, score)``, tokenized in one
        call: an Arrow column of queries is read from its buffers (no ``str`` per row), and
        the texts of the matches are the caller's to look up (:attr:`texts`, or its own
        column of them)."""
        items = _column(queries, "queries", self._pad_id)
        k = None if limit is None else check_int(limit, "limit")
        return self._tops(items, k, _cutoff(score_cutoff), "queries")


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


@record
class MBRResult:
    """What :func:`mbr` chose for one source.

    Attributes:
        index: the chosen candidate (the highest expected ROUGE; the first on ties).
        scores: each candidate's expected ROUGE against the pseudo-references (the mean over
            them, exactly rounded: equal expectations tie exactly); a lone candidate, with no
            other to be compared with, is scored against itself (1.0, or 0.0 for a text
            without tokens).
        matrix: with ``return_matrix=True`` (exact method), ``matrix[i, j]`` = ROUGE of
            candidate ``i`` (prediction) against pseudo-reference ``j``; else None.
    """

    index: int
    scores: list[float]
    matrix: np.ndarray | None = None


def _mbr_sources(
    candidates: object, name: str = "candidates", pad_id: int | None = None
) -> tuple[list[list[str] | IdColumn], bool]:
    """The candidate lists (or pseudo-reference lists: ``name``), each non-empty, and whether
    one source (a list of str, or of id sequences) was given."""
    if is_id_column(candidates):  # one source of token ids
        column = checked_column(candidates, name, pad_id)
        if not len(column):
            raise fail_value(name, "at least one candidate", candidates)
        return [column], True
    if isinstance(candidates, (str, bytes)) or not isinstance(candidates, Sequence):
        raise fail_type(name, "a list of str, or a list of lists of str", candidates)
    if not candidates:
        raise fail_value(name, "at least one text", candidates)
    if all(isinstance(c, str) for c in candidates):
        return [_texts(candidates, name)], True
    sources: list[list[str] | IdColumn] = [
        checked_column(c, f"{name}[{i}]", pad_id) if is_id_column(c) else _texts(c, f"{name}[{i}]")
        for i, c in enumerate(candidates)
    ]
    for i, source in enumerate(sources):
        if not source:  # its index would point into nothing
            raise fail_value(f"{name}[{i}]", "at least one text", source)
    return sources, False


def _token_lists(
    source: list[str] | IdColumn, tokenize: Callable[[str], list[str]]
) -> list[list[Any]]:
    """Each text's tokens (or each sequence's ids) of one MBR source."""
    if isinstance(source, IdColumn):
        bounds = source.starts.tolist()
        ids = source.ids
        return [ids[a:b].tolist() for a, b in zip(bounds, bounds[1:])]
    return [tokenize(text) for text in source]


def _aggregate_scores(
    cands: list[list[Any]],
    refs: list[list[Any]] | None,
    n: int,
    measure: str,
    beta: float,
) -> list[float]:
    """Reference aggregation (Vamvas & Sennrich, 2024) for ROUGE-N: each candidate against the
    mean n-gram counts of the pseudo-references (itself left out), in linear time."""
    import math
    from collections import Counter

    def grams(tokens: list[Any]) -> Counter[tuple[Any, ...]]:
        return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))

    counts = [grams(c) for c in cands]
    pool = counts if refs is None else [grams(r) for r in refs]
    total: Counter[tuple[Any, ...]] = Counter()
    for c in pool:
        total.update(c)
    size = sum(total.values())
    b2 = beta * beta
    out = []
    for c in counts:
        own = sum(c.values())
        if refs is None:
            k = len(pool) - 1
            if k == 0:  # a lone candidate: against itself, as the exact method scores it
                out.append(1.0 if own else 0.0)
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
    pad_id: int | None = None,
    **options: Unpack[ScoringKeywords],
) -> MBRResult | list[MBRResult]:
    """Minimum Bayes risk selection with ROUGE as the utility.

    For each candidate, its expected ROUGE (as the prediction) against the pseudo-references
    — by default the other candidates (each candidate's own row leaves itself out, as MBR
    with sampled candidates does) — and the candidate with the highest one.

    >>> mbr(["the cat sat", "the cat sat down", "dogs bark"]).index
    0

    Args:
        candidates: one source's candidates (a list of str: one :class:`MBRResult`), or a list
            of such lists (a list of results, one per source); or token ids (module doc): one
            source a list of id sequences or a 2-D array/tensor, several a list of those.
        references: pseudo-references instead of the candidates themselves (the same shape:
            one list, or one list per source); nothing is left out then.
        rouge_type: ``"rougeL"`` or ``"rougeN"``.
        measure: ``"fmeasure"``, ``"precision"`` or ``"recall"``.
        method: ``"exact"`` (every candidate against every pseudo-reference, on the
            similarity kernel) or ``"aggregate"`` (ROUGE-N only: against the pseudo-references'
            mean n-gram counts, linear in the number of candidates; an approximation whose
            choice agrees with exact MBR on most sources, see docs/training_loops.md).
        return_matrix: keep the exact method's score matrix in each result.
        workers: as in :func:`cdist`.
        pad_id: as in :func:`cdist`.
        **options: as in :func:`cdist`.
    """
    pad_id = check_pad_id(pad_id)
    sources, single = _mbr_sources(candidates, "candidates", pad_id)
    check_choice(method, "method", ("exact", "aggregate"))
    check_bool(return_matrix, "return_matrix")
    threads = _num_threads(workers)
    given = None if references is None else _mbr_sources(references, "references", pad_id)
    named = [(f"candidates[{i}]", c) for i, c in enumerate(sources)]
    named += [(f"references[{i}]", r) for i, r in enumerate(given[0] if given else [])]
    ids = _kinds(named)
    scoring = _scoring(rouge_type, measure, options, "mbr", ids)
    settings = scoring.interner.settings
    pseudo: list[list[str] | IdColumn] | list[None]
    if given is None:
        pseudo = [None] * len(sources)
    else:
        pseudo_given, one = given
        if one != single or len(pseudo_given) != len(sources):
            raise fail_value(
                "references",
                "the shape of candidates (one list, or one list per source)",
                references,
            )
        pseudo = pseudo_given
    rouge_kind = settings.rouge_types[0]
    if method == "aggregate" and rouge_kind.rules.kernel != NGRAMS:
        raise fail_value("method", "'exact' for ROUGE-L ('aggregate' is for ROUGE-N)", method)
    import math

    results = []
    for cands, refs in zip(sources, pseudo):
        matrix = None
        if method == "aggregate":
            tokenize = settings.tokenizer.tokenize
            scores = _aggregate_scores(
                _token_lists(cands, tokenize),
                None if refs is None else _token_lists(refs, tokenize),
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
                # a lone candidate has no other to be compared with: it is scored against
                # itself (its own row's only value), a number rather than NaN
                scores = [
                    math.fsum(v for j, v in enumerate(row) if j != i) / k if k else row[0]
                    for i, row in enumerate(rows)
                ]
            else:
                scores = [math.fsum(row) / len(row) for row in rows]
        best = 0
        for i, value in enumerate(scores):
            if value > scores[best]:
                best = i
        results.append(MBRResult(best, scores, matrix if return_matrix else None))
    return results[0] if single else results
