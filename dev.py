#!/usr/bin/env python3
"""Developer entry point; needs only Python 3.10+ (the two Quick start commands of README.md).

    python3 dev.py run     # set up .venv, score the bundled example set, print the table
    python3 dev.py test    # set up .venv with test dependencies, run ruff, mypy and all tests
    python3 dev.py bench   # the headline benchmarks: rewrites docs/benchmarks.md and README's

Extra arguments after ``run`` go to ``python -m rouge_lcs``; after ``test``, to pytest; after
``bench``, to benchmarks/run.py (``--quick``: tiny inputs).
Each command installs what it needs into ``.venv`` (skipped when nothing changed since the last
install), so both work on a fresh clone.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PYTHON = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")

# What each command installs: pip arguments, in order.
INSTALLS = {
    "run": [["-e", "."]],
    # benchmarks/run.py's contestants (the bench extra; torch pinned as for "test")
    "bench": [["torch==2.13.0"], ["-e", ".[bench]"]],
    # torch first, pinned: here that version is a local CPU wheel; unpinned, pip would fetch a
    # multi-GB CUDA build for transformers' sake.
    # multilingual-rouge (the XL-Sum fork of rouge_score, compared with in the language tests)
    # without its declared dependencies: fugashi[unidic] needs a dictionary download outside
    # any package index; the test extra lists the rest, and unidic-lite stands in.
    "test": [
        ["torch==2.13.0"],
        ["-e", ".[test]"],
        ["--no-deps", "multilingual-rouge==0.0.1"],
        # pltrdy's rouge (module `rouge`, as py-rouge's): its own folder
        # (tests/recipes/test_audit.py)
        ["-e", ".[audit-test]"],
        # the documentation site (tests/test_site.py runs mkdocs build --strict)
        ["-e", ".[docs]"],
        ["--no-deps", "--upgrade", "--target", ".venv/targets/rouge-1.0.1", "rouge==1.0.1"],
        # the audit's other oracles (tests/recipes/test_recipe_packages.py), each in its folder:
        # py-rouge's module is also `rouge`; rouge-metric and sumeval stay out of the venv
        ["--no-deps", "--upgrade", "--target", ".venv/targets/py-rouge-1.1", "py-rouge==1.1"],
        [
            "--no-deps",
            "--upgrade",
            "--target",
            ".venv/targets/rouge-metric-1.0.1",
            "rouge-metric==1.0.1",
        ],
        ["--no-deps", "--upgrade", "--target", ".venv/targets/sumeval-0.2.2", "sumeval==0.2.2"],
    ],
}


def _sh(*args: str | Path) -> None:
    print("+", " ".join(map(str, args)), flush=True)
    subprocess.run([str(a) for a in args], check=True, cwd=ROOT)


def _ensure(command: str) -> None:
    """Create .venv and install this command's dependencies unless already done."""
    steps = INSTALLS[command]
    # The C sources too: an editable install compiles rouge_lcs._native only when it runs.
    inputs = [
        ROOT / "pyproject.toml",
        ROOT / "requirements.txt",
        Path(__file__),
        ROOT / "setup.py",
        *sorted((ROOT / "rouge_lcs" / "engine" / "csrc").glob("*.[ch]")),
        # what the build writes the generated C tables from (setup.py)
        ROOT / "rouge_lcs" / "text" / "unicode_data.py",
        *sorted((ROOT / "scripts").glob("gen_*_table.py")),
    ]
    digest = hashlib.sha256(
        b"".join(p.read_bytes() for p in inputs if p.exists()) + repr(steps).encode()
    ).hexdigest()
    stamp = VENV / f".installed-{command}"
    if stamp.exists() and stamp.read_text() == digest and PYTHON.exists():
        return
    if not PYTHON.exists():
        print(f"+ creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
        _sh(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    for step in steps:
        _sh(PYTHON, "-m", "pip", "install", "--quiet", *step)
    stamp.write_text(digest)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in INSTALLS:
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    _ensure(command)
    if command == "run":
        # In the caller's folder: the paths given (--predictions preds.txt) are the caller's.
        return subprocess.run([str(PYTHON), "-m", "rouge_lcs", *rest]).returncode
    if command == "bench":
        return subprocess.run([str(PYTHON), str(ROOT / "benchmarks" / "run.py"), *rest]).returncode
    _sh(PYTHON, "-m", "ruff", "check", ".")
    _sh(PYTHON, "-m", "ruff", "format", "--check", ".")
    _sh(PYTHON, "-m", "mypy")
    code = subprocess.run([str(PYTHON), "-m", "pytest", *rest], cwd=ROOT).returncode
    if code or rest:  # a failure, or a chosen subset: that run is the answer
        return code
    # Every test again on the reference engine (as rapidfuzz runs each test on each backend):
    # most modules choose an engine per test, the rest follow this variable.  Slow, browser and
    # Perl tests compare engines or tools that the first run already covered.
    print("+ the same tests on the pure-Python engine (ROUGE_LCS_IMPLEMENTATION=python)")
    env = {**os.environ, "ROUGE_LCS_IMPLEMENTATION": "python"}
    marker = "not slow and not browser and not perl"
    return subprocess.run(
        [str(PYTHON), "-m", "pytest", "-q", "-m", marker], cwd=ROOT, env=env
    ).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
