"""``rouge-lcs score --data FILE.parquet``: the streamed path refuses bad rows as the library
does, writes its output beside the target and renames it on success, and checks the output
before any work.  Run as a user runs it: a subprocess (a fresh interpreter, where no other
test has imported a pyarrow submodule) or the command's ``main``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from rouge_lcs import score
from rouge_lcs.cli import columns, stream
from rouge_lcs.cli.main import main

sys.path.insert(0, str(Path(__file__).parents[1]))
from test_hostile import assert_one_line_error, cli  # noqa: E402

pa = pytest.importorskip(
    "pyarrow", reason="pyarrow is not installed (pip install rouge-lcs[arrow])"
)
pq = pytest.importorskip("pyarrow.parquet")


def one_line_error(*args: str) -> str:
    """The one line of ``rouge-lcs ARGS``'s refusal (exit 2, no traceback)."""
    done = cli(*args)
    assert_one_line_error(done)
    return done.stderr.decode()


@pytest.mark.parametrize("column", ["prediction", "references"])
def test_a_null_in_the_first_batch_is_one_line_naming_the_row(tmp_path, column):
    preds = ["the cat sat", "a dog ran", "birds fly"]
    refs = [["the cat sat down"], ["a dog ran off"], ["birds can fly"]]
    if column == "prediction":
        preds[1] = None
        named = "predictions[1]"
    else:
        refs[2] = None
        named = "references[2]"
    data = tmp_path / "n.parquet"
    pq.write_table(pa.table({"prediction": preds, "references": refs}), data)
    error = one_line_error("score", "--data", str(data))
    assert named in error and "null" in error


def test_an_output_that_cannot_be_written_fails_before_the_scoring(tmp_path):
    data = tmp_path / "ok.parquet"
    pq.write_table(pa.table({"prediction": ["a b"], "reference": ["a c"]}), data)
    missing = tmp_path / "no such folder" / "o.parquet"
    error = one_line_error("score", "--data", str(data), "--output", str(missing))
    assert "--output" in error and "cannot be written" in error
    assert not missing.parent.exists()


def test_an_error_after_some_batches_leaves_no_output(tmp_path, monkeypatch, capfd):
    monkeypatch.setattr(stream, "BATCH_ROWS", 4)
    monkeypatch.setattr(columns, "BATCH_ROWS", 4)
    n = 30
    preds = [f"word {k} and more" for k in range(n)]
    preds[27] = None  # in the seventh batch, after six were written
    data, out = tmp_path / "d.parquet", tmp_path / "part.parquet"
    # written without statistics: the null is found only when its batch is read
    pq.write_table(
        pa.table({"prediction": preds, "reference": ["word and more"] * n}),
        data,
        write_statistics=False,
    )
    assert main(["score", "--data", str(data), "--output", str(out)]) == 2
    assert "predictions[3]" in capfd.readouterr().err  # row 27: the fourth of rows 24 to 27
    assert sorted(os.listdir(tmp_path)) == ["d.parquet"]  # no output, no temporary file


def test_an_existing_output_is_kept_when_the_run_fails(tmp_path, capfd):
    data, out = tmp_path / "d.parquet", tmp_path / "o.parquet"
    pq.write_table(pa.table({"prediction": ["a", None], "reference": ["a", "b"]}), data)
    out.write_bytes(b"the previous result")
    assert main(["score", "--data", str(data), "--output", str(out)]) == 2
    capfd.readouterr()
    assert out.read_bytes() == b"the previous result"


def test_the_output_is_renamed_into_place_on_success(tmp_path, capfd):
    data, out = tmp_path / "d.parquet", tmp_path / "o.parquet"
    preds, refs = ["the cat sat", "a dog"], ["the cat sat down", "the dog"]
    pq.write_table(pa.table({"prediction": preds, "reference": refs}), data)
    out.write_bytes(b"the previous result")
    assert (
        main(["score", "--data", str(data), "--output", str(out), "--rouge-types", "rouge1"]) == 0
    )
    capfd.readouterr()
    assert sorted(os.listdir(tmp_path)) == ["d.parquet", "o.parquet"]
    table = pq.read_table(out)
    # unigram F by hand: 3 of 3 and 3 of 4 -> 6/7; 1 of 2 and 1 of 2 -> 1/2
    assert table.column("rouge1").to_pylist() == pytest.approx([6 / 7, 1 / 2], abs=1e-15)


def test_a_dictionary_of_string_views_is_read():
    """A dictionary column over ``string_view`` (Arrow has no take for views), given to the
    library (a Parquet file stores no views)."""
    views = pa.array(["the cat sat", "a dog"], pa.string_view())
    preds = pa.DictionaryArray.from_arrays(pa.array([0, 1, 0], pa.int32()), views)
    result = score(preds, ["the cat sat down", "the dog", "the cat"], ["rouge1"])
    # unigram F by hand: 6/7, 1/2, 2 of 3 and 2 of 2 -> 4/5
    assert result.fmeasure[:, 0].tolist() == pytest.approx([6 / 7, 1 / 2, 4 / 5], abs=1e-15)


@pytest.mark.parametrize("name", ["d.pq", "D.PARQUET"])
def test_every_parquet_suffix_is_streamed(tmp_path, capfd, name):
    data = tmp_path / name
    pq.write_table(
        pa.table({"prediction": ["the cat sat"], "reference": ["the cat sat down"]}), data
    )
    assert main(["score", "--data", str(data), "--rouge-types", "rouge1", "--json"]) == 0
    # unigram F by hand: 3 of 3 and 3 of 4 -> 6/7
    assert '"fmeasure": 0.8571428571428571' in capfd.readouterr().out
