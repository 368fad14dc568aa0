"""A configured ROUGE scorer: options checked once, then reused for any number of batches.

>>> scorer = Rouge(["rouge1", "rougeL"], use_stemmer=True)
>>> scorer.score(["the cats sat"], ["the cat sat down"]).mean()["rouge1"].recall
0.75
>>> scorer.compute(["the cats sat"], ["the cat sat down"])
{'rouge1': 0.8571428571428571, 'rougeL': 0.8571428571428571}

Like sacrebleu's ``BLEU(...)``, rouge_score's ``RougeScorer`` and torchmetrics' ``ROUGEScore``:
the object holds the scoring options; what to report is chosen per call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rouge_lcs.base.ids import IdOptions, check_end_ids, check_pad_id, is_id_input
from rouge_lcs.base.validation import (
    References,
    TextBatch,
    Texts,
    check_num_proc,
    check_num_threads,
    fail_type,
    single_example,
)
from rouge_lcs.config.options import OPTIONS, names
from rouge_lcs.config.settings import Settings, settings_of
from rouge_lcs.config.values import Options, options_of
from rouge_lcs.engine.backend import backend, checked_texts, default_num_threads
from rouge_lcs.engine.compute import (
    OnePairs,
    Progress,
    StoreCache,
    compute_stats,
    pair_plan,
    scores_plan,
)
from rouge_lcs.engine.ids import checked_ids, id_stats
from rouge_lcs.engine.stats import PairStats, one_example
from rouge_lcs.scores.output import Output, to_output
from rouge_lcs.scores.results import Scores
from rouge_lcs.scores.signature import make_signature

TYPE_CHECKING = False  # not typing's: type checkers treat any name TYPE_CHECKING as true
if TYPE_CHECKING:
    from array import array
    from typing import Any

    from typing_extensions import Unpack

    from rouge_lcs.config.keywords import ScorerKeywords
    from rouge_lcs.config.values import ProcessPool
    from rouge_lcs.engine.stats import PairPlan
    from rouge_lcs.engine.workers import Workers

#: The options a :class:`Rouge` takes (the output options are :meth:`Rouge.compute`'s).
SCORER_OPTIONS = [name for name in OPTIONS if name not in names("output") and name != "rouge_types"]


def workers_of(num_proc: object) -> Workers | None:
    """``num_proc`` if it is a :class:`~rouge_lcs.engine.workers.Workers`, else None.  A count
    (or None) never imports that module: its process machinery (threading, weakref, the pool)
    cost a fresh process's first one-process call ~2 ms."""
    if num_proc is None or type(num_proc) is int:
        return None
    from rouge_lcs.engine.workers import Workers

    return num_proc if isinstance(num_proc, Workers) else None


class Rouge:
    """ROUGE with fixed scoring options (see :mod:`rouge_lcs.config.options` for each).

    Args:
        rouge_types (list of str, str or None): e.g. ``["rouge1", "rouge2", "rougeL",
            "rougeLsum"]`` (the default).

    Keyword Args:
        use_stemmer (bool): Porter stemming as rouge_score does it.
        tokenizer (str, callable or object): a built-in name
            (:data:`rouge_lcs.text.tokenizers.TOKENIZERS`: ``"unicode"``, ``"rouge_score"``,
            ``"whitespace"``, ``"char"``, segmenters), a callable or an object with
            ``.tokenize``; ``None``: the language's default, else ``"unicode"``.
        language (str or None): ISO 639-1 code (tokenizer, stemmer and sentence split of
            that language).
        normalize_spelling (bool): with a language, fold its spelling variants before
            tokenizing.
        lsum_split (str or callable): ROUGE-Lsum sentences: ``"auto"``, ``"newline"``,
            ``"nltk"`` or a callable.
        multi_ref (str): ``"max_f"``, ``"max_recall"``, ``"pooled"`` or ``"mean"``.
        beta (float): F_beta weight of recall.
        compat (str or None): ``"rouge_score"``: the stock evaluate/rouge_score settings in
            one switch.
        pad_id (int or None): token id inputs: the padding id cut from both ends of each
            sequence.
        sentence_end_ids (list of int or None): token id inputs: the ids that end a
            ROUGE-Lsum sentence.
        num_proc (int, Workers or None): processes for large batches (identical results), or a
            :class:`~rouge_lcs.engine.workers.Workers` that keeps its processes between calls.
        num_threads (int or None): threads of the native engine's counting (identical
            results); ``None``: ``ROUGE_LCS_NUM_THREADS`` when the batch is scored, else 1.

    A batch of one example (``score([p], [r])``, ``score([p], [[r1, r2]])``) goes through a
    per-call path: no chunks, no threads, its numbers those of the batch path to the bit.  Its
    engine is chosen at the scorer's first such call on each thread and kept
    (``ROUGE_LCS_IMPLEMENTATION`` is read then, not at every call); batches of several
    examples read it at each call.
    """

    def __init__(
        self, rouge_types: Sequence[str] | str | None = None, **options: Unpack[ScorerKeywords]
    ) -> None:
        # The output options are compute()'s.
        self._set_options(options_of(rouge_types, dict(options), SCORER_OPTIONS))

    def _set_options(self, options: Options) -> None:
        #: The checked options this scorer was built from (output options at their defaults
        #: unless a functional call gave them).
        self.options = options
        self.settings = settings_of(options)
        self._set_ids(options.pad_id, options.sentence_end_ids)
        self._set_num_proc(options.num_proc)
        self.num_threads = check_num_threads(options.num_threads)
        self._stores = StoreCache()  # each thread's vocabulary, reused by its next call
        self._pairs = OnePairs()  # each thread's per-call path (engine and store chosen once)

    @classmethod
    def from_options(cls, options: Options) -> Rouge:
        """A scorer for an already checked :class:`~rouge_lcs.config.values.Options`."""
        if not isinstance(options, Options):
            raise fail_type("options", "an Options from rouge_lcs.config.values", options)
        scorer = cls.__new__(cls)
        scorer._set_options(options)
        return scorer

    def _set_ids(self, pad_id: object, sentence_end_ids: object) -> None:
        #: Token id inputs: the padding id cut from each sequence, and ROUGE-Lsum's sentence ends.
        self.pad_id = check_pad_id(pad_id)
        self.sentence_end_ids = check_end_ids(sentence_end_ids)
        #: Both, as the signature of a scoring of ids names them.
        self.id_options = IdOptions(self.pad_id, self.sentence_end_ids)

    def _set_num_proc(self, num_proc: int | ProcessPool | None) -> None:
        self.workers = workers_of(num_proc)
        self.num_proc = check_num_proc(num_proc) if self.workers is None else self.workers.num_proc

    @classmethod
    def from_settings(
        cls, settings: Settings, num_proc: int | Workers | None = 1, num_threads: int | None = None
    ) -> Rouge:
        """A scorer for already resolved :class:`Settings`."""
        if not isinstance(settings, Settings):
            raise fail_type("settings", "a Settings from make_settings", settings)
        scorer = cls.__new__(cls)
        scorer.options = Options(num_proc=num_proc, num_threads=num_threads)
        scorer.settings = settings
        scorer._set_ids(None, None)
        scorer._set_num_proc(num_proc)
        scorer.num_threads = check_num_threads(num_threads)
        scorer._stores = StoreCache()
        scorer._pairs = OnePairs()
        return scorer

    @property
    def rouge_types(self) -> list[str]:
        """The canonical names of the types this scorer computes."""
        return self.settings.names

    def __repr__(self) -> str:
        s = self.settings
        return (
            f"Rouge({s.names!r}, tokenizer={s.tokenizer.name!r}, language={s.language!r}, "
            f"use_stemmer={s.tokenizer.stemmed}, lsum_split={s.lsum_split!r}, "
            f"multi_ref={s.multi_ref!r}, beta={s.beta:g}, "
            f"num_proc={self.num_proc if self.workers is None else self.workers!r})"
        )

    def stats(
        self, predictions: Texts, references: References, *, progress: Progress | None = None
    ) -> PairStats:
        """Per-pair counts of a batch (checked here, once): texts, or token ids
        (:mod:`rouge_lcs.base.ids`, scored as they are)."""
        if is_id_input(predictions, references):
            return self._id_stats(predictions, references, progress)
        return self.stats_of(checked_texts(predictions, references), progress=progress)

    def _id_stats(
        self, predictions: object, references: object, progress: Progress | None
    ) -> PairStats:
        """Per-pair counts of a batch of token ids."""
        batch = checked_ids(predictions, references, pad_id=self.pad_id)
        threads = default_num_threads() if self.num_threads is None else self.num_threads
        stats = id_stats(batch, self.settings, self.sentence_end_ids, threads)
        if progress is not None:
            progress(len(batch))
        return stats

    def stats_of(self, batch: TextBatch, *, progress: Progress | None = None) -> PairStats:
        """Per-pair counts of an already checked :class:`TextBatch`."""
        threads = default_num_threads() if self.num_threads is None else self.num_threads
        if self.num_proc > 1:
            # Imported here: a fresh process's one-process call never loads the pool's machinery
            from rouge_lcs.engine.parallel import (
                PARALLEL_MIN_EXAMPLES,
                parallel_stats,
                threads_serve,
            )

            if threads_serve(self.settings):  # the same work on threads, no pool to start
                threads = max(threads, self.num_proc)
            elif len(batch) >= PARALLEL_MIN_EXAMPLES:
                shards = None if self.workers is None else self.workers.stats
                return parallel_stats(
                    batch, self.settings, self.num_proc, progress, shards, self._stores
                )
        return compute_stats(batch, self.settings, progress, threads, self._stores)

    def score(
        self, predictions: Texts, references: References, *, progress: Progress | None = None
    ) -> Scores:
        """Per-example :class:`Scores` of a batch.

        Args:
            predictions: one text per example.
            references: one text per example, or a list of texts per example.
            progress: called with the number of examples done, chunk by chunk.
        """
        if progress is None:
            # A batch of one example of plain texts: this thread's plan (made by its first
            # call) checks it and scores it in one C call, or hands it to _score_batch.
            plan = self._pairs.plan
            if plan is not None:
                result = plan(predictions, references)
                if result is not NotImplemented:
                    return result
            elif single_example(predictions, references) is None:
                # no plan before the first one-example call: its engine is the one in use
                # then (docs/engines.md), as the one-pair path's was
                return self._score_batch(predictions, references)
            return self._new_scores_plan()(predictions, references)  # first call, or store full
        return self._score_batch(predictions, references, progress)

    def _new_scores_plan(self) -> PairPlan:
        """A new per-call plan for this thread (:func:`~rouge_lcs.engine.compute.scores_plan`),
        its :class:`Scores` made as :meth:`_one_scores` makes them."""
        settings = self.settings
        names, n_types = settings.names, len(settings.names)
        width = 3 * n_types
        from_flat, of_flat = PairStats.from_flat, Scores.of_flat

        def make(counts: array[int], p: array[float], r: array[float], f: array[float]) -> Scores:
            n_refs = one_example(len(counts) // width)[2]  # one reference: a shared constant
            return of_flat(names, p, r, f, from_flat(counts, n_types, n_refs), settings)

        # the fallback takes what score() takes (a plan's is typed as taking any two objects)
        fallback = self._score_batch
        plan = self._pairs.plan = scores_plan(settings, make, fallback)  # type: ignore[arg-type]
        return plan

    def _score_batch(
        self, predictions: Texts, references: References, progress: Progress | None = None
    ) -> Scores:
        """:meth:`score` without the plan: a batch of one example by :meth:`_one_pair`,
        others by the batch path."""
        one = single_example(predictions, references)
        if one is not None:  # one example of plain texts: the per-call path
            return self._one_scores(*one, progress)
        if is_id_input(predictions, references):
            stats = self._id_stats(predictions, references, progress)
            return Scores.from_stats(stats, self.settings, self.id_options)
        stats = self.stats_of(checked_texts(predictions, references), progress=progress)
        return Scores.from_stats(stats, self.settings)

    def score_of(self, batch: TextBatch, *, progress: Progress | None = None) -> Scores:
        """Per-example :class:`Scores` of an already checked :class:`TextBatch`."""
        predictions, references = batch.predictions, batch.references
        if type(predictions) is list and len(predictions) == 1 and type(references) is list:
            return self._one_scores(predictions[0], list(references[0]), progress)
        return Scores.from_stats(self.stats_of(batch, progress=progress), self.settings)

    def _one_pair(self, prediction: str, references: list[str]) -> tuple[PairStats, Any, Any, Any]:
        """One example's counts and per-type ``(precision, recall, fmeasure)`` by the per-call
        path (:class:`~rouge_lcs.engine.compute.OnePair`); the texts exactly ``str``, at least
        one reference."""
        path = self._pairs.path  # this thread's (made by its first call)
        if path is None:
            path = self._pairs.get(self.settings)
        return path(prediction, references)

    def _pair_plan(
        self,
        names: tuple[str, ...],
        make: Callable[[float, float, float], object],
        tuple_new: bool,
        fallback: PairPlan,
    ) -> PairPlan:
        """The per-call path as one callable (:func:`rouge_lcs.engine.compute.pair_plan`) for
        these settings: ``plan(prediction, references)`` -> ``{names[t]: make(p, r, f)}``."""
        return pair_plan(self.settings, names, make, tuple_new, fallback)

    def _one_scores(
        self, prediction: str, references: list[str], progress: Progress | None
    ) -> Scores:
        """:meth:`score` of one example by the per-call path (the same :class:`Scores`)."""
        stats, p, r, f = self._one_pair(prediction, references)
        if progress is not None:  # the batch path reports its one chunk
            progress(1)
        return Scores(self.settings.names, p, r, f, stats, self.settings)

    def compute(
        self,
        predictions: Texts,
        references: References,
        *,
        use_aggregator: bool = True,
        return_precision_recall: bool = False,
        confidence_level: float | None = None,
        n_resamples: int = 1000,
        seed: int = 0,
        return_signature: bool = False,
    ) -> Output:
        """Scores in ``evaluate.load("rouge")``'s format (options as in :func:`rouge_lcs.rouge`)."""
        options = Options(  # checked before any scoring work
            use_aggregator=use_aggregator,
            return_precision_recall=return_precision_recall,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            seed=seed,
            return_signature=return_signature,
        )
        return to_output(self.score(predictions, references), options)

    def signature(
        self,
        n_refs: Sequence[int] = (1,),
        *,
        aggregated: bool = True,
        confidence_level: float | None = None,
        n_resamples: int = 1000,
        seed: int = 0,
        ids: bool = False,
    ) -> str:
        """The reproducibility signature of this scorer for examples with ``n_refs`` references
        (``ids=True``: of token id inputs, naming :attr:`pad_id` and
        :attr:`sentence_end_ids`, no text option)."""
        return make_signature(
            self.settings,
            n_refs,
            aggregated=aggregated,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            seed=seed,
            ids=self.id_options if ids else None,
        )


#: The vocabularies of :func:`rouge_lcs.rouge` and :func:`rouge_lcs.score`, one per thread: each
#: call makes a new scorer, and without this every call would rebuild the vocabulary of common
#: words that the last call on its thread built (~15% of a REALSumm call, more on two threads,
#: where the new tokens are merged on one).  A kept :class:`Rouge` does the same with its own.
#: Token ids only need to be equal for equal tokens, so the numbers are the same; the store
#: starts afresh past ``STORE_LIMIT`` tokens and when the settings or thread count change.
_FUNCTION_STORES = StoreCache()


#: The scorers of the functional calls, by their options (see :func:`function_scorer`).
_FUNCTION_SCORERS: dict[tuple[object, ...], Rouge] = {}
#: Scorers kept at most (a loop that passes a new tokenizer function at every call would
#: otherwise keep every one of them): past it the cache starts afresh.
FUNCTION_SCORERS_LIMIT = 32


def function_scorer(rouge_types: Sequence[str] | str | None, options: Mapping[str, Any]) -> Rouge:
    """A :class:`Rouge` for one functional call (``options``: its keyword options, the output
    options too, as given), sharing its thread's vocabulary with the functional calls before
    it (see ``_FUNCTION_STORES``); its :attr:`Rouge.options` is the call's checked
    :class:`~rouge_lcs.config.values.Options`.

    The scorer is kept for the next call with the same options (and the same engine in use:
    ``ROUGE_LCS_IMPLEMENTATION`` is read at each call), so that a loop of one-example calls
    builds and checks its options once, not at every call; options whose values cannot be
    hashed make a new scorer each time.  The key holds each value's type beside it, so that
    values that are equal but checked differently (``True`` and ``1``) never share a scorer.
    A call with a :class:`~rouge_lcs.engine.workers.Workers` is not kept: the kept scorer would
    keep the user's worker processes alive after the user let go of them.
    """
    types = tuple(rouge_types) if isinstance(rouge_types, (list, tuple)) else rouge_types
    key: tuple[object, ...] | None
    if not options:  # the common call, its key built without unpacking (~0.5 us less)
        key = (type(rouge_types), types, backend())
    elif workers_of(options.get("num_proc")) is not None:  # the one option a Workers is for
        return _new_function_scorer(rouge_types, options)
    else:
        values = tuple(options.values())
        key = (type(rouge_types), types, backend(), *options, *map(type, values), *values)
    try:
        scorer = _FUNCTION_SCORERS.get(key)
    except TypeError:  # an unhashable value (a tokenizer object without __hash__)
        scorer, key = None, None
    if scorer is not None:
        return scorer
    scorer = _new_function_scorer(rouge_types, options)
    if key is not None:
        if len(_FUNCTION_SCORERS) >= FUNCTION_SCORERS_LIMIT:
            _FUNCTION_SCORERS.clear()
        _FUNCTION_SCORERS[key] = scorer
    return scorer


def _new_function_scorer(
    rouge_types: Sequence[str] | str | None, options: Mapping[str, Any]
) -> Rouge:
    scorer = Rouge.from_options(options_of(rouge_types, options))
    scorer._stores = _FUNCTION_STORES
    return scorer
