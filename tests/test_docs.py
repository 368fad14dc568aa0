"""README and docs: every relative link leads to a file of the repository, every ``#anchor``
to a heading of its page (GitHub's slugs), so that no reader follows a dead link."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
_LINK = re.compile(r"\]\(([^)\s]+)\)|(?:src|href)=\"([^\"]+)\"")
_FENCE = re.compile(r"^```.*?^```", flags=re.M | re.S)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lowercase, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|<[^>]+>", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = _FENCE.sub("", page.read_text("utf-8"))
    found: set[str] = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, flags=re.M):
        base, k = slug(heading), 1
        name = base
        while name in found:  # repeated headings get -1, -2, …
            name, k = f"{base}-{k}", k + 1
        found.add(name)
    return found


def links(page: Path) -> list[str]:
    # Code (fenced or inline) shows markup; it links nowhere.
    text = re.sub(r"`[^`\n]+`", "", _FENCE.sub("", page.read_text("utf-8")))
    return [a or b for a, b in _LINK.findall(text)]


def test_slug_matches_githubs_rule():
    assert slug('Moving from `evaluate.load("rouge")`') == "moving-from-evaluateloadrouge"
    assert slug("Arguments of `compute()`") == "arguments-of-compute"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_and_anchors_resolve(page):
    dead = []
    for link in links(page):
        if re.match(r"[a-z]+:", link):  # http:, https:, mailto: — not checked offline
            continue
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        if (
            not target.exists()
            or anchor
            and target.suffix == ".md"
            and anchor not in anchors(target)
        ):
            dead.append(link)
    assert not dead, dead


#: Where a path of a test file may be named for a reader: the docs, the package's comments, the
#: benchmarks, the build and CI files.
NAMING_TESTS = ["README.md", "docs", "rouge_lcs", "benchmarks", "scripts", ".ci", "pyproject.toml"]
_TEST_PATH = re.compile(r"\btests/[\w./-]*?\.py\b")
_TEST_FILE = re.compile(r"(?<![\w/])test_\w+\.py\b")


def _named_test_paths() -> list[tuple[str, str]]:
    named = []
    for entry in NAMING_TESTS:
        top = ROOT / entry
        files = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for file in files:
            if file.suffix in {".so", ".pyc", ".pyd", ".o"} or "__pycache__" in file.parts:
                continue
            text = file.read_text("utf-8", errors="replace")
            where = file.relative_to(ROOT).as_posix()
            named += [(where, path) for path in _TEST_PATH.findall(text)]
            named += [(where, name) for name in _TEST_FILE.findall(text)]
    return named


def test_every_named_test_file_exists():
    # A test moved into its folder leaves its old path in a page or a comment: a reader looks
    # for a file that is not there.  A bare file name must name exactly one test file.
    by_name: dict[str, int] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        by_name[path.name] = by_name.get(path.name, 0) + 1
    named = _named_test_paths()
    assert len(named) > 50  # the scan sees the docs (a broken pattern would see nothing)
    stale = [
        f"{where}: {path}"
        for where, path in named
        if not ((ROOT / path).is_file() if "/" in path else by_name.get(path) == 1)
    ]
    assert not stale, stale


def test_readme_puts_the_user_first():
    """The Space's metadata first (the Hub reads it there), then the two Quick start commands,
    then what it is, the install and the evaluate swap before the contributor's material."""
    text = (ROOT / "README.md").read_text("utf-8")
    assert text.startswith("---\n") and "\nsdk: gradio\n" in text.split("\n---\n", 1)[0]
    headings = re.findall(r"^## (.+)$", _FENCE.sub("", text), flags=re.M)
    assert headings[:4] == [
        "Quick start",
        "What it is",
        "Install",
        'Switching from `evaluate.load("rouge")`',
    ], headings
    quick = text.split("## Quick start", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in quick.splitlines()]
    assert commands == ["python3 dev.py run", "python3 dev.py test"]
    for heading in ("Report the signature in your paper", "How to cite", "Licence"):
        assert heading in headings, heading
    assert 'lsum_split="newline"' in text.split("## Report the signature", 1)[0]


def test_the_citation_names_this_version():
    import rouge_lcs

    cff = (ROOT / "CITATION.cff").read_text("utf-8")
    assert re.search(r"^cff-version: 1\.2\.0$", cff, flags=re.M)
    assert re.search(rf"^version: {re.escape(rouge_lcs.__version__)}$", cff, flags=re.M), cff
    readme = (ROOT / "README.md").read_text("utf-8")
    assert f'version = "{rouge_lcs.__version__}"' in readme  # the README's @software entry
