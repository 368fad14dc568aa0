"""The counting kernels (csrc/kernels.h, bound by csrc/py_counts.h): per-pair counts bit-identical
to the Python engine's on the corpora, random and hostile texts, checked buffers, and the
counting threads.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from array import array

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from native_helpers import (
    TYPES,
    _assert_same,
    _counts,
    needs_native,
)

import rouge_lcs
from rouge_lcs import score
from rouge_lcs.config.settings import make_settings
from rouge_lcs.engine import native


@needs_native
@pytest.mark.parametrize(
    "options",
    [
        {"tokenizer": "rouge_score"},
        {"tokenizer": "rouge_score", "use_stemmer": True},
        {},
        {"use_stemmer": True, "lsum_split": "nltk"},
        {"tokenizer": "whitespace", "lsum_split": "auto"},
        {"tokenizer": lambda text: text.lower().split()[::-1]},
        {"lsum_split": lambda text: text.split(". ")},
    ],
    ids=["rouge_score", "stem", "unicode", "punkt", "whitespace", "custom_tok", "custom_split"],
)
def test_realsumm_counts_identical(corpora, options):
    rows = corpora.rows("en_cnndm_realsumm")[::5]
    preds = [r["prediction"] for r in rows]
    refs = [r["references"] for r in rows]
    _assert_same(preds, refs, **options)
    preds = ["\n".join(r["prediction_sents"]) for r in rows]
    refs = [["\n".join(r["references_sents"][0])] for r in rows]
    _assert_same(preds, refs, **options)


@needs_native
@pytest.mark.parametrize("corpus", ["ko_korsts", "en_headlines_rougemetric"])
def test_other_corpora_counts_identical(corpora, corpus):
    rows = corpora.rows(corpus)[:1500]
    _assert_same([r["prediction"] for r in rows], [r["references"] for r in rows])


def _random_text(rng: random.Random, n: int, vocab: int, newline: float) -> str:
    words = [rng.choice("abcdefghij"[:vocab]) for _ in range(n)]
    return "".join(w + ("\n" if rng.random() < newline else " ") for w in words)


@needs_native
def test_random_long_sentences_identical():
    # Sentences of 0 … 400 tokens over tiny alphabets: many ties for the backtrack, candidates
    # longer than one 64-bit word, and several strips for the longest.
    rng = random.Random(7)
    preds, refs = [], []
    for _ in range(120):
        vocab = rng.randint(1, 10)
        newline = rng.choice([0.0, 0.005, 0.05, 0.3])
        preds.append(_random_text(rng, rng.randint(0, 400), vocab, newline))
        refs.append([_random_text(rng, rng.randint(0, 400), vocab, newline)])
    _assert_same(preds, refs, lsum_split="newline")


@needs_native
def test_multi_strip_and_checkpoint_paths_identical():
    # 5,000-token candidate (two mask strips) against a 3,000-token reference, and a long pair
    # whose stored rows exceed the budget (sqrt checkpoints); checked against the Python engine.
    rng = random.Random(3)
    pred = _random_text(rng, 5000, 6, 0.0)
    ref = _random_text(rng, 3000, 7, 0.0)
    _assert_same([pred], [[ref]], ["rouge2", "rougeL", "rougeLsum"], lsum_split="newline")


sentences = st.lists(st.sampled_from(["a", "b", "c", "a b", "\n", "b a", "c c", "d"]), max_size=40)


@needs_native
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(sentences, sentences), min_size=1, max_size=5))
def test_property_counts_identical(pairs):
    preds = [" ".join(p) for p, _ in pairs]
    refs = [[" ".join(r)] for _, r in pairs]
    _assert_same(preds, refs, lsum_split="newline")


@needs_native
@pytest.mark.parametrize(
    "text",
    [
        "a\x00b c\x00",
        "lone \ud800 surrogate \udfff here",
        "İstanbul KELVIN \u212a ǅ ﬁ",
        "x" * 100_000,
        "",
        "\n\n\n",
    ],
    ids=["nul", "surrogates", "special_lower", "one_long_token", "empty", "newlines"],
)
@pytest.mark.parametrize("tokenizer", ["unicode", "rouge_score", "whitespace"])
def test_hostile_texts_give_the_same_numbers(text, tokenizer):
    _assert_same([text, "a b"], [[text], [text]], tokenizer=tokenizer)


@needs_native
def test_one_token_repeated_50000_times():
    text = " ".join(["same"] * 50_000)
    counts = _counts("native", [text], [[text]], ["rouge1", "rouge2", "rougeL", "rougeLsum"])
    np.testing.assert_array_equal(counts[0, :, 0], [50_000, 49_999, 50_000, 50_000])


_LONG_LINE = """
import random
import rouge_lcs
from rouge_lcs import Rouge, score
rng = random.Random(1)
words = [f"w{k}" for k in range(1000)]
line = lambda: " ".join(rng.choice(words) for _ in range(200_000))
s = score([line()], [line()], ["rouge1", "rougeLsum"], tokenizer="rouge_score")
assert 0 < s.fmeasure[0, 1] < s.fmeasure[0, 0] < 1
# VmHWM, not ru_maxrss: the latter keeps the forking parent's peak across exec.
status = open("/proc/self/status").read()
print(int(status.split("VmHWM:")[1].split()[0]) // 1024)
"""


@needs_native
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
@pytest.mark.skipif(
    "ROUGE_LCS_SANITIZED" in os.environ, reason="ASan's shadow memory counts as RSS"
)
def test_200000_token_line_in_bounded_memory():
    # One 200,000-token line: the union LCS keeps sqrt-spaced checkpoint rows, not the 5 GB of
    # all bit rows.  Peak RSS of the whole interpreter stays far below 300 MB.
    env = {**os.environ, native.ENV: "native"}
    out = subprocess.run(
        [sys.executable, "-c", _LONG_LINE], capture_output=True, text=True, env=env, check=True
    )
    assert int(out.stdout.strip()) < 300


@needs_native
def test_bad_buffers_are_rejected_not_crashing():
    from rouge_lcs import _native

    ids = np.array([0, 1, 5], dtype=np.int32)  # 5 is past the vocabulary
    starts = np.array([0, 3], dtype=np.int64)
    pairs = np.zeros(1, dtype=np.int64)
    out = np.zeros(3, dtype=np.int64)
    types = np.array([0, 1], dtype=np.int64)
    empty = np.zeros(0, dtype=np.int32)
    zero = np.zeros(1, dtype=np.int64)
    with pytest.raises(ValueError, match="out of range"):
        _native.counts(ids, starts, empty, zero, zero, pairs, pairs, types, 3, out, 1)
    for bad in (-1, -2, -(2**31)):  # negative ids, whatever the vocabulary size
        for vocab in (6, 2**31, 2**40):
            with pytest.raises(ValueError, match="out of range"):
                ids_bad = np.array([0, bad, 1], dtype=np.int32)
                _native.counts(
                    ids_bad, starts, empty, zero, zero, pairs, pairs, types, vocab, out, 1
                )
    with pytest.raises(ValueError, match="document index"):
        _native.counts(ids, starts, empty, zero, zero, pairs + 1, pairs, types, 6, out, 1)
    with pytest.raises(ValueError, match="offsets"):
        _native.counts(ids, starts[::-1].copy(), empty, zero, zero, pairs, pairs, types, 6, out, 1)


@needs_native
def test_threads_give_identical_counts(corpora, monkeypatch):
    rows = corpora.rows("en_cnndm_realsumm")[:600]
    preds = ["\n".join(r["prediction_sents"]) for r in rows]
    refs = [["\n".join(r["references_sents"][0])] for r in rows]
    one = _counts("native", preds, refs)
    for threads in ("2", "3", "auto"):
        monkeypatch.setenv(native.THREADS_ENV, threads)
        np.testing.assert_array_equal(_counts("native", preds, refs), one)
    monkeypatch.setenv(native.THREADS_ENV, "0")
    with pytest.raises(ValueError, match=native.THREADS_ENV):
        native.default_num_threads()


@needs_native
def test_chunk_stats_seam_equals_batch_counts():
    from rouge_lcs.engine.reference.counts import batch_counts
    from rouge_lcs.engine.reference.documents import DocumentStore

    settings = make_settings(TYPES, use_stemmer=True)
    texts = ["The cats sat.\nOn mats!", "a cat sat on the mat", "", "Dogs ran. Cats sat."]
    pred, ref = np.array([0, 1, 2, 3, 0]), np.array([1, 0, 3, 2, 3])
    store = DocumentStore(settings.tokenizer, settings.splitter_spec)
    expected = batch_counts([store.get(t) for t in texts], pred, ref, settings.rouge_types)
    n_refs = array("q", [1] * len(pred))
    for threads in (1, 2):
        stats = native.NativeStore(settings, threads).chunk_stats(
            texts, array("q", pred.tolist()), array("q", ref.tolist()), n_refs
        )
        np.testing.assert_array_equal(stats.counts, expected)
        np.testing.assert_array_equal(stats.n_refs, np.ones(len(pred)))


@needs_native
@pytest.mark.parametrize(
    ("argument", "variable", "expected"),
    [(None, None, 1), (None, "2", 2), (3, "2", 3), (2, None, 2)],
)
def test_thread_count_reaches_the_kernel(monkeypatch, argument, variable, expected):
    # The public call, the real kernel: the C function returns how many threads it ran, and
    # this spy only passes that on.  num_threads=None reads ROUGE_LCS_NUM_THREADS at scoring.
    ran: list[int] = []
    real = native._native.counts

    def spy(*args):
        ran.append(real(*args))

    monkeypatch.setattr(native._native, "counts", spy)
    if variable is None:
        monkeypatch.delenv(native.THREADS_ENV, raising=False)
    else:
        monkeypatch.setenv(native.THREADS_ENV, variable)
    monkeypatch.setenv(native.ENV, "native")
    preds = [f"the cat {k} sat on the mat" for k in range(50)]
    refs = [f"a cat {k} sat on a mat" for k in range(50)]
    one = rouge_lcs.score(preds, refs, ["rouge1", "rougeL"], num_threads=1).fmeasure
    ran.clear()
    got = rouge_lcs.Rouge(["rouge1", "rougeL"], num_threads=argument).score(preds, refs)
    assert ran == [expected]
    np.testing.assert_array_equal(got.fmeasure, one)


@needs_native
@pytest.mark.parametrize(("vocab", "expected"), [(1_000, 8), (10_000_000, 3), (20_000_000, 1)])
def test_counting_threads_stay_within_the_workspace_budget(vocab, expected):
    # Each counting thread holds two vocabulary-sized tables (8 bytes an id); together they
    # stay under 256 MB (csrc/kernels.h), so a large vocabulary runs on fewer threads than
    # asked.  The kernel returns the threads it ran; the counts do not depend on them.
    from rouge_lcs import _native

    ids = np.array([0, 1, 2, 1, 2, 3], dtype=np.int32)
    starts = np.array([0, 3, 6], dtype=np.int64)
    pred = np.zeros(8, dtype=np.int64)
    ref = np.ones(8, dtype=np.int64)
    types = np.array([0, 1, 1, 0], dtype=np.int64)  # rouge1, rougeL
    empty, zero = np.zeros(0, dtype=np.int32), np.zeros(3, dtype=np.int64)
    out = np.zeros(8 * 2 * 3, dtype=np.int64)
    ran = _native.counts(ids, starts, empty, zero, zero, pred, ref, types, vocab, out, 8)
    assert ran == expected
    assert out.reshape(8, 2, 3).tolist() == [[[2, 3, 3], [2, 3, 3]]] * 8  # "0 1 2" vs "1 2 3"


@needs_native
def test_counting_threads_balance_skewed_pairs_with_identical_counts(monkeypatch):
    # A few long pairs among many short ones: the shards claim blocks of pairs as they go,
    # and every pair's counts land at its own place whatever thread counted it.
    rng = random.Random(5)
    words = [f"w{k}" for k in range(30)]

    def text() -> str:
        return " ".join(rng.choices(words, k=rng.choices([3, 9, 2000], [60, 38, 2])[0]))

    preds, refs = [text() for _ in range(700)], [text() for _ in range(700)]
    types = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]
    want = score(preds, refs, types, num_threads=1).fmeasure
    for threads in (2, 3, 8):
        np.testing.assert_array_equal(score(preds, refs, types, num_threads=threads).fmeasure, want)
    monkeypatch.setenv(native.ENV, "python")
    np.testing.assert_array_equal(score(preds, refs, types).fmeasure, want)
