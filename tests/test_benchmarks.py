"""Every benchmark keeps running: each ``benchmarks/*.py`` is imported against this source tree
(a name the package no longer has fails here, not in the next timing), and the ones with an
argument parser run it (``--help``), without the minutes of a real measurement."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BENCHMARKS = sorted(p.name for p in (REPO / "benchmarks").glob("bench_*.py"))


def _has_help(name: str) -> bool:
    """Whether the benchmark parses its arguments with argparse (others take sizes or suite
    names, or none, and are imported only)."""
    source = (REPO / "benchmarks" / name).read_text("utf-8")
    return "argparse.ArgumentParser" in source and "parse_args(" in source


def _bench(name: str, *args: str, timeout: int = 120, cwd: Path = REPO) -> str:
    """Run ``benchmarks/<name>`` offline against this tree; fail on a non-zero exit (with its
    output); return its stdout."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "benchmarks")]),
        "HF_HUB_OFFLINE": "1",
    }
    run = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / name), *args],
        env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-1000:] + run.stderr[-2000:]
    return run.stdout


def test_every_benchmark_is_listed():
    assert len(BENCHMARKS) >= 15, BENCHMARKS


@pytest.mark.parametrize("name", BENCHMARKS)
def test_benchmark_starts(name):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "benchmarks")])}
    if not _has_help(name):
        command = ["-c", f"import {name[:-3]}; print('usage: imported')"]
    else:
        command = [str(REPO / "benchmarks" / name), "--help"]
    run = subprocess.run(
        [sys.executable, *command],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "usage" in run.stdout.lower(), run.stdout[-500:]


def test_bench_arrow_smoke():
    """bench_arrow.py end to end on tiny input: it writes Parquet, scores both paths and
    checks that their numbers are identical (it asserts so)."""
    pytest.importorskip("pyarrow", reason="pyarrow is not installed (the test extra has it)")
    out = _bench("bench_arrow.py", "--smoke", timeout=300)
    assert out.count("identical numbers") == 2, out


def test_templated_dedup_benchmark_runs_on_a_tiny_input():
    # The three contestants on 200 templated texts: the same kept set (the run asserts it).
    out = _bench("bench_templated.py", "--count", "200", "--repeats", "1")
    assert out.count("same kept set") == 3, out


def test_bench_audit_smoke():
    """benchmarks/bench_audit.py on 20 pairs: the distinct pairs it builds and one audit."""
    out = _bench("bench_audit.py", "--smoke")
    assert "20 pairs (20 distinct," in out, out


@pytest.mark.slow
@pytest.mark.parametrize("engine,module", [("spark", "pyspark"), ("ray", "ray")])
def test_cluster_benchmark_runs_on_tiny_input(engine, module):
    import importlib.util
    import shutil

    missing = importlib.util.find_spec(module) is None or (
        engine == "spark" and shutil.which("java") is None
    )
    if missing:
        message = f"{module} (or Spark's Java runtime) is not installed: the test extra and .ci/run"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    out = _bench(
        "bench_cluster.py", "--rows", "300", "--partitions", "2", "--engine", engine, timeout=300
    )
    assert f"{engine}: 300 rows" in out and "ratio" in out, out


_ROW = re.compile(r"^\| (?P<label>[^|]+?) \| (?P<off>[\d.]+)× \| (?P<on>[\d.]+×|—) \|", re.M)


def _block(readme: str) -> str:
    start, end = readme.index("<!-- benchmarks:start -->"), readme.index("<!-- benchmarks:end -->")
    return readme[start:end]


def _agree(readme: str, page: str) -> None:
    """README's block shows the page's numbers: each of its rows is a page row (the page adds
    the pair count to the label) with the same two ratios, and the same date, load and commit."""
    block = _block(readme)
    shown = {m["label"]: (m["off"], m["on"]) for m in _ROW.finditer(block)}
    measured = {
        re.sub(r", [\d,]+ pairs$", "", m["label"]): (m["off"], m["on"]) for m in _ROW.finditer(page)
    }
    assert len(shown) == 3, block
    for label, ratios in shown.items():
        assert measured.get(label) == ratios, (label, ratios, measured)
    head = re.search(r"Headline numbers \((\S+ \S+) UTC, (\d+) CPUs, load average ([\d.]+)–([\d.]+)"
                     r", commit (\w+)", " ".join(block.split()))  # fmt: skip
    assert head is not None, block
    date, cpus, low, high, commit = head.groups()
    words = " ".join(page.split())
    assert f"Measured {date} UTC" in words and f", {cpus} CPUs;" in words, (date, cpus)
    assert f"commit {commit}" in words, commit
    loads = re.search(
        r"load average \(1 minute\) ([\d.]+) before the run and ([\d.]+) after", words
    )
    assert loads is not None
    rounded = sorted(f"{float(x):.1f}" for x in loads.groups())
    assert rounded == [low, high], (rounded, low, high)


def test_committed_readme_shows_the_committed_benchmark_page():
    """README's numbers are the ones docs/benchmarks.md measured (both written by
    benchmarks/run.py in one run), so neither can be edited alone."""
    _agree((REPO / "README.md").read_text("utf-8"), (REPO / "docs" / "benchmarks.md").read_text())


@pytest.mark.slow
def test_run_quick_writes_a_page_and_readme_that_agree(tmp_path):
    """benchmarks/run.py --quick end to end: every headline command runs on tiny input, and the
    README block it writes shows the page's numbers."""
    pytest.importorskip("rouge_score_rs", reason="rouge-score-rs is in the test extra")
    run = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "run.py"), "--quick", "--output", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    page = (tmp_path / "benchmarks.md").read_text("utf-8")
    readme = (tmp_path / "README.md").read_text("utf-8")
    _agree(readme, page)
    assert "A `--quick` run" in " ".join(page.split())  # the paragraph is wrapped
    # Only the block changed, and every benchmark script is listed on the page.
    committed = (REPO / "README.md").read_text("utf-8")
    assert readme.replace(_block(readme), "") == committed.replace(_block(committed), "")
    assert all(f"`{name}`" in page for name in BENCHMARKS)
    assert len(_ROW.findall(page)) >= 5


def test_bench_stream_smoke():
    """bench_stream.py end to end on tiny input: it writes three Parquet files, streams each
    through ``rouge-lcs score --data -o`` in a fresh interpreter and reads each one's own
    peak (one line per file, then the ratio)."""
    pytest.importorskip("pyarrow", reason="pyarrow is not installed (the test extra has it)")
    out = _bench("bench_stream.py", "--smoke", timeout=300)
    assert out.count("peak RSS") == 4 and out.count("ru_maxrss") == 3, out


# Each benchmark's ``--smoke`` run (a few pairs, one repeat) and a line its output must show.
SMOKE = {
    "bench_char.py": "| ko, 20 pairs |",
    "bench_import.py": "`python -m rouge_lcs --help` (the `rouge-lcs` CLI)",
    "bench_install.py": "native unicode True, scores same",
    "bench_kinds.py": "compat='rouge155' rougeW",
    "bench_languages.py": "Whole call, four default types, 20 pairs per language",
    "bench_loops.py": "| torchmetrics ROUGEScore |",
    "bench_memory.py": " True     200  python ",
    "bench_metric.py": "stemming on : library",
    "bench_nfkc.py": "C NFKC, 2 threads against 1",
    "bench_parallel.py": "identical: True",
    "bench_per_call.py": "all numbers equal",
    "bench_realsumm.py": "5 pairs from en_cnndm_realsumm; best of 1",
    "bench_rouge155.py": "en_headlines_rougemetric   -n 2 -m ",
    "bench_scale.py": "| floor |",
    "bench_similarity.py": "long: score of one 2,000-word query x 11 texts",
    "bench_statistics.py": "200 examples x 4 types, 100 resamples, best of 1:",
    "bench_stream_rowgroups.py": "peak RSS, one row group against 1,000-row groups:",
    "bench_threads.py": "ROUGE_LCS_NUM_THREADS=2",
    "bench_token_rewards.py": "RougeState.push against a 100-word reference",
    "bench_token_ids.py": "per-token rewards from ids, 4 completions of 64 ids",
}
# The benchmarks whose tiny run is one of the tests above (or benchmarks/run.py --quick's).
TINY_ELSEWHERE = {
    "bench_arrow.py",
    "bench_audit.py",
    "bench_cluster.py",
    "bench_fresh.py",
    "bench_metric_parallel.py",
    "bench_native.py",
    "bench_stream.py",
    "bench_templated.py",
}


def test_every_benchmark_has_a_tiny_run():
    assert set(BENCHMARKS) == set(SMOKE) | TINY_ELSEWHERE


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SMOKE))
def test_benchmark_smoke(name):
    """The benchmark end to end on tiny input, offline: it exits 0 and prints its result (the
    runs that compare two implementations' numbers print whether they agree: all must)."""
    if name == "bench_rouge155.py":
        sys.path.insert(0, str(REPO / "tests"))
        import rouge155_oracle

        if not rouge155_oracle.available():
            message = f"ROUGE-1.5.5 is not installed at {rouge155_oracle.SCRIPT} (.ci/run)"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
    out = _bench(name, "--smoke", cwd=REPO / "benchmarks")
    assert SMOKE[name] in out, out[-2000:]
    assert not re.search(r": False\b|\bFalse$", out, re.M), out
