"""Every option of a ROUGE computation, declared once: name, default, allowed values, help.

The library (:class:`rouge_lcs.scores.scorer.Rouge`, :func:`rouge_lcs.rouge`), the evaluate module's
inputs description, the CLI's arguments, the Space's widgets and the Trainer helper all read
this table, so a new option or choice appears everywhere at once (tests check the signatures of
the functions against it).

Four groups:

- ``scoring``: change the per-pair statistics or how they become P/R/F (part of the signature);
- ``ids``: how token id inputs (not texts) are read: padding and ROUGE-Lsum's sentence ends
  (the library's calls only: the command line, the Space and lm-eval read texts);
- ``output``: what is reported from the per-example scores (means, lists, intervals);
- ``execution``: how the work is run; never changes a number.
"""

from __future__ import annotations

from collections.abc import Callable

from rouge_lcs.base.records import record
from rouge_lcs.text.languages import LANGUAGE_CODES, describe_stemmers
from rouge_lcs.text.rouge_types import DEFAULT_ROUGE_TYPES, VALID_NAMES_HELP
from rouge_lcs.text.sentences import SPLITTER_NAMES
from rouge_lcs.text.tokenizers import TOKENIZER_NAMES, describe_tokenizers

#: How several references of one example are combined (rouge_lcs.scores.multiref).
MULTI_REF_MODES = ("max_f", "max_recall", "pooled", "mean")


@record
class Option:
    """One option: ``choices`` lists the allowed strings (empty: not a choice option);
    ``cli`` is its command-line flag (``None``: not on the command line); ``open_choices``:
    the choices are the canonical values, and other spellings are accepted too (language codes:
    ``zh-CN``, ``ZH``, ``chinese``), so the command line passes any string on to be checked;
    ``cli_help``: the help in the command line's words where the library's would not do (it
    names flags, not parameters, no callables, and its default), read through
    :func:`command_line_help`."""

    name: str
    group: str
    default: object
    type_help: str
    help: str
    choices: tuple[str, ...] = ()
    cli: str | None = None
    open_choices: bool = False
    cli_help: str = ""


def _language_help(tokenizer: str, stemmer: str, normalization: str, default: str) -> str:
    """The language option's help, naming the other options as the caller spells them."""
    return (
        "Language of the texts, any XL-Sum language (ISO 639-1 code; ISO 639-3 codes, BCP-47 "
        "tags such as 'zh-CN' and English names also accepted): picks the default "
        f"{tokenizer} (zh, ja: characters; th: newmm words; my: syllables; others: Unicode "
        f"words), the stemmer for {stemmer} (Snowball, or XL-Sum's for hi, bn, tr), the "
        "ROUGE-Lsum sentence split (NLTK's Punkt model of the language; the script's sentence "
        f"ends: 。！？, ؟ ۔, ።, ။, danda; PyThaiNLP for Thai) and its {normalization}. " + default
    )


OPTIONS: dict[str, Option] = {
    option.name: option
    for option in [
        Option(
            "rouge_types",
            "scoring",
            None,
            "list of str, str or None",
            f"ROUGE types: {VALID_NAMES_HELP}; spellings such as 'ROUGE-1', 'rouge_l' or "
            f"'rougeLSum' are accepted. Default: {list(DEFAULT_ROUGE_TYPES)}.",
            cli="--rouge-types",
        ),
        Option(
            "use_stemmer",
            "scoring",
            False,
            "bool",
            "Porter stemming as rouge_score does it (NLTK, tokens longer than 3 characters), "
            "whichever tokenizer is used; with a language, that language's stemmer (same "
            "rule): " + describe_stemmers() + ".",
            cli="--stem",
            cli_help="Stem tokens: Porter stemming as rouge_score does it (NLTK, tokens longer "
            "than 3 characters), whichever --tokenizer is used; with --language, that "
            "language's stemmer (same rule): " + describe_stemmers() + ". Default: off.",
        ),
        Option(
            "tokenizer",
            "scoring",
            None,
            "str, callable, object with .tokenize or None",
            "How text becomes tokens: None or "
            + describe_tokenizers()
            + ", a callable str -> list[str], or an object with a tokenize(str) method. None: "
            "the language's default ('unicode' without a language).",
            choices=TOKENIZER_NAMES,
            cli="--tokenizer",
            cli_help="How text becomes tokens: "
            + describe_tokenizers()
            + ". Default: the --language's tokenizer, else 'unicode'.",
        ),
        Option(
            "language",
            "scoring",
            None,
            "str or None",
            _language_help(
                "tokenizer",
                "use_stemmer",
                "spelling normalization",
                "None: today's behaviour (English stemmer).",
            ),
            choices=LANGUAGE_CODES,
            cli="--language",
            open_choices=True,
            cli_help=_language_help(
                "--tokenizer",
                "--stem",
                "spelling normalization (--normalize-spelling)",
                "Default: none (rouge_score's rules: Porter stemmer, English Punkt).",
            ),
        ),
        Option(
            "normalize_spelling",
            "scoring",
            True,
            "bool",
            "With a language, fold the spelling variants its readers call the same word before "
            "tokenizing (ar, fa, ur, ps: vowel marks, tatweel, Arabic-Indic digits; fa, ur: "
            "Arabic yeh and kaf; tr, az: dotted and dotless I; de: ß = ss; sr: Cyrillic = "
            "Latin; uz: apostrophes); named in the signature (norm:nfkc+arabic). False: only "
            "the tokenizer's own normalization. No effect without a language.",
            cli="--normalize-spelling",
            cli_help="With --language, fold the spelling variants its readers call the same "
            "word before tokenizing (ar, fa, ur, ps: vowel marks, tatweel, Arabic-Indic digits; "
            "fa, ur: Arabic yeh and kaf; tr, az: dotted and dotless I; de: ß = ss; sr: Cyrillic "
            "= Latin; uz: apostrophes); named in the signature (norm:nfkc+arabic). "
            "--no-normalize-spelling: only the tokenizer's own normalization. No effect without "
            "--language. Default: on.",
        ),
        Option(
            "lsum_split",
            "scoring",
            "auto",
            "str or callable",
            "ROUGE-Lsum sentences: 'auto' (newlines when the text has one, else NLTK Punkt, "
            "never downloaded), 'newline', 'nltk', or a callable str -> list[str].",
            choices=SPLITTER_NAMES,
            cli="--lsum-split",
            cli_help="ROUGE-Lsum sentences: 'auto' (newlines when the text has one, else NLTK "
            "Punkt, never downloaded), 'newline' or 'nltk'. Default: auto.",
        ),
        Option(
            "multi_ref",
            "scoring",
            "max_f",
            "str",
            "Several references: 'max_f' (per type the reference with the best F, as "
            "rouge_score), 'max_recall' (best recall, ROUGE-1.5.5 -f B), 'pooled' (hits and "
            "lengths summed, ROUGE-1.5.5 -f A) or 'mean' (mean of per-reference P, R, F).",
            choices=MULTI_REF_MODES,
            cli="--multi-ref",
        ),
        Option(
            "beta",
            "scoring",
            1.0,
            "float",
            "F_beta weight of recall: F = (1 + beta^2) P R / (R + beta^2 P); F = 0 when P = R = 0.",
            cli="--beta",
        ),
        Option(
            "compat",
            "scoring",
            None,
            "str or None",
            "One switch for another tool's numbers: 'rouge_score' = the stock "
            "evaluate.load('rouge') / rouge_score settings (its ASCII tokenizer, ROUGE-Lsum "
            "sentences by newline only, best-F reference), per example equal to rouge_score. "
            "'rouge155' = the original Perl ROUGE-1.5.5's printed numbers with pyrouge's keys "
            "(rouge() and the evaluate module; more flags in rouge_lcs.rouge155). "
            "Options it sets may not be given other values.",
            choices=("rouge_score", "rouge155"),
            cli="--compat",
            cli_help="One switch for another tool's numbers: 'rouge_score' = the stock "
            "evaluate.load('rouge') / rouge_score settings (its ASCII tokenizer, ROUGE-Lsum "
            "sentences by newline only, best-F reference), per example equal to rouge_score; "
            "'rouge155' = the original Perl ROUGE-1.5.5's printed numbers (every flag of the "
            "script: rouge-lcs rouge155). The options it sets may not be given other values. "
            "Default: none.",
        ),
        Option(
            "pad_id",
            "ids",
            None,
            "int or None",
            "Token id inputs (predictions/references given as ids, not texts): the padding id, "
            "cut from both ends of every sequence (a 2-D array or tensor is a batch, one row "
            "each). None: nothing cut. Texts: no effect.",
        ),
        Option(
            "sentence_end_ids",
            "ids",
            None,
            "list of int or None",
            "Token id inputs: the ids that end a ROUGE-Lsum sentence (the sentence ends after "
            "each). None: a sequence is one sentence. Texts: no effect (lsum_split splits them).",
        ),
        Option(
            "use_aggregator",
            "output",
            True,
            "bool",
            "True: the exact mean over examples; False: a list of per-example scores per key.",
        ),
        Option(
            "return_precision_recall",
            "output",
            False,
            "bool",
            "Also return '<type>_precision' and '<type>_recall'.",
        ),
        Option(
            "confidence_level",
            "output",
            None,
            "float or None",
            "E.g. 0.95: also return '<type>_low' / '<type>_high', a percentile bootstrap "
            "interval of the mean (of P and R too with return_precision_recall).",
            cli="--confidence",
        ),
        Option(
            "n_resamples",
            "output",
            1000,
            "int",
            "Bootstrap resamples for the interval.",
            cli="--n-resamples",
        ),
        Option(
            "seed",
            "output",
            0,
            "int",
            "Seed of the bootstrap: the same seed gives the same interval.",
            cli="--seed",
        ),
        Option(
            "return_signature",
            "output",
            False,
            "bool",
            "Also return 'signature', naming every setting that changes a score.",
        ),
        Option(
            "num_proc",
            "execution",
            1,
            "int, Workers or None",
            "Processes for large batches (2,000+ examples); results are identical. In Python,"
            " a rouge_lcs.Workers keeps its processes between calls.",
            cli="--num-proc",
        ),
        Option(
            "num_threads",
            "execution",
            None,
            "int or None",
            "Threads counting in the native engine (the GIL is released); None: the"
            " ROUGE_LCS_NUM_THREADS environment variable (a number or 'auto'), else 1; results"
            " are identical.",
            cli="--num-threads",
            cli_help="Threads counting in the native engine; results are identical. Default: "
            "the ROUGE_LCS_NUM_THREADS environment variable (a number or 'auto'), else 1.",
        ),
    ]
}


#: What each ``compat`` value sets (the options it does not name keep their values).
COMPAT_PRESETS: dict[str, dict[str, object]] = {
    # rouge_score knows no language: its tokens, Porter stemmer and newline sentences.
    "rouge_score": {
        "tokenizer": "rouge_score",
        "lsum_split": "newline",
        "multi_ref": "max_f",
        "language": None,
    },
}


def command_line_help(name: str) -> str:
    """The help of option ``name`` as the command line shows it: in its own words where the
    library's name parameters or callables (:attr:`Option.cli_help`), and with its default."""
    option = OPTIONS[name]
    text = option.cli_help or option.help
    if "Default:" in text:
        return text
    default = option.default
    shown = ("on" if default else "off") if isinstance(default, bool) else str(default)
    return f"{text} Default: {shown}."


def names(group: str) -> list[str]:
    """Option names of one group, in declaration order."""
    return [o.name for o in OPTIONS.values() if o.group == group]


def defaults(group: str) -> dict[str, object]:
    """``{name: default}`` of one group."""
    return {o.name: o.default for o in OPTIONS.values() if o.group == group}


def _wrap(text: str, width: int, indent: str, subsequent: str) -> list[str]:
    """``text``'s words in lines of at most ``width`` characters (a longer word on a line of its
    own), the first line starting with ``indent``, the others with ``subsequent``.

    ``textwrap.wrap`` at spaces only: it also breaks after hyphens (``ROUGE-`` / ``Lsum``), and
    importing it imports ``re`` (~3 ms) when ``rouge()``'s docstring is built at import."""
    lines: list[str] = []
    prefix, line = indent, ""
    for word in text.split():
        if line and len(prefix) + len(line) + 1 + len(word) > width:
            lines.append(prefix + line)
            prefix, line = subsequent, word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(prefix + line)
    return lines


def describe(indent: str = "    ", width: int = 96) -> str:
    """Google-style ``Args:`` lines for every option (for docstrings and the metric card)."""
    lines = []
    for option in OPTIONS.values():
        default = (
            ""
            if option.default is None and option.name == "rouge_types"
            else (f" Default: {option.default!r}.")
        )
        text = f"{option.name} ({option.type_help}): {option.help}{default}"
        lines += _wrap(text, width, indent, indent + "    ")
    return "\n".join(lines)


def fill_options(doc: str, escape: Callable[[str], str] | None = None) -> str:
    """``doc`` with its ``{options}`` line replaced by :func:`describe`'s lines for every
    option, at that line's indentation (under an ``Args:`` heading); ``escape``, if given,
    rewrites those lines (the site's Markdown: ``<weight>``, ``'rougeS*'`` as plain text)."""
    lines = doc.split("\n")
    for i, line in enumerate(lines):
        if line.strip() == "{options}":
            text = describe(indent=line[: len(line) - len(line.lstrip())])
            lines[i] = escape(text) if escape else text
    return "\n".join(lines)


def document_options(function: Callable[..., object]) -> None:
    """Fill the ``{options}`` line of ``function``'s docstring in, once, at import: ``help()``
    shows every option, written once here (the documentation site fills the same line in
    from the source: scripts/griffe_rest.py)."""
    if function.__doc__:
        function.__doc__ = fill_options(function.__doc__)
