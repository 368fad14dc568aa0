"""ROUGE-1.5.5 compatibility: every number the original Perl script prints, without Perl.

>>> from rouge_lcs.rouge155 import score
>>> report = score(["the cat sat"], [["a cat sat", "the cat lay"]], n=2, stem=True)
>>> print(report.text())  # the script's stdout for ``-a -d -n 2 -m``   # doctest: +SKIP

Modules: :mod:`.tokenize` (the script's token rules), :mod:`.stem` (``-m``),
:mod:`.counts` (per-pair statistics), :mod:`.flags` (the script's flags: ``score_flags``),
:mod:`.report` (combination, rounding, averages, text), :mod:`.pyrouge` (a pyrouge-shaped
``Rouge155`` class), :mod:`.cli` (``rouge-lcs rouge155``).
"""

from rouge_lcs.rouge155.api import Options, score, score_lines
from rouge_lcs.rouge155.flags import parse_args, score_flags
from rouge_lcs.rouge155.report import Report

__all__ = ["Options", "Report", "parse_args", "score", "score_flags", "score_lines"]
