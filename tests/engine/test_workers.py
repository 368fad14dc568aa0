"""``num_proc=Workers(n)``: worker processes kept between calls, with a tokenizer written in
Python (which holds the GIL, so processes are the way to use more cores).

Every test runs the real processes: the pool's pids are read from the pool and checked in
``/proc``, a worker is killed with a real signal, a parent really dies.  The numbers are
compared with one process's (itself checked against rouge_score across the suite) and, on a
sample, with rouge_score directly.
"""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from rouge_lcs import Rouge, Workers, rouge, score
from rouge_lcs.engine import native, parallel
from rouge_lcs.engine.workers import WorkerError

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def batch(corpora) -> tuple[list[str], list[list[str]]]:
    """2,400 real pairs: English summaries first, short Korean questions after."""
    rows = corpora.rows("en_cnndm_realsumm")[:400] + corpora.rows("ko_question_pair")[:2000]
    preds = [r["prediction"] for r in rows]
    refs = [r["references"][:1] for r in rows]
    assert len(preds) >= parallel.PARALLEL_MIN_EXAMPLES
    return preds, refs


def words(text: str) -> list[str]:
    """A tokenizer written in Python (lowercased words split at whitespace)."""
    return text.lower().split()


def first_letters(text: str) -> list[str]:
    """Another tokenizer written in Python, that gives other numbers than :func:`words`."""
    return [w[:1] for w in text.lower().split()]


def gone(pid: int, timeout: float = 10.0) -> bool:
    """Whether process ``pid`` has exited and been reaped within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not Path(f"/proc/{pid}").exists():
            return True
        time.sleep(0.02)
    return False


def zombie(pid: int, timeout: float = 10.0) -> bool:
    """Whether process ``pid`` (a child of this one) has died within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] == "Z":
            return True
        time.sleep(0.02)
    return False


def with_workers_engines(engine_name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if engine_name == "native" and not native.available():
        if os.environ.get("CI"):
            pytest.fail("the compiled extension rouge_lcs._native is not built")
        pytest.skip("rouge_lcs._native not built")
    monkeypatch.setenv(native.ENV, engine_name)


@pytest.mark.parametrize("engine_name", ["python", "native"])
def test_kept_workers_give_the_numbers_of_one_process(batch, engine_name, monkeypatch):
    with_workers_engines(engine_name, monkeypatch)
    preds, refs = batch
    one = score(preds, refs, tokenizer=words, use_stemmer=True)
    with Workers(2) as workers:
        assert workers.pids == ()  # nothing forked before a call needs it
        got = [score(preds, refs, tokenizer=words, use_stemmer=True, num_proc=workers)]
        pids = workers.pids
        assert len(pids) == 1 and all(Path(f"/proc/{pid}").exists() for pid in pids)
        got += [score(preds, refs, tokenizer=words, use_stemmer=True, num_proc=workers)]
        got += [score(preds, refs, tokenizer=words, use_stemmer=True, num_proc=workers)]
        assert workers.pids == pids  # the same processes served every call
    for scores in got:
        for measure in ("precision", "recall", "fmeasure"):
            assert np.array_equal(getattr(scores, measure), getattr(one, measure))
    assert gone(pids[0])


def test_three_processes_two_kept_workers(batch):
    preds, refs = batch
    expected = rouge(preds, refs, tokenizer=words, use_stemmer=True)
    with Workers(3) as workers:
        for _ in range(2):
            got = rouge(preds, refs, tokenizer=words, use_stemmer=True, num_proc=workers)
            assert got == expected
        assert len(set(workers.pids)) == 2


def test_never_more_workers_than_the_cpus_allow(batch):
    preds, refs = batch
    with Workers(1024) as workers:
        assert rouge(preds, refs, tokenizer=words, num_proc=workers) == rouge(
            preds, refs, tokenizer=words
        )
        assert 1 <= len(workers.pids) <= 4 * (os.cpu_count() or 1) - 1


def test_kept_workers_agree_with_rouge_score(batch):
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

    class Words:
        def tokenize(self, text: str) -> list[str]:
            return words(text)

    preds, refs = batch
    oracle = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=Words())
    with Workers(2) as workers:
        got = score(preds, refs, ["rouge1", "rouge2", "rougeL"], tokenizer=words, num_proc=workers)
        assert workers.pids
    for k in [*range(0, 2400, 97), 399, 400, 2399]:
        expected = oracle.score(refs[k][0], preds[k])
        for t, name in enumerate(["rouge1", "rouge2", "rougeL"]):
            assert got.fmeasure[k, t] == expected[name].fmeasure, (k, name)


def test_another_tokenizer_forks_them_again_and_both_are_then_known(batch):
    preds, refs = batch
    one_words = rouge(preds, refs, tokenizer=words)
    one_letters = rouge(preds, refs, tokenizer=first_letters)
    assert one_words != one_letters
    with Workers(2) as workers:
        assert rouge(preds, refs, tokenizer=words, num_proc=workers) == one_words
        first = workers.pids
        assert rouge(preds, refs, tokenizer=first_letters, num_proc=workers) == one_letters
        second = workers.pids
        assert second != first and gone(first[0])
        # The new workers were forked knowing both tokenizers: no fork to go back.
        assert rouge(preds, refs, tokenizer=words, num_proc=workers) == one_words
        assert workers.pids == second


def test_a_redefined_function_of_the_same_name_is_not_taken_for_the_old_one(batch):
    # A notebook cell run again defines a new function under the old name.
    preds, refs = batch
    namespace: dict[str, object] = {}
    exec("def tok(text):\n    return text.lower().split()\n", namespace)  # noqa: S102
    with Workers(2) as workers:
        assert rouge(preds, refs, tokenizer=namespace["tok"], num_proc=workers) == rouge(
            preds, refs, tokenizer=words
        )
        exec("def tok(text):\n    return [w[:1] for w in text.lower().split()]\n", namespace)  # noqa: S102
        got = rouge(preds, refs, tokenizer=namespace["tok"], num_proc=workers)
    assert got == rouge(preds, refs, tokenizer=first_letters)


def test_bound_methods_of_one_object_are_one_tokenizer(batch):
    # obj.tokenize is a new method object at every access: equal, not identical.
    class Lower:
        def __init__(self) -> None:
            self.cut = None

        def tokenize(self, text: str) -> list[str]:
            return [w[: self.cut] for w in text.lower().split()]

    preds, refs = batch
    lower = Lower()
    with Workers(2) as workers:
        assert rouge(preds, refs, tokenizer=lower.tokenize, num_proc=workers) == rouge(
            preds, refs, tokenizer=words
        )
        pids = workers.pids
        assert rouge(preds, refs, tokenizer=lower.tokenize, num_proc=workers) == rouge(
            preds, refs, tokenizer=words
        )
        assert workers.pids == pids
        # The object changed: the workers hold it as it was when they were forked (the
        # documented difference from an integer num_proc) until restart().
        lower.cut = 1
        workers.restart()
        assert workers.pids == () and gone(pids[0])
        got = rouge(preds, refs, tokenizer=lower.tokenize, num_proc=workers)
        assert got == rouge(preds, refs, tokenizer=first_letters)
        assert workers.pids not in ((), pids)


def test_a_lambda_tokenizer_works(batch):
    preds, refs = batch
    tokenizer = lambda text: text.lower().split()  # noqa: E731 - inherited, never pickled
    with Workers(2) as workers:
        assert rouge(preds, refs, tokenizer=tokenizer, num_proc=workers) == rouge(
            preds, refs, tokenizer=words
        )
        assert workers.pids


def test_a_worker_killed_between_calls_is_replaced(batch):
    preds, refs = batch
    expected = rouge(preds, refs, tokenizer=words)
    with Workers(2) as workers:
        assert rouge(preds, refs, tokenizer=words, num_proc=workers) == expected
        (pid,) = workers.pids
        os.kill(pid, signal.SIGKILL)
        assert zombie(pid)  # dead, not yet reaped: the next call finds out
        assert rouge(preds, refs, tokenizer=words, num_proc=workers) == expected
        assert workers.pids not in ((), (pid,))
        assert gone(pid)


def test_a_worker_dead_before_its_job_is_sent_is_an_error_and_the_next_call_works(
    batch, monkeypatch
):
    # The window between the pool's check that its workers live and the job's write.
    from rouge_lcs.engine import workers as workers_module

    preds, refs = batch
    with Workers(2) as workers:
        rouge(preds, refs, tokenizer=words, num_proc=workers)
        (pid,) = workers.pids
        os.kill(pid, signal.SIGKILL)
        assert zombie(pid)
        with monkeypatch.context() as patch:
            patch.setattr(workers_module._Crew, "alive", lambda self: True)
            with pytest.raises(WorkerError, match=f"worker process {pid} .* died before the call"):
                rouge(preds, refs, tokenizer=words, num_proc=workers)
        assert workers.pids == () and gone(pid)
        assert rouge(preds, refs, tokenizer=words, num_proc=workers) == rouge(
            preds, refs, tokenizer=words
        )


def test_a_worker_dying_during_a_call_is_an_error_and_the_next_call_works(batch):
    preds, refs = batch
    parent = os.getpid()

    def dies_in_a_worker(text: str) -> list[str]:
        if os.getpid() != parent:
            os._exit(3)
        return words(text)

    with Workers(2) as workers:
        with pytest.raises(WorkerError, match="num_proc: worker process"):
            rouge(preds, refs, tokenizer=dies_in_a_worker, num_proc=workers)
        assert isinstance(WorkerError("x"), RuntimeError)
        assert workers.pids == ()
        assert rouge(preds, refs, tokenizer=words, num_proc=workers) == rouge(
            preds, refs, tokenizer=words
        )


def test_an_error_in_any_process_is_raised_as_it_was(batch):
    preds, refs = batch
    bad = set(preds[::50])  # in every process's shards

    def picky(text: str) -> list[str]:
        if text in bad:
            raise ValueError(f"picky: refused {len(text)} characters")
        return words(text)

    with Workers(2) as workers:
        with pytest.raises(ValueError, match="picky: refused"):
            rouge(preds, refs, tokenizer=picky, num_proc=workers)
        assert rouge(preds, refs, tokenizer=words, num_proc=workers) == rouge(
            preds, refs, tokenizer=words
        )


def test_closed_workers_refuse_calls_and_their_processes_end(batch):
    preds, refs = batch
    workers = Workers(2)
    rouge(preds, refs, tokenizer=words, num_proc=workers)
    (pid,) = workers.pids
    workers.close()
    assert gone(pid) and workers.pids == ()
    assert repr(workers) == "Workers(2, closed)"
    with pytest.raises(ValueError, match="num_proc: these Workers are closed"):
        rouge(preds, refs, tokenizer=words, num_proc=workers)
    workers.close()  # twice is fine


def test_collected_workers_end_their_processes(batch):
    preds, refs = batch
    workers = Workers(2)
    rouge(preds, refs, tokenizer=words, num_proc=workers)
    (pid,) = workers.pids
    del workers
    gc.collect()
    assert gone(pid)


def test_workers_end_when_their_parent_dies():
    # A process that never closes its pool and dies: its worker must not outlive it.
    script = textwrap.dedent(
        """
        import os, sys
        from rouge_lcs import Workers, rouge
        preds = [f"text number {k} of the batch" for k in range(2500)]
        refs = [[f"reference {k} of the batch"] for k in range(2500)]
        workers = Workers(2)
        rouge(preds, refs, tokenizer=lambda t: t.split(), num_proc=workers)
        print(*workers.pids, flush=True)
        os.kill(os.getpid(), 9)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=REPO
    )
    assert done.returncode == -9, done.stderr
    pids = [int(p) for p in done.stdout.split()]
    assert len(pids) == 1
    # Not our child, so not reaped here: its /proc entry goes once its new parent reaps it.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pids[0]}/stat").read_text().split(") ")[1][0]
        except (FileNotFoundError, ProcessLookupError):
            break
        if state == "Z":
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"worker {pids[0]} outlived its parent")


def test_a_forked_child_scores_with_processes_of_its_own(batch):
    # A data loader's worker forked from a process holding a pool: the pool's workers belong
    # to the parent; the child forks its own for the call, and the parent's keep serving.
    preds, refs = batch
    expected = rouge(preds, refs, tokenizer=words)
    with Workers(2) as workers:
        assert rouge(preds, refs, tokenizer=words, num_proc=workers) == expected
        pids = workers.pids
        read, write = os.pipe()
        child = os.fork()
        if child == 0:
            ok = 1
            try:
                ok = int(rouge(preds, refs, tokenizer=words, num_proc=workers) != expected)
                ok |= int(workers.pids != pids) << 1
            finally:
                os.write(write, bytes([ok]))
                os._exit(0)
        os.close(write)
        status = os.read(read, 1)
        os.close(read)
        os.waitpid(child, 0)
        assert status == b"\x00"
        assert rouge(preds, refs, tokenizer=words, num_proc=workers) == expected
        assert workers.pids == pids


def test_threads_sharing_workers_each_get_their_numbers(batch):
    preds, refs = batch
    expected = {words: rouge(preds, refs, tokenizer=words)}
    expected[first_letters] = rouge(preds, refs, tokenizer=first_letters)
    results: list[bool] = []
    with Workers(2) as workers:

        def run(tokenizer) -> None:
            for _ in range(2):
                got = rouge(preds, refs, tokenizer=tokenizer, num_proc=workers)
                results.append(got == expected[tokenizer])

        threads = [threading.Thread(target=run, args=(t,)) for t in (words, first_letters)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert results == [True] * 4


def test_progress_counts_every_example_once(batch):
    from rouge_lcs.base.validation import check_texts
    from rouge_lcs.config.settings import make_settings

    preds, refs = batch
    seen: list[int] = []
    settings = make_settings(tokenizer=words)
    with Workers(2) as workers:
        checked = check_texts(preds, refs)
        parallel.parallel_stats(checked, settings, 2, seen.append, workers.stats)
        assert workers.pids
    assert sum(seen) == len(preds)


def test_no_process_where_none_is_needed(batch, monkeypatch):
    preds, refs = batch
    with Workers(2) as workers:
        rouge(preds[:100], refs[:100], tokenizer=words, num_proc=workers)  # a small batch
        assert workers.pids == ()
        if native.available():  # the native engine with a built-in tokenizer: threads
            monkeypatch.setenv(native.ENV, "native")
            scorer = Rouge(num_proc=workers)
            assert scorer.compute(preds, refs) == rouge(preds, refs)
            assert workers.pids == ()
            assert scorer._stores.store.num_threads == 2
        with Workers(1) as alone:  # one process: this one
            assert rouge(preds, refs, tokenizer=words, num_proc=alone) == rouge(
                preds, refs, tokenizer=words
            )
            assert alone.pids == ()


def test_the_evaluate_module_keeps_them(batch):
    evaluate = pytest.importorskip("evaluate")
    preds, refs = batch
    metric = evaluate.load(str(REPO / "rouge_lcs_metric.py"))
    expected = rouge(preds, refs, tokenizer=words, use_stemmer=True)
    with Workers(2) as workers:
        for _ in range(2):
            got = metric.compute(
                predictions=preds,
                references=refs,
                tokenizer=words,
                use_stemmer=True,
                num_proc=workers,
            )
            assert got == expected
        assert len(workers.pids) == 1


@pytest.mark.parametrize(
    ("bad", "error"),
    [(0, ValueError), (-1, ValueError), ("2", TypeError), (2.0, TypeError), (True, TypeError)],
)
def test_bad_workers(bad, error):
    with pytest.raises(error, match="num_proc"):
        Workers(bad)


def test_workers_are_not_pickled():
    import pickle

    with Workers(2) as workers, pytest.raises(TypeError, match="num_proc"):
        pickle.dumps(workers)
    assert Rouge(num_proc=workers).num_proc == 2
