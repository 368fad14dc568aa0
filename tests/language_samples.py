"""Small summary/reference pairs in Chinese, Japanese, Thai, French and German.

Written for this project by its authors (news-style paraphrase pairs: the same event said in
two ways), released with it under Apache-2.0.  Each pair is one clause without inner
punctuation or spaces, so that every tokenizer compared in tests/text/test_languages.py sees the
same text; the benchmark repeats them.
"""

from __future__ import annotations

import importlib.util

import pytest


def requires(module: str) -> pytest.MarkDecorator:
    """Skip a test when an optional package is not installed."""
    return pytest.mark.skipif(
        importlib.util.find_spec(module) is None, reason=f"{module} not installed"
    )


#: XL-Sum's 43 languages, in its own order (its folders' names, as codes here).
XLSUM_CODES = [
    "am",
    "ar",
    "az",
    "bn",
    "my",
    "zh",
    "en",
    "fr",
    "gu",
    "ha",
    "hi",
    "ig",
    "id",
    "ja",
    "rn",
    "ko",
    "ky",
    "mr",
    "ne",
    "om",
    "ps",
    "fa",
    "pcm",
    "pt",
    "pa",
    "ru",
    "gd",
    "sr",
    "si",
    "so",
    "es",
    "sw",
    "ta",
    "te",
    "th",
    "ti",
    "tr",
    "uk",
    "ur",
    "uz",
    "vi",
    "cy",
    "yo",
]

#: (prediction, reference) per language.
SAMPLES: dict[str, list[tuple[str, str]]] = {
    "zh": [
        ("国务院发布新政策支持小微企业发展", "国务院出台政策扶持小微企业"),
        ("今天北京天气晴朗气温二十度", "北京今天晴最高气温二十度"),
        ("研究人员发现了一种新的治疗方法", "科学家找到新的治疗方法"),
        ("这家公司去年的利润增长了百分之十", "该公司去年利润上涨百分之十"),
        ("大雨导致多条道路封闭", "暴雨造成多条道路关闭"),
        ("中国队在比赛中获得金牌", "中国队赢得了这场比赛的金牌"),
        ("市民可以免费参观博物馆", "博物馆向市民免费开放"),
        ("新学期学校增加了体育课", "学校在新学期增加体育课程"),
    ],
    "ja": [
        ("政府は新しい経済対策を発表した", "政府が経済対策を新たに発表した"),
        ("東京では今日雨が降っている", "今日の東京は雨です"),
        ("研究チームは新しい治療法を開発した", "研究者たちが新たな治療法を開発した"),
        ("その会社の利益は昨年十パーセント増えた", "同社の昨年の利益は一割増加した"),
        ("大雨で多くの道路が通行止めになった", "豪雨により多数の道路が閉鎖された"),
        ("日本代表が試合で金メダルを獲得した", "日本チームが金メダルを取った"),
        ("市民は無料で博物館を見学できる", "博物館が市民に無料で公開される"),
        ("新学期から学校で体育の授業が増えた", "学校は新学期に体育の授業を増やした"),
    ],
    "th": [
        ("รัฐบาลประกาศมาตรการใหม่เพื่อช่วยเหลือเกษตรกร", "รัฐบาลออกมาตรการช่วยเหลือเกษตรกร"),
        ("วันนี้อากาศที่กรุงเทพดีมาก", "อากาศในกรุงเทพวันนี้ดี"),
        ("นักวิจัยค้นพบวิธีรักษาโรคแบบใหม่", "นักวิทยาศาสตร์พบวิธีรักษาใหม่"),
        ("ฝนตกหนักทำให้ถนนหลายสายถูกปิด", "ถนนหลายสายปิดเพราะฝนตกหนัก"),
        ("ทีมชาติไทยได้รับเหรียญทอง", "ทีมไทยคว้าเหรียญทองในการแข่งขัน"),
        ("ประชาชนเข้าชมพิพิธภัณฑ์ได้ฟรี", "พิพิธภัณฑ์เปิดให้ประชาชนเข้าชมฟรี"),
    ],
    "fr": [
        (
            "Les chercheurs ont découvert un nouveau traitement",
            "Des scientifiques découvrent un traitement nouveau",
        ),
        (
            "Le gouvernement annonce des mesures économiques",
            "Nouvelles mesures économiques annoncées par le gouvernement",
        ),
        (
            "Les fortes pluies ont fermé plusieurs routes",
            "Plusieurs routes fermées après de fortes pluies",
        ),
        (
            "Les musées nationaux seront gratuits dimanche",
            "Entrée gratuite dimanche dans les musées nationaux",
        ),
    ],
    "de": [
        (
            "Die Forscher entdeckten eine neue Behandlung",
            "Wissenschaftler finden neue Behandlungsmethode",
        ),
        (
            "Die Regierung kündigt wirtschaftliche Maßnahmen an",
            "Neue wirtschaftliche Maßnahmen der Regierung",
        ),
        (
            "Starke Regenfälle sperrten mehrere Straßen",
            "Mehrere Straßen nach starkem Regen gesperrt",
        ),
        (
            "Die nationalen Museen sind am Sonntag kostenlos",
            "Kostenloser Eintritt in nationale Museen am Sonntag",
        ),
    ],
}
