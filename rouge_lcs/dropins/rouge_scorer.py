"""rouge_score's ``rouge_scorer`` module on this library's kernels: switch by changing one import.

>>> from rouge_lcs import rouge_scorer  # was: from rouge_score import rouge_scorer
>>> scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
>>> scorer.score("The quick brown fox jumps over the lazy dog",
...              "The quick brown dog jumps on the log.")["rouge1"]
Score(precision=0.75, recall=0.6666666666666666, fmeasure=0.7058823529411765)
>>> [s["rougeL"].fmeasure for s in scorer.score_batch(["a b c", ["x", "a c"]], ["a c", "a c"])]
[0.8, 1.0]

The numbers are rouge-score 0.1.2's to the bit: its tokenizer, its Porter stemming, sentences
one a line for ROUGE-Lsum, the reference with the best F in ``score_multi``, F = 2PR/(P+R).
rouge_score's own test modules run against this module
(tests/dropins/test_rouge_score_compat.py).

Where it differs, on purpose:

- ``split_summaries=True`` splits ROUGE-Lsum sentences with this library's offline Punkt
  (``lsum_split="nltk"``) instead of ``nltk.sent_tokenize``, which needs a downloaded model.
  When NLTK's ``punkt_tab`` English model is installed the splits are ``nltk.sent_tokenize``'s;
  otherwise Punkt runs with built-in parameters (common English abbreviations, and 。！？ as
  sentence ends even without a following space), which can cut some texts differently: rare
  abbreviations and initials that the trained model knows, and CJK text.
- A custom tokenizer must return a list of ``str`` (rouge_score accepts any hashable tokens).
- Bad input (``None``, a number, a list as ``target``) is a ``TypeError`` naming the argument
  as rouge_score names it (``target``, ``prediction``, ``targets[1]``), not an
  ``AttributeError`` from deep inside.
- ``score_multi`` with a string as ``targets`` is a ``TypeError``: rouge_score scores each
  character of it as a target (``score_multi("a b", "a b")``: F 0.667), which no caller
  means, and a drop-in must not silently give another number.  An empty ``targets`` is a
  ``ValueError`` (rouge_score's comes from ``np.argmax``).
- :meth:`RougeScorer.score_batch` is new: a whole batch through the batched engine.  ``score``
  and ``score_multi`` take the engine's per-call path (one C call chain for the pair, no batch
  machinery), whose numbers are the batch path's to the bit (both compared with rouge_score
  in the tests).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

from rouge_lcs.base.ids import is_id_input, is_id_sequence
from rouge_lcs.base.validation import TextBatch, check_texts, fail_type, fail_value
from rouge_lcs.dropins import tokenizers
from rouge_lcs.dropins.scoring import BaseScorer, fmeasure
from rouge_lcs.dropins.tokenizers import DefaultTokenizer
from rouge_lcs.engine import Candidate, lcs_indices
from rouge_lcs.engine.compute import PairPlans
from rouge_lcs.scores.results import Score, Scores
from rouge_lcs.scores.scorer import Rouge
from rouge_lcs.text.tokenizers import TokenizerSpec

if TYPE_CHECKING:
    from rouge_lcs.engine.stats import PairPlan

__all__ = ["DefaultTokenizer", "RougeScorer", "tokenizers"]

# rouge_score accepts exactly these names: one digit after "rouge" (rouge10 is an error there,
# so it is here too, though the library itself computes any rougeN).
_NGRAM_TYPE = re.compile(r"rouge[0-9]")


def _check_rouge_type(rouge_type: object) -> None:
    """rouge_score's check, with its messages (it checks when scoring, not in ``__init__``)."""
    if rouge_type in ("rougeL", "rougeLsum"):
        return
    if isinstance(rouge_type, str) and _NGRAM_TYPE.fullmatch(rouge_type):
        if rouge_type == "rouge0":
            raise ValueError(f"rougen requires positive n: {rouge_type}")
        return
    raise ValueError(f"Invalid rouge type: {rouge_type}")


def _check_text(value: object, name: str) -> None:
    """rouge_score's text arguments are one ``str`` each (there, anything else fails inside
    its tokenizer with an ``AttributeError``)."""
    if not isinstance(value, str):
        raise fail_type(name, "str", value)


def _targets_list(targets: object) -> list[object]:
    """``score_multi``'s targets as a list: any iterable of texts but a text itself.

    rouge_score iterates a string's characters and scores each as a target (``"a b"`` against
    ``"a b"``: F 0.667 from the target ``"a"``), which is never what was meant; a drop-in that
    silently gave another number would hide the bug, so a string is refused.
    """
    if isinstance(targets, (str, bytes)):
        raise TypeError(
            f"targets: expected a list of str, got {type(targets).__name__} (rouge_score "
            "would score each character as a target)"
        )
    if not isinstance(targets, Iterable):
        raise fail_type("targets", "a list of str", targets)
    items = list(targets)
    if not items:
        raise fail_value("targets", "at least one target", targets)
    for i, item in enumerate(items):
        _check_text(item, f"targets[{i}]")
    return items


class RougeScorer(BaseScorer):
    """rouge_score's ``RougeScorer``: same arguments, same results, the batched engine inside.

    Args:
        rouge_types: any of ``rouge1`` … ``rouge9``, ``rougeL``, ``rougeLsum``; a wrong name is
            a ``ValueError`` when scoring, as in rouge_score.
        use_stemmer: Porter stemming in the default tokenizer (ignored with a custom
            ``tokenizer``, as in rouge_score).
        split_summaries: ROUGE-Lsum sentences by offline Punkt instead of by newline (see the
            module docstring for where that can differ from ``nltk.sent_tokenize``).
        tokenizer: an object with ``tokenize(str) -> list[str]``; ``None`` (or anything falsy)
            for the default tokenizer.
    """

    def __init__(
        self,
        rouge_types: Iterable[str],
        use_stemmer: bool = False,
        split_summaries: bool = False,
        tokenizer: Any = None,
        *,
        pad_id: int | None = None,
        sentence_end_ids: Sequence[int] | None = None,
    ) -> None:
        self.rouge_types = rouge_types
        self._split_summaries = split_summaries
        if type(tokenizer) is DefaultTokenizer:
            # exactly the default tokenizer (a subclass may tokenize otherwise): the engine's
            # own mode gives its tokens without a Python call per text
            self._tokenizer = tokenizer
            engine_tokenizer: TokenizerSpec = "rouge_score"
            stem = tokenizer.use_stemmer
        elif tokenizer:
            # rouge_score hands use_stemmer to its default tokenizer only; a custom tokenizer
            # is used exactly as given.
            self._tokenizer = tokenizer
            engine_tokenizer = tokenizer
            stem = False
        else:
            self._tokenizer = DefaultTokenizer(use_stemmer)
            engine_tokenizer, stem = "rouge_score", bool(use_stemmer)
        self._types = list(dict.fromkeys(rouge_types))  # rouge_score's result dict: one key each
        self._error: ValueError | None = None
        self._rouge: Rouge | None = None
        self._names: list[str] = []  # the result dict's keys (the engine's type names)
        self._plans = PairPlans()  # each thread's per-call plan (see score)
        try:
            for rouge_type in self._types:
                _check_rouge_type(rouge_type)
        except ValueError as error:
            self._error = error  # raised by score(), like rouge_score
            return
        if self._types:
            self._rouge = Rouge(
                self._types,
                use_stemmer=stem,
                tokenizer=engine_tokenizer,
                lsum_split="nltk" if split_summaries else "newline",
                multi_ref="max_f",
                pad_id=pad_id,
                sentence_end_ids=sentence_end_ids,
            )
            self._names = self._rouge.settings.names

    def _engine(self) -> Rouge | None:
        if self._error is not None:
            raise ValueError(*self._error.args)
        return self._rouge

    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """Scores of ``prediction`` against ``target``: ``{type: Score(precision, recall,
        fmeasure)}`` (note the order: the reference first, as in rouge_score).  Both may be
        token ids instead (:mod:`rouge_lcs.base.ids`: a list of ints, an array, a tensor)."""
        # The per-call path: this thread's plan (made by its first call) checks the texts
        # and scores them in one C call, or hands them to _plan_fallback.
        plan = self._plans.plan
        if plan is not None:
            result = plan(prediction, [target])
            if result is not NotImplemented:
                return result
        elif self._rouge is None:
            return self._slow_score(target, prediction)
        return self._new_plan()(prediction, [target])

    def _new_plan(self) -> PairPlan:
        """A new plan for this thread (its first call, or its plan's store full)."""
        assert self._rouge is not None
        plan = self._rouge._pair_plan(tuple(self._names), Score, True, self._plan_fallback)
        self._plans.plan = plan
        return plan

    def _plan_fallback(self, prediction: Any, references: Any) -> dict[str, Score]:
        """What the plan does not take (a str subclass, ids, a wrong type, a long text): from
        :meth:`score` one target (which may be anything), from :meth:`score_multi` checked
        texts; the batch path scores several targets as score_multi does."""
        if len(references) == 1:
            return self._slow_score(references[0], prediction)
        assert self._rouge is not None
        return _scores(self._rouge, check_texts([prediction], [references]))[0]

    def _slow_score(self, target: Any, prediction: Any) -> dict[str, Score]:
        rouge = self._rouge
        if type(target) is str and type(prediction) is str and rouge is not None:
            return self._result(rouge._one_pair(prediction, [target]))  # long texts
        if is_id_sequence(target) or is_id_sequence(prediction):
            return self._id_scores([prediction], [target])[0]
        _check_text(target, "target")
        _check_text(prediction, "prediction")
        rouge = self._engine()
        if rouge is None:
            return {}
        # The batch path's checks and messages, and its texts: a str subclass is scored by its
        # characters (plain str), as score_batch scores it.
        batch = check_texts([prediction], [target])
        return _scores(rouge, batch)[0]

    def _result(self, scores: tuple[object, Any, Any, Any]) -> dict[str, Score]:
        """rouge_score's result dict of the per-call path's ``(stats, p, r, f)``."""
        _, p, r, f = scores
        return dict(zip(self._names, map(Score._make, zip(p, r, f))))

    def score_multi(self, targets: Sequence[str], prediction: str) -> dict[str, Score]:
        """Scores against several targets: per type, those of the target with the best F (the
        first one on ties).  ``targets`` is a list (any iterable) of texts; a text itself is a
        ``TypeError`` (rouge_score would score each of its characters as a target)."""
        if is_id_sequence(prediction):
            return self._id_scores([prediction], [list(targets)])[0]
        items = _targets_list(targets)
        _check_text(prediction, "prediction")
        rouge = self._engine()
        if rouge is None:
            return {}
        if type(prediction) is str and set(map(type, items)) == {str}:  # the per-call path
            plan = self._plans.plan
            result = plan(prediction, items) if plan is not None else NotImplemented
            if result is NotImplemented:  # no plan yet, or its store full
                result = self._new_plan()(prediction, items)
            return result
        # the scorer's multi_ref="max_f": per type, the target with the best F, the first on ties
        return _scores(rouge, check_texts([prediction], [items]))[0]

    def score_batch(
        self,
        targets: Sequence[str | Sequence[str]],
        predictions: Sequence[str],
        *,
        num_proc: int = 1,
    ) -> list[dict[str, Score]]:
        """``[score(t, p) for t, p in zip(targets, predictions)]``, computed in one batch.

        Each target is a text or a list of texts (then as :meth:`score_multi`).  Every
        distinct text is tokenized once, and n-grams and LCS are counted for the whole batch
        at once, which is much faster than a loop of :meth:`score`.  ``num_proc`` > 1 scores
        large batches in that many processes (identical results).
        """
        rouge = self._engine()
        n = len(predictions)
        if rouge is None or (n == 0 and len(targets) == 0):
            return [{} for _ in range(n)]
        if is_id_input(predictions, targets):
            return self._id_scores(predictions, targets)
        if num_proc != 1:
            rouge = Rouge.from_settings(rouge.settings, num_proc)
        return _scores(rouge, check_texts(predictions, targets, names=("predictions", "targets")))

    def _id_scores(self, predictions: object, targets: object) -> list[dict[str, Score]]:
        """rouge_score's result dicts of a batch of token ids (scored as they are)."""
        rouge = self._engine()
        if rouge is None:
            return [{}]
        return _dicts(rouge.score(predictions, targets))  # type: ignore[arg-type]


def _scores(rouge: Rouge, batch: TextBatch) -> list[dict[str, Score]]:
    """rouge_score's result dicts of a checked batch, counted by the engine (the one path of
    :meth:`RougeScorer.score`, :meth:`~RougeScorer.score_multi` and
    :meth:`~RougeScorer.score_batch`)."""
    return _dicts(rouge.score(batch.predictions, batch.references))


def _dicts(scores: Scores) -> list[dict[str, Score]]:
    """rouge_score's result dict of each example of ``scores``."""
    columns = [
        (name, scores.values(name, "precision"), scores.values(name, "recall"),
         scores.values(name, "fmeasure"))
        for name in scores.rouge_types
    ]  # fmt: skip
    return [
        {name: Score(p[i], r[i], f[i]) for name, p, r, f in columns} for i in range(len(scores))
    ]


# rouge_score's module-level helpers, for code that reaches into them (its tests do).  Tokens are
# any hashable values here.


def _lcs_table(ref: Sequence[Any], can: Sequence[Any]) -> list[list[int]]:
    """The (len(ref)+1) × (len(can)+1) table of LCS lengths of all prefixes (textbook DP)."""
    table = [[0] * (len(can) + 1)]
    for i, token in enumerate(ref, 1):
        above, row = table[i - 1], [0]
        for j, other in enumerate(can, 1):
            row.append(above[j - 1] + 1 if token == other else max(above[j], row[j - 1]))
        table.append(row)
    return table


def _backtrack_norec(t: Any, ref: Sequence[Any], can: Sequence[Any]) -> list[int]:
    """Positions in ``ref`` of the LCS that rouge_score's backtrack picks.

    ``t`` (the table) is accepted for compatibility and not read: the bit-parallel kernel
    finds the same LCS without it.
    """
    return lcs_indices(ref, Candidate(can))


def lcs_ind(ref: Sequence[Any], can: Sequence[Any]) -> list[int]:
    """Positions in ``ref`` of one LCS of ``ref`` and ``can`` (rouge_score's choice)."""
    return lcs_indices(ref, Candidate(can))


def _find_union(lcs_list: Iterable[Iterable[int]]) -> list[int]:
    """Sorted union of several lists of positions."""
    return sorted(set().union(*lcs_list))


def _union_lcs(ref: Sequence[Any], c_list: Sequence[Sequence[Any]]) -> list[Any]:
    """Tokens of ``ref`` in the union of its LCS with each candidate sentence."""
    return [ref[i] for i in _find_union(lcs_ind(ref, c) for c in c_list)]


def _summary_level_lcs(
    ref_sent: Sequence[Sequence[Any]], can_sent: Sequence[Sequence[Any]]
) -> Score:
    """Summary-level LCS (Lin 2004, section 3.2) with ROUGE-1.5.5's clipping: a token counts
    as a hit only while both summaries still have an unused occurrence of it."""
    m = sum(map(len, ref_sent))
    n = sum(map(len, can_sent))
    if not m or not n:
        return Score(0.0, 0.0, 0.0)
    ref_left = Counter(chain.from_iterable(ref_sent))
    can_left = Counter(chain.from_iterable(can_sent))
    hits = 0
    for sentence in ref_sent:
        for token in _union_lcs(sentence, can_sent):
            if ref_left[token] > 0 and can_left[token] > 0:
                hits += 1
                ref_left[token] -= 1
                can_left[token] -= 1
    precision, recall = hits / n, hits / m
    return Score(precision, recall, fmeasure(precision, recall))
