"""The documentation site: ``mkdocs build --strict`` (no broken link, no missing reference,
nothing fetched from the network) and an API reference entry for every public name."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The public modules whose ``__all__`` the reference documents (docs/reference/); the CLI
#: package exports only ``main``, documented as ``rouge_lcs.cli.main.main``.
PUBLIC = [
    "rouge_lcs",
    "rouge_lcs.options",
    "rouge_lcs.statistics",
    "rouge_lcs.similarity",
    "rouge_lcs.rewards",
    "rouge_lcs.torchmetrics",
    "rouge_lcs.lm_eval",
    "rouge_lcs.rouge_scorer",
    "rouge_lcs.scoring",
    "rouge_lcs.tokenizers",
    "rouge_lcs.rouge155",
    "rouge_lcs.rouge155.pyrouge",
    "rouge_lcs.native",
    "rouge_lcs.hub",
]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_MKDOCS_2_WARNING="1")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return out


def _inventory(site: Path) -> set[str]:
    data = (site / "objects.inv").read_bytes()
    body = data.split(b"zlib.\n", 1)[1]
    return {line.split()[0] for line in zlib.decompress(body).decode().splitlines()}


def test_the_site_builds_strictly_offline(site: Path) -> None:
    index = (site / "index.html").read_text("utf-8")
    assert "fonts.googleapis" not in index and "fonts.gstatic" not in index
    cli = (site / "cli-reference.html").read_text("utf-8")
    for name in ("rouge-lcs score", "rouge-lcs dedup", "--rouge-types"):
        assert name in cli, name
    assert "0.2" in (site / "changelog.html").read_text("utf-8")


def test_every_public_name_has_a_reference_entry(site: Path) -> None:
    documented = _inventory(site)
    missing = [
        f"{module}.{name}"
        for module in PUBLIC
        for name in importlib.import_module(module).__all__
        if f"{module}.{name}" not in documented
    ]
    assert not missing, missing
