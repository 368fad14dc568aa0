"""ROUGE-1.5.5's metrics read the library's kind records (rouge_lcs.text.rouge_types.ROUGE_KINDS).

The expected tags are the script's own names (ROUGE-1.5.5's report lines: ``ROUGE-2``,
``ROUGE-SU4``, ``ROUGE-W-1.2``, ``ROUGE-L``); the expected statistics are worked by hand from
the script's rules (rouge_lcs.rouge155.counts' docstring: clipped n-gram hits, model and peer
counts, recall rounded to 5 decimals; skip bigrams ``i < j <= i + d + 1`` and, with ``-u``,
every token but the last as a unigram).
"""

from __future__ import annotations

import numpy as np
import pytest

from rouge_lcs.rouge155.counts import Batch, Metric, Summary, batch_stats, pair_stats
from rouge_lcs.text import rouge_types
from rouge_lcs.text.rouge_types import RougeKind

pytestmark = pytest.mark.usefixtures("engine")


def _summary(words: str, vocab: dict[str, int]) -> Summary:
    terms = words.split()
    return Summary(terms, [terms], [[vocab.setdefault(w, len(vocab)) for w in terms]])


def _pair() -> tuple[Batch, Summary, Summary]:
    vocab: dict[str, int] = {}
    peer, model = _summary("a b c", vocab), _summary("a b d", vocab)
    return Batch([peer, model], len(vocab)), peer, model


def _batch(metrics: list[Metric]) -> list[tuple[float, ...]]:
    batch, _, _ = _pair()
    out = batch_stats(batch, np.array([0]), np.array([1]), metrics)
    return [tuple(float(column[0]) for column in stats) for stats in out]


@pytest.mark.parametrize(
    ("metric", "tag"),
    [
        (Metric("n", n=2), "ROUGE-2"),  # the library's kind: was ROUGE-S4
        (Metric("N", n=2), "ROUGE-2"),  # the script's letter
        (Metric("L"), "ROUGE-L"),
        (Metric("Lsum"), "ROUGE-L"),  # the script's ROUGE-L is the union LCS over sentences
        (Metric("W", weight=1.5, weight_text="1.5"), "ROUGE-W-1.5"),
        (Metric("S", skip=4, skip_text="4"), "ROUGE-S4"),
        (Metric("S", skip=9, skip_text="9", unigrams=True), "ROUGE-SU9"),
        (Metric("SU", skip=4, skip_text="4"), "ROUGE-SU4"),  # was ROUGE-S4
        (Metric("SU", skip=-1, skip_text="-1"), "ROUGE-SU*"),
    ],
)
def test_a_metrics_tag_is_its_kinds_record(metric: Metric, tag: str) -> None:
    assert metric.tag == tag


def test_the_librarys_kind_names_count_as_the_scripts_letters() -> None:
    # peer "a b c", model "a b d".  ROUGE-2: bigrams {ab, bc} and {ab, bd}: 1 hit of 2 and 2;
    # recall 0.5.  ROUGE-SU4: units ab, ac, bc + a, b (the last token is no unigram) and
    # ab, ad, bd + a, b: hits ab, a, b = 3 of 5 and 5; recall 0.6.
    rouge2, su4 = (1.0, 2.0, 2.0, 0.5), (3.0, 5.0, 5.0, 0.6)
    assert _batch([Metric("n", n=2), Metric("SU", skip=4)]) == [rouge2, su4]
    assert _batch([Metric("N", n=2), Metric("S", skip=4, unigrams=True)]) == [rouge2, su4]
    _, peer, model = _pair()
    assert pair_stats(peer, [model], [Metric("n", n=2), Metric("SU", skip=4)]) == [
        [rouge2],
        [su4],
    ]


def test_an_unknown_kind_is_a_value_error_not_rouge_l() -> None:
    # It used to be counted as ROUGE-L (the last branch of batch_stats).
    with pytest.raises(ValueError, match=r"kind: expected one of \['n', 'L', .*got 'X'"):
        _batch([Metric("X")])
    with pytest.raises(ValueError, match="unigrams: expected False for kind 'N'"):
        Metric("N", n=1, unigrams=True)


def test_a_kind_without_the_scripts_kernel_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A new kind is one record; ROUGE-1.5.5 states no rule for a kernel it does not have.
    kinds = dict(rouge_types.ROUGE_KINDS)
    kinds["BE"] = RougeKind("BE", "'rougeBE'", lambda rest: None, "basic_elements", "ROUGE-BE")
    monkeypatch.setattr(rouge_types, "ROUGE_KINDS", kinds)
    monkeypatch.setattr("rouge_lcs.rouge155.counts.ROUGE_KINDS", kinds)
    metric = Metric("BE")
    assert metric.tag == "ROUGE-BE"
    message = "kind 'BE' is counted by kernel 'basic_elements'"
    with pytest.raises(ValueError, match=message):
        _batch([Metric("n", n=1), metric])
    _, peer, model = _pair()
    with pytest.raises(ValueError, match=message):
        pair_stats(peer, [model], [metric])
