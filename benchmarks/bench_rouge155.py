"""rouge_lcs.rouge155 vs the original ROUGE-1.5.5.pl, side by side, with the outputs compared.

    .venv/bin/python benchmarks/bench_rouge155.py [--repeats 3] [--flags "-n 2 -m" ...]

Needs the oracle (``../shared/tools/rouge155/install.sh``, ``ROUGE155_HOME``, default
``/opt/rouge155``).  For each corpus and flag set the script runs once with ``-a -d``: its input
files and XML config are written *before* the clock starts, and its time is the wall time of the
``perl`` process alone (start-up, XML parsing and DB tie included — that is what a user waits
for) plus its CPU time (user + sys of the child, less sensitive to other load on the machine).
Ours is ``rouge155.score`` on the same texts, in-process: the first (cold) call, then the best
of ``--repeats`` more; CPU time is ``time.process_time``.  The report texts must be equal.

``--one-shot`` also times what replaces one run of the script from a shell: the process
``python -m rouge_lcs rouge155 --system-dir … -d <flags>`` on the script's own files (best of
``--repeats`` wall times, interpreter start and imports included), its stdout compared too.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from corpora import load_pairs

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import rouge155_oracle as oracle  # noqa: E402

from rouge_lcs.rouge155 import score_flags  # noqa: E402
from rouge_lcs.rouge155.stem import morph_stem, porter  # noqa: E402

CORPORA = ["en_headlines_rougemetric", "en_cnndm_realsumm"]
FLAGS = ["-n 2", "-n 2 -m", "-n 4 -m -s -2 4 -u -f B"]


def ours(preds, refs, flags: list[str]) -> str:
    return score_flags(preds, refs, flags).text()


def perl(
    preds, refs, flags: list[str], one_shot_repeats: int = 0
) -> tuple[str, float, float, float | None, bool | None]:
    """The script's text, wall and CPU time; with ``one_shot_repeats``, also the best wall
    time of the ``rouge-lcs rouge155`` process on the same files and whether its text is equal."""
    peers = [oracle.file_bytes(p) for p in preds]
    models = [[oracle.file_bytes(r) for r in rs] for rs in refs]
    with tempfile.TemporaryDirectory(prefix="bench_rouge155_") as tmp:
        config = oracle.write_config(Path(tmp), peers, models)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        text, wall = oracle.run_config(config, flags)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if not one_shot_repeats:
            return text, wall, cpu, None, None
        cmd = [
            sys.executable, "-m", "rouge_lcs", "rouge155",
            "--system-dir", f"{tmp}/p", "--model-dir", f"{tmp}/m",
            "--system-pattern", r"p(\d+)\.txt", "--model-pattern", r"m#ID#_\d+\.txt",
            "-d", *flags,
        ]  # fmt: skip
        walls = []
        for _ in range(one_shot_repeats):
            start = time.perf_counter()
            done = subprocess.run(cmd, capture_output=True, text=True, check=True)
            walls.append(time.perf_counter() - start)
    return text, wall, cpu, min(walls), done.stdout == text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--flags", nargs="+", default=FLAGS)
    ap.add_argument("--corpora", nargs="+", default=CORPORA)
    ap.add_argument("--one-shot", action="store_true", help="also time the rouge155 command")
    ap.add_argument("--smoke", action="store_true", help="tiny inputs, one repeat: for the tests")
    args = ap.parse_args()
    if args.smoke:
        args.repeats, args.flags, args.corpora = 1, FLAGS[:2], CORPORA[:1]
    size = 5 if args.smoke else None
    if not oracle.available():
        print(f"ROUGE-1.5.5 not installed at {oracle.SCRIPT}", file=sys.stderr)
        return 2
    print(f"cpus: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}")
    header = (
        f"{'corpus':26} {'flags':26} {'perl wall':>9} {'perl cpu':>9} "
        f"{'ours cold':>9} {'ours best':>9} {'ours cpu':>9} {'x wall':>7} {'x cpu':>7} same"
        + (f" {'one-shot':>9} {'x wall':>7} same" if args.one_shot else "")
    )
    print(header)
    for corpus in args.corpora:
        preds, refs = load_pairs(corpus)
        preds, refs = preds[:size], refs[:size]
        for flag_text in args.flags:
            flags = flag_text.split()
            expected, perl_wall, perl_cpu, shot, shot_same = perl(
                preds, refs, flags, args.repeats if args.one_shot else 0
            )
            porter.cache_clear()  # cold stemming memos
            morph_stem.cache_clear()
            t0 = time.perf_counter()
            got = ours(preds, refs, flags)
            cold = time.perf_counter() - t0
            walls, cpus = [], []
            for _ in range(args.repeats):
                t0, c0 = time.perf_counter(), time.process_time()
                ours(preds, refs, flags)
                walls.append(time.perf_counter() - t0)
                cpus.append(time.process_time() - c0)
            best, cpu = min(walls), min(cpus)
            print(
                f"{corpus:26} {flag_text:26} {perl_wall:9.3f} {perl_cpu:9.3f} {cold:9.4f} "
                f"{best:9.4f} {cpu:9.4f} {perl_wall / best:7.0f} {perl_cpu / cpu:7.0f} "
                f"{got == expected}"
                + (f" {shot:9.3f} {perl_wall / shot:7.1f} {shot_same}" if shot else "")
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
