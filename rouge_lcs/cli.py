"""Command line: ``rouge-lcs`` / ``python -m rouge_lcs``.

- no arguments: score the bundled example set and print per-example F and a P/R/F table;
- ``score`` (or just ``--predictions F --references F…``): score files; intervals, signature,
  JSON, per-example CSV;
- ``compare``: two systems on the same references: paired bootstrap and approximate
  randomization per rouge type;
- ``l-f1`` / ``n-recall``: the seeds' exercise formats on stdin, byte for byte.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from rouge_lcs.api import Scores, make_settings, score, score_with
from rouge_lcs.io import (
    InputError,
    bundled_examples,
    read_parallel,
    read_table,
    write_scores_csv,
)
from rouge_lcs.multiref import MULTI_REF_MODES
from rouge_lcs.report import prf_table, table
from rouge_lcs.signature import make_signature
from rouge_lcs.statistics import compare

#: Batches at least this large show a progress bar on stderr.
PROGRESS_MIN_EXAMPLES = 5000


def _add_scoring_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("scoring options")
    group.add_argument(
        "--rouge-types",
        nargs="+",
        default=None,
        metavar="TYPE",
        help="rouge1 rouge2 … rougeN, rougeL, rougeLsum (default: rouge1 rouge2 rougeL rougeLsum)",
    )
    group.add_argument("--stem", action="store_true", help="Porter stemming (rouge_score's mode)")
    group.add_argument(
        "--tokenizer",
        default="unicode",
        choices=["unicode", "rouge_score", "whitespace"],
        help="token rule (default: unicode)",
    )
    group.add_argument(
        "--lsum-split",
        default="auto",
        choices=["auto", "newline", "nltk"],
        help="ROUGE-Lsum sentence split (default: auto)",
    )
    group.add_argument(
        "--multi-ref", default="max_f", choices=MULTI_REF_MODES, help="default: max_f"
    )
    group.add_argument("--beta", type=float, default=1.0, help="F-beta weight (default: 1)")
    group.add_argument(
        "--num-proc", type=int, default=1, help="processes for large batches (default: 1)"
    )


def _add_statistics_options(parser: argparse.ArgumentParser, confidence: float | None) -> None:
    group = parser.add_argument_group("statistics")
    group.add_argument(
        "--confidence",
        type=float,
        default=confidence,
        metavar="LEVEL",
        help="bootstrap confidence level, e.g. 0.95"
        + (" (default)" if confidence else " (default: no interval)"),
    )
    group.add_argument("--n-resamples", type=int, default=1000, help="default: 1000")
    group.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")


def _options(args: argparse.Namespace) -> dict:
    """The scoring options of the library (not ``num_proc``, which does not change scores)."""
    return {
        "use_stemmer": args.stem,
        "tokenizer": args.tokenizer,
        "lsum_split": args.lsum_split,
        "multi_ref": args.multi_ref,
        "beta": args.beta,
    }


def _score_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rouge-lcs score", description="Score predictions against references."
    )
    source = parser.add_argument_group("data (text files: one text a line)")
    source.add_argument("--predictions", "-p", metavar="FILE", help="predictions file")
    source.add_argument(
        "--references", "-r", nargs="+", metavar="FILE", help="one or more reference files"
    )
    source.add_argument(
        "--data", metavar="FILE", help="a .jsonl or .csv with prediction and reference(s) columns"
    )
    _add_scoring_options(parser)
    _add_statistics_options(parser, confidence=None)
    out = parser.add_argument_group("output")
    out.add_argument("--json", action="store_true", help="print the result as JSON")
    out.add_argument("--csv", metavar="FILE", help="write per-example scores to this CSV")
    return parser


def _score_with_progress(predictions, references, settings, args: argparse.Namespace) -> Scores:
    from tqdm import tqdm

    with tqdm(
        total=len(predictions),
        unit="pairs",
        file=sys.stderr,
        disable=len(predictions) < PROGRESS_MIN_EXAMPLES,
    ) as bar:
        return score_with(
            predictions, references, settings, num_proc=args.num_proc, progress=bar.update
        )


def _signature(scores: Scores, args: argparse.Namespace) -> str:
    return make_signature(
        scores.settings,
        scores.stats.n_refs.tolist(),
        confidence_level=args.confidence,
        n_resamples=args.n_resamples,
        seed=args.seed,
    )


def _print_result(scores: Scores, args: argparse.Namespace) -> None:
    means = scores.mean()
    intervals = (
        scores.interval(args.confidence, args.n_resamples, args.seed) if args.confidence else None
    )
    signature = _signature(scores, args)
    if args.json:
        payload: dict[str, object] = {}
        for name, values in means.items():
            entry: dict[str, object] = dict(zip(("precision", "recall", "fmeasure"), values))
            if intervals:
                entry["interval"] = dict(zip(("precision", "recall", "fmeasure"), intervals[name]))
            payload[name] = entry
        payload["n"] = len(scores)
        payload["signature"] = signature
        print(json.dumps(payload, indent=2))
        return
    if intervals:
        level = f"{args.confidence:g}"
        rows = [
            [name, *means[name], f"[{intervals[name][2][0]:.4f}, {intervals[name][2][1]:.4f}]"]
            for name in means
        ]
        print(table(["type", "precision", "recall", "F", f"F {level} CI"], rows))
    else:
        print(prf_table(means))
    print(f"\n{len(scores)} examples")
    print(f"signature: {signature}")


def _write_csv(scores: Scores, path: str) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        write_scores_csv(handle, scores)


def _read_inputs(parser, args) -> tuple[list[str], list[list[str]]]:
    if args.data:
        if args.predictions or args.references:
            parser.error("give either --data or --predictions/--references, not both")
        return read_table(args.data)
    if args.predictions and args.references:
        return read_parallel(args.predictions, args.references)
    parser.error("give --predictions FILE and --references FILE [FILE …], or --data FILE")
    raise AssertionError  # parser.error exits


def cmd_score(argv: Sequence[str]) -> int:
    """``rouge-lcs score``."""
    parser = _score_parser()
    args = parser.parse_args(argv)
    settings = make_settings(args.rouge_types, **_options(args))  # bad options: before reading
    predictions, references = _read_inputs(parser, args)
    scores = _score_with_progress(predictions, references, settings, args)
    _print_result(scores, args)
    if args.csv:
        _write_csv(scores, args.csv)
    return 0


def cmd_compare(argv: Sequence[str]) -> int:
    """``rouge-lcs compare``: system B against system A on the same references."""
    parser = argparse.ArgumentParser(
        prog="rouge-lcs compare",
        description="Paired significance of system B against system A on the same references.",
    )
    data = parser.add_argument_group("data (text files: one text a line)")
    data.add_argument("--system-a", "-a", required=True, metavar="FILE")
    data.add_argument("--system-b", "-b", required=True, metavar="FILE")
    data.add_argument("--references", "-r", required=True, nargs="+", metavar="FILE")
    _add_scoring_options(parser)
    _add_statistics_options(parser, confidence=0.95)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if args.confidence is None:
        parser.error("--confidence is needed for the interval of the difference")
    settings = make_settings(args.rouge_types, **_options(args))
    system_a, references = read_parallel(args.system_a, args.references)
    system_b, _ = read_parallel(args.system_b, args.references)
    a = _score_with_progress(system_a, references, settings, args)
    b = _score_with_progress(system_b, references, settings, args)
    result = compare(a.fmeasure, b.fmeasure, args.confidence, args.n_resamples, args.seed)
    signature = _signature(a, args)
    names = a.rouge_types
    if args.json:
        payload = {
            name: {
                "mean_a": float(result.mean_a[k]),
                "mean_b": float(result.mean_b[k]),
                "difference": float(result.difference[k]),
                "interval": [float(result.low[k]), float(result.high[k])],
                "p_bootstrap": float(result.p_bootstrap[k]),
                "p_randomization": float(result.p_randomization[k]),
            }
            for k, name in enumerate(names)
        }
        payload["n"] = len(a)
        payload["signature"] = signature
        print(json.dumps(payload, indent=2))
        return 0
    level = f"{args.confidence:g}"
    rows = [
        [
            name,
            float(result.mean_a[k]),
            float(result.mean_b[k]),
            f"{result.difference[k]:+.4f}",
            f"[{result.low[k]:+.4f}, {result.high[k]:+.4f}]",
            f"{result.p_bootstrap[k]:.4f}",
            f"{result.p_randomization[k]:.4f}",
        ]
        for k, name in enumerate(names)
    ]
    print(f"F of system B ({args.system_b}) against system A ({args.system_a}):\n")
    headers = ["type", "A", "B", "B - A", f"{level} CI", "p (bootstrap)", "p (rand.)"]
    print(table(headers, rows))
    print(f"\n{len(a)} examples; paired bootstrap (Koehn 2004) and approximate randomization,")
    print(f"{args.n_resamples} resamples each, seed {args.seed}; p-values are two-sided.")
    print(f"signature: {signature}")
    return 0


def cmd_examples(argv: Sequence[str]) -> int:
    """Score the bundled example set with default settings and print the tables."""
    parser = argparse.ArgumentParser(
        prog="rouge-lcs examples", description="Score the bundled example set."
    )
    _add_scoring_options(parser)
    args = parser.parse_args(argv)
    examples = bundled_examples()
    settings = make_settings(args.rouge_types, **_options(args))
    scores = score_with(
        [e["prediction"] for e in examples], [e["references"] for e in examples], settings
    )
    print("Per-example F (defaults: unicode tokenizer, no stemming, best-F reference):\n")
    rows = [[e["id"], *scores.fmeasure[k].tolist()] for k, e in enumerate(examples)]
    print(table(["example", *scores.rouge_types], rows))
    print("\nMean over the examples:\n")
    print(prf_table(scores.mean()))
    print(f"\nsignature: {make_signature(settings, scores.stats.n_refs.tolist())}")
    return 0


def _exercise_lines(count: int) -> list[str]:
    lines = sys.stdin.read().split("\n")
    if len(lines) < count:
        raise InputError(f"stdin: expected {count} lines, got {len(lines)}")
    return lines[:count]


def cmd_l_f1(argv: Sequence[str]) -> int:
    """Seed exercise: reference and candidate lines on stdin -> ROUGE-L F1 to 4 decimals."""
    argparse.ArgumentParser(prog="rouge-lcs l-f1", description=cmd_l_f1.__doc__).parse_args(argv)
    reference, candidate = _exercise_lines(2)
    result = score([candidate], [reference], ["rougeL"], tokenizer="whitespace")
    print(f"{result.fmeasure[0, 0]:.4f}")
    return 0


def cmd_n_recall(argv: Sequence[str]) -> int:
    """Seed exercise: N, generated and reference lines on stdin -> ROUGE-N recall, 4 decimals."""
    argparse.ArgumentParser(prog="rouge-lcs n-recall", description=cmd_n_recall.__doc__).parse_args(
        argv
    )
    n_text, generated, reference = _exercise_lines(3)
    try:
        n = int(n_text.strip())
    except ValueError:
        raise InputError(f"stdin line 1: expected the n-gram size N, got {n_text!r}") from None
    if n < 1:
        raise InputError(f"stdin line 1: N must be >= 1, got {n}")
    result = score([generated], [reference], [f"rouge{n}"], tokenizer="whitespace")
    print(f"{result.recall[0, 0]:.4f}")
    return 0


COMMANDS = {
    "score": cmd_score,
    "compare": cmd_compare,
    "examples": cmd_examples,
    "l-f1": cmd_l_f1,
    "n-recall": cmd_n_recall,
    "rouge155": lambda rest: __import__("rouge_lcs.rouge155.cli").rouge155.cli.main(rest),
}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``rouge-lcs`` and ``python -m rouge_lcs``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        command, rest = "examples", []
    elif argv[0] in COMMANDS:
        command, rest = argv[0], argv[1:]
    elif argv[0] == "--version":
        from rouge_lcs import __version__

        print(f"rouge-lcs {__version__}")
        return 0
    elif argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        print(f"\ncommands: {', '.join(COMMANDS)} (each has --help)")
        return 0
    else:
        command, rest = "score", argv
    try:
        return COMMANDS[command](rest)
    except (InputError, ValueError, TypeError) as error:
        print(f"rouge-lcs: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
