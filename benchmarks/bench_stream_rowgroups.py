"""Peak memory of ``rouge-lcs score --data FILE.parquet -o scores.parquet`` on the same rows
in one row group and in 64k-row groups: the peaks should be the same.

    .venv/bin/python benchmarks/bench_stream_rowgroups.py [--rows 1000000] [--smoke]

pyarrow and pandas write a table of up to 1,048,576 rows as one row group by default, and a
reader without a read buffer holds the whole column chunk of a row group while it hands out
its record batches: the streamed command's peak then grew with the file (issue 47: 243 MB at
100,000 rows, 403 MB at 1,000,000).  The command reads through a buffer of
``rouge_lcs.cli.columns.READ_BUFFER`` bytes.  Three runs, each in a fresh interpreter whose
own peak RSS (``VmHWM``, bench_stream.py's ``CHILD``) is read as it ends: the file in row groups
of 65,536 rows; the same rows in one row group; and that file again with ``READ_BUFFER = 0``
(the reader before the buffer), for comparison.  The rows are bench_stream.py's (mixed short
pairs and REALSumm pairs from the shared corpora, each numbered by its row).  The goal
(issue 47): one row group's peak within 1.3x the 64k groups'.

Results (2026-12-06 04:25-04:43 UTC, 2 cores shared with other jobs, load average 12.6 at
the start and 13.0 at the end, so the seconds are not comparable; the peaks are the
process's own; ``.venv/bin/python benchmarks/bench_stream_rowgroups.py``):

    65,536-row groups                1,000,000 rows in  16 group(s)   346.6 s  peak RSS 259 MB
    one row group                    1,000,000 rows in   1 group(s)   296.7 s  peak RSS 246 MB
    one row group, READ_BUFFER = 0   1,000,000 rows in   1 group(s)   315.6 s  peak RSS 354 MB
    peak RSS, one row group against 65,536-row groups: 0.95x
    peak RSS, without the read buffer against with it: 1.44x
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq
from bench_stream import CHILD, peak_of_run, write_pairs

#: The row groups of the comparison file.
GROUP = 65_536

#: ``CHILD`` with the command's read buffer set first (``argv[1]``: bytes; "-" keeps it).
BUFFERED = (
    """
import sys
from rouge_lcs.cli import columns
size = sys.argv.pop(1)
if size != "-":
    columns.READ_BUFFER = int(size)
"""
    + CHILD
)


def regroup(source: Path, target: Path, group: int) -> None:
    """``source``'s rows written again to ``target`` in row groups of ``group`` rows."""
    table = pq.read_table(source)
    pq.write_table(table, target, row_group_size=group)
    del table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows of the file")
    parser.add_argument("--base", type=int, default=50_000, help="distinct rows repeated")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes")
    args = parser.parse_args(argv)
    rows, base = (3000, 300) if args.smoke else (args.rows, args.base)
    group = 1000 if args.smoke else GROUP
    if rows > 1_048_576 and not args.smoke:
        raise SystemExit("--rows: at most 1,048,576 (pyarrow's largest row group)")
    runs = []
    with tempfile.TemporaryDirectory() as folder:
        written = Path(folder) / "written.parquet"
        write_pairs(written, rows, base)
        grouped, whole = Path(folder) / "grouped.parquet", Path(folder) / "whole.parquet"
        regroup(written, grouped, group)
        regroup(written, whole, rows)
        written.unlink()
        assert pq.ParquetFile(whole).metadata.num_row_groups == 1
        cases = [
            (f"{group:,}-row groups", grouped, "-"),
            ("one row group", whole, "-"),
            ("one row group, READ_BUFFER = 0", whole, "0"),
        ]
        for label, data, size in cases:
            groups = pq.ParquetFile(data).metadata.num_row_groups
            seconds, peak, _ = peak_of_run(
                data, Path(folder) / "scores.parquet", child=BUFFERED, before=[size]
            )
            runs.append(peak)
            print(
                f"{label:<32} {rows:>9,} rows in {groups:>3} group(s)  {seconds:6.1f} s  "
                f"peak RSS {peak:6.0f} MB"
            )
    print(f"peak RSS, one row group against {group:,}-row groups: {runs[1] / runs[0]:.2f}x")
    print(f"peak RSS, without the read buffer against with it: {runs[2] / runs[1]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
