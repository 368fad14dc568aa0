"""``rouge-lcs dedup`` and ``similar`` on Parquet files: the real command on real files.

The kept rows, matches and neighbours must equal the list-of-str calls of
:mod:`rouge_lcs.similarity` on the same texts (those are checked against the Alpaca /
Self-Instruct loop with rouge_score in tests/similarity/test_similarity.py); files span several
record batches (the batch size is made small in-process, and one run goes through a
subprocess at the real size).
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys

import pytest

from rouge_lcs.cli import columns
from rouge_lcs.cli import similarity as cli_similarity
from rouge_lcs.cli.main import main
from rouge_lcs.similarity import SimilarityIndex, dedup

pa = pytest.importorskip(
    "pyarrow", reason="pyarrow is not installed (pip install rouge-lcs[arrow])"
)
pq = pytest.importorskip("pyarrow.parquet")


def real_texts(corpora, count: int) -> list[str]:
    """Headline references and Korean questions, then a few repeated and near-repeated."""
    texts = [ref for row in corpora.rows("en_headlines_rougemetric") for ref in row["references"]]
    for row in corpora.rows("ko_question_pair"):
        texts += [row["prediction"], *row["references"]]
    texts = texts[:count]
    return texts + texts[:7] + [t + " again" for t in texts[10:20]]


@pytest.fixture
def small_batches(monkeypatch):
    """Record batches of 16 rows, so that small files span many."""
    monkeypatch.setattr(columns, "BATCH_ROWS", 16)
    monkeypatch.setattr(cli_similarity, "BATCH_ROWS", 16)


def write(path, **data) -> str:
    pq.write_table(pa.table(data), path, row_group_size=50)
    return str(path)


def jsonl(path) -> list[dict]:
    return [json.loads(line) for line in open(path, encoding="utf-8")]


def test_dedup_parquet_equals_the_list_api(tmp_path, corpora, small_batches, capfd):
    texts = real_texts(corpora, 130)
    seeds = texts[100:125]
    data = write(tmp_path / "x.parquet", text=texts, n=list(range(len(texts))))
    seed_file = write(tmp_path / "seeds.parquet", text=seeds)
    options = ["--tokenizer", "rouge_score"]
    want = dedup(texts, seeds=seeds, neighbors=3, tokenizer="rouge_score")
    assert 0 < len(want.kept) < len(texts) and want.matches
    kept_file, dropped_file = tmp_path / "kept.parquet", tmp_path / "dropped.parquet"
    argv = ["dedup", "--data", data, "--column", "text", "--seeds", seed_file, *options]
    status = main([*argv, "--neighbors", "3", "-o", str(kept_file), "--dropped", str(dropped_file)])
    assert status == 0
    assert "rows/s" in capfd.readouterr().err
    kept = pq.read_table(kept_file)
    assert kept["n"].to_pylist() == want.kept  # every input column kept
    assert kept["text"].to_pylist() == [texts[i] for i in want.kept]
    pool = seeds + texts
    assert want.neighbors is not None
    assert kept["neighbors"].to_pylist() == [
        [{"text": pool[j], "score": v} for j, v in want.neighbors[i]] for i in want.kept
    ]
    dropped = pq.read_table(dropped_file).to_pylist()
    assert dropped == [
        {"index": i, "text": texts[i], "match_index": j, "match": pool[j], "score": v}
        for i, (j, v) in sorted(want.matches.items())
    ]
    # the same as JSONL (stdout by default) and with seeds from a text file
    (tmp_path / "seeds.txt").write_text("".join(s + "\n" for s in seeds), "utf-8")
    argv = ["dedup", "--data", data, "--seeds", str(tmp_path / "seeds.txt"), *options]
    assert main([*argv, "--neighbors", "3"]) == 0
    rows = [json.loads(line) for line in capfd.readouterr().out.splitlines()]
    assert rows == kept.to_pylist()
    assert main([*argv, "--dropped", str(tmp_path / "dropped.jsonl")]) == 0
    assert jsonl(tmp_path / "dropped.jsonl") == dropped


def test_dedup_parquet_to_every_format(tmp_path, corpora, small_batches):
    texts = real_texts(corpora, 60)
    data = write(tmp_path / "x.parquet", id=[f"r{k}" for k in range(len(texts))], text=texts)
    kept = dedup(texts).kept
    want = [{"id": f"r{k}", "text": texts[k]} for k in kept]
    for name in ("kept.jsonl", "kept.csv", "kept.tsv", "kept.txt", "kept.parquet"):
        out = tmp_path / name
        assert main(["dedup", data, "-o", str(out)]) == 0, name  # the input as INPUT too
        if name.endswith(".jsonl"):
            assert jsonl(out) == want
        elif name.endswith(".txt"):
            assert out.read_text("utf-8").splitlines() == [texts[k] for k in kept]
        elif name.endswith(".parquet"):
            assert pq.read_table(out).to_pylist() == want
        else:
            with out.open(newline="", encoding="utf-8") as handle:
                dialect = "excel-tab" if name.endswith(".tsv") else "excel"
                assert list(csv.DictReader(handle, dialect=dialect)) == want
    # a JSONL input to a Parquet output: its records as a table
    source = tmp_path / "x.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in want + want[:3]), "utf-8")
    assert main(["dedup", str(source), "-o", str(tmp_path / "again.parquet")]) == 0
    assert pq.read_table(tmp_path / "again.parquet").to_pylist() == want


def test_similar_parquet_equals_the_index(tmp_path, corpora, small_batches, capfd):
    texts = real_texts(corpora, 120)
    queries, corpus = texts[::3], texts[1::2]
    index = SimilarityIndex(corpus, rouge_type="rouge2")
    want = [
        {
            "query_index": k,
            "query": q,
            "matches": [
                {"index": i, "text": t, "score": v}
                for t, v, i in index.extract(q, limit=4, score_cutoff=0.05)
            ],
        }
        for k, q in enumerate(queries)
    ]
    assert sum(len(w["matches"]) for w in want) > len(queries)
    qfile = write(tmp_path / "q.parquet", text=queries)
    cfile = write(tmp_path / "c.parquet", body=corpus)
    common = ["--top-k", "4", "--score-cutoff", "0.05", "--rouge-type", "rouge2"]
    # --column names the text column of both files: the corpus here has none called so
    assert main(["similar", "--data", qfile, "--corpus", cfile, *common]) == 2
    assert "no column 'text'" in capfd.readouterr().err
    cfile = write(tmp_path / "c.parquet", text=corpus)
    out = tmp_path / "similar.parquet"
    assert main(["similar", "--data", qfile, "--corpus", cfile, *common, "-o", str(out)]) == 0
    assert pq.read_table(out).to_pylist() == want
    assert "rows/s" in capfd.readouterr().err
    assert main(["similar", qfile, cfile, *common]) == 0  # positional, to stdout
    assert [json.loads(line) for line in capfd.readouterr().out.splitlines()] == want
    # text files in, CSV out (matches as JSON)
    (tmp_path / "q.txt").write_text("".join(q + "\n" for q in queries), "utf-8")
    out = tmp_path / "similar.csv"
    assert main(["similar", str(tmp_path / "q.txt"), cfile, *common, "-o", str(out)]) == 0
    with out.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [json.loads(r["matches"]) for r in rows] == [w["matches"] for w in want]
    assert [r["query"] for r in rows] == queries


@pytest.mark.parametrize("command", ["dedup", "similar"])
def test_bad_columns_are_one_line_naming_the_row(tmp_path, capfd, small_batches, command):
    texts = [f"text number {k}" for k in range(40)]
    extra = [] if command == "dedup" else ["--corpus", write(tmp_path / "c.parquet", text=texts)]

    def error(**data) -> str:
        path = write(tmp_path / "bad.parquet", **data)
        assert main([command, "--data", path, *extra]) == 2
        out, err = capfd.readouterr()
        assert err.count("\n") == 1 and err.startswith("rouge-lcs: error: ") and not out
        return err

    # a null in the third record batch is named by its row in the file
    err = error(text=texts[:37] + [None] + texts[38:])
    assert "bad.parquet: row 37 (counting from 0) of column 'text' is null" in err
    assert "holds int64, not text" in error(text=list(range(40)))
    assert "no column 'text' (--column); its columns: ['body']" in error(body=texts)
    (tmp_path / "bad.parquet").write_text("not parquet")
    assert main([command, "--data", str(tmp_path / "bad.parquet"), *extra]) == 2
    assert "cannot be read as Parquet" in capfd.readouterr().err


def test_refused_before_the_work(tmp_path, capfd):
    data = write(tmp_path / "x.parquet", text=["one\ntwo", "three"])
    kept = tmp_path / "kept.txt"
    assert main(["dedup", "--data", data, "-o", str(kept)]) == 2
    assert "row 0 (counting from 0) has a line break" in capfd.readouterr().err
    assert not kept.exists()
    assert main(["dedup", "--data", data, "--neighbors", "2", "-o", str(tmp_path / "k.csv")]) == 2
    assert "JSONL or Parquet output" in capfd.readouterr().err
    assert main(["dedup", data, "--data", data]) == 2
    assert "not both" in capfd.readouterr().err
    assert main(["dedup"]) == 2
    assert "missing the input" in capfd.readouterr().err
    assert main(["similar", "--data", data]) == 2
    assert "--data QUERIES --corpus CORPUS" in capfd.readouterr().err
    assert main(["dedup", "--data", str(tmp_path / "none.parquet")]) == 2
    assert "none.parquet: no such file" in capfd.readouterr().err
    # no file is left behind by a run that fails
    assert main(["dedup", "--data", data, "--column", "nope", "-o", str(tmp_path / "k.pq")]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.parquet"]


@pytest.mark.slow  # ~16,900 rows deduplicated: minutes on the reference engine
def test_the_command_streams_a_file_of_many_batches(tmp_path, corpora, repo):
    """The installed command in a fresh process, at the real batch size."""
    texts = real_texts(corpora, 200)
    rows = [f"{texts[k % len(texts)]} {k // len(texts)}" for k in range(columns.BATCH_ROWS + 500)]
    data = write(tmp_path / "x.parquet", text=rows)
    out = tmp_path / "kept.parquet"
    run = subprocess.run(
        [sys.executable, "-m", "rouge_lcs", "dedup", "--data", data, "-o", str(out),
         "--rouge-type", "rouge1", "--threshold", "0.9"],
        env={**os.environ, "PYTHONPATH": str(repo)}, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    assert "rows/s" in run.stderr
    want = dedup(rows, rouge_type="rouge1", threshold=0.9).kept
    assert pq.read_table(out)["text"].to_pylist() == [rows[k] for k in want]
