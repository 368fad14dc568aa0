"""Other packages' WordNet 2.0 exception tables, each kept as the entries where it differs from
the script's (:func:`rouge_lcs.rouge155.stem.exceptions`): ``data/<name>_exceptions.tsv``."""

from __future__ import annotations

from functools import cache
from importlib import resources

from rouge_lcs.rouge155.stem import exceptions

__all__ = ["table"]


@cache
def table(name: str) -> dict[str, str]:
    """The script's WordNet exceptions with ``data/<name>_exceptions.tsv``'s entries over them
    (``word<TAB>stem`` lines; ``#`` lines are comments)."""
    out = dict(exceptions())
    path = resources.files(__package__).joinpath(f"data/{name}_exceptions.tsv")
    for line in path.read_text("ascii").splitlines():
        if line and not line.startswith("#"):
            word, base = line.split("\t")
            out[word] = base
    return out
