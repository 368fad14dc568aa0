"""Ray Data for real: ``ray_scores`` / ``ray_means`` on a local Ray cluster (2 CPUs, 2 actors)
equal one process's ``rouge_lcs.score`` / ``rouge_lcs.rouge`` on the same pairs, whatever the
blocks.  Needs ``ray[data]`` (the test extra): without it the tests skip, and fail under ``CI``.
"""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

import rouge_lcs

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


@pytest.fixture(scope="module")
def ray():
    try:
        import ray
        import ray.data  # noqa: F401
    except ImportError:
        message = 'ray is not installed (pip install "ray[data]", in the test extra)'
        if os.environ.get("CI"):  # the test extra installs it: a skip would hide the check
            pytest.fail(message)
        pytest.skip(message)
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        object_store_memory=200 * 1024**2,
        log_to_driver=False,
        configure_logging=False,
    )
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield ray
    ray.shutdown()


def test_scores_and_means_equal_one_process_for_any_blocks(ray, corpora):
    from rouge_lcs.integrations.distributed import ray_means, ray_partial_sums, ray_scores

    rows = []
    for name in ("en_cnndm_realsumm", "en_headlines_rougemetric", "ko_klue_sts_dev"):
        rows += [(r["prediction"], list(r["references"])) for r in corpora.rows(name)]
    rows += [("", ["a b"]), ("a b", [""])]  # empty texts score 0, as in score()
    predictions = [p for p, _ in rows]
    references = [r for _, r in rows]
    one = rouge_lcs.score(predictions, references, TYPES)
    one_means = rouge_lcs.rouge(predictions, references, TYPES, return_precision_recall=True)
    items = [{"id": i, "prediction": p, "references": r} for i, (p, r) in enumerate(rows)]
    for blocks in (1, 5):
        dataset = ray.data.from_items(items).repartition(blocks)
        scores = ray_scores(
            dataset, TYPES, return_precision_recall=True, concurrency=2, num_cpus=0.5
        ).materialize()
        assert ray_means(scores) == one_means  # bit-identical
        assert ray_partial_sums(scores).count == len(rows)
        local = scores.to_pandas().sort_values("id")
        assert local.columns[0] == "id" and "prediction" not in local.columns
        assert local["id"].tolist() == list(range(len(rows)))
        for k, name in enumerate(TYPES):
            assert np.array_equal(local[name].to_numpy(), one.fmeasure[:, k])
            assert np.array_equal(local[f"{name}_precision"].to_numpy(), one.precision[:, k])
            assert np.array_equal(local[f"{name}_recall"].to_numpy(), one.recall[:, k])


def test_bad_columns_and_nulls(ray):
    from rouge_lcs.integrations.distributed import ray_scores

    dataset = ray.data.from_items([{"prediction": "a", "references": "b"}])
    with pytest.raises(ValueError, match="reference_column: no column 'refs'"):
        ray_scores(dataset, reference_column="refs")
    nulls = ray.data.from_items([{"prediction": "a", "ref": None}, {"prediction": "b", "ref": "c"}])
    with pytest.raises(Exception, match="reference_column: column 'ref' holds a null at row 0"):
        ray_scores(nulls, "rouge1", reference_column="ref", num_cpus=0.5).take_all()


def test_the_docs_example_runs(ray, repo, tmp_path):
    page = (repo / "docs" / "distributed" / "ray.md").read_text("utf-8")
    (example,) = re.findall(r"```python\n(.*?)```", page, flags=re.S)
    # it writes scores/: there, under tmp_path (the JVM resolves paths from its own cwd)
    example = example.replace('"scores/"', repr(str(tmp_path / "scores")))
    exec(compile(example, "ray.md", "exec"), {})
    assert (tmp_path / "scores").is_dir()
