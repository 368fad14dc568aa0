"""py-rouge 1.1 (PyPI ``py-rouge``, module ``rouge``): ``Rouge(metrics=["rouge-n", "rouge-l"],
max_n=2, …).get_scores(hyps, refs)``, English, ``ensure_compatibility=True`` (its default).

What it does, as its source does it (``rouge/rouge.py``):

- sentences: the text split at ``"\\n"`` (no NLTK sentence split under compatibility);
- truncation, on by default: 665 *characters* (``length_limit_type="bytes"`` counts
  ``len(str)``) of the stripped sentences, the spaces between them not counted, the sentence
  that reaches the limit cut and the rest dropped; or N whitespace words (``"words"``);
- words: each sentence lowercased, every character but ASCII letters and digits a space,
  "cannot" written "_cannot_" (so NLTK does not split it), then ``nltk.word_tokenize``: on such
  text only its contractions split a word ("gonna" is "gon" "na"; also gimme, gotta, lemme,
  wanna), and the "_cannot_" written back;
- ``stemming=True`` (the default), both sides, words longer than 3 characters: its WordNet
  table (``wordnet_key_value.txt`` and its DUC 2004 special cases), else NLTK's
  ``PorterStemmer("ORIGINAL_ALGORITHM")`` (not the mode rouge_score uses);
- ROUGE-N: clipped n-gram hits; a text's n-gram count is ``len(words) - n + 1``, *negative*
  for a text shorter than n - 1 words (a reference without words lowers the pooled count of
  the others); ROUGE-L: summary level, for each reference sentence the union of its LCS
  positions with every summary sentence (the script's backtrack), a hit counted while the
  summary's count of that word lasts: the reference's count is decremented at the key
  ``ref_token_id`` instead of the word (its "decrement bug"), which cannot change a number
  since each reference position is marked once;
- ``apply_avg=True`` (the default): hits and counts summed over references, P, R, then
  F = P R / ((1 - a) P + a R), a = 0.5, 0 when P or R is 0; the corpus number is the mean of
  per-example F.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

import numpy as np

from rouge_lcs.recipes import wordnet
from rouge_lcs.rouge155.counts import Metric, flat_stats
from rouge_lcs.rouge155.tokenize import Flat

__all__ = ["LIMITS", "columns", "sentences", "words"]

#: The truncations of the recipes: py-rouge's default (665 "bytes"), its README's (100
#: words), none (``limit_length=False``).
LIMITS: dict[str, tuple[str, int] | None] = {
    "665 bytes": ("bytes", 665),
    "100 words": ("words", 100),
    "none": None,
}

_REMOVE = re.compile(r"[^A-Za-z0-9]")
#: NLTK's contractions (MacIntyreContractions.CONTRACTIONS2) that text without punctuation can
#: hold: each a whole word (its \b boundaries; "_" is a word character).
_CONTRACTIONS = {
    "gimme": ("gim", "me"),
    "gonna": ("gon", "na"),
    "gotta": ("got", "ta"),
    "lemme": ("lem", "me"),
    "wanna": ("wan", "na"),
}


@cache
def _porter() -> Callable[[str], str]:
    # NLTK is a dependency; imported on first use (~0.3 s), as rouge_lcs.text.stemming does.
    from nltk.stem import porter

    return porter.PorterStemmer("ORIGINAL_ALGORITHM").stem


@cache
def _stem(word: str) -> str:
    found = wordnet.table("pyrouge").get(word)
    return found if found is not None else _porter()(word)


def words(sentence: str, stem: bool = True) -> list[str]:
    """py-rouge's words of one (already truncated) sentence."""
    text = _REMOVE.sub(" ", sentence.lower()).replace("cannot", "_cannot_")
    out: list[str] = []
    for word in text.split():
        split = _CONTRACTIONS.get(word)
        if split is None:
            out.append(word)
        else:
            out.extend(split)
    if stem:
        out = [_stem(w) if len(w) > 3 else w for w in out]
    return [w.replace("_cannot_", "cannot") for w in out]


def sentences(text: str, limit: tuple[str, int] | None) -> list[str]:
    """The text's sentences after py-rouge's truncation (``_preprocess_summary_per_sentence``;
    its whole-text reading for ROUGE-N keeps the same words)."""
    lines = text.split("\n")
    if limit is None:
        return lines
    unit, size = limit
    out: list[str] = []
    current = 0
    for line in lines:
        if unit == "words":
            tokens = line.strip().split()
            if current + len(tokens) < size:
                out.append(" ".join(tokens))
                current += len(tokens)
            else:
                out.append(" ".join(tokens[: size - current]))
                break
        else:
            line = line.strip()
            if current + len(line) < size:
                out.append(line)
                current += len(line)
            else:
                out.append(line[: size - current])
                break
    return out


_METRICS = [Metric("N", n=1), Metric("N", n=2), Metric("L")]


def columns(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]],
    limit: tuple[str, int] | None,
    stem: bool = True,
    memo: dict[str, list[str]] | None = None,
) -> dict[str, dict[str, np.ndarray]]:
    """Per-example ``{measure: {type: values}}`` (rouge1, rouge2, rougeL) of the batch: each
    distinct text read once, the hits counted by the script's kernels
    (:func:`rouge_lcs.rouge155.counts.flat_stats`, whose ROUGE-L is py-rouge's), the counts
    and the pooling as py-rouge does them.  ``memo``: the words of each line already read
    (with this ``stem``), shared by the calls of several truncations: a line a limit does not
    cut has the same words under every limit."""
    memo = {} if memo is None else memo
    index: dict[str, int] = {}
    pred_of = [index.setdefault(p, len(index)) for p in predictions]
    ref_of = [[index.setdefault(r, len(index)) for r in refs] for refs in references]
    vocab: dict[str, int] = {}
    ids: list[int] = []
    line_start = [0]
    doc_line = [0]
    for text in index:
        lines = sentences(text, limit)
        for line in lines:
            found = memo.get(line)
            if found is None:
                found = memo[line] = words(line, stem)
            ids.extend(vocab.setdefault(w, len(vocab)) for w in found)
            line_start.append(len(ids))
        doc_line.append(doc_line[-1] + len(lines))
    flat = Flat(
        np.array(ids, dtype=np.int64),
        np.array(line_start, dtype=np.int64),
        np.array(doc_line, dtype=np.int64),
        max(len(vocab), 1),
    )
    sizes = np.array([len(r) for r in ref_of], dtype=np.int64)
    pair_peer = np.repeat(np.array(pred_of, dtype=np.int64), sizes)
    pair_model = np.array([m for refs in ref_of for m in refs], dtype=np.int64)
    stats = flat_stats(flat, pair_peer, pair_model, _METRICS)
    doc_start = flat.doc_start
    length = (doc_start[1:] - doc_start[:-1]).astype(np.float64)  # words of each text
    starts = np.cumsum(sizes) - sizes
    out: dict[str, dict[str, np.ndarray]] = {"precision": {}, "recall": {}, "fmeasure": {}}
    for name, n, (hit, *_) in zip(("rouge1", "rouge2", "rougeL"), (1, 2, 0), stats):
        shorter = max(n - 1, 0)  # ROUGE-N counts len - n + 1 n-grams, negative included
        sums = [
            np.add.reduceat(column, starts)
            for column in (hit, length[pair_peer] - shorter, length[pair_model] - shorter)
        ]
        p, r = (_ratio(sums[0], total) for total in (sums[1], sums[2]))
        with np.errstate(divide="ignore", invalid="ignore"):
            f = np.where((p == 0) | (r == 0), 0.0, p * r / ((1 - 0.5) * p + 0.5 * r))
        out["precision"][name], out["recall"][name], out["fmeasure"][name] = p, r, f
    return out


def _ratio(hits: np.ndarray, total: np.ndarray) -> np.ndarray:
    """``0.0 if total == 0 else hits / total``, elementwise."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total == 0, 0.0, hits / np.where(total == 0, 1.0, total))
