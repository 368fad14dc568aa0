"""The compiled engine: selection, bit-identical counts against the Python engine, hostile input.

The parity, gold, seed, option, validation and property tests run on both engines through the
``engine`` fixture (tests/conftest.py); this module adds direct differential tests of the
per-pair counts and the cases only the native engine is built for.
"""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
import threading
import warnings
from array import array
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rouge_lcs
from rouge_lcs import Rouge, score
from rouge_lcs.base.validation import check_texts
from rouge_lcs.config.settings import make_settings
from rouge_lcs.engine import native
from rouge_lcs.engine.compute import compute_stats
from rouge_lcs.text.tokenizers import unicode_tokenize

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"

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


# --- selection ------------------------------------------------------------------------------


def test_environment_variable_selects_the_engine(monkeypatch):
    monkeypatch.setenv(native.ENV, "python")
    assert native.implementation() == "python" and not native.active()
    monkeypatch.setenv(native.ENV, "fortran")
    with pytest.raises(ValueError, match=native.ENV):
        native.implementation()


@needs_native
def test_native_is_the_default_when_built(monkeypatch):
    monkeypatch.delenv(native.ENV, raising=False)
    assert native.implementation() == "native"


def test_forced_native_without_extension_is_an_import_error(monkeypatch):
    monkeypatch.setattr(native, "_native", None)
    monkeypatch.setenv(native.ENV, "native")
    with pytest.raises(ImportError, match="rouge_lcs._native"):
        native.implementation()


def test_missing_extension_warns_once_and_falls_back(monkeypatch):
    monkeypatch.setattr(native, "_native", None)
    monkeypatch.setattr(native, "_warned", False)
    monkeypatch.delenv(native.ENV, raising=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = score(["a b"], ["a c"], ["rouge1"]).fmeasure
        second = score(["a b"], ["a c"], ["rouge1"]).fmeasure
    assert first[0, 0] == second[0, 0] == 0.5
    assert sum("compiled extension" in str(w.message) for w in caught) == 1


# --- differential: per-pair counts equal the Python engine's ---------------------------------


@needs_native
@pytest.mark.parametrize(
    "options",
    [
        {"tokenizer": "rouge_score"},
        {"tokenizer": "rouge_score", "use_stemmer": True},
        {},
        {"use_stemmer": True, "lsum_split": "nltk"},
        {"tokenizer": "whitespace", "lsum_split": "auto"},
        {"tokenizer": lambda text: text.lower().split()[::-1]},
        {"lsum_split": lambda text: text.split(". ")},
    ],
    ids=["rouge_score", "stem", "unicode", "punkt", "whitespace", "custom_tok", "custom_split"],
)
def test_realsumm_counts_identical(corpora, options):
    rows = corpora.rows("en_cnndm_realsumm")[::5]
    preds = [r["prediction"] for r in rows]
    refs = [r["references"] for r in rows]
    _assert_same(preds, refs, **options)
    preds = ["\n".join(r["prediction_sents"]) for r in rows]
    refs = [["\n".join(r["references_sents"][0])] for r in rows]
    _assert_same(preds, refs, **options)


@needs_native
@pytest.mark.parametrize("corpus", ["ko_korsts", "en_headlines_rougemetric"])
def test_other_corpora_counts_identical(corpora, corpus):
    rows = corpora.rows(corpus)[:1500]
    _assert_same([r["prediction"] for r in rows], [r["references"] for r in rows])


def _random_text(rng: random.Random, n: int, vocab: int, newline: float) -> str:
    words = [rng.choice("abcdefghij"[:vocab]) for _ in range(n)]
    return "".join(w + ("\n" if rng.random() < newline else " ") for w in words)


@needs_native
def test_random_long_sentences_identical():
    # Sentences of 0 … 400 tokens over tiny alphabets: many ties for the backtrack, candidates
    # longer than one 64-bit word, and several strips for the longest.
    rng = random.Random(7)
    preds, refs = [], []
    for _ in range(120):
        vocab = rng.randint(1, 10)
        newline = rng.choice([0.0, 0.005, 0.05, 0.3])
        preds.append(_random_text(rng, rng.randint(0, 400), vocab, newline))
        refs.append([_random_text(rng, rng.randint(0, 400), vocab, newline)])
    _assert_same(preds, refs, lsum_split="newline")


@needs_native
def test_multi_strip_and_checkpoint_paths_identical():
    # 5,000-token candidate (two mask strips) against a 3,000-token reference, and a long pair
    # whose stored rows exceed the budget (sqrt checkpoints); checked against the Python engine.
    rng = random.Random(3)
    pred = _random_text(rng, 5000, 6, 0.0)
    ref = _random_text(rng, 3000, 7, 0.0)
    _assert_same([pred], [[ref]], ["rouge2", "rougeL", "rougeLsum"], lsum_split="newline")


sentences = st.lists(st.sampled_from(["a", "b", "c", "a b", "\n", "b a", "c c", "d"]), max_size=40)


@needs_native
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(sentences, sentences), min_size=1, max_size=5))
def test_property_counts_identical(pairs):
    preds = [" ".join(p) for p, _ in pairs]
    refs = [[" ".join(r)] for _, r in pairs]
    _assert_same(preds, refs, lsum_split="newline")


# --- hostile input ---------------------------------------------------------------------------


@needs_native
@pytest.mark.parametrize(
    "text",
    [
        "a\x00b c\x00",
        "lone \ud800 surrogate \udfff here",
        "İstanbul KELVIN \u212a ǅ ﬁ",
        "x" * 100_000,
        "",
        "\n\n\n",
    ],
    ids=["nul", "surrogates", "special_lower", "one_long_token", "empty", "newlines"],
)
@pytest.mark.parametrize("tokenizer", ["unicode", "rouge_score", "whitespace"])
def test_hostile_texts_give_the_same_numbers(text, tokenizer):
    _assert_same([text, "a b"], [[text], [text]], tokenizer=tokenizer)


@needs_native
def test_one_token_repeated_50000_times():
    text = " ".join(["same"] * 50_000)
    counts = _counts("native", [text], [[text]], ["rouge1", "rouge2", "rougeL", "rougeLsum"])
    np.testing.assert_array_equal(counts[0, :, 0], [50_000, 49_999, 50_000, 50_000])


_LONG_LINE = """
import random
import rouge_lcs
from rouge_lcs import Rouge, score
rng = random.Random(1)
words = [f"w{k}" for k in range(1000)]
line = lambda: " ".join(rng.choice(words) for _ in range(200_000))
s = score([line()], [line()], ["rouge1", "rougeLsum"], tokenizer="rouge_score")
assert 0 < s.fmeasure[0, 1] < s.fmeasure[0, 0] < 1
# VmHWM, not ru_maxrss: the latter keeps the forking parent's peak across exec.
status = open("/proc/self/status").read()
print(int(status.split("VmHWM:")[1].split()[0]) // 1024)
"""


@needs_native
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
@pytest.mark.skipif(
    "ROUGE_LCS_SANITIZED" in os.environ, reason="ASan's shadow memory counts as RSS"
)
def test_200000_token_line_in_bounded_memory():
    # One 200,000-token line: the union LCS keeps sqrt-spaced checkpoint rows, not the 5 GB of
    # all bit rows.  Peak RSS of the whole interpreter stays far below 300 MB.
    env = {**os.environ, native.ENV: "native"}
    out = subprocess.run(
        [sys.executable, "-c", _LONG_LINE], capture_output=True, text=True, env=env, check=True
    )
    assert int(out.stdout.strip()) < 300


@needs_native
def test_bad_buffers_are_rejected_not_crashing():
    from rouge_lcs import _native

    ids = np.array([0, 1, 5], dtype=np.int32)  # 5 is past the vocabulary
    starts = np.array([0, 3], dtype=np.int64)
    pairs = np.zeros(1, dtype=np.int64)
    out = np.zeros(3, dtype=np.int64)
    types = np.array([0, 1], dtype=np.int64)
    empty = np.zeros(0, dtype=np.int32)
    zero = np.zeros(1, dtype=np.int64)
    with pytest.raises(ValueError, match="out of range"):
        _native.counts(ids, starts, empty, zero, zero, pairs, pairs, types, 3, out, 1)
    for bad in (-1, -2, -(2**31)):  # negative ids, whatever the vocabulary size
        for vocab in (6, 2**31, 2**40):
            with pytest.raises(ValueError, match="out of range"):
                ids_bad = np.array([0, bad, 1], dtype=np.int32)
                _native.counts(
                    ids_bad, starts, empty, zero, zero, pairs, pairs, types, vocab, out, 1
                )
    with pytest.raises(ValueError, match="document index"):
        _native.counts(ids, starts, empty, zero, zero, pairs + 1, pairs, types, 6, out, 1)
    with pytest.raises(ValueError, match="offsets"):
        _native.counts(ids, starts[::-1].copy(), empty, zero, zero, pairs, pairs, types, 6, out, 1)


@needs_native
def test_tokenizer_errors_keep_their_messages():
    with pytest.raises(TypeError, match="must return a list of str"):
        score(["a"], ["b"], tokenizer=lambda text: [1, 2])


# --- Porter stemmer --------------------------------------------------------------------------

DICTIONARY = "/usr/share/dict/american-english-huge"  # Debian's wamerican-huge


def _corpus_words(ascii_only: bool = True) -> set[str]:
    import json
    import re

    words: set[str] = set()
    for path in sorted(Path(DATA).glob("*/data.jsonl")):
        for line in path.open(encoding="utf-8"):
            row = json.loads(line)
            texts = [row["prediction"], *row["references"]]
            for text in texts:
                words.update(re.findall(r"[a-z0-9]+", text.lower()))
                words.update(text.split())
                if not ascii_only:  # the unicode tokenizer's tokens
                    words.update(unicode_tokenize(text))
    return {w for w in words if w.isascii() or not ascii_only}


@needs_native
@pytest.mark.slow
def test_porter_port_equals_nltk_on_200000_words():
    # Every word of Debian's huge American English list (as is and lowercased) and every token
    # of the shared corpora: the C port must give NLTK's PorterStemmer() stem for each.
    from nltk.stem.porter import PorterStemmer
    from rouge_lcs._native import _test_porter_stem as porter_stem

    if not Path(DICTIONARY).exists():
        pytest.skip(f"{DICTIONARY} missing: apt-get install wamerican-huge")
    lines = Path(DICTIONARY).read_text(encoding="utf-8").split()
    words = {w for w in lines if w.isascii()} | {w.lower() for w in lines if w.isascii()}
    words |= _corpus_words()
    assert len(words) >= 200_000
    stemmer = PorterStemmer()
    wrong = [(w, stemmer.stem(w), porter_stem(w)) for w in sorted(words)]
    wrong = [case for case in wrong if case[1] != case[2]]
    assert wrong == []


@needs_native
def test_porter_port_on_rule_edge_cases():
    from nltk.stem.porter import PorterStemmer
    from rouge_lcs._native import _test_porter_stem as porter_stem

    stemmer = PorterStemmer()
    words = [
        "skies", "dying", "news", "innings", "ties", "pies", "died", "cried", "agreed", "feed",
        "hopping", "falling", "hissing", "fizzed", "failing", "filing", "happy", "enjoy", "spy",
        "sky", "syzygy", "yyyy", "toy", "formalli", "analogi", "relational", "conditional",
        "controll", "roll", "probate", "rate", "cease", "generalization", "oscillators",
        "adoption", "a", "ab", "abc", "Running", "CATS", "1990s", "x" * 1000, "y" * 999,
        "İy", "İyy", "Skies", "Howe",
    ]  # fmt: skip
    assert [porter_stem(w) for w in words] == [stemmer.stem(w) for w in words]
    # More than 128 distinct non-ASCII characters: declined (the encoder then asks NLTK).
    with pytest.raises(ValueError, match="non-ASCII"):
        porter_stem("".join(map(chr, range(0x4E00, 0x4E00 + 129))))
    with pytest.raises(TypeError):
        porter_stem(b"cats")

    class Odd(str):  # a str subclass whose lower() is not a str: stemmed as the str it is
        def lower(self):
            return 12345678901234567890

    assert porter_stem(Odd("Cats")) == "cat" and porter_stem(Odd("ab")) == "ab"


@needs_native
def test_porter_port_equals_nltk_on_every_non_ascii_corpus_word():
    # NLTK's rules see a non-ASCII letter only as "a consonant that is not y, w, x, l, s or z";
    # the port gives each distinct one a distinct byte >= 128, which its rules treat the same.
    from nltk.stem.porter import PorterStemmer
    from rouge_lcs._native import _test_porter_stem as porter_stem

    words = {w for w in _corpus_words(ascii_only=False) if not w.isascii()}
    assert len(words) > 10_000
    stemmer = PorterStemmer()
    assert [w for w in sorted(words) if porter_stem(w) != stemmer.stem(w)] == []


_LETTERS = st.sampled_from(
    list("aeiouyswxlzbcdgmnprt") + list("éüñçøßİıǅΩωжЖ한日ी\u0301") + ["\u00e9"] * 3
)
_SUFFIXES = st.sampled_from(
    ["", "ing", "ed", "ies", "ied", "s", "ss", "ational", "ization", "fulness", "ly", "e", "y",
     "ement", "izer", "bli", "logi", "alli", "ousli", "aliti", "ll", "ate", "ize"]
)  # fmt: skip


@needs_native
@settings(max_examples=3000, deadline=None)
@given(stem=st.lists(_LETTERS, max_size=12).map("".join), suffix=_SUFFIXES)
def test_porter_port_equals_nltk_on_mixed_script_words(stem, suffix):
    from nltk.stem.porter import PorterStemmer
    from rouge_lcs._native import _test_porter_stem as porter_stem

    word = stem + suffix
    assert porter_stem(word) == PorterStemmer().stem(word)


@needs_native
def test_native_stemming_of_non_ascii_words_does_not_import_nltk():
    code = (
        "import sys; from rouge_lcs import score;"
        "score(['Les cafés généralisés étaient fermés'], ['Le café généralisé était fermé'],"
        " ['rouge1'], use_stemmer=True);"
        "assert 'nltk' not in sys.modules, 'nltk imported'"
    )
    env = {**os.environ, native.ENV: "native"}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


# --- the native unicode tokenizer ------------------------------------------------------------


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
    from rouge_lcs.text.tokenizers import unicode_tokenize

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


# --- threads ---------------------------------------------------------------------------------


@needs_native
def test_threads_give_identical_counts(corpora, monkeypatch):
    rows = corpora.rows("en_cnndm_realsumm")[:600]
    preds = ["\n".join(r["prediction_sents"]) for r in rows]
    refs = [["\n".join(r["references_sents"][0])] for r in rows]
    one = _counts("native", preds, refs)
    for threads in ("2", "3", "auto"):
        monkeypatch.setenv(native.THREADS_ENV, threads)
        np.testing.assert_array_equal(_counts("native", preds, refs), one)
    monkeypatch.setenv(native.THREADS_ENV, "0")
    with pytest.raises(ValueError, match=native.THREADS_ENV):
        native.default_num_threads()


def _first_seen(ids: bytes) -> list[int]:
    """Token ids renumbered by first appearance: which tokens share an id, nothing else."""
    seen: dict[int, int] = {}
    return [seen.setdefault(i, len(seen)) for i in np.frombuffer(ids, np.int32).tolist()]


class _Text(str):
    """A str subclass whose own methods must take no part."""

    def lower(self) -> str:  # type: ignore[override]
        return "SUBCLASS"


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


@needs_native
def test_chunk_stats_seam_equals_batch_counts():
    from rouge_lcs.engine.reference.counts import batch_counts
    from rouge_lcs.engine.reference.documents import DocumentStore

    settings = make_settings(TYPES, use_stemmer=True)
    texts = ["The cats sat.\nOn mats!", "a cat sat on the mat", "", "Dogs ran. Cats sat."]
    pred, ref = np.array([0, 1, 2, 3, 0]), np.array([1, 0, 3, 2, 3])
    store = DocumentStore(settings.tokenizer, settings.splitter_spec)
    expected = batch_counts([store.get(t) for t in texts], pred, ref, settings.rouge_types)
    n_refs = array("q", [1] * len(pred))
    for threads in (1, 2):
        stats = native.NativeStore(settings, threads).chunk_stats(
            texts, array("q", pred.tolist()), array("q", ref.tolist()), n_refs
        )
        np.testing.assert_array_equal(stats.counts, expected)
        np.testing.assert_array_equal(stats.n_refs, np.ones(len(pred)))


_NO_EXTENSION = """
import sys
import threading
sys.modules["rouge_lcs._native"] = None  # as if the extension had not been built
from rouge_lcs import rouge
print(rouge(["the cat sat on the mat"], ["the cat sat on a rug"], ["rouge1"])["rouge1"])
print(rouge(["a b"], ["a c"], ["rouge1"])["rouge1"])
"""


@pytest.mark.parametrize("forced", [None, "native", "python"])
def test_without_the_extension(forced):
    # A fresh interpreter where rouge_lcs._native cannot be imported: the default warns once
    # and scores with the Python engine; forcing native is a clear ImportError.
    env = {k: v for k, v in os.environ.items() if k != native.ENV}
    if forced:
        env[native.ENV] = forced
    done = subprocess.run(
        [sys.executable, "-c", _NO_EXTENSION], capture_output=True, text=True, env=env
    )
    if forced == "native":
        assert done.returncode != 0
        assert "ImportError" in done.stderr and f"{native.ENV}=python" in done.stderr
        return
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [repr(2 / 3), "0.5"]
    warned = done.stderr.count("compiled extension is not available")
    assert warned == (1 if forced is None else 0)


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


@needs_native
@settings(max_examples=500, deadline=None)
@given(_NEAR_HANGUL)
def test_native_unicode_tokens_near_hangul(text):
    # The encoder skips NFKC for texts of ASCII and Hangul syllables only.
    _check_unicode_tokens(text)


def _punkt_sentences(text: str) -> list[str]:
    from rouge_lcs.text.sentences import _punkt, cjk_cuts

    return cjk_cuts(_punkt("english").tokenize(text))


def _check_split_shortcut(texts: list[str]) -> None:
    """The C encoder's Punkt shortcut gives Punkt's own sentences (it skips Punkt only for
    texts Punkt cannot split)."""
    from rouge_lcs import _native
    from rouge_lcs.text.tokenizers import unicode_tokenize

    encoder = _native.Encoder(_native.MODE_UNICODE, unicode_tokenize, None, native._normalize)
    ids, offsets, docs, doc_offsets = encoder.encode_sentences(texts, 2, _punkt_sentences, 1, True)
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


@needs_native
def test_punkt_shortcut_in_c_agrees_with_punkt_on_the_corpora(corpora):
    for name in ("ko_korsts", "en_cnndm_realsumm"):
        rows = corpora.rows(name)[:3000]
        _check_split_shortcut([t for r in rows for t in [r["prediction"], *r["references"]]])


@needs_native
@pytest.mark.parametrize(
    ("argument", "variable", "expected"),
    [(None, None, 1), (None, "2", 2), (3, "2", 3), (2, None, 2)],
)
def test_thread_count_reaches_the_kernel(monkeypatch, argument, variable, expected):
    # The public call, the real kernel: the C function returns how many threads it ran, and
    # this spy only passes that on.  num_threads=None reads ROUGE_LCS_NUM_THREADS at scoring.
    ran: list[int] = []
    real = native._native.counts

    def spy(*args):
        ran.append(real(*args))

    monkeypatch.setattr(native._native, "counts", spy)
    if variable is None:
        monkeypatch.delenv(native.THREADS_ENV, raising=False)
    else:
        monkeypatch.setenv(native.THREADS_ENV, variable)
    monkeypatch.setenv(native.ENV, "native")
    preds = [f"the cat {k} sat on the mat" for k in range(50)]
    refs = [f"a cat {k} sat on a mat" for k in range(50)]
    one = rouge_lcs.score(preds, refs, ["rouge1", "rougeL"], num_threads=1).fmeasure
    ran.clear()
    got = rouge_lcs.Rouge(["rouge1", "rougeL"], num_threads=argument).score(preds, refs)
    assert ran == [expected]
    np.testing.assert_array_equal(got.fmeasure, one)


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
    assert scorer._pairs.path is None  # no one-example call yet
    assert scorer.score(["a dog sat"], ["the dog"]).fmeasure.tolist() == [[0.4, 0.4]]
    pair_store = scorer._pairs.path._store
    # without a stemmer a one-example call numbers its tokens itself: nothing kept
    assert pair_store is not None and pair_store is not store and len(pair_store) == 0
    assert scorer.score(["the cat sat"], ["the cat ran"]).fmeasure.tolist() == [first[0]]
    assert scorer._pairs.path._store is pair_store and len(pair_store) == 0
    # with one, the vocabulary (and each word's stem) is kept between calls
    stemmed = Rouge(["rouge1", "rougeL"], use_stemmer=True)
    assert stemmed.score(["a dog sat"], ["the dog"]).fmeasure.tolist() == [[0.4, 0.4]]
    pair_store = stemmed._pairs.path._store
    assert len(pair_store) == 4
    assert stemmed.score(["the cat sat"], ["the cat ran"]).fmeasure.tolist() == [first[0]]
    assert stemmed._pairs.path._store is pair_store and len(pair_store) == 6  # cat, ran
    seen = []
    thread = threading.Thread(
        target=lambda: seen.append((scorer._stores.store, scorer._pairs.path))
    )
    thread.start()
    thread.join()
    assert seen == [(None, None)]  # another thread has its own (empty) caches
    copy = pickle.loads(pickle.dumps(scorer))
    assert copy._stores.store is None and copy._pairs.path is None


def test_ascii_fast_path_and_other_texts_share_token_ids():
    # ASCII texts are read by a one-pass loop that hashes as it goes; a token met there and in
    # a non-ASCII text (the general loop) must get one id: "cat" matches across the two.

    scorer = Rouge(["rouge1"], tokenizer="rouge_score")
    # "the cat" vs "café cat": tokens caf, cat (rouge_score drops é) -> 1 hit of 2 and 2
    assert scorer.score(["the cat"], ["café cat"]).fmeasure.tolist() == [[0.5]]
    assert scorer.score(["café cat"], ["the cat"]).fmeasure.tolist() == [[0.5]]
    unicode = Rouge(["rouge1"])
    assert unicode.score(["Straße cat"], ["the CAT strasse"]).fmeasure.tolist() == [[0.4]]


# --- the C sources by stage -------------------------------------------------------------------

CSRC = Path(__file__).resolve().parents[2] / "rouge_lcs" / "engine" / "csrc"
#: The stages that run without the GIL, or need no Python: they must not see Python.h at all.
PYTHON_FREE = [
    "kernels.h",
    "lcs_step.h",
    "porter.h",
    "rouge155.h",
    "scores.h",
    "similarity.h",
    "tokens.h",
    "punkt_tables.h",
    "punkt.h",
    "case_table.h",
    "nfkc_table.h",
    "unicode_table.h",
    "nfkc.h",
    "arrow.h",
    "prefix.h",
    "wlcs.h",
]
#: The files that call CPython: text.h (the text stage that holds the GIL) and the bindings,
#: one per stage, named py_<stage>.h.
PYTHON_SIDE = ["text.h"]
#: The tables the build writes (setup.py's write_generated_headers), not kept in csrc/.
GENERATED = {"unicode_table.h", "case_table.h", "nfkc_table.h"}


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    """An include folder with the generated tables, written as the build writes them."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("setup", CSRC.parents[2] / "setup.py")
    assert spec is not None and spec.loader is not None
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)
    return setup.write_generated_headers(tmp_path_factory.mktemp("generated"))


def _source(header: str, generated: Path) -> Path:
    return (generated if header in GENERATED else CSRC) / header


def _compiler() -> str | None:
    import shutil
    import sysconfig

    configured = (sysconfig.get_config_var("CC") or "").split()
    for name in [*configured[:1], "cc", "gcc", "clang"]:
        if shutil.which(name):
            return name
    return None


@pytest.mark.parametrize("header", PYTHON_FREE)
def test_gil_free_headers_include_no_python_h(header, generated):
    text = _source(header, generated).read_text("utf-8")
    includes = [line for line in text.splitlines() if line.lstrip().startswith("#include")]
    assert includes and not any("Python" in line or "text.h" in line for line in includes)
    assert "Py" not in "".join(
        line for line in text.splitlines() if not line.startswith((" *", "/*"))
    )


@pytest.mark.parametrize("header", PYTHON_FREE)
def test_gil_free_headers_compile_alone_without_python_headers(header, tmp_path, generated):
    compiler = _compiler()
    if compiler is None:
        pytest.skip("no C compiler")
    # No -I for Python: a Python.h reached from this header would fail the compile.
    done = subprocess.run(
        [
            compiler,
            "-fsyntax-only",
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-Wno-unused-function",
            f"-I{generated}",
            "-x",
            "c",
            str(_source(header, generated)),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr


def test_every_header_is_gil_free_or_a_binding():
    """A new header is either a kernel (no Python.h, checked above) or a binding named py_*.h:
    nothing in between, so that "no Python.h" stays a property of a file's name."""
    headers = sorted(p.name for p in CSRC.glob("*.h"))
    bindings = [h for h in headers if h.startswith("py_")]
    assert bindings and sorted([*PYTHON_FREE, *PYTHON_SIDE, *bindings]) == sorted(
        [*headers, *GENERATED]
    )


def test_buffers_from_python_are_acquired_and_checked_in_one_place():
    """py_args.h's check_buffers is the one buffer check: no binding acquires a buffer itself
    or checks a size of its own (the y*/w* views of PyArg_ParseTuple go through it too)."""
    for path in [*CSRC.glob("*.h"), CSRC / "module.c"]:
        text = path.read_text("utf-8")
        if path.name != "py_args.h":
            assert "PyObject_GetBuffer" not in text, path.name
            assert "->len %" not in text and ".len %" not in text, path.name


def test_every_c_file_is_built_and_shipped():
    """setup.py builds module.c, which includes every header of the folder and the generated
    tables; MANIFEST.in ships the folder and the tables' generators (the sdist builds the
    wheel)."""
    root = CSRC.parent.parent.parent
    module = (CSRC / "module.c").read_text("utf-8")
    for header in sorted({*(p.name for p in CSRC.glob("*.h")), *GENERATED}):
        assert f'#include "{header}"' in module
    manifest = (root / "MANIFEST.in").read_text()
    assert "scripts/gen_unicode_table.py" in manifest and "scripts/gen_nfkc_table.py" in manifest
    assert sorted(p.name for p in CSRC.iterdir() if p.suffix in (".c", ".h")) == sorted(
        [*(p.name for p in CSRC.glob("*.h")), "module.c"]
    )
    assert "recursive-include rouge_lcs/engine/csrc *.c *.h" in (root / "MANIFEST.in").read_text()
    assert '"rouge_lcs/engine/csrc"' in (root / "setup.py").read_text()


# --- the char tokenizer in C (csrc/tokens.h, char_plain) ---------------------------------------

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
@pytest.mark.parametrize(("vocab", "expected"), [(1_000, 8), (10_000_000, 3), (20_000_000, 1)])
def test_counting_threads_stay_within_the_workspace_budget(vocab, expected):
    # Each counting thread holds two vocabulary-sized tables (8 bytes an id); together they
    # stay under 256 MB (csrc/kernels.h), so a large vocabulary runs on fewer threads than
    # asked.  The kernel returns the threads it ran; the counts do not depend on them.
    from rouge_lcs import _native

    ids = np.array([0, 1, 2, 1, 2, 3], dtype=np.int32)
    starts = np.array([0, 3, 6], dtype=np.int64)
    pred = np.zeros(8, dtype=np.int64)
    ref = np.ones(8, dtype=np.int64)
    types = np.array([0, 1, 1, 0], dtype=np.int64)  # rouge1, rougeL
    empty, zero = np.zeros(0, dtype=np.int32), np.zeros(3, dtype=np.int64)
    out = np.zeros(8 * 2 * 3, dtype=np.int64)
    ran = _native.counts(ids, starts, empty, zero, zero, pred, ref, types, vocab, out, 8)
    assert ran == expected
    assert out.reshape(8, 2, 3).tolist() == [[[2, 3, 3], [2, 3, 3]]] * 8  # "0 1 2" vs "1 2 3"


# --- P/R/F from counts in C (csrc/scores.h) -------------------------------------------------


def _random_counts(rng: np.random.Generator, n_examples: int, n_types: int, max_refs: int):
    n_refs = rng.integers(1, max_refs + 1, n_examples).astype(np.int64)
    pairs = int(n_refs.sum())
    totals = rng.integers(0, 40, (pairs, n_types, 2))
    totals[rng.random((pairs, n_types, 2)) < 0.1] = 0  # empty texts: zero denominators
    hits = np.minimum(rng.integers(0, 40, (pairs, n_types)), totals.min(axis=2))
    counts = np.concatenate([hits[..., None], totals], axis=2).astype(np.int64)
    return counts, n_refs


@needs_native
@pytest.mark.parametrize("mode", ["max_f", "max_recall", "pooled", "mean"])
@pytest.mark.parametrize("beta", [1.0, 0.5, 2.0, 1.2])
def test_native_combine_is_bit_identical_to_the_numpy_reference(mode, beta):
    from array import array

    from rouge_lcs.scores.multiref import combine

    rng = np.random.default_rng(7)
    for max_refs in (1, 2, 5):
        counts, n_refs = _random_counts(rng, 300, 3, max_refs)
        flat = (array("q", counts.tobytes()), array("q", n_refs.tobytes()))
        got = _native_combine(flat, 3, mode, beta)
        want = combine(counts, n_refs, mode, beta)
        for g, w in zip(got, want):
            assert np.frombuffer(g, dtype=np.float64).tobytes() == w.tobytes()


@needs_native
def test_native_combine_hand_worked():
    from array import array

    # One example, two references, one type: (hits, pred total, ref total) = (2, 4, 5), (3, 4, 4)
    counts = array("q", [2, 4, 5, 3, 4, 4])
    n_refs = array("q", [2])
    p, r, f = _native_combine((counts, n_refs), 1, "max_f", 1.0)
    assert (p[0], r[0], f[0]) == (0.75, 0.75, 0.75)  # the second: F 0.75 > 4/9
    p, r, f = _native_combine((counts, n_refs), 1, "pooled", 1.0)
    assert (p[0], r[0]) == (5 / 8, 5 / 9)
    p, r, f = _native_combine((counts, n_refs), 1, "mean", 1.0)
    assert (p[0], r[0]) == ((0.5 + 0.75) / 2, (0.4 + 0.75) / 2)
    p, r, f = _native_combine((array("q", [0, 0, 0]), array("q", [1])), 1, "max_f", 1.0)
    assert (p[0], r[0], f[0]) == (0.0, 0.0, 0.0)


@needs_native
@pytest.mark.parametrize(
    "args, error",
    [
        ((b"\0" * 24, 1, b"\0" * 8, 0, 1.0), ValueError),  # n_refs 0
        ((b"\0" * 24, 1, b"\2\0\0\0\0\0\0\0", 0, 1.0), ValueError),  # 2 refs, 1 pair
        ((b"\0" * 24, 0, b"\1" + b"\0" * 7, 0, 1.0), ValueError),  # no types
        ((b"\0" * 24, 1, b"\1" + b"\0" * 7, 4, 1.0), ValueError),  # mode
        ((b"\0" * 24, 1, b"\1" + b"\0" * 7, 0, float("nan")), ValueError),  # beta
        ((b"\0" * 23, 1, b"\1" + b"\0" * 7, 0, 1.0), ValueError),  # ragged buffer
        ((b"\0" * 24, 1, b"\1" + b"\0" * 7 + b"\xff" * 8, 0, 1.0), ValueError),  # sizes
    ],
)
def test_native_combine_checks_its_buffers(args, error):
    outs = [bytearray(8) for _ in range(3)]
    with pytest.raises(error):
        native._native.combine(*args, *outs)


@needs_native
def test_native_combine_refuses_overlapping_outputs():
    out = bytearray(8)
    with pytest.raises(ValueError, match="overlaps"):
        native._native.combine(b"\0" * 24, 1, b"\1" + b"\0" * 7, 0, 1.0, out, out, bytearray(8))


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


# --- numbering a chunk's texts (Backend.number_texts) ------------------------------------------


@needs_native
def test_number_texts_hand_worked_on_both_engines():
    from rouge_lcs.engine.reference.python import BACKEND as PYTHON

    # first-seen order, pair texts first: a=0 b=1 c=2, then the references' new d=3
    pairs, refs = ["a", "b", "a", "c"], ["b", "d", "a", "d"]
    want = (["a", "b", "c", "d"], [0, 1, 0, 2], [1, 3, 0, 3])
    for engine in (PYTHON, native.BACKEND):
        texts, pair_pred, pair_ref = engine.number_texts(pairs, refs)
        assert (texts, list(pair_pred), list(pair_ref)) == want
        assert pair_pred.typecode == pair_ref.typecode == "q"


@needs_native
def test_number_texts_agrees_between_engines_on_equal_but_distinct_strings():
    from rouge_lcs.engine.reference.python import BACKEND as PYTHON

    rng = random.Random(3)
    words = ["", "x", "é", "中", "😀", "a b", "\ud800", "long " * 40]
    # equal strings built separately are distinct objects: numbered by value, not identity
    pairs = ["".join(rng.choice(words) for _ in range(rng.randint(0, 3))) for _ in range(3000)]
    refs = ["".join(rng.choice(words) for _ in range(rng.randint(0, 3))) for _ in range(3000)]
    got, want = native.BACKEND.number_texts(pairs, refs), PYTHON.number_texts(pairs, refs)
    assert got[0] == want[0] and got[1] == want[1] and got[2] == want[2]
    assert native.BACKEND.number_texts([], []) == ([], array("q"), array("q"))


@needs_native
def test_number_texts_of_a_range_equal_the_range_sliced_on_both_engines():
    from rouge_lcs.engine.reference.python import BACKEND as PYTHON

    # items 2 .. 4 of the lists: d=0 a=1 e=2 from the pairs, then the references' b=3 (the
    # items outside the range are not seen, so "x" and "y" get no number)
    pairs, refs = ["x", "y", "d", "a", "e", "x"], ["y", "x", "b", "d", "b", "y"]
    want = (["d", "a", "e", "b"], [0, 1, 2], [3, 0, 3])
    for engine in (PYTHON, native.BACKEND):
        texts, pair_pred, pair_ref = engine.number_texts(pairs, refs, 2, 5)
        assert (texts, list(pair_pred), list(pair_ref)) == want
        assert engine.number_texts(pairs, refs, 4) == engine.number_texts(pairs[4:], refs[4:])
        assert engine.number_texts(pairs, refs, 6) == ([], array("q"), array("q"))


@needs_native
@pytest.mark.parametrize("start, n_out", [(-1, 1), (3, 0), (2, 2), (1, 2)])
def test_number_texts_refuses_a_range_outside_the_lists(start, n_out):
    outs = [array("q", bytes(8 * n_out)) for _ in range(2)]
    with pytest.raises(ValueError, match="do not fit"):
        native._native.number_texts(["a", "b"], ["c", "d"], *outs, start)


@needs_native
@pytest.mark.parametrize(
    "pairs, refs, n_out, error, match",
    [
        (["a", 1], ["b", "c"], 2, TypeError, r"pair_texts\[1\]: expected a str"),
        (["a"], [b"b"], 1, TypeError, r"ref_texts\[0\]: expected a str"),
        (["a"], [_Text("b")], 1, TypeError, r"ref_texts\[0\]"),  # callers pass exact strs
        (["a", "b"], ["c"], 2, ValueError, "same length"),
        (["a"], ["b"], 2, ValueError, "do not fit"),
    ],
)
def test_number_texts_checks_what_enters(pairs, refs, n_out, error, match):
    outs = [array("q", bytes(8 * n_out)) for _ in range(2)]
    with pytest.raises(error, match=match):
        native._native.number_texts(pairs, refs, *outs)
    with pytest.raises(TypeError):
        native._native.number_texts(("a",), ["b"], *outs)  # a list, not a tuple
    with pytest.raises(TypeError):
        native._native.number_texts(["a"], ["b"], b"\0" * 8, outs[1])  # read-only output
    shared = array("q", [0])
    with pytest.raises(ValueError, match="overlaps"):
        native._native.number_texts(["a"], ["b"], shared, shared)


@needs_native
@pytest.mark.parametrize(
    "items, want",
    [
        ([], True),  # every item of none
        (["a", "", "中", "\ud800"], True),
        (["a"] * 40 + [_Text("b")], False),  # a subclass, past the prefetched ones
        ([1] + ["a"] * 40, False),
        (["a"] * 39 + [None], False),  # the last item
        ([b"a"], False),
    ],
)
def test_exact_strs_is_set_of_types_on_both_engines(items, want):
    # Backend.exact_strs answers what validation's set(map(type, items)) <= {str} answers
    from rouge_lcs.base.validation import exact_strs
    from rouge_lcs.engine.reference.python import BACKEND as PYTHON

    assert exact_strs(items) is want
    assert PYTHON.exact_strs(items) is want
    assert native.BACKEND.exact_strs(items) is want


@needs_native
@pytest.mark.parametrize("function", ["exact_strs", "all_utf8"])
def test_the_batch_checks_take_only_a_list(function):
    with pytest.raises(TypeError, match=f"{function}: expected a list, got tuple"):
        getattr(native._native, function)(("a",))


@needs_native
@pytest.mark.parametrize(
    "texts, want",
    [
        ([], True),
        (["a", "é", "中", "😀", "\u00ff" * 300], True),
        (["a"] * 40 + ["x" * 500 + "中\ud800"], False),  # a two-byte text, past a block
        (["😀" * 300 + "\udfff"], False),  # a four-byte one
        (["\ud83d\ude00"], False),  # two surrogates are not one character
        ([_Text("中\udc00")], False),  # a subclass, read by its characters
        (["\ud7ff\ue000\U0010ffff"], True),  # beside the surrogates
    ],
)
def test_all_utf8_finds_surrogates_on_both_engines(texts, want):
    # UTF-8 encodes every code point but the surrogates U+D800..U+DFFF (the definition)
    from rouge_lcs.engine.reference.python import BACKEND as PYTHON

    assert all(not 0xD800 <= ord(c) <= 0xDFFF for text in texts for c in text) is want
    assert PYTHON.all_utf8(texts) is want
    assert native.BACKEND.all_utf8(texts) is want


@needs_native
def test_all_utf8_checks_each_item():
    with pytest.raises(TypeError, match=r"texts\[1\]: expected a str, got bytes"):
        native._native.all_utf8(["a", b"b"])


def _tricky_floats(rng: random.Random, n: int) -> list[float]:
    # values whose naive sum rounds differently from the exact one: cancelling giants,
    # subnormals, ties, signed zeros, and scores' own range
    pool = [
        lambda: rng.random(),
        lambda: rng.uniform(-1e16, 1e16),
        lambda: 2.0**-1074 * rng.randint(-3, 3),
        lambda: rng.choice([0.0, -0.0, 1.0, 0.5, 1e-16, -1e-16]),
        lambda: rng.uniform(-1, 1) * 2.0 ** rng.randint(-1074, 900),
        lambda: rng.randint(0, 7) / 7,
    ]
    return [rng.choice(pool)() for _ in range(n)]


@needs_native
def test_column_sums_are_math_fsum_on_both_engines():
    import math

    from rouge_lcs.engine.reference.python import BACKEND as PYTHON

    rng = random.Random(7)
    for _ in range(3000):
        columns = rng.randint(1, 5)
        values = _tricky_floats(rng, columns * rng.randint(0, 40))
        want = [math.fsum(values[c::columns]) for c in range(columns)]
        for engine in (PYTHON, native.BACKEND):
            got = engine.column_sums(array("d", values), columns)
            # equal, and zeros of the same sign (fsum of -0.0 alone is 0.0)
            assert [(g, math.copysign(1, g)) for g in got] == [
                (w, math.copysign(1, w)) for w in want
            ], values


@needs_native
def test_column_sums_checks_what_enters():
    with pytest.raises(ValueError, match="finite"):
        native._native.column_sums(array("d", [0.5, float("nan")]), 1)
    with pytest.raises(ValueError, match="finite"):
        native._native.column_sums(array("d", [float("inf")]), 1)
    with pytest.raises(OverflowError, match="overflows"):
        native._native.column_sums(array("d", [1e308, 1e308]), 1)  # math.fsum raises too
    with pytest.raises(ValueError, match="dividing"):
        native._native.column_sums(array("d", [1.0, 2.0, 3.0]), 2)
    with pytest.raises(ValueError, match="dividing"):
        native._native.column_sums(array("d", [1.0]), 0)
    with pytest.raises(ValueError, match="multiple of 8"):
        native._native.column_sums(b"\0" * 12, 1)
    with pytest.raises(ValueError, match="aligned"):
        native._native.column_sums(memoryview(bytearray(17))[1:], 1)
    assert native._native.column_sums(array("d"), 3) == [0.0, 0.0, 0.0]


def test_scoring_checks_texts_with_the_engine_and_keeps_the_messages():
    # The scorers and the evaluate module check texts through the engine (checked_texts):
    # the same messages as check_texts, and a str subclass scored as its text.
    from rouge_lcs import Rouge
    from rouge_lcs.hub import check_batch

    scorer = Rouge(["rouge1"])
    with pytest.raises(TypeError, match=r"predictions\[40\]: expected str, got int"):
        scorer.score(["a b"] * 40 + [1], ["a"] * 41)
    with pytest.raises(TypeError, match=r"references\[1\]: expected str or a list"):
        scorer.score(["a", "b"], ["a", None])
    assert scorer.score([_Text("a b")], ["a c"]).fmeasure[0, 0] == 0.5  # hand-worked: 1 of 2
    with pytest.raises(TypeError, match=r"predictions\[1\]: expected str, got bytes"):
        check_batch(["a", b"b"], ["a", "b"])


@needs_native
def test_counting_threads_balance_skewed_pairs_with_identical_counts(monkeypatch):
    # A few long pairs among many short ones: the shards claim blocks of pairs as they go,
    # and every pair's counts land at its own place whatever thread counted it.
    rng = random.Random(5)
    words = [f"w{k}" for k in range(30)]

    def text() -> str:
        return " ".join(rng.choices(words, k=rng.choices([3, 9, 2000], [60, 38, 2])[0]))

    preds, refs = [text() for _ in range(700)], [text() for _ in range(700)]
    types = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]
    want = score(preds, refs, types, num_threads=1).fmeasure
    for threads in (2, 3, 8):
        np.testing.assert_array_equal(score(preds, refs, types, num_threads=threads).fmeasure, want)
    monkeypatch.setenv(native.ENV, "python")
    np.testing.assert_array_equal(score(preds, refs, types).fmeasure, want)


NO_NUMPY_CALL = """
import sys
from rouge_lcs import rouge, Rouge
preds = ["The cat sat on the mat. It was happy.", "a b c"]
refs = [["The cat sat on a rug.\\nIt purred.", "x y"], ["a b d"]]
assert rouge(preds, refs)["rouge1"] > 0
rouge(preds, refs, use_aggregator=False, return_precision_recall=True, return_signature=True)
rouge(preds, refs, tokenizer="rouge_score", use_stemmer=True, multi_ref="pooled")
Rouge(["rouge1", "rougeL"]).score(preds, refs).mean()
loaded = sorted(m for m in sys.modules if m.split(".")[0] == "numpy" and "." in m)
print(loaded)
"""


@needs_native
def test_the_native_path_scores_without_importing_numpy():
    # A fresh process's first call: NumPy's import was most of it; the native engine goes
    # from texts to the evaluate-style output and the means with plain buffers.
    env = {**os.environ, "ROUGE_LCS_IMPLEMENTATION": "native"}
    done = subprocess.run(
        [sys.executable, "-c", NO_NUMPY_CALL], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout


@needs_native
def test_scores_from_flat_statistics_read_as_numpy_alike(monkeypatch):
    monkeypatch.setenv(native.ENV, "native")  # also in the reference-engine pass of the suite
    preds = ["The cat sat on the mat.", "a b c", ""]
    refs = [["The cat sat on a rug.", "x y"], ["a b d"], ["q"]]
    got = Rouge(["rouge1", "rougeLsum"]).score(preds, refs)
    assert got.stats.flat() is not None
    assert got.fmeasure.shape == (3, 2) and got.stats.counts.shape == (4, 2, 3)
    assert got.values("rouge1") == got.column("rouge1").tolist()
    assert got.stats.ref_counts() == [2, 1, 1] == got.stats.n_refs.tolist()
    again = pickle.loads(pickle.dumps(got))
    assert again.fmeasure.tobytes() == got.fmeasure.tobytes()
    assert again.stats.counts.tobytes() == got.stats.counts.tobytes()
    with pytest.raises(AttributeError):
        got.fmeasure = None  # type: ignore[misc]


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


@needs_native
def test_native_combine_pooled_sums_wrap_like_numpy_without_undefined_behaviour():
    # Counts the kernels never make (near 2**63): the pooled sum wraps as NumPy's int64 sum
    # does, instead of a signed overflow (undefined behaviour; the sanitizer build checks).
    from array import array

    from rouge_lcs.scores.multiref import combine

    counts = np.full((2, 1, 3), 1 << 62, dtype=np.int64)
    n_refs = np.array([2], dtype=np.int64)
    got = _native_combine(
        (array("q", counts.tobytes()), array("q", n_refs.tobytes())), 1, "pooled", 1.0
    )
    want = combine(counts, n_refs, "pooled", 1.0)
    for g, w in zip(got, want):
        assert np.frombuffer(g, dtype=np.float64).tobytes() == w.tobytes()
