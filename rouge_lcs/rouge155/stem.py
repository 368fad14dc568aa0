"""ROUGE-1.5.5's ``-m`` stemming: WordNet-2.0 exception lookup first, then the script's Porter.

The script's ``MorphStem`` returns the WordNet exception's base form when the token is in its
exception DB (``were -> be``, ``feet -> foot``, ``said -> say``) and otherwise runs the Porter
stemmer that is pasted at the end of ROUGE-1.5.5.pl.  That Porter is *not* NLTK's: it is Martin
Porter's "Release 1" Perl version with a 2004 change by C.-Y. Lin in step 4 (a word ending in
``-ement`` is tried against ``-ment`` and ``-ent`` too, so ``agreement -> agreem``), and it has
no special cases (``days -> dai``, ``using -> us``).  The regular expressions below are the
script's, one for one, applied in the same order.

Only tokens longer than 3 characters are stemmed (the caller checks, as the script does).
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from importlib import resources

__all__ = ["porter", "morph_stem", "exceptions"]

# The script's character classes (sub initialise).  Note c = [^aeiou]: any other character,
# including the upper-case Y that marks an initial y, counts as a consonant.
_c = "[^aeiou]"
_v = "[aeiouy]"
_C = f"{_c}[^aeiouy]*"
_V = f"{_v}[aeiou]*"
_MGR0 = re.compile(f"^({_C})?{_V}{_C}")
_MEQ1 = re.compile(f"^({_C})?{_V}{_C}({_V})?$")
_MGR1 = re.compile(f"^({_C})?{_V}{_C}{_V}{_C}")
_VOWEL_IN_STEM = re.compile(f"^({_C})?{_v}")
_CVC = re.compile(f"^{_C}{_v}[^aeiouwxy]$")

_STEP2 = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize",
    "bli": "ble", "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous", "ization": "ize",
    "ation": "ate", "ator": "ate", "alism": "al", "iveness": "ive", "fulness": "ful",
    "ousness": "ous", "aliti": "al", "iviti": "ive", "biliti": "ble", "logi": "log",
}  # fmt: skip
_STEP3 = {
    "icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": "",
}  # fmt: skip
# Alternations in the script's order: Perl and Python both take the leftmost match, and at one
# position the first alternative that matches, so the order decides e.g. "ational" vs "tional".
_RE_1A = re.compile("(ss|i)es$")
_RE_1A_S = re.compile("([^s])s$")
_RE_EED = re.compile("eed$")
_RE_ED_ING = re.compile("(ed|ing)$")
_RE_AT_BL_IZ = re.compile("(at|bl|iz)$")
_RE_DOUBLE = re.compile(r"([^aeiouylsz])\1$")
_RE_Y = re.compile("y$")
_RE_2 = re.compile(
    "(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness"
    "|fulness|ousness|aliti|iviti|biliti|logi)$"
)
_RE_3 = re.compile("(icate|ative|alize|iciti|ical|ful|ness)$")
_RE_4 = re.compile("(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")
_RE_MENT = re.compile("ment$")
_RE_ENT = re.compile("ent$")
_RE_SION = re.compile("(s|t)(ion)$")
_RE_E = re.compile("e$")


@cache
def porter(word: str) -> str:
    """The Porter stemmer of ROUGE-1.5.5.pl (``sub stem``), step for step."""
    w = word
    if len(w) < 3:
        return w
    initial_y = w[0] == "y"
    if initial_y:  # the script maps an initial y to Y so that it never counts as a vowel
        w = "Y" + w[1:]
    # Step 1a
    m = _RE_1A.search(w)
    if m:
        w = w[: m.start()] + m.group(1)
    else:
        m = _RE_1A_S.search(w)
        if m:
            w = w[: m.start()] + m.group(1)
    # Step 1b
    m = _RE_EED.search(w)
    if m:
        if _MGR0.search(w[: m.start()]):
            w = w[:-1]
    else:
        m = _RE_ED_ING.search(w)
        if m:
            stem = w[: m.start()]
            if _VOWEL_IN_STEM.search(stem):
                w = stem
                if _RE_AT_BL_IZ.search(w):
                    w += "e"
                elif _RE_DOUBLE.search(w):
                    w = w[:-1]
                elif _CVC.search(w):
                    w += "e"
    # Step 1c
    m = _RE_Y.search(w)
    if m:
        stem = w[: m.start()]
        if _VOWEL_IN_STEM.search(stem):
            w = stem + "i"
    # Step 2
    m = _RE_2.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR0.search(stem):
            w = stem + _STEP2[m.group(1)]
    # Step 3
    m = _RE_3.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR0.search(stem):
            w = stem + _STEP3[m.group(1)]
    # Step 4, with the script's 2004 change: three independent tests, each on the current word.
    m = _RE_4.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR1.search(stem):
            w = stem
    m = _RE_MENT.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR1.search(stem):
            w = stem
    m = _RE_ENT.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR1.search(stem):
            w = stem
    else:
        m = _RE_SION.search(w)
        if m:
            stem = w[: m.start()] + m.group(1)
            if _MGR1.search(stem):
                w = stem
    # Step 5
    m = _RE_E.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR1.search(stem) or (_MEQ1.search(stem) and not _CVC.search(stem)):
            w = stem
    if w.endswith("ll") and _MGR1.search(w):
        w = w[:-1]
    if initial_y:
        w = w[0].lower() + w[1:]
    return w


@lru_cache(maxsize=1)
def exceptions() -> dict[str, str]:
    """WordNet-2.0 exception map (``word -> base form``) as the script's DB holds it."""
    text = resources.files(__package__).joinpath("data/wordnet20_exceptions.tsv").read_text("ascii")
    table: dict[str, str] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            word, base = line.split("\t")
            table[word] = base
    return table


@cache
def morph_stem(token: str) -> str:
    """The script's ``MorphStem``: the exception's base form, else the Porter stem.

    The caller applies it to tokens longer than 3 characters only, as ``-m`` does.  Memoized
    for the process, like :func:`porter`.
    """
    base = exceptions().get(token)
    return base if base is not None else porter(token)
