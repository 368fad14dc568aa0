"""Minimum Bayes risk selection (``rouge_lcs.similarity.mbr``) against brute force with
rouge_score: every candidate scored against every other one by ``RougeScorer.score``."""

from __future__ import annotations

import math
import re
from collections import defaultdict

import numpy as np
import pytest

from rouge_lcs.similarity import MBRResult, mbr

pytestmark = pytest.mark.usefixtures("engine")


def _sources(corpora, count: int) -> list[list[str]]:
    """REALSumm's 25 system summaries of each document: one MBR source per document."""
    by_doc: dict[int, list[str]] = defaultdict(list)
    for row in corpora.rows("en_cnndm_realsumm"):
        by_doc[row["doc_id"]].append(row["prediction"])
    return [by_doc[d] for d in sorted(by_doc)[:count]]


def _brute_force(cands: list[str], rouge_type: str, measure: str, refs=None) -> list[float]:
    scorer = pytest.importorskip("rouge_score.rouge_scorer").RougeScorer([rouge_type])
    pool = cands if refs is None else refs
    out = []
    for i, cand in enumerate(cands):
        values = [
            getattr(scorer.score(ref, cand)[rouge_type], measure)
            for j, ref in enumerate(pool)
            if refs is not None or j != i
        ]
        out.append(math.fsum(values) / len(values))
    return out


@pytest.mark.parametrize(("rouge_type", "measure"), [("rougeL", "fmeasure"), ("rouge2", "recall")])
def test_the_choice_equals_brute_force_with_rouge_score(corpora, rouge_type, measure) -> None:
    sources = _sources(corpora, 6)
    results = mbr(sources, rouge_type=rouge_type, measure=measure, tokenizer="rouge_score")
    assert isinstance(results, list) and len(results) == len(sources)
    for cands, result in zip(sources, results):
        expected = _brute_force(cands, rouge_type, measure)
        assert result.scores == pytest.approx(expected, abs=1e-12)
        assert result.index == int(np.argmax(expected))


def test_given_pseudo_references(corpora) -> None:
    cands, refs = _sources(corpora, 2)
    result = mbr(cands[:8], references=refs[:5], tokenizer="rouge_score", return_matrix=True)
    assert isinstance(result, MBRResult)
    expected = _brute_force(cands[:8], "rougeL", "fmeasure", refs[:5])
    assert result.scores == pytest.approx(expected, abs=1e-12)
    assert result.matrix is not None and result.matrix.shape == (8, 5)


def test_duplicates_tie_exactly_and_the_first_wins() -> None:
    # candidates 0 and 2 are the same text: their expectations are equal sums in another order
    result = mbr(["a b c d", "a b x", "a b c d", "b c d e", "a c"])
    assert result.scores[0] == result.scores[2]
    assert result.index == 0


def test_aggregate_is_exact_where_it_can_be() -> None:
    # ROUGE-1 recall against averaged counts equals the mean recall when every pseudo-reference
    # has the same length and no candidate n-gram is clipped by the mean (hand-worked)
    cands = ["a b", "a c", "b c"]
    exact = mbr(cands, rouge_type="rouge1", measure="recall")
    approx = mbr(cands, rouge_type="rouge1", measure="recall", method="aggregate")
    assert approx.scores == pytest.approx(exact.scores, abs=1e-12)
    assert approx.scores == pytest.approx([0.5, 0.5, 0.5])


def test_one_candidate() -> None:
    # no other candidate to compare with: scored against itself (ROUGE of a text with itself)
    result = mbr(["only"])
    assert result.index == 0 and result.scores == [1.0]


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "names"),
    [
        (([],), {}, ValueError, "candidates"),
        (("a b",), {}, TypeError, "candidates"),
        ((["a", 1],), {}, TypeError, "candidates"),
        ((["a", "b"],), {"method": "aggregate"}, ValueError, "method"),
        ((["a", "b"],), {"method": "fast"}, ValueError, "method"),
        ((["a", "b"],), {"references": [["a"]]}, ValueError, "references"),
        ((["a", "b"],), {"rouge_type": "rougeLsum"}, ValueError, "rouge_type"),
    ],
)
def test_bad_input_names_the_argument(args, kwargs, error, names) -> None:
    with pytest.raises(error, match=re.escape(names)):
        mbr(*args, **kwargs)
