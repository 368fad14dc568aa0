"""``audit()``: which package and settings reproduce a reported ROUGE score.

>>> a = audit(["the cat sat on the mat"], ["the cat sat on a mat"], {"R1": 83.33})
>>> a.candidates[0].matches  # several recipes give 83.33 here: they tie at rank 1
True
>>> "rouge-score" in {c.package for c in a.candidates if c.matches}
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from rouge_lcs.base.validation import check_texts, fail_type, fail_value
from rouge_lcs.recipes.catalogue import Recipe, recipes
from rouge_lcs.recipes.numbers import MID_Z, TYPES, Numbers, compute

__all__ = ["Audit", "Candidate", "audit", "parse_reported"]

#: How a paper may name a type -> this library's name.
_ALIASES = {"1": "rouge1", "2": "rouge2", "l": "rougeL", "lsum": "rougeLsum"}
_SHORT = {"rouge1": "R1", "rouge2": "R2", "rougeL": "RL", "rougeLsum": "RLsum"}
_EPS = 1e-9


def _type_name(spelling: object) -> str:
    if not isinstance(spelling, str):
        raise fail_type("reported", "a mapping of type names (str) to numbers", spelling)
    folded = spelling.strip().casefold().replace("_", "-")
    for prefix in ("rouge-", "rouge", "r-", "r"):
        if folded.startswith(prefix):
            rest = folded[len(prefix) :]
            if rest in _ALIASES:
                return _ALIASES[rest]
    raise fail_value(
        "reported", "type names R1, R2, RL, RLsum (or rouge1, ROUGE-2, rougeL, rougeLsum)", spelling
    )


def _decimals(value: object) -> int:
    text = value if isinstance(value, str) else repr(float(value))  # type: ignore[arg-type]
    text = text.strip()
    if "e" in text.lower():
        return 6
    return len(text.partition(".")[2])


def parse_reported(reported: object) -> dict[str, tuple[float, int]]:
    """``{"R1": 44.16, …}`` or ``"R1=44.16 R2=21.28 RL=40.90"`` -> ``{type: (value, decimals)}``;
    a value given as a string keeps its trailing zeros ("40.90": 2 decimals)."""
    if isinstance(reported, str):
        pairs: list[tuple[str, object]] = []
        for item in reported.replace(",", " ").split():
            label, sep, text = item.partition("=")
            if not sep or not text:
                raise fail_value("reported", "items NAME=VALUE such as 'R1=44.16 R2=21.28'", item)
            pairs.append((label, text))
    elif isinstance(reported, Mapping):
        pairs = list(reported.items())
    else:
        raise fail_type("reported", "a mapping such as {'rouge1': 44.16} or a str", reported)
    if not pairs:
        raise fail_value("reported", "at least one reported number", reported)
    out: dict[str, tuple[float, int]] = {}
    for name, raw in pairs:
        key = _type_name(name)
        if key in out:
            raise fail_value("reported", "each type once", name)
        if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
            raise fail_type(f"reported[{name!r}]", "a number", raw)
        try:
            value = float(raw)
        except ValueError:
            raise fail_value(f"reported[{name!r}]", "a number", raw) from None
        number: float = value
        if not math.isfinite(number) or not 0 <= number <= 100:
            raise fail_value(f"reported[{name!r}]", "a number from 0 to 100", raw)
        out[key] = (number, _decimals(raw))
    return out


@dataclass(frozen=True)
class Candidate:
    """One recipe against the reported numbers.  ``numbers``: per type, in the reported units
    (for an unseeded bootstrap, the centre of ``intervals``); ``distance``: the largest
    |reported - recipe| over the reported types (0 inside an interval); ``matches``: every
    reported number is this recipe's number rounded as reported; ``rank``: 1 is best, tied
    candidates share a rank."""

    key: str
    package: str
    version: str
    options: dict[str, object]
    numbers: dict[str, float]
    note: str
    source: str
    intervals: dict[str, tuple[float, float]] | None = None
    distance: float | None = None
    matches: bool | None = None
    rank: int | None = None
    tied: bool = False
    error: str | None = None
    #: "reproduced" (an exact number within rounding), "near" (an exact number within one
    #: rounding unit), "consistent" (an unseeded bootstrap's interval holds the reported
    #: value), "off"; ``None`` without reported numbers.
    evidence: str | None = None
    #: An unseeded bootstrap's (reported - its centre) / the standard deviation of its mid,
    #: per type, and ``p``: how often a run's mids lie at least that far from the centres
    #: beyond rounding (chi-square over the reported types; "consistent" from 0.05).
    z: dict[str, float] | None = None
    p: float | None = None
    plain: str = ""
    family: str = ""

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready fields."""
        return {
            "plain": self.plain,
            "family": self.family,
            "evidence": self.evidence,
            "z": self.z,
            "p": self.p,
            "key": self.key,
            "package": self.package,
            "version": self.version,
            "options": self.options,
            "numbers": self.numbers,
            "intervals": self.intervals,
            "distance": self.distance,
            "matches": self.matches,
            "rank": self.rank,
            "tied": self.tied,
            "note": self.note,
            "source": self.source,
            "error": self.error,
        }


@dataclass(frozen=True)
class Audit:
    """Every recipe's numbers on the texts, ranked against ``reported`` when given.

    ``candidates``: best first (matches first, then by distance; recipes in catalogue order
    without ``reported``); ``best``: those tied first; ``reproduced``: some recipe matches."""

    candidates: list[Candidate]
    reported: dict[str, float] | None
    units: str
    decimals: int | None
    n_examples: int
    types: tuple[str, ...] = field(default=TYPES)

    @property
    def best(self) -> list[Candidate]:
        """The candidates ranked first (several when they tie)."""
        return [c for c in self.candidates if c.rank == 1]

    @property
    def reproduced(self) -> bool:
        """Whether some exact recipe reproduces every reported number within rounding (an
        unseeded bootstrap's interval is at most "consistent with" them)."""
        return any(c.evidence == "reproduced" for c in self.candidates)

    @property
    def unit(self) -> float | None:
        """One rounding unit of the reported numbers (0.01 for two decimals)."""
        return None if self.decimals is None else 10.0**-self.decimals

    @property
    def answer(self) -> str:
        """The best candidate in plain words ("rouge_score, stemmer on, plain mean of
        per-example F"), or that nothing reproduces the numbers."""
        if self.reported is None or not self.candidates:
            return ""
        best = self.candidates[0]
        if best.evidence == "reproduced":
            return best.plain
        if best.evidence == "consistent":
            return f"consistent with {best.plain}; no exact recipe reproduces these numbers"
        return f"none reproduces these numbers; nearest: {best.plain}"

    def _interval_words(self, c: Candidate) -> str:
        if not c.intervals:
            return ""
        widths = [hi - lo for lo, hi in c.intervals.values()]
        zs = ", ".join(f"{_SHORT[t]} z={v:+.1f}" for t, v in (c.z or {}).items())
        likely = "" if c.p is None else f", p = {c.p:.2g}"
        return (
            f" (an unseeded bootstrap: its mid moves within an interval {max(widths):.3g} wide "
            f"at n = {self.n_examples}; {zs}{likely})"
        )

    @property
    def apart(self) -> str:
        """For tied candidates of several recipes: what would tell them apart (a type not
        reported where their numbers differ, or more decimals); ``""`` when one leads."""
        if self.reported is None:
            return ""
        best = self.best
        if len(best) < 2 or self.unit is None:
            return ""
        scale = self.unit
        # numbers the paper did not report where the tied recipes differ by a rounding unit
        words = []
        for t in TYPES:
            if t in self.reported:
                continue
            values = [c.numbers[t] for c in best if t in c.numbers]
            if len(values) > 1 and max(values) - min(values) >= scale:
                words.append(f"{_SHORT[t]} (theirs span {min(values):.2f}-{max(values):.2f})")
        spread = max(
            (
                max(c.numbers[t] for c in best if t in c.numbers)
                - min(c.numbers[t] for c in best if t in c.numbers)
                for t in self.reported
            ),
            default=0.0,
        )
        if spread < 1e-9 and not words:
            return (
                f"{len(best)} recipes tie with the same numbers: the same computation, which "
                "no reported number tells apart"
            )
        families = sorted({c.family for c in best})
        head = f"tied: {', '.join(families)}"
        tell = f"reporting {', '.join(words)} or more decimals" if words else "more decimals"
        spread_words = f"; on the reported types they differ by at most {spread:.2g}"
        return f"{head}{spread_words}; {tell}, or R and P, would tell them apart"

    @property
    def verdict(self) -> str:
        """One line: "reproduced by" (an exact recipe within rounding), "consistent with" (only
        an unseeded bootstrap's interval) or "none reproduces these numbers; nearest:", the
        recipe in plain words, then the recipe keys, the number of examples, and for a tie what
        would tell the tied recipes apart."""
        if self.reported is None:
            return (
                f"{len(self.candidates)} recipes on {self.n_examples} examples (nothing reported)"
            )
        best = self.best
        names = ", ".join(f"{c.package} [{c.key}]" for c in best[:6])
        more = f" and {len(best) - 6} more" if len(best) > 6 else ""
        n = f"n = {self.n_examples}"
        apart = f"; {self.apart}" if self.apart else ""
        lead = best[0] if best else None
        if self.reproduced:
            tie = f", {len(best)} recipes tie" if len(best) > 1 else ""
            return f"reproduced by {self.answer} — {names}{more} ({n}{tie}){apart}"
        if lead is not None and lead.evidence == "consistent":
            return (
                f"consistent with {lead.plain} — {names}{more}{self._interval_words(lead)}; no "
                f"exact recipe reproduces these numbers{apart}"
            )
        distance = lead.distance if lead else float("nan")
        return f"{self.answer} — {names}{more} (off by {distance:.4g}, {n}){apart}"

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready fields."""
        return {
            "answer": self.answer,
            "verdict": self.verdict,
            "reported": self.reported,
            "units": self.units,
            "decimals": self.decimals,
            "n_examples": self.n_examples,
            "candidates": [c.to_dict() for c in self.candidates],
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    def table(self, limit: int | None = None) -> str:
        """A plain-text table, best first (``limit``: at most that many rows)."""
        types = [t for t in self.types if self.reported is None or t in self.reported]
        digits = 2 if self.units == "percent" else 4
        if self.decimals is not None:
            digits = max(digits, self.decimals + 1)
        header = ["rank", "package", "recipe"] + [_SHORT[t] for t in types]
        if self.reported is not None:
            header += ["distance", "evidence"]
        rows = [header]
        if self.reported is not None:
            rows.append(
                ["", "reported", ""]
                + [f"{self.reported[t]:.{self.decimals}f}" for t in types]
                + ["", ""]
            )
        shown = self.candidates if limit is None else self.candidates[:limit]
        for c in shown:
            rank = "" if c.rank is None else f"{c.rank}{'=' if c.tied else ''}"
            cells = []
            for t in types:
                if t not in c.numbers:
                    cells.append("-")
                elif c.intervals and t in c.intervals:
                    lo, hi = c.intervals[t]
                    cells.append(f"{lo:.{digits}f}-{hi:.{digits}f}")
                else:
                    cells.append(f"{c.numbers[t]:.{digits}f}")
            row = [rank, c.package, c.key, *cells]
            if self.reported is not None:
                row += [
                    "-" if c.distance is None else f"{c.distance:.{digits}f}",
                    _evidence_cell(c),
                ]
            rows.append(row)
        widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
        lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
        return "\n".join([self.verdict, "", *lines])

    def __str__(self) -> str:
        return self.table()


def _evidence_cell(c: Candidate) -> str:
    if c.p is not None:
        worst = max((abs(v) for v in (c.z or {}).values()), default=0.0)
        return f"{c.evidence} (|z|<={worst:.1f}, p={c.p:.2g})"
    return c.evidence or "-"


def _scaled(
    numbers: Numbers, scale: float
) -> tuple[dict[str, float], dict[str, tuple[float, float]] | None]:
    values = {t: v * scale for t, v in numbers.values.items()}
    intervals = None
    if numbers.intervals is not None:
        intervals = {t: (lo * scale, hi * scale) for t, (lo, hi) in numbers.intervals.items()}
        values = {t: (lo + hi) / 2 for t, (lo, hi) in intervals.items()}
    return values, intervals


def _variants(n: Numbers, reported: Mapping[str, object]) -> list[tuple[Numbers, str]]:
    """A recipe, and where the paper's "RL" may be its rougeLsum (transformers' scripts print
    rougeLsum as the paper's ROUGE-L), the same recipe read that way."""
    out = [(n, "")]
    lsum = n.values.get("rougeLsum")
    if (
        "rougeL" in reported
        and "rougeLsum" not in reported
        and lsum is not None
        and abs(lsum - n.values["rougeL"]) > 1e-12
    ):
        values = dict(n.values, rougeL=lsum)
        intervals = None
        if n.intervals is not None:
            intervals = dict(n.intervals, rougeL=n.intervals["rougeLsum"])
        out.append((Numbers(n.recipe, values, intervals), "RL=rougeLsum"))
    return out


def _candidate(numbers: Numbers, scale: float, suffix: str = "", **fields: object) -> Candidate:
    recipe: Recipe = numbers.recipe
    values, intervals = _scaled(numbers, scale)
    options = dict(recipe.options)
    key = recipe.key
    if suffix:
        options["reported_RL"] = "rougeLsum"
        key += "/" + suffix
    return Candidate(
        key=key,
        package=recipe.package,
        version=recipe.version,
        options=options,
        numbers=values,
        note=recipe.note,
        source=recipe.source,
        intervals=intervals,
        error=numbers.error,
        plain=recipe.plain + (", its rougeLsum as RL" if suffix else ""),
        family=recipe.family,
        **fields,  # type: ignore[arg-type]
    )


def _chi2_tail(x: float, k: int) -> float:
    """P(chi-square with k degrees of freedom >= x), k = 1..4 (the reported types)."""
    if x <= 0:
        return 1.0
    root = math.sqrt(x / 2)
    tails = {
        1: math.erfc(root),
        2: math.exp(-x / 2),
        3: math.erfc(root) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2),
        4: math.exp(-x / 2) * (1 + x / 2),
    }
    return min(1.0, tails[k])


#: An unseeded bootstrap is "consistent with" the reported numbers when a run's mids lie at
#: least this far from the centres in this share of runs or more (chi-square over the types).
CONSISTENT_P = 0.05


@dataclass(frozen=True)
class _Judged:
    distance: float
    matches: bool  # within rounding, or (a bootstrap) consistent with the numbers
    evidence: str
    z: dict[str, float] | None
    p: float | None


def _judge(candidate: Candidate, reported: dict[str, float], half: float) -> _Judged:
    """The evidence for one candidate: its largest gap to a reported number beyond rounding
    (an unseeded bootstrap: from the centre of its interval, as its mean's); for a bootstrap
    also z per type, (reported - centre) / the standard deviation of its mid (the interval is
    the centre +- MID_Z of them), and p, how often a run's mids lie at least that far from
    the centres beyond rounding (chi-square over the reported types, which rouge_score
    resamples independently)."""
    if candidate.error or any(t not in candidate.numbers for t in reported):
        return _Judged(math.inf, False, "off", None, None)
    slack = half * (1 + _EPS)
    distance, within = 0.0, True
    z: dict[str, float] = {}
    chi2 = 0.0
    for t, r in reported.items():
        tol = slack + _EPS * max(1.0, r)
        gap = abs(candidate.numbers[t] - r)
        if candidate.intervals is not None and t in candidate.intervals:
            lo, hi = candidate.intervals[t]
            sd = (hi - lo) / (2 * MID_Z)
            beyond = max(gap - tol, 0.0)
            if sd > 0:
                z[t] = (r - candidate.numbers[t]) / sd
                chi2 += (beyond / sd) ** 2
            elif beyond > 0:
                chi2 = math.inf
        distance = max(distance, gap)
        within = within and gap <= tol
    if candidate.intervals is not None:
        p = _chi2_tail(chi2, len(reported)) if math.isfinite(chi2) else 0.0
        consistent = p >= CONSISTENT_P
        return _Judged(distance, consistent, "consistent" if consistent else "off", z, p)
    evidence = "reproduced" if within else "near" if distance <= 2 * slack else "off"
    return _Judged(distance, within, evidence, None, None)


#: The order of evidence: exact numbers within rounding, then within one rounding unit (a
#: bootstrap interval never ranks above them), then bootstrap intervals, then the rest.
_TIER = {"reproduced": 0, "near": 1, "consistent": 2, "off": 3}


def _ranked(judged: list[tuple[int, Candidate, _Judged]], unit: float) -> list[Candidate]:
    """Candidates best first, with ranks.  Every reproducing candidate ties first; then exact
    numbers within one rounding unit, by distance; then unseeded-bootstrap intervals
    consistent with the numbers, by p; then the rest by distance.  Among those that reproduce
    nothing, a run of one family's recipes within one rounding unit of the run's first ties
    with it (a difference below the reported precision says nothing about which of them ran),
    as do equal distances."""
    keyed = []
    for order, c, j in judged:
        tier = _TIER[j.evidence]
        value = 0.0 if tier == 0 else -(j.p or 0.0) if tier == 2 else j.distance
        # exact numbers before intervals inside a tie, then catalogue order
        keyed.append(((tier, round(value, 12)), c.intervals is not None, order, c, j))
    keyed.sort(key=lambda item: item[:3])
    out: list[Candidate] = []
    ranks: list[int] = []
    lead: tuple[int, Candidate, _Judged] | None = None  # the first of the current tie
    for index, ((tier, value), _, _, c, j) in enumerate(keyed):
        same = False
        if lead is not None:
            lead_tier, lead_c, lead_j = lead
            same = (tier, round(value, 9)) == (lead_tier, round(_value(lead_tier, lead_j), 9))
            if tier in (1, 3) and lead_tier == tier and c.family == lead_c.family:
                same = same or j.distance - lead_j.distance <= unit * (1 + _EPS)
        if not same:
            lead = (tier, c, j)
            ranks.append(index + 1)
        else:
            ranks.append(ranks[-1])
        fields = {
            "distance": j.distance,
            "matches": j.matches,
            "rank": ranks[-1],
            "evidence": j.evidence,
            "z": j.z,
            "p": j.p,
        }
        out.append(Candidate(**{**c.__dict__, **fields}))
    return [Candidate(**{**c.__dict__, "tied": ranks.count(c.rank or 0) > 1}) for c in out]


def _value(tier: int, j: _Judged) -> float:
    return 0.0 if tier == 0 else -(j.p or 0.0) if tier == 2 else j.distance


def audit(
    predictions: object,
    references: object,
    reported: object = None,
    *,
    units: str | None = None,
    decimals: int | None = None,
) -> Audit:
    """Every known recipe's corpus numbers on these texts and, with ``reported``, the recipes
    ranked by how well they reproduce it.

    Args:
        predictions (list of str): one text per example (sentences separated by newlines,
            where the recipe splits sentences by newline).
        references (list of str, or list of lists of str): one or several per example.
        reported (mapping or str, optional): the paper's numbers, any subset of R1, R2, RL,
            RLsum (``{"rouge1": 44.16}`` or ``"R1=44.16 R2=21.28 RL=40.90"``), in percent or
            as fractions.
        units ("percent" or "fraction", optional): the units of ``reported``; default:
            percent when some value is above 1.
        decimals (int, optional): the paper's decimals; default: the most given (a string
            keeps its trailing zeros).

    Returns:
        :class:`Audit`: ``candidates`` best first, ``verdict``, ``table()``, ``to_dict()``.
    """
    batch = check_texts(predictions, references)
    parsed = None if reported is None else parse_reported(reported)
    if units is not None and units not in ("percent", "fraction"):
        raise fail_value("units", "'percent' or 'fraction'", units)
    if decimals is not None and (isinstance(decimals, bool) or not isinstance(decimals, int)):
        raise fail_type("decimals", "an int", decimals)
    if decimals is not None and not 0 <= decimals <= 12:
        raise fail_value("decimals", "an int from 0 to 12", decimals)
    if parsed is not None and units is None:
        units = "percent" if any(v > 1 for v, _ in parsed.values()) else "fraction"
    units = units or "percent"
    if parsed is not None and units == "fraction" and any(v > 1 for v, _ in parsed.values()):
        raise fail_value("reported", "fractions from 0 to 1 with units='fraction'", reported)
    scale = 100.0 if units == "percent" else 1.0
    multi = any(len(r) > 1 for r in batch.references)
    computed = compute(batch, recipes(multi_ref=multi))
    if parsed is None:
        candidates = [_candidate(n, scale) for n in computed]
        return Audit(candidates, None, units, decimals, len(batch))
    places = decimals if decimals is not None else max(d for _, d in parsed.values())
    values = {t: v for t, (v, _) in parsed.items()}
    half = 0.5 * 10.0**-places
    judged = []
    for order, numbers in enumerate(computed):
        for variant, suffix in _variants(numbers, values):
            c = _candidate(variant, scale, suffix)
            judged.append((order, c, _judge(c, values, half)))
    candidates = _ranked(judged, 2 * half)
    return Audit(
        candidates, values, units, places, len(batch), tuple(t for t in TYPES if t in values)
    )
