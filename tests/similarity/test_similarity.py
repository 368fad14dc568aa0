"""rouge_lcs.similarity against independent sources: rouge_lcs.score pair by pair, the real
rouge_score package, and the plain greedy loop of the Self-Instruct / Alpaca pipelines."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from rouge_lcs import score
from rouge_lcs.engine import native
from rouge_lcs.similarity import SimilarityIndex, cdist, dedup, extract, filter_dataset

pytestmark = pytest.mark.usefixtures("engine")

MEASURE_ROW = {"precision": 0, "recall": 1, "fmeasure": 2}


def _short_texts(corpora, count: int) -> list[str]:
    """Real short texts: headline references, then Korean questions (in file order)."""
    texts = [ref for row in corpora.rows("en_headlines_rougemetric") for ref in row["references"]]
    for row in corpora.rows("ko_question_pair"):
        texts += [row["prediction"], *row["references"]]
    return texts[:count]


def _pairwise(queries, choices, rouge_type, measure="fmeasure", **options) -> np.ndarray:
    """Every cell through rouge_lcs.score, one (prediction, reference) pair per example."""
    preds = [q for q in queries for _ in choices]
    refs = [c for _ in queries for c in choices]
    s = score(preds, refs, [rouge_type], **options)
    values = (s.precision, s.recall, s.fmeasure)[MEASURE_ROW[measure]][:, 0]
    return values.reshape(len(queries), len(choices))


def _plain_greedy(texts, threshold, rouge_type="rougeL", **options):
    """The pipelines' loop, written plainly: drop a text whose best F against the kept ones
    is > threshold."""
    kept: list[int] = []
    for i, text in enumerate(texts):
        if kept:
            s = score([text] * len(kept), [texts[j] for j in kept], [rouge_type], **options)
            if float(s.fmeasure[:, 0].max()) > threshold:
                continue
        kept.append(i)
    return kept


@pytest.mark.parametrize("rouge_type", ["rougeL", "rouge1", "rouge2"])
@pytest.mark.parametrize("measure", ["fmeasure", "precision", "recall"])
def test_cdist_equals_score_on_real_texts(corpora, rouge_type, measure):
    texts = _short_texts(corpora, 500)
    queries, choices = texts[:25] + ["", "!!"], texts[200:260] + ["", "?"]
    got = cdist(queries, choices, rouge_type=rouge_type, measure=measure)
    want = _pairwise(queries, choices, rouge_type, measure)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    assert got.shape == (len(queries), len(choices))


@pytest.mark.parametrize("options", [{"use_stemmer": True}, {"beta": 2.0}, {"language": "ko"}])
def test_cdist_options_mean_what_they_mean_in_score(corpora, options):
    texts = _short_texts(corpora, 1200)
    queries, choices = texts[:10] + texts[1000:1010], texts[100:130] + texts[1050:1080]
    got = cdist(queries, choices, **options)
    np.testing.assert_allclose(got, _pairwise(queries, choices, "rougeL", **options), atol=1e-12)


def test_long_texts_use_several_words(corpora):
    # REALSumm summaries: 40-120 tokens, so the query's masks span several 64-bit words
    rows = corpora.rows("en_cnndm_realsumm")[:30]
    queries = [r["prediction"] for r in rows[:8]]
    choices = [r["references"][0] for r in rows]
    for rouge_type in ("rougeL", "rouge1"):
        got = cdist(queries, choices, rouge_type=rouge_type, workers=2)
        np.testing.assert_allclose(got, _pairwise(queries, choices, rouge_type), atol=1e-12)


def test_rouge_score_tokenizer_equals_rouge_score(corpora):
    texts = _short_texts(corpora, 300)[:200]
    queries, choices = texts[:20], texts[20:120]
    got = cdist(queries, choices, tokenizer="rouge_score")
    reference = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)
    tokenize = reference._tokenizer.tokenize
    for i, q in enumerate(queries):
        for j, c in enumerate(choices):
            # the pipelines' call: _score_lcs(new_tokens, kept_tokens)
            want = rouge_scorer._score_lcs(tokenize(q), tokenize(c)).fmeasure
            assert got[i, j] == pytest.approx(want, abs=1e-12)
            assert got[i, j] == reference.score(c, q)["rougeL"].fmeasure


def test_score_cutoff_zeroes_only_cells_below_it(corpora):
    texts = _short_texts(corpora, 400)
    queries, choices = texts[:30], texts[:200]
    full = _pairwise(queries, choices, "rougeL")
    for cutoff in (0.0, 0.3, 0.5, 1.0):
        got = cdist(queries, choices, score_cutoff=cutoff, workers=2)
        np.testing.assert_allclose(got, np.where(full >= cutoff, full, 0.0), atol=1e-12)


def _brute_extract(query, choices, limit, cutoff, **options):
    values = _pairwise([query], choices, "rougeL", **options)[0]
    items = [(c, float(v), i) for i, (c, v) in enumerate(zip(choices, values))]
    if cutoff is not None:
        items = [item for item in items if item[1] >= cutoff]
    items.sort(key=lambda item: (-item[1], item[2]))
    return items if limit is None else items[:limit]


@pytest.mark.parametrize(("limit", "cutoff"), [(10, None), (3, 0.4), (None, 0.2), (100, None)])
def test_extract_equals_brute_force(corpora, limit, cutoff):
    texts = _short_texts(corpora, 400)
    choices = texts[:300] + texts[:5]  # duplicates: ties go to the lower index
    for query in texts[300:310] + [texts[0]]:
        got = extract(query, choices, limit=limit, score_cutoff=cutoff)
        want = _brute_extract(query, choices, limit, cutoff)
        assert [(c, i) for c, _, i in got] == [(c, i) for c, _, i in want]
        np.testing.assert_allclose([s for _, s, _ in got], [s for _, s, _ in want], atol=1e-12)


def test_extract_with_workers_splits_the_choices(corpora):
    choices = _short_texts(corpora, 9000)
    query = choices[123]
    assert extract(query, choices, limit=5, workers=2) == extract(query, choices, limit=5)
    want = _brute_extract(query, choices, 5, None)
    assert [i for *_, i in extract(query, choices, limit=5, workers=2)] == [i for *_, i in want]


@pytest.mark.parametrize("prefilter", [True, False])
@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.7])
def test_dedup_equals_the_plain_loop_on_real_texts(corpora, prefilter, threshold):
    texts = _short_texts(corpora, 260)
    texts = texts[:150] + texts[:20] + texts[150:]  # exact duplicates must be dropped
    result = dedup(texts, threshold=threshold, prefilter=prefilter)
    assert result.kept == _plain_greedy(texts, threshold)
    for i, (j, value) in result.matches.items():
        assert j in result.kept and j < i and value > threshold
        assert value == pytest.approx(_pairwise([texts[i]], [texts[j]], "rougeL")[0, 0], abs=1e-12)
    assert sorted(result.kept + result.dropped) == list(range(len(texts)))


@pytest.mark.parametrize("rouge_type", ["rouge1", "rouge2"])
def test_dedup_rouge_n_equals_the_plain_loop(corpora, rouge_type):
    texts = _short_texts(corpora, 1200)[1000:1200]
    result = dedup(texts, threshold=0.5, rouge_type=rouge_type)
    assert result.kept == _plain_greedy(texts, 0.5, rouge_type)


def test_alpaca_loop_kept_texts_and_top10_neighbours(corpora):
    # The Alpaca / Self-Instruct loop, with the real rouge_score and its private _score_lcs
    texts = _short_texts(corpora, 150)
    texts = texts + texts[:10]
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)
    kept_tokens: list[list[str]] = []
    kept, top10 = [], []
    for i, text in enumerate(texts):
        tokens = scorer._tokenizer.tokenize(text)
        scores = [rouge_scorer._score_lcs(tokens, other).fmeasure for other in kept_tokens]
        top10.append(sorted(scores, reverse=True)[:10])
        if scores and max(scores) > 0.7:
            continue
        kept.append(i)
        kept_tokens.append(tokens)
    result = dedup(texts, threshold=0.7, neighbors=10, tokenizer="rouge_score")
    assert result.kept == kept
    assert result.neighbors is not None
    for want, got in zip(top10, result.neighbors):
        np.testing.assert_allclose([s for _, s in got], want, atol=1e-12)
        assert all(j in kept for j, _ in got)


def test_threshold_hit_exactly_is_kept():
    # F("a b", "a c") = 0.5 exactly: not strictly greater, so kept; above 0.5 it is dropped
    texts = ["a b", "a c", "a b"]
    assert dedup(texts, threshold=0.5).kept == [0, 1]
    assert dedup(texts, threshold=0.5).matches == {2: (0, 1.0)}
    assert dedup(texts, threshold=0.49).kept == [0]
    assert dedup(texts, threshold=1.0).kept == [0, 1, 2]


def test_edge_inputs():
    assert dedup([]).kept == [] and cdist([], ["a"]).shape == (0, 1)
    assert cdist(["a"], []).shape == (1, 0) and extract("a", []) == []
    assert dedup(["only one"]).kept == [0]
    # texts without tokens never match anything, so they are all kept
    assert dedup(["", "", "...", "a"], threshold=0.0).kept == [0, 1, 2, 3]
    assert dedup(["a", "a"], threshold=0.0).kept == [0]
    assert extract("a", ["b", "c"], limit=0) == []
    assert SimilarityIndex().max_score("a") == 0.0


WORDS = st.sampled_from(["a", "b", "c", "d", "the", "cat", "!", "", "a b", "B"])
TEXTS = st.lists(st.lists(WORDS, max_size=8).map(" ".join), max_size=14)


@settings(max_examples=60, deadline=None)
@given(
    texts=TEXTS,
    threshold=st.sampled_from([0.0, 0.25, 0.4, 0.5, 2 / 3, 0.7, 0.8, 1.0]),
    rouge_type=st.sampled_from(["rougeL", "rouge1", "rouge2"]),
    prefilter=st.booleans(),
)
def test_dedup_equals_the_plain_loop_on_generated_texts(texts, threshold, rouge_type, prefilter):
    got = dedup(texts, threshold=threshold, rouge_type=rouge_type, prefilter=prefilter)
    assert got.kept == _plain_greedy(texts, threshold, rouge_type)


@settings(max_examples=40, deadline=None)
@given(texts=TEXTS, k=st.integers(1, 4))
def test_neighbours_equal_brute_force(texts, k):
    got = dedup(texts, threshold=0.6, neighbors=k)
    assert got.neighbors is not None
    for i, near in enumerate(got.neighbors):
        before = [j for j in got.kept if j < i]
        if not before:
            assert near == []
            continue
        values = _pairwise([texts[i]], [texts[j] for j in before], "rougeL")[0]
        want = sorted(zip(before, values.tolist()), key=lambda item: (-item[1], item[0]))[:k]
        assert [j for j, _ in near] == [j for j, _ in want]
        np.testing.assert_allclose([s for _, s in near], [s for _, s in want], atol=1e-12)


def test_similarity_index_grows_without_rescanning(corpora):
    texts = _short_texts(corpora, 300)
    index = SimilarityIndex(texts[:100])
    assert index.add(texts[100:200]) == list(range(100, 200)) and len(index) == 200
    for query in texts[200:210]:
        assert index.extract(query, limit=5) == extract(query, texts[:200], limit=5)
        best = max(_pairwise([query], texts[:200], "rougeL")[0])
        assert index.max_score(query) == pytest.approx(best, abs=1e-12)


def test_workers_do_not_change_numbers(corpora):
    texts = _short_texts(corpora, 3000)
    one = cdist(texts[:3], texts, workers=1)
    np.testing.assert_array_equal(one, cdist(texts[:3], texts, workers=2))
    np.testing.assert_array_equal(one, cdist(texts[:3], texts, workers=-1))


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: dedup(["a"], threshold=1.5), ValueError, "threshold: expected a number from 0"),
        (lambda: dedup(["a"], threshold="0.7"), TypeError, "threshold: expected"),
        (lambda: dedup(["a", 3]), TypeError, r"texts\[1\]: expected str, got int"),
        (lambda: dedup("abc"), TypeError, "texts: expected a list of str"),
        (lambda: dedup(["a"], neighbors=-1), ValueError, "neighbors: expected"),
        (lambda: extract("a", ["b"], limit=-1), ValueError, "limit: expected"),
        (lambda: extract(None, ["b"]), TypeError, "query: expected str"),
        (lambda: cdist(["a"], ["b"], measure="f1"), ValueError, "measure: expected one of"),
        (lambda: cdist(["a"], ["b"], workers=0), ValueError, "workers: expected"),
        (lambda: cdist(["a"], ["b"], workers=1.5), TypeError, "workers: expected"),
        (lambda: cdist(["a"], [None]), TypeError, r"choices\[0\]: expected str"),
        (lambda: cdist(["a"], ["b"], score_cutoff=-0.1), ValueError, "score_cutoff: expected"),
        (lambda: cdist(["a"], ["b"], rouge_type="rougeLsum"), ValueError, "rouge_type: expected"),
        (lambda: cdist(["a"], ["b"], rouge_type="bleu"), ValueError, "rouge"),
        (lambda: cdist(["a"], ["b"], beta=0), ValueError, "beta: expected"),
        (lambda: SimilarityIndex().add([b"x"]), TypeError, r"texts\[0\]: expected str"),
    ],
)
def test_bad_input_names_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_native_kernel_checks_every_argument():
    if not native.active():
        pytest.skip("the native engine is not in use")
    sim = native._native.similarity
    i32, i64 = np.int32, np.int64

    def call(**change):
        args = {
            "q_ids": np.array([0, 1], i32),
            "q_starts": np.array([0, 2], i64),
            "row_query": np.array([0], i64),
            "ids": np.array([1, 0, 2], i32),
            "starts": np.array([0, 2, 3], i64),
            "cands": np.array([0, 1], i64),
            "cand_lo": np.array([0], i64),
            "cand_hi": np.array([2], i64),
            "vocab": 3,
            "kind": 0,
            "measure": 0,
            "beta": 1.0,
            "floor": -1.0,
            "strict": False,
            "k": 0,
            "workers": 1,
            "out_hits": np.zeros(2, i64),
            "out_index": np.zeros(0, i64),
            "out_count": np.zeros(0, i64),
        }
        args.update(change)
        sim(*args.values())
        return args["out_hits"]

    assert call().tolist() == [1, 0]
    bad = [
        ({"ids": np.array([1, 0, 2], i64)}, TypeError),
        ({"q_ids": b"abcd"}, TypeError),
        ({"out_hits": np.zeros(2, np.float64)}, TypeError),
        ({"ids": np.array([1, 0, 7], i32)}, ValueError),
        ({"q_ids": np.array([0, -1], i32)}, ValueError),
        ({"q_starts": np.array([0, 3], i64)}, ValueError),
        ({"starts": np.array([0, 4, 3], i64)}, ValueError),
        ({"cands": np.array([0, 2], i64)}, ValueError),
        ({"cand_hi": np.array([3], i64)}, ValueError),
        ({"row_query": np.array([1], i64)}, ValueError),
        ({"out_hits": np.zeros(1, i64)}, ValueError),
        ({"kind": 5}, ValueError),
        ({"beta": float("nan")}, ValueError),
        ({"floor": float("nan")}, ValueError),
        ({"workers": 0}, ValueError),
        ({"k": -1}, ValueError),
        ({"vocab": 0}, ValueError),
    ]
    for change, error in bad:
        with pytest.raises(error):
            call(**change)


def test_filter_dataset(corpora):
    datasets = pytest.importorskip("datasets")
    texts = _short_texts(corpora, 120)
    data = datasets.Dataset.from_dict({"instruction": texts + texts[:5], "n": list(range(125))})
    kept = filter_dataset(data, "instruction", threshold=0.7)
    assert kept["n"] == _plain_greedy(texts + texts[:5], 0.7)
    with pytest.raises(ValueError, match="column: expected one of"):
        filter_dataset(data, "missing")


def test_cli_dedup_and_similar(tmp_path, corpora):
    import csv
    import json

    from rouge_lcs.cli.main import main

    texts = _short_texts(corpora, 80) + _short_texts(corpora, 10)
    kept = _plain_greedy(texts, 0.7)
    source = tmp_path / "data.jsonl"
    source.write_text(
        "".join(json.dumps({"instruction": t, "n": k}) + "\n" for k, t in enumerate(texts))
    )
    out = tmp_path / "kept.jsonl"
    assert main(["dedup", str(source), "--field", "instruction", "-o", str(out)]) == 0
    assert [json.loads(line)["n"] for line in out.read_text().splitlines()] == kept
    lines = tmp_path / "data.txt"
    lines.write_text("".join(t + "\n" for t in texts))
    table = tmp_path / "kept.csv"
    assert main(["dedup", str(lines), "--threshold", "0.7", "-o", str(table)]) == 0
    with table.open(newline="") as handle:
        assert [row["text"] for row in csv.DictReader(handle)] == [texts[k] for k in kept]
    txt_out = tmp_path / "kept.txt"
    assert main(["dedup", str(lines), "-o", str(txt_out)]) == 0
    assert txt_out.read_text().splitlines() == [texts[k] for k in kept]
    result = tmp_path / "similar.jsonl"
    assert main(["similar", str(lines), str(source), "--field", "text", "-o", str(result)]) == 2
    assert main(["similar", str(lines), str(lines), "--top-k", "3", "-o", str(result)]) == 0
    rows = [json.loads(line) for line in result.read_text().splitlines()]
    assert len(rows) == len(texts)
    assert [m["index"] for m in rows[5]["matches"]] == [
        i for *_, i in _brute_extract(texts[5], texts, 3, None)
    ]
    assert main(["dedup", str(source), "--threshold", "2"]) == 2


# --- Hostile round (issue: similarity at scale) ------------------------------------------------


def test_unknown_option_names_the_users_call():
    with pytest.raises(TypeError, match=r"^cdist\(\) got an unexpected keyword argument 'foo'"):
        cdist(["a"], ["b"], foo=1)
    with pytest.raises(TypeError, match=r"^dedup\(\) got an unexpected keyword argument"):
        dedup(["a"], use_stemer=True)
    with pytest.raises(TypeError, match=r"^SimilarityIndex\(\) got an unexpected keyword"):
        SimilarityIndex(tokeniser="unicode")


@pytest.mark.parametrize(("name", "value"), [("lsum_split", "newline"), ("multi_ref", "mean")])
@pytest.mark.parametrize("call", ["cdist", "extract", "dedup", "SimilarityIndex"])
def test_options_without_meaning_here_are_refused(call, name, value):
    calls = {
        "cdist": lambda **o: cdist(["a b"], ["a c"], **o),
        "extract": lambda **o: extract("a b", ["a c"], **o),
        "dedup": lambda **o: dedup(["a b", "a c"], **o),
        "SimilarityIndex": lambda **o: SimilarityIndex(["a b"], **o),
    }
    with pytest.raises(TypeError, match=rf"^{call}\(\) does not take {name}="):
        calls[call](**{name: value})


def test_huge_beta_at_threshold_one_warns_nothing():
    import warnings

    texts = ["a b c", "a b c", "a b", "a b c d"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for threshold in (1.0, 0.999999, 0.5):
            got = dedup(texts, threshold=threshold, beta=1e10)
            assert got.kept == _plain_greedy(texts, threshold, beta=1e10)
            assert got == dedup(texts, threshold=threshold, beta=1e10, prefilter=False)


@pytest.mark.parametrize("dtype", [np.float32, "float16", np.dtype("float64")])
def test_cdist_dtype_rounds_each_score_once(corpora, dtype):
    texts = _short_texts(corpora, 120)
    want = _pairwise(texts[:20], texts[20:], "rougeL")
    got = cdist(texts[:20], texts[20:], dtype=dtype)
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got, want.astype(dtype))
    cut = cdist(texts[:20], texts[20:], dtype=dtype, score_cutoff=0.3)
    np.testing.assert_array_equal(cut, np.where(want >= 0.3, want, 0).astype(dtype))


@pytest.mark.parametrize(
    ("dtype", "error"),
    [(np.int32, ValueError), ("int8", ValueError), ("nope", ValueError), (3, TypeError)],
)
def test_cdist_dtype_refuses_non_floating_types(dtype, error):
    with pytest.raises(error, match="dtype: expected"):
        cdist(["a"], ["b"], dtype=dtype)


def test_similarity_index_takes_arrays():
    texts = np.array(["the cat sat", "a dog ran", "the cat ran"])
    index = SimilarityIndex(texts)
    assert index.texts == texts.tolist()
    assert index.extract("the cat", limit=1)[0][2] == 0
    assert len(SimilarityIndex(np.array([], dtype=str))) == 0


def test_similarity_index_from_threads_equals_cdist(corpora):
    from concurrent.futures import ThreadPoolExecutor

    texts = _short_texts(corpora, 800)
    base, extra, queries = texts[:300], texts[300:700], texts[700:760]
    index = SimilarityIndex(base, workers=2)
    batches = [extra[k : k + 20] for k in range(0, len(extra), 20)]

    def add(batch):
        return batch, index.add(batch)

    def ask(query):
        before = len(index)
        found = index.extract(query, limit=3)
        return query, before, found

    with ThreadPoolExecutor(max_workers=6) as pool:
        adds = [pool.submit(add, b) for b in batches]
        asks = [pool.submit(ask, q) for q in queries * 2]
        added = [f.result() for f in adds]
        answers = [f.result() for f in asks]
    # serialized adds: each text one index, and the index holds each at its own
    indices = [i for _, got in added for i in got]
    assert sorted(indices) == list(range(300, 700))
    held = index.texts
    for batch, got in added:
        assert [held[i] for i in got] == batch
    # each answer is the top 3 of the texts held when the query started (or a later prefix)
    scores = cdist(queries, held)
    row = {q: k for k, q in enumerate(queries)}
    for query, before, found in answers:
        values = scores[row[query]]
        assert found, query
        for text, value, i in found:
            assert held[i] == text and value == values[i]
        limit = max(i for *_, i in found) + 1
        visible = values[: max(before, limit)]
        best = sorted(visible.tolist(), reverse=True)[:3]
        assert [value for _, value, _ in found] == best[: len(found)]
    # and once the adds are done, queries from threads equal cdist exactly
    with ThreadPoolExecutor(max_workers=4) as pool:
        tops = list(pool.map(index.max_score, queries))
    np.testing.assert_array_equal(tops, scores.max(axis=1))


@pytest.mark.skipif(
    "ROUGE_LCS_SANITIZED" in os.environ, reason="ASan's shadow memory counts as RSS"
)
@pytest.mark.parametrize("rouge_type", ["rougeL", "rouge2"])
def test_queries_do_not_grow_the_index(rouge_type):
    import os
    import subprocess
    import sys

    if not os.path.exists("/proc/self/status"):
        pytest.skip("reads the resident memory from /proc")

    # every query brings new tokens (and n-grams); the index holds 100 texts
    code = f"""
from rouge_lcs.similarity import SimilarityIndex
index = SimilarityIndex([f"text {{k}} of the index" for k in range(100)], rouge_type="{rouge_type}")
def rss():  # KiB resident now (ru_maxrss would carry the parent's peak across exec)
    with open("/proc/self/status") as status:
        return int(next(line for line in status if line.startswith("VmRSS:")).split()[1])
for k in range(200):
    index.max_score(" ".join(f"w{{k}}x{{j}}" for j in range(400)))
start = rss()
for k in range(200, 1200):
    index.max_score(" ".join(f"w{{k}}x{{j}}" for j in range(400)))
print(rss() - start)
"""
    grown_kib = int(
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
    )
    # the 400,000 new tokens took 38 MB (native) and 71 MB (Python engine) when kept
    assert grown_kib < 15_000, grown_kib
    index = SimilarityIndex(["a b c"], rouge_type=rouge_type)
    assert index.max_score("z y x w") == 0.0
    assert index.max_score("a b c") == 1.0


def _alpaca_loop(seeds, new):
    """stanford_alpaca's generate_instruction.py (commit f134962, lines 144-148 and 184-204),
    without its Pool: every seed instruction and every kept machine instruction is tokenized
    by rouge_score's tokenizer; each new instruction is scored against all of them with
    ``rouge_scorer._score_lcs``; it is skipped when ``max(rouge_scores) > 0.7``, else kept
    and appended.  The seeds are never compared with each other, nor dropped."""
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)
    all_instruction_tokens = [scorer._tokenizer.tokenize(inst) for inst in seeds]
    kept, top10 = [], []
    for i, text in enumerate(new):
        tokens = scorer._tokenizer.tokenize(text)
        rouge_scores = [
            rouge_scorer._score_lcs(tokens, other).fmeasure for other in all_instruction_tokens
        ]
        top10.append(sorted(rouge_scores, reverse=True)[:10])  # most_similar_instructions
        if max(rouge_scores) > 0.7:
            continue
        kept.append(i)
        all_instruction_tokens.append(tokens)
    return kept, top10


def test_dedup_with_seeds_is_the_alpaca_loop(corpora):
    texts = _short_texts(corpora, 400)
    seeds = texts[:175] + texts[:2]  # repeated seeds: the loop keeps them all
    new = texts[175:330] + texts[5:15] + [t + " again" for t in texts[180:190]]
    kept, top10 = _alpaca_loop(seeds, new)
    result = dedup(new, seeds=seeds, threshold=0.7, neighbors=10, tokenizer="rouge_score")
    assert result.kept == kept
    assert result.neighbors is not None and len(result.neighbors) == len(new)
    pool = seeds + new
    for i, (want, got) in enumerate(zip(top10, result.neighbors)):
        np.testing.assert_allclose([s for _, s in got], want, atol=1e-12)
        # indices into seeds + new: seeds or texts kept before text i
        assert all(
            j < len(seeds) or (j - len(seeds) in kept and j - len(seeds) < i) for j, _ in got
        )
    for i, (j, value) in result.matches.items():
        assert i not in kept and value > 0.7
        want = rouge_scorer.RougeScorer(["rougeL"]).score(pool[j], new[i])["rougeL"].fmeasure
        assert value == pytest.approx(want, abs=1e-12)
    # the prefix index gives the same kept texts, and seeds are never compared or dropped
    assert dedup(new, seeds=seeds, threshold=0.7, tokenizer="rouge_score").kept == kept
    assert dedup([], seeds=seeds).kept == []
    assert dedup(seeds, seeds=seeds).kept == []


def test_dedup_progress_bar(capsys):
    texts = [f"text number {k}" for k in range(50)]
    assert dedup(texts, progress=True).kept == dedup(texts).kept
    assert "50/50" in capsys.readouterr().err
    with pytest.raises(TypeError, match="progress: expected"):
        dedup(texts, progress="yes")


def test_cli_dedup_seeds_and_neighbors(tmp_path, corpora, capfd):
    import json

    from rouge_lcs.cli.main import main

    texts = _short_texts(corpora, 120)
    seeds, new = texts[:40], texts[40:100] + texts[:5]
    (tmp_path / "seeds.txt").write_text("".join(t + "\n" for t in seeds))
    (tmp_path / "new.txt").write_text("".join(t + "\n" for t in new))
    out = tmp_path / "kept.jsonl"
    argv = ["dedup", str(tmp_path / "new.txt"), "--seeds", str(tmp_path / "seeds.txt")]
    assert main([*argv, "--neighbors", "3", "-o", str(out), "--tokenizer", "rouge_score"]) == 0
    kept, top10 = _alpaca_loop(seeds, new)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [row["text"] for row in rows] == [new[i] for i in kept]
    for row, i in zip(rows, kept):
        np.testing.assert_allclose([n["score"] for n in row["neighbors"]], top10[i][:3], atol=1e-12)
    assert "\r" not in capfd.readouterr().err
    assert main([*argv, "--neighbors", "3", "-o", str(tmp_path / "kept.txt")]) == 2


def test_cli_bad_outputs_are_refused_before_the_work(tmp_path, capsys, monkeypatch):
    import rouge_lcs.cli.similarity as cli_similarity
    from rouge_lcs.cli.main import main

    source = tmp_path / "in.txt"
    source.write_text("a b c\na b c\nd e f\n")
    kept = tmp_path / "kept.txt"
    kept.write_text("before\n")
    ran = []
    monkeypatch.setattr(cli_similarity, "dedup", lambda *a, **k: ran.append(1))
    missing = tmp_path / "no" / "such" / "dir"
    for argv, flag in [
        (["-o", str(missing / "x.txt")], "-o"),
        (["-o", str(kept), "--dropped", str(missing / "d.jsonl")], "--dropped"),
        (["-o", str(tmp_path)], "-o"),
    ]:
        assert main(["dedup", str(source), *argv]) == 2
        err = capsys.readouterr().err
        assert f"{flag} " in err and "cannot be written" in err and "Traceback" not in err
    assert ran == []  # refused before the run
    assert kept.read_text() == "before\n"  # no partial kept file
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".rouge-lcs-")] == []
    monkeypatch.undo()
    assert (
        main(["dedup", str(source), "-o", str(kept), "--dropped", str(tmp_path / "d.jsonl")]) == 0
    )
    assert kept.read_text() == "a b c\nd e f\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".rouge-lcs-")] == []


def test_cli_wrong_field_lists_the_fields_and_nested_values_go_to_csv_as_json(tmp_path, capsys):
    import csv
    import json

    from rouge_lcs.cli.main import main

    source = tmp_path / "in.jsonl"
    rows = [{"instruction": "a b c", "meta": {"k": [1, "é"]}}, {"instruction": "d e", "meta": None}]
    source.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["dedup", str(source)]) == 2
    err = capsys.readouterr().err
    assert "line 1 has no field 'text'" in err and "'instruction', 'meta'" in err
    out = tmp_path / "kept.csv"
    assert main(["dedup", str(source), "--field", "instruction", "-o", str(out)]) == 0
    with out.open(newline="", encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    assert [json.loads(row["meta"]) for row in table] == [r["meta"] for r in rows]


def test_cli_txt_output_refuses_texts_with_line_breaks(tmp_path, capsys):
    import json

    from rouge_lcs.cli.main import main

    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"text": "one\ntwo"}) + "\n" + json.dumps({"text": "x"}) + "\n")
    out = tmp_path / "kept.txt"
    assert main(["dedup", str(source), "-o", str(out)]) == 2
    assert "record 1 has a line break" in capsys.readouterr().err
    assert not out.exists()
    assert main(["dedup", str(source), "-o", str(tmp_path / "kept.jsonl")]) == 0


def test_cli_dedup_reads_stdin(tmp_path):
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "rouge_lcs", "dedup", "-", "--threshold", "0.7"],
        input=b"the cat sat\nthe cat sat\na dog ran\n",
        capture_output=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.decode().splitlines() == ["the cat sat", "a dog ran"]


def _cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    """The real command, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "rouge_lcs", *args], input=stdin, capture_output=True, check=False
    )


def test_cli_jsonl_outputs_keep_a_lone_surrogate_as_its_escape(tmp_path):
    """A record with a lone-surrogate escape (which ``score`` reads, and the readers take) is
    written back with the same escape by dedup (-o, stdout, --dropped) and similar: every
    record comes out, the output reads back to the same records; a UTF-8 CSV or .txt output,
    which cannot hold it, is refused before the run, naming the record."""
    import json

    lines = ['{"text": "a b c"}', '{"text": "d e f"}', '{"text": "x \\ud800 y"}', '{"text": "g"}']
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n", "utf-8")
    records = [json.loads(line) for line in lines]
    assert records[2]["text"] == "x \ud800 y"  # the reader's rule: the escape is one code point
    kept = tmp_path / "kept.jsonl"
    done = _cli("dedup", str(source), "-o", str(kept))
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in kept.read_text("utf-8").splitlines()] == records
    assert "\\ud800" in kept.read_text("utf-8")
    again = _cli("dedup", str(kept))  # the output is an input again, to the same bytes
    assert again.returncode == 0 and again.stdout == kept.read_bytes(), again.stderr
    twice = tmp_path / "twice.jsonl"
    source.write_text("\n".join(lines + lines[2:3]) + "\n", "utf-8")
    done = _cli("dedup", str(source), "--dropped", str(twice))
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 4
    assert json.loads(twice.read_text("utf-8"))["text"] == "x \ud800 y"
    done = _cli("similar", str(source), str(kept), "--top-k", "1")
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 5 and answers[2]["matches"][0]["text"] == "x \ud800 y"
    for suffix in ("csv", "txt"):
        out = tmp_path / f"kept.{suffix}"
        done = _cli("dedup", str(source), "-o", str(out))
        assert done.returncode == 2 and not out.exists()
        assert (
            "record 3 holds a lone surrogate U+D800 (read from a JSON escape), which a "
            f"UTF-8 .{suffix}" in done.stderr.decode()
        ), done.stderr
        assert b"Traceback" not in done.stderr


def test_cli_error_after_stdout_was_opened_is_one_line(tmp_path):
    """An error met once the output (stdout) is open is the one ``rouge-lcs: error:`` line:
    stdout is not closed under the message (it was: "I/O operation on closed file")."""
    source = tmp_path / "in.txt"
    source.write_text("a b\nc d\n")
    done = _cli("similar", str(source), str(source), "--top-k", "-1")
    assert done.returncode == 2
    assert done.stderr.decode().splitlines() == [
        "rouge-lcs: error: --top-k: expected an integer >= 0, got -1"
    ]


def test_cli_help_shows_defaults_in_the_command_lines_words(capsys):
    """Every option of dedup, similar and score says its default, in the command line's
    words: flags, not the library's parameters, callables or None."""
    from rouge_lcs.cli.main import main

    for command, default in [("dedup", "Default: 0.7."), ("similar", "Default: 10.")]:
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert default in capsys.readouterr().out
    for command in ("dedup", "similar", "score"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        shown = re.sub(r"\s+", " ", capsys.readouterr().out)
        for library_word in ("callable", "None", "today's", "use_stemmer", "rouge()", "(default"):
            assert library_word not in shown, (command, library_word)
    import importlib

    from rouge_lcs.cli import similarity as cli_similarity

    cli_main = importlib.import_module("rouge_lcs.cli.main")  # the package exports main()

    for parser in (
        cli_similarity.dedup_parser(),
        cli_similarity.similar_parser(),
        cli_main._score_parser(),
    ):
        for action in parser._actions:
            # the data files and --json have no default to say
            data = ("help", "json", "predictions", "references", "data", "csv")
            if action.option_strings and action.dest not in data:
                assert "efault" in (action.help or ""), (parser.prog, action.option_strings)


def _long_texts(corpora) -> tuple[list[str], list[str]]:
    """Texts of several 4,096-token strips (the kernels' dense-table limit) and short ones: REALSumm
    summaries joined, and seeded draws from a 50-word vocabulary (many matches per row)."""
    rows = corpora.rows("en_cnndm_realsumm")
    summaries = [r["references"][0] for r in rows] + [r["prediction"] for r in rows]
    joined = [" ".join(summaries[a : a + step]) for a, step in ((0, 300), (150, 180), (400, 110))]
    rng = np.random.default_rng(31)
    drawn = [" ".join(f"w{k}" for k in rng.integers(0, 50, size)) for size in (9000, 4097, 300)]
    return joined + drawn[:2], summaries[:3] + drawn[2:] + [""]


def test_long_texts_equal_score_across_strips(corpora):
    long_texts, short = _long_texts(corpora)
    lengths = [len(re.findall(r"[a-z0-9]+", t.lower())) for t in long_texts]  # the tokens
    assert min(lengths) > 4096 and max(lengths) > 3 * 4096, lengths
    queries, choices = long_texts[:3] + short[:2], long_texts[2:] + short
    for rouge_type in ("rougeL", "rouge1"):
        got = cdist(queries, choices, rouge_type=rouge_type, workers=2)
        np.testing.assert_allclose(got, _pairwise(queries, choices, rouge_type), atol=1e-12)
    want = _pairwise(long_texts[:1], choices, "rougeL")[0]
    best = extract(long_texts[0], choices, limit=3)
    order = sorted(range(len(choices)), key=lambda j: (-want[j], j))[:3]
    assert [index for _, _, index in best] == order
    np.testing.assert_allclose([value for _, value, _ in best], want[order], atol=1e-12)
    texts = [long_texts[0], long_texts[0] + " tail", short[0], long_texts[3], long_texts[4]]
    for threshold in (0.5, 0.9):
        result = dedup(texts, threshold=threshold)
        assert result.kept == _plain_greedy(texts, threshold)
        assert 1 not in result.kept  # the long near-duplicate is dropped


def test_long_query_memory_is_linear():
    import os
    import subprocess
    import sys

    if not os.path.exists("/proc/self/status"):
        pytest.skip("reads the peak resident memory from /proc")
    if "ROUGE_LCS_SANITIZED" in os.environ:
        pytest.skip("ASan's shadow memory counts as resident memory")
    # one 60,000-token query of ~15,000 distinct words against a few choices, one long
    code = """
import random
from rouge_lcs.similarity import cdist
def peak():  # KiB, this process's own peak (ru_maxrss would carry the parent's across exec)
    with open("/proc/self/status") as status:
        return int(next(line for line in status if line.startswith("VmHWM:")).split()[1])
rng = random.Random(31)
query = [f"w{rng.randrange(40000)}" for _ in range(60000)]
choices = [" ".join(query[5000:25000]), " ".join(query[:50]), "w1 w2 w3"]
cdist(["w1 w2"], ["w1"])  # the engine's imports and first-call set-up, outside the measure
start = peak()
row = cdist([" ".join(query)], choices)[0]
print(peak() - start, len(set(query)), " ".join(repr(float(v)) for v in row))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    grown_kib, distinct, row = int(out[0]), int(out[1]), [float(v) for v in out[2:]]
    m = 60000
    dense_kib = distinct * ((m + 63) // 64) * 8 // 1024  # the per-query table of one bit a cell
    assert dense_kib > 100_000, dense_kib
    # linear: the texts, their ids and strip tables are a few MB; the dense table was 100+ MB
    assert grown_kib < dense_kib // 6, (grown_kib, dense_kib)
    rng = __import__("random").Random(31)
    query = [f"w{rng.randrange(40000)}" for _ in range(60000)]
    choices = [" ".join(query[5000:25000]), " ".join(query[:50]), "w1 w2 w3"]
    want = score([" ".join(query)] * 3, choices, ["rougeL"]).fmeasure[:, 0]
    np.testing.assert_allclose(row, want, atol=1e-12)


def test_benchmark_long_suite_smoke(repo):
    # benchmarks/bench_similarity.py's long suite on a query of two strips, so it cannot rot
    import subprocess
    import sys

    if not __import__("os").path.exists("/proc/self/status"):
        pytest.skip("the suite reads the peak resident memory from /proc")
    script = repo / "benchmarks" / "bench_similarity.py"
    done = subprocess.run(
        [sys.executable, str(script), "--suites", "long", "--words", "6000"],
        capture_output=True,
        text=True,
        check=True,
        cwd=repo,
    )
    assert done.stdout.count("long: ") == 2, done.stdout


def test_dedup_result_is_a_frozen_record_with_its_own_matches():
    # DedupResult was a frozen dataclass with matches=field(default_factory=dict): a record
    # now (no dataclasses import), with the same fields, defaults, equality and frozenness.
    from rouge_lcs.base.records import FrozenInstanceError
    from rouge_lcs.similarity import DedupResult, MBRResult

    a, b = DedupResult([0]), DedupResult([0])
    assert a.matches == {} and a.neighbors is None and a.dropped == []
    assert a.matches is not b.matches  # each its own dict, as default_factory gives
    assert a == b and a != DedupResult([0], {1: (0, 0.9)})
    assert repr(a) == "DedupResult(kept=[0], matches={}, neighbors=None)"
    with pytest.raises(AttributeError):
        a.kept = [1]  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        MBRResult(0, [1.0]).index = 1  # type: ignore[misc]
    result = dedup(["a b c", "a b c", "x y"], threshold=0.7)
    assert result == DedupResult([0, 2], {1: (0, 1.0)}, None)
