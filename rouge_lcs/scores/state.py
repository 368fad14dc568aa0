"""An incremental ROUGE scorer for decoding: extend a hypothesis, read its scores, fork it.

>>> from rouge_lcs import RougeState
>>> state = RougeState(["the cat sat on the mat"], ["rouge1", "rougeL"])
>>> state.push("the cat").scores()["rougeL"].fmeasure
0.5
>>> beam = state.copy().push(" sat")
>>> round(beam.scores()["rougeL"].fmeasure, 4), state.scores()["rougeL"].fmeasure
(0.6667, 0.5)

After every :meth:`RougeState.push`, :meth:`RougeState.scores` equals :func:`rouge_lcs.score`
of the hypothesis so far against the references (the same counts, the same P/R/F and
several-reference arithmetic).  The state per reference is the bit-parallel LCS row over the
reference's positions (a Python int: one step per token is O(reference length / 64) words,
and a copy shares it, ints being immutable) and, for ROUGE-N, the count of each reference
n-gram the hypothesis has matched so far.

Text is tokenized as it comes, but a word is counted only once the text after it shows that
it has ended: the unfinished end of the text (after its last space) is tokenized anew at each
push and added for :meth:`scores` alone.  So pushing ``"th"`` then ``"e cat"`` scores
``"the cat"``, as decoding model tokens needs.  For tokenizers that split text without spaces
(Chinese, Japanese), a long unfinished run is cut after its second-to-last token.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rouge_lcs.base.ids import id_sequence, is_id_sequence
from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.base.validation import fail_type, fail_value, plain
from rouge_lcs.config.settings import Settings, make_settings
from rouge_lcs.engine import Candidate, lcs_step
from rouge_lcs.engine.ids import check_id_settings
from rouge_lcs.engine.stats import PairStats
from rouge_lcs.scores.prefix import check_prefix_types, token_ends
from rouge_lcs.scores.results import Score, Scores
from rouge_lcs.text.rouge_types import LCS, NGRAMS

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np
    from typing_extensions import Unpack

    from rouge_lcs.config.keywords import ScoringKeywords
else:
    np = lazy_import("numpy")

__all__ = ["RougeState"]

#: An unfinished run of text without spaces longer than this is cut after its second-to-last
#: token, so that a text without spaces is not tokenized again from its start at every push.
_RUN = 64


class _Reference:
    """One reference as the state reads it: its token ids, LCS masks and n-gram counts.

    The masks are a :class:`~rouge_lcs.engine.lcs.Candidate`'s (the frequent tokens' kept,
    the others made from their positions when pushed): a mask per distinct token, OR-ed bit
    by bit, was quadratic in the reference's distinct tokens (100,000: 681 MB and 18 s)."""

    __slots__ = ("length", "full", "masks", "grams")

    def __init__(self, ids: list[int], orders: Sequence[int]) -> None:
        self.length = len(ids)
        self.full = (1 << len(ids)) - 1
        self.masks = Candidate(ids)
        self.grams: dict[int, dict[tuple[int, ...], int]] = {}
        for n in orders:
            counts: dict[tuple[int, ...], int] = {}
            for i in range(len(ids) - n + 1):
                gram = tuple(ids[i : i + n])
                counts[gram] = counts.get(gram, 0) + 1
            self.grams[n] = counts


def _mixed(name: str) -> ValueError:
    return ValueError(
        f"{name}: expected token ids (the references are token ids), got a str: texts and "
        "token ids cannot be mixed in one state"
    )


class RougeState:
    """A hypothesis being built against fixed references, scored after each step.

    Args:
        references: one reference text, or a list of them (combined by ``multi_ref``); or
            token ids (one sequence or a list of them): then :meth:`push` takes ids.
        rouge_types: ROUGE-N and ROUGE-L types (default ``["rouge1", "rouge2", "rougeL"]``);
            ROUGE-Lsum has no prefix scores (a prefix cuts its sentences).
        **options: scoring options of :class:`rouge_lcs.Rouge` (``tokenizer``,
            ``use_stemmer``, ``language``, ``multi_ref``, ``beta``, ``compat`` …).
    """

    __slots__ = (
        "settings",
        "_refs",
        "_vocab",
        "_orders",
        "_lcs",
        "_used",
        "_hits",
        "_last",
        "_length",
        "_pending",
        "_tail",
        "_id_tokens",
    )

    def __init__(
        self,
        references: str | Sequence[str],
        rouge_types: Sequence[str] | str | None = None,
        **options: Unpack[ScoringKeywords],
    ) -> None:
        if rouge_types is None:
            rouge_types = ["rouge1", "rouge2", "rougeL"]
        settings = make_settings(rouge_types, **options)
        check_prefix_types(settings.rouge_types, "rouge_types")
        if isinstance(references, str) or (is_id_sequence(references) and len(references)):
            references = [references]  # type: ignore[list-item]
        if not isinstance(references, Sequence) or isinstance(references, bytes):
            raise fail_type("references", "a str or a list of str", references)
        if not references:
            raise fail_value("references", "at least one reference", references)
        #: Whether the references (and so the hypothesis) are token ids, scored as they are.
        self._id_tokens = not isinstance(references[0], str) and is_id_sequence(references[0])
        tokens: list[list[Any]] = []
        for j, text in enumerate(references):
            if self._id_tokens:
                if isinstance(text, str):
                    raise _mixed(f"references[{j}]")
                tokens.append(id_sequence(text, f"references[{j}]").tolist())
            elif not isinstance(text, str):
                raise fail_type(f"references[{j}]", "str", text)
            else:
                tokens.append(settings.tokenizer.tokenize(plain(text)))
        if self._id_tokens:
            check_id_settings(settings)
        self.settings: Settings = settings
        self._vocab: dict[Any, int] = {}
        self._orders = sorted({t.n for t in settings.rouge_types if t.rules.kernel == NGRAMS})
        self._refs = [_Reference(self._ids(t), self._orders) for t in tokens]
        self._lcs = [ref.full for ref in self._refs]  # the LCS row of the empty hypothesis
        self._used: list[dict[tuple[int, ...], int]] = [{} for _ in self._refs]
        self._hits = [dict.fromkeys(self._orders, 0) for _ in self._refs]
        self._last: tuple[int, ...] = ()  # the last (largest n - 1) ids, for the next n-grams
        self._length = 0
        self._pending = ""  # the unfinished end of the text
        self._tail: list[int] = []  # its tokens' ids

    def _ids(self, tokens: list[Any]) -> list[int]:
        vocab = self._vocab
        return [vocab.setdefault(t, len(vocab)) for t in tokens]

    def _lookup(self, tokens: list[Any]) -> list[int]:
        # a hypothesis word no reference has matches nothing: -1, never added to the vocabulary
        # (a long decode must not grow the state with every new word)
        get = self._vocab.get
        return [get(t, -1) for t in tokens]

    # --- the steps ---------------------------------------------------------------------------

    def _advance(
        self,
        ids: list[int],
        lcs: list[int],
        used: list[dict[tuple[int, ...], int]],
        hits: list[dict[int, int]],
        last: tuple[int, ...],
        length: int,
    ) -> tuple[tuple[int, ...], int]:
        """Add ``ids`` to the given state parts in place; the new ``last`` and length."""
        keep = max(self._orders, default=1) - 1
        for token in ids:
            window = last + (token,)
            length += 1
            for j, ref in enumerate(self._refs):
                mask = ref.masks.mask(token)
                row = lcs[j]
                match = row & mask
                if match:
                    lcs[j] = lcs_step(row, match, ref.full)
                for n in self._orders:
                    if len(window) < n:
                        continue
                    gram = window[len(window) - n :]
                    wanted = ref.grams[n].get(gram, 0)
                    if wanted:
                        got = used[j].get(gram, 0)
                        if got < wanted:
                            used[j][gram] = got + 1
                            hits[j][n] += 1
            last = window[len(window) - keep :] if keep else ()
        return last, length

    def _commit(self, ids: list[int]) -> None:
        self._last, self._length = self._advance(
            ids, self._lcs, self._used, self._hits, self._last, self._length
        )

    def _cut(self) -> None:
        """Count the words of the pending text that have ended; keep the rest pending."""
        pending = self._pending
        tokenize = self.settings.tokenizer.tokenize
        cut = next((i for i in range(len(pending) - 1, -1, -1) if pending[i].isspace()), -1)
        head = pending[: cut + 1] if cut >= 0 else ""
        if not head and len(pending) > _RUN:
            ends = token_ends(self.settings.tokenizer, pending)
            if len(ends) >= 2:
                head = pending[: ends[-2]]
                if tokenize(head) + tokenize(pending[len(head) :]) != tokenize(pending):
                    head = ""
        if head:
            self._commit(self._lookup(tokenize(head)))
            pending = pending[len(head) :]
        self._pending = pending
        self._tail = self._lookup(tokenize(pending)) if pending else []

    def push(self, text_or_tokens: str | Sequence[str]) -> RougeState:
        """Extend the hypothesis by text (joined to the text before it, so a word may go on) or
        by tokens (the tokenizer's tokens, stemmed here when ``use_stemmer``; they end any
        unfinished word); with token id references, token ids (a list of ints, an array, a
        tensor).  Returns the state itself, so that calls chain."""
        if self._id_tokens:
            if isinstance(text_or_tokens, str):
                raise _mixed("text_or_tokens")
            self._commit(self._lookup(id_sequence(text_or_tokens, "text_or_tokens").tolist()))
            return self
        if (
            not isinstance(text_or_tokens, str)
            and is_id_sequence(text_or_tokens)
            and text_or_tokens
        ):
            raise ValueError(
                "text_or_tokens: expected text or str tokens (the references are texts), got "
                "token ids; give the references as token ids to push ids"
            )
        if isinstance(text_or_tokens, str):
            self._pending += plain(text_or_tokens)
            self._cut()
            return self
        if isinstance(text_or_tokens, bytes) or not isinstance(text_or_tokens, Sequence):
            raise fail_type("text_or_tokens", "a str or a list of str tokens", text_or_tokens)
        tokens = []
        for k, token in enumerate(text_or_tokens):
            if not isinstance(token, str):
                raise fail_type(f"text_or_tokens[{k}]", "str", token)
            tokens.append(plain(token))
        tokenizer = self.settings.tokenizer
        if tokenizer.stemmed:
            tokens = tokenizer.stemmer.stem_all(tokens)
        if self._pending:
            self._commit(self._tail)
            self._pending, self._tail = "", []
        self._commit(self._lookup(tokens))
        return self

    # --- reading -----------------------------------------------------------------------------

    def __len__(self) -> int:
        """The hypothesis's tokens so far (its unfinished word included)."""
        return self._length + len(self._tail)

    def counts(self) -> np.ndarray:
        """``(references, types, 3)`` int64 counts ``(hits, prediction total, reference total)``
        of the hypothesis so far, as the engine counts them."""
        lcs, used = list(self._lcs), [dict(u) for u in self._used]
        hits = [dict(h) for h in self._hits]
        _, length = self._advance(self._tail, lcs, used, hits, self._last, self._length)
        rows = []
        types = self.settings.rouge_types
        lcs_types = [t.rules.kernel == LCS for t in types]  # the others are ROUGE-N
        for j, ref in enumerate(self._refs):
            row = []
            for t, lcs_type in zip(types, lcs_types):
                if lcs_type:
                    lcs_len = ref.length - (lcs[j] & ref.full).bit_count()
                    row.append((lcs_len, length, ref.length))
                else:
                    n = t.n
                    row.append((hits[j][n], max(length - n + 1, 0), max(ref.length - n + 1, 0)))
            rows.append(row)
        return np.array(rows, dtype=np.int64).reshape(
            len(self._refs), len(self.settings.rouge_types), 3
        )

    def scores(self) -> dict[str, Score]:
        """Precision, recall and F of each type for the hypothesis so far."""
        counts = self.counts()
        stats = PairStats(counts, np.array([len(self._refs)], dtype=np.int64))
        result = Scores.from_stats(stats, self.settings)
        p, r, f = result.precision[0], result.recall[0], result.fmeasure[0]
        return {
            name: Score(float(p[k]), float(r[k]), float(f[k]))
            for k, name in enumerate(self.settings.names)
        }

    def copy(self) -> RougeState:
        """An independent state with the same hypothesis (for a beam): the LCS rows are shared
        ints; the matched n-gram counts are copied."""
        other = RougeState.__new__(RougeState)
        other.settings = self.settings
        other._refs = self._refs  # read-only after construction
        other._vocab = self._vocab  # grows only in __init__
        other._orders = self._orders
        other._lcs = list(self._lcs)
        other._used = [dict(u) for u in self._used]
        other._hits = [dict(h) for h in self._hits]
        other._last = self._last
        other._length = self._length
        other._pending = self._pending
        other._tail = list(self._tail)
        other._id_tokens = self._id_tokens
        return other

    __copy__ = copy

    def __repr__(self) -> str:
        return (
            f"RougeState({len(self._refs)} reference(s), {self.settings.names!r}, "
            f"{len(self)} token(s))"
        )
