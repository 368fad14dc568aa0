"""Spark for real: ``spark_scores`` / ``spark_means`` on a local Spark (``local[2]``) equal one
process's ``rouge_lcs.score`` / ``rouge_lcs.rouge`` on the same pairs, whatever the partitioning.

Needs ``pyspark`` (the test extra) and a Java runtime (``apt-get install default-jre-headless``;
``.ci/run`` installs it): without them the tests skip, and fail under ``CI``.
"""

from __future__ import annotations

import os
import re
import shutil
import sys

import numpy as np
import pytest

import rouge_lcs

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _missing(message: str) -> None:
    if os.environ.get("CI"):  # .ci/run installs both: a skip there would hide the check
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def spark():
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        _missing("pyspark is not installed (pip install pyspark, in the test extra)")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        _missing("no Java runtime for Spark (apt-get install -y default-jre-headless)")
    os.environ["PYSPARK_PYTHON"] = sys.executable  # the workers run this interpreter
    session = (
        SparkSession.builder.master("local[2]")
        .appName("rouge_lcs-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def pairs(corpora):
    """English summaries, headlines with 4 references, Korean: an id, a text, a reference list."""
    rows = []
    for name in ("en_cnndm_realsumm", "en_headlines_rougemetric", "ko_klue_sts_dev"):
        rows += [(r["prediction"], list(r["references"])) for r in corpora.rows(name)]
    rows += [("", ["a b"]), ("a b", [""]), ("", [""])]  # empty texts score 0, as in score()
    return rows


def test_scores_and_means_equal_one_process_for_any_partitioning(spark, pairs):
    from rouge_lcs.integrations.distributed import spark_means, spark_partial_sums, spark_scores

    predictions = [p for p, _ in pairs]
    references = [r for _, r in pairs]
    options = {"use_stemmer": True}
    one = rouge_lcs.score(predictions, references, TYPES, **options)
    one_means = rouge_lcs.rouge(
        predictions, references, TYPES, return_precision_recall=True, **options
    )
    frame = spark.createDataFrame(
        [(3 * i + 7, p, r) for i, (p, r) in enumerate(pairs)],
        "id long, prediction string, references array<string>",
    )
    for partitions in (1, 3, 7):
        scores = spark_scores(
            frame.repartition(partitions), TYPES, return_precision_recall=True, **options
        )
        assert scores.columns[0] == "id"  # kept; the texts are not
        assert "prediction" not in scores.columns and "references" not in scores.columns
        assert spark_means(scores) == one_means  # bit-identical
        assert spark_partial_sums(scores).count == len(pairs)
        local = scores.toPandas().sort_values("id")
        assert local["id"].tolist() == [3 * i + 7 for i in range(len(pairs))]
        for k, name in enumerate(TYPES):
            assert np.array_equal(local[name].to_numpy(), one.fmeasure[:, k])
            assert np.array_equal(local[f"{name}_precision"].to_numpy(), one.precision[:, k])
            assert np.array_equal(local[f"{name}_recall"].to_numpy(), one.recall[:, k])


def test_one_reference_per_row_as_a_string_column(spark):
    from rouge_lcs.integrations.distributed import spark_means, spark_scores

    rows = [("a b c", "a b d"), ("x", "x y"), ("the cat", "a cat")]
    frame = spark.createDataFrame(rows, "prediction string, ref string").repartition(2)
    scores = spark_scores(frame, "rougeL", reference_column="ref")
    assert scores.columns == ["rougeL"]
    expected = rouge_lcs.rouge([p for p, _ in rows], [r for _, r in rows], ["rougeL"])
    assert spark_means(scores) == expected


def test_bad_columns_fail_on_the_driver_with_the_argument_named(spark):
    from rouge_lcs.integrations.distributed import spark_scores

    frame = spark.createDataFrame([("a", 1)], "prediction string, references long")
    with pytest.raises(ValueError, match="prediction_column: no column 'pred'"):
        spark_scores(frame, prediction_column="pred")
    with pytest.raises(TypeError, match="reference_column: .* must be string or array<string>"):
        spark_scores(frame)
    clash = spark.createDataFrame(
        [("a", "b", 0.5)], "prediction string, references string, rouge1 double"
    )
    with pytest.raises(ValueError, match="already has a column named as a score column"):
        spark_scores(clash, "rouge1")
    with pytest.raises(ValueError, match="rouge_types"):
        spark_scores(frame, "rouge0")


def test_a_null_text_fails_naming_the_column(spark):
    from pyspark.errors import PythonException

    from rouge_lcs.integrations.distributed import spark_scores

    frame = spark.createDataFrame([("a", "b"), (None, "c")], "prediction string, references string")
    with pytest.raises(
        PythonException, match="prediction_column: column 'prediction' holds a null"
    ):
        spark_scores(frame.coalesce(1)).collect()


def test_the_docs_example_runs(spark, repo, tmp_path):
    page = (repo / "docs" / "distributed" / "spark.md").read_text("utf-8")
    (example,) = re.findall(r"```python\n(.*?)```", page, flags=re.S)
    # it writes scores/: there, under tmp_path (the JVM resolves paths from its own cwd)
    example = example.replace('"scores/"', repr(str(tmp_path / "scores")))
    exec(compile(example, "spark.md", "exec"), {})
    assert (tmp_path / "scores").is_dir()
