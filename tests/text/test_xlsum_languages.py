"""Every XL-Sum language: codes, stemmers, sentence ends, spelling variants, refusals.

References are independent of this library: XL-Sum's own scorer (``multilingual-rouge``) and
the stemmers and segmenters called directly (multilingual-rouge's HindiStemmer, TurkishStemmer,
snowballstemmer, PyThaiNLP), the upstream tests of the Bengali stemmer, and counts worked from
whitespace-separated words.

No shared corpus has these languages (``../shared/data`` is English and Korean), so the news
sentence pairs below were written for these tests by the project's authors, in the style of
BBC news summaries (XL-Sum's source), and are not quoted from any article; they are not a native
speaker's and are used only for what their tokens are.
"""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata
from collections import Counter
from pathlib import Path

import pytest
from language_samples import XLSUM_CODES, requires

from rouge_lcs import rouge, score
from rouge_lcs.text.languages import LANGUAGES, get_language
from rouge_lcs.text.sentences import resolve_splitter
from rouge_lcs.text.tokenizers import resolve_tokenizer

pytestmark = pytest.mark.usefixtures("engine")

needs = {
    name: requires(module)
    for name, module in [
        ("mr", "multilingual_rouge"),
        ("tr", "TurkishStemmer"),
        ("thai", "pycrfsuite"),
        ("jieba", "jieba"),
        ("kiwi", "kiwipiepy"),
        ("mecab", "fugashi"),
    ]
}


def _f1(pred: list[str], ref: list[str]) -> float:
    hits = sum((Counter(pred) & Counter(ref)).values())
    return 0.0 if hits == 0 else 2 * hits / (len(pred) + len(ref))


def _words(text: str) -> list[str]:
    """Whitespace words, NFKC, lowercase, sentence-final marks stripped (the hand count)."""
    return [w.strip(".।။።۔؟") for w in unicodedata.normalize("NFKC", text).lower().split()]


def _rouge1(pred: str, ref: str, **options) -> float:
    return float(score([pred], [ref], ["rouge1"], **options).fmeasure[0, 0])


# ---- codes -------------------------------------------------------------------------------------


def test_every_xlsum_language_code_is_known():
    assert len(XLSUM_CODES) == 43
    assert [c for c in XLSUM_CODES if c not in LANGUAGES] == []


@pytest.mark.parametrize(
    ("spelling", "code"),
    [
        ("zh-CN", "zh"),
        ("ZH", "zh"),
        ("zho", "zh"),
        ("chinese", "zh"),
        ("chinese_simplified", "zh"),  # XL-Sum's folder and lang= names
        ("pt-BR", "pt"),
        ("pt_BR", "pt"),
        ("sr-Latn", "sr"),
        ("serbian_cyrillic", "sr"),
        ("bangla", "bn"),
        ("pcm-NG", "pcm"),
        ("Scottish Gaelic", "gd"),
        ("fas", "fa"),
    ],
)
def test_language_spellings(spelling, code):
    assert get_language(spelling).code == code


@pytest.mark.parametrize(("wrong", "meant"), [("jp", "ja"), ("cn", "zh"), ("kr", "ko")])
def test_common_mistakes_get_a_did_you_mean(wrong, meant):
    with pytest.raises(ValueError, match=f"language: .*got '{wrong}'; did you mean '{meant}'"):
        get_language(wrong)


def test_tagalog_is_not_suggested_telugu():
    with pytest.raises(ValueError, match="got 'tl'; 'tl' is Tagalog.*Telugu is 'te'") as error:
        get_language("tl")
    assert "did you mean" not in str(error.value)


def test_stem_help_names_each_languages_stemmer():
    out = subprocess.run(
        [sys.executable, "-m", "rouge_lcs", "score", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    help_text = " ".join(out.split())
    snowball = help_text.split("Snowball for ", 1)[1].split(", XL-Sum's own", 1)[0].split(", ")
    assert {"fr", "ru", "ar"} <= set(snowball) and not {"hi", "bn", "tr", "en"} & set(snowball)
    assert "XL-Sum's own stemmers for hi, bn, tr" in help_text


def test_cli_accepts_what_the_library_accepts(tmp_path):
    (tmp_path / "p.txt").write_text("我喜欢吃苹果\n", "utf-8")
    (tmp_path / "r.txt").write_text("我爱吃苹果\n", "utf-8")
    results = []
    for spelling in ("zh-CN", "ZH"):
        out = subprocess.run(
            [sys.executable, "-m", "rouge_lcs", "score", "-p", str(tmp_path / "p.txt")]
            + ["-r", str(tmp_path / "r.txt"), "--language", spelling, "--json"],
            capture_output=True,
            text=True,
            check=True,
        )
        results.append(json.loads(out.stdout))
    # characters: 我 吃 苹 果 of 6 and 5
    assert results[0] == results[1]
    assert results[0]["rouge1"]["fmeasure"] == pytest.approx(2 * 4 / 11)


# ---- a real pair per new language never scores 0 --------------------------------------------

# (prediction, reference): the same news said two ways; words separated by spaces.
PAIRS = {
    "am": ("የኢትዮጵያ መንግሥት አዲስ የኢኮኖሚ ፖሊሲ አወጣ።", "መንግሥት አዲስ ፖሊሲ ይፋ አደረገ።"),
    "az": (
        "Azərbaycan prezidenti Bakıda yeni xəstəxananı açdı.",
        "Prezident Bakıda yeni xəstəxana açıb.",
    ),
    "cy": (
        "Mae llywodraeth Cymru wedi cyhoeddi cynllun newydd.",
        "Cyhoeddodd llywodraeth Cymru gynllun newydd.",
    ),
    "gd": ("Tha an riaghaltas ag ràdh gu bheil plana ùr ann.", "Tha plana ùr aig an riaghaltas."),
    "gu": ("ગુજરાતમાં ભારે વરસાદ પડ્યો છે.", "ગુજરાતમાં ભારે વરસાદ થયો."),
    "ha": (
        "Gwamnatin Najeriya ta sanar da sabon shiri.",
        "Gwamnati ta sanar da sabon shirin tallafi.",
    ),
    "ig": (
        "Gọọmentị Naịjirịa ekwuputala atụmatụ ọhụrụ.",
        "Gọọmentị ekwuputala atụmatụ ọhụrụ maka ụmụ akwụkwọ.",
    ),
    "ky": ("Кыргызстандын өкмөтү жаңы мыйзам кабыл алды.", "Өкмөт жаңы мыйзамды кабыл алды."),
    "om": (
        "Mootummaan Itoophiyaa karoora haaraa ifa godhe.",
        "Mootummaan karoora haaraa beeksise.",
    ),
    "pa": ("ਪੰਜਾਬ ਵਿੱਚ ਭਾਰੀ ਮੀਂਹ ਪਿਆ।", "ਪੰਜਾਬ ਵਿੱਚ ਮੀਂਹ ਪਿਆ।"),
    "pcm": ("Goment don announce new plan for di kontri.", "Di goment announce new plan."),
    "ps": ("په کابل کې نوی روغتون پرانیستل شو۔", "کابل کې یو نوی روغتون جوړ شو۔"),
    "rn": (
        "Leta yatangaje umugambi mushasha wo kurwanya ubukene.",
        "Leta yatangaje umugambi mushasha.",
    ),
    "si": ("ආණ්ඩුව නව නීතියක් සම්මත කළේය.", "ආණ්ඩුව නව නීතිය සම්මත කළා."),
    "so": (
        "Dowladda Soomaaliya ayaa ku dhawaaqday qorshe cusub.",
        "Dowladda ayaa soo saartay qorshe cusub.",
    ),
    "ta": ("தமிழ்நாட்டில் கனமழை பெய்தது.", "தமிழ்நாட்டில் பலத்த மழை பெய்தது."),
    "te": ("హైదరాబాద్ నగరంలో భారీ వర్షం కురిసింది.", "నగరంలో భారీ వర్షం పడింది."),
    "ti": ("መንግስቲ ኤርትራ ሓድሽ ውሳነ ኣውጺኡ።", "መንግስቲ ሓድሽ ውሳነ ኣውጺኡ።"),
    "uz": ("Oʻzbekiston hukumati yangi qonun qabul qildi.", "Hukumat yangi qonunni qabul qildi."),
    "yo": ("Ìjọba Nàìjíríà ti kéde ètò tuntun.", "Ìjọba ti kéde ètò tuntun fún àwọn akẹ́kọ̀ọ́."),
}


@pytest.mark.parametrize("code", sorted(PAIRS))
def test_new_language_pair_scores_its_shared_words(code):
    pred, ref = PAIRS[code]
    expected = _f1(_words(pred), _words(ref))
    assert expected > 0
    assert _rouge1(pred, ref, language=code) == pytest.approx(expected, abs=1e-15)


def test_serbian_cyrillic_and_latin_are_one_spelling():
    """Влада је усвојила нови закон = Vlada je usvojila novi zakon, letter for letter; the
    prediction adds Србије (Srbije): 5 of 6 and 5 of 5 words."""
    pred, ref = "Влада Србије је усвојила нови закон.", "Vlada je usvojila novi zakon."
    assert _rouge1(pred, ref, language="sr") == pytest.approx(2 * 5 / 11, abs=1e-15)
    assert _rouge1(pred, ref, language="sr", normalize_spelling=False) == 0.0


# ---- Burmese syllables -------------------------------------------------------------------------

MY_PRED = "ရန်ကုန်မြို့တွင် မိုးသည်းထန်စွာ ရွာသွန်းခဲ့သည်။"  # heavy rain fell in Yangon city
MY_REF = "ရန်ကုန်တွင် မိုးအများအပြား ရွာခဲ့သည်။"  # much rain fell in Yangon


def _xlsum_tokens(lang: str, text: str) -> list[str]:
    """XL-Sum's tokens of ``text``: its scorer's own pipeline (lowercase, its text cleaning,
    the language's segmenter), as ``RougeScorer.score`` runs it."""
    from multilingual_rouge import rouge_scorer, tokenization_wrapper

    scorer = rouge_scorer.RougeScorer(["rouge1"], lang=lang)
    return tokenization_wrapper.tokenize(text, None, scorer._tokenizer)


# The particles ၏ (genitive), ၍ ("and so"), ၌ (locative), ၎ ("aforementioned", before င်း);
# stacked consonants (သိက္ခာ "dignity", ကမ္ဘာ့ "world's", မဂ္ဂ); a killed consonant with a
# medial (ယောက်ျား "man", one unit of 5 characters: not joined); kinzi (အင်္ဂလိပ် "English").
MY_PARTICLES = "လူတိုင်း၏ ဂုဏ်သိက္ခာကို လေးစား၍ ကမ္ဘာ့ ကုလသမဂ္ဂ၌ ယောက်ျား မိန်းမ ၎င်းတို့သည် ပညာရေး ၎င်း၏ အင်္ဂလိပ်စာ"


@needs["mr"]
def test_burmese_syllables_are_xlsums_on_particles_and_stacks():
    ours = resolve_tokenizer(None, language="my").tokenize(MY_PARTICLES)
    assert ours == _xlsum_tokens("burmese", MY_PARTICLES)
    # the particles, which Unicode classes as punctuation (Po), are dropped as XL-Sum drops them
    assert not {"၏", "၍", "၌", "၎"} & set(ours)
    # a stacked consonant starts a syllable of its own
    assert ours[ours.index("သိ") : ours.index("သိ") + 2] == ["သိ", "က္ခာ"]


@needs["mr"]
def test_burmese_syllables_equal_xlsum_and_score_as_its_scorer():
    from multilingual_rouge import rouge_scorer

    text = "မြန်မာနိုင်ငံ အစိုးရက ကျောင်းသားများအတွက် စီမံကိန်းသစ် ကြေညာခဲ့သည် အင်္ဂလိပ်"
    assert resolve_tokenizer(None, language="my").tokenize(text) == _xlsum_tokens("burmese", text)
    xlsum = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], lang="burmese")
    pred, ref = MY_PRED + " " + MY_PARTICLES, MY_REF + " ကမ္ဘာ့ ဂုဏ်သိက္ခာ၏ ၎င်း"
    for p, r in [(MY_PRED, MY_REF), (pred, ref)]:
        expected = xlsum.score(r, p)
        got = score([p], [r], ["rouge1", "rouge2", "rougeL"], language="my")
        for k, name in enumerate(["rouge1", "rouge2", "rougeL"]):
            assert got.fmeasure[0, k] == pytest.approx(expected[name].fmeasure, abs=1e-15)
    assert xlsum.score(MY_REF, MY_PRED)["rouge1"].fmeasure > 0.5
    # without the language, phrases between spaces are single tokens: nothing matches
    assert _rouge1(MY_PRED, MY_REF) == 0.0


def test_burmese_keeps_numbers_and_latin_words_whole():
    # XL-Sum's tokenizer would cut 2024 and BBC into single characters
    tokens = resolve_tokenizer(None, language="my").tokenize("BBC သတင်း ၂၀၂၄ ခုနှစ်")
    assert tokens == ["bbc", "သ", "တင်း", "၂၀၂၄", "ခု", "နှစ်"]


# ---- segmenters see the text as XL-Sum's scorer gives it: punctuation made spaces -----------

# UDHR articles 3 and 4 (Japanese), as one text: MeCab cuts "有する。何人も" as 有する / 何人 / も,
# and XL-Sum's "有する 何人も" as 有する / 何 / 人 / も.
JA_UDHR = (
    "すべての人は、生命、自由及び身体の安全に対する権利を有する。何人も、奴隷にされ、又は"
    "苦役に服することはない。"
)
JA_REF = "何人も、ほしいままに逮捕、拘禁、又は追放されることはない。"
# Latin words in quotes and brackets, numbers with separators, in Thai and Chinese news style.
TH_TEXT = "สายพันธุ์ “eta” (B.1.525) ระบาดใน 1,000 จังหวัด ราคา 3.5 บาท ‘Delta’"
TH_REF = "สายพันธุ์ eta ระบาด 1 000 จังหวัด ราคา 3 บาท delta"
ZH_TEXT = "新冠病毒“eta”变种(B.1.525)在1,000个城市传播，价格上涨3.5%。"
ZH_REF = "eta变种在1000个城市传播，价格上涨3%"


@needs["mr"]
@needs["mecab"]
@needs["thai"]
@needs["jieba"]
@pytest.mark.parametrize(
    ("code", "lang", "tokenizer", "pred", "ref"),
    [
        ("ja", "japanese", "mecab", JA_UDHR, JA_REF),
        ("th", "thai", None, TH_TEXT, TH_REF),
        ("zh", "chinese", "jieba", ZH_TEXT, ZH_REF),
    ],
    ids=["ja", "th", "zh"],
)
def test_segmenters_equal_xlsum_on_punctuated_text(xlsum, code, lang, tokenizer, pred, ref):
    """Same tokens as XL-Sum's scorer (its " " tokens aside: see test_languages.py) and the
    same P, R, F for ROUGE-1, -2 and -L."""
    from multilingual_rouge import tokenization_wrapper

    types = ["rouge1", "rouge2", "rougeL"]
    scorer = xlsum.RougeScorer(types, lang=lang)
    ours = resolve_tokenizer(tokenizer, language=code)
    for text in (pred, ref):
        theirs = tokenization_wrapper.tokenize(text, None, scorer._tokenizer)
        assert ours.tokenize(text) == [t for t in theirs if t != " "]
    if code == "ja":  # no " " tokens in MeCab's output: the scores are XL-Sum's
        expected = scorer.score(ref, pred)
        got = score([pred], [ref], types, language=code, tokenizer=tokenizer)
        for j, name in enumerate(types):
            want = (expected[name].precision, expected[name].recall, expected[name].fmeasure)
            have = (got.precision[0, j], got.recall[0, j], got.fmeasure[0, j])
            assert have == pytest.approx(want, abs=1e-15)


# ---- stemmers ----------------------------------------------------------------------------------

HI_WORDS = [
    "लड़कियों",
    "जाएंगे",
    "किताबें",
    "खाना",
    "सड़कों",
    "बारिश",
    "कारण",
    "गईं",
    "सरकार",
    "योजनाओं",
    "घोषणाएं",
    "बच्चों",
]


@needs["mr"]
def test_hindi_stemmer_equals_xlsum():
    from multilingual_rouge.stemmers import HindiStemmer

    from rouge_lcs.text.stemming import stemmer_for

    ours, theirs = stemmer_for("hindi"), HindiStemmer()
    assert [ours.stem(w) for w in HI_WORDS] == [theirs(w) if len(w) > 3 else w for w in HI_WORDS]


@needs["mr"]
@needs["tr"]
@pytest.mark.parametrize(
    ("code", "lang", "pred", "ref"),
    [
        (
            "hi",
            "hindi",
            "भारत में भारी बारिश से कई सड़कें बंद हो गईं",
            "भारी बारिश के कारण कई सड़कों को बंद किया गया",
        ),
        (
            "tr",
            "turkish",
            "İstanbulda belediye başkanı seçimlerde yeni önlemleri açıkladı",
            "İstanbul belediyesi başkanı önlemleri açıkladı",
        ),
    ],
)
def test_stemmed_scores_equal_xlsums_scorer(code, lang, pred, ref):
    from multilingual_rouge import rouge_scorer

    # XL-Sum lowercases with str.lower, which makes İ "i" + U+0307 (a different word from
    # "i…"); given Turkish lowercase, its definitions are right.
    if code == "tr":
        pred_x, ref_x = (t.replace("İ", "i").replace("I", "ı") for t in (pred, ref))
    else:
        pred_x, ref_x = pred, ref
    scorer = rouge_scorer.RougeScorer(["rouge1"], lang=lang, use_stemmer=True)
    expected = scorer.score(ref_x, pred_x)
    stemmed = _rouge1(pred, ref, language=code, use_stemmer=True)
    assert stemmed == pytest.approx(expected["rouge1"].fmeasure, abs=1e-15)
    assert stemmed > _rouge1(pred, ref, language=code)  # stemming matches more words


BN_RULES = Path(__file__).parents[1] / "bengali_common.rules"


def _bengali_words() -> list[str]:
    """The example words of XL-Sum's Bengali rule file (its comments: হয়েছে, খেয়েছে, যাওয়া…),
    and the words of bengali-stemmer's own tests, as NFC text has them."""
    words = {"আমি", "বাংলায়", "গান", "গাই", "ভাতের"}
    for line in BN_RULES.read_text("utf-8").splitlines()[2:]:
        if "#" in line:
            words.update(w.strip() for w in line.split("#", 1)[1].split(","))
    return sorted(unicodedata.normalize("NFC", w) for w in words if w.strip())


@needs["mr"]
def test_bengali_stemmer_equals_xlsums_on_the_text_users_have():
    """XL-Sum's own RafiStemmer with its own rule file, on NFC words: its rules write য়
    precomposed (U+09DF), which NFC text never has, so its য়-rules never fire there."""
    import io

    from multilingual_rouge.bengali_stemmer import RafiStemmer

    from rouge_lcs.text.stemming import stemmer_for

    theirs = RafiStemmer(io.StringIO(BN_RULES.read_text("utf-8")))
    ours = stemmer_for("bengali")
    words = _bengali_words()
    assert len(words) > 60 and any("\u09bc" in w for w in words)
    expected = [theirs.stem_word(w) if len(w) > 3 else w for w in words]
    assert [ours.stem(w) for w in words] == expected


@needs["tr"]
def test_turkish_stemmer_is_turkishstemmer():
    from TurkishStemmer import TurkishStemmer

    from rouge_lcs.text.stemming import stemmer_for

    words = ["kitaplarımız", "hükümetin", "açıkladığı", "önlemler", "ekonomisi", "istanbul'da"]
    assert [stemmer_for("turkish").stem(w) for w in words] == [
        TurkishStemmer().stem(w) for w in words
    ]


@pytest.mark.parametrize(
    ("code", "algorithm", "text"),
    [
        ("cs", "czech", "vláda schválila nový zákon o státním rozpočtu"),
        ("el", "greek", "η κυβέρνηση ανακοίνωσε νέα μέτρα για την οικονομία"),
        ("et", "estonian", "valitsus kiitis heaks uue seaduse eelarve kohta"),
        ("pl", "polish", "rząd przyjął nową ustawę o budżecie państwa"),
        ("id", "indonesian", "pemerintah mengumumkan kebijakan ekonomi yang baru"),
        ("ta", "tamil", "அரசாங்கம் புதிய திட்டங்களை அறிவித்தது"),
        ("sr", "serbian", "vlada je usvojila novi zakon o budžetu"),
        ("ne", "nepali", "सरकारले नयाँ बजेट सार्वजनिक गरेको छ"),
        ("fa", "persian", "دولت برنامه‌های جدید اقتصادی را اعلام کرد"),
    ],
)
def test_snowball_languages_equal_snowballstemmer(code, algorithm, text):
    import snowballstemmer

    stemmer = snowballstemmer.stemmer(algorithm)
    tokens = resolve_tokenizer(None, language=code).tokenize(text)
    stemmed = resolve_tokenizer(None, True, language=code).tokenize(text)
    assert stemmed == [stemmer.stemWord(t) if len(t) > 3 else t for t in tokens]


def test_snowball_languages_on_nltk_punkt_vocabularies():
    """~Thousands of real words per language: the word types of NLTK's Punkt training corpora."""
    import snowballstemmer
    from punkt.data import load_module

    from rouge_lcs.text.stemming import stemmer_for

    for name in ("czech", "greek", "estonian", "polish"):
        words = sorted(w for w in load_module(name).ORTHO_CONTEXT if w.isalpha() and len(w) > 3)
        assert len(words) > 1000
        reference = snowballstemmer.stemmer(name)
        assert [stemmer_for(name).stem(w) for w in words] == reference.stemWords(words)


# ---- sentence ends -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "text", "sentences"),
    [
        ("ur", "حکومت نے نیا منصوبہ پیش کیا۔ اس پر کام شروع ہو گیا۔", 2),
        ("ar", "هل ستنخفض الأسعار؟ قالت الحكومة إنها ستنخفض.", 2),
        ("fa", "آیا قیمت‌ها کاهش می‌یابد؟ دولت گفت بله.", 2),
        ("mr", "मुंबईत मुसळधार पाऊस पडला. अनेक रस्ते बंद झाले।", 2),
        ("am", "መንግሥት አዲስ ፖሊሲ አወጣ። ፖሊሲው ዛሬ ይጀምራል።", 2),
        # ። typed as two wordspaces ፡፡ (as in the UDHR); one ፡ separates words
        ("ti", "መንግስቲ ሓድሽ ውሳነ ኣውጺኡ፡፡ ፖሊሲ፡ሎሚ ይጅምር፡፡", 2),
        ("am", "መንግሥት፡አዲስ፡ፖሊሲ፡አወጣ፡፡ፖሊሲው፡ዛሬ፡ይጀምራል፡፡", 2),
        ("my", "ရန်ကုန်တွင် မိုးရွာသည်။ လမ်းများ ပိတ်ခဲ့သည်။", 2),
        ("pa", "ਪੰਜਾਬ ਵਿੱਚ ਮੀਂਹ ਪਿਆ। ਸੜਕਾਂ ਬੰਦ ਹੋ ਗਈਆਂ।", 2),
    ],
)
def test_script_sentence_ends(code, text, sentences):
    split = resolve_splitter("auto", code).split
    assert len(split(text)) == sentences
    assert "".join(split(text)).replace(" ", "") == text.replace(" ", "")


@needs["thai"]
def test_thai_sentences_are_pythainlps():
    from pythainlp.tokenize import sent_tokenize

    text = "ราคาน้ำมันขึ้น 3 บาท ในปี 2567 รัฐบาลจึงประกาศมาตรการช่วยเหลือประชาชน"
    expected = [s.strip() for s in sent_tokenize(text, engine="crfcut") if s.strip()]
    assert resolve_splitter("auto", "th").split(text) == expected
    assert len(expected) < len(text.split())  # not every space


# ---- spelling variants -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "pred", "ref"),
    [
        ("ar", "كَتَبَ الطَّالِبُ", "كتب الطالب"),  # harakat
        ("ar", "جميـــل", "جميل"),  # tatweel
        ("ar", "عام ٢٠٢٤", "عام 2024"),  # Arabic-Indic digits
        ("fa", "كتاب علي", "کتاب علی"),  # Arabic kaf and yeh in Persian
        ("ur", "پاكستان", "پاکستان"),
        ("tr", "İSTANBUL", "istanbul"),
        ("az", "İLHAM", "ilham"),
        ("de", "Straße", "STRASSE"),
        ("uz", "O'zbekiston", "Oʻzbekiston"),
        ("sr", "Београд", "Beograd"),
    ],
)
def test_spelling_variants_are_one_word(code, pred, ref):
    assert _rouge1(pred, ref, language=code) == 1.0
    assert _rouge1(pred, ref, language=code, normalize_spelling=False) < 1.0


def test_turkish_dotless_i_stays_a_letter():
    # ISPARTA is Isparta (dotless I -> ı), not "isparta"
    tokens = resolve_tokenizer(None, language="tr").tokenize("ISPARTA İzmir")
    assert tokens == ["ısparta", "izmir"]


def test_normalization_is_in_the_signature_and_defaults_do_not_change():
    sig = rouge(["كتب"], ["كَتَبَ"], language="ar", return_signature=True)["signature"]
    assert "norm:nfkc+arabic" in sig
    off = rouge(["a"], ["a"], language="ar", normalize_spelling=False, return_signature=True)
    assert "norm:nfkc|" in off["signature"]
    # without a language nothing is folded (Straße / STRASSE stay different words)
    assert _rouge1("Straße", "STRASSE") == 0.0


# ---- no silent zeros ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "tokenizer", "message"),
    [
        ("zh", "rouge_score", "keeps only ASCII"),
        ("ar", "rouge_score", "keeps only ASCII"),
        ("zh", "whitespace", "cuts only at spaces"),
        ("my", "whitespace", "cuts only at spaces"),
        ("zh", "mecab", "segments language 'ja'"),
        ("ja", "jieba", "segments language 'zh'"),
        ("zh", "thai", "segments language 'th'"),
    ],
)
def test_tokenizers_that_cannot_see_the_language_are_refused(language, tokenizer, message):
    with pytest.raises(ValueError, match=f"tokenizer: .*{message}"):
        score(["北京"], ["北京"], language=language, tokenizer=tokenizer)


def test_rouge_score_tokenizer_still_fits_latin_languages():
    assert _rouge1("le chat", "le chien", language="fr", tokenizer="rouge_score") == 0.5


@needs["kiwi"]
def test_kiwi_without_its_model_names_the_extra(monkeypatch):
    import kiwipiepy

    import rouge_lcs.text.tokenizers as tokenizers

    def missing(*args, **kwargs):
        raise ModuleNotFoundError("No module named 'kiwipiepy_model'")

    monkeypatch.setattr(kiwipiepy, "Kiwi", missing)
    tokenizers._kiwi.cache_clear()
    try:
        with pytest.raises(ImportError, match=r"kiwipiepy_model.*pip install '\S*\[ko\]'"):
            resolve_tokenizer("kiwi")
    finally:
        tokenizers._kiwi.cache_clear()
