"""Hostile inputs (issue 15): each defect found by a hostile tester, as a regression test.

Library: one clear TypeError/ValueError, bounded memory and time, thread safety.  CLI: one line
on stderr and exit 2, never a traceback.  Readers: what csv/json themselves write reads back.
"""

from __future__ import annotations

import csv
import io
import json
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
    import evaluate

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
