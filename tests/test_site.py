"""The documentation site: ``mkdocs build --strict`` (no broken link, no missing reference,
nothing fetched from the network) and an API reference entry for every public name."""

from __future__ import annotations

import importlib
import os
import re
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


def _section(page: str, anchor: str) -> str:
    """The HTML of one object's entry: from its heading to the next heading of its level."""
    start = page.index(f'id="{anchor}"')
    own = page.index('class="doc doc-heading"', start)  # the entry's own heading
    end = page.find('class="doc doc-heading"', own + 1)
    return page[start : end if end != -1 else len(page)]


def test_the_reference_of_rouge_and_of_the_metric_names_every_option(site: Path) -> None:
    """The options are written into rouge()'s docstring at import; the static reference fills
    the same lines in (scripts/griffe_rest.py), each a list item with its type and default."""
    from rouge_lcs.config.options import OPTIONS

    for page, anchor in (
        ("reference/rouge_lcs.html", "rouge_lcs.rouge"),
        ("reference/hub.html", "rouge_lcs.hub.compute"),
    ):
        entry = _section((site / page).read_text("utf-8"), anchor)
        listed = set(re.findall(r"<li[^>]*>\s*<b><code>(\w+)</code></b>", entry))
        missing = [name for name in OPTIONS if name not in listed]
        assert not missing, (page, missing)
        assert "{options}" not in entry


def test_the_reference_renders_docstrings_as_markdown(site: Path) -> None:
    pages = {p.name: p.read_text("utf-8") for p in (site / "reference").glob("*.html")}
    # doctest prompts inside code blocks, not ">>>" read as three nested quotes
    assert not [name for name, text in pages.items() if "<blockquote>" in text]
    # no dunders (__slots__, __reduce__) in any table of contents; __version__ is public
    toc = re.findall(r'href="#([^"]+)" class="md-nav__link"', "".join(pages.values()))
    assert "rouge_lcs.rouge" in toc
    dunders = {a for a in toc if a.rsplit(".", 1)[-1].startswith("__")}
    assert dunders <= {"rouge_lcs.__version__"}, dunders
    # the options table read from OPTIONS, not OPTIONS's source
    options = pages["options.html"]
    assert "Option(" not in options and "<code>--rouge-types</code>" in options
    # Google-style sections as lists
    assert 'class="doc-section-title">Parameters:' in pages["rouge_lcs.html"]
