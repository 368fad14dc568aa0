"""Packaging: ``python -m build`` gives an sdist and a platform wheel with the compiled core, and
the wheel, installed into a clean virtual environment, scores the seed examples natively with
the same output as the Python engine here."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from rouge_lcs.engine import native

REPO = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not native.available(), reason="no compiled core here: no compiler?"),
]


def _has_build() -> bool:
    try:
        import build  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(not _has_build(), reason="the 'build' package is not installed")
def test_wheel_in_a_clean_venv_scores_the_seed_examples(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(REPO)],
        check=True,
        capture_output=True,
    )
    wheels = list(dist.glob("rouge_lcs-*.whl"))
    assert len(list(dist.glob("rouge_lcs-*.tar.gz"))) == 1
    assert len(wheels) == 1 and "none-any" not in wheels[0].name  # a platform wheel

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(wheels[0])],
        check=True,
        capture_output=True,
    )
    # Run outside the repository, so that the installed package is the one imported.
    forced = {**os.environ, native.ENV: "native"}
    ours = subprocess.run(
        [str(python), "-m", "rouge_lcs"], cwd=tmp_path, env=forced, capture_output=True, text=True
    )
    assert ours.returncode == 0, ours.stderr
    where = subprocess.run(
        [str(python), "-c", "import rouge_lcs._native as m; print(m.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert str(env_dir) in where.stdout
    reference = subprocess.run(
        [sys.executable, "-m", "rouge_lcs"],
        cwd=REPO,
        env={**os.environ, native.ENV: "python"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert ours.stdout == reference.stdout
    assert "seed003-ko" in ours.stdout
