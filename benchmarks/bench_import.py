"""Import cost: rouge_lcs vs rouge_score vs rouge-score-rs, each in fresh processes.

    .venv/bin/python benchmarks/bench_import.py [--repeats 15]

Every measurement is a fresh ``python`` process (so nothing is cached in ``sys.modules``),
contestants alternated within each repeat so machine noise hits all alike, best of
``--repeats``.  Times are taken inside the child with ``time.perf_counter`` around the
statements, so they exclude the interpreter's own start-up (``python -c pass``, printed too).
rouge_lcs's bytecode is compiled first, as a wheel install does:

- import: the import statement alone (``import rouge_lcs``, ``from rouge_lcs import rouge``,
  ``from rouge_score import rouge_scorer``, ``from rouge_score_rs import rouge_scorer``);
- import + first call: the same import, then one small pair scored with rouge1, rouge2, rougeL
  and rougeLsum (a two-line text, so no sentence splitter model is needed).  rouge_lcs defers
  numpy, regex and rapidfuzz to the first call that needs them: this column is what a script
  that scores anything pays.

The "loaded" column names the heavy dependencies a child had actually executed (not merely
registered lazily) after its statements.  Whole-process wall times of the CLI's ``--help`` (and,
with ``--metric``, of importing the evaluate module rouge_lcs_metric.py) are printed below.
rouge-score-rs is skipped if absent (``pip install -e .[bench]``).
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import subprocess
import sys
import time

PRED = "the cat sat on the mat\nit was happy"
REF = "a cat was sitting on the mat\nit looked happy"
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
HEAVY = ("numpy", "regex", "rapidfuzz", "nltk")

# name: (import statement, first-call statement)
CONTESTANTS = {
    "`import rouge_lcs`": (
        "import rouge_lcs",
        f"rouge_lcs.rouge([{PRED!r}], [{REF!r}], {TYPES!r})",
    ),
    "`from rouge_lcs import rouge`": (
        "from rouge_lcs import rouge",
        f"rouge([{PRED!r}], [{REF!r}], {TYPES!r})",
    ),
    "rouge_score 0.1.2": (
        "from rouge_score import rouge_scorer",
        f"rouge_scorer.RougeScorer({TYPES!r}).score({REF!r}, {PRED!r})",
    ),
    "rouge-score-rs 0.2.1": (
        "from rouge_score_rs import rouge_scorer",
        f"rouge_scorer.RougeScorer({TYPES!r}).score({REF!r}, {PRED!r})",
    ),
}

# Runs in the child: time the statements, then report which heavy modules were executed.  A
# module registered by importlib.util.LazyLoader sits in sys.modules unexecuted; reading its
# __dict__ through object.__getattribute__ does not trigger the load.
CHILD = """
import json, sys, time
t0 = time.perf_counter()
{statements}
t = time.perf_counter() - t0
def executed(name):
    m = sys.modules.get(name)
    return m is not None and "__version__" in object.__getattribute__(m, "__dict__")
print(json.dumps({{"t": t, "loaded": [n for n in {heavy!r} if executed(n)]}}))
"""


def _child(statements: list[str]) -> tuple[float, list[str]]:
    code = CHILD.format(statements="\n".join(statements), heavy=HEAVY)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return data["t"], data["loaded"]


def _wall(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True)
    return time.perf_counter() - start


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds >= 0.01 else f"{seconds * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument(
        "--metric", action="store_true", help="also time importing rouge_lcs_metric.py (evaluate)"
    )
    parser.add_argument(
        "--smoke", action="store_true", help="tiny inputs, one repeat: for the tests"
    )
    args = parser.parse_args()
    if args.smoke:
        args.repeats = 1
    # An installed wheel has its bytecode compiled (pip does it); a source checkout run with
    # PYTHONDONTWRITEBYTECODE=1 would recompile every changed module in every child instead.
    package = importlib.util.find_spec("rouge_lcs")
    assert package is not None and package.submodule_search_locations
    for folder in package.submodule_search_locations:
        compileall.compile_dir(folder, quiet=1)

    contestants = dict(CONTESTANTS)
    if importlib.util.find_spec("rouge_score_rs") is None:
        print("rouge_score_rs not installed: skipped\n")
        del contestants["rouge-score-rs 0.2.1"]
    rouge_lcs_cli = [sys.executable, "-m", "rouge_lcs", "--help"]
    walls = {
        "`python -c pass`": [sys.executable, "-c", "pass"],
        "`python -m rouge_lcs --help` (the `rouge-lcs` CLI)": rouge_lcs_cli,
    }
    if args.metric:  # the evaluate module; run from the repository root
        walls["`python -c 'import rouge_lcs_metric'`"] = [
            sys.executable,
            "-c",
            "import rouge_lcs_metric",
        ]

    imports: dict[str, list[float]] = {k: [] for k in contestants}
    firsts: dict[str, list[float]] = {k: [] for k in contestants}
    loaded: dict[str, tuple[list[str], list[str]]] = {}
    wall_times: dict[str, list[float]] = {k: [] for k in walls}
    for _ in range(args.repeats):
        for name, (imp, call) in contestants.items():
            t, after_import = _child([imp])
            imports[name].append(t)
            t, after_call = _child([imp, call])
            firsts[name].append(t)
            loaded[name] = (after_import, after_call)
        for name, command in walls.items():
            wall_times[name].append(_wall(command))

    best_import = {k: min(v) for k, v in imports.items()}
    best_first = {k: min(v) for k, v in firsts.items()}
    ours_import = best_import["`from rouge_lcs import rouge`"]
    ours_first = best_first["`from rouge_lcs import rouge`"]
    print(
        f"Python {sys.version.split()[0]}, best of {args.repeats} fresh processes each, "
        f"load average {os.getloadavg()[0]:.2f} (1 min)\n"
    )
    print(
        "| | import | ÷ ours | loaded after import "
        "| import + first call | ÷ ours | loaded after the call |"
    )
    print("|---|---|---|---|---|---|---|")
    for name in contestants:
        after_import, after_call = loaded[name]
        print(
            f"| {name} | {_ms(best_import[name])} | {best_import[name] / ours_import:.2g}× "
            f"| {', '.join(after_import) or '—'} "
            f"| {_ms(best_first[name])} | {best_first[name] / ours_first:.2g}× "
            f"| {', '.join(after_call) or '—'} |"
        )
    print("\nWhole process, wall clock (interpreter start-up included):\n")
    for name, times in wall_times.items():
        print(f"- {name}: {_ms(min(times))}")


if __name__ == "__main__":
    main()
