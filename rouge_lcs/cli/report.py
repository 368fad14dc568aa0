"""Plain-text tables of scores (used by the CLI; no dependencies)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A left/right aligned fixed-width table; floats with 4 decimals."""

    def cell(value: object) -> str:
        return f"{value:.4f}" if isinstance(value, float) else str(value)

    cells = [[cell(v) for v in row] for row in rows]
    widths = [max(len(h), *(len(r[k]) for r in cells)) for k, h in enumerate(headers)]

    def line(values: Sequence[str]) -> str:
        first = values[0].ljust(widths[0])
        rest = (v.rjust(w) for v, w in zip(values[1:], widths[1:]))
        return "  ".join([first, *rest]).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(list(headers)), rule, *(line(r) for r in cells)])


def prf_table(means: Mapping[str, Sequence[float]]) -> str:
    """``type  precision  recall  F`` rows."""
    return table(
        ["type", "precision", "recall", "F"],
        [[name, *values] for name, values in means.items()],
    )
