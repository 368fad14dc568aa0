"""Shared test set-up: offline Hugging Face, markers, and the shared corpora as a fixture."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

# Nothing may reach the network: evaluate / datasets / huggingface_hub read these at import.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


class Corpora:
    """The real corpora of ``../shared/data``, read once per session.

    A missing corpus skips the test on a developer's machine without it, and fails in CI
    (``CI`` set), where a skip would hide that the parity and gold tests did not run.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._cache: dict[Path, Any] = {}

    def _path(self, name: str, filename: str) -> Path:
        path = self.root / name / filename
        if not path.exists():
            message = f"shared corpus file {path} is not present (tests read ../shared/data)"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
        return path

    def rows(self, name: str) -> list[dict[str, Any]]:
        """Rows of ``<name>/data.jsonl`` (a fresh list each call; the rows are shared)."""
        path = self._path(name, "data.jsonl")
        if path not in self._cache:
            with path.open(encoding="utf-8") as handle:
                self._cache[path] = [json.loads(line) for line in handle]
        return list(self._cache[path])

    def gold(self, name: str) -> dict[str, dict[str, Any]]:
        """ROUGE-1.5.5 per-example gold of a corpus, keyed by example id."""
        path = self._path(name, "rouge155_per_example.jsonl")
        if path not in self._cache:
            with path.open(encoding="utf-8") as handle:
                self._cache[path] = {row["id"]: row for row in map(json.loads, handle)}
        return dict(self._cache[path])


@pytest.fixture(scope="session")
def corpora() -> Corpora:
    """Access to the shared real corpora (see :class:`Corpora`)."""
    return Corpora(DATA)


@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository root."""
    return Path(__file__).resolve().parent.parent


#: The two engines: the reference Python/numpy one and the compiled core.
ENGINES = ("python", "native")


@pytest.fixture(scope="module", params=ENGINES)
def engine(request: pytest.FixtureRequest):
    """Run a module's tests once per engine (``pytestmark = pytest.mark.usefixtures("engine")``).

    Module-scoped and set through ``os.environ`` directly, so that hypothesis tests (which
    refuse function-scoped fixtures) and subprocesses see the engine too.
    """
    from rouge_lcs.engine import native

    if request.param == "native" and not native.available():
        message = "the compiled extension rouge_lcs._native is not built"
        if os.environ.get("CI"):  # in CI both engines must run
            pytest.fail(message)
        pytest.skip(message)
    previous = os.environ.get(native.ENV)
    os.environ[native.ENV] = request.param
    yield request.param
    if previous is None:
        os.environ.pop(native.ENV, None)
    else:
        os.environ[native.ENV] = previous


def pytest_terminal_summary(terminalreporter) -> None:
    """One closing line on what was skipped and why (each reason says how to enable it), so
    that a partial run cannot pass for a whole one."""
    skipped = terminalreporter.stats.get("skipped", [])
    if not skipped:
        return
    reasons: dict[str, int] = {}
    for report in skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reason = reason.removeprefix("Skipped: ")
        # One entry per cause: rouge_score's missing test files differ only in the file name.
        key = re.sub(r"testdata/\S+", "testdata/…", reason)
        key = key if len(key) <= 160 else key[:157] + "…"
        reasons[key] = reasons.get(key, 0) + 1
    summary = "; ".join(
        f"{n} × {reason}" for reason, n in sorted(reasons.items(), key=lambda x: -x[1])
    )
    terminalreporter.write_line(f"skipped {len(skipped)}: {summary}")


@pytest.fixture
def xlsum(monkeypatch: pytest.MonkeyPatch) -> Any:
    """XL-Sum's scorer (multilingual-rouge's ``rouge_scorer`` module) set up offline: MeCab
    with UniDic-lite (its own setup needs ``unidic download``), and Snowball without its
    stop-word exception (NLTK's stop-word lists are a download)."""
    from functools import partial

    import fugashi
    import unidic_lite
    from multilingual_rouge import rouge_scorer, stemmers, tokenizers

    def japanese(self):
        dicdir = unidic_lite.DICDIR
        self.tokenizer = fugashi.Tagger(f'-O wakati -b 50000 -r "{dicdir}/mecabrc" -d "{dicdir}"')

    monkeypatch.setattr(tokenizers.JapaneseTokenizer, "__init__", japanese)
    table = dict(stemmers.LANG2STEMMER)
    for name, factory in table.items():
        if isinstance(factory, partial) and factory.func is stemmers.NLTKStemmer:
            table[name] = partial(stemmers.NLTKStemmer, name, ignore_stopwords=False)
    monkeypatch.setattr(rouge_scorer, "LANG2STEMMER", table)
    return rouge_scorer
