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
from rouge_lcs.recipes.numbers import TYPES, Numbers, compute

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

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready fields."""
        return {
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
        """Whether some recipe reproduces every reported number."""
        return any(c.matches for c in self.candidates)

    @property
    def verdict(self) -> str:
        """One sentence: who reproduces the numbers, or the nearest."""
        if self.reported is None:
            return (
                f"{len(self.candidates)} recipes on {self.n_examples} examples (nothing reported)"
            )
        best = self.best
        names = ", ".join(f"{c.package} [{c.key}]" for c in best[:6])
        more = f" and {len(best) - 6} more" if len(best) > 6 else ""
        if self.reproduced:
            tie = (
                f" ({len(best)} recipes tie: the data cannot tell them apart)"
                if len(best) > 1
                else ""
            )
            return f"reproduced by {names}{more}{tie}"
        distance = best[0].distance if best else float("nan")
        return f"none reproduces these numbers; nearest: {names}{more} (off by {distance:.4g})"

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready fields."""
        return {
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
            header += ["distance", "match"]
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
                    "yes" if c.matches else "no",
                ]
            rows.append(row)
        widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
        lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
        return "\n".join([self.verdict, "", *lines])

    def __str__(self) -> str:
        return self.table()


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
        **fields,  # type: ignore[arg-type]
    )


def _judge(candidate: Candidate, reported: dict[str, float], half: float) -> tuple[float, bool]:
    distance, matches = 0.0, True
    for t, r in reported.items():
        if t not in candidate.numbers:
            return math.inf, False
        if candidate.intervals is not None and t in candidate.intervals:
            lo, hi = candidate.intervals[t]
            gap = max(lo - r, r - hi, 0.0)
        else:
            gap = abs(candidate.numbers[t] - r)
        distance = max(distance, gap)
        matches = matches and gap <= half * (1 + _EPS) + _EPS * max(1.0, r)
    return distance, matches


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
    # Every recipe that reproduces the numbers ranks first (they tie: rounding cannot tell
    # them apart); exact numbers are listed before unseeded-bootstrap intervals, which match
    # a wider range.  The others rank by distance.
    judged = []
    for order, numbers in enumerate(computed):
        for variant, suffix in _variants(numbers, values):
            c = _candidate(variant, scale, suffix)
            distance, matches = (math.inf, False) if c.error else _judge(c, values, half)
            tie_key = (not matches, 0.0 if matches else round(distance, 9))
            judged.append((tie_key, c.intervals is not None, round(distance, 9), order, c))
    judged.sort(key=lambda item: item[:4])
    tie_keys = [item[0] for item in judged]
    candidates = []
    rank = 0
    for index, (tie_key, _, _, _, c) in enumerate(judged):
        if index == 0 or tie_key != tie_keys[index - 1]:
            rank = index + 1
        distance, matches = _judge(c, values, half) if not c.error else (math.inf, False)
        candidates.append(
            Candidate(
                **{
                    **c.__dict__,
                    "distance": distance,
                    "matches": matches,
                    "rank": rank,
                    "tied": tie_keys.count(tie_key) > 1,
                }
            )
        )
    return Audit(
        candidates, values, units, places, len(batch), tuple(t for t in TYPES if t in values)
    )
