"""Punkt in C (csrc/punkt.h, csrc/punkt_tables.h; bound by csrc/py_punkt.h and
csrc/py_sentences.h) on the text stage's threads, against the Python splitter.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from native_helpers import (
    _NEAR_HANGUL,
    TYPES,
    _first_seen,
    needs_native,
)

from rouge_lcs import Rouge
from rouge_lcs.config.settings import make_settings
from rouge_lcs.engine import native
from rouge_lcs.text.tokenizers import unicode_tokenize


def _one_line_pairs(corpora, count: int) -> tuple[list[str], list[str]]:
    """REALSumm pairs with each text on one line (sentences joined by spaces): ROUGE-Lsum
    splits them with Punkt."""
    rows = corpora.rows("en_cnndm_realsumm")[:count]
    preds = [" ".join(r["prediction_sents"]) for r in rows]
    refs = [" ".join(r["references_sents"][0]) for r in rows]
    return preds, refs


@needs_native
@pytest.mark.parametrize("how", ["argument", "variable"])
def test_punkt_runs_on_the_text_stage_threads(corpora, monkeypatch, how):
    # Through the public call, texts without newlines are split by Punkt in C on two threads
    # without the GIL (encode_sentences reports it), with the numbers of one thread and of
    # the reference engine.
    if not native.native_unicode() or not native._native.PUNKT_CASE_TABLE:
        pytest.skip("Punkt in C is not used with this regex / Unicode version")
    preds, refs = _one_line_pairs(corpora, 400)
    assert not any("\n" in t for t in preds + refs)
    monkeypatch.delenv(native.THREADS_ENV, raising=False)
    monkeypatch.setenv(native.ENV, "python")
    reference = Rouge(TYPES, use_stemmer=True).score(preds, refs)
    monkeypatch.setenv(native.ENV, "native")
    one = Rouge(TYPES, use_stemmer=True, num_threads=1)
    one_scores = one.score(preds, refs)
    assert one._stores.store._encoder.last_punkt_threads == 1
    if how == "variable":
        monkeypatch.setenv(native.THREADS_ENV, "2")
    scorer = Rouge(TYPES, use_stemmer=True, num_threads=2 if how == "argument" else None)
    two = scorer.score(preds, refs)
    assert scorer._stores.store._encoder.last_punkt_threads == 2
    for got in (one_scores, two):
        for field in ("precision", "recall", "fmeasure"):
            np.testing.assert_array_equal(getattr(got, field), getattr(reference, field))


@needs_native
def test_threaded_punkt_sentences_equal_the_python_splitter(corpora):
    # encode_sentences with Punkt on 1-3 threads gives the sentences the splitter gives when
    # called per text in Python (the path of the texts the threads leave to it).
    if not native.native_unicode() or not native._native.PUNKT_CASE_TABLE:
        pytest.skip("Punkt in C is not used with this regex / Unicode version")
    preds, refs = _one_line_pairs(corpora, 300)
    texts = [*preds, *refs, "İstanbul. Σ here. Ok.", "中文。 A. B.", "", "   ", "?!", "A b c"]
    settings = make_settings(TYPES, tokenizer="rouge_score")
    split = native._punkt_split()
    want = None
    for threads in (1, 2, 3):
        encoder = native._encoder_for(settings)
        got = encoder.encode_sentences(texts, 1, split, threads)
        assert encoder.last_punkt_threads == threads
        python = native._encoder_for(settings)
        assert python.encode_sentences(texts, 1, lambda text: split(text), threads) == got
        assert python.last_punkt_threads == 0  # a splitter without a C model: all in Python
        got = (_first_seen(got[0]), got[1:])  # which ids tokens get may depend on threads
        want = want or got
        assert got == want


def _punkt_sentences(text: str) -> list[str]:
    from rouge_lcs.text.sentences import _punkt, cjk_cuts

    return cjk_cuts(_punkt("english").tokenize(text))


def _check_split_shortcut(texts: list[str], splitter: object = _punkt_sentences) -> None:
    """The C encoder's Punkt shortcut gives Punkt's own sentences (it skips Punkt only for
    texts Punkt cannot split); ``splitter``: what the encoder calls (with a ``punkt_model``,
    Punkt in C runs on the text stage's threads)."""
    from rouge_lcs import _native

    encoder = _native.Encoder(_native.MODE_UNICODE, unicode_tokenize, None, native._normalize)
    ids, offsets, docs, doc_offsets = encoder.encode_sentences(texts, 2, splitter, 1, True)
    ids = np.frombuffer(ids, dtype=np.int32)
    offsets = np.frombuffer(offsets, dtype=np.int64)
    docs = np.frombuffer(docs, dtype=np.int64)
    doc_offsets = np.frombuffer(doc_offsets, dtype=np.int64)
    assert len(doc_offsets) == len(texts) + 1
    for k, text in enumerate(texts):
        want_ids, want_offsets = encoder.encode(_punkt_sentences(text))
        want = np.frombuffer(want_ids, dtype=np.int32)
        got = [ids[offsets[s] : offsets[s + 1]] for s in range(docs[k], docs[k + 1])]
        assert len(got) == len(np.frombuffer(want_offsets, dtype=np.int64)) - 1, text
        assert np.array_equal(np.concatenate(got) if got else want[:0], want), text
        # the text's own tokens: its sentences' put together
        assert np.array_equal(ids[doc_offsets[k] : doc_offsets[k + 1]], want), text


@needs_native
def test_punkt_shortcut_in_c_agrees_with_punkt():
    cases = [
        "0.47 퍼센트.",
        "5.0의 진도",
        "A.B c",
        "a. b",
        "a.\u3000b",
        "a.\u3000",
        "a.\x1cb",
        "a.\x1c",
        "x.) y",
        '다."라고 말했다.',
        "a.\x85b",
        "a!?b",
        "a.. b",
        "a.\tb",
        "v1.2.3.",
        "e.g. this",
        "U.S. of A.",
        "x.\u00a0y",
        "x.\u2028y",
        "끝. \n ",
        "가.나. 다",
        "a.,b",
        "a.%b",
        "x.\u0301y",
        "",
        "  ",
        ".",
        ". .",
        "a.b.c. ",
        "1.5? 2.5!",
    ]
    _check_split_shortcut(cases)


@needs_native
@settings(max_examples=500, deadline=None)
@given(_NEAR_HANGUL)
def test_punkt_shortcut_in_c_agrees_with_punkt_on_any_text(text):
    _check_split_shortcut([text])


#: Latin-1 texts (one byte a character: the scans of csrc/punkt.h that read bytes) made of
#: what the shortcut and Punkt's candidates turn on: the ends, str's and Punkt's spaces (the
#: file separators, NEL, NO-BREAK SPACE), closing quotes and brackets, digits, both cases.
_LATIN1 = st.text(st.sampled_from(list("aZe.?!. \t\n\x0b\x1c\x1f\x85\xa0\"')],;-1é")), max_size=40)


@needs_native
@settings(max_examples=500, deadline=None)
@given(st.lists(_LATIN1, min_size=1, max_size=4))
def test_punkt_on_latin1_texts_agrees_with_punkt(texts):
    _check_split_shortcut(texts)
    if native.native_unicode() and native._native.PUNKT_CASE_TABLE:
        _check_split_shortcut(texts, native._punkt_split())  # Punkt in C, on the threads


@needs_native
def test_punkt_shortcut_in_c_agrees_with_punkt_on_the_corpora(corpora):
    for name in ("ko_korsts", "en_cnndm_realsumm"):
        rows = corpora.rows(name)[:3000]
        _check_split_shortcut([t for r in rows for t in [r["prediction"], *r["references"]]])
