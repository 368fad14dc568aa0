"""ROUGE of every prefix of a prediction, and where each of its tokens ends in the text.

The engine counts every prefix of a prediction in one pass (``Backend.prefix_counts``: the
bit-parallel LCS row after each token, a running clipped n-gram count); the prefixes then
become examples of their own, so P/R/F and the several-reference modes are the same
arithmetic (:meth:`Scores.from_stats`) as every score — the score of prefix ``k`` is what
:func:`rouge_lcs.score` gives for the text up to the end of the ``k``-th ROUGE token.

:func:`token_ends` finds where each ROUGE token ends in the original text (for placing a
token's credit on the model token that holds its last character).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from rouge_lcs.base.ids import IdBatch
from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.base.validation import TextBatch
from rouge_lcs.config.settings import Settings
from rouge_lcs.engine.backend import backend
from rouge_lcs.engine.compute import StoreCache, kept_store
from rouge_lcs.engine.ids import check_id_settings, dense_ids
from rouge_lcs.engine.stats import PairStats
from rouge_lcs.scores.results import Scores
from rouge_lcs.text.rouge_types import RougeType
from rouge_lcs.text.tokenizers import ResolvedTokenizer

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")

__all__ = ["PrefixScores", "check_prefix_types", "id_prefix_scores", "prefix_scores", "token_ends"]


def check_prefix_types(rouge_types: Sequence[RougeType], name: str = "rouge_type") -> None:
    """Refuse the types a prefix cannot be scored with (the kinds whose record has no
    :attr:`~rouge_lcs.text.rouge_types.RougeKind.prefix`: ROUGE-Lsum, ROUGE-W/S/SU)."""
    for rouge_type in rouge_types:
        if not rouge_type.rules.prefix:
            raise ValueError(
                f"{name}: per-token and incremental scores exist for ROUGE-N and ROUGE-L, "
                f"got {rouge_type.name!r}"
            )


class PrefixScores:
    """The scores of every prefix of each prediction of a batch.

    ``scores`` holds one example per prefix (prediction 0's prefixes of 1, 2, … tokens, then
    prediction 1's, …); ``lengths[i]`` is prediction ``i``'s number of ROUGE tokens and
    ``starts[i]`` the row of its first prefix.
    """

    __slots__ = ("scores", "lengths", "starts")

    def __init__(self, scores: Scores, lengths: list[int]) -> None:
        self.scores = scores
        self.lengths = lengths
        starts = [0]
        for m in lengths:
            starts.append(starts[-1] + m)
        self.starts = starts

    def values(self, index: int, name: str, measure: str = "fmeasure") -> np.ndarray:
        """Prediction ``index``'s ``measure`` of ``name`` after each of its tokens."""
        column = self.scores.column(name, measure)
        return column[self.starts[index] : self.starts[index + 1]]


def prefix_scores(
    batch: TextBatch,
    settings: Settings,
    num_threads: int = 1,
    cache: StoreCache | None = None,
) -> PrefixScores:
    """P/R/F of every prefix of each prediction of ``batch`` (ROUGE-N and ROUGE-L types);
    ``cache``: a scorer's kept store, whose vocabulary the texts are numbered with."""
    check_prefix_types(settings.rouge_types, "rouge_types")
    engine, store, _ = kept_store(settings, num_threads, cache)
    texts: dict[str, int] = {}
    for text in batch.predictions:
        texts.setdefault(text, len(texts))
    for refs in batch.references:
        for text in refs:
            texts.setdefault(text, len(texts))
    ids, starts = store.token_ids(list(texts))
    n_refs = np.fromiter(map(len, batch.references), dtype=np.int64, count=len(batch))
    pred_doc = np.fromiter(map(texts.__getitem__, batch.predictions), dtype=np.int64)
    pair_pred = np.repeat(pred_doc, n_refs)
    pair_ref = np.fromiter((texts[r] for refs in batch.references for r in refs), dtype=np.int64)
    counts = engine.prefix_counts(ids, starts, pair_pred, pair_ref, settings.rouge_types)
    return _prefix_scores(counts, np.diff(starts)[pred_doc], n_refs, settings)


def id_prefix_scores(batch: IdBatch, settings: Settings) -> PrefixScores:
    """:func:`prefix_scores` of a batch of token ids (:mod:`rouge_lcs.base.ids`): the ids are
    the tokens, so prefix ``k`` ends after the ``k``-th id; one pass of the engine's prefix
    kernel over each pair (time linear in the prediction for ROUGE-N, one LCS row per token
    for ROUGE-L), no decode."""
    check_prefix_types(settings.rouge_types, "rouge_types")
    check_id_settings(settings)
    ids, _ = dense_ids(batch.ids)
    starts = batch.starts
    counts = backend().prefix_counts(
        ids, starts, batch.pair_pred, batch.pair_ref, settings.rouge_types
    )
    n_preds = len(batch)
    return _prefix_scores(counts, np.diff(starts)[:n_preds], batch.n_refs, settings)


def _prefix_scores(
    counts: np.ndarray, lengths: np.ndarray, n_refs: np.ndarray, settings: Settings
) -> PrefixScores:
    """The scores of prefix counts ``(rows, types, 3)`` (pair after pair, a row per prefix)
    of predictions of ``lengths`` tokens with ``n_refs`` references each."""
    n_types = len(settings.rouge_types)
    if int(n_refs.max(initial=1)) > 1:
        # Pairs come reference after reference, each with one row per prefix; an example is
        # one prefix with its references consecutive: (refs, m, ...) -> (m, refs, ...).
        blocks, row = [], 0
        for m, r in zip(lengths.tolist(), n_refs.tolist()):
            block = counts[row : row + r * m].reshape(r, m, n_types, 3)
            blocks.append(block.transpose(1, 0, 2, 3).reshape(m * r, n_types, 3))
            row += r * m
        counts = np.concatenate(blocks) if blocks else counts
    # Flat int64 counts, as a store's chunk_stats hands them over: the engine's own combine
    # (csrc/scores.h on the native engine) then turns 100,000s of prefixes into P/R/F.
    flat, refs_per = array("q"), array("q")
    # (their bytes seen as one uint8 buffer: one copy, where tobytes made two)
    flat.frombytes(np.ascontiguousarray(counts, dtype=np.int64).reshape(-1).view(np.uint8).data)
    refs_per.frombytes(np.repeat(n_refs, lengths).astype(np.int64).view(np.uint8).data)
    stats = PairStats.from_flat(flat, n_types, refs_per)
    return PrefixScores(Scores.from_stats(stats, settings), lengths.tolist())


def _surface(tokenizer: ResolvedTokenizer, text: str) -> list[str]:
    """The tokens before stemming (a stem can equal its word's prefix: ``run`` / ``running``)."""
    return list(tokenizer.split(text))


def _ends_in(tokenizer: ResolvedTokenizer, chunk: str, tokens: list[str]) -> list[int]:
    """Where each of ``tokens`` (the chunk's surface tokens) ends in ``chunk``: the shortest
    prefix of the chunk whose tokens include it whole."""
    ends: list[int] = []
    e = 0
    for k, token in enumerate(tokens):
        while True:
            e += 1
            if e > len(chunk):
                raise ValueError(
                    "completions: the tokenizer's tokens of a prefix are not the text's (a "
                    "tokenizer whose tokens depend on later text has no per-token scores)"
                )
            head = _surface(tokenizer, chunk[:e])
            if len(head) > k and head[k] == token and head[:k] == tokens[:k]:
                ends.append(e)
                break
    return ends


def token_ends(tokenizer: ResolvedTokenizer, text: str) -> list[int]:
    """The end (exclusive character offset in ``text``) of each of its ROUGE tokens.

    Whitespace separates the tokens of every built-in tokenizer, so each run of non-space
    characters is searched alone (the tokens of the whole text are checked to be theirs put
    together; otherwise the whole text is searched as one run).
    """
    tokens = _surface(tokenizer, text)
    runs: list[tuple[int, str]] = []
    start = None
    for i, char in enumerate(text):
        if char.isspace():
            if start is not None:
                runs.append((start, text[start:i]))
                start = None
        elif start is None:
            start = i
    if start is not None:
        runs.append((start, text[start:]))
    pieces = [(offset, chunk, _surface(tokenizer, chunk)) for offset, chunk in runs]
    if [t for _, _, toks in pieces for t in toks] != tokens:
        pieces = [(0, text, tokens)]
    ends: list[int] = []
    for offset, chunk, toks in pieces:
        ends.extend(offset + e for e in _ends_in(tokenizer, chunk, toks))
    return ends


def _span(value: object, where: str, length: int) -> tuple[int, int]:
    pair = value.tolist() if hasattr(value, "tolist") else value
    if (
        isinstance(pair, (str, bytes))
        or not isinstance(pair, Sequence)
        or len(pair) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
    ):
        raise TypeError(f"{where}: expected a (start, end) pair of ints, got {pair!r}")
    start, end = pair
    if not 0 <= start <= end <= length:
        raise ValueError(
            f"{where}: expected 0 <= start <= end <= {length} (the text's length), got "
            f"({start}, {end})"
        )
    return start, end


def check_offsets(value: object, name: str, length: int) -> list[tuple[int, int]]:
    """One completion's model-token offsets: ``(start, end)`` character spans in its text, as
    a tokenizer's ``offset_mapping`` gives them (a NumPy array or tensor is read as a list)."""
    spans = value.tolist() if hasattr(value, "tolist") else value
    if isinstance(spans, (str, bytes)) or not isinstance(spans, Sequence):
        raise TypeError(f"{name}: expected a list of (start, end) pairs, got {spans!r}"[:200])
    return [_span(pair, f"{name}[{j}]", length) for j, pair in enumerate(spans)]


def place(
    ends: list[int], increments: list[float], spans: list[tuple[int, int]], name: str
) -> list[float]:
    """Each increment on the model token whose span holds the last character of its ROUGE
    token (``ends``: where each ROUGE token ends); several on one model token add up."""
    out = [0.0] * len(spans)
    # the model token of each character position: spans are in order for a tokenizer's
    # offsets, but a zero-width span (a special token) holds no character
    owner: dict[int, int] = {}
    for j, (start, end) in enumerate(spans):
        for c in range(start, end):
            owner.setdefault(c, j)
    for end, value in zip(ends, increments):
        held = owner.get(end - 1)
        if held is None:
            raise ValueError(
                f"{name}: no model token covers character {end - 1} of the text, where a ROUGE "
                f"token ends (the offsets must cover every word of the text)"
            )
        out[held] += value
    return out


def decode_words(clean_up_tokenization_spaces: bool | None) -> str:
    """The decode call :func:`offsets_from_ids` makes, as a caller would type it (for errors)."""
    clean = (
        ""
        if clean_up_tokenization_spaces is None
        else f", clean_up_tokenization_spaces={clean_up_tokenization_spaces}"
    )
    return f"tokenizer.decode(ids, skip_special_tokens=True{clean})"


def offsets_from_ids(
    token_ids: Sequence[int],
    model_tokenizer: object,
    clean_up_tokenization_spaces: bool | None = None,
) -> tuple[str, list[tuple[int, int]]]:
    """The text of ``token_ids`` and each model token's character span in it, by decoding
    growing prefixes (``model_tokenizer``: a Hugging Face tokenizer).  A token that ends inside a
    character (a byte-level piece of a longer UTF-8 sequence) spans nothing; the token that
    completes the character spans it.  Special tokens are skipped, as a decode for scoring
    skips them.

    ``clean_up_tokenization_spaces``: ``None`` decodes as ``tokenizer.decode(ids,
    skip_special_tokens=True)`` does -- with the tokenizer's own setting, as verl's reward
    managers decode (WordPiece configs of the BERT family clean up: " ." becomes ".");
    ``True``/``False`` choose.  The spans are on that text: a token whose piece a later
    clean-up removes or joins (the space before "," or "n't") spans nothing, the token that
    completes it the joined characters."""
    decode = getattr(model_tokenizer, "decode", None)
    if not callable(decode):
        raise TypeError(
            f"model_tokenizer: expected a Hugging Face tokenizer (with .decode), got "
            f"{type(model_tokenizer).__name__}"
        )
    if clean_up_tokenization_spaces is not None and not isinstance(
        clean_up_tokenization_spaces, bool
    ):
        raise TypeError(
            "clean_up_tokenization_spaces: expected None (the tokenizer's own setting), True or "
            f"False, got {clean_up_tokenization_spaces!r}"
        )
    ids = list(token_ids)
    # None is left out of the call: the tokenizer then applies its own setting, exactly as
    # a caller's plain decode(ids, skip_special_tokens=True) does
    extra = (
        {}
        if clean_up_tokenization_spaces is None
        else {"clean_up_tokenization_spaces": clean_up_tokenization_spaces}
    )

    def text_of(prefix: list[int]) -> str:
        out = decode(prefix, skip_special_tokens=True, **extra)
        if not isinstance(out, str):
            raise TypeError(f"model_tokenizer: .decode returned {type(out).__name__}, not str")
        return out

    text = text_of(ids)
    spans: list[tuple[int, int]] = []
    done = 0
    for j in range(len(ids)):
        piece = text_of(ids[: j + 1])
        end = done
        # a clean-up may rewrite the end of a prefix ("do n" before "'t" makes "don't"): a
        # piece that no longer agrees with the text up to here adds nothing yet
        if piece[:done] == text[:done]:
            limit = min(len(piece), len(text))
            while end < limit and piece[end] == text[end]:
                end += 1
        spans.append((done, end))
        done = end
    return text, spans
