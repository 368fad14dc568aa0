"""Bootstrap intervals and paired significance tests."""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np
import pytest

from rouge_lcs import rouge, score
from rouge_lcs.scores.statistics import (
    approximate_randomization,
    bootstrap_interval,
    compare,
    paired_bootstrap,
)


def test_interval_is_seeded_and_deterministic():
    values = np.random.default_rng(5).random((500, 3))
    first = bootstrap_interval(values, 0.95, 1000, seed=7)
    again = bootstrap_interval(values, 0.95, 1000, seed=7)
    other = bootstrap_interval(values, 0.95, 1000, seed=8)
    assert all(np.array_equal(x, y) for x, y in zip(first, again))
    assert not np.array_equal(first[0], other[0])


def test_interval_matches_normal_theory_for_a_bernoulli_mean():
    """For n = 4000 Bernoulli(0.3) values, the 95% interval of the mean is about
    mean ± 1.96·sqrt(p(1-p)/n) (independent of our code: the central limit theorem)."""
    values = (np.random.default_rng(0).random((4000, 1)) < 0.3).astype(float)
    low, high = bootstrap_interval(values, 0.95, 4000, seed=1)
    p = values.mean()
    half = 1.96 * math.sqrt(p * (1 - p) / len(values))
    assert low[0] == pytest.approx(p - half, abs=0.002)
    assert high[0] == pytest.approx(p + half, abs=0.002)


def test_constant_scores_have_a_point_interval():
    low, high = bootstrap_interval(np.full((50, 2), 0.25), 0.9, 200, seed=0)
    assert low.tolist() == high.tolist() == [0.25, 0.25]


def test_point_estimate_stays_the_exact_mean():
    preds = ["a b c", "a", "c d e f", "x"]
    refs = ["a b", "a b c", "c d", "y"]
    with_ci = rouge(preds, refs, confidence_level=0.95)
    plain = rouge(preds, refs)
    assert all(with_ci[k] == plain[k] for k in plain)
    for name in plain:
        assert with_ci[f"{name}_low"] <= plain[name] <= with_ci[f"{name}_high"]


def test_precision_recall_intervals_when_asked():
    result = rouge(
        ["a b", "a"], ["a c", "a"], ["rouge1"], confidence_level=0.9, return_precision_recall=True
    )
    assert {"rouge1_precision_low", "rouge1_recall_high", "rouge1_low"} <= set(result)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(confidence_level=1.5), "confidence_level"),
        (dict(confidence_level=0.95, n_resamples=0), "n_resamples"),
        (dict(confidence_level=0.95, seed=-1), "seed"),
        (dict(confidence_level=0.95, use_aggregator=False), "confidence_level"),
    ],
)
def test_bad_statistics_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        rouge(["a"], ["a"], **kwargs)


def test_system_against_itself_is_not_significant():
    a = np.random.default_rng(3).random((200, 4))
    result = compare(a, a.copy())
    assert result.difference.tolist() == [0.0] * 4
    assert np.all(result.p_bootstrap == 1.0) and np.all(result.p_randomization == 1.0)
    assert np.all(result.low == 0.0) and np.all(result.high == 0.0)


def test_uniform_improvement_is_significant():
    a = np.random.default_rng(4).random((100, 1))
    _, p_boot = paired_bootstrap(a, a + 0.01, n_resamples=999)
    assert p_boot[0] == pytest.approx(1 / 1000)
    assert approximate_randomization(a, a + 0.01, n_trials=999)[0] == pytest.approx(1 / 1000)


def _realsumm_systems(corpora) -> dict[str, dict[str, dict]]:
    by_system: dict[str, dict[str, dict]] = defaultdict(dict)
    for row in corpora.rows("en_cnndm_realsumm"):
        kind, doc, system = row["id"].split("-", 2)
        by_system[f"{kind}-{system}"][doc] = row
    return by_system


def test_real_systems_on_the_same_documents(corpora):
    systems = _realsumm_systems(corpora)
    docs = sorted(set.intersection(*(set(s) for s in systems.values())), key=int)
    assert len(docs) == 100

    def f(system: str) -> np.ndarray:
        rows = [systems[system][d] for d in docs]
        return score(
            ["\n".join(r["prediction_sents"]) for r in rows],
            ["\n".join(r["references_sents"][0]) for r in rows],
            ["rouge1", "rouge2", "rougeL"],
        ).fmeasure

    means = {name: f(name)[:, 0].mean() for name in systems}
    best, worst = max(means, key=means.get), min(means, key=means.get)
    better = compare(f(worst), f(best))
    assert np.all(better.difference > 0)
    assert np.all(better.p_bootstrap < 0.05) and np.all(better.p_randomization < 0.05)
    assert np.all(better.low > 0)
    same = compare(f(best), f(best))
    assert np.all(same.p_bootstrap == 1.0) and np.all(same.p_randomization == 1.0)
