"""Shared test set-up: offline Hugging Face, the shared corpora, small helpers."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

# Nothing may reach the network: evaluate / datasets / huggingface_hub read these at import.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data"


def load_corpus(name: str) -> list[dict]:
    """Rows of ``../shared/data/<name>/data.jsonl``; skip the test if the folder is absent."""
    path = DATA / name / "data.jsonl"
    if not path.exists():
        pytest.skip(f"shared corpus {path} is not present (tests read it from ../shared/data)")
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def load_gold(name: str) -> dict[str, dict]:
    """ROUGE-1.5.5 per-example gold of a shared corpus, keyed by example id."""
    path = DATA / name / "rouge155_per_example.jsonl"
    if not path.exists():
        pytest.skip(f"shared gold {path} is not present")
    with path.open(encoding="utf-8") as handle:
        return {row["id"]: row for row in map(json.loads, handle)}


#: The two engines: the reference Python/numpy one and the compiled core.
ENGINES = ("python", "native")


@pytest.fixture(scope="module", params=ENGINES)
def engine(request: pytest.FixtureRequest):
    """Run a module's tests once per engine (``pytestmark = pytest.mark.usefixtures("engine")``).

    Module-scoped and set through ``os.environ`` directly, so that hypothesis tests (which
    refuse function-scoped fixtures) and subprocesses see the engine too.
    """
    from rouge_lcs import native

    if request.param == "native" and not native.available():
        pytest.skip("the compiled extension rouge_lcs._native is not built")
    previous = os.environ.get(native.ENV)
    os.environ[native.ENV] = request.param
    yield request.param
    if previous is None:
        os.environ.pop(native.ENV, None)
    else:
        os.environ[native.ENV] = previous
