"""ROUGE type names: parsing the spellings people write into canonical keys.

Canonical names are rouge_score's: ``rouge1`` … ``rougeN`` (any N >= 1), ``rougeL``,
``rougeLsum``.  Accepted spellings ignore case and an optional ``-`` or ``_`` after ``rouge``:
``rouge-1``, ``ROUGE_2``, ``ROUGE-L``, ``rougeLSum``, ``rouge-lsum``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
VALID_NAMES_HELP = "'rouge1', 'rouge2', … 'rougeN' (any N >= 1), 'rougeL', 'rougeLsum'"

_SPELLING = re.compile(r"rouge[-_]?(?:(?P<n>[0-9]+)|(?P<l>l)|(?P<lsum>lsum))", re.IGNORECASE)


@dataclass(frozen=True)
class RougeType:
    """One ROUGE variant: ``kind`` is ``"n"`` (n-gram), ``"L"`` (LCS) or ``"Lsum"``."""

    name: str
    kind: str
    n: int = 0


def parse_rouge_type(spelling: object) -> RougeType:
    """Parse one rouge type name; raise ``ValueError`` listing the valid names otherwise."""
    if not isinstance(spelling, str):
        raise TypeError(
            f"rouge_types: expected str items, got {type(spelling).__name__} ({spelling!r})"
        )
    match = _SPELLING.fullmatch(spelling.strip())
    if match is None or (match["n"] is not None and int(match["n"]) < 1):
        raise ValueError(
            f"rouge_types: unknown rouge type {spelling!r}; valid names are {VALID_NAMES_HELP} "
            "(case, '-' and '_' are ignored: 'ROUGE-1', 'rouge_L', 'rougeLSum')"
        )
    if match["n"] is not None:
        n = int(match["n"])
        return RougeType(name=f"rouge{n}", kind="n", n=n)
    if match["l"] is not None:
        return RougeType(name="rougeL", kind="L")
    return RougeType(name="rougeLsum", kind="Lsum")


def parse_rouge_types(rouge_types: object = None) -> tuple[RougeType, ...]:
    """Parse ``rouge_types`` (``None``: the four defaults); duplicates collapse."""
    if rouge_types is None:
        rouge_types = DEFAULT_ROUGE_TYPES
    if isinstance(rouge_types, str):
        rouge_types = [rouge_types]
    if not isinstance(rouge_types, (list, tuple)):
        raise TypeError(f"rouge_types: expected a list of names, got {type(rouge_types).__name__}")
    if not rouge_types:
        raise ValueError(f"rouge_types: the list is empty; give at least one of {VALID_NAMES_HELP}")
    parsed: dict[str, RougeType] = {}
    for spelling in rouge_types:
        rouge_type = parse_rouge_type(spelling)
        parsed.setdefault(rouge_type.name, rouge_type)
    return tuple(parsed.values())
