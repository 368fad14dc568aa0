"""Texts the audit tests share: real CNN/DM summaries, 4-reference headlines, quirk pairs."""

from __future__ import annotations

QUIRKS = [
    # the phantom empty word (a final ". "), repeated n-grams (sets), punctuation, case
    ("The cat sat. The cat sat. ", "the cat sat on the mat."),
    (
        "U.S. officials said, on Monday, that 3.5 million people left.",
        "US officials said 3.5m left",
    ),
    ("a a a b b", "a b a b a"),
    (
        "Police killed the gunman.\nThe gunman was armed.",
        "The gunman killed the policeman.\nHe fled.",
    ),
    ("running runs ran quickly", "run running ran quick"),
    # letters against digits, non-ASCII letters, number signs, CJK, hyphens (XL-Sum, sumeval)
    (
        "The 440million deal, signed in 3d: na\u00efve caf\u00e9 \u00bd\u00b2 \u65e5\u672cabc\n"
        "OK-ish co-op.",
        "440 million deal signed 3D naive cafe\nok ish coop",
    ),
    # stop words, WordNet exceptions (sumeval stems references by them), "$5"
    (
        "The best and better dowier players are having the $5 axes",
        "the best better players having axes, bases and gas",
    ),
    # case, punctuation as tokens, an empty line (rouge-metric splits on whitespace only)
    (
        "Police KILLED the gunman .\n\nThe gunman , armed , fled .",
        "the gunman killed the policeman .\nHe fled .",
    ),
]


def corpus_texts(corpora, name: str, limit: int) -> tuple[list[str], list[list[str]]]:
    rows = corpora.rows(name)[:limit]
    if "prediction_sents" in rows[0] and rows[0].get("prediction_sents"):
        preds = ["\n".join(r["prediction_sents"]) for r in rows]
        refs = [["\n".join(s) for s in r["references_sents"]] for r in rows]
    else:
        preds = [r["prediction"] for r in rows]
        refs = [list(r["references"]) for r in rows]
    return preds, refs
