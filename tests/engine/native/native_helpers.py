"""What the native engine's tests (tests/engine/native/) share: the corpora's folder, the
skip without the extension, counts on either engine compared, and text helpers.

The parity, gold, seed, option, validation and property tests run on both engines through the
``engine`` fixture (tests/conftest.py); these modules add direct differential tests of the
native engine's stages and the cases only it is built for.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import strategies as st

from rouge_lcs.base.validation import check_texts
from rouge_lcs.config.settings import make_settings
from rouge_lcs.engine import native
from rouge_lcs.engine.compute import compute_stats

DATA = Path(__file__).resolve().parents[4] / "shared" / "data"


needs_native = pytest.mark.skipif(not native.available(), reason="rouge_lcs._native not built")


TYPES = ["rouge1", "rouge2", "rouge3", "rouge12", "rougeL", "rougeLsum"]


def _native_combine(flat, n_types, mode, beta):
    """The native engine's ``combine`` (csrc/scores.h) of flat counts, as a store hands them."""
    from rouge_lcs.engine.stats import PairStats

    return native.BACKEND.combine(PairStats.from_flat(flat[0], n_types, flat[1]), mode, beta)


def _counts(engine: str, preds, refs, rouge_types=TYPES, **options) -> np.ndarray:
    previous = os.environ.get(native.ENV)
    os.environ[native.ENV] = engine
    try:
        batch = check_texts(preds, refs)
        return compute_stats(batch, make_settings(rouge_types, **options)).counts
    finally:
        if previous is None:
            os.environ.pop(native.ENV, None)
        else:
            os.environ[native.ENV] = previous


def _assert_same(preds, refs, rouge_types=TYPES, **options) -> np.ndarray:
    expected = _counts("python", preds, refs, rouge_types, **options)
    got = _counts("native", preds, refs, rouge_types, **options)
    np.testing.assert_array_equal(got, expected)
    return got


def _first_seen(ids: bytes) -> list[int]:
    """Token ids renumbered by first appearance: which tokens share an id, nothing else."""
    seen: dict[int, int] = {}
    return [seen.setdefault(i, len(seen)) for i in np.frombuffer(ids, np.int32).tolist()]


class _Text(str):
    """A str subclass whose own methods must take no part."""

    def lower(self) -> str:  # type: ignore[override]
        return "SUBCLASS"


# ASCII, Hangul syllables, and what sits next to them in real text: conjoining jamo (which
# compose with a preceding syllable under NFKC), compatibility jamo, combining marks, joiners,
# full-width forms, odd whitespace and sentence ends.
_NEAR_HANGUL = st.text(
    alphabet=st.sampled_from(
        list("aZ09 .?!\"')(,\t\n")
        + ["가", "각", "힣", "\u1100", "\u1161", "\u11a8", "\u3131", "\u0301", "\u200d"]
        + ["\u00ad", "\uff21", "\u3000", "\u001c", "\u0085", "。", "？", "K"]
    ),
    max_size=40,
)
