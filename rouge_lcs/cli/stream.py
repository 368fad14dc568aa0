"""``rouge-lcs score --data pairs.parquet``: record batches in, per-example scores out.

The file is read one record batch at a time (``BATCH_ROWS`` rows), each batch's Arrow columns
scored as they are (no ``str`` per row) and its scores written to ``--output`` as Parquet, so
that memory stays that of one batch whatever the file's size (``benchmarks/bench_stream.py``
measures the peak).  pyarrow's default ``pre_buffer`` keeps the column chunks read so far in
its memory pool (reading alone, a 52 MB file held 66 MB there, without it 16 MB), so the file is
opened without it, and the pool returns its freed pages after each batch.  Each batch is
scored with a fresh vocabulary (a scorer of the same settings per batch): a scorer keeps its
vocabulary for its next call, up to ``STORE_LIMIT`` (200,000) tokens, which grew the peak with
the file until the limit was reached in a probe run in the same process (20,000 rows: 207 MB;
400,000: 244 MB; 1,200,000: 258 MB; with a vocabulary per batch 198, 234 and 235 MB), and no
slower (a batch of 16,384 rows repeats its own common words); benchmarks/bench_stream.py
measures the command's own peak.  The means are exact: each
batch adds its exact column sums (:class:`rouge_lcs.distributed.PartialSums`), rounded once
at the end, so they equal ``rouge()``'s on the whole file.
"""

from __future__ import annotations

import sys
import time

from rouge_lcs.cli.columns import BATCH_ROWS, open_parquet, pyarrow_modules
from rouge_lcs.cli.io import InputError, Output
from rouge_lcs.integrations.distributed import PartialSums, exact_sum
from rouge_lcs.scores.results import Score, score_columns
from rouge_lcs.scores.scorer import Rouge

__all__ = ["BATCH_ROWS", "stream_scores"]


def _reference_column(names: list[str], path: str) -> str:
    for name in ("references", "reference"):
        if name in names:
            return name
    raise InputError(f"{path}: no 'reference' or 'references' column; it has {names}")


def stream_scores(
    scorer: Rouge, path: str, output: Output | None, progress: bool
) -> tuple[dict[str, Score], int, set[int]]:
    """Score a Parquet file of pairs batch by batch; returns the exact means, the number of
    examples and the reference counts seen.  ``output``: an opened binary output the
    per-example scores are written to (the caller commits or discards it)."""
    pa, pq = pyarrow_modules("--data FILE.parquet")
    pool = pa.default_memory_pool()
    source = open_parquet(path, "--data")
    names = source.schema_arrow.names
    if "prediction" not in names:
        raise InputError(f"{path}: no 'prediction' column; it has {names}")
    ref_name = _reference_column(names, path)
    keep = ["id"] if "id" in names else []
    columns = score_columns(scorer.rouge_types, True)
    total, done, ref_counts = PartialSums(), 0, set()
    writer = None
    bar = None
    if progress and sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=source.metadata.num_rows, unit="rows", file=sys.stderr, smoothing=0.1)
    start = time.perf_counter()
    try:
        for batch in source.iter_batches(
            batch_size=BATCH_ROWS, columns=["prediction", ref_name, *keep]
        ):
            n = batch.num_rows
            if n == 0:
                continue
            preds, refs = batch.column("prediction"), batch.column(ref_name)
            try:
                scores = Rouge.from_settings(
                    scorer.settings, num_proc=scorer.num_proc, num_threads=scorer.num_threads
                ).score(preds, refs)
            except ValueError as error:  # rows named within the batch: name them in the file
                raise InputError(
                    f"{path}: {error} (in the batch of rows {done} to {done + n - 1})"
                ) from None
            index = batch.column("id") if keep else pa.array(range(done, done + n), pa.int64())
            out = scores.to_arrow(
                return_precision_recall=True, index=index, index_name="id" if keep else "row"
            )
            total = total + PartialSums(
                n, {c: exact_sum(out.column(c).to_numpy()) for c in columns}
            )
            ref_counts.update(scores.stats.ref_counts())
            if output is not None:
                if writer is None:
                    writer = pq.ParquetWriter(output.handle, out.schema)
                writer.write_table(out)
            done += n
            del batch, preds, refs, index, out, scores
            pool.release_unused()  # freed pages back to the system, not kept for the next batch
            if bar is not None:
                bar.update(n)
    finally:
        if writer is not None:
            writer.close()
        if bar is not None:
            bar.close()
    if not done:
        raise InputError(f"{path}: no rows")
    seconds = time.perf_counter() - start
    if progress and bar is None:
        print(
            f"scored {done} pairs in {seconds:.2f} s ({done / max(seconds, 1e-9):,.0f} rows/s)",
            file=sys.stderr,
        )
    means = total.means()
    result = {
        name: Score(means[f"{name}_precision"], means[f"{name}_recall"], means[name])
        for name in scorer.rouge_types
    }
    return result, done, ref_counts
