"""Peak memory of ``rouge-lcs score --data FILE.parquet -o scores.parquet`` (streamed by record
batches) on a file and on one ``--factor`` times larger: the two peaks should be the same.

    .venv/bin/python benchmarks/bench_stream.py [--pairs 50000] [--factor 20] [--smoke]

The smaller file's rows come from the shared corpora: 9 in 10 are bench_nfkc.py's distinct
mixed short pairs (Korean, Chinese, English), 1 in 10 a REALSumm summary pair; the larger
file is those rows ``--factor`` times over.  Every text is numbered by its row (in fullwidth
brackets), so no two texts are equal and every batch brings new tokens.  Each file is written to a
temporary folder in row groups of 10,000 rows; the command runs in a fresh interpreter per
file, and its peak resident set size is read from the operating system when it exits
(``os.wait4``'s ``ru_maxrss``).  Printed: rows, file size, wall time and peak RSS per file, and
the ratio of the peaks.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from bench_nfkc import mixed_pairs
from corpora import load_pairs

ROW_GROUP = 10_000


def write_pairs(path: Path, rows: int, base: int) -> None:
    """``rows`` distinct pairs to ``path``, written one row group at a time: the first ``base``
    rows' texts again and again, numbered anew (the same kind of rows, in the same mix)."""
    summaries, references = load_pairs("en_cnndm_realsumm")
    short_p, short_r = mixed_pairs(base)
    schema = pa.schema([("prediction", pa.string()), ("reference", pa.string())])
    with pq.ParquetWriter(path, schema) as writer:
        for start in range(0, rows, ROW_GROUP):
            preds, refs = [], []
            for k in range(start, min(rows, start + ROW_GROUP)):
                if k % base % 10 == 9:
                    j = k % base % len(summaries)
                    preds.append(f"{summaries[j]} ({k})")
                    refs.append(f"{references[j][0]} ({k})")
                else:
                    j = k % base
                    preds.append(f"{short_p[j]}（{k}）")
                    refs.append(f"{short_r[j]}（{k}）")
            writer.write_table(pa.table({"prediction": preds, "reference": refs}, schema))


def peak_of_run(data: Path, output: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one ``rouge-lcs score`` run in a fresh interpreter."""
    command = [
        sys.executable,
        "-m",
        "rouge_lcs",
        "score",
        "--data",
        str(data),
        "-o",
        str(output),
        "--rouge-types",
        "rouge1",
        "rouge2",
        "rougeL",
        "--json",
    ]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert child.stderr is not None
    errors = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    if child.returncode:
        raise SystemExit(f"rouge-lcs score failed:\n{errors.decode(errors='replace')}")
    if pq.ParquetFile(output).metadata.num_rows != pq.ParquetFile(data).metadata.num_rows:
        raise SystemExit("rouge-lcs score: the scores file lacks rows")
    return seconds, usage.ru_maxrss / 1024  # KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=50_000, help="rows of the smaller file")
    parser.add_argument("--factor", type=int, default=20, help="the larger file's size ratio")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes")
    args = parser.parse_args()
    pairs, factor = (300, 2) if args.smoke else (args.pairs, args.factor)
    peaks = []
    with tempfile.TemporaryDirectory() as folder:
        for rows in (pairs, pairs * factor):
            data = Path(folder) / f"pairs-{rows}.parquet"
            write_pairs(data, rows, pairs)
            seconds, peak = peak_of_run(data, Path(folder) / "scores.parquet")
            size = data.stat().st_size / 2**20
            print(f"{rows:>9} rows  {size:7.1f} MB file  {seconds:6.1f} s  peak RSS {peak:6.0f} MB")
            peaks.append(peak)
    print(f"peak RSS, {factor}x the rows: {peaks[1] / peaks[0]:.2f}x")


if __name__ == "__main__":
    main()
