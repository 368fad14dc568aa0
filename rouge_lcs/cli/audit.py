"""``rouge-lcs audit``: which tool and settings reproduce a paper's ROUGE numbers.

    rouge-lcs audit --predictions p.txt --references r.txt --reported "R1=44.16 R2=21.28 RL=40.90"

One text per line; ``--references`` again for each further reference set; ``--sentence-separator
'<n>'`` marks sentence ends inside a line (they become newlines).  Without ``--reported``, every
recipe's numbers side by side.  ``--json``: the whole audit as JSON.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from rouge_lcs.cli.io import InputError, read_lines
from rouge_lcs.recipes.auditor import audit


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rouge-lcs audit",
        description="Rank the known ROUGE tools and settings by how well they reproduce "
        "reported numbers (docs/audit.md).",
    )
    parser.add_argument("--predictions", required=True, help="one prediction per line")
    parser.add_argument(
        "--references",
        required=True,
        action="append",
        help="one reference per line (repeat for more)",
    )
    parser.add_argument(
        "--reported", help="e.g. 'R1=44.16 R2=21.28 RL=40.90' (percent or fractions)"
    )
    parser.add_argument("--decimals", type=int, help="the paper's decimals (default: as written)")
    parser.add_argument("--sentence-separator", help="a marker of sentence ends, e.g. '<n>'")
    parser.add_argument(
        "--limit", type=_positive, metavar="N", help="show at most this many rows (N >= 1)"
    )
    parser.add_argument("--json", action="store_true", help="print the audit as JSON")
    return parser


def _positive(text: str) -> int:
    """``--limit``: a whole number of rows, at least 1 (``[:-1]`` would drop the last row)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def mark_sentences(texts: Sequence[str], separator: str) -> list[str]:
    """Each text with every ``separator`` (a sentence-end mark inside a line, e.g. ``<n>``)
    turned into a newline, where the recipes that split sentences by newline look for them."""
    return ["\n".join(text.split(separator)) for text in texts]


def main(argv: Sequence[str]) -> int:
    """Run ``rouge-lcs audit``."""
    args = _parser().parse_args(list(argv))
    preds = read_lines(args.predictions)
    columns = [read_lines(path) for path in args.references]
    for path, column in zip(args.references, columns):
        if len(column) != len(preds):
            raise InputError(
                f"--references {path}: {len(column)} lines, but --predictions has {len(preds)}"
            )
        blank = next((k for k, text in enumerate(column, start=1) if not text.strip()), None)
        if blank is not None:  # it would score 0 for every recipe, silently (the Space refuses)
            raise InputError(
                f"--references {path}: line {blank} is blank; every example needs a reference "
                "text (an empty one would score 0)"
            )
    if args.sentence_separator:
        preds = mark_sentences(preds, args.sentence_separator)
        columns = [mark_sentences(column, args.sentence_separator) for column in columns]
    refs = [list(texts) for texts in zip(*columns)]
    result = audit(preds, refs, args.reported, decimals=args.decimals)
    print(result.to_json() if args.json else result.table(args.limit))
    return 0
