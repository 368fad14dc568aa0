"""The command an error message gives for a missing extra: the release's name when the package
is installed, the checkout's path when it runs from a clone (where ``rouge-lcs[X]`` does not
resolve until a release), and no other ``pip install`` written anywhere in the package."""

from __future__ import annotations

import json
import re
import shlex
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
    assert install_command("ja", clone / "rouge_lcs") == (
        f"for this copy, run from the clone {clone}: pip install '{clone}[ja]'"
    )
    monkeypatch.chdir(clone)
    assert install_command("ja", clone / "rouge_lcs") == (
        "for this copy, run from the clone in the current folder: pip install '.[ja]'"
    )


def _installed(site: Path, direct_url: dict | None) -> Path:
    """A copy in ``site`` with pip's records: METADATA, and direct_url.json (PEP 610)."""
    (site / "rouge_lcs").mkdir(parents=True)
    info = site / "rouge_lcs-0.2.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.4\nName: rouge-lcs\nVersion: 0.2.1\n"
        "Requires-Dist: numpy>=2.0\n"
        'Requires-Dist: jieba>=0.42; extra == "zh"\n'
        'Requires-Dist: fugashi>=1.3; extra == "ja"\n'
    )
    if direct_url is not None:
        (info / "direct_url.json").write_text(json.dumps(direct_url))
    return site / "rouge_lcs"


def test_a_copy_installed_from_a_clone_names_the_clone(tmp_path, monkeypatch):
    clone = tmp_path / "my clone"  # a space in the path: the command quotes it
    clone.mkdir()
    (clone / "pyproject.toml").write_text('[project]\nname = "rouge-lcs"\n')
    monkeypatch.chdir(tmp_path)
    # what `pip install /path/to/clone` records (pip 24: "dir_info": {})
    package = _installed(tmp_path / "a", {"url": clone.as_uri(), "dir_info": {}})
    command = install_command("zh", package)
    assert command.startswith(f"for this copy, installed from the clone {clone}: pip install ")
    assert shlex.split(command.split(": ")[1]) == ["pip", "install", f"{clone}[zh]"]
    package = _installed(tmp_path / "b", {"url": clone.as_uri(), "dir_info": {"editable": True}})
    assert install_command("zh", package).startswith("for this copy, an editable install of ")
    monkeypatch.chdir(clone)
    assert install_command("zh", package).endswith(": pip install '.[zh]'")
    # the clone is gone: the extra's own requirements, from the installed METADATA
    gone = {"url": (tmp_path / "deleted").as_uri(), "dir_info": {}}
    command = install_command("zh", _installed(tmp_path / "c", gone))
    assert command.endswith("the [zh] extra's requirements: pip install 'jieba>=0.42'"), command


def test_a_copy_installed_from_git_or_a_file_or_an_index(tmp_path):
    git = {
        "url": "https://example.org/rouge.git",
        "vcs_info": {"vcs": "git", "commit_id": "abc123"},
    }
    assert install_command("ja", _installed(tmp_path / "a", git)).endswith(
        ": pip install 'rouge-lcs[ja] @ git+https://example.org/rouge.git@abc123'"
    )
    wheel = tmp_path / "rouge_lcs-0.2.1-py3-none-any.whl"
    wheel.write_bytes(b"")
    archive = {"url": wheel.as_uri(), "archive_info": {}}
    assert install_command("ja", _installed(tmp_path / "b", archive)).endswith(
        f": pip install '{wheel}[ja]'"
    )
    # from an index: no direct_url.json
    assert install_command("ja", _installed(tmp_path / "c", None)) == "pip install 'rouge-lcs[ja]'"


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
