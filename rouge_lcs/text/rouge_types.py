"""ROUGE type names: parsing the spellings people write into canonical keys.

Canonical names are rouge_score's: ``rouge1`` … ``rougeN`` (any N >= 1), ``rougeL``,
``rougeLsum``.  Accepted spellings ignore case and an optional ``-`` or ``_`` after ``rouge``:
``rouge-1``, ``ROUGE_2``, ``ROUGE-L``, ``rougeLSum``, ``rouge-lsum``.
"""

from __future__ import annotations

import re

from rouge_lcs.base.records import record

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
#: Largest N of ROUGE-N: n-grams are counted in N passes over the batch, so an N of millions
#: would hold a call for minutes; no evaluation uses more than a handful.
MAX_N = 1000
VALID_NAMES_HELP = f"'rouge1', 'rouge2', … 'rougeN' (N from 1 to {MAX_N}), 'rougeL', 'rougeLsum'"

# At most 7 digits before int(): the value check below then gives the message, not int().
_SPELLING = re.compile(r"rouge[-_]?(?:(?P<n>[0-9]{1,7})|(?P<l>l)|(?P<lsum>lsum))", re.IGNORECASE)


@record
class RougeType:
    """One ROUGE variant: ``kind`` is ``"n"`` (n-gram), ``"L"`` (LCS) or ``"Lsum"``."""

    name: str
    kind: str
    n: int = 0


def parse_rouge_type(spelling: object) -> RougeType:
    """Parse one rouge type name; raise ``ValueError`` listing the valid names otherwise."""
    if not isinstance(spelling, str):
        raise TypeError(
            f"rouge_types: expected a list of str, got an item of type {type(spelling).__name__}"
        )
    match = _SPELLING.fullmatch(spelling.strip())
    if match is None or (match["n"] is not None and not 1 <= int(match["n"]) <= MAX_N):
        raise ValueError(
            f"rouge_types: expected {VALID_NAMES_HELP} (case, '-' and '_' are ignored: "
            f"'ROUGE-1', 'rouge_L', 'rougeLSum'), got {spelling[:40]!r}"
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
        raise TypeError(f"rouge_types: expected a list of str, got {type(rouge_types).__name__}")
    if not rouge_types:
        raise ValueError(f"rouge_types: expected at least one of {VALID_NAMES_HELP}, got []")
    parsed: dict[str, RougeType] = {}
    for spelling in rouge_types:
        rouge_type = parse_rouge_type(spelling)
        parsed.setdefault(rouge_type.name, rouge_type)
    return tuple(parsed.values())
