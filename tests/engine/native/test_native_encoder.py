"""The text stage in C (csrc/text.h, csrc/tokens.h, csrc/nfkc.h; bound by csrc/py_encoder.h and
csrc/py_text.h): the unicode, rouge_score and char tokenizers against their Python
references, the text stage's threads and the encoder's vocabulary.
"""

from __future__ import annotations

import pickle
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from native_helpers import (
    _NEAR_HANGUL,
    DATA,
    TYPES,
    _first_seen,
    _Text,
    needs_native,
)

from rouge_lcs import Rouge, score
from rouge_lcs.config.settings import make_settings
from rouge_lcs.engine import native
from rouge_lcs.text.tokenizers import unicode_tokenize


@needs_native
def test_tokenizer_errors_keep_their_messages():
    with pytest.raises(TypeError, match="must return a list of str"):
        score(["a"], ["b"], tokenizer=lambda text: [1, 2])


# The code-point classes against the Unicode Character Database and the C table against the
# Python engine's: tests/text/test_unicode_classes.py.


@needs_native
def test_case_table_matches_str_on_every_code_point():
    # Punkt without the GIL (csrc/punkt.h) asks csrc/case_table.h what str.isupper, islower,
    # isspace and lower() say: on every code point, the same, but for the two characters it
    # declares undecided (their texts take CPython's str methods).
    from rouge_lcs import _native

    if not _native.PUNKT_CASE_TABLE:
        pytest.skip("case_table.h is of another Unicode version: Punkt uses CPython's str")
    wrong, undecided = [], []
    for cp in range(0x110000):
        ch = chr(cp)
        bits, lower = _native._test_case_class(cp)
        want = ch.isupper() | ch.islower() << 1 | ch.isspace() << 2
        if bits & 8:
            undecided.append(cp)
        elif (bits & 7) != want or ch.lower() != chr(lower):
            wrong.append(cp)
    assert wrong == []
    assert undecided == [0x130, 0x3A3]  # "i" + U+0307; sigma, lowered by its neighbours


def _check_unicode_tokens(text: str) -> None:

    from rouge_lcs import _native

    assert _native._test_unicode_tokens(text, native._normalize) == unicode_tokenize(text)


@needs_native
@settings(max_examples=500, deadline=None)
@given(st.text(max_size=60))
def test_native_unicode_tokens_equal_python_on_any_text(text):
    _check_unicode_tokens(text)


@needs_native
def test_native_unicode_tokens_equal_python_on_the_corpora():
    import json

    for path in sorted(Path(DATA).glob("*/data.jsonl")):
        for line in path.open(encoding="utf-8"):
            row = json.loads(line)
            for text in [row["prediction"], *row["references"]]:
                _check_unicode_tokens(text)


def test_only_kelvin_sign_lowercases_to_ascii():
    # The native unicode tokenizer skips a lower() call on that basis (csrc/text.h).
    found = [
        cp for cp in range(128, 0x110000) if not 0xD800 <= cp < 0xE000 and chr(cp).lower().isascii()
    ]
    assert found == [0x212A]


def _mixed_texts(corpora) -> list[str]:
    """English, Korean and every path of the native tokenizers: ASCII, Latin-1 (one byte a
    character but not ASCII), two- and four-byte characters, NFKC forms, characters whose
    lower() is ASCII (KELVIN SIGN) or longer (İ), Hangul with and without A-Z, subclasses."""
    rows = corpora.rows("en_cnndm_realsumm")[:300]
    texts = ["\n".join(r["prediction_sents"]) for r in rows]
    texts += [r["prediction"] for r in corpora.rows("ko_korsts")[:1500]]
    odd = [
        "Ｆｕｌｌ ｗｉｄｔｈ ﬁne Ⅻ",
        "KELVIN \u212a 5\u212a",
        "İstanbul İİ",
        "𝐁old 😀 emoji 中文字 かな",
        "Straße CAFÉ café naïve",
        "한국어 ABC 한국",
        "déjà vu. Encore?\nUne ligne",
        "x\u200dy zero\u200cwidth",
    ]
    texts += [f"{t} {k}" for k in range(150) for t in odd]
    texts += [_Text(t) for t in odd]
    return texts


@needs_native
@pytest.mark.parametrize("tokenizer", ["rouge_score", "unicode"])
@pytest.mark.parametrize("stem", [False, True])
def test_text_stage_on_threads_gives_the_same_tokens(corpora, tokenizer, stem):
    # The native tokenizers cut and look up tokens on shards without the GIL, then merge: on
    # 1, 2 or 3 threads, cold and with a vocabulary from the last call, the same tokens share
    # an id (ids themselves may be given in another order) and the offsets are the same.
    settings = make_settings(TYPES, tokenizer=tokenizer, use_stemmer=stem)
    texts = _mixed_texts(corpora)
    split = native._punkt_split()
    want = None
    for threads in (1, 2, 3):
        encoder = native._encoder_for(settings)
        ids, offsets = encoder.encode(texts, threads)
        assert encoder.last_threads == threads  # the real thread count ran
        sent = encoder.encode_sentences(texts, 1, split, threads)
        again = encoder.encode(texts, threads)  # warm: ids from the vocabulary
        assert again == (ids, offsets)
        got = (_first_seen(ids), offsets, _first_seen(sent[0]), sent[1:], encoder.vocab_size)
        if want is None:
            want = got
        assert got == want


@needs_native
@pytest.mark.parametrize("how", ["argument", "variable"])
def test_text_stage_threads_reach_the_encoder(corpora, monkeypatch, how):
    # Through the public call: num_threads=2 or ROUGE_LCS_NUM_THREADS=2 tokenizes on two
    # threads, with the one-thread numbers.
    rows = corpora.rows("en_cnndm_realsumm")[:400]
    preds = ["\n".join(r["prediction_sents"]) for r in rows]
    refs = ["\n".join(r["references_sents"][0]) for r in rows]
    monkeypatch.setenv(native.ENV, "native")
    monkeypatch.delenv(native.THREADS_ENV, raising=False)
    one = Rouge(TYPES, use_stemmer=True, num_threads=1).score(preds, refs).fmeasure
    if how == "variable":
        monkeypatch.setenv(native.THREADS_ENV, "2")
    scorer = Rouge(TYPES, use_stemmer=True, num_threads=2 if how == "argument" else None)
    np.testing.assert_array_equal(scorer.score(preds, refs).fmeasure, one)
    assert scorer._stores.store._encoder.last_threads == 2


@needs_native
@settings(max_examples=500, deadline=None)
@given(_NEAR_HANGUL)
def test_native_unicode_tokens_near_hangul(text):
    # The encoder skips NFKC for texts of ASCII and Hangul syllables only.
    _check_unicode_tokens(text)


def test_engine_vocabulary_is_reused_between_calls():
    # A reused scorer keeps its vocabulary (one per thread) instead of rebuilding it per call,
    # with the same numbers; the Python engine keeps nothing between calls.  Batches keep
    # theirs in _stores, one-example calls (the per-call path) theirs in _pairs.
    if not native.active():
        pytest.skip("the native engine is not in use")
    scorer = Rouge(["rouge1", "rougeL"])
    batch = (["the cat sat", "a cat"], ["the cat ran", "a cat"])
    first = scorer.score(*batch).fmeasure.tolist()
    store = scorer._stores.store
    assert store is not None and len(store) == 5
    assert scorer.score(["a dog sat", "x"], ["the dog", "x"]).fmeasure.tolist()[0] == [0.4, 0.4]
    assert scorer._stores.store is store and len(store) == 7  # "dog", "x" added
    assert scorer.score(*batch).fmeasure.tolist() == first
    assert scorer._pairs.plan is None  # no one-example call yet
    assert scorer.score(["a dog sat"], ["the dog"]).fmeasure.tolist() == [[0.4, 0.4]]
    pair_encoder = scorer._pairs.plan.encoder  # the per-call plan's
    # without a stemmer a one-example call numbers its tokens itself: nothing kept
    assert pair_encoder is not store._encoder and pair_encoder.vocab_size == 0
    assert scorer.score(["the cat sat"], ["the cat ran"]).fmeasure.tolist() == [first[0]]
    assert scorer._pairs.plan.encoder is pair_encoder and pair_encoder.vocab_size == 0
    # with one, the vocabulary (and each word's stem) is kept between calls
    stemmed = Rouge(["rouge1", "rougeL"], use_stemmer=True)
    assert stemmed.score(["a dog sat"], ["the dog"]).fmeasure.tolist() == [[0.4, 0.4]]
    pair_encoder = stemmed._pairs.plan.encoder
    assert pair_encoder.vocab_size == 4
    assert stemmed.score(["the cat sat"], ["the cat ran"]).fmeasure.tolist() == [first[0]]
    assert stemmed._pairs.plan.encoder is pair_encoder and pair_encoder.vocab_size == 6
    # the one-pair path of the rewards and the drop-ins keeps its store the same way
    assert stemmed._one_pair("a dog sat", ["the dog"])[3].tolist() == [0.4, 0.4]
    assert len(stemmed._pairs.path._store) == 4
    seen = []
    thread = threading.Thread(
        target=lambda: seen.append((scorer._stores.store, scorer._pairs.plan))
    )
    thread.start()
    thread.join()
    assert seen == [(None, None)]  # another thread has its own (empty) caches
    copy = pickle.loads(pickle.dumps(scorer))
    assert copy._stores.store is None and copy._pairs.plan is None


def test_ascii_fast_path_and_other_texts_share_token_ids():
    # ASCII texts are read by a one-pass loop that hashes as it goes; a token met there and in
    # a non-ASCII text (the general loop) must get one id: "cat" matches across the two.

    scorer = Rouge(["rouge1"], tokenizer="rouge_score")
    # "the cat" vs "café cat": tokens caf, cat (rouge_score drops é) -> 1 hit of 2 and 2
    assert scorer.score(["the cat"], ["café cat"]).fmeasure.tolist() == [[0.5]]
    assert scorer.score(["café cat"], ["the cat"]).fmeasure.tolist() == [[0.5]]
    unicode = Rouge(["rouge1"])
    assert unicode.score(["Straße cat"], ["the CAT strasse"]).fmeasure.tolist() == [[0.4]]


#: The characters the C code cuts itself, stated here independently of it (csrc/tokens.h):
#: the letters (tokens) and the separators (skipped).
CHAR_LETTERS = [
    *range(0x4E00, 0x9FF0),
    *range(0xAC00, 0xD7A4),
    *range(0x3041, 0x3097),
    *range(0x309D, 0x309F),
    *(cp for cp in range(0x30A1, 0x30FF) if cp != 0x30FB),
    *range(0x3400, 0x4DC0),
    *range(0x3005, 0x3008),
]


CHAR_SEPARATORS = [
    *range(0x3000, 0x3005),
    *range(0x3008, 0x3021),
    0x30FB,
    *(cp for cp in range(0x2010, 0x2028) if cp != 0x2017),  # ‗: NFKC gives a combining mark
    *range(0xFF01, 0xFF10),
    *range(0xFF1A, 0xFF21),
    *range(0xFF3B, 0xFF41),
    *range(0xFF5B, 0xFF66),
]


def test_char_plain_characters_are_what_the_c_code_assumes():
    # Letters: each its own NFKC form with combining class 0, caseless, a grapheme cluster on its
    # own, a letter or digit.  Separators: no letter or digit, and whatever NFKC makes of them
    # holds no letter, digit, mark or conjoining jamo (so nothing composes or joins a token).
    # ASCII: lower() lowers A-Z only, and CR LF is no token.  So a text of these characters
    # has exactly the tokens the C code cuts.
    import unicodedata

    import regex

    # Hangul syllables are LV / LVT: they join only a following conjoining jamo (not in the set)
    alone = regex.compile(
        r"[\p{GCB=Other}\p{GCB=Control}\p{GCB=CR}\p{GCB=LF}\p{GCB=LV}\p{GCB=LVT}]"
    )
    letter = regex.compile(r"[\p{L}\p{N}]")
    joining = regex.compile(
        r"[\p{L}\p{N}\p{M}\p{Hangul_Syllable_Type=L}\p{Hangul_Syllable_Type=V}\p{Hangul_Syllable_Type=T}]"
    )
    for cp in CHAR_LETTERS:
        c = chr(cp)
        assert unicodedata.normalize("NFKC", c) == c and unicodedata.combining(c) == 0, hex(cp)
        assert c.lower() == c and alone.match(c) and letter.match(c), hex(cp)
    for cp in CHAR_SEPARATORS:
        c = chr(cp)
        assert not letter.match(c) and alone.match(c) and c.lower() == c, hex(cp)
        assert not joining.search(unicodedata.normalize("NFKC", c)), hex(cp)
    for cp in range(0x80):
        c = chr(cp)
        assert (c.lower() == c or "A" <= c <= "Z") and alone.match(c)


def _check_char_tokens(texts: list[str]) -> None:
    # Through the real encoder on one thread: ids are given in first-seen order, so equal
    # partitions of the tokens into ids mean the same tokens as the Python tokenizer's.
    from rouge_lcs import _native
    from rouge_lcs.text.tokenizers import char_tokenize

    ids, offsets = _native.Encoder(_native.MODE_CHAR, char_tokenize, None).encode(texts)
    got = np.frombuffer(ids, dtype=np.int32).tolist()
    starts = np.frombuffer(offsets, dtype=np.int64).tolist()
    vocab: dict[str, int] = {}
    expected = [vocab.setdefault(t, len(vocab)) for text in texts for t in char_tokenize(text)]
    lengths = [len(char_tokenize(text)) for text in texts]
    assert got == expected
    assert np.diff(starts).tolist() == lengths


_CHAR_ALPHABET = st.sampled_from(
    "aZ9 .\n\t、。「」・ー々〇中国語日本語的一ひらがなカタカナ한국어가힣"
    "\u3000\u3003\u3008\u3012\u3097\u3099\u309a\u30a0\u33ff\u4dc0\u9ff0\ua000\ud7a4"
    "\uff21\uff71\uff9e\u0301\u200d\u00e9\u212a\u0130\U00020000\U0002ebf0\u309f\u30ff"
    "，；：！？…“”（）\u3000\u2028\u200f\uff10\uff5f\uff66\u3021\u30fb\u2017"
)


@needs_native
@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(_CHAR_ALPHABET, max_size=30), min_size=1, max_size=6))
def test_native_char_tokens_equal_python_on_mixed_texts(texts):
    _check_char_tokens(texts)


@needs_native
def test_native_char_tokens_equal_python_on_the_corpora():
    import json

    for path in sorted(Path(DATA).glob("*/data.jsonl")):
        rows = [json.loads(line) for line in path.open(encoding="utf-8")]
        _check_char_tokens([t for row in rows for t in [row["prediction"], *row["references"]]])


@needs_native
@pytest.mark.parametrize("threads", [1, 2])
def test_a_token_has_one_id_whichever_path_hashed_it(threads):
    # The one-byte scan builds each token's hash as it reads (tokens.h: KeyWords); the other
    # paths hash the finished token.  A word first met by one path and then by another must
    # find the same id (a different hash would give it a second one): words of 1 to 20
    # letters cross the 7- and 8-byte word edges.
    from rouge_lcs import _native

    words = ["abcdefghijklmnopqrst"[:n] for n in range(1, 21)] + ["x1y2z3w4", "0123456"]
    encoder = _native.Encoder(_native.MODE_ROUGE_SCORE)
    ascii_ids, _ = encoder.encode([" ".join(words)] * 40, threads)  # the one-byte scan
    wide_ids, _ = encoder.encode([" ".join(words) + " \u4e2d"] * 40, threads)  # two-byte text
    got = np.frombuffer(ascii_ids, np.int32)[: len(words)].tolist()
    assert np.frombuffer(wide_ids, np.int32)[: len(words)].tolist() == got
    assert len(set(got)) == len(words) and encoder.vocab_size == len(words)


@needs_native
def test_functional_calls_share_their_threads_vocabulary(monkeypatch):
    monkeypatch.setenv(native.ENV, "native")  # also in the reference-engine pass of the suite
    # rouge() / score() make a new scorer per call; they reuse the last call's vocabulary on
    # their thread (same settings), and the numbers equal a fresh scorer's.
    from rouge_lcs import rouge
    from rouge_lcs.scores import scorer as scorer_module

    preds, refs = ["the cat sat on the mat", "dogs bark"], ["a cat sat on a mat", "dogs run"]
    rouge(preds, refs, tokenizer="rouge_score")
    first = scorer_module._FUNCTION_STORES.store
    out = rouge(["the dog sat", "cats bark"], ["a dog sat", "cats run"], tokenizer="rouge_score")
    assert scorer_module._FUNCTION_STORES.store is first and first is not None
    fresh = Rouge(tokenizer="rouge_score").compute(
        ["the dog sat", "cats bark"], ["a dog sat", "cats run"]
    )
    assert out == fresh
    rouge(preds, refs, tokenizer="rouge_score", use_stemmer=True)  # other settings: a new store
    assert scorer_module._FUNCTION_STORES.store is not first
    seen = []
    worker = threading.Thread(
        target=lambda: (rouge(preds, refs), seen.append(scorer_module._FUNCTION_STORES.store))
    )
    worker.start()
    worker.join()
    assert seen[0] is not None and seen[0] is not scorer_module._FUNCTION_STORES.store
