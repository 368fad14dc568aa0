"""Sentence splitting for ROUGE-Lsum, offline.

``auto`` (the default) follows rouge_score / Hugging Face when the text already has newlines (one
sentence a line) and otherwise uses NLTK's Punkt.  Punkt's pretrained English model is used when
it is installed locally (then the split equals ``nltk.sent_tokenize``); it is never downloaded.
Without it, a Punkt tokenizer with built-in parameters is used: a list of common English
abbreviations, and CJK full-width sentence ends (。！？) as boundaries even with no space after.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rouge_lcs.tokenizers import NEWLINE, PUNCTUATION, WHITESPACE

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


@lru_cache(maxsize=1)
def _builtin_punkt() -> Any:
    # NLTK is imported here, on the first Punkt split, not when rouge_lcs is imported: most
    # texts never need it (newline split) and the import costs ~0.3 s.
    from nltk.tokenize.punkt import PunktLanguageVars, PunktParameters, PunktSentenceTokenizer

    class LanguageVars(PunktLanguageVars):
        sent_end_chars = (".", "?", "!", "。", "！", "？")

    params = PunktParameters()
    params.abbrev_types = set(ABBREVIATIONS)
    return PunktSentenceTokenizer(params, lang_vars=LanguageVars())


def _builtin_split(text: str) -> list[str]:
    sentences: list[str] = []
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


# Where each built-in splitter may cut: Punkt cuts at whitespace after a sentence end, the
# built-in parameters also right after 。！？ (no space needed); the newline split at line breaks.
_PUNKT_CUTS = frozenset({WHITESPACE, PUNCTUATION})
_LINE_CUTS = frozenset({NEWLINE})
_UNKNOWN = frozenset({"unknown"})


@dataclass(frozen=True)
class Splitter:
    """A resolved ROUGE-Lsum sentence splitter and where it may cut a text.

    ``cuts(text)`` names the kinds of boundary (:data:`rouge_lcs.tokenizers.NEWLINE`, …) the
    split of ``text`` may have; a tokenizer whose ``separators`` cover them can tokenize the
    text once for every rouge type.  Custom splitters say ``{"unknown"}``.
    """

    name: str
    split: SplitFn
    kind: str  # "auto", "newline", "nltk" or "custom": the built-in it is, for fast paths

    def cuts(self, text: str) -> frozenset[str]:
        """Boundary kinds of this split of ``text``."""
        if self.kind == "newline" or (self.kind == "auto" and "\n" in text):
            return _LINE_CUTS
        if self.kind in ("auto", "nltk"):
            return _PUNKT_CUTS
        return _UNKNOWN


REGISTRY: dict[str, SplitFn] = {"auto": auto_split, "newline": newline_split, "nltk": nltk_split}
#: The built-in splitter names, in the order shown to users.
SPLITTER_NAMES: tuple[str, ...] = tuple(REGISTRY)


def punkt_name() -> str:
    """Which Punkt is in use, for the signature: results differ between the two."""
    return "punkt_tab" if pretrained_punkt_available() else "builtin"


def _checked(fn: Callable[[str], object], label: str) -> SplitFn:
    """Wrap a user splitter: any iterable of str is taken (a generator too); anything else is a
    ``TypeError`` naming the argument."""

    def split(text: str) -> list[str]:
        result = fn(text)
        if isinstance(result, (str, bytes)) or not isinstance(result, Iterable):
            raise TypeError(
                f"lsum_split: {label} must return a list of str, got {type(result).__name__}"
            )
        sentences = list(result)
        for sentence in sentences:
            if not isinstance(sentence, str):
                raise TypeError(
                    f"lsum_split: {label} must return a list of str, got an item of type "
                    f"{type(sentence).__name__}"
                )
        return sentences

    return split


def resolve_splitter(lsum_split: object = "auto") -> Splitter:
    """The :class:`Splitter` for the ``lsum_split`` argument."""
    if isinstance(lsum_split, str):
        if lsum_split not in REGISTRY:
            raise ValueError(
                f"lsum_split: expected one of {list(REGISTRY)} or a callable str -> list[str], "
                f"got {lsum_split!r}"
            )
        name = lsum_split if lsum_split == "newline" else f"{lsum_split}-{punkt_name()}"
        return Splitter(name, REGISTRY[lsum_split], lsum_split)
    if callable(lsum_split):
        label = getattr(lsum_split, "__name__", type(lsum_split).__name__)
        return Splitter(f"custom:{label}", _checked(lsum_split, label), "custom")
    raise TypeError(
        f"lsum_split: expected one of {list(REGISTRY)} or a callable, "
        f"got {type(lsum_split).__name__}"
    )
