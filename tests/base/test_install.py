"""The command an error message gives for a missing extra: the release's name when the package
is installed, the checkout's path when it runs from a clone (where ``rouge-lcs[X]`` does not
resolve until a release), and no other ``pip install`` written anywhere in the package."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rouge_lcs.base.install import install_command

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "rouge_lcs"


def test_no_other_pip_install_in_the_package():
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "install.py"
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if re.search(r"pip3? install", line)
    ]
    assert not found, found


def test_release_and_checkout_commands(tmp_path, monkeypatch):
    site = tmp_path / "site-packages"
    (site / "rouge_lcs").mkdir(parents=True)
    assert install_command("zh", site / "rouge_lcs") == "pip install 'rouge-lcs[zh]'"
    other = tmp_path / "other"  # a checkout of some other project is no checkout of ours
    (other / "rouge_lcs").mkdir(parents=True)
    (other / "pyproject.toml").write_text('[project]\nname = "something-else"\n')
    assert install_command("zh", other / "rouge_lcs") == "pip install 'rouge-lcs[zh]'"
    clone = tmp_path / "clone"
    (clone / "rouge_lcs").mkdir(parents=True)
    (clone / "pyproject.toml").write_text('[project]\nname = "rouge-lcs"\nversion = "0"\n')
    monkeypatch.chdir(tmp_path)
    assert install_command("ja", clone / "rouge_lcs") == f"pip install '{clone}[ja]'"
    monkeypatch.chdir(clone)
    assert install_command("ja", clone / "rouge_lcs") == "pip install '.[ja]'"


def _missing_jieba_message(package_parent: Path, cwd: Path) -> str:
    code = (
        "import sys; sys.modules['jieba'] = None\n"  # as if the zh extra were not installed
        "from rouge_lcs import rouge\n"
        "try:\n    rouge(['a'], ['a'], tokenizer='jieba')\n"
        "except ImportError as e:\n    print(e)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env={"PYTHONPATH": str(package_parent), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout.strip()


def test_missing_extra_message_from_this_checkout(tmp_path):
    assert _missing_jieba_message(ROOT, ROOT).endswith("pip install '.[zh]'")
    assert _missing_jieba_message(ROOT, tmp_path).endswith(f"pip install '{ROOT}[zh]'")


@pytest.mark.slow
def test_missing_extra_message_from_an_installed_copy(tmp_path):
    """The package copied into a folder without the project's files, as an installed
    release sits in site-packages: the message names the release."""
    site = tmp_path / "site-packages"
    shutil.copytree(PACKAGE, site / "rouge_lcs", ignore=shutil.ignore_patterns("__pycache__"))
    message = _missing_jieba_message(site, tmp_path)
    assert message.endswith("pip install 'rouge-lcs[zh]'"), message
    assert "needs jieba" in message
