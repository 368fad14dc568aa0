"""The native engine: the compiled core (``rouge_lcs._native``) as a
:class:`~rouge_lcs.engine.interface.Backend` (:data:`BACKEND`), and the switch between engines.

Selection works like rapidfuzz's: ``ROUGE_LCS_IMPLEMENTATION`` is ``native`` or ``python``;
unset, the native engine is used when the extension loads, and otherwise the library warns once
and uses the pure-Python/numpy engine (the reference, with bit-identical numbers).  Forcing
``native`` when it cannot load raises ``ImportError``.  :func:`rouge_lcs.engine.backend.backend`
is the one place in the library that asks; users ask through :mod:`rouge_lcs.native`.

:class:`NativeStore` numbers the tokens of each distinct text in C (the ``Encoder``): the
tokenizers whose record names a native mode (``rouge_score``, ``unicode``: its code-point
classes are the project's own table, rouge_lcs/text/unicode_data.py) and the splitters with a
native mode run in C; other tokenizers, splitters and the Porter stemmer (through its
process-wide memo, once per new word) run in Python and hand their tokens to the C interner.
The counting kernel then runs without the GIL on ``num_threads`` threads.
"""

from __future__ import annotations

import os
import unicodedata
from array import array
from collections.abc import Callable, Sequence
from functools import cache

from rouge_lcs.base.arrays import expand
from rouge_lcs.base.arrow import ArrowTexts
from rouge_lcs.base.lazy import import_module, lazy_import
from rouge_lcs.base.validation import all_utf8
from rouge_lcs.config.options import MULTI_REF_MODES
from rouge_lcs.config.settings import Settings
from rouge_lcs.engine.interface import IdDocs, Rows
from rouge_lcs.engine.kinds import all_counts, only_counted
from rouge_lcs.engine.stats import PairStats, flat_floats, one_example, python_pair_plan
from rouge_lcs.text.punkt import Punkt
from rouge_lcs.text.rouge_types import LCS, NGRAMS, UNION_LCS, RougeType, unknown_kind
from rouge_lcs.text.sentences import (
    Splitter,
    cjk_cuts,
    language_ends,
    language_model,
    model_source,
    newline_split,
    nltk_punkt,
    nltk_split,
    punkt_models_installed,
    punkt_of,
    punkt_split_with,
    uses_language_punkt,
)
from rouge_lcs.text.stemming import PORTER, stem
from rouge_lcs.text.tokenizers import JOINERS, CheckedTokenizer, unicode_tokenize
from rouge_lcs.text.unicode_classes import unicode_version

# Not typing's TYPE_CHECKING: importing typing costs a fresh process ~3 ms (type checkers
# treat any name TYPE_CHECKING as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeAlias

    import numpy as np

    #: What the kernels read: contiguous int32 ids / int64 offsets in any buffer.
    Buffer: TypeAlias = bytes | array[int] | np.ndarray

    from rouge_lcs.engine.reference.python import PythonBackend, PythonStore
    from rouge_lcs.engine.stats import PairPlan, ScoresMake
else:
    np = lazy_import("numpy")

#: The environment variable that picks the engine.
ENV = "ROUGE_LCS_IMPLEMENTATION"
#: The environment variable with the default number of counting threads ("auto": all cores).
THREADS_ENV = "ROUGE_LCS_NUM_THREADS"

_native: Any
_IMPORT_ERROR: ImportError | None
try:
    _native = import_module("rouge_lcs._native")
except ImportError as error:  # not built (no compiler at install time) or broken
    _native, _IMPORT_ERROR = None, error
else:
    _IMPORT_ERROR = None

_warned = False
#: The C counting kernel's code of each kernel it runs (``kernels.h``).
_KERNEL_CODES = {NGRAMS: 0, LCS: 1, UNION_LCS: 2}


def native_unicode() -> bool:
    """Whether the ``unicode`` tokenizer and Punkt run natively: the extension loaded and its
    code-point table (``unicode_table.h``, written by the build from
    ``rouge_lcs/text/unicode_data.py``, the table the Python engine reads) is of the same Unicode
    version as that file (a stale build of an older table is not used)."""
    return _native is not None and unicode_version() == _native.UNICODE_VERSION


def available() -> bool:
    """Whether the compiled extension loaded."""
    return _native is not None


def implementation() -> str:
    """The engine in use now: ``"native"`` or ``"python"`` (reads ``ROUGE_LCS_IMPLEMENTATION``).

    Raises:
        ImportError: ``native`` was asked for and the extension cannot load.
        ValueError: the variable has another value.
    """
    global _warned
    wanted = os.environ.get(ENV, "").strip().lower()
    if wanted == "python":
        return "python"
    if wanted not in ("", "native"):
        raise ValueError(f"{ENV}: expected 'native' or 'python', got {wanted!r}")
    if _native is not None:
        return "native"
    if wanted == "native":
        raise ImportError(
            f"{ENV}=native, but the compiled extension rouge_lcs._native cannot be loaded "
            f"({_IMPORT_ERROR}); reinstall with a C compiler, or use {ENV}=python"
        )
    if not _warned:
        import warnings  # only here: its import is ~0.5 ms of every fresh process

        _warned = True
        warnings.warn(
            f"rouge_lcs: the compiled extension is not available ({_IMPORT_ERROR}); using the "
            f"pure-Python engine (same numbers, 5-10x slower). Set {ENV}=python to silence this.",
            RuntimeWarning,
            stacklevel=3,
        )
    return "python"


# ROUGE_LCS_IMPLEMENTATION is read at every scoring call; os.environ.get (the key encoded,
# looked up, the value decoded) was ~1 us of a ~10 us one-example call.  Unset (the common
# case) is found in os.environ's own table of encoded keys, which os.environ[...] = ... and
# del keep up to date as they do the process environment.
_ENVIRON = os.environ
_ENV_TABLE: dict[Any, Any] | None = getattr(_ENVIRON, "_data", None)
_ENV_KEY: object = _ENVIRON.encodekey(ENV) if _ENV_TABLE is not None else None


def active() -> bool:
    """Whether scoring uses the native engine now."""
    if (
        _native is not None
        and _ENV_TABLE is not None
        and os.environ is _ENVIRON
        and _ENV_KEY not in _ENV_TABLE
    ):
        return True  # unset: the native engine, which loaded
    return implementation() == "native"


def supports(settings: Settings) -> bool:
    """Whether the native engine can score with these settings: its encoder stems ASCII words
    with its own Porter port, so another stemmer (Snowball for a language) keeps the Python
    engine (same numbers either way)."""
    return not settings.tokenizer.stemmed or settings.tokenizer.stemmer is PORTER


def default_num_threads() -> int:
    """Counting threads when none are given: ``ROUGE_LCS_NUM_THREADS`` (a number, or ``auto``
    for every core), else 1.  Results never depend on it."""
    value = os.environ.get(THREADS_ENV, "").strip().lower()
    if not value:
        return 1
    if value == "auto":
        return os.cpu_count() or 1
    try:
        threads = int(value)
    except ValueError:
        threads = 0
    if threads < 1:
        raise ValueError(f"{THREADS_ENV}: expected a positive integer or 'auto', got {value!r}")
    return threads


def _encoder_for(settings: Settings) -> Any:
    """A C encoder for the settings' tokenizer (native where the tokenizer is built in)."""
    tokenizer = settings.tokenizer
    stemmer = stem if tokenizer.stemmed else None
    if tokenizer.native == "rouge_score":
        return _native.Encoder(_native.MODE_ROUGE_SCORE, None, stemmer)
    if tokenizer.native == "unicode":
        # Natively where the C table is the Python tokenizer's (native_unicode); otherwise
        # ASCII texts natively and the others through the Python tokenizer, so the numbers
        # never depend on the engine.
        normalize = _normalize if native_unicode() else None
        # _normalize's NFKC (joiners removed) in C on the threads (csrc/nfkc.h) where the C
        # table is of this interpreter's Unicode version; _normalize for the other texts
        return _native.Encoder(
            _native.MODE_UNICODE, unicode_tokenize, stemmer, normalize, native_nfkc=True
        )
    if tokenizer.native == "char":
        # Natively for texts of CJK, kana, Hangul and ASCII only (csrc/tokens.h, char_plain);
        # any other text through the Python tokenizer, so the tokens never depend on the engine.
        return _native.Encoder(_native.MODE_CHAR, tokenizer.split, stemmer)
    split = tokenizer.split
    if isinstance(split, CheckedTokenizer):  # a user's tokenizer: its checks made in C
        return _native.Encoder(_native.MODE_PYTHON, split.fn, stemmer, name=split.name)
    return _native.Encoder(_native.MODE_PYTHON, split, stemmer)


#: A splitter's native mode (:attr:`rouge_lcs.text.sentences.Splitter.native`) to the number
#: ``encode_sentences`` takes (``csrc/text.h``: SPLIT_NEWLINE, SPLIT_AUTO, SPLIT_NLTK).
_SPLIT_MODES = {"newline": 0, "auto": 1, "nltk": 2}

#: The sentence ends of NLTK's models (Punkt's default).
_MODEL_ENDS = "".join(Punkt().sent_end_chars)


@cache
def _c_model(model: str | None) -> Any:
    """:func:`rouge_lcs.text.sentences.punkt_of` (model)'s tables in C (``_native.PunktModel``):
    read from the model module's source without running it (``csrc/punkt_tables.h``), or
    from the Python model where the file is not the plain literal module that reader knows."""
    source = model_source(model) if model is not None else None
    parsed = None if source is None else _native.punkt_model_from_source(source, _MODEL_ENDS)
    return parsed if parsed is not None else _native.PunktModel(*punkt_of(model).tables)


@cache
def _nltk_model() -> Any:
    """:func:`rouge_lcs.text.sentences.nltk_punkt`'s model in C."""
    if punkt_models_installed():
        return _c_model("english")
    return _native.PunktModel(*nltk_punkt().tables)


def _c_punkt(model: Callable[[], Any]) -> Callable[[str], list[str]]:
    """Punkt's ``tokenize`` in C (``csrc/punkt.h``) with ``model()``'s tables; the model is
    loaded by the first text that needs Punkt, not by every batch."""
    spans = _native.punkt_spans

    def tokenize(text: str) -> list[str]:
        return [text[s:e] for s, e in spans(text, model())]

    return tokenize


class _PunktSplit:
    """:func:`rouge_lcs.text.sentences.nltk_split` for the C encoder, with Punkt in C.  The
    encoder splits the texts it can on its threads without the GIL with :meth:`punkt_model`
    (``encode_sentences``), and calls this for the others (a character the C case tables do not
    decide, 。！？ to cut after)."""

    def __init__(self) -> None:
        self._tokenize = _c_punkt(_nltk_model)

    def __call__(self, text: str) -> list[str]:
        return cjk_cuts(self._tokenize(text))

    @staticmethod
    def punkt_model() -> Any:
        """The model the encoder's threads run."""
        return _nltk_model()


def _punkt_split() -> Callable[[str], list[str]]:
    """:func:`rouge_lcs.text.sentences.nltk_split` for the C encoder's texts that need Punkt (it
    skips Punkt itself where Punkt cannot cut), with Punkt in C where its character classes
    are the Python Punkt's (native_unicode)."""
    if not native_unicode():
        return nltk_split
    return _PunktSplit()


def _language_split(spec: Splitter) -> Callable[[str], list[str]] | None:
    """A ``language=`` splitter with Punkt in C (as :func:`_punkt_split`), or None where the
    splitter is not a language's Punkt or the C tables are not the Python Punkt's."""
    if not native_unicode() or not uses_language_punkt(spec):
        return None
    model = language_model(spec)
    tokenize = _c_punkt(lambda: _c_model(model))
    auto = spec.kind == "auto"
    ends = language_ends(spec)

    def split(text: str) -> list[str]:
        # sentences.language_split and _auto: newline split first for "auto", Punkt for the rest
        if auto and "\n" in text:
            return newline_split(text)
        return punkt_split_with(tokenize, text, ends)

    return split


def _normalize(form: Any, text: str) -> str:
    # The Python tokenizer's steps before its class scan: NFKC, then (after the C encoder's
    # lower()) joiners removed; removing them before lowering gives the same string.  They are
    # rare, and str.translate walks the text through a dict (~20 ns a character, most of the
    # time of a non-ASCII text), so it only runs when one is there (five scans cost far less).
    normalized = unicodedata.normalize(form, text)
    if any(joiner in normalized for joiner in _JOINER_CHARS):
        return normalized.translate(JOINERS)
    return normalized


_JOINER_CHARS = tuple(map(chr, JOINERS))


def _ids(encoded: tuple[bytes, bytes]) -> tuple[np.ndarray, np.ndarray]:
    ids, offsets = encoded
    return np.frombuffer(ids, dtype=np.int32), np.frombuffer(offsets, dtype=np.int64)


def _type_codes(rouge_types: Sequence[RougeType]) -> array[int]:
    """The core's ``(kind, n)`` code of each type, flat (int64)."""
    unknown = [t for t in rouge_types if t.rules.kernel not in _KERNEL_CODES]
    if unknown:  # the other kernels: rouge_lcs.engine.kinds
        raise unknown_kind(unknown[0])
    # n is 0 but for ROUGE-N (RougeType's default)
    codes = [(_KERNEL_CODES[t.rules.kernel], t.n) for t in rouge_types]
    return array("q", [c for pair in codes for c in pair])


def _zeros(typecode: str, size: int) -> array[Any]:
    """``size`` zeros of an array type (``q``: int64, ``i``: int32, ``d``: float64), by
    repetition (memcpy): from ``bytes(...)`` it took ~1 ms a megabyte."""
    return array(typecode, [0]) * size


def _gather(
    ids: np.ndarray, starts: np.ndarray, index: Sequence[int]
) -> tuple[np.ndarray, np.ndarray]:
    """The token ids of strings ``index`` (into ``starts``), concatenated, with their starts."""
    picked = np.asarray(index, dtype=np.int64)
    lengths = (starts[1:] - starts[:-1])[picked]
    new_starts = np.zeros(picked.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=new_starts[1:])
    return ids[expand(starts[:-1][picked], lengths)], new_starts


class NativeStore:
    """Per-call state of the native engine: token ids stay the same across the chunks of a call.

    ``len()`` is the number of distinct tokens seen, so that the caller can start afresh on
    very long inputs (as it does with :class:`rouge_lcs.engine.reference.documents.DocumentStore`).
    """

    def __init__(self, settings: Settings, num_threads: int | None = None) -> None:
        if _native is None:
            raise ImportError(f"rouge_lcs._native cannot be loaded ({_IMPORT_ERROR})")
        self._settings = settings
        self._encoder = _encoder_for(settings)
        #: Whether the counting kernel counts every type (else rouge_lcs.engine.kinds adds
        #: ROUGE-W/S/SU from the other kernels, on the same ids).
        self._counted_only = only_counted(settings.rouge_types)
        self._types = _type_codes(
            [t for t in settings.rouge_types if t.rules.kernel in _KERNEL_CODES]
        )
        self._n_types = len(settings.rouge_types)
        #: pair_scores' (split_mode, splitter), found at its first call (_find_pair_split)
        self._pair_split: tuple[int, Any] | None = _UNSET
        self._pair_zeros = _zeros("q", self._n_types * 3)  # one pair's counts
        self._pair_floats = _zeros("d", self._n_types)  # one example's values of a measure
        self._sentences = settings.needs_sentences
        # The rule of DocumentStore: where the splitter cuts only at boundaries the tokenizer
        # treats as separators, the sentences' tokens put together are the text's tokens, and
        # one tokenization serves both (the objects state their traits).
        self._splitter = settings.splitter_spec
        self._separators = settings.tokenizer.separators
        self._always_concatenate = self._splitter.kind != "custom" and all(
            self._splitter.cuts(probe) <= self._separators for probe in ("", "\n")
        )
        #: Threads for cutting and looking up the native tokenizers' tokens and for the counting
        #: kernel (the GIL is released for both; texts and pairs are split into contiguous
        #: shards, so the counts do not depend on it).
        self.num_threads = default_num_threads() if num_threads is None else num_threads

    #: The vocabulary may serve the next call of the same scorer (token ids only need to be
    #: equal for equal tokens), which a reward or metric called every step would otherwise
    #: rebuild each time.
    reusable = True
    #: Examples per chunk: the core's memory is linear in a chunk's tokens, and every chunk
    #: starts the text stage's and the kernel's threads anew and ends with a shard that is hard
    #: to balance, which cost a two-thread REALSumm call (2,500 examples in two chunks) ~0.8 ms.
    chunk = 8192

    def __len__(self) -> int:
        return int(self._encoder.vocab_size)

    def token_ids(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The texts' token ids (int32, concatenated) and their offsets (int64, one more than
        the texts); ids stay the same across calls on this store.  Arrow columns
        (:class:`ArrowTexts`) are read from their buffers, without a ``str`` per row."""
        if isinstance(texts, ArrowTexts):
            return _ids(self._encoder.encode_arrow(texts.columns(), self.num_threads))
        return _ids(self._encoder.encode(texts, self.num_threads))

    def _concatenates(self, text: str) -> bool:
        return self._always_concatenate or self._splitter.cuts(text) <= self._separators

    def _documents(self, texts: Sequence[str]) -> tuple[Buffer, Buffer, Buffer, Buffer, Buffer]:
        """Token ids of each text and, for ROUGE-Lsum, of each of its sentences: int32 ids and
        int64 offsets as the kernel takes them (``ids, starts, sent_ids, sent_starts,
        doc_sent``), in NumPy arrays only where a Python splitter's sentences are gathered."""
        threads = self.num_threads
        encode = self._encoder.encode
        encode_sentences = self._encoder.encode_sentences
        if isinstance(texts, ArrowTexts):
            if not self._sentences:  # the rows read from the columns' buffers in C
                ids, starts = self._encoder.encode_arrow(texts.columns(), threads)
                return ids, starts, b"", bytes(8), bytes(8 * (len(texts) + 1))
            texts = texts.tolist()  # ROUGE-Lsum's splitters take str
        if not self._sentences:  # plain buffers: no NumPy on this path
            ids, starts = encode(texts, threads)
            return ids, starts, b"", bytes(8), bytes(8 * (len(texts) + 1))
        splitter = self._settings.splitter
        mode = self._splitter.native
        split_mode = None if mode is None else _SPLIT_MODES[mode]
        if split_mode is not None and self._always_concatenate:
            # Built-in splitting in C; the sentences' tokens put together are the document's
            # tokens.  The encoder calls the splitter only for texts without newlines that
            # Punkt may cut, where auto_split and nltk_split are both Punkt.
            punkt = _punkt_split() if split_mode else splitter
            # A document's tokens start where its first sentence does (plain buffers: no NumPy).
            sent_ids, sent_starts, doc_sent, starts = encode_sentences(
                texts, split_mode, punkt, threads, True
            )
            return sent_ids, starts, sent_ids, sent_starts, doc_sent
        if split_mode is None:
            splitter = _language_split(self._splitter) or splitter
        sentence_texts: list[str] = []
        n_sentences = np.empty(len(texts), dtype=np.int64)
        for k, text in enumerate(texts):
            sentences = splitter(text)
            sentence_texts.extend(sentences)
            n_sentences[k] = len(sentences)
        separate = [k for k, text in enumerate(texts) if not self._concatenates(text)]
        # Some texts are tokenized whole as well (their sentences' tokens may differ from
        # their tokens); a string that is both a sentence and a text is tokenized once.
        strings = {s: None for s in sentence_texts}
        strings.update((texts[k], None) for k in separate)
        unique = list(strings)
        position = {s: k for k, s in enumerate(unique)}
        all_ids, all_starts = _ids(encode(unique, threads))
        sent_ids, sent_starts = _gather(all_ids, all_starts, [position[s] for s in sentence_texts])
        doc_sent = np.zeros(len(texts) + 1, dtype=np.int64)
        np.cumsum(n_sentences, out=doc_sent[1:])
        if not separate:
            return sent_ids, sent_starts[doc_sent], sent_ids, sent_starts, doc_sent
        own_ids, own_starts = _gather(all_ids, all_starts, [position[texts[k]] for k in separate])
        pieces = [
            sent_ids[sent_starts[doc_sent[k]] : sent_starts[doc_sent[k + 1]]]
            for k in range(len(texts))
        ]
        for slot, k in enumerate(separate):
            pieces[k] = own_ids[own_starts[slot] : own_starts[slot + 1]]
        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
        starts = np.zeros(len(texts) + 1, dtype=np.int64)
        np.cumsum(lengths, out=starts[1:])
        ids = np.concatenate(pieces) if pieces else np.zeros(0, np.int32)
        return ids.astype(np.int32, copy=False), starts, sent_ids, sent_starts, doc_sent

    def _flat_counts(self, texts: Sequence[str], pair_pred: Buffer, pair_ref: Buffer) -> array[int]:
        return self._kernel_counts(self._documents(texts), self._types, pair_pred, pair_ref)

    def _kernel_counts(
        self,
        documents: tuple[Buffer, Buffer, Buffer, Buffer, Buffer],
        types: array[int],
        pair_pred: Buffer,
        pair_ref: Buffer,
    ) -> array[int]:
        """The counting kernel's flat int64 counts of the types coded ``types``."""
        ids, starts, sent_ids, sent_starts, doc_sent = documents
        n_pairs = len(pair_pred)  # int64 values (an array or a 1-D NumPy array)
        out = _zeros("q", n_pairs * (len(types) // 2) * 3)
        _native.counts(
            ids,
            starts,
            sent_ids,
            sent_starts,
            doc_sent,
            pair_pred,
            pair_ref,
            types,
            max(int(self._encoder.vocab_size), 1),
            out,
            self.num_threads,
        )
        return out

    def _all_counts(self, texts: Sequence[str], pair_pred: Buffer, pair_ref: Buffer) -> np.ndarray:
        """Counts ``(pairs, types, 3)`` with ROUGE-W/S/SU types (rouge_lcs.engine.kinds)."""
        documents = self._documents(texts)
        pred = np.frombuffer(pair_pred, dtype=np.int64)
        ref = np.frombuffer(pair_ref, dtype=np.int64)

        def counted(types: Sequence[RougeType]) -> np.ndarray:
            flat = self._kernel_counts(documents, _type_codes(types), pred, ref)
            return np.frombuffer(flat, dtype=np.int64).reshape(-1, len(types), 3)

        ids = np.frombuffer(documents[0], dtype=np.int32)
        starts = np.frombuffer(documents[1], dtype=np.int64)
        return all_counts(
            self._settings.rouge_types, counted, BACKEND, ids, starts, pred, ref, self.num_threads
        )

    def chunk_stats(
        self, texts: Sequence[str], pair_pred: array[int], pair_ref: array[int], n_refs: array[int]
    ) -> PairStats:
        """:class:`PairStats` of pairs given as int64 indices into ``texts``, ``n_refs`` pairs
        per example, held flat (:meth:`PairStats.from_flat`): no NumPy on this path (but with
        ROUGE-W/S/SU types, whose counts rouge_lcs.engine.kinds puts together in NumPy)."""
        if not self._counted_only:
            all_counts = self._all_counts(texts, pair_pred, pair_ref)
            return PairStats(all_counts, np.frombuffer(n_refs, dtype=np.int64).copy())
        counts = self._flat_counts(texts, pair_pred, pair_ref)
        return PairStats.from_flat(counts, len(self._settings.rouge_types), n_refs)

    def pair_scores(
        self,
        prediction: str,
        references: list[str],
        mode: str,
        beta: float,
        weights: Sequence[float] | None,
    ) -> tuple[PairStats, array[float], array[float], array[float]]:
        """See :meth:`rouge_lcs.engine.interface.Store.pair_scores`: one C call
        (``Encoder.pair_scores``) encodes the texts, counts the pairs on a workspace the
        encoder keeps, and combines the scores, into flat buffers (no NumPy, no numbering: a
        text repeated among the references is encoded twice, which costs less for one example
        than looking for it).  Long texts (that kernel holds the GIL) and the kinds or
        splitters it does not take go the batch path's way, with the same numbers."""
        texts = [prediction, *references]
        pairs = one_example(len(references))
        n_types = self._n_types
        split = self._pair_split
        if split is _UNSET:
            split = self._pair_split = self._find_pair_split()
        if split is not None and sum(map(len, texts)) <= PAIR_MAX_CHARS:
            counts = self._pair_zeros * len(references)  # the C call fills every value
            floats = self._pair_floats
            p, r, f = floats[:], floats[:], floats[:]
            code = MULTI_REF_MODES.index(mode)
            self._encoder.pair_scores(texts, self._types, code, beta, *split, counts, p, r, f)
            return PairStats.from_flat(counts, n_types, pairs[2]), p, r, f
        if not self._counted_only:  # ROUGE-W/S/SU: the batch path's steps
            stats = self.chunk_stats(texts, *pairs)
            combined = BACKEND.combine(stats, mode, beta, weights)
            return (stats, *map(flat_floats, combined))  # type: ignore[return-value]
        counts = self._flat_counts(texts, pairs[0], pairs[1])
        p, r, f = _zeros("d", n_types), _zeros("d", n_types), _zeros("d", n_types)
        _native.combine(counts, n_types, pairs[2], MULTI_REF_MODES.index(mode), beta, p, r, f)
        return PairStats.from_flat(counts, n_types, pairs[2]), p, r, f

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
        """See :meth:`rouge_lcs.engine.interface.Store.pair_plan`: the C plan
        (``Encoder.pair_plan``: the texts checked, then :meth:`pair_scores`' one C call, and
        the result dict built in C), where :meth:`pair_scores` would make that call; else
        :meth:`pair_scores` itself."""
        split = self._pair_split
        if split is _UNSET:
            split = self._pair_split = self._find_pair_split()
        if split is None:
            return python_pair_plan(
                lambda p, r: self.pair_scores(p, r, mode, beta, weights),
                lambda: len(self) > max_tokens,
                names,
                make,
                fallback,
            )
        code = MULTI_REF_MODES.index(mode)
        return self._encoder.pair_plan(
            self._types, code, float(beta), *split, names, make, tuple_new, fallback,
            PAIR_MAX_CHARS, max_tokens,
        )  # fmt: skip

    def scores_plan(
        self,
        mode: str,
        beta: float,
        weights: Sequence[float] | None,
        make: ScoresMake,
        fallback: PairPlan,
        max_tokens: int,
    ) -> PairPlan:
        """See :meth:`rouge_lcs.engine.interface.Store.scores_plan`: the C plan
        (``Encoder.scores_plan``: :meth:`pair_plan`'s call, its values written into new copies
        of one reference's zero counts and one example's zero floats), where :meth:`pair_plan`
        takes the C plan; else ``fallback`` itself."""
        split = self._pair_split
        if split is _UNSET:
            split = self._pair_split = self._find_pair_split()
        if split is None:
            return fallback
        code = MULTI_REF_MODES.index(mode)
        return self._encoder.scores_plan(
            self._types, code, float(beta), *split, make, fallback, PAIR_MAX_CHARS, max_tokens,
            self._pair_zeros, self._pair_floats,
        )  # fmt: skip

    def _find_pair_split(self) -> tuple[int, Any] | None:
        """``Encoder.pair_scores``' ``(split_mode, splitter)`` for these settings, or None where
        it cannot score them: ``(-1, None)`` without ROUGE-Lsum; with it, the built-in splits
        that :meth:`_documents` runs in C (their sentences' tokens put together are the
        text's), with the same splitter."""
        if not self._counted_only:
            return None
        if not self._sentences:
            return (-1, None)
        mode = self._splitter.native
        if mode is None or not self._always_concatenate:
            return None
        split_mode = _SPLIT_MODES[mode]
        return (split_mode, _punkt_split() if split_mode else self._settings.splitter)


#: :attr:`NativeStore._pair_split` before it is found.
_UNSET: Any = object()

#: Texts of one example longer than this together (characters) are counted by the batch
#: kernel, which releases the GIL and answers Ctrl-C; the per-call kernel holds the GIL
#: (a pair this long takes ~1 ms there anyway, where the extra calls cost ~10 µs).
PAIR_MAX_CHARS = 1 << 16


def _python() -> PythonBackend:
    """The reference engine, for the inputs the core cannot take: imported then, not with
    this module (its lcs/n-gram modules were ~8 ms of every import of the package)."""
    from rouge_lcs.engine.reference.python import BACKEND

    return BACKEND


class NativeBackend:
    """The native engine (:class:`~rouge_lcs.engine.interface.Backend`): the C core, with the
    reference engine's implementation where the core cannot take the input (another stemmer
    than Porter; ids past int32; counts a reference store made) — the same numbers either way."""

    def store(self, settings: Settings, num_threads: int = 1) -> NativeStore | PythonStore:
        """A :class:`NativeStore` counting on ``num_threads`` threads, or the reference
        engine's store where :func:`supports` says the core cannot score these settings."""
        if not supports(settings):
            return _python().store(settings, num_threads)
        return NativeStore(settings, num_threads)

    def combine(
        self, stats: PairStats, mode: str, beta: float, weights: Sequence[float] | None = None
    ) -> (
        tuple[array[float], array[float], array[float]] | tuple[np.ndarray, np.ndarray, np.ndarray]
    ):
        """See :meth:`rouge_lcs.engine.interface.Backend.combine`: ``csrc/scores.h`` on the
        flat counts of :meth:`NativeStore.chunk_stats` (flat float64 out, no NumPy), the
        reference engine's arithmetic on the counts of a reference store."""
        flat = stats.flat()
        if flat is None or weights is not None:  # ROUGE-W's counts are never flat
            return _python().combine(stats, mode, beta, weights)
        counts, n_refs = flat
        n_types = stats.n_types
        p, r, f = (_zeros("d", len(n_refs) * n_types) for _ in range(3))
        _native.combine(counts, n_types, n_refs, MULTI_REF_MODES.index(mode), float(beta), p, r, f)
        return p, r, f

    def threads_serve(self, settings: Settings) -> bool:
        """See :meth:`rouge_lcs.engine.interface.Backend.threads_serve`: the tokenizers the
        text stage runs in C (cut, looked up and stemmed on threads) and a store in C."""
        return settings.tokenizer.native in ("rouge_score", "unicode") and supports(settings)

    def id_counts(
        self,
        docs: IdDocs,
        pair_pred: np.ndarray,
        pair_ref: np.ndarray,
        rouge_types: Sequence[RougeType],
        num_threads: int = 1,
    ) -> np.ndarray:
        """See :meth:`rouge_lcs.engine.interface.Backend.id_counts` (the GIL released, pairs
        over ``num_threads`` threads)."""
        if docs.vocab_size >= 1 << 31:  # the core takes int32 ids
            return _python().id_counts(docs, pair_pred, pair_ref, rouge_types)
        out = np.zeros((pair_pred.size, len(rouge_types), 3), dtype=np.int64)
        _native.counts(
            np.ascontiguousarray(docs.ids, dtype=np.int32),
            np.ascontiguousarray(docs.starts, dtype=np.int64),
            np.ascontiguousarray(docs.sent_ids, dtype=np.int32),
            np.ascontiguousarray(docs.sent_starts, dtype=np.int64),
            np.ascontiguousarray(docs.doc_sent, dtype=np.int64),
            np.ascontiguousarray(pair_pred, dtype=np.int64),
            np.ascontiguousarray(pair_ref, dtype=np.int64),
            _type_codes(rouge_types),
            max(docs.vocab_size, 1),
            out,
            num_threads,
        )
        return out

    def skip_counts(
        self,
        ids: np.ndarray,
        starts: np.ndarray,
        pair_peer: np.ndarray,
        pair_model: np.ndarray,
        distance: int,
        unigrams: bool,
    ) -> np.ndarray:
        """See :meth:`rouge_lcs.engine.interface.Backend.skip_counts`."""
        if ids.size and int(ids.max()) >= 1 << 31:
            return _python().skip_counts(ids, starts, pair_peer, pair_model, distance, unigrams)
        out = np.zeros((pair_peer.size, 3), dtype=np.int64)
        _native.rouge155_skip(
            np.ascontiguousarray(ids, dtype=np.int32),
            np.ascontiguousarray(starts, dtype=np.int64),
            np.ascontiguousarray(pair_peer, dtype=np.int64),
            np.ascontiguousarray(pair_model, dtype=np.int64),
            max(-1, min(distance, 1 << 62)),  # any distance past a text is all of it
            unigrams,
            out,
        )
        return out

    def wlcs(
        self,
        ids: np.ndarray,
        starts: np.ndarray,
        pair_a: np.ndarray,
        pair_b: np.ndarray,
        weight: float,
        num_threads: int = 1,
    ) -> np.ndarray:
        """See :meth:`rouge_lcs.engine.interface.Backend.wlcs` (``csrc/wlcs.h``, the GIL
        released, pairs over ``num_threads`` threads)."""
        if ids.size and int(ids.max()) >= 1 << 31:  # the core takes int32 ids
            return _python().wlcs(ids, starts, pair_a, pair_b, weight)
        out = np.zeros(pair_a.size, dtype=np.float64)
        vocab = int(ids.max()) + 1 if ids.size else 1
        _native.wlcs(
            np.ascontiguousarray(ids, dtype=np.int32),
            np.ascontiguousarray(starts, dtype=np.int64),
            b"",
            bytes(8),
            bytes(8 * starts.size),
            np.ascontiguousarray(pair_a, dtype=np.int64),
            np.ascontiguousarray(pair_b, dtype=np.int64),
            float(weight),
            vocab,
            False,
            out,
            num_threads,
        )
        return out

    def rouge155_wlcs(
        self,
        docs: IdDocs,
        pair_peer: np.ndarray,
        pair_model: np.ndarray,
        weight: float,
        num_threads: int = 1,
    ) -> np.ndarray:
        """See :meth:`rouge_lcs.engine.interface.Backend.rouge155_wlcs` (``csrc/wlcs.h``)."""
        if docs.vocab_size >= 1 << 31:  # the core takes int32 ids
            return _python().rouge155_wlcs(docs, pair_peer, pair_model, weight)
        out = np.zeros((pair_peer.size, 2), dtype=np.float64)
        _native.wlcs(
            np.ascontiguousarray(docs.ids, dtype=np.int32),
            np.ascontiguousarray(docs.starts, dtype=np.int64),
            np.ascontiguousarray(docs.sent_ids, dtype=np.int32),
            np.ascontiguousarray(docs.sent_starts, dtype=np.int64),
            np.ascontiguousarray(docs.doc_sent, dtype=np.int64),
            np.ascontiguousarray(pair_peer, dtype=np.int64),
            np.ascontiguousarray(pair_model, dtype=np.int64),
            float(weight),
            max(docs.vocab_size, 1),
            True,
            out,
            num_threads,
        )
        return out

    def number_texts(
        self, pair_texts: list[str], ref_texts: list[str], start: int = 0, stop: int | None = None
    ) -> tuple[list[str], array[int], array[int]]:
        """See :meth:`rouge_lcs.engine.interface.Backend.number_texts`: one pass in C over a
        table of the strings (their hashes are cached), where the reference engine's dicts
        were ~0.8 ms of a REALSumm call on the calling thread alone."""
        start, stop, _ = slice(start, stop).indices(len(pair_texts))
        size = max(stop - start, 0)
        pair_pred, pair_ref = _zeros("q", size), _zeros("q", size)
        texts = _native.number_texts(pair_texts, ref_texts, pair_pred, pair_ref, start)
        return texts, pair_pred, pair_ref

    def exact_strs(self, items: list[object]) -> bool:
        """See :meth:`rouge_lcs.engine.interface.Backend.exact_strs`: one pass in C with the
        items ahead prefetched (validation's ``set(map(type, …))`` waited for each object's
        header in turn: ~6 ms a list of 100,000 texts on the calling thread, now ~0.1 ms)."""
        return bool(_native.exact_strs(items))

    def int_lists(self, seqs: list[object]) -> tuple[np.ndarray, np.ndarray] | None:
        """See :meth:`rouge_lcs.engine.interface.Backend.int_lists`: one pass in C (a NumPy
        conversion and a type check per list were ~25x the counting of 2,048 completions)."""
        read = _native.int_lists(seqs)
        if read is None:
            return None
        ids, lengths, width = read
        dtype = np.int32 if width == 4 else np.int64
        return np.frombuffer(ids, dtype=dtype), np.frombuffer(lengths, dtype=np.int64)

    def cut_rows(self, array: np.ndarray, pad_id: int) -> tuple[np.ndarray, np.ndarray] | None:
        """See :meth:`rouge_lcs.engine.interface.Backend.cut_rows`: one pass in C over a
        C-contiguous int64 array (NumPy's masks and boolean index made five temporaries of the
        array's size, most of a padded batch's time); None for other arrays."""
        if array.dtype != np.int64 or array.ndim != 2 or not array.flags.c_contiguous:
            return None
        if pad_id >= 1 << 63:  # no int64 id equals it: nothing to cut, NumPy's path says so
            return None
        read = _native.cut_rows(array, array.shape[1], pad_id)
        if read is None:
            return None
        ids, lengths = read
        return np.frombuffer(ids, dtype=np.int32), np.frombuffer(lengths, dtype=np.int64)

    def all_utf8(self, texts: Sequence[str]) -> bool:
        """See :meth:`rouge_lcs.engine.interface.Backend.all_utf8`: one pass in C over the
        code units of a list's texts (a join and an encode per block of texts took ~2 ms of a
        10,000-pair module call, before any ``num_proc`` worker started); other sequences
        (Arrow columns, UTF-8 already) as the reference engine checks them."""
        if isinstance(texts, list):
            return bool(_native.all_utf8(texts))
        return all_utf8(texts)

    def column_sums(self, values: array[float], columns: int) -> list[float]:
        """See :meth:`rouge_lcs.engine.interface.Backend.column_sums`: the same correctly
        rounded sums in C (``csrc/scores.h``), where ``math.fsum`` made a Python float of
        every value (~2.6 ms of a 10,000-pair call, serial)."""
        sums: list[float] = _native.column_sums(values, columns)
        return sums

    def prefix_counts(
        self,
        ids: np.ndarray,
        starts: np.ndarray,
        pair_pred: np.ndarray,
        pair_ref: np.ndarray,
        rouge_types: Sequence[RougeType],
    ) -> np.ndarray:
        """See :meth:`rouge_lcs.engine.interface.Backend.prefix_counts` (``csrc/prefix.h``)."""
        if ids.size and int(ids.max()) >= 1 << 31:
            return _python().prefix_counts(ids, starts, pair_pred, pair_ref, rouge_types)
        lengths = starts[1:] - starts[:-1]
        rows = int(lengths[pair_pred].sum()) if pair_pred.size else 0
        out = np.zeros((rows, len(rouge_types), 3), dtype=np.int64)
        _native.prefix_counts(
            np.ascontiguousarray(ids, dtype=np.int32),
            np.ascontiguousarray(starts, dtype=np.int64),
            np.ascontiguousarray(pair_pred, dtype=np.int64),
            np.ascontiguousarray(pair_ref, dtype=np.int64),
            _type_codes(rouge_types),
            int(ids.max()) + 1 if ids.size else 1,
            out,
        )
        return out

    def similarity_rows(
        self, rows: Rows, num_threads: int = 1
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """See :meth:`rouge_lcs.engine.interface.Backend.similarity_rows` (``csrc/similarity.h``,
        the GIL released, rows over ``num_threads`` threads)."""
        lo, hi, k = rows.lo, rows.hi, rows.k
        total = int((hi - lo).sum())
        out_hits = np.empty(total if k == 0 else lo.size * k, dtype=np.int64)
        out_index = np.empty(0 if k == 0 else lo.size * k, dtype=np.int64)
        out_count = np.empty(0 if k == 0 else lo.size, dtype=np.int64)
        _native.similarity(
            rows.q_ids,
            rows.q_starts,
            rows.row_query,
            rows.ids,
            rows.starts,
            rows.cands,
            lo,
            hi,
            rows.vocab,
            rows.kind,
            rows.measure,
            rows.beta,
            rows.floor,
            rows.strict,
            k,
            num_threads,
            out_hits,
            out_index,
            out_count,
        )
        return out_hits, out_index, out_count

    def rouge155_tokens(self, blob: bytes, lower: bool) -> tuple[np.ndarray, list[str]]:
        """See :meth:`rouge_lcs.engine.interface.Backend.rouge155_tokens`."""
        ids, distinct = _native.rouge155_tokens(blob, lower)
        return np.frombuffer(ids, dtype=np.int32), distinct


#: The native engine (usable only when :func:`available`).
BACKEND = NativeBackend()
