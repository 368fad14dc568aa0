"""Tokenizers: the Unicode default, the registry, custom tokenizers and stemming."""

from __future__ import annotations

import pytest

from rouge_lcs import rouge, score
from rouge_lcs.text.tokenizers import resolve_tokenizer, unicode_tokenize


def test_hangul_words_stay_whole():
    assert unicode_tokenize("서울은 대한민국의 수도이며, 인구는 약 구백만 명이다.") == [
        "서울은",
        "대한민국의",
        "수도이며",
        "인구는",
        "약",
        "구백만",
        "명이다",
    ]


def test_cjk_ideographs_and_kana_are_single_tokens():
    assert unicode_tokenize("東京は日本の首都です。") == list("東京は日本の首都です")
    assert unicode_tokenize("カタカナとひらがな") == list("カタカナとひらがな")
    assert unicode_tokenize("北京2024年GDP") == ["北", "京", "2024", "年", "gdp"]


def test_nfkc_and_lowercase():
    # Full-width Latin and digits fold to ASCII; the Kelvin sign and ligatures normalise.
    assert unicode_tokenize("ＡＢＣ１２３ ﬁne \u212a") == ["abc123", "fine", "k"]
    assert unicode_tokenize("Ça VA") == ["ça", "va"]


def test_combining_marks_stay_inside_words():
    assert unicode_tokenize("हिन्दी भाषा") == ["हिन्दी", "भाषा"]
    assert unicode_tokenize("cafe\u0301") == ["café"]


def test_underscore_and_punctuation_split():
    assert unicode_tokenize("snake_case, x-ray; it's") == ["snake", "case", "x", "ray", "it", "s"]


def test_stock_tokenizer_drops_korean_ours_does_not():
    pred, ref = "서울은 대한민국의 수도이다", "서울은 대한민국의 수도이다"
    assert rouge([pred], [ref], ["rouge1"], tokenizer="rouge_score")["rouge1"] == 0.0
    assert rouge([pred], [ref], ["rouge1"])["rouge1"] == 1.0


def test_whitespace_tokenizer_keeps_case():
    s = score(["The cat"], ["the cat"], ["rouge1"], tokenizer="whitespace")
    assert s.recall[0, 0] == 0.5


def test_callable_and_tokenize_object():
    class Chars:
        def tokenize(self, text):
            return list(text.replace(" ", ""))

    assert score(["abc"], ["abd"], ["rouge1"], tokenizer=Chars()).recall[0, 0] == pytest.approx(
        2 / 3
    )
    assert score(["a-b"], ["a b"], ["rouge1"], tokenizer=lambda t: t.split("-")).recall[0, 0] == 0


def test_stemming_applies_to_custom_tokenizers_too():
    """rouge_score silently ignores use_stemmer with a custom tokenizer; we do not."""
    tok = resolve_tokenizer(str.split, use_stemmer=True)
    assert tok.tokenize("running dogs") == ["run", "dog"]
    s = score(["running dogs"], ["run dog"], ["rouge1"], tokenizer=str.split, use_stemmer=True)
    assert s.fmeasure[0, 0] == 1.0


def test_stemming_only_tokens_longer_than_three():
    # rouge_score's rule: "does" (4) is stemmed, "was" (3) is not.
    assert resolve_tokenizer("unicode", True).tokenize("does was cats") == ["doe", "was", "cat"]


def test_bad_tokenizer_arguments():
    with pytest.raises(ValueError, match="tokenizer: expected one of .*, got 'spacy'"):
        resolve_tokenizer("spacy")
    with pytest.raises(TypeError, match="tokenizer"):
        resolve_tokenizer(42)
    with pytest.raises(TypeError, match="tokenizer: .* must return a list of str"):
        score(["a"], ["a"], tokenizer=lambda t: t)
    with pytest.raises(TypeError, match="tokenizer: .* must return a list of str"):
        score(["a"], ["a"], tokenizer=lambda t: [1, 2])


def test_letter_digit_runs_split_as_rouge_score_splits_them():
    # docs/similarity.md: both tokenizers keep letter-digit runs whole and split elsewhere; the
    # oracle is rouge_score's own tokenize.
    from rouge_score import tokenize

    text = "abc123 gpt-4o 3.14 COVID19 x2y3"
    expected = tokenize.tokenize(text, None)
    assert expected == ["abc123", "gpt", "4o", "3", "14", "covid19", "x2y3"]
    assert unicode_tokenize(text) == expected
    assert resolve_tokenizer("rouge_score").tokenize(text) == expected


def test_dedup_default_tokenizer_sees_chinese_where_rouge_score_sees_nothing():
    # docs/similarity.md's example: 写一首诗 / 写一首歌 share 3 of 4 characters (F 0.75 > 0.7);
    # rouge_score's tokenizer keeps only [a-z0-9], so it sees no token and drops nothing.
    from rouge_lcs.similarity import dedup

    texts = ["写一首诗", "写一首歌"]
    assert list(dedup(texts, threshold=0.7).kept) == [0]
    assert list(dedup(texts, threshold=0.7, tokenizer="rouge_score").kept) == [0, 1]


def test_settings_of_one_tokenizer_object_are_equal_and_it_is_called_at_every_call():
    # Settings made twice for one tokenizer object are equal (a scorer then keeps its
    # vocabulary between calls, and rouge_lcs.Workers its processes); the tokenizer is still
    # called at every call, so a change to its state counts at once.
    from rouge_lcs import Rouge, rouge
    from rouge_lcs.config.settings import make_settings

    class Cut:
        def __init__(self) -> None:
            self.cut: int | None = None

        def __call__(self, text: str) -> list[str]:
            return [w[: self.cut] for w in text.lower().split()]

    def words(text: str) -> list[str]:
        return text.lower().split()

    cut = Cut()
    assert make_settings(tokenizer=words) == make_settings(tokenizer=words)
    assert make_settings(tokenizer=cut) == make_settings(tokenizer=cut)
    assert make_settings(tokenizer=words) != make_settings(tokenizer=str.split)
    assert make_settings(tokenizer=cut) != make_settings(tokenizer=Cut())
    assert make_settings(lsum_split=str.splitlines) == make_settings(lsum_split=str.splitlines)
    assert make_settings(language="de") == make_settings(language="de")
    Cut.__hash__ = None  # type: ignore[assignment]  # an object that compares but cannot hash
    assert hash(make_settings(tokenizer=cut)) == hash(make_settings(tokenizer=cut))
    preds, refs = ["The cats sat on the mat", "big dogs bark"], ["the cat sat", "bad days"]
    scorer = Rouge(["rouge1"], tokenizer=cut)
    # by hand: {the, cats, sat, on, the, mat} vs {the, cat, sat}: P = 2/6, R = 2/3, F = 4/9;
    # nothing shared in the second pair
    assert scorer.score(preds, refs).fmeasure[:, 0].tolist() == [4 / 9, 0.0]
    # first letters: {t, c, s, o, t, m} vs {t, c, s}: P = 3/6, R = 1, F = 2/3; {b, d, b} vs
    # {b, d}: P = 2/3, R = 1, F = 0.8
    cut.cut = 1
    assert scorer.score(preds, refs).fmeasure[:, 0].tolist() == [2 / 3, 0.8]
    assert rouge(preds, refs, ["rouge1"], tokenizer=cut) == {"rouge1": (2 / 3 + 0.8) / 2}


class _Token(str):
    """A str subclass whose own methods must not take part (its characters count)."""

    def lower(self) -> str:
        return "overridden"


class _Tokens(list):
    pass


@pytest.mark.parametrize("engine_name", ["python", "native"])
def test_a_user_tokenizer_is_checked_alike_on_both_engines(engine_name, monkeypatch):
    # The reference engine checks what a user's tokenizer returns in Python
    # (CheckedTokenizer), the native one in C as it reads the tokens: the same rule and the
    # same words.
    from rouge_lcs.engine import native

    if engine_name == "native" and not native.available():
        pytest.skip("rouge_lcs._native not built")
    monkeypatch.setenv(native.ENV, engine_name)

    def returning(value):
        def ids(text: str):
            return value(text)

        return ids

    refused = [
        (lambda t: t, "got str"),
        (lambda t: (w for w in t.split()), "got generator"),
        (lambda t: {w: 1 for w in t.split()}, "got dict"),
        (lambda t: None, "got NoneType"),
        (lambda t: [*t.split(), 3], "got an item of type int"),
        (lambda t: (b"a",), "got an item of type bytes"),
    ]
    for value, said in refused:
        with pytest.raises(TypeError, match=f"^tokenizer: ids must return a list of str, {said}$"):
            score(["a b c"], ["a b d"], ["rouge1"], tokenizer=returning(value))
    # taken: a tuple, a list subclass, str subclasses (by their characters); by hand, 2 of 3
    taken = [
        lambda t: tuple(t.split()),
        lambda t: _Tokens(t.split()),
        lambda t: [_Token(w) for w in t.split()],
    ]
    for value in taken:
        got = score(["a b c"], ["a b d"], ["rouge1"], tokenizer=returning(value), use_stemmer=True)
        assert got.fmeasure[0, 0] == 2 / 3
