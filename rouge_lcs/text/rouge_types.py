"""ROUGE type names: parsing the spellings people write into canonical keys.

Canonical names are rouge_score's: ``rouge1`` … ``rougeN`` (any N >= 1), ``rougeL``,
``rougeLsum``.  Accepted spellings ignore case and an optional ``-`` or ``_`` after ``rouge``:
``rouge-1``, ``ROUGE_2``, ``ROUGE-L``, ``rougeLSum``, ``rouge-lsum``.
"""

from __future__ import annotations

from rouge_lcs.base.records import record

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
#: Largest N of ROUGE-N: n-grams are counted in N passes over the batch, so an N of millions
#: would hold a call for minutes; no evaluation uses more than a handful.
MAX_N = 1000
VALID_NAMES_HELP = f"'rouge1', 'rouge2', … 'rougeN' (N from 1 to {MAX_N}), 'rougeL', 'rougeLsum'"


@record
class RougeType:
    """One ROUGE variant: ``kind`` is ``"n"`` (n-gram), ``"L"`` (LCS) or ``"Lsum"``."""

    name: str
    kind: str
    n: int = 0


def _spelling(text: str) -> str | int | None:
    """What ``rouge[-_]?(N|l|lsum)``, case ignored, spells: N, ``"L"`` or ``"Lsum"`` (None: no
    such name).  String methods rather than a regular expression: ``import re`` costs ~3 ms of
    every fresh process.  ``casefold`` ignores case as ``re.IGNORECASE`` does (``ſ`` is ``s``).
    At most 7 digits before int(): the value check then gives the message, not int()."""
    folded = text.casefold()
    if not folded.startswith("rouge"):
        return None
    rest = folded[5:]
    if rest[:1] in ("-", "_"):
        rest = rest[1:]
    if rest == "l":
        return "L"
    if rest == "lsum":
        return "Lsum"
    if 1 <= len(rest) <= 7 and rest.isascii() and rest.isdigit():
        return int(rest)
    return None


def parse_rouge_type(spelling: object) -> RougeType:
    """Parse one rouge type name; raise ``ValueError`` listing the valid names otherwise."""
    if not isinstance(spelling, str):
        raise TypeError(
            f"rouge_types: expected a list of str, got an item of type {type(spelling).__name__}"
        )
    spelled = _spelling(spelling.strip())
    if spelled is None or (isinstance(spelled, int) and not 1 <= spelled <= MAX_N):
        raise ValueError(
            f"rouge_types: expected {VALID_NAMES_HELP} (case, '-' and '_' are ignored: "
            f"'ROUGE-1', 'rouge_L', 'rougeLSum'), got {spelling[:40]!r}"
        )
    if isinstance(spelled, int):
        return RougeType(name=f"rouge{spelled}", kind="n", n=spelled)
    return RougeType(name=f"rouge{spelled}", kind=spelled)


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
