"""The script's command-line flags: :func:`parse_args` reads them, :func:`score_flags` scores
texts with them (one call for what ``ROUGE-1.5.5.pl -a <flags>`` prints).

>>> report = score_flags(["the cat sat"], [["a cat sat", "the cat lay"]], "-n 2 -m -f A")
>>> report.to_dict()["rouge_1_recall"]
0.66667
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import asdict

from rouge_lcs.rouge155.api import Options, Text, perl_numeral, score
from rouge_lcs.rouge155.report import Report

__all__ = ["parse_args", "score_flags"]


_VALUE_FLAGS = {"-n", "-l", "-b", "-f", "-p", "-w", "-2", "-c", "-r", "-e", "-3", "-z", "-t"}


def parse_args(args: str | Sequence[str]) -> tuple[Options, bool]:
    """The script's flags (a string or a list) → :class:`Options` and whether ``-d`` is on.

    ``-e DIR`` and ``-a`` are accepted and ignored (no data folder is needed; every system is
    scored).  ``-t``, ``-z``, ``-3`` (BE), ``-M``, ``-v`` are not supported.
    """
    tokens = shlex.split(args) if isinstance(args, str) else list(args)
    values: dict[str, str] = {}
    switches: set[str] = set()
    i = 0
    while i < len(tokens):
        flag = tokens[i]
        if flag in _VALUE_FLAGS:
            if i + 1 >= len(tokens):
                raise ValueError(f"option {flag} needs a value")
            values[flag] = tokens[i + 1]  # a later repetition wins, as with Getopt::Std
            i += 2
            continue
        if flag in {"-m", "-s", "-u", "-U", "-d", "-x", "-a"}:
            switches.add(flag)
            i += 1
            continue
        raise ValueError(f"unsupported option {flag!r}")
    for unsupported in ("-3", "-z", "-t"):
        if unsupported in values:
            raise ValueError(f"option {unsupported} is not supported by rouge_lcs.rouge155")

    def number(flag: str, kind: type) -> int | float | None:
        if flag not in values:
            return None
        text = values[flag]
        if not perl_numeral(text, kind is int):  # "1_0", fullwidth digits: not Perl's
            raise ValueError(f"option {flag} needs a number, got {text!r}")
        return kind(text)

    def integer(flag: str) -> int | None:
        value = number(flag, int)
        return None if value is None else int(value)

    def real(flag: str) -> float | None:
        value = number(flag, float)
        return None if value is None else float(value)

    unigrams: bool | str = "both" if "-U" in switches and "-u" not in switches else "-u" in switches
    alpha = real("-p")
    resamples = integer("-r")  # -r 0 is refused, not read as "not given"
    opts = Options(
        n=integer("-n") or 0,
        rouge_l="-x" not in switches,
        weight=values["-w"] if number("-w", float) is not None else None,
        skip=values["-2"] if number("-2", int) is not None else None,
        unigrams=unigrams,
        stem="-m" in switches,
        stopwords="-s" in switches,
        length_limit=integer("-l"),
        byte_limit=integer("-b"),
        multi_ref=values.get("-f", "A"),
        alpha=0.5 if alpha is None else alpha,
        confidence=values["-c"] if number("-c", float) is not None else 95,
        resamples=1000 if resamples is None else resamples,
    )
    opts.validate()
    return opts, "-d" in switches


def score_flags(
    predictions: Sequence[Text],
    references: Sequence[Text | Sequence[Text]],
    flags: str | Sequence[str],
) -> Report:
    """:func:`~rouge_lcs.rouge155.api.score` with the script's flags as typed (``"-n 2 -m -l
    100"``, or a list): every flag :func:`parse_args` reads (``-d`` only affects printing and
    is ignored here: :meth:`Report.text` prints the per-example lines)."""
    opts, _ = parse_args(flags)
    return score(predictions, references, **asdict(opts))
