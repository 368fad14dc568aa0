"""Beyond one machine: Dask (distributed) on a local cluster gives one process's numbers exactly.

The oracle for the exact sums is ``math.fsum`` (correctly rounded); for the cluster run, one
process's ``rouge_lcs.score`` / ``rouge_lcs.rouge`` on the same pairs.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys

import numpy as np
import pytest

import rouge_lcs
from rouge_lcs.integrations.distributed import (
    PartialSums,
    exact_sum,
    partial_sums,
    round_sum,
    score_frame,
)

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _hard_floats(rng: random.Random, n: int) -> list[float]:
    """Values whose naive sum loses digits: huge, tiny, subnormal, cancelling, negative."""
    pool = [1e300, -1e300, 1e-300, 5e-324, 2.0**-1074 * 3, 1.0, 0.1, -0.1, 1e16, -1e16, 0.0]
    return [
        rng.choice(pool) * rng.random() if rng.random() < 0.5 else rng.choice(pool)
        for _ in range(n)
    ]


@pytest.mark.parametrize("seed", range(20))
def test_exact_sum_rounds_like_fsum_however_it_is_split(seed):
    rng = random.Random(seed)
    values = _hard_floats(rng, rng.randint(0, 300))
    values += [rng.random() for _ in range(rng.randint(0, 3000))]  # ROUGE-like: [0, 1]
    rng.shuffle(values)
    assert round_sum(exact_sum(values)) == math.fsum(values)
    cuts = sorted(rng.sample(range(len(values) + 1), k=min(5, len(values) + 1)))
    parts = [values[a:b] for a, b in zip([0, *cuts], [*cuts, len(values)])]
    assert round_sum(sum(exact_sum(p) for p in parts)) == math.fsum(values)


def test_partial_sums_add_up_and_give_fsum_means():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"a": rng.random(1001), "b": rng.random(1001) / 7})
    parts = [partial_sums(frame.iloc[i : i + 97]) for i in range(0, 1001, 97)]
    total = sum(parts)
    assert isinstance(total, PartialSums) and total.count == 1001
    assert total.means() == {c: math.fsum(frame[c].tolist()) / 1001 for c in ("a", "b")}
    with pytest.raises(ValueError, match="no rows"):
        PartialSums().means()


def test_score_frame_keeps_the_index_and_handles_empty_batches():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(
        {"prediction": ["a b c", "x"], "references": [["a b d", "a"], "x y"]}, index=[10, 3]
    )
    scorer = rouge_lcs.Rouge(["rouge1"])
    scored = score_frame(frame, scorer, return_precision_recall=True)
    assert scored.index.tolist() == [10, 3]
    assert scored.columns.tolist() == ["rouge1", "rouge1_precision", "rouge1_recall"]
    assert scored["rouge1"].tolist() == [2 / 3, 2 / 3]  # 2/3 vs "a b d"; P 1, R 1/2 vs "x y"
    empty = score_frame(frame.iloc[:0], scorer)
    assert empty.columns.tolist() == ["rouge1"] and len(empty) == 0


def test_distributed_module_imports_no_dask_or_pandas():
    code = (
        "import sys, rouge_lcs.distributed;"
        "bad = {'dask', 'distributed', 'pandas'} & set(sys.modules); assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.slow
def test_dask_local_cluster_equals_one_process(corpora):
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("dask.distributed")
    import dask

    from rouge_lcs.integrations.distributed import dask_means, dask_partial_sums, dask_scores

    predictions: list[str] = []
    references: list[object] = []
    for name in ("en_cnndm_realsumm", "en_headlines_rougemetric", "ko_klue_sts_dev"):
        for row in corpora.rows(name):
            predictions.append(row["prediction"])
            refs = row["references"]
            references.append(refs if len(refs) > 1 else refs[0])  # both shapes, mixed
    table = pd.DataFrame({"prediction": predictions, "references": references})
    table.index = pd.RangeIndex(len(table)) * 3 + 7  # a non-default index must survive
    options = {"use_stemmer": True, "multi_ref": "max_f"}
    one = rouge_lcs.score(predictions, references, TYPES, **options)
    one_means = rouge_lcs.rouge(
        predictions, references, TYPES, return_precision_recall=True, **options
    )

    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        # Dask turns object columns into strings by default, lists of references into their
        # repr: keep them lists (the recipe in the module docstring says the same).
        with dask.config.set({"dataframe.convert-string": False}):
            pairs = dd.from_pandas(table, npartitions=7)
        scores = dask_scores(pairs, TYPES, return_precision_recall=True, **options).persist()
        means = dask_means(scores)
        local = scores.compute()
        assert dask_partial_sums(scores).count == len(table)
        workers = set(cluster.scheduler_info["workers"])
    assert len(workers) == 2

    assert local.index.tolist() == table.index.tolist()
    for k, name in enumerate(TYPES):
        assert np.array_equal(local[name].to_numpy(), one.fmeasure[:, k])
        assert np.array_equal(local[f"{name}_precision"].to_numpy(), one.precision[:, k])
        assert np.array_equal(local[f"{name}_recall"].to_numpy(), one.recall[:, k])
    assert means == one_means  # bit-identical, precision and recall means included


def test_dask_pyarrow_strings_reach_the_engine_as_arrow(corpora, monkeypatch):
    """Dask's default string dtype (``string[pyarrow]``) and an ``ArrowDtype`` column of
    reference lists go to the engine as Arrow columns (its buffers read, no list of ``str``
    made), through a real dask compute; the numbers equal one process's ``score()``."""
    pd = pytest.importorskip("pandas")
    pa = pytest.importorskip("pyarrow")
    dd = pytest.importorskip("dask.dataframe")
    import dask

    from rouge_lcs.base import arrow
    from rouge_lcs.integrations.distributed import dask_scores

    predictions: list[str] = []
    references: list[list[str]] = []
    for name in ("en_headlines_rougemetric", "ko_klue_sts_dev"):
        for row in corpora.rows(name)[:150]:
            predictions.append(row["prediction"])
            references.append(list(row["references"]))
    lists = pd.ArrowDtype(pa.list_(pa.string()))
    table = pd.DataFrame(
        {
            "prediction": pd.Series(predictions, dtype="string[pyarrow]"),
            "references": pd.Series(references, dtype=lists),
        }
    )
    read = []
    real_of = arrow.ArrowTexts.of.__func__

    def counted_of(cls, value, name):
        read.append(type(value).__name__)
        return real_of(cls, value, name)

    monkeypatch.setattr(arrow.ArrowTexts, "of", classmethod(counted_of))
    one = rouge_lcs.score(predictions, references, TYPES)
    assert not read  # lists of str: not the Arrow path
    pairs = dd.from_pandas(table, npartitions=3)
    assert str(pairs["prediction"].dtype) == "string"
    # synchronous: the partitions are scored in this process, where the count is kept
    local = dask_scores(pairs, TYPES, return_precision_recall=True).compute(scheduler="synchronous")
    # per partition: the prediction column read as Arrow (the reference lists' values too)
    assert read.count("Series") == 3, read
    for k, name in enumerate(TYPES):
        assert np.array_equal(local[name].to_numpy(), one.fmeasure[:, k])
        assert np.array_equal(local[f"{name}_precision"].to_numpy(), one.precision[:, k])
    assert dask.config.get("dataframe.convert-string") in (True, None)
