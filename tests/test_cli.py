"""The command line, driven as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def run(*args: str, stdin: str | None = None, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rouge_lcs", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
    )


def test_no_arguments_scores_the_bundled_examples():
    done = run()
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    korean = next(line for line in lines if line.startswith("seed003-ko "))
    assert korean.split()[1:] == ["0.4286", "0.1667", "0.2857", "0.2857"]
    assert any(line.split()[:1] == ["rougeLsum"] for line in lines)
    assert "precision" in done.stdout and "recall" in done.stdout


def test_score_files(tmp_path):
    (tmp_path / "pred.txt").write_text("the cat sat on the mat\n서울은 대한민국의 수도이다\n")
    (tmp_path / "ref.txt").write_text("the cat sat on a rug\n서울은 대한민국의 수도이다\n")
    done = run(
        "--predictions",
        "pred.txt",
        "--references",
        "ref.txt",
        "--json",
        "--rouge-types",
        "rouge1",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    # (4/6 recall, 4/6 precision) and a perfect Korean pair.
    assert result["rouge1"]["recall"] == pytest.approx((4 / 6 + 1) / 2)
    assert result["n"] == 2


def test_mismatched_line_counts_name_each_file(tmp_path):
    (tmp_path / "pred.txt").write_text("a\nb\nc\n")
    (tmp_path / "ref.txt").write_text("a\nb\n")
    done = run("score", "-p", "pred.txt", "-r", "ref.txt", cwd=tmp_path)
    assert done.returncode == 2
    assert "pred.txt: 3 lines" in done.stderr and "ref.txt: 2 lines" in done.stderr


def test_missing_file_and_bad_encoding(tmp_path):
    (tmp_path / "latin1.txt").write_bytes("caf\xe9\n".encode("latin-1"))
    (tmp_path / "ok.txt").write_text("cafe\n")
    missing = run("-p", "nope.txt", "-r", "ok.txt", cwd=tmp_path)
    assert missing.returncode == 2 and "nope.txt: no such file" in missing.stderr
    bad = run("-p", "latin1.txt", "-r", "ok.txt", cwd=tmp_path)
    assert bad.returncode == 2 and "not valid UTF-8 (line 1" in bad.stderr
