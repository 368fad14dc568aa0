"""ROUGE type names: parsing the spellings people write into canonical keys, and the one
declaration of the ROUGE kinds.

Canonical names are rouge_score's for the types it has — ``rouge1`` … ``rougeN`` (any N >= 1),
``rougeL``, ``rougeLsum`` — and ROUGE-1.5.5's for the others: ``rougeW`` (weighted LCS,
weight 1.2) and ``rougeW-1.5`` (another weight), ``rougeS4`` (skip bigrams at most 4 tokens
apart), ``rougeS*`` (any distance), ``rougeSU4`` / ``rougeSU*`` (skip bigrams and unigrams).
Accepted spellings ignore case and an optional ``-`` or ``_`` after ``rouge``: ``rouge-1``,
``ROUGE_2``, ``ROUGE-L``, ``rougeLSum``, ``rouge-lsum``, ``ROUGE-W-1.2``, ``ROUGE-SU4``.

Every engine, explanation and scoring rule dispatches on :attr:`RougeType.kind`, one of
:data:`KINDS`; a branch that meets a kind it does not handle raises :func:`unknown_kind`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rouge_lcs.base.records import record

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
#: Largest N of ROUGE-N: n-grams are counted in N passes over the batch, so an N of millions
#: would hold a call for minutes; no evaluation uses more than a handful.
MAX_N = 1000
#: ROUGE-W's weight bounds, ROUGE-1.5.5's ``-w`` bounds (see rouge_lcs.rouge155.api.Options):
#: below 1 the weighted LCS rewards gaps (recall above 1); above 10, ``k ** w`` leaves the
#: doubles on long sentences.
MIN_WEIGHT, MAX_WEIGHT = 1.0, 10.0
#: ROUGE-W's weight when the name gives none (the script's ``-w 1.2``).
DEFAULT_WEIGHT = 1.2
#: Largest finite skip distance of ROUGE-S/SU (7 digits); a larger one is ``*`` in effect.
MAX_SKIP = 9_999_999

#: The ROUGE kinds, each with its parameters (the fields of :class:`RougeType` it reads):
#: ``n`` ROUGE-N (``n``), ``L`` the LCS of the whole texts, ``Lsum`` the union LCS over
#: sentences, ``W`` the weighted LCS (``weight``), ``S`` skip bigrams (``skip``, -1: any
#: distance), ``SU`` skip bigrams and unigrams (``skip``).
KINDS = ("n", "L", "Lsum", "W", "S", "SU")

VALID_NAMES_HELP = (
    f"'rouge1', 'rouge2', … 'rougeN' (N from 1 to {MAX_N}), 'rougeL', 'rougeLsum', "
    f"'rougeW' or 'rougeW-<weight>' (weight from {MIN_WEIGHT:g} to {MAX_WEIGHT:g}), "
    f"'rougeS<distance>' or 'rougeS*', 'rougeSU<distance>' or 'rougeSU*'"
)


@record
class RougeType:
    """One ROUGE variant: ``kind`` is one of :data:`KINDS`; ``n`` is ROUGE-N's size,
    ``weight`` ROUGE-W's, ``skip`` ROUGE-S/SU's largest number of tokens between the two of a
    skip bigram (-1: any)."""

    name: str
    kind: str
    n: int = 0
    weight: float = 0.0
    skip: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise unknown_kind(self)

    @property
    def unigrams(self) -> bool:
        """Whether unigrams count as units too (ROUGE-SU)."""
        return self.kind == "SU"


def weights(types: Sequence[RougeType]) -> tuple[float, ...] | None:
    """ROUGE-W's weight of each type, 0 for the other kinds; None when no type is ROUGE-W
    (precision and recall are then the plain ratios)."""
    if not any(t.kind == "W" for t in types):
        return None
    return tuple(t.weight if t.kind == "W" else 0.0 for t in types)


def unknown_kind(rouge_type: RougeType) -> ValueError:
    """The error of a branch that meets a kind it does not handle (names the type)."""
    return ValueError(
        f"rouge_types: {rouge_type.name!r} has kind {rouge_type.kind!r}, expected one of "
        f"{list(KINDS)}"
    )


def _number(text: str) -> float | None:
    """A plain decimal ``12``, ``1.5`` or ``.5`` (ASCII digits and one point), else None."""
    whole, point, frac = text.partition(".")
    digits = whole + frac
    if not digits or not digits.isascii() or not digits.isdigit() or len(digits) > 15:
        return None
    return float(text)


def _skip(text: str) -> int | None:
    """A skip distance: ``*`` (-1) or at most 7 digits."""
    if text == "*":
        return -1
    if 1 <= len(text) <= 7 and text.isascii() and text.isdigit():
        return int(text)
    return None


def _spelling(text: str) -> RougeType | int | None:
    """What ``rouge[-_]?(N|l|lsum|w([-_]weight)?|s(d|*)|su(d|*))``, case ignored, spells: N,
    or the type (None: no such name).  String methods rather than a regular expression:
    ``import re`` costs ~3 ms of every fresh process.  ``casefold`` ignores case as
    ``re.IGNORECASE`` does (``ſ`` is ``s``).  At most 7 digits before int(): the value check
    then gives the message, not int()."""
    folded = text.casefold()
    if not folded.startswith("rouge"):
        return None
    rest = folded[5:]
    if rest[:1] in ("-", "_"):
        rest = rest[1:]
    if rest == "l":
        return RougeType("rougeL", "L")
    if rest == "lsum":
        return RougeType("rougeLsum", "Lsum")
    if rest == "w" or rest[:2] in ("w-", "w_"):
        weight = DEFAULT_WEIGHT if rest == "w" else _number(rest[2:])
        if weight is None or not MIN_WEIGHT <= weight <= MAX_WEIGHT:
            return None
        name = "rougeW" if weight == DEFAULT_WEIGHT else f"rougeW-{weight:.15g}"
        return RougeType(name, "W", weight=weight)
    for prefix, kind in (("su", "SU"), ("s", "S")):
        if rest.startswith(prefix):
            skip = _skip(rest[len(prefix) :])
            if skip is None:
                return None
            return RougeType(f"rouge{kind}{'*' if skip < 0 else skip}", kind, skip=skip)
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
            f"'ROUGE-1', 'rouge_L', 'rougeLSum', 'ROUGE-SU4'), got {spelling[:40]!r}"
        )
    if isinstance(spelled, int):
        return RougeType(name=f"rouge{spelled}", kind="n", n=spelled)
    return spelled


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
