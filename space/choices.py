"""The option widgets' choices and defaults, from the library's one declaration (OPTIONS).

A choice that needs packages this install lacks is left out of the menus: a visitor must never
pick an option that can only fail (the Space's requirements install the language extras, so
normally every choice is offered).
"""

from __future__ import annotations

from importlib import metadata

from rouge_lcs.config.options import OPTIONS
from rouge_lcs.text.languages import LANGUAGES
from rouge_lcs.text.rouge_types import DEFAULT_ROUGE_TYPES
from rouge_lcs.text.tokenizers import TOKENIZERS as TOKENIZER_RECORDS


def _installed(packages: tuple[str, ...]) -> bool:
    """Whether every distribution in ``packages`` is installed (looked up, not imported: some
    load a dictionary of tens of MB)."""
    for package in packages:
        try:
            metadata.distribution(package)
        except metadata.PackageNotFoundError:
            return False
    return True


def _runs(tokenizer: str) -> bool:
    record = TOKENIZER_RECORDS.get(tokenizer)
    return record is None or _installed(record.packages)


STANDARD_TYPES = list(DEFAULT_ROUGE_TYPES)
#: The types offered as boxes to tick: the standard ones (ticked by default) and ROUGE-1.5.5's
#: weighted LCS and skip bigrams; any other spelling goes in the "More types" field.
TYPE_CHOICES = STANDARD_TYPES + ["rougeW", "rougeS4", "rougeSU4"]
TOKENIZERS = [t for t in OPTIONS["tokenizer"].choices if _runs(str(t))]
SPLITS = list(OPTIONS["lsum_split"].choices)
MULTI_REF_MODES = list(OPTIONS["multi_ref"].choices)
#: Every ISO 639-1 code the library knows whose default tokenizer this install runs.
LANGUAGE_CODES = [c for c in OPTIONS["language"].choices if _runs(LANGUAGES[str(c)].tokenizer)]
NO_LANGUAGE = "No language (the defaults)"


#: The language menu's (label, value) pairs: "" = no language, then "Korean (ko)" ….
def _language_name(code: str) -> str:
    """A language's name as people write it: "Scottish Gaelic", not "scottish_gaelic"."""
    return " ".join(word.capitalize() for word in LANGUAGES[code].name.split("_"))


LANGUAGE_CHOICES = [(NO_LANGUAGE, "")] + sorted(
    (f"{_language_name(c)} ({c})", c) for c in LANGUAGE_CODES
)
# The tokenizer's default is None, which the library resolves to its first (unicode) tokenizer.
DEFAULT_TOKENIZER = str(OPTIONS["tokenizer"].default or TOKENIZERS[0])
DEFAULT_STEMMER = bool(OPTIONS["use_stemmer"].default)
DEFAULT_SPLIT = str(OPTIONS["lsum_split"].default)
DEFAULT_BETA = float(OPTIONS["beta"].default)  # type: ignore[arg-type]
DEFAULT_MULTI_REF = str(OPTIONS["multi_ref"].default)


def language_label(code: str) -> str:
    """A language as the page names it: "Korean (ko)"."""
    return f"{_language_name(code)} ({code})" if code in LANGUAGES else code


#: XL-Sum's own stemmers (``Language.stemmer``), as the page names them.
XLSUM_STEMMERS = {"hindi", "bengali", "turkish"}


def stemmer_label(code: str | None) -> str:
    """The stemmer box's label for a language of the menu: the stemmer that language really
    uses ("Porter stemmer" without a language or for English, "Snowball stemmer (German)",
    "XL-Sum's Hindi stemmer"), or that it has none."""
    language = LANGUAGES.get(code or "")
    if language is None or language.stemmer == "porter":
        return "Porter stemmer (rouge_score's)"
    name = _language_name(language.code)
    if language.stemmer is None:
        return f"Stemmer: none exists for {name} (leave unticked)"
    if language.stemmer in XLSUM_STEMMERS:
        return f"XL-Sum's {name} stemmer"
    return f"Snowball stemmer ({name})"
