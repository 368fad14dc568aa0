"""Hostile inputs (issue 15): each defect found by a hostile tester, as a regression test.

Library: one clear TypeError/ValueError, bounded memory and time, thread safety.  CLI: one line
on stderr and exit 2, never a traceback.  Readers: what csv/json themselves write reads back.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_lcs import rouge, score
from rouge_lcs.cli.io import InputError, read_table
from rouge_lcs.engine.parallel import workers
from rouge_lcs.scores.statistics import bootstrap_interval

REPO = Path(__file__).resolve().parent.parent


def cli(*args: str, stdin: bytes | None = None, cwd: Path | None = None):
    return subprocess.run(
        [sys.executable, "-m", "rouge_lcs", *args], input=stdin, capture_output=True, cwd=cwd
    )


def assert_one_line_error(done: subprocess.CompletedProcess, *words: str) -> None:
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert "Traceback" not in err
    assert err.startswith("rouge-lcs: error:") and err.count("\n") == 1, err
    for word in words:
        assert word in err, err


# --- 2, 3: memory bounded by the input -----------------------------------------------------


def _peak(fn) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_one_example_with_many_references_does_not_pad_the_batch():
    # Before: counts padded to examples × widest reference list × types × 3 (~1 GB here).
    preds = [f"w{k} x y" for k in range(2048)]
    refs: list[object] = [f"w{k} y" for k in range(2048)]
    refs[0] = [f"r{k} x" for k in range(5000)]
    peak = _peak(lambda: score(preds, refs, ["rouge1", "rouge2", "rougeL", "rougeLsum"]))
    assert peak < 150 * 2**20, peak


def test_bootstrap_memory_is_bounded_by_blocks():
    values = np.random.default_rng(0).random((200_000, 4))
    peak = _peak(lambda: bootstrap_interval(values, 0.95, 20, 0))
    assert peak < 80 * 2**20, peak  # before: 64 × 200,000 × 4 floats at once (410 MB)


def test_bootstrap_block_size_does_not_change_the_interval(monkeypatch):
    import rouge_lcs.scores.statistics as statistics

    values = np.random.default_rng(1).random((500, 3))
    expected = bootstrap_interval(values, 0.9, 200, 7)
    monkeypatch.setattr(statistics, "_BLOCK_VALUES", 500 * 3 * 3)  # blocks of 3 rows
    got = bootstrap_interval(values, 0.9, 200, 7)
    assert all(np.array_equal(a, b) for a, b in zip(expected, got))


# --- 4: absurd n-gram sizes ----------------------------------------------------------------


def test_huge_rouge_n_is_a_clear_error():
    with pytest.raises(ValueError, match="rouge_types: expected .*N from 1 to 1000"):
        rouge(["a b"], ["a b"], ["rouge" + "1" + "0" * 20])
    with pytest.raises(ValueError, match="rouge_types"):
        rouge(["a b"], ["a b"], ["rouge1000000"])


def test_n_larger_than_every_text_scores_zero():
    assert rouge(["a b c"], ["a b c"], ["rouge1000"]) == {"rouge1000": 0.0}


# --- 5: the stemming memo is bounded -------------------------------------------------------


def test_stemming_memo_is_bounded(monkeypatch):
    import rouge_lcs.text.stemming as stemming

    monkeypatch.setattr(stemming, "CACHE_LIMIT", 100)
    stemming._CACHE.clear()
    for k in range(1000):
        stemming.stem(f"running{k}")
    assert len(stemming._CACHE) <= 100
    assert stemming.stem("running") == "run"


# --- 9: F stays a number -------------------------------------------------------------------


@pytest.mark.parametrize("beta", [1e200, 1e-200, float("inf")])
def test_beta_that_would_make_f_nan_is_refused(beta):
    with pytest.raises(ValueError, match="beta: expected"):
        rouge(["a b"], ["a c"], beta=beta)


def test_cli_beta_refused_and_json_valid(tmp_path):
    (tmp_path / "p.txt").write_text("a b\n")
    (tmp_path / "r.txt").write_text("a c\n")
    done = cli("-p", "p.txt", "-r", "r.txt", "--beta", "1e200", "--json", cwd=tmp_path)
    assert_one_line_error(done, "beta")
    done = cli("-p", "p.txt", "-r", "r.txt", "--beta", "1e100", "--json", cwd=tmp_path)
    assert done.returncode == 0
    json.loads(done.stdout)  # strict: NaN would not parse with allow_nan=False on our side


# --- 10: custom sentence splitters ---------------------------------------------------------


def test_generator_splitter_is_taken_and_none_is_named():
    def sentences(text):
        yield from text.split("|")

    got = rouge(["a b|c"], ["a b|c"], ["rougeLsum"], lsum_split=sentences)
    assert got == {"rougeLsum": 1.0}  # before: a consumed generator scored 0.0
    with pytest.raises(TypeError, match="lsum_split: .* must return a list of str, got NoneType"):
        rouge(["a"], ["a"], ["rougeLsum"], lsum_split=lambda text: None)


# --- 11, 12: threads and processes ---------------------------------------------------------


@pytest.mark.slow
def test_concurrent_calls_from_threads_with_and_without_processes(corpora):
    rows = corpora.rows("en_cnndm_realsumm")[:2100]
    preds = [r["prediction"] for r in rows]
    refs = [r["references"][0] for r in rows]
    expected_a = rouge(preds, refs)
    expected_b = rouge(refs, preds)
    results: dict[int, object] = {}

    def run(k: int) -> None:
        args = (preds, refs) if k % 2 == 0 else (refs, preds)
        results[k] = rouge(*args, num_proc=2 if k < 2 else 1)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0] == expected_a and results[2] == expected_a
    assert results[1] == expected_b and results[3] == expected_b


def test_gc_is_left_alone_while_other_threads_run():
    import gc

    seen = []
    started, stop = threading.Event(), threading.Event()

    def other() -> None:
        started.set()
        stop.wait(10)

    thread = threading.Thread(target=other)
    thread.start()
    started.wait()
    try:
        seen.append(gc.isenabled())
        score(["a b"] * 10, ["a c"] * 10, tokenizer=lambda t: seen.append(gc.isenabled()) or [t])
    finally:
        stop.set()
        thread.join()
    assert all(seen)


def test_process_count_is_capped():
    assert workers(256, 7) == 7
    assert workers(10**3, 10**4) <= 4 * (__import__("os").cpu_count() or 1)
    with pytest.raises(ValueError, match="num_proc"):
        rouge(["a"], ["a"], num_proc=10**9)


# --- 13, 14: through evaluate --------------------------------------------------------------


@pytest.fixture(scope="module")
def metric():
    # the test extra installs evaluate; dev.py test-oldest (runtime dependencies only) does not
    evaluate = pytest.importorskip("evaluate")
    return evaluate.load(str(REPO / "rouge_lcs_metric.py"))


def test_evaluate_mixed_reference_shapes(metric):
    got = metric.compute(
        predictions=["a", "b c"], references=["a", ["b c", "x"]], rouge_types=["rouge1"]
    )
    assert got == {"rouge1": 1.0}  # before: the list arrived as the string "['b c', 'x']"
    metric.add_batch(predictions=["a"], references=["a"])
    metric.add_batch(predictions=["b"], references=[["b", "c"]])
    assert metric.compute(rouge_types=["rouge1"]) == {"rouge1": 1.0}


def test_evaluate_lone_surrogate_is_a_clear_error(metric):
    with pytest.raises(ValueError, match=r"predictions\[0\]: expected valid Unicode .*U\+D800"):
        metric.compute(predictions=["abc \ud800 def"], references=["abc def"])
    assert rouge(["abc \ud800 def"], ["abc def"], ["rouge1"]) == {"rouge1": 1.0}


def test_evaluate_unknown_option_is_named(metric):
    with pytest.raises(TypeError, match="use_stemer"):
        metric.compute(predictions=["a"], references=["a"], use_stemer=True)


# --- 15, 16: tokens ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [("می\u200cخواهم", "میخواهم"), ("क्\u200dष", "क्ष"), ("co\u00adoperate", "cooperate")],
)
def test_joiners_do_not_split_words(a, b):
    assert rouge([a], [b], ["rouge1"]) == {"rouge1": 1.0}


def test_zero_width_space_still_separates():
    assert rouge(["ab\u200bcd"], ["ab cd"], ["rouge1"]) == {"rouge1": 1.0}


def test_whitespace_tokenizer_with_stemming_is_case_consistent():
    def f(a: str, b: str) -> float:
        got = rouge([a], [b], ["rouge1"], tokenizer="whitespace", use_stemmer=True)
        return float(got["rouge1"])

    assert f("Apple", "apple") == f("The", "the") == 1.0
    assert rouge(["The"], ["the"], ["rouge1"], tokenizer="whitespace") == {"rouge1": 0.0}


# --- 17-20: readers ------------------------------------------------------------------------


def test_csv_quoted_newline_is_kept(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text('prediction,reference\n"alpha beta\ngamma delta",x\n', encoding="utf-8")
    assert read_table(path) == (["alpha beta\ngamma delta"], [["x"]])


def test_jsonl_records_are_split_at_newlines_only(tmp_path):
    path = tmp_path / "d.jsonl"
    record = {"prediction": "a\u2028b\u2029c\x85d", "reference": "x"}
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    assert read_table(path) == (["a\u2028b\u2029c\x85d"], [["x"]])


def test_long_csv_field_is_read(tmp_path):
    path = tmp_path / "d.csv"
    long_text = "word " * 40_000  # 200,000 characters, past csv's default 131,072
    path.write_text(f"prediction,reference\n{long_text},x\n", encoding="utf-8")
    assert read_table(path)[0] == [long_text]


def test_deep_jsonl_nesting_is_an_input_error(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 1 is nested too deeply"):
        read_table(path)


def test_non_text_cells_are_input_errors(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text('{"prediction": 3, "reference": "x"}\n', encoding="utf-8")
    with pytest.raises(InputError, match="line 1: 'prediction' must be a text"):
        read_table(path)
    path.write_text('{"prediction": "a", "references": []}\n', encoding="utf-8")
    with pytest.raises(InputError, match="references must be a text or a list of texts"):
        read_table(path)


def test_csv_unterminated_quote_is_an_error_at_its_line(tmp_path):
    path = tmp_path / "d.csv"
    rows = "".join(f"p{k},r{k}\n" for k in range(1000))
    # the quote opened on line 3 would swallow the 1,000 rows after it as one field
    path.write_text(f'prediction,reference\na,b\n"c,d\n{rows}', encoding="utf-8")
    with pytest.raises(InputError, match=r"d.csv: CSV line 3: a quoted field opened here is never"):
        read_table(path)


def test_csv_stray_quote_is_an_error_at_its_line(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text('prediction,reference\na,b\n"c"d,e\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"d.csv: CSV line 3: ',' expected after '\"'"):
        read_table(path)


@pytest.mark.parametrize("row", ["a,b,c", "a"])
def test_csv_row_with_more_or_fewer_fields_than_the_header_is_an_error(tmp_path, row):
    path = tmp_path / "d.csv"
    path.write_text(f'prediction,reference\n"x\ny",z\n{row}\n', encoding="utf-8")
    # the quoted line break makes the bad row line 4 of the file, record 2
    with pytest.raises(InputError, match=r"d.csv: CSV line 4: expected 2 fields as in the header"):
        read_table(path)


def test_json_integer_past_the_digit_limit_is_an_input_error(tmp_path):
    path = tmp_path / "d.jsonl"
    good = json.dumps({"prediction": "a", "reference": "b"})
    path.write_text(f'{good}\n\n{{"prediction": "a", "reference": "b", "n": {"9" * 5000}}}\n')
    with pytest.raises(InputError, match=r"d.jsonl: line 3 is not usable JSON \(Exceeds the limit"):
        read_table(path)


def test_row_errors_name_the_line_of_the_file(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text('\n{"prediction": "a", "reference": "b"}\n\n{"prediction": "a"}\n')
    with pytest.raises(InputError, match="d.jsonl: line 4 needs a 'prediction' column"):
        read_table(path)


def test_concurrent_csv_reads_from_four_threads_need_no_global_change(tmp_path):
    """Four threads read a CSV with a field past csv's default limit, 15 times each, while the
    limit is watched: no read fails, and no read changes the process-wide setting."""
    import threading

    path = tmp_path / "d.csv"
    long_text = "word " * 40_000  # 200,000 characters
    path.write_text(f"prediction,reference\n{long_text},x\n", encoding="utf-8")
    limit = csv.field_size_limit()
    assert limit >= 200_000  # raised once when the reader module was imported
    errors: list[BaseException] = []
    seen_limits: set[int] = set()

    def work() -> None:
        for _ in range(15):
            try:
                assert read_table(path) == ([long_text], [["x"]])
            except BaseException as error:  # noqa: BLE001 - reported below
                errors.append(error)
            seen_limits.add(csv.field_size_limit())

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and seen_limits == {limit} and csv.field_size_limit() == limit


_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40
)


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.tuples(_text, st.lists(_text, min_size=1, max_size=3)), min_size=1))
def test_readers_round_trip_what_csv_and_json_write(rows):
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        jsonl = Path(folder) / "d.jsonl"
        lines = [json.dumps({"prediction": p, "references": r}) for p, r in rows]
        jsonl.write_text("\ufeff" + "\n".join(lines) + "\r\n", encoding="utf-8")
        assert read_table(jsonl) == ([p for p, _ in rows], [r for _, r in rows])
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(["prediction", "references"])
        for p, r in rows:
            writer.writerow([p, json.dumps(r, ensure_ascii=False)])
        table = Path(folder) / "d.csv"
        table.write_bytes(buffer.getvalue().encode("utf-8"))
        assert read_table(table) == ([p for p, _ in rows], [r for _, r in rows])


# --- 21-24: the command line ---------------------------------------------------------------


def test_cli_csv_to_a_missing_folder_fails_before_scoring(tmp_path):
    (tmp_path / "p.txt").write_text("a b\n")
    (tmp_path / "r.txt").write_text("a c\n")
    done = cli("-p", "p.txt", "-r", "r.txt", "--csv", "/nonexistent/dir/x.csv", cwd=tmp_path)
    assert_one_line_error(done, "--csv /nonexistent/dir/x.csv: cannot be written")
    assert done.stdout == b""  # nothing printed before the error
    done = cli("-p", "p.txt", "-r", "r.txt", "--csv", str(tmp_path), cwd=tmp_path)
    assert_one_line_error(done, "cannot be written")


@pytest.mark.parametrize("level", ["0", "1", "nan"])
def test_cli_confidence_out_of_range(tmp_path, level):
    (tmp_path / "p.txt").write_text("a b\n")
    done = cli("-p", "p.txt", "-r", "p.txt", "--confidence", level, cwd=tmp_path)
    assert_one_line_error(done, "confidence_level")


@pytest.mark.parametrize("command", ["l-f1", "n-recall"])
def test_cli_exercises_refuse_non_utf8(command):
    stdin = b"1\ncaf\xe9 au lait\ncaf\xe9\n" if command == "n-recall" else b"caf\xe9 a\ncaf\xe9\n"
    assert_one_line_error(cli(command, stdin=stdin), "stdin: not valid UTF-8")


def test_cli_n_recall_with_huge_n():
    assert_one_line_error(cli("n-recall", stdin=b"1" + b"0" * 30 + b"\na b\na b\n"), "rouge")


# --- issue 24: every value that enters C, a str subclass read as the str it is -----------------


class _LowerIs(str):
    """A str whose own lower() returns something else (the crashing input of issue 24)."""

    result: object = 42

    def lower(self):  # type: ignore[override]
        return self.result


def _lower_is(result: object) -> type[str]:
    return type("LowerIs", (_LowerIs,), {"result": result})


class _AllEqual(str):
    """A str equal to every other (the native path once deduplicated sentences in a dict)."""

    def __eq__(self, other):  # type: ignore[override]
        return True

    def __hash__(self):  # type: ignore[override]
        return 0


def _numbers(scores) -> list:
    """Every number of a Scores, for exact comparison."""
    return [scores.precision.tolist(), scores.recall.tolist(), scores.fmeasure.tolist()]


_SUBCLASS_PREDS = ["Café au lait. The cat sat.", "naïve résumé\nthe mat"]
_SUBCLASS_REFS = ["The cat sat on the mat. Café noir.", "a naïve cat\non the mat"]


def _subclass_splitter(cls: type[str]):
    def split(text: str) -> list[str]:
        return [cls(s) for s in text.replace("\n", ". ").split(". ") if s]

    return split


@pytest.mark.parametrize("lower", [42, None, b"bytes", "plain", "odd"])
@pytest.mark.parametrize("tokenizer", ["rouge_score", "unicode", "whitespace"])
def test_splitter_sentences_of_a_str_subclass_score_as_their_str(engine, lower, tokenizer):
    # lower() -> 42 segfaulted the native engine (encode_ascii_runs / tokenize_unicode read the
    # result as a str); -> None scored 0.0 or 1.0 there while the Python engine raised.
    if lower == "odd":
        lower = _lower_is(7)("nested")  # a subclass whose lower() is itself odd
    cls = _lower_is(lower)
    types = ["rougeLsum"]
    got = score(
        _SUBCLASS_PREDS,
        _SUBCLASS_REFS,
        types,
        tokenizer=tokenizer,
        lsum_split=_subclass_splitter(cls),
    )
    expected = score(
        _SUBCLASS_PREDS,
        _SUBCLASS_REFS,
        types,
        tokenizer=tokenizer,
        lsum_split=_subclass_splitter(str),
    )
    assert _numbers(got) == _numbers(expected)


def test_splitter_sentences_that_equal_everything_are_not_merged(engine):
    # 1.0 (native: the sentences deduplicated in a dict) vs 0.75 (Python) before.
    preds, refs = ["a b. c d"], ["a b. e f"]
    got = score(preds, refs, ["rougeLsum"], lsum_split=_subclass_splitter(_AllEqual))
    expected = score(preds, refs, ["rougeLsum"], lsum_split=_subclass_splitter(str))
    assert _numbers(got) == _numbers(expected) and got.fmeasure[0][0] < 1.0


@pytest.mark.parametrize("cls", [_lower_is(42), _lower_is(None), _AllEqual])
def test_tokenizer_tokens_of_a_str_subclass_count_as_their_str(engine, cls):
    def tokenize(text: str) -> list[str]:
        return [cls(t) for t in text.lower().split()]

    preds, refs = ["the cat sat on the mat", "x y"], ["the cat lay on a mat", "z w"]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    got = score(preds, refs, types, tokenizer=tokenize, use_stemmer=True)
    expected = score(preds, refs, types, tokenizer=lambda t: t.lower().split(), use_stemmer=True)
    assert _numbers(got) == _numbers(expected)


def test_texts_of_a_str_subclass_score_as_their_str(engine):
    cls = _lower_is(None)
    preds, refs = [cls("Café au lait")], [cls("CAFÉ noir")]
    for tokenizer in ("rouge_score", "unicode"):
        got = score(preds, refs, ["rouge1", "rougeLsum"], tokenizer=tokenizer)
        expected = score(
            ["Café au lait"], ["CAFÉ noir"], ["rouge1", "rougeLsum"], tokenizer=tokenizer
        )
        assert _numbers(got) == _numbers(expected)


def test_rouge_scorer_score_tokenizes_the_checked_texts(engine):
    # RougeScorer.score checked its texts but tokenized the originals: 1.0 vs score_batch's 0.0.
    from rouge_lcs.dropins.rouge_scorer import RougeScorer

    same = _lower_is("same words")
    target, prediction = same("alpha beta"), same("gamma delta")
    scorer = RougeScorer(["rouge1", "rougeL"])
    single = scorer.score(target, prediction)
    batch = scorer.score_batch([target], [prediction])[0]
    multi = scorer.score_multi([target], prediction)
    assert single == batch == multi
    assert single["rouge1"].fmeasure == 0.0


def test_the_crashing_splitter_does_not_kill_the_process(engine, tmp_path):
    # The exact input of issue 24, in a child process: a segfault there fails this test
    # instead of the whole run.
    code = """
from rouge_lcs import rouge
class Odd(str):
    def lower(self):
        return 42
split = lambda text: [Odd(s) for s in text.split(". ")]
print(rouge(["Café au lait. The cat"], ["Café noir. The cat"], ["rougeLsum"], lsum_split=split,
            tokenizer="rouge_score")["rougeLsum"])
"""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stderr
    assert (
        float(done.stdout)
        == rouge(
            ["Café au lait. The cat"],
            ["Café noir. The cat"],
            ["rougeLsum"],
            lsum_split=lambda t: t.split(". "),
            tokenizer="rouge_score",
        )["rougeLsum"]
    )


# --- issue 24: the private entry points check their arguments ----------------------------------


def _ext():
    from rouge_lcs.engine import native

    if not native.available():
        pytest.skip("rouge_lcs._native not built")
    return native._native


def _counts_args(n_pairs=1, types=(0, 1), out=None):
    ids = np.zeros(2, np.int32)
    starts = np.array([0, 2], np.int64)
    pairs = np.zeros(n_pairs, np.int64)
    types_ = np.array(types, np.int64)
    if out is None:
        out = np.zeros((n_pairs, len(types) // 2, 3), np.int64)
    return [
        ids,
        starts,
        np.zeros(0, np.int32),
        np.zeros(1, np.int64),
        np.zeros(2, np.int64),
        pairs,
        pairs.copy(),
        types_,
        1,
        out,
        1,
    ]


def test_counts_rejects_sizes_that_overflow_and_overlapping_output():
    m = _ext()
    m.counts(*_counts_args())  # well-formed
    # an output of the wrong size (its size is pairs x types x 3, in checked arithmetic)
    args = _counts_args(n_pairs=3)
    args[9] = np.zeros(3 * 1 * 3 - 1, np.int64)
    with pytest.raises(ValueError, match="inconsistent"):
        m.counts(*args)
    # the output sharing memory with an input (the kernel would write the ids it reads)
    shared = np.zeros(8, np.int64)
    args = _counts_args()
    args[1] = shared[:2]
    args[1][:] = [0, 2]
    args[9] = shared[1:4]  # its first value is doc_start[1]
    with pytest.raises(ValueError, match="overlaps"):
        m.counts(*args)
    args = _counts_args()
    args[9] = args[5]  # out is pair_pred
    with pytest.raises(ValueError):
        m.counts(*args)
    for bad_types in ((3, 1), (0, 0), (0, 2**40), (-1, 1)):
        with pytest.raises(ValueError, match="rouge type"):
            m.counts(*_counts_args(types=bad_types))
    with pytest.raises(ValueError, match="vocab"):
        m.counts(*_counts_args()[:8], 2**40, *_counts_args()[9:])


def test_rouge155_skip_checks_its_arguments():
    m = _ext()
    tokens = np.array([1, 2, 3, 1, 2], np.int32)
    starts = np.array([0, 5], np.int64)
    pair = np.zeros(1, np.int64)
    out = np.zeros(3, np.int64)
    # a distance near INT64_MAX (i + skip + 2 overflowed) is "any distance"
    m.rouge155_skip(tokens, starts, pair, pair, 2**63 - 1, True, out)
    expected = np.zeros(3, np.int64)
    m.rouge155_skip(tokens, starts, pair, pair, -1, True, expected)
    assert out.tolist() == expected.tolist()
    shared = np.zeros(4, np.int64)
    with pytest.raises(ValueError, match="overlaps"):
        m.rouge155_skip(tokens, starts, shared[:1], pair, 2, True, shared[0:3])
    with pytest.raises(ValueError, match="inconsistent"):
        m.rouge155_skip(tokens, starts, pair, pair, 2, True, np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="out of range"):
        m.rouge155_skip(tokens, starts, pair + 1, pair, 2, True, out)
    with pytest.raises(ValueError):
        m.rouge155_skip(tokens, starts[::-1].copy(), pair, pair, 2, True, out)
    with pytest.raises(ValueError):
        m.rouge155_skip(-tokens, starts, pair, pair, 2, True, out)


def test_rouge155_tokens_checks_its_arguments():
    m = _ext()
    ids, tokens = m.rouge155_tokens(b"The cat\nthe CAT", True)
    assert tokens == ["the", "cat"] and np.frombuffer(ids, np.int32).tolist() == [0, 1, -1, 0, 1]
    with pytest.raises(TypeError):
        m.rouge155_tokens("text", True)


def test_encoder_checks_its_arguments_and_refuses_reentry():
    m = _ext()
    with pytest.raises(ValueError):
        m.Encoder(7)
    with pytest.raises(TypeError):
        m.Encoder(m.MODE_PYTHON, None)
    with pytest.raises(TypeError):
        m.Encoder(m.MODE_ROUGE_SCORE, None, 42)
    encoder = m.Encoder(m.MODE_ROUGE_SCORE)
    with pytest.raises(RuntimeError):
        encoder.__init__(m.MODE_ROUGE_SCORE)
    with pytest.raises(RuntimeError, match="not initialized"):
        m.Encoder.__new__(m.Encoder).encode(["a"])
    with pytest.raises(TypeError):
        encoder.encode("not a list")
    with pytest.raises(TypeError):
        encoder.encode([b"bytes"])
    with pytest.raises(ValueError, match="split_mode"):
        encoder.encode_sentences(["a"], 9, None)
    with pytest.raises(TypeError, match="callable"):
        encoder.encode_sentences(["a. b"], 2, None)
    # a subclass text with an odd lower(): read as its str
    cls = _lower_is(42)
    assert encoder.encode([cls("Café AU lait")]) == encoder.encode(["Café AU lait"])
    # a splitter (called from C) returning odd values
    with pytest.raises(TypeError, match="list of str"):
        encoder.encode_sentences(["x. y z. w"], 2, lambda t: "x")
    with pytest.raises(TypeError, match="item of type int"):
        encoder.encode_sentences(["x. y z. w"], 2, lambda t: [1])
    subclass_split = encoder.encode_sentences(["x. Y z. w"], 2, lambda t: [cls(t)])
    assert subclass_split == encoder.encode_sentences(["x. Y z. w"], 2, lambda t: [t])
    # re-entry from the Python code the encoder calls
    inner = m.Encoder(m.MODE_PYTHON, lambda text: inner.encode(["a"]) and text.split())
    with pytest.raises(RuntimeError, match="re-entrant"):
        inner.encode(["a b"])
    assert inner.encode([]) == (b"", np.zeros(1, np.int64).tobytes())  # usable afterwards
    # a tokenizer that empties the list being encoded
    texts = ["a b", "c d", "e f"]
    clearing = m.Encoder(m.MODE_PYTHON, lambda text: (texts.clear(), text.split())[1])
    ids, offsets = clearing.encode(texts)
    assert np.frombuffer(offsets, np.int64).tolist() == [0, 2, 4, 6]


def test_stage_entry_points_read_a_subclass_as_its_str():
    m = _ext()
    from rouge_lcs.engine import native
    from rouge_lcs.text.sentences import nltk_punkt

    cls = _lower_is(None)
    text = "Mr. Smith went to Washington. He arrived at 5 p.m. on Friday. Café! Done."
    model = m.PunktModel(*nltk_punkt().tables)
    assert m.punkt_spans(cls(text), model) == m.punkt_spans(text, model)
    assert m._test_unicode_tokens(cls("Café AU lait"), native._normalize) == m._test_unicode_tokens(
        "Café AU lait", native._normalize
    )
    with pytest.raises(TypeError):
        m._test_unicode_tokens("text", 42)
    with pytest.raises(TypeError):
        m._test_unicode_tokens("Café", lambda form, text: 42)
    assert m._test_porter_stem(cls("Running")) == m._test_porter_stem("Running")
    with pytest.raises(TypeError):
        m.punkt_spans(text, nltk_punkt().tables)


# --- Punkt on the text stage's threads (csrc/punkt.h, punkt_tables.h) ---------------------------


def _punkt_threads_ready():
    m = _ext()
    from rouge_lcs.engine import native

    if not native.native_unicode() or not m.PUNKT_CASE_TABLE:
        pytest.skip("Punkt in C is not used with this regex / Unicode version")
    return m, native


_HOSTILE_PUNKT = [
    "\ud800. \udfff. x. \udbff\udc00? Yes.",  # lone and paired surrogates
    "A.\x00 B. \x00\x00. C",  # NUL
    "." * 100_000,
    ". " * 60_000 + "Z",
    "Mr. " * 30_000 + "X.",
    "?!" * 40_000,
    '")' * 30_000 + ". Next. One.",
    "a" * 300_000 + ". B. c",
    "\u2029. \x85. \u3000A. b. \xa0C.",
    "!!! ... ??? --- ;;; ,,, ...",
    "İ. Σ. ΑΣ. σ.",  # characters whose lowercase the C tables leave to CPython
    "1. 2. 3. ##number## 4.5. -3. ,5.",
]


@pytest.mark.parametrize("threads", [1, 2])
def test_threaded_punkt_survives_hostile_texts(threads):
    # Through the engine's own call: spans equal the Python port's on each text, never a crash;
    # str subclasses (whose lower() lies) count by their characters.
    m, native = _punkt_threads_ready()
    from rouge_lcs.config.settings import make_settings
    from rouge_lcs.text.sentences import nltk_split

    settings = make_settings(["rougeLsum"], tokenizer="rouge_score")
    texts = _HOSTILE_PUNKT + [_lower_is(42)(t) for t in _HOSTILE_PUNKT[:3]]
    encoder = native._encoder_for(settings)
    got = encoder.encode_sentences(texts, 2, native._punkt_split(), threads)
    python = native._encoder_for(settings)
    want = python.encode_sentences([str(t) for t in texts], 2, nltk_split, threads)
    assert np.frombuffer(got[1], np.int64).tolist() == np.frombuffer(want[1], np.int64).tolist()
    assert np.frombuffer(got[2], np.int64).tolist() == np.frombuffer(want[2], np.int64).tolist()
    assert encoder.last_punkt_threads >= 1
    assert rouge(texts, texts[::-1], rouge_types=["rougeLsum"], num_threads=threads)


def test_every_model_survives_hostile_texts():
    m, native = _punkt_threads_ready()
    from rouge_lcs.text.languages import LANGUAGES
    from rouge_lcs.text.sentences import punkt_of

    models = sorted({lang.punkt for lang in LANGUAGES.values() if lang.punkt}) + [None]
    for model in models:
        c_model = native._c_model(model)
        python = punkt_of(model)
        for text in _HOSTILE_PUNKT:
            assert m.punkt_spans(text, c_model) == python.spans(text), (model, text[:20])


def test_punkt_models_check_their_tables():
    m = _ext()
    with pytest.raises(TypeError):
        m.PunktModel(".", [1], (), (), {})
    with pytest.raises(TypeError):
        m.PunktModel(".", (), [("a",)], (), {})
    with pytest.raises(TypeError):
        m.PunktModel(".", (), (), (), {"a": "b"})
    with pytest.raises(ValueError):
        m.PunktModel("." * 17, (), (), (), {})
    with pytest.raises(TypeError):
        m.punkt_model_from_source("not bytes", ".")
    model = m.PunktModel(".?!", [_lower_is(1)("dr")], [("a", "b")], (), {"x": -1, "y": 10**30})
    assert model._test_tables()[1:] == (
        frozenset({"dr"}),
        frozenset({("a", "b")}),
        frozenset(),
        {"x": 127, "y": 10**30 & 127},
    )
    # a splitter whose model is not one: a TypeError, not a crash
    from rouge_lcs.config.settings import make_settings
    from rouge_lcs.engine import native

    class Odd:
        def __call__(self, text):
            return [text]

        def punkt_model(self):
            return 42

    encoder = native._encoder_for(make_settings(["rougeLsum"], tokenizer="rouge_score"))
    if m.PUNKT_CASE_TABLE:
        with pytest.raises(TypeError):
            encoder.encode_sentences(["A b. C d."], 1, Odd(), 2)
    assert encoder.encode_sentences(["A b c"], 1, Odd(), 2)  # the shortcut needs no model


def test_a_csv_header_naming_a_column_twice_is_refused_by_name(tmp_path):
    from rouge_lcs.cli.io import InputError, read_table

    data = tmp_path / "pairs.csv"
    data.write_text("prediction,prediction,reference\na,b,c\n", "utf-8")
    with pytest.raises(
        InputError, match="CSV line 1: the header names the column 'prediction' twice"
    ):
        read_table(data)
