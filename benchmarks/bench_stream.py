"""Peak memory of ``rouge-lcs score --data FILE.parquet -o scores.parquet`` (streamed by record
batches) on files of several sizes: the peaks should be the same.

    .venv/bin/python benchmarks/bench_stream.py [--pairs 50000] [--factors 1 20 60] [--smoke]
    .venv/bin/python benchmarks/bench_memory.py stream [same arguments]

The smallest file's rows come from the shared corpora: 9 in 10 are bench_nfkc.py's distinct
mixed short pairs (Korean, Chinese, English), 1 in 10 a REALSumm summary pair; the larger
files are those rows ``--factors`` times over.  Every text is numbered by its row (in fullwidth
brackets), so no two texts are equal and every batch brings new tokens.  Each file is written to
a temporary folder in row groups of 10,000 rows; the command runs in a fresh interpreter per
file, and its peak resident set size is read by the process itself as it ends (``VmHWM`` of
``/proc/self/status``: see ``CHILD``; ``os.wait4``'s ``ru_maxrss`` is printed beside it, and is
the parent's size at the fork, not the command's).  Printed: rows, file size,
wall time and peak RSS per file, the ratio of the largest file's peak to the smallest's and the
spread of the peaks in MB.

Where the peak goes (``/proc/self/status`` read between the phases of one run, 400,000 rows):
numpy, pyarrow and the library imported, 103 MB; the first record batch read (pyarrow's reader
and its thread pools), ~30 MB; pyarrow's first ``pa.array`` imports pandas to check its
argument, ~46 MB; the rest is one batch's working set.  The earlier readings of this benchmark
(20x the rows: 188 vs 214 MB) were ``ru_maxrss``, the parent's size at the fork (see
``CHILD``), not a growth of the command.

Results (2026-12-02, 2 shared cores, load average 0.1-1.0; 50,000 pairs, factors 1 20 60;
``.venv/bin/python benchmarks/bench_stream.py``), with the scorer's vocabulary per batch:

        50000 rows      5.2 MB file     1.6 s  peak RSS    189 MB  (ru_maxrss  189 MB)
      1000000 rows    104.9 MB file    13.3 s  peak RSS    193 MB  (ru_maxrss  219 MB)
      3000000 rows    315.7 MB file    37.9 s  peak RSS    189 MB  (ru_maxrss  219 MB)
    peak RSS, 60x the rows: 1.00x; spread of the peaks 4 MB

and with the vocabulary kept across batches (the previous rouge_lcs/cli/stream.py): 188, 194,
188 MB (spread 6 MB).  In this mix, then, the shared vocabulary was flat too, and the peak is
bounded: 60 times the rows gives the same peak.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
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


#: The command run in the child: ``rouge-lcs`` itself, then the process's own peak RSS.  The
#: peak is ``VmHWM`` of ``/proc/self/status``, which exec resets; ``ru_maxrss`` of a waited-for
#: child is not the command's own: Linux keeps the larger of it and the forked copy of the
#: parent (this benchmark, holding the files it wrote: 225-256 MB here), which made every
#: earlier reading of this benchmark the parent's size.
CHILD = """
import sys
from rouge_lcs.cli.main import main
status = main(sys.argv[1:])
peak = next(line for line in open("/proc/self/status") if line.startswith("VmHWM"))
print("VmHWM", peak.split()[1], file=sys.stderr)
sys.exit(status)
"""


def peak_of_run(
    data: Path, output: Path, child: str = CHILD, before: Sequence[str] = ()
) -> tuple[float, float, float]:
    """Wall seconds, the command's own peak RSS (MB) and the child's ``ru_maxrss`` (MB, for
    comparison) of one ``rouge-lcs score`` run in a fresh interpreter (``child``: the code it
    runs, :data:`CHILD` or one that reads ``before``, arguments ahead of the command's)."""
    command = [sys.executable, "-c", child, *before, "score", "--data", str(data)]
    command += ["-o", str(output)]
    command += ["--rouge-types", "rouge1", "rouge2", "rougeL", "--json"]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert child.stderr is not None
    errors = child.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    if child.returncode:
        raise SystemExit(f"rouge-lcs score failed:\n{errors}")
    if pq.ParquetFile(output).metadata.num_rows != pq.ParquetFile(data).metadata.num_rows:
        raise SystemExit("rouge-lcs score: the scores file lacks rows")
    peak = next(line for line in errors.splitlines() if line.startswith("VmHWM"))
    return seconds, int(peak.split()[1]) / 1024, usage.ru_maxrss / 1024  # KiB on Linux


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=50_000, help="rows of the smallest file")
    parser.add_argument(
        "--factors", type=int, nargs="+", default=[1, 20, 60], help="the files' size ratios"
    )
    parser.add_argument("--smoke", action="store_true", help="tiny sizes")
    args = parser.parse_args(argv)
    pairs, factors = (300, [1, 2, 3]) if args.smoke else (args.pairs, args.factors)
    peaks = []
    with tempfile.TemporaryDirectory() as folder:
        for factor in factors:
            rows = pairs * factor
            data = Path(folder) / f"pairs-{rows}.parquet"
            write_pairs(data, rows, pairs)
            seconds, peak, maxrss = peak_of_run(data, Path(folder) / "scores.parquet")
            size = data.stat().st_size / 2**20
            print(
                f"{rows:>9} rows  {size:7.1f} MB file  {seconds:6.1f} s  peak RSS {peak:6.0f} MB"
                f"  (ru_maxrss {maxrss:4.0f} MB)"
            )
            peaks.append(peak)
            data.unlink()
    print(
        f"peak RSS, {factors[-1] // factors[0]}x the rows: {peaks[-1] / peaks[0]:.2f}x; "
        f"spread of the peaks {max(peaks) - min(peaks):.0f} MB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
