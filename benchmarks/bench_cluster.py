#!/usr/bin/env python3
"""Spark and Ray Data: rows/s of rouge_lcs.distributed against what users write today.

Spark: ``spark_scores`` (mapInArrow, one scorer per worker) vs ``mapInPandas`` with a Python
function calling rouge_score per row.  Ray: ``ray_scores`` (map_batches over pyarrow batches,
one scorer per actor) vs ``map_batches(batch_format="pandas")`` with rouge_score.  Both sides
score the same pairs (English headlines, one reference each, repeated to ``--rows``) into the
same columns (rouge1, rouge2, rougeL F), on this machine's cores (local[2]; Ray with 2 CPUs
and 2 actors); the time is of a full pass (``count()`` of Spark's result after caching nothing,
``materialize()`` for Ray), the session already started.  Run under ``nice``; state the load.

    python benchmarks/bench_cluster.py --rows 50000
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from corpora import load_pairs

TYPES = ["rouge1", "rouge2", "rougeL"]


def _pairs(rows: int) -> list[tuple[int, str, str]]:
    predictions, references = load_pairs("en_headlines_rougemetric")
    out = []
    for i in range(rows):
        k = i % len(predictions)
        out.append((i, predictions[k], references[k][0]))
    return out


def _rouge_score_rows(predictions, references):  # what a user's UDF does, per row
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(TYPES)
    for p, r in zip(predictions, references):
        s = scorer.score(r, p)
        yield [s[t].fmeasure for t in TYPES]


def _pandas_udf(frame):
    import pandas as pd

    values = list(_rouge_score_rows(frame["prediction"], frame["references"]))
    return pd.DataFrame(values, columns=TYPES).assign(id=frame["id"].to_numpy())[["id", *TYPES]]


def _timed(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def bench_spark(rows: list[tuple[int, str, str]], partitions: int) -> dict[str, float]:
    from pyspark.sql import SparkSession

    from rouge_lcs.integrations.distributed import spark_scores

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    frame = spark.createDataFrame(rows, "id long, prediction string, references string")
    frame = frame.repartition(partitions).cache()
    frame.count()
    schema = "id long, " + ", ".join(f"{t} double" for t in TYPES)

    def ours() -> None:
        spark_scores(frame, TYPES).write.format("noop").mode("overwrite").save()

    def theirs() -> None:
        frame.mapInPandas(lambda it: (_pandas_udf(b) for b in it), schema).write.format(
            "noop"
        ).mode("overwrite").save()

    ours()  # warm: workers started, the scorer built
    times = {"spark_scores": _timed(ours), "mapInPandas+rouge_score": _timed(theirs)}
    spark.stop()
    return times


def bench_ray(rows: list[tuple[int, str, str]], partitions: int) -> dict[str, float]:
    import ray
    import ray.data

    from rouge_lcs.integrations.distributed import ray_scores

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    items = [{"id": i, "prediction": p, "references": r} for i, p, r in rows]
    dataset = ray.data.from_items(items).repartition(partitions).materialize()

    def ours() -> None:
        ray_scores(dataset, TYPES, concurrency=2, num_cpus=0.5).materialize()

    class Theirs:
        def __call__(self, frame):
            return _pandas_udf(frame)

    def theirs() -> None:
        dataset.map_batches(
            Theirs, batch_format="pandas", concurrency=2, num_cpus=0.5
        ).materialize()

    ours()
    times = {"ray_scores": _timed(ours), "pandas+rouge_score": _timed(theirs)}
    ray.shutdown()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--engine", choices=["spark", "ray", "both"], default="both")
    args = parser.parse_args()
    rows = _pairs(args.rows)
    for engine, bench in (("spark", bench_spark), ("ray", bench_ray)):
        if args.engine not in (engine, "both"):
            continue
        times = bench(rows, args.partitions)
        (ours, t_ours), (theirs, t_theirs) = times.items()
        print(
            f"{engine}: {args.rows} rows  {ours} {args.rows / t_ours:,.0f} rows/s  "
            f"{theirs} {args.rows / t_theirs:,.0f} rows/s  ratio {t_theirs / t_ours:.2f}x",
            flush=True,
        )


if __name__ == "__main__":
    main()
