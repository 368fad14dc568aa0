"""Ctrl-C stops a long call within a second or two (issue 24), on both engines.

Each case is a real subprocess that starts a call of many seconds, says so on stdout, and then
receives a real SIGINT: it must die of ``KeyboardInterrupt`` within :data:`LIMIT` seconds.  The
native kernels run without the GIL; they stop because the calling thread re-takes it now and
then to run Python's signal handlers (``kernels.h``: ``Control``, ``run_parallel_polled``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rouge_lcs import native

REPO = Path(__file__).resolve().parent.parent
#: Seconds from SIGINT to the process's exit (the kernels poll every ~50 ms; interpreter exit
#: and a loaded CI machine take the rest).
LIMIT = 2.0

# Each child builds its texts, prints "go" and makes one call that takes far more than LIMIT.
CHILD = """
import random, sys
from rouge_lcs import rouge
r = random.Random(0)
def text(n, per_line):
    words = [f"w{r.randrange(5000)}" for _ in range(n)]
    return "\\n".join(" ".join(words[k:k + per_line]) for k in range(0, n, per_line))
case = sys.argv[1]
if case == "lsum":      # the issue: ROUGE-Lsum of 300,000 tokens, 8-word lines (15 s)
    args = ([text(300_000, 8)], [text(300_000, 8)]), dict(rouge_types=["rougeLsum"])
elif case == "lsum2":   # the same on two threads (two pairs)
    p, q = text(300_000, 8), text(300_000, 8)
    args = ([p, q], [q, p]), dict(rouge_types=["rougeLsum"], num_threads=2)
elif case == "long":    # one line a side: the checkpointed backtrack of one sentence pair
    args = ([text(400_000, 400_000)], [text(400_000, 400_000)]), dict(rouge_types=["rougeLsum"])
else:                   # ROUGE-L of many long pairs
    ps = [text(60_000, 60_000) for _ in range(200)]
    args = (ps, ps[::-1]), dict(rouge_types=["rougeL"])
print("go", flush=True)
rouge(*args[0], **args[1])
print("finished", flush=True)
"""


def interrupt(case: str, engine: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Run CHILD's `case` on `engine`, SIGINT it 0.5 s into its call; (seconds to exit, run)."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "ROUGE_LCS_IMPLEMENTATION": engine}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, case],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "go"
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    try:
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    seconds = time.perf_counter() - sent
    return seconds, subprocess.CompletedProcess(child.args, child.returncode, out, err)


CASES = [
    pytest.param("native", "lsum", id="native-lsum"),
    pytest.param("native", "lsum2", id="native-lsum-2-threads"),
    pytest.param("native", "long", id="native-one-long-line"),
    pytest.param("native", "many", id="native-many-pairs"),
    pytest.param("python", "lsum", id="python-lsum"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("engine", "case"), CASES)
def test_sigint_stops_a_long_call(engine: str, case: str):
    if engine == "native" and not native.available():
        pytest.skip("native engine not built")
    seconds, done = interrupt(case, engine)
    assert "finished" not in done.stdout  # it was stopped, not merely fast
    assert "KeyboardInterrupt" in done.stderr, done.stderr[-2000:]
    assert done.returncode != 0
    assert seconds < LIMIT, f"exited {seconds:.1f} s after SIGINT"
