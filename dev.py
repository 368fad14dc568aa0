#!/usr/bin/env python3
"""Developer entry point; needs only Python 3.10+ (the two Quick start commands of README.md).

    python3 dev.py run          # set up .venv, score the bundled example set, print the table
    python3 dev.py test         # set up .venv with test dependencies, run ruff, mypy and all tests
    python3 dev.py test-oldest  # the core tests with every runtime dependency at its floor
    python3 dev.py bench        # the headline benchmarks: rewrites docs/benchmarks.md and README's

Extra arguments after ``run`` go to ``python -m rouge_lcs``; after ``test`` and ``test-oldest``,
to pytest; after ``bench``, to benchmarks/run.py (``--quick``: tiny inputs).
Each command installs what it needs into ``.venv`` (``test-oldest``: ``.venv-oldest``), skipped
when nothing changed since the last install, so all work on a fresh clone.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
# test-oldest's own venv: its pins must not downgrade the packages of .venv.
OLDEST_VENV = ROOT / ".venv-oldest"


def _python(venv_dir: Path) -> Path:
    return venv_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


PYTHON = _python(VENV)

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
        # The newest release of every runtime dependency, also in a .venv kept from an earlier
        # install (a fresh one gets them anyway): a new numpy, regex, ... that breaks the library
        # fails this run the day it is out, not a user's.  Eager: their own dependencies too.
        # The next step keeps them unless a test tool needs an older one.
        ["--upgrade", "--upgrade-strategy", "eager", "RUNTIME"],
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


#: test-oldest: the core tests, those that need only the runtime dependencies, rouge-score (the
#: parity oracle), pytest and hypothesis.  The parity, seed, option, validation and property
#: modules run on both engines through the ``engine`` fixture; tests/engine/native/ compares
#: them directly.
OLDEST_TESTS = [
    "tests/test_parity_rouge_score.py",
    "tests/test_seeds.py",
    "tests/test_properties.py",
    "tests/test_hostile.py",
    "tests/test_compat.py",
    "tests/config/test_options.py",
    "tests/base/test_validation.py",
    "tests/base/test_arrays.py",
    "tests/engine",
    "tests/scores",
    "tests/text/test_tokenizers.py",
    "tests/text/test_sentences.py",
    "tests/text/test_nfkc.py",
    "tests/text/test_xlsum_languages.py",
    "tests/rouge155/test_rouge155_gold.py",
    "tests/cli/test_cli.py",
]
#: Those of OLDEST_TESTS that follow ROUGE_LCS_IMPLEMENTATION (no ``engine`` fixture; not
#: tests/engine/native/, which runs both engines itself): run again on the pure-Python one.
OLDEST_PYTHON_ENGINE = [
    "tests/test_hostile.py",
    "tests/test_compat.py",
    "tests/engine/test_lcs.py",
    "tests/engine/test_ngrams.py",
    "tests/scores/test_statistics.py",
    "tests/scores/test_signature.py",
    "tests/text/test_tokenizers.py",
    "tests/cli/test_cli.py",
]
#: Not tests/text/test_punkt.py: its oracle is the installed NLTK's Punkt, which splits at U+001C-
#: U+001F before 3.10.4; rouge_lcs.text.punkt (3.10.4's rules) imports no NLTK, so its splits
#: do not depend on the NLTK installed.
#: ... and the packages they need beyond the runtime ones, with the test extra's specifiers.
OLDEST_TOOLS = ["pytest", "hypothesis", "rouge-score", "absl-py", "six"]
TESTS_MARKER = "not slow and not browser and not perl"


def _load_pyproject() -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: the copy of tomli inside pip
        from pip._vendor import tomli as tomllib
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)


def runtime_requirements() -> list[str]:
    """pyproject.toml's ``[project] dependencies``: the one place the floors are declared."""
    return list(_load_pyproject()["project"]["dependencies"])


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0]


def oldest_pins() -> list[str]:
    """Each runtime dependency pinned to its declared lower bound (``numpy>=1.23.2`` gives
    ``numpy==1.23.2``), so a floor must be a real release: test-oldest installs exactly it."""
    pins = []
    for requirement in runtime_requirements():
        spec, _, marker = requirement.partition(";")
        floors = re.findall(r">=\s*([^,\s]+)", spec)
        if len(floors) != 1:
            raise SystemExit(
                f"pyproject.toml: runtime dependency {requirement!r} needs one lower bound "
                "(name>=version): test-oldest pins every dependency to it"
            )
        pins.append(f"{_name(spec)}=={floors[0]}" + (f"; {marker.strip()}" if marker else ""))
    return pins


def oldest_tools() -> list[str]:
    """OLDEST_TOOLS as the test extra declares them (one place for their versions too)."""
    test_extra = _load_pyproject()["project"]["optional-dependencies"]["test"]
    declared = {_name(r).lower(): r for r in test_extra}
    return [declared[tool] for tool in OLDEST_TOOLS]


def _steps(command: str) -> list[list[str]]:
    """INSTALLS[command] with RUNTIME expanded; test-oldest's steps, which read pyproject.toml."""
    if command == "test-oldest":
        constraints = OLDEST_VENV / "constraints.txt"
        names = ",".join(_name(r) for r in runtime_requirements())
        # The floors as wheels only: a floor without a wheel for this Python fails at once
        # (numpy 1.23 has none past 3.11) instead of compiling for many minutes.
        return [
            ["--only-binary", names, "-c", str(constraints), "-e", ".", *oldest_tools()],
        ]
    steps = []
    for step in INSTALLS[command]:
        if "RUNTIME" in step:
            at = step.index("RUNTIME")
            step = [*step[:at], *runtime_requirements(), *step[at + 1 :]]
        steps.append(step)
    return steps


def _sh(*args: str | Path) -> None:
    print("+", " ".join(map(str, args)), flush=True)
    subprocess.run([str(a) for a in args], check=True, cwd=ROOT)


def _ensure(command: str) -> Path:
    """Create the command's venv and install its dependencies unless already done; return its
    Python."""
    venv_dir = OLDEST_VENV if command == "test-oldest" else VENV
    python = _python(venv_dir)
    steps = _steps(command)
    extra = "\n".join(oldest_pins()) + "\n" if command == "test-oldest" else ""
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
    stamp = venv_dir / f".installed-{command}"
    if stamp.exists() and stamp.read_text() == digest and python.exists():
        return python
    if not python.exists():
        print(f"+ creating {venv_dir}", flush=True)
        venv.EnvBuilder(with_pip=True).create(venv_dir)
        _sh(python, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    if extra:
        (venv_dir / "constraints.txt").write_text(extra)
        print(f"+ pins ({venv_dir / 'constraints.txt'}): {extra.strip().replace(chr(10), ' ')}")
    for step in steps:
        _sh(python, "-m", "pip", "install", "--quiet", *step)
    stamp.write_text(digest)
    return python


def test_oldest(python: Path, rest: list[str]) -> int:
    """The core tests (OLDEST_TESTS) in .venv-oldest, then OLDEST_PYTHON_ENGINE on the reference
    engine; both run whatever the first gives, so that one CI log lists every failure."""
    _sh(python, "-m", "pip", "list", "--format=freeze")
    command = [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", TESTS_MARKER]
    code = subprocess.run([*command, *(rest or OLDEST_TESTS)], cwd=ROOT).returncode
    if rest:
        return code
    print("+ the same on the pure-Python engine (ROUGE_LCS_IMPLEMENTATION=python)", flush=True)
    env = {**os.environ, "ROUGE_LCS_IMPLEMENTATION": "python"}
    again = subprocess.run([*command, *OLDEST_PYTHON_ENGINE], cwd=ROOT, env=env).returncode
    return code or again


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in (*INSTALLS, "test-oldest"):
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    python = _ensure(command)
    if command == "test-oldest":
        return test_oldest(python, rest)
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
    return subprocess.run(
        [str(PYTHON), "-m", "pytest", "-q", "-m", TESTS_MARKER], cwd=ROOT, env=env
    ).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
