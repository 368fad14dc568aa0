"""rouge_lcs.rouge155's fast paths print what its reference paths print, without Perl.

``score`` reads all distinct texts at once (:func:`rouge_lcs.rouge155.tokenize.flat_terms`) and,
with the native engine, counts ROUGE-N/L/S in C; ``-l``/``-b`` keep one ``Summary`` per text and
the numpy/per-pair kernels, and ``ROUGE_LCS_IMPLEMENTATION=python`` forces the numpy kernels and
the Python token reader.  A length limit no text reaches cuts nothing, so the three must print
the same report.  (The numbers themselves are checked against Perl in
tests/rouge155/test_rouge155.py.)
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from rouge_lcs.engine import native
from rouge_lcs.rouge155 import score, score_lines
from rouge_lcs.rouge155.api import Options
from rouge_lcs.rouge155.report import _all_draws, _decimal_lines, _emulated_means, round5
from rouge_lcs.rouge155.tokenize import _token_numbers, lines_of

WORDS = [
    "the", "a", "of", "police", "killed", "gunman", "Gunmen", "agreement", "days", "were",
    "feet", "using", "U.S.", "co-operate", "1,000", "2004", "naïve", "İstanbul", "x|y", "it's",
    "-", "--", "$5", "K", "children", "running", "ran", "better", "is", "are",
]  # fmt: skip


def _text(rng: random.Random) -> str | list[str]:
    sentences = []
    for _ in range(rng.randint(1, 4)):
        words = rng.choices(WORDS, k=rng.randint(0, 12))
        sentences.append(" ".join(words) + rng.choice(["", ".", " \r", "  ", "\t!"]))
    if rng.random() < 0.3:
        return sentences  # a list of sentences
    return rng.choice(["\n", "\n\n", "\n \n"]).join(sentences)


def _corpus(seed: int, examples: int = 12) -> tuple[list, list]:
    rng = random.Random(seed)
    shared = [_text(rng) for _ in range(4)]  # texts repeated across examples
    preds, refs = [], []
    for _ in range(examples):
        preds.append(rng.choice(shared) if rng.random() < 0.3 else _text(rng))
        models = [rng.choice(shared) if rng.random() < 0.3 else _text(rng) for _ in range(3)]
        # every reference has a token (ROUGE-W dies on one without, in every path)
        models = [[*m, "zebra"] if isinstance(m, list) else m + " zebra" for m in models]
        refs.append(models[: rng.randint(1, 3)])
    preds[0] = ""  # an empty summary
    return preds, refs


FLAGS = [
    {},
    {"stem": True},
    {"stem": True, "stopwords": True, "n": 4, "multi_ref": "B"},
    {"stopwords": True, "skip": 4, "unigrams": True},
    {"n": 3, "skip": -1, "unigrams": "both", "weight": 1.2, "stem": True},
    {"n": 1, "rouge_l": False, "skip": 0, "unigrams": True, "multi_ref": "B", "alpha": 0.2},
]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("flags", FLAGS, ids=lambda f: " ".join(f"{k}={v}" for k, v in f.items()))
def test_fast_native_python_and_per_summary_paths_print_the_same(
    seed: int, flags: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    preds, refs = _corpus(seed)
    reports = {}
    for engine in ("native", "python"):
        if engine == "native" and not native.available():
            continue
        monkeypatch.setenv(native.ENV, engine)
        reports[engine] = score(preds, refs, **flags).text()
        reports[engine + " per summary"] = score(preds, refs, length_limit=10**9, **flags).text()
        # score_lines: the lines lines_of gives, shared list objects and all
        opts = Options(**flags)
        peers = [lines_of(p) for p in preds]
        models = [[lines_of(r) for r in rs] for rs in refs]
        reports[engine + " lines"] = score_lines(peers, models, opts).text()
    first = next(iter(reports.values()))
    assert all(text == first for text in reports.values()), [
        name for name, text in reports.items() if text != first
    ]


@pytest.mark.skipif(not native.available(), reason="needs the compiled extension")
@pytest.mark.parametrize("lower", [False, True])
def test_native_token_reader_equals_the_python_one(
    lower: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(7)
    alphabet = b"abcXYZ019-|\n \t\r.\x00\xc3\xa9\xff"
    for size in [0, 1, 2, 5, 40, 400, 5000]:
        blob = bytes(rng.choice(alphabet) for _ in range(size))
        monkeypatch.setenv(native.ENV, "native")
        got_ids, got_tokens, got_bound = _token_numbers(blob, lower)
        monkeypatch.setenv(native.ENV, "python")
        ids, tokens, bound = _token_numbers(blob, lower)
        assert got_tokens == tokens and got_bound == bound
        assert np.array_equal(got_ids, ids)


def test_report_numbers_built_as_bytes_equal_printf() -> None:
    rng = np.random.default_rng(0)
    for _ in range(100):
        n = int(rng.integers(0, 40))
        columns = [round5(rng.random(n) * rng.choice([1, 1e-3, 1e-5, 9.99])) for _ in range(3)]
        columns[0][: n // 4] = 0.0
        columns[1][: n // 6] = 1.0
        rows = zip(*(c.tolist() for c in columns))
        expected = [f"{r:.5f} P:{p:.5f} F:{f:.5f}" for r, p, f in rows]
        assert _decimal_lines(*columns) == expected
    # not a 5-decimal double, or out of range: no shortcut
    assert _decimal_lines(np.array([0.123456]), np.array([0.5]), np.array([0.5])) is None
    assert _decimal_lines(np.array([10.0]), np.array([0.5]), np.array([0.5])) is None


def test_emulated_bootstrap_sums_add_left_to_right() -> None:
    rng = np.random.default_rng(1)
    n, resamples = 37, 100
    draws = _all_draws(n, resamples).T  # sample x draw
    for _ in range(20):
        values = np.rint(rng.random(n) * 1e5) / 1e5
        samples = np.sort(rng.choice(resamples, int(rng.integers(1, resamples)), replace=False))
        for chosen in (samples, np.arange(resamples)):
            expected = np.cumsum(values[draws[chosen]], axis=1)[:, -1] / n
            assert np.array_equal(_emulated_means(values, chosen, resamples), expected)
            assert np.array_equal(_emulated_means(values, chosen), expected)


def _skip_counts_by_units(ids, starts, pair_peer, pair_model, skip, unigrams) -> np.ndarray:
    """ROUGE-S/SU counts the direct way: every unit materialised, numpy joins (the old path)."""
    from rouge_lcs.engine.reference.python import clipped_hits, skip_keys

    lengths = np.diff(starts)
    vocab = int(ids.max()) + 1 if ids.size else 1
    keys, docs = skip_keys(ids.astype(np.int64), lengths, vocab, skip, unigrams)
    out = np.empty((pair_peer.size, 3), dtype=np.int64)
    out[:, 0] = clipped_hits(keys, docs, lengths.size, pair_peer, pair_model)
    units = np.bincount(docs, minlength=lengths.size)
    out[:, 1], out[:, 2] = units[pair_peer], units[pair_model]
    return out


@pytest.mark.parametrize("seed", range(4))
def test_skip_counts_in_linear_memory_equal_every_unit_counted(monkeypatch, seed: int) -> None:
    # ROUGE-S/SU never materialise all units (issue 24): the C kernel counts per first token,
    # the numpy engine in blocks (forced small here, so that pairs are streamed and a heavy
    # first token is cut in slices).  Both equal counting every unit, sparse ids included.
    from rouge_lcs.engine.reference import python

    r = np.random.default_rng(seed)
    for _ in range(60):
        lengths = r.integers(0, 50, int(r.integers(1, 6)))
        ids = r.integers(0, int(r.integers(1, 8)), int(lengths.sum()))
        starts = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        pairs = int(r.integers(1, 8))
        peer = r.integers(0, lengths.size, pairs).astype(np.int64)
        model = r.integers(0, lengths.size, pairs).astype(np.int64)
        skip, unigrams = int(r.choice([-1, 0, 1, 4, 100])), bool(r.integers(0, 2))
        expected = _skip_counts_by_units(ids, starts, peer, model, skip, unigrams)
        monkeypatch.setattr(python, "SKIP_BLOCK_UNITS", int(r.integers(1, 40)))
        got = {
            "python, streamed": python.BACKEND.skip_counts(ids, starts, peer, model, skip, unigrams)
        }
        if native.available():
            from rouge_lcs.engine.native import BACKEND

            for name, shown in [("native", ids), ("native, sparse ids", ids * 100_003 + 7)]:
                got[name] = BACKEND.skip_counts(
                    shown.astype(np.int32), starts, peer, model, skip, unigrams
                )
        for name, counts in got.items():
            assert (counts == expected).all(), name
