"""rouge_score's OWN test modules, run against ``rouge_lcs.rouge_scorer`` and ``rouge_lcs.scoring``.

rouge-score 0.1.2 ships its test modules (``rouge_score/*_test.py``, identical in its wheel and
its sdist) but not their ``testdata/`` directory.  Each module is read from the installed oracle
package, its ``from rouge_score import rouge_scorer`` / ``scoring`` lines are rewritten to import
this library's modules, and every test method becomes one pytest test (run with unittest).
Nothing is copied into this repository.

- Tests that read ``testdata/`` run when ``ROUGE_SCORE_TESTDATA`` names that directory (it is
  ``rouge/testdata`` in the google-research repository) and are skipped otherwise, saying so.
- ``tokenizers_test`` runs against ``rouge_lcs.tokenizers`` (``Tokenizer``, ``DefaultTokenizer``),
  and so does ``testRougeTokenizerInit``.  ``tokenize_test`` tests rouge_score's internal
  ``tokenize`` module, which this library does not replace: it is skipped, saying why (the
  default tokenizer's parity is tests/test_parity_rouge_score.py, and a rouge_score tokenizer
  object as a custom tokenizer is tested below).

Below them, direct comparisons with rouge_score on the shared corpora and on edge cases.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import re
import sys
import types
import unittest
from pathlib import Path

import numpy as np
import pytest
from absl import flags
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as oracle_scorer
from rouge_score import scoring as oracle_scoring
from rouge_score import test_util, tokenizers

import rouge_lcs
from rouge_lcs import rouge_scorer, scoring
from rouge_lcs import tokenizers as our_tokenizers

_SPEC = importlib.util.find_spec("rouge_score")
assert _SPEC is not None and _SPEC.origin is not None
OWN_TESTS = Path(_SPEC.origin).parent
#: The imports rewritten to this library (each must be present: a silent miss would test
#: rouge_score against itself).
REWRITES = {
    "from rouge_score import rouge_scorer\n": "from rouge_lcs import rouge_scorer\n",
    "from rouge_score import scoring\n": "from rouge_lcs import scoring\n",
    "from rouge_score import tokenizers\n": "from rouge_lcs import tokenizers\n",
}
NOT_REPLACED = {
    "tokenize_test": "tests rouge_score.tokenize, which rouge_lcs does not replace (the default "
    "tokenizer's parity with it is tests/test_parity_rouge_score.py)",
}
TESTDATA_ENV = "ROUGE_SCORE_TESTDATA"
NO_TESTDATA = (
    "needs rouge_score's testdata/{}, which neither its wheel nor its sdist ships (it is "
    f"rouge/testdata in the google-research repository): set {TESTDATA_ENV} to run it"
)
#: Read by setUp of every test of a class, whether the test uses them or not.
SETUP_FILES = {
    "TARGETS_FILE": "target.txt",
    "PREDICTIONS_FILE": "prediction.txt",
    "LARGE_TARGETS_FILE": "target_large.txt",
    "LARGE_PREDICTIONS_FILE": "prediction_large.txt",
}

# absl's TestCase reads flags in places; unparsed flags raise instead of giving defaults.
if not flags.FLAGS.is_parsed():
    flags.FLAGS.mark_as_parsed()


def _load(name: str) -> types.ModuleType:
    path = OWN_TESTS / f"{name}.py"
    source = path.read_text("utf-8")
    for old, new in REWRITES.items():
        source = source.replace(old, new)
    module = types.ModuleType(f"rouge_score_own.{name}")
    module.__file__ = str(path)
    exec(compile(source, str(path), "exec"), module.__dict__)  # tracebacks show their file
    return module


MODULES = {
    name: _load(name)
    for name in ("rouge_scorer_test", "scoring_test", "io_test", "tokenize_test", "tokenizers_test")
}


def _cases() -> dict[str, unittest.TestCase]:
    cases: dict[str, unittest.TestCase] = {}
    for name, module in MODULES.items():
        suite = unittest.defaultTestLoader.loadTestsFromModule(module)
        stack: list[unittest.TestSuite | unittest.TestCase] = [suite]
        while stack:
            item = stack.pop()
            if isinstance(item, unittest.TestSuite):
                stack.extend(reversed(list(item)))
            else:
                method = item.id().rsplit(".", 1)[1]
                cases[f"{name}.{type(item).__name__}.{method}"] = item
    return cases


CASES = _cases()


def test_the_rewrite_reaches_this_library():
    assert len(CASES) >= 45  # 31 + 7 + 5 + 1 + 2 in rouge-score 0.1.2
    for name in ("rouge_scorer_test", "scoring_test", "io_test"):
        assert MODULES[name].rouge_scorer is rouge_scorer
    for name in ("scoring_test", "io_test"):
        assert MODULES[name].scoring is scoring
    for name in ("rouge_scorer_test", "tokenizers_test"):
        assert MODULES[name].tokenizers is our_tokenizers


@pytest.fixture(scope="module")
def testdata(tmp_path_factory) -> tuple[Path, set[str]]:
    """test_util's paths pointed at ``$ROUGE_SCORE_TESTDATA``, or at empty placeholders for the
    files every setUp reads (then the tests that use them are skipped).  Returns the directory
    and the placeholder names."""
    root = tmp_path_factory.mktemp("rouge_score_testdata")
    given = os.environ.get(TESTDATA_ENV)
    if given:  # linked, not written into: placeholders below go beside the links
        for entry in Path(given).iterdir():
            (root / entry.name).symlink_to(entry.resolve())
    placeholders: set[str] = set()
    for filename in SETUP_FILES.values():
        if not (root / filename).exists():
            (root / filename).write_text("")
            placeholders.add(filename)
    saved = {k: getattr(test_util, k) for k in (*SETUP_FILES, "DELIMITED_FILE", "PYROUGE_DIR")}
    for attribute, filename in SETUP_FILES.items():
        setattr(test_util, attribute, str(root / filename))
    test_util.DELIMITED_FILE = str(root / "delimited.txt")
    test_util.PYROUGE_DIR = str(root / "pyrouge_files")
    yield root, placeholders
    for attribute, value in saved.items():
        setattr(test_util, attribute, value)


def _missing_testdata(case: unittest.TestCase, placeholders: set[str]) -> str | None:
    """A testdata file the test reads (directly, or through setUp's attributes) that is not
    there or is only a placeholder; ``None`` when it has everything."""
    method = getattr(type(case), case._testMethodName)
    used = set(re.findall(r"test_util\.([A-Z_]+)", inspect.getsource(method)))
    if re.search(r"self\.(targets|predictions)\b", inspect.getsource(method)):
        used |= set(re.findall(r"test_util\.([A-Z_]+)", inspect.getsource(type(case).setUp)))
    for attribute in sorted(used):
        path = Path(getattr(test_util, attribute))
        if not path.exists() or path.name in placeholders:
            return path.name
    return None


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_rouge_score_own_tests(case_id, testdata):
    root, placeholders = testdata
    module = case_id.split(".", 1)[0]
    if module in NOT_REPLACED:
        pytest.skip(NOT_REPLACED[module])
    case = CASES[case_id]
    missing = _missing_testdata(case, placeholders)
    if missing:
        pytest.skip(NO_TESTDATA.format(missing))
    result = unittest.TestResult()
    np.random.seed(0)  # tests that do not seed still get one sequence
    case.run(result)
    for _, trace in result.errors + result.failures:
        missing_file = re.search(
            rf"No such file or directory: '{re.escape(str(root))}/([^']+)'", trace
        )
        if missing_file:
            pytest.skip(NO_TESTDATA.format(missing_file[1]))
        pytest.fail(trace, pytrace=False)
    for _, reason in result.skipped:
        pytest.skip(reason)
    assert result.testsRun == 1 and result.wasSuccessful()


# --- Direct comparisons with rouge_score (the oracle) ------------------------------------------

TYPES = ["rouge1", "rouge2", "rouge3", "rouge9", "rougeL", "rougeLsum"]
EDGE_PAIRS = [
    ("", ""),
    ("testing one two", ""),
    ("", "testing"),
    ("   ", "\n\n"),
    ("w1 w2 w3 w4 w5", "/"),
    ("First sentence.\nSecond Sentence.", "Second sentence.\nFirst Sentence."),
    ("a a a b\n\nb a", "a b a a\na"),
    ("서울의 인구는 약 천만 명이고 대한민국의 수도이다", "서울은 대한민국의 수도이며 인구는"),
    ("Café naïve résumé İstanbul", "cafe naive resume istanbul"),
    ("The cats are running\r\nquickly", "the cat runs quick"),
]


def _rows(corpora, name: str, limit: int) -> tuple[list[str], list[list[str]]]:
    rows = corpora.rows(name)[:limit]
    preds, refs = [], []
    for row in rows:
        preds.append(
            "\n".join(row["prediction_sents"]) if "prediction_sents" in row else row["prediction"]
        )
        if "references_sents" in row:
            refs.append(["\n".join(sents) for sents in row["references_sents"]])
        else:
            refs.append(list(row["references"]))
    return preds, refs


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["nostem", "stem"])
def test_score_score_multi_and_score_batch_equal_rouge_score(corpora, use_stemmer):
    preds, refs = _rows(corpora, "en_headlines_rougemetric", 200)
    ours = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    theirs = oracle_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    first = [r[0] for r in refs]
    expected_single = [theirs.score(t, p) for t, p in zip(first, preds)]
    expected_multi = [theirs.score_multi(t, p) for t, p in zip(refs, preds)]
    assert [ours.score(t, p) for t, p in zip(first, preds)] == expected_single
    assert [ours.score_multi(t, p) for t, p in zip(refs, preds)] == expected_multi
    assert ours.score_batch(first, preds) == expected_single
    assert ours.score_batch(refs, preds) == expected_multi


def test_score_and_score_multi_count_on_the_engine(monkeypatch):
    # score / score_multi count their pair on the engine's per-call path (the store's
    # pair_plan, beside the batch path's chunk_stats), never by a counter of the drop-in's own.
    from rouge_lcs.engine import compute
    from rouge_lcs.scores import scorer as scorer_module

    calls = []
    real = compute.pair_plan

    def spy(*args):
        plan = real(*args)
        return lambda prediction, references: (
            calls.append(references) or plan(prediction, references)
        )

    monkeypatch.setattr(scorer_module, "pair_plan", spy)
    ours = rouge_scorer.RougeScorer(["rouge1", "rougeL", "rougeLsum"], use_stemmer=True)
    theirs = oracle_scorer.RougeScorer(["rouge1", "rougeL", "rougeLsum"], use_stemmer=True)
    assert ours.score("the cats sat\non the mat", "a cat sat") == theirs.score(
        "the cats sat\non the mat", "a cat sat"
    )
    targets = ["x y", "the cat sat", "a cat sat down"]
    assert ours.score_multi(targets, "a cat sat") == theirs.score_multi(targets, "a cat sat")
    assert [len(references) for references in calls] == [1, 3]


def test_score_batch_on_long_summaries(corpora):
    preds, refs = _rows(corpora, "en_cnndm_realsumm", 150)
    targets = [r[0] for r in refs]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    theirs = oracle_scorer.RougeScorer(types, use_stemmer=True)
    expected = [theirs.score(t, p) for t, p in zip(targets, preds)]
    assert rouge_scorer.RougeScorer(types, use_stemmer=True).score_batch(targets, preds) == expected


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["nostem", "stem"])
@pytest.mark.parametrize(("target", "prediction"), EDGE_PAIRS)
def test_edge_cases_equal_rouge_score(target, prediction, use_stemmer):
    ours = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer).score(target, prediction)
    theirs = oracle_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer).score(target, prediction)
    assert ours == theirs
    assert list(ours) == list(theirs)  # same keys, same order


@pytest.mark.parametrize("types", [["rougeLsum"], ("rougeL", "rouge1", "rougeL"), []])
def test_rouge_types_as_given(types):
    target, prediction = "the cat sat on the mat\nit slept", "the cat lay on a mat"
    ours = rouge_scorer.RougeScorer(types).score(target, prediction)
    assert ours == oracle_scorer.RougeScorer(types).score(target, prediction)
    assert list(ours) == list(dict.fromkeys(types))


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["stem_ignored", "stem_ignored_too"])
def test_custom_tokenizer_is_used_as_given_and_use_stemmer_is_ignored(use_stemmer):
    # rouge_score passes use_stemmer only to its default tokenizer: with a custom one, the
    # tokenizer alone decides (here: a stemming tokenizer, so "cats" matches "cat" either way).
    stemming = tokenizers.DefaultTokenizer(use_stemmer=True)
    target, prediction = "The cats were running home.\nThey ran.", "the cat runs home; they run"
    ours = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer, tokenizer=stemming)
    theirs = oracle_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer, tokenizer=stemming)
    assert ours.score(target, prediction) == theirs.score(target, prediction)

    class Whitespace:  # case kept, no stemming: "cats" != "cat", "The" != "the"
        def tokenize(self, text):
            return text.split()

    ours = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer, tokenizer=Whitespace())
    theirs = oracle_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer, tokenizer=Whitespace())
    assert ours.score(target, prediction) == theirs.score(target, prediction)


@pytest.mark.parametrize(
    "rouge_type", ["rouge0", "rouge10", "rougen", "ROUGE-1", "rougel", "rougeLSum"]
)
def test_invalid_types_fail_when_scoring_like_rouge_score(rouge_type):
    theirs = oracle_scorer.RougeScorer([rouge_type])  # both accept the name here …
    ours = rouge_scorer.RougeScorer([rouge_type])
    with pytest.raises(ValueError) as expected:
        theirs.score("a b", "a")
    with pytest.raises(ValueError) as got:  # … and raise the same error when scoring
        ours.score("a b", "a")
    assert str(got.value) == str(expected.value)
    with pytest.raises(ValueError):
        ours.score_batch(["a b"], ["a"])


def test_score_multi_takes_the_first_best_target():
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2"])
    theirs = oracle_scorer.RougeScorer(["rouge1", "rouge2"])
    targets = ["a b x", "a b y", "a c b"]  # rouge1 ties between all three, rouge2 between two
    assert scorer.score_multi(targets, "a b c") == theirs.score_multi(targets, "a b c")


def test_a_list_as_target_is_a_type_error_named_as_rouge_score_names_it():
    theirs = oracle_scorer.RougeScorer(["rouge1"])
    with pytest.raises(AttributeError):  # rouge_score fails inside its tokenizer
        theirs.score(["a b"], "a b")
    ours = rouge_scorer.RougeScorer(["rouge1"])
    with pytest.raises(TypeError, match=r"^target: expected str, got list$"):
        ours.score(["a b"], "a b")
    with pytest.raises(TypeError, match=r"^prediction: expected str, got NoneType$"):
        ours.score("a b", None)
    with pytest.raises(TypeError, match=r"^targets\[1\]: expected str, got int$"):
        ours.score_multi(["a", 3], "a")
    with pytest.raises(TypeError, match=r"^targets\[1\]: expected str or a list of str"):
        ours.score_batch(["a", None], ["a", "b"])
    with pytest.raises(TypeError, match=r"^predictions\[0\]: expected str, got int$"):
        ours.score_batch(["a"], [1])


def test_score_multi_refuses_a_string_where_rouge_score_iterates_its_characters():
    theirs = oracle_scorer.RougeScorer(["rouge1"])
    # rouge_score: the targets "a", " ", "b"; the best is "a" (P 0.5, R 1)
    assert theirs.score_multi("a b", "a b")["rouge1"].fmeasure == pytest.approx(2 / 3)
    ours = rouge_scorer.RougeScorer(["rouge1"])
    with pytest.raises(TypeError, match="targets: expected a list of str, got str"):
        ours.score_multi("a b", "a b")
    with pytest.raises(ValueError, match="targets: expected at least one target"):
        ours.score_multi([], "a b")
    # any other iterable of texts is what rouge_score iterates, with its numbers
    targets = ["a b x", "a c b"]
    assert ours.score_multi(iter(targets), "a b c") == theirs.score_multi(iter(targets), "a b c")
    assert ours.score_multi(tuple(targets), "a b c") == theirs.score_multi(targets, "a b c")


def test_tokenizer_subclassed_as_in_rouge_score():
    class Theirs(tokenizers.Tokenizer):
        def tokenize(self, text):
            return text.split()

    class Ours(our_tokenizers.Tokenizer):
        def tokenize(self, text):
            return text.split()

    with pytest.raises(TypeError):  # abstract, as theirs
        our_tokenizers.Tokenizer()  # type: ignore[abstract]
    target, prediction = "The cats ran\nhome", "the cats ran home"
    for names in (TYPES, ["rougeLsum"]):
        got = rouge_scorer.RougeScorer(names, tokenizer=Ours()).score(target, prediction)
        assert got == oracle_scorer.RougeScorer(names, tokenizer=Theirs()).score(target, prediction)
    default = our_tokenizers.DefaultTokenizer(use_stemmer=True)
    assert isinstance(default, our_tokenizers.Tokenizer)
    ours = rouge_scorer.RougeScorer(TYPES, tokenizer=default)
    theirs = oracle_scorer.RougeScorer(TYPES, tokenizer=tokenizers.DefaultTokenizer(True))
    assert ours.score(target, prediction) == theirs.score(target, prediction)
    assert rouge_scorer.tokenizers is our_tokenizers  # rouge_scorer.tokenizers, as theirs


def test_score_batch_shapes():
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    assert scorer.score_batch([], []) == []
    assert rouge_scorer.RougeScorer([]).score_batch(["a"], ["a"]) == [{}]
    result = scorer.score_batch(["a b", ("a", "a b c")], ["a", "a b"])
    assert result == [scorer.score("a b", "a"), scorer.score_multi(["a", "a b c"], "a b")]
    assert isinstance(result[0]["rouge1"], scoring.Score)
    with pytest.raises(ValueError, match="same length"):
        scorer.score_batch(["a"], ["a", "b"])


def test_split_summaries_splits_sentences_offline():
    # rouge_score needs NLTK's downloaded punkt model for this; the shim never downloads.
    scorer = rouge_scorer.RougeScorer(["rougeLsum"], split_summaries=True)
    one_line = rouge_scorer.RougeScorer(["rougeLsum"])
    target = "The cat sat on the mat. Dr. Smith arrived at 5 p.m. today."
    prediction = "Dr. Smith arrived today. The cat sat on a mat."
    by_hand = one_line.score(
        "The cat sat on the mat.\nDr. Smith arrived at 5 p.m. today.",
        "Dr. Smith arrived today.\nThe cat sat on a mat.",
    )
    assert scorer.score(target, prediction) == by_hand
    assert one_line.score(target, prediction) != by_hand  # one sentence each without the split


def test_scoring_names_match_rouge_score():
    assert scoring.Score._fields == oracle_scoring.Score._fields
    assert scoring.AggregateScore._fields == oracle_scoring.AggregateScore._fields
    assert scoring.Score is rouge_lcs.Score
    assert issubclass(rouge_scorer.RougeScorer, scoring.BaseScorer)
    for p, r in [(0.0, 0.0), (1.0, 0.5), (1 / 3, 2 / 7), (0.1, 0.7)]:
        assert scoring.fmeasure(p, r) == oracle_scoring.fmeasure(p, r)


@pytest.mark.parametrize("n_examples", [1, 2, 7, 300, 1500])
@pytest.mark.parametrize(("level", "n_samples"), [(0.95, 1000), (0.9, 37), (0.0, 5), (1.0, 1)])
def test_bootstrap_aggregator_equals_rouge_score_to_the_bit(n_examples, level, n_samples):
    rng = np.random.default_rng(n_examples)
    rows = [
        {
            "rouge1": oracle_scoring.Score(*rng.random(3)),
            "rougeL": scoring.Score(*rng.random(3)),
        }
        for _ in range(n_examples)
    ]
    results = []
    for module in (oracle_scoring, scoring):
        aggregator = module.BootstrapAggregator(confidence_interval=level, n_samples=n_samples)
        for row in rows:
            aggregator.add_scores(row)
        np.random.seed(1234)  # both draw from NumPy's global random state
        results.append(aggregator.aggregate())
        results.append(np.random.randint(0, 2**31))  # and leave it in the same state
    theirs, theirs_after, ours, ours_after = results
    assert ours == theirs and ours_after == theirs_after
    for name in ("rouge1", "rougeL"):  # bounds keep the class of the first score added
        assert type(ours[name].mid) is type(theirs[name].mid) is type(rows[0][name])


@pytest.mark.parametrize(("level", "n_samples"), [(-0.1, 10), (1.1, 10), (0.9, 0)])
def test_bootstrap_aggregator_refuses_what_rouge_score_refuses(level, n_samples):
    with pytest.raises(ValueError):
        oracle_scoring.BootstrapAggregator(level, n_samples)
    with pytest.raises(ValueError):
        scoring.BootstrapAggregator(level, n_samples)


def test_private_helpers_match_rouge_score():
    rng = np.random.default_rng(7)
    for _ in range(200):
        ref = rng.integers(0, 5, rng.integers(0, 30)).tolist()
        can = rng.integers(0, 5, rng.integers(0, 30)).tolist()
        table = oracle_scorer._lcs_table(ref, can)
        assert rouge_scorer._lcs_table(ref, can) == table
        assert rouge_scorer._backtrack_norec(table, ref, can) == oracle_scorer._backtrack_norec(
            table, ref, can
        )
        sents = [rng.integers(0, 5, rng.integers(0, 9)).tolist() for _ in range(3)]
        refs = [ref, rng.integers(0, 5, rng.integers(0, 9)).tolist()]
        assert rouge_scorer._union_lcs(ref, sents) == oracle_scorer._union_lcs(ref, sents)
        assert rouge_scorer._summary_level_lcs(refs, sents) == oracle_scorer._summary_level_lcs(
            refs, sents
        )


def test_import_switch_in_a_fresh_process():
    code = (
        "import sys; from rouge_lcs import rouge_scorer, scoring;"
        "s = rouge_scorer.RougeScorer(['rouge1', 'rougeL'], use_stemmer=True);"
        "print(s.score('The quick brown fox jumps over the lazy dog',"
        " 'The quick brown dog jumps on the log.')['rouge1'].fmeasure);"
        "assert 'rouge_score' not in sys.modules"
    )
    import subprocess

    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    expected = (
        oracle_scorer.RougeScorer(["rouge1"], use_stemmer=True)
        .score(
            "The quick brown fox jumps over the lazy dog", "The quick brown dog jumps on the log."
        )["rouge1"]
        .fmeasure
    )
    assert float(out.stdout) == expected


def test_only_dotted_capital_i_lowercases_to_two_characters():
    # rouge_score's tokens of a text that is not ASCII are cut from the characters' simple
    # lowercase, with str.lower only for this one (csrc/text.h, ascii_runs_text): its "i"
    # ends a run where the simple mapping's would not.
    longer = [
        cp for cp in range(128, 0x110000) if not 0xD800 <= cp < 0xE000 and len(chr(cp).lower()) > 1
    ]
    assert longer == [0x130]


# Characters whose lowercase is or holds an ASCII letter (KELVIN SIGN, LATIN CAPITAL LETTER I
# WITH DOT ABOVE), others past ASCII (UCS-2 and UCS-4), and ASCII: texts of 1, 2 and 4 bytes a
# character with runs that start, end or break at the characters past ASCII.
_MIXED = (
    "aZ9 .\n\u212a\u0130\u00e9\u00c9\u2019\u2014\u0307\u03a3\u2160\u00b2\uff21\u0131\u017f"
    "\U0001f600"
)


@settings(max_examples=300, deadline=None)
@given(
    st.text(_MIXED, max_size=40),
    st.text(_MIXED, max_size=40),
    st.booleans(),
)
def test_texts_past_ascii_equal_rouge_score(target, prediction, use_stemmer):
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    ours = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer)
    theirs = oracle_scorer.RougeScorer(types, use_stemmer=use_stemmer)
    expected = theirs.score(target, prediction)
    assert ours.score(target, prediction) == expected  # the per-call path
    assert ours.score_batch([target], [prediction])[0] == expected  # the batch path
