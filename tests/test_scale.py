"""Beyond one process: num_proc, evaluate's distributed mode, datasets' map."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from rouge_lcs import rouge, score
from rouge_lcs.engine.parallel import shard_bounds

REPO = Path(__file__).resolve().parent.parent
Pairs = Callable[..., tuple[list[str], list[list[str]]]]


@pytest.fixture
def pairs(corpora) -> Pairs:
    """``pairs(limit)``: real English and Korean pairs (multi-sentence English)."""
    rows = corpora.rows("en_cnndm_realsumm")[:1000] + corpora.rows("ko_klue_sts_dev")
    rows = rows + corpora.rows("ko_question_pair")[:1500]
    preds = [
        "\n".join(r["prediction_sents"]) if "prediction_sents" in r else r["prediction"]
        for r in rows
    ]
    refs = [r["references"] for r in rows]
    return lambda limit=None: (preds[:limit], refs[:limit])


def test_shard_bounds_cover_in_order():
    for n in (1, 63, 64, 255, 256, 2000, 10001):
        for num_proc in (1, 2, 3, 8):
            bounds = shard_bounds(n, num_proc)
            assert bounds[0][0] == 0 and bounds[-1][1] == n
            assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:]))
            sizes = [b - a for a, b in bounds]
            # large shards first, each at most a 2 * num_proc-th of what is left, the last
            # ones small (the call waits for the last shard a process takes)
            assert all(x >= y for x, y in zip(sizes, sizes[1:]))
            left = n
            for size in sizes:
                assert size <= max(64, -(-left // (2 * num_proc)))
                left -= size
            assert sizes[-1] <= 64 or len(sizes) == 1


def test_shard_bounds_on_a_metric_batch():
    # worked by hand: 10,000 examples on 2 processes, a quarter of what is left each time
    sizes = [b - a for a, b in shard_bounds(10_000, 2)]
    assert sizes[:4] == [2500, 1875, 1407, 1055]
    assert sum(sizes) == 10_000 and len(sizes) < 20


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["python", "native"])
def test_num_proc_gives_identical_results(pairs, monkeypatch, engine):
    # The Python engine uses the pool; the native one steps aside for threads (below).
    monkeypatch.setenv("ROUGE_LCS_IMPLEMENTATION", engine)
    preds, refs = pairs()
    assert len(preds) >= 2000  # large enough to really use the pool
    one = score(preds, refs, use_stemmer=True)
    two = score(preds, refs, use_stemmer=True, num_proc=2)
    for measure in ("precision", "recall", "fmeasure"):
        assert np.array_equal(getattr(one, measure), getattr(two, measure))
    assert rouge(preds, refs, num_proc=2) == rouge(preds, refs)


@pytest.mark.slow
def test_num_proc_steps_aside_for_threads(pairs, monkeypatch):
    # With the native engine and a built-in tokenizer, num_proc=2 is two threads here (the
    # text stage and the kernel run without the GIL): no pool, the same numbers.
    from rouge_lcs import Rouge
    from rouge_lcs.engine import native, parallel

    if not native.available():
        pytest.skip("rouge_lcs._native not built")
    monkeypatch.setenv("ROUGE_LCS_IMPLEMENTATION", "native")
    monkeypatch.delenv("ROUGE_LCS_NUM_THREADS", raising=False)
    preds, refs = pairs()

    def no_pool(*args, **kwargs):
        raise AssertionError("a process pool was started")

    monkeypatch.setattr(parallel, "parallel_stats", no_pool)  # where the scorer reads it
    scorer = Rouge(use_stemmer=True, num_proc=2)
    got = scorer.score(preds, refs)
    # the wiring below it: tests/engine/native/test_native_counts.py
    assert scorer._stores.store.num_threads == 2
    one = Rouge(use_stemmer=True).score(preds, refs)
    assert np.array_equal(got.fmeasure, one.fmeasure)
    tokenizer = str.split  # a Python tokenizer holds the GIL: processes
    assert not parallel.threads_serve(Rouge(tokenizer=tokenizer).settings)


@pytest.mark.slow
def test_num_proc_with_a_lambda_tokenizer(pairs):
    preds, refs = pairs(2100)
    tokenizer = lambda text: text.lower().split()  # noqa: E731 - forked workers inherit it
    assert rouge(preds, refs, tokenizer=tokenizer, num_proc=2) == rouge(
        preds, refs, tokenizer=tokenizer
    )


@pytest.mark.slow
def test_forked_shards_from_a_shared_counter(pairs):
    # This process and the forked worker take shards from one counter: every shard scored
    # once, in order, the same numbers as one process; progress adds up to the batch.
    from rouge_lcs.base.validation import check_texts
    from rouge_lcs.config.settings import make_settings
    from rouge_lcs.engine import parallel
    from rouge_lcs.engine.compute import compute_stats

    preds, refs = pairs(2600)  # long English pairs first, short Korean ones after
    batch = check_texts(preds, refs)
    settings = make_settings(tokenizer=lambda text: text.lower().split(), use_stemmer=True)
    seen: list[int] = []
    two = parallel.parallel_stats(batch, settings, 2, seen.append)
    one = compute_stats(batch, settings)
    assert sum(seen) == len(batch) and not parallel._INHERITED
    assert np.array_equal(one.counts, two.counts) and np.array_equal(one.n_refs, two.n_refs)


def test_repeated_examples_are_scored_once_and_given_to_every_copy(pairs):
    # An evaluation set three times over, shuffled, plus a prediction scored against two
    # references: each distinct single-reference example goes to the shards once, and every
    # copy gets its counts, equal to one process's, in the batch's order.
    import random

    from rouge_lcs.base.validation import check_texts
    from rouge_lcs.config.settings import make_settings
    from rouge_lcs.engine import parallel
    from rouge_lcs.engine.compute import compute_stats

    preds, refs = pairs(400)
    rows = [(p, r[:1]) for p, r in zip(preds, refs)] * 3
    random.Random(7).shuffle(rows)
    batch = check_texts([p for p, _ in rows], [r for _, r in rows])
    unique, positions = parallel._distinct_examples(batch)
    assert len(unique) == len({(p, r[0]) for p, r in rows}) < len(batch)
    assert [unique.predictions[k] for k in positions] == list(batch.predictions)
    settings = make_settings(tokenizer=lambda text: text.lower().split(), use_stemmer=True)
    seen: list[int] = []
    two = parallel.parallel_stats(batch, settings, 2, seen.append)
    one = compute_stats(batch, settings)
    assert sum(seen) == len(batch) and (two.flat() is None) == (one.flat() is None)
    assert np.array_equal(one.counts, two.counts) and np.array_equal(one.n_refs, two.n_refs)
    several = check_texts([p for p, _ in rows], [[r[0], "x"] for _, r in rows])
    assert parallel._distinct_examples(several) is None  # several references: as they are
    # the evaluate module's batch (lists of one reference, no single list) is found too
    from rouge_lcs.base.validation import TextBatch

    nested = TextBatch(list(batch.predictions), [list(r) for r in batch.references])
    assert len(parallel._distinct_examples(nested)[0]) == len(unique)


def test_pair_stats_take_gives_each_example_its_pairs():
    from rouge_lcs.engine.stats import PairStats

    counts = np.arange(2 * 6 * 3, dtype=np.int64).reshape(6, 2, 3)
    stats = PairStats(counts, np.array([1, 3, 2]))  # examples of 1, 3 and 2 pairs
    taken = stats.take([2, 0, 2, 1])
    assert taken.n_refs.tolist() == [2, 1, 2, 3]
    assert np.array_equal(taken.counts, counts[[4, 5, 0, 4, 5, 1, 2, 3]])


@pytest.mark.slow
def test_results_larger_than_the_widened_pipe_come_back_whole():
    # A child's results go through a pipe widened to 1 MB (one write, no turns); 24,000
    # pairs of 11 types send ~3 MB from the child, which must still arrive whole, in order.
    import fcntl
    import os

    from rouge_lcs.engine import parallel

    read, write = os.pipe()
    try:
        parallel.widen(write)
        limit = int(Path("/proc/sys/fs/pipe-max-size").read_text())
        if hasattr(fcntl, "F_GETPIPE_SZ") and limit >= 1 << 20:
            assert fcntl.fcntl(write, fcntl.F_GETPIPE_SZ) == 1 << 20
    finally:
        os.close(read)
        os.close(write)
    words = ["the", "cat", "sat", "on", "a", "mat", "by", "the", "door"]
    preds = [" ".join(words[k % 7 : k % 7 + 3]) + f" w{k}" for k in range(24_000)]
    refs = [" ".join(words[k % 5 : k % 5 + 4]) + f" w{k // 2}" for k in range(24_000)]
    types = [f"rouge{n}" for n in range(1, 10)] + ["rougeL", "rougeLsum"]
    tokenizer = lambda text: text.split()  # noqa: E731 - a Python tokenizer: processes
    one = score(preds, refs, types, tokenizer=tokenizer)
    two = score(preds, refs, types, tokenizer=tokenizer, num_proc=2)
    assert np.array_equal(one.fmeasure, two.fmeasure)
    assert np.array_equal(one.recall, two.recall)


@pytest.mark.slow
def test_an_error_in_a_forked_shard_reaches_the_caller(pairs):
    # Whichever process draws the bad shard, its exception is raised here and no child is
    # left behind (the others are stopped and reaped).

    from rouge_lcs.base.validation import check_texts
    from rouge_lcs.config.settings import make_settings
    from rouge_lcs.engine import parallel

    preds, refs = pairs(2600)
    preds = [*preds[:-1], "BOOM"]

    def tokenizer(text: str) -> list[str]:
        if text == "BOOM":
            raise LookupError("bad text")
        return text.split()

    settings = make_settings(tokenizer=tokenizer)
    before = _children()
    with pytest.raises(LookupError, match="bad text"):
        parallel.parallel_stats(check_texts(preds, refs), settings, 2)
    assert _reaped(before)  # the forked shards are gone


def _children() -> set[int]:
    """This process's children, zombies included (other tests may have left servers)."""
    import os

    pid = os.getpid()
    listed = Path(f"/proc/{pid}/task/{pid}/children")
    return set(map(int, listed.read_text().split())) if listed.exists() else set()


def _reaped(before: set[int], seconds: float = 10.0) -> bool:
    """Whether every child started since ``before`` is reaped within ``seconds`` (a child
    that has sent its results is waited for on a thread, not by the call)."""
    import time

    deadline = time.monotonic() + seconds
    while not _children() <= before:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.mark.slow
def test_forked_workers_are_reaped_after_the_call_returns(pairs):
    # The call returns once the worker's results are read, before the worker has exited
    # (its exit took ~50 ms with evaluate loaded); no zombie is left behind.
    import threading

    preds, refs = pairs(2600)
    before = _children()
    for _ in range(3):
        rouge(preds, refs, ["rouge1"], tokenizer=lambda text: text.split(), num_proc=2)
    assert _reaped(before)
    for thread in threading.enumerate():
        if thread.name == "rouge-lcs-reap":
            thread.join(10)
    assert not [t for t in threading.enumerate() if t.name == "rouge-lcs-reap"]


@pytest.mark.parametrize(
    ("bad", "error"),
    [(0, ValueError), (-1, ValueError), (10**6, ValueError), (1.5, TypeError), ("2", TypeError)],
)
def test_bad_num_proc(bad, error):
    with pytest.raises(error, match="num_proc"):
        rouge(["a"], ["a"], num_proc=bad)


WORKER = textwrap.dedent(
    """
    import json, sys
    import evaluate
    process_id, path, experiment = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    data = json.load(open(sys.argv[4]))
    half = len(data["predictions"]) // 2
    part = slice(0, half) if process_id == 0 else slice(half, None)
    metric = evaluate.load(path, num_process=2, process_id=process_id, experiment_id=experiment)
    metric.add_batch(predictions=data["predictions"][part], references=data["references"][part])
    result = metric.compute(use_stemmer=True)
    print(json.dumps(result))
    """
)


@pytest.mark.slow
def test_evaluate_distributed_two_real_processes(tmp_path, pairs):
    preds, refs = pairs(400)
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"predictions": preds, "references": refs}))
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    env_path = str(REPO / "rouge_lcs_metric.py")
    procs = [
        subprocess.Popen(
            [sys.executable, str(script), str(i), env_path, f"exp-{tmp_path.name}", str(data)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in (0, 1)
    ]
    outputs = [p.communicate(timeout=300) for p in procs]
    for proc, (_, err) in zip(procs, outputs):
        assert proc.returncode == 0, err
    main_result = json.loads(outputs[0][0].strip().splitlines()[-1])
    assert outputs[1][0].strip().splitlines()[-1] == "null"  # only process 0 returns
    assert main_result == rouge(preds, refs, use_stemmer=True)


@pytest.mark.slow
def test_datasets_map_helper_matches_direct_scoring(pairs):
    datasets = pytest.importorskip("datasets")
    from rouge_lcs.integrations.datasets_scoring import add_rouge_columns, mean_scores

    preds, refs = pairs(600)
    ds = datasets.Dataset.from_dict({"prediction": preds, "references": refs})
    scored = add_rouge_columns(
        ds,
        ["rouge1", "rougeLsum"],
        num_proc=2,
        batch_size=100,
        return_precision_recall=True,
        use_stemmer=True,
    )
    direct = score(preds, refs, ["rouge1", "rougeLsum"], use_stemmer=True)
    assert scored["rouge1"] == direct.column("rouge1").tolist()
    assert scored["rougeLsum_recall"] == direct.column("rougeLsum", "recall").tolist()
    assert mean_scores(scored, ["rouge1"]) == {
        "rouge1": rouge(preds, refs, ["rouge1"], use_stemmer=True)["rouge1"]
    }
    with pytest.raises(ValueError, match="reference_column: no column 'refs'"):
        add_rouge_columns(ds, reference_column="refs")


def test_small_batches_stay_in_one_process(monkeypatch, pairs):
    import rouge_lcs.engine.parallel

    def forbidden(*args, **kwargs):
        raise AssertionError("a pool was started for a small batch")

    monkeypatch.setattr(rouge_lcs.engine.parallel, "parallel_stats", forbidden)
    preds, refs = pairs(500)
    assert rouge(preds, refs, num_proc=2) == rouge(preds, refs)


@pytest.mark.slow
def test_num_proc_through_the_evaluate_module(pairs):
    evaluate = pytest.importorskip("evaluate")
    preds, refs = pairs(2100)
    metric = evaluate.load(str(REPO / "rouge_lcs_metric.py"))
    assert metric.compute(predictions=preds, references=refs, num_proc=2) == rouge(preds, refs)


def test_document_cache_reset_between_chunks_changes_nothing(monkeypatch, pairs):
    """The per-call text cache starts afresh past STORE_LIMIT texts (bounded memory)."""
    import rouge_lcs.engine.compute as engine
    from rouge_lcs.engine.native import NativeStore
    from rouge_lcs.engine.reference.python import PythonStore

    preds, refs = pairs(1200)
    expected = score(preds, refs, use_stemmer=True)
    for store in (PythonStore, NativeStore):  # each engine's store says what a chunk holds
        monkeypatch.setattr(store, "chunk", 100)
    monkeypatch.setattr(engine, "STORE_LIMIT", 150)
    got = score(preds, refs, use_stemmer=True)
    for measure in ("precision", "recall", "fmeasure"):
        assert np.array_equal(getattr(got, measure), getattr(expected, measure))
