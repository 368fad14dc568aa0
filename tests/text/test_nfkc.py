"""NFKC in C (csrc/nfkc.h) against CPython's ``unicodedata.normalize``: on every code point, on
generated sequences of the characters that decompose, compose and reorder, on the shared
corpora; and the encoder's use of it on its threads (the unicode tokenizer's tokens, the
scores of both engines)."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_lcs import Rouge
from rouge_lcs.engine import native
from rouge_lcs.text.tokenizers import JOINERS, unicode_tokenize

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"

pytestmark = pytest.mark.skipif(not native.available(), reason="rouge_lcs._native not built")


def _reference(text: str) -> str:
    """The Python tokenizer's normal form (tokenizers.unicode_tokenize)."""
    return unicodedata.normalize("NFKC", text).lower().translate(JOINERS)


def _c(text: str) -> str | None:
    from rouge_lcs import _native

    return _native._test_nfkc(text)


def _table_version() -> str:
    """The Unicode version of the extension's nfkc_table.h ("" without the extension)."""
    if not native.available():
        return ""
    from rouge_lcs import _native

    return str(_native.NFKC_TABLE_UNIDATA_VERSION)


def test_the_build_made_the_table_of_this_interpreter():
    # setup.py writes nfkc_table.h and case_table.h from the interpreter it builds for, so the
    # C paths are on whatever the Python version; a table of another version is not used.
    from rouge_lcs import _native

    assert _table_version() == unicodedata.unidata_version
    assert _native.NFKC_TABLE and _native.PUNKT_CASE_TABLE


needs_table = pytest.mark.skipif(
    unicodedata.unidata_version != _table_version(),
    reason="nfkc_table.h is of another Unicode version (the encoder then calls CPython)",
)


@needs_table
def test_every_code_point():
    wrong, left = [], []
    for cp in range(0x110000):
        ch = chr(cp)
        got = _c(ch)
        if got is None:
            left.append(cp)
        elif got != _reference(ch):
            wrong.append(hex(cp))
    assert wrong == []
    # left to CPython: U+0130, U+03A3 and what decomposes to U+0307 or U+03A3 (and the KELVIN
    # SIGN and ASCII alone, cut as ASCII after lower()); nothing else
    for cp in left[128:]:
        nfkd = unicodedata.normalize("NFKD", chr(cp))
        assert "\u0307" in nfkd or "\u03a3" in nfkd or cp == 0x212A, hex(cp)
    assert 0x130 in left and 0x3A3 in left and left[:128] == list(range(128)) and len(left) < 300


def test_the_ranges_nfkc_native_ok_passes_without_the_table():
    # csrc/nfkc.h's nfkc_native_ok takes Hangul syllables and CJK Unified Ideographs as
    # decided by C without reading their records: none may need CPython's lowercasing.
    for lo, hi in ((0xAC00, 0xD7A3), (0x4E00, 0x9FFF)):
        for cp in range(lo, hi + 1):
            nfkd = unicodedata.normalize("NFKD", chr(cp))
            assert "\u0307" not in nfkd and "\u03a3" not in nfkd, hex(cp)
            assert chr(cp).lower() == chr(cp), hex(cp)


def test_the_ranges_nfkc_lower_puts_as_they_are():
    # csrc/nfkc.h's nfkc_lower puts ASCII, Hangul syllables and CJK Unified Ideographs without
    # reading their records, each starting a segment: each must be its own NFKC form, of
    # combining class 0, no joiner, lowered only from A-Z, and the second of no composite
    # (a canonical decomposition into two, or Hangul's jamo V and T).
    ranges = [(0, 0x7F), (0xAC00, 0xD7A3), (0x4E00, 0x9FFF)]
    seconds = set()
    for cp in range(0x110000):
        parts = unicodedata.decomposition(chr(cp)).split()
        if len(parts) == 2 and not parts[0].startswith("<"):
            seconds.add(int(parts[1], 16))
    for lo, hi in ranges:
        for cp in range(lo, hi + 1):
            ch = chr(cp)
            assert unicodedata.normalize("NFKC", ch) == ch and unicodedata.combining(ch) == 0
            assert ch.lower() == (chr(cp + 32) if "A" <= ch <= "Z" else ch), hex(cp)
            assert cp not in seconds and not 0x1161 <= cp <= 0x11C2, hex(cp)
            assert cp not in JOINERS, hex(cp)


# The characters where NFKC is more than a per-character map: combining marks (reordering),
# the second halves of composites and what composes with them, Hangul jamo and syllables,
# compatibility characters, joiners, case.
_POOL = sorted(
    {
        chr(cp)
        for cp in range(0x110000)
        if unicodedata.combining(chr(cp)) or unicodedata.decomposition(chr(cp))
    }
    | {chr(cp) for cp in range(0x1100, 0x1200)}
    | {chr(cp) for cp in range(0xAC00, 0xAC40)}
    | set("AaEeIiOoUuSsNnKk \u200c\u200d\u2060\u00ad\ufeff\u0345\u0399\u1fbe")
)
_MIXED = st.text(alphabet=st.sampled_from(_POOL), max_size=12)


@needs_table
@settings(max_examples=800, deadline=None)
@given(_MIXED)
def test_generated_sequences(text):
    got = _c(text)
    if got is not None:
        assert got == _reference(text)


@needs_table
@settings(max_examples=1000, deadline=None)
@given(st.text(max_size=40))
def test_any_text(text):
    got = _c(text)
    if got is not None:
        assert got == _reference(text)


def _corpus_texts() -> list[str]:
    texts = []
    for path in sorted(DATA.glob("*/data.jsonl")):
        for line in path.open(encoding="utf-8"):
            row = json.loads(line)
            texts += [row["prediction"], *row["references"]]
    return texts


@needs_table
def test_the_corpora():
    texts = _corpus_texts()
    if not texts:
        pytest.skip("the shared corpora are not present")
    for text in texts:
        got = _c(text)
        assert got is None or got == _reference(text), text


def _fake_normalize(form, text):
    raise AssertionError(f"normalize called for {text!r}")


def _id_pattern(token_lists: list[list[str]]) -> list[int]:
    """Tokens numbered in order of first appearance (what a fresh one-thread encoder gives)."""
    ids: dict[str, int] = {}
    return [ids.setdefault(t, len(ids)) for tokens in token_lists for t in tokens]


@needs_table
def test_the_encoder_normalizes_on_its_threads_without_calling_python():
    from rouge_lcs import _native

    texts = ["Ｆｕｌｌ ｗｉｄｔｈ，Café", "cafe\u0301 full", "한국어 ＡＢＣ", "e\u0301\u0323x ﬁne"]
    texts += ["ｱｲｳ　ｶﾞｷﾞ", "ǅemal ﬃ ⅷ ①②", "1\u200d2 so\u00adft"]
    encoder = _native.Encoder(
        _native.MODE_UNICODE, unicode_tokenize, None, _fake_normalize, native_nfkc=True
    )
    ids, offsets = encoder.encode(texts, 1)
    assert np.frombuffer(ids, dtype=np.int32).tolist() == _id_pattern(
        [unicode_tokenize(t) for t in texts]
    )
    # without native_nfkc the encoder calls normalize for the same texts
    plain = _native.Encoder(_native.MODE_UNICODE, unicode_tokenize, None, _fake_normalize)
    with pytest.raises(AssertionError, match="normalize called"):
        plain.encode(texts, 1)


@needs_table
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("arrow", [False, True])
def test_the_encoder_calls_python_for_exactly_the_texts_that_need_it(threads, arrow):
    from rouge_lcs import _native

    # Enough texts that encode() decides on its threads which need CPython (before the
    # calling thread prepares them): the ones with Σ or İ (their lower() depends on the
    # context, nfkc.h leaves them to CPython) are normalized by Python, each once, and the
    # others never.  Arrow rows are decided as they are decoded, by the same rules.
    native_ok = ["Ｆｕｌｌ ｗｉｄｔｈ，Café", "한국어 ＡＢＣ", "ｱｲｳ　ｶﾞｷﾞ", "plain ascii"]
    native_ok += ["한국어 문장", "中文 한국어 ｘ", "ǅemal 𝐀𝐁 ①"]
    needs_python = ["ΣΊΣΥΦΟΣ ｘ", "İstanbul （１）"]
    texts = (native_ok * 3 + needs_python) * 300
    called: list[str] = []

    def normalize(form: str, text: str) -> str:
        called.append(text)
        return native._normalize(form, text)

    encoder = _native.Encoder(
        _native.MODE_UNICODE, unicode_tokenize, None, normalize, native_nfkc=True
    )
    if arrow:
        pa = pytest.importorskip("pyarrow")
        from rouge_lcs.base.arrow import ArrowTexts

        ids, _ = encoder.encode_arrow(ArrowTexts.of(pa.array(texts), "t").columns(), threads)
    else:
        ids, _ = encoder.encode(texts, threads)
    assert sorted(set(called)) == sorted(needs_python)
    assert len(called) == 2 * 300
    got = np.frombuffer(ids, dtype=np.int32).tolist()
    want = _id_pattern([unicode_tokenize(t) for t in texts])
    # ids may differ by thread count; which tokens share an id may not
    assert len(got) == len(want)
    assert len(set(zip(got, want))) == len(set(got)) == len(set(want))


class _Text(str):
    """A str subclass whose own methods must not take part."""

    def lower(self) -> str:
        raise AssertionError("the subclass's lower() was called")


@needs_table
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_the_encoder_on_the_corpora_and_threads(threads):
    from rouge_lcs import _native

    texts = _corpus_texts()[:6000] or ["Ｆｕｌｌ"]
    texts += [t + "（１２）ｘ" for t in texts[:2000]]
    # beside them: plain Hangul, fullwidth CJK cut into NFKC segments, text that needs
    # CPython's lower(), and a str subclass (read by its characters)
    texts += [_Text("Ｆｕｌｌ 한국어（３）"), "İstanbul ΣΊΣΥΦΟΣ", "한국어 문장", "中文，句。"] * 50
    encoder = _native.Encoder(
        _native.MODE_UNICODE, unicode_tokenize, None, native._normalize, native_nfkc=True
    )
    ids, offsets = encoder.encode(texts, threads)
    got = np.frombuffer(ids, dtype=np.int32)
    want = _id_pattern([unicode_tokenize(str.__str__(t)) for t in texts])
    # ids may differ by thread count; which tokens share an id may not
    assert len(got) == len(want)
    pairs = set(zip(got.tolist(), want))
    assert len(pairs) == len(set(got.tolist())) == len(set(want))


@pytest.mark.usefixtures("engine")
def test_scores_equal_between_engines_on_mixed_text():
    preds = [
        "Ｃａｆé ｄｅ ｌａ ｐａｉｘ（１）",
        "한국어 문장 ＡＢＣ",
        "ﬁne ǅemal ①",
        "Σίσυφος İstanbul",
    ]
    refs = ["cafe\u0301 de la paix (1)", "한국어 문장 abc", "fine džemal 1", "σίσυφος i̇stanbul"]
    got = Rouge(["rouge1", "rouge2", "rougeL"], num_threads=2).score(preds, refs)
    # worked by hand: NFKC + lower() make each pair's tokens equal
    assert got.fmeasure.tolist() == [[1.0, 1.0, 1.0]] * 4


def test_the_generator_is_the_table():
    # the committed table is what the script makes from this interpreter (when versions match)
    if unicodedata.unidata_version != _table_version():
        pytest.skip("another Unicode version")
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_nfkc_table", SCRIPTS / "gen_nfkc_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    pairs = module.composites()
    assert pairs[(ord("e"), 0x301)] == 0xE9 and (0x308, 0x301) not in pairs


def test_the_benchmark_runs_on_tiny_input(repo):
    import os
    import subprocess
    import sys

    if not DATA.exists():
        pytest.skip("the shared corpora are not present")
    done = subprocess.run(
        [sys.executable, str(repo / "benchmarks" / "bench_nfkc.py"), "--smoke"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(repo)},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "C NFKC, 2 threads against 1" in done.stdout
