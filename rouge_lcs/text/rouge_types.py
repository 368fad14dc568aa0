"""ROUGE type names: parsing the spellings people write into canonical keys, and the one
declaration of the ROUGE kinds.

Canonical names are rouge_score's for the types it has — ``rouge1`` … ``rougeN`` (any N >= 1),
``rougeL``, ``rougeLsum`` — and ROUGE-1.5.5's for the others: ``rougeW`` (weighted LCS,
weight 1.2) and ``rougeW-1.5`` (another weight), ``rougeS4`` (skip bigrams at most 4 tokens
apart), ``rougeS*`` (any distance), ``rougeSU4`` / ``rougeSU*`` (skip bigrams and unigrams).
Accepted spellings ignore case and an optional ``-`` or ``_`` after ``rouge``: ``rouge-1``,
``ROUGE_2``, ``ROUGE-L``, ``rougeLSum``, ``rouge-lsum``, ``ROUGE-W-1.2``, ``ROUGE-SU4``.

Each kind is one :class:`RougeKind` record of :data:`ROUGE_KINDS`: its spellings and their
parser, the kernel that counts it on each engine, its precision/recall rule, the features that
support it, its ROUGE-1.5.5 tag.  Every engine, explanation and scoring rule reads the record
(:attr:`RougeType.rules`), never the kind's letter; a branch that meets a kernel it does not
handle raises :func:`unknown_kind`.  **To add a kind, add its record here**, and its kernels
(a new kernel name) to each engine, beside their tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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

#: The kernels that count the kinds (:attr:`RougeKind.kernel`), each one a kernel of both
#: engines: clipped n-gram overlap (the counting kernel), the LCS of the whole texts (the
#: counting kernel), the union LCS over sentences (the counting kernel), the weighted LCS
#: (``Backend.wlcs``), clipped skip bigrams (``Backend.skip_counts``).
NGRAMS, LCS, UNION_LCS, WLCS, SKIP = "ngrams", "lcs", "union_lcs", "wlcs", "skip"


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
        if self.kind not in ROUGE_KINDS:
            raise unknown_kind(self)

    @property
    def rules(self) -> RougeKind:
        """The record of this type's kind (a dict look-up: read it once per scorer, not per
        call)."""
        return ROUGE_KINDS[self.kind]

    @property
    def unigrams(self) -> bool:
        """Whether unigrams count as units too (ROUGE-SU)."""
        return ROUGE_KINDS[self.kind].unigrams


@record
class RougeKind:
    """Everything about one ROUGE kind, in one place (as
    :class:`~rouge_lcs.text.tokenizers.TokenizerRecord` for tokenizers).

    Attributes:
        name: the kind, :attr:`RougeType.kind`.
        spelling: its accepted names, for the error that lists the valid names.
        parse: the type a name spells, given the name casefolded without ``rouge`` and its
            ``-``/``_`` (``"su4"``), or ``None``: not this kind's spelling.
        kernel: the kernel that counts it on each engine (:data:`NGRAMS`, :data:`LCS`,
            :data:`UNION_LCS`, :data:`WLCS`, :data:`SKIP`); a kind with a new kernel adds it to
            each engine (``engine/kinds.py``, or the counting kernel of both engines).
        perl: ROUGE-1.5.5's tag of it, formatted with ``n``, ``weight`` and ``skip``
            (the script's numbers as it prints them).
        weighted: precision and recall are ``f⁻¹(hits / total)`` with ``f(k) = k ** weight``
            (ROUGE-W), not the plain ratios.
        unigrams: every unigram counts as a unit too (ROUGE-SU).
        sentences: counted over the texts' sentences (the ``lsum_split`` option applies).
        prefix: the scores of every prefix exist (per-token and incremental scores).
        similarity: the similarity kernel scores it (``rouge_lcs.similarity``).
        explain: ``explain()`` shows its matches.
    """

    name: str
    spelling: str
    parse: Callable[[str], RougeType | None]
    kernel: str
    perl: str
    weighted: bool = False
    unigrams: bool = False
    sentences: bool = False
    prefix: bool = False
    similarity: bool = False
    explain: bool = False


def _parse_n(rest: str) -> RougeType | None:
    # At most 7 digits before int(): the range check then gives the message, not int().
    if 1 <= len(rest) <= 7 and rest.isascii() and rest.isdigit() and 1 <= int(rest) <= MAX_N:
        return RougeType(f"rouge{int(rest)}", "n", n=int(rest))
    return None


def _parse_l(rest: str) -> RougeType | None:
    return RougeType("rougeL", "L") if rest == "l" else None


def _parse_lsum(rest: str) -> RougeType | None:
    return RougeType("rougeLsum", "Lsum") if rest == "lsum" else None


def _parse_w(rest: str) -> RougeType | None:
    if rest != "w" and rest[:2] not in ("w-", "w_"):
        return None
    weight = DEFAULT_WEIGHT if rest == "w" else _number(rest[2:])
    if weight is None or not MIN_WEIGHT <= weight <= MAX_WEIGHT:
        return None
    name = "rougeW" if weight == DEFAULT_WEIGHT else f"rougeW-{weight:.15g}"
    return RougeType(name, "W", weight=weight)


def _skips(rest: str, kind: str) -> RougeType | None:
    """``s<distance>`` (ROUGE-S) or ``su<distance>`` (ROUGE-SU)."""
    prefix = kind.lower()
    skip = _skip(rest[len(prefix) :]) if rest.startswith(prefix) else None
    if skip is None:
        return None
    return RougeType(f"rouge{kind}{'*' if skip < 0 else skip}", kind, skip=skip)


# Module-level functions, not closures: a record (a Metric's) pickles with its kind's record.
def _parse_s(rest: str) -> RougeType | None:
    return _skips(rest, "S")


def _parse_su(rest: str) -> RougeType | None:
    return _skips(rest, "SU")


def _records(*kinds: RougeKind) -> dict[str, RougeKind]:
    return {kind.name: kind for kind in kinds}


#: The ROUGE kinds, in the order shown to users.  **To add a kind, add its record here**: the
#: parser, the valid names' message, the engines' dispatch, the scores' rule, the features'
#: checks and ROUGE-1.5.5's tag all read this table.
ROUGE_KINDS: dict[str, RougeKind] = _records(
    RougeKind(
        "n",
        f"'rouge1', 'rouge2', … 'rougeN' (N from 1 to {MAX_N})",
        _parse_n,
        NGRAMS,
        "ROUGE-{n}",
        prefix=True,
        similarity=True,
        explain=True,
    ),
    RougeKind(
        "L", "'rougeL'", _parse_l, LCS, "ROUGE-L", prefix=True, similarity=True, explain=True
    ),
    # ROUGE-1.5.5's ROUGE-L is the union LCS over sentences: ROUGE-Lsum's count.
    RougeKind(
        "Lsum", "'rougeLsum'", _parse_lsum, UNION_LCS, "ROUGE-L", sentences=True, explain=True
    ),
    RougeKind(
        "W",
        f"'rougeW' or 'rougeW-<weight>' (weight from {MIN_WEIGHT:g} to {MAX_WEIGHT:g})",
        _parse_w,
        WLCS,
        "ROUGE-W-{weight}",
        weighted=True,
    ),
    RougeKind("S", "'rougeS<distance>' or 'rougeS*'", _parse_s, SKIP, "ROUGE-S{skip}"),
    RougeKind(
        "SU",
        "'rougeSU<distance>' or 'rougeSU*'",
        _parse_su,
        SKIP,
        "ROUGE-SU{skip}",
        unigrams=True,
    ),
)
#: The ROUGE kinds' names (:attr:`RougeType.kind`), in the order of :data:`ROUGE_KINDS`.
KINDS = tuple(ROUGE_KINDS)

VALID_NAMES_HELP = ", ".join(kind.spelling for kind in ROUGE_KINDS.values())


def weights(types: Sequence[RougeType]) -> tuple[float, ...] | None:
    """ROUGE-W's weight of each type, 0 for the other kinds; None when no type is ROUGE-W
    (precision and recall are then the plain ratios)."""
    weighted = [t.rules.weighted for t in types]
    if not any(weighted):
        return None
    return tuple(t.weight if w else 0.0 for t, w in zip(types, weighted))


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


def _spelling(text: str) -> RougeType | None:
    """The type ``rouge[-_]?<a kind's spelling>``, case ignored, spells (None: no such name):
    each record of :data:`ROUGE_KINDS` parses the rest.  String methods rather than a regular
    expression: ``import re`` costs ~3 ms of every fresh process.  ``casefold`` ignores case as
    ``re.IGNORECASE`` does (``ſ`` is ``s``)."""
    folded = text.casefold()
    if not folded.startswith("rouge"):
        return None
    rest = folded[5:]
    if rest[:1] in ("-", "_"):
        rest = rest[1:]
    for kind in ROUGE_KINDS.values():
        parsed = kind.parse(rest)
        if parsed is not None:
            return parsed
    return None


def parse_rouge_type(spelling: object) -> RougeType:
    """Parse one rouge type name; raise ``ValueError`` listing the valid names otherwise."""
    if not isinstance(spelling, str):
        raise TypeError(
            f"rouge_types: expected a list of str, got an item of type {type(spelling).__name__}"
        )
    spelled = _spelling(spelling.strip())
    if spelled is None:
        raise ValueError(
            f"rouge_types: expected {VALID_NAMES_HELP} (case, '-' and '_' are ignored: "
            f"'ROUGE-1', 'rouge_L', 'rougeLSum', 'ROUGE-SU4'), got {spelling[:40]!r}"
        )
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
