"""Sentence splitting for ROUGE-Lsum, offline.

``auto`` (the default) follows rouge_score / Hugging Face when the text already has newlines (one
sentence a line) and otherwise uses NLTK's Punkt.  Punkt's pretrained English model is used when
it is installed locally (then the split equals ``nltk.sent_tokenize``); it is never downloaded.
Without it, a Punkt tokenizer with built-in parameters is used: a list of common English
abbreviations, and CJK full-width sentence ends (。！？) as boundaries even with no space after.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from nltk.tokenize.punkt import PunktLanguageVars, PunktParameters, PunktSentenceTokenizer

SplitFn = Callable[[str], list[str]]

# Lowercase, without the final period, as Punkt stores them.
ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "sr",
        "jr",
        "st",
        "mt",
        "ft",
        "rev",
        "gen",
        "col",
        "lt",
        "sgt",
        "capt",
        "cmdr",
        "gov",
        "sen",
        "rep",
        "pres",
        "supt",
        "u.s",
        "u.k",
        "u.n",
        "e.u",
        "u.s.a",
        "d.c",
        "l.a",
        "n.y",
        "e.g",
        "i.e",
        "etc",
        "vs",
        "cf",
        "al",
        "approx",
        "dept",
        "est",
        "misc",
        "a.m",
        "p.m",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "inc",
        "ltd",
        "co",
        "corp",
        "llc",
        "bros",
        "no",
        "nos",
        "vol",
        "fig",
        "figs",
        "eq",
        "ed",
        "eds",
        "pp",
        "op",
        "ave",
        "blvd",
        "rd",
    ]
)

# Full-width / CJK sentence ends need no following space to end a sentence.
_CJK_BOUNDARY = re.compile(r"(?<=[。！？])(?![。！？」』）\"'”’])\s*")


class _LanguageVars(PunktLanguageVars):
    sent_end_chars = (".", "?", "!", "。", "！", "？")


@lru_cache(maxsize=1)
def _builtin_punkt() -> PunktSentenceTokenizer:
    params = PunktParameters()
    params.abbrev_types = set(ABBREVIATIONS)
    return PunktSentenceTokenizer(params, lang_vars=_LanguageVars())


def _builtin_split(text: str) -> list[str]:
    sentences = []
    for sentence in _builtin_punkt().tokenize(text):
        sentences.extend(part for part in _CJK_BOUNDARY.split(sentence) if part.strip())
    return sentences


@lru_cache(maxsize=1)
def pretrained_punkt_available() -> bool:
    """Whether NLTK's pretrained English Punkt model is installed locally (no download)."""
    import nltk

    available = getattr(nltk.tokenize, "punkt_model_available", None)
    if available is not None:
        return bool(available("english"))
    try:  # older NLTK without punkt_model_available
        nltk.data.find("tokenizers/punkt_tab/english/")
    except LookupError:
        return False
    return True


_SENTENCE_END = re.compile(r"[.?!。！？]")


def nltk_split(text: str) -> list[str]:
    """Punkt sentences: NLTK's pretrained model when installed, else the built-in parameters."""
    ends = _SENTENCE_END.findall(text)
    stripped = text.rstrip()
    if len(ends) <= 1 and (not ends or stripped.endswith(ends[0])):
        # At most one sentence end, and it closes the text: Punkt has nowhere to split (it
        # returns the text without trailing whitespace).
        return [stripped] if stripped.strip() else []
    if pretrained_punkt_available():
        import nltk

        return nltk.sent_tokenize(text)
    return _builtin_split(text)


def newline_split(text: str) -> list[str]:
    """One sentence a line; empty lines are dropped (rouge_score does the same)."""
    return [line for line in text.split("\n") if line]


def auto_split(text: str) -> list[str]:
    """Newline split when the text has a newline, otherwise Punkt."""
    return newline_split(text) if "\n" in text else nltk_split(text)


REGISTRY: dict[str, SplitFn] = {"auto": auto_split, "newline": newline_split, "nltk": nltk_split}


def punkt_name() -> str:
    """Which Punkt is in use, for the signature: results differ between the two."""
    return "punkt_tab" if pretrained_punkt_available() else "builtin"


def resolve_splitter(lsum_split: object = "auto") -> tuple[str, SplitFn]:
    """Return ``(name, function)`` for the ``lsum_split`` argument."""
    if isinstance(lsum_split, str):
        if lsum_split not in REGISTRY:
            raise ValueError(
                f"lsum_split: unknown value {lsum_split!r}; expected one of {sorted(REGISTRY)} "
                "or a callable str -> list[str]"
            )
        name = lsum_split if lsum_split == "newline" else f"{lsum_split}-{punkt_name()}"
        return name, REGISTRY[lsum_split]
    if callable(lsum_split):
        label = getattr(lsum_split, "__name__", type(lsum_split).__name__)
        fn = lsum_split

        def checked(text: str) -> list[str]:
            sentences = fn(text)
            if isinstance(sentences, str) or not all(isinstance(s, str) for s in sentences):
                raise TypeError(f"lsum_split: {label} must return a list of str")
            return list(sentences)

        return f"custom:{label}", checked
    raise TypeError(
        f"lsum_split: expected one of {sorted(REGISTRY)} or a callable, "
        f"got {type(lsum_split).__name__}"
    )
