"""pltrdy's ``rouge`` 1.0.1 (PyPI ``rouge``), its defaults (``Rouge().get_scores(avg=True)``).

What it does, as its source does it (``rouge/rouge.py``, ``rouge/rouge_score.py``):

- sentences: the text split at every ``"."``; pieces of length 0 dropped, each piece's
  whitespace runs collapsed by ``" ".join(piece.split())``; a piece of only spaces (the text
  after a final ``". "``) becomes ``""``, whose ``split(" ")`` is ``[""]``: the *phantom empty
  word*, which counts as a word and matches the other text's phantom word;
- words: each sentence ``split(" ")``; case and every punctuation mark but ``"."`` kept;
- ROUGE-N with ``exclusive=True``: *sets* of n-grams (a repeated n-gram counts once) over the
  words of all sentences joined (n-grams cross sentence ends);
- ROUGE-L: summary level, but the "union" is a set of *words*: the words on one traceback of
  each (reference sentence, prediction sentence) LCS, united over all pairs, over the numbers
  of distinct words of each text;
- F = 2 P R / (P + R + 1e-8); the corpus number is the plain mean over examples.

Only the first reference of an example is used (the package takes one reference per text).
"""

from __future__ import annotations

from collections.abc import Sequence

from rouge_lcs.engine import Candidate, lcs_pairs

__all__ = ["EmptyText", "Memo", "pair_scores", "sentences", "words"]


class EmptyText(ValueError):
    """A text without a sentence: the package raises ``ValueError`` ("Hypothesis is empty.")."""


def sentences(text: str) -> list[str]:
    """The package's sentences of ``text``."""
    return [" ".join(piece.split()) for piece in text.split(".") if len(piece) > 0]


def words(sents: Sequence[str]) -> list[str]:
    """Every sentence's ``split(" ")``, flattened (the phantom ``""`` included)."""
    return [w for s in sents for w in s.split(" ")]


def _ngram_set(tokens: list[str], n: int) -> set[tuple[str, ...]]:
    # zip of the shifted lists: the tuples tokens[i : i + n], made in C
    return set(zip(*(tokens[i:] for i in range(n))))


def _traceback_words(x: list[str], y: list[str], prepared: Candidate | None = None) -> set[str]:
    """The words of the package's LCS traceback of ``x`` (reference) and ``y`` (prediction):
    on a match step diagonally, else up when ``table[i-1][j] > table[i][j-1]``, else left.
    (The package recurses, so a sentence pair of ~1,000 words raises RecursionError there.)

    That is rouge_score's walk on the transposed table (it moves up unless left is strictly
    longer), so :func:`rouge_lcs.engine.lcs.lcs_pairs` of ``(y, x)`` walks the same cells,
    without a Python loop over the table.  ``prepared``: ``Candidate(x)`` already built (one
    reference sentence meets every prediction sentence)."""
    cand = Candidate(x) if prepared is None else prepared  # type: ignore[arg-type]
    return {x[j] for _, j in lcs_pairs(y, cand)}  # type: ignore[arg-type]


def _prf(hits: int, pred_count: int, ref_count: int) -> tuple[float, float, float]:
    precision = hits / pred_count if pred_count else 0.0
    recall = hits / ref_count if ref_count else 0.0
    return precision, recall, 2.0 * ((precision * recall) / (precision + recall + 1e-8))


class _Text:
    """What the package derives from one text, derived once per distinct text: its sentences,
    words, n-gram sets and distinct words, each sentence's words and distinct words, and (as a
    reference) each sentence's LCS table prepared at its first use."""

    __slots__ = ("sentences", "unigrams", "bigrams", "distinct", "split", "prepared")

    def __init__(self, text: str) -> None:
        self.sentences = sentences(text)
        tokens = words(self.sentences)
        self.unigrams, self.bigrams = _ngram_set(tokens, 1), _ngram_set(tokens, 2)
        self.distinct = len(set(tokens))
        self.split = [(s.split(" "), set(s.split(" "))) for s in self.sentences]
        self.prepared: list[Candidate | None] = [None] * len(self.sentences)


#: Each distinct text's reading (see :func:`pair_scores`).
Memo = dict[str, _Text]


def _read(text: str, memo: Memo | None) -> _Text:
    if memo is None:
        return _Text(text)
    found = memo.get(text)
    if found is None:
        found = memo[text] = _Text(text)
    return found


def pair_scores(
    prediction: str, reference: str, memo: Memo | None = None
) -> dict[str, tuple[float, float, float]]:
    """``{"rouge1"|"rouge2"|"rougeL": (P, R, F)}`` of one pair; :class:`EmptyText` where the
    package raises.  ``memo``: each text's reading, kept for the next pair that has the text
    (a reference scored against several systems' summaries)."""
    hyp, ref = _read(prediction, memo), _read(reference, memo)
    if not hyp.sentences or not ref.sentences:
        raise EmptyText("Hypothesis is empty." if not hyp.sentences else "Reference is empty.")
    out = {}
    for n, h, r in ((1, hyp.unigrams, ref.unigrams), (2, hyp.bigrams, ref.bigrams)):
        out[f"rouge{n}"] = _prf(len(h & r), len(h), len(r))
    union: set[str] = set()
    for k, (ref_split, distinct) in enumerate(ref.split):
        for hyp_sentence, hyp_distinct in hyp.split:
            # the traceback's words are common to both sentences: when every common word is
            # already in the union (none at all: an empty LCS), the walk adds nothing
            if not (distinct & hyp_distinct) <= union:
                prepared = ref.prepared[k]
                if prepared is None:
                    prepared = ref.prepared[k] = Candidate(ref_split)  # type: ignore[arg-type]
                union |= _traceback_words(ref_split, hyp_sentence, prepared)
    out["rougeL"] = _prf(len(union), hyp.distinct, ref.distinct)
    return out
