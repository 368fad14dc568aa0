"""ROUGE-1.5.5 compatibility: every number the original Perl script prints, without Perl.

>>> from rouge_lcs.rouge155 import score
>>> report = score(["the cat sat"], [["a cat sat", "the cat lay"]], n=2, stem=True)
>>> print(report.text())  # the script's stdout for ``-a -d -n 2 -m``   # doctest: +SKIP

Modules: :mod:`.tokenize` (the script's token rules), :mod:`.stem` (``-m``),
:mod:`.counts` (per-pair statistics), :mod:`.flags` (the script's flags: ``score_flags``),
:mod:`.report` (combination, rounding, averages, text), :mod:`.pyrouge` (a pyrouge-shaped
``Rouge155`` class), :mod:`.cli` (``rouge-lcs rouge155``).
"""

from __future__ import annotations

from rouge_lcs.base.lazy import import_module

# Loaded at first use: importing the script's engine costs a process ~75 ms, and the
# library's own calls import this package for rouge_lcs.rouge155.route alone.
TYPE_CHECKING = False  # not typing's: type checkers treat any name TYPE_CHECKING as true
if TYPE_CHECKING:
    from rouge_lcs.rouge155.api import Options, score, score_lines
    from rouge_lcs.rouge155.flags import parse_args, score_flags
    from rouge_lcs.rouge155.report import Report

_HOMES = {
    "Options": "api",
    "score": "api",
    "score_lines": "api",
    "parse_args": "flags",
    "score_flags": "flags",
    "Report": "report",
}

__all__ = ["Options", "Report", "parse_args", "score", "score_flags", "score_lines"]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
