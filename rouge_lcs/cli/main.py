"""The ``rouge-lcs`` command (also ``python -m rouge_lcs``): one function per subcommand.

``main`` dispatches on the first argument; no argument scores the bundled examples, and
arguments that start with an option (``rouge-lcs --predictions F --references F``) mean
``score``.  Every user error is one ``rouge-lcs: error: …`` line and exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import difflib
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

from rouge_lcs.api import score
from rouge_lcs.base.version import __version__
from rouge_lcs.cli.columns import is_parquet
from rouge_lcs.cli.io import (
    InputError,
    Output,
    Table,
    bundled_examples,
    decode,
    load_table,
    read_parallel,
    write_scores_csv,
)
from rouge_lcs.cli.report import prf_table, table
from rouge_lcs.cli.similarity import commands as similarity_commands
from rouge_lcs.config.options import OPTIONS, command_line_help
from rouge_lcs.config.options import names as option_names
from rouge_lcs.config.values import Options
from rouge_lcs.scores.results import Scores
from rouge_lcs.scores.scorer import Rouge
from rouge_lcs.scores.statistics import compare

#: Batches at least this large show a progress bar on stderr.
PROGRESS_MIN_EXAMPLES = 5000

#: ``compare`` warns below this many examples.  With n examples approximate randomization has
#: 2**n sign patterns, so below 6 it cannot reach p < 0.05 at all; and the paired bootstrap
#: resamples only the n differences it has, so below ~30 its spread understates the sampling
#: error (variance scaled by (n - 1) / n, no t correction) and its p-value is far too small: one
#: pair gives p = 1/(resamples + 1) beside 1.0 from randomization.  30 is the usual rule of
#: thumb for a sample mean to be near-normal, which the percentile bootstrap relies on.
COMPARE_MIN_EXAMPLES = 30


def plural(count: int, word: str) -> str:
    """``"1 example"``, ``"2 examples"``, ``"1,000 examples"``."""
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _add_scoring_options(parser: argparse.ArgumentParser, without: Sequence[str] = ()) -> None:
    """The scoring options (and ``--num-proc``), from :data:`rouge_lcs.config.options.OPTIONS`;
    ``without``: choices this command cannot honour (left out of its help; the command refuses
    them with a pointer to what can)."""
    group = parser.add_argument_group("scoring options")
    for name in [*option_names("scoring"), *option_names("execution")]:
        option = OPTIONS[name]
        assert option.cli is not None
        if name == "rouge_types":
            group.add_argument(
                option.cli, nargs="+", default=None, metavar="TYPE", help=command_line_help(name)
            )
        elif name == "use_stemmer":
            group.add_argument(
                option.cli, action="store_true", dest=name, help=command_line_help(name)
            )
        else:
            extra: dict[str, Any]
            if isinstance(option.default, bool):
                extra = {"action": argparse.BooleanOptionalAction}
            elif option.open_choices:  # other spellings too: the library checks them
                extra = {}
            elif option.choices:
                # The choices this command cannot honour are left out of its help.
                shown = ",".join(c for c in option.choices if c not in without)
                extra = {"choices": option.choices, "metavar": "{" + shown + "}"}
            else:
                extra = {"type": float if isinstance(option.default, float) else int}
            group.add_argument(
                option.cli,
                default=option.default,
                dest=name,
                help=command_line_help(name),
                **extra,
            )


def _add_statistics_options(parser: argparse.ArgumentParser, confidence: float | None) -> None:
    group = parser.add_argument_group("statistics")
    option = OPTIONS["confidence_level"]
    group.add_argument(
        option.cli or "--confidence",
        type=float,
        default=confidence,
        dest="confidence",
        metavar="LEVEL",
        help="bootstrap confidence level, e.g. 0.95. "
        + (f"Default: {confidence}." if confidence else "Default: no interval."),
    )
    for name in ("n_resamples", "seed"):
        option = OPTIONS[name]
        group.add_argument(
            option.cli or f"--{name}",
            type=int,
            default=option.default,
            dest=name,
            help=command_line_help(name),
        )


def _options(args: argparse.Namespace) -> Options:
    """The command line's door: the one checked :class:`Options` of the parsed arguments (the
    statistics options too, where the command has them, so "--confidence 0" is an error, not
    silently ignored), built before any reading."""
    names = [*option_names("scoring"), *option_names("execution")]  # _add_scoring_options'
    given = {name: getattr(args, name) for name in names}
    if hasattr(args, "confidence"):
        given.update(confidence_level=args.confidence, n_resamples=args.n_resamples, seed=args.seed)
    return Options(**given)


def _scorer(args: argparse.Namespace) -> Rouge:
    """The configured scorer of the parsed arguments (bad options fail before any reading)."""
    return Rouge.from_options(_options(args))


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
        "--data",
        metavar="FILE",
        help="a .jsonl, .csv or .parquet (streamed) with prediction and reference(s) columns",
    )
    _add_scoring_options(parser)
    _add_statistics_options(parser, confidence=None)
    out = parser.add_argument_group("output")
    out.add_argument("--json", action="store_true", help="print the result as JSON")
    out.add_argument("--csv", metavar="FILE", help="write per-example scores to this CSV")
    out.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help=(
            "with --data FILE.parquet: write per-example scores to this Parquet file. "
            "Default: the means only."
        ),
    )
    return parser


def _score_parquet(scorer: Rouge, args: argparse.Namespace) -> int:
    """``score --data FILE.parquet``: streamed by record batches (rouge_lcs.cli.stream)."""
    from rouge_lcs.cli.stream import stream_scores

    if args.predictions or args.references:
        raise InputError("give either --data or --predictions/--references, not both")
    if args.csv or args.confidence:
        raise InputError("--csv/--confidence: not with --data FILE.parquet (use --output)")
    # Opened before any work (a path that cannot be written fails first); written beside the
    # target and renamed over it only once every batch is scored, so an error leaves no
    # partial file behind.
    output = Output(args.output, "--output", binary=True) if args.output else None
    try:
        means, n, ref_counts = stream_scores(scorer, args.data, output, progress=True)
    except BaseException:
        if output is not None:
            output.discard()
        raise
    if output is not None:
        output.commit()
    signature = scorer.signature(sorted(ref_counts), n_resamples=args.n_resamples, seed=args.seed)
    if args.json:
        payload: dict[str, object] = {k: dict(v._asdict()) for k, v in means.items()}
        payload["n"] = n
        payload["signature"] = signature
        print(json.dumps(payload, indent=2, allow_nan=False))
        return 0
    print(prf_table(means))
    print(f"\n{plural(n, 'example')}")
    print(f"signature: {signature}")
    return 0


def _score_with_progress(
    scorer: Rouge, predictions: list[str], references: list[list[str]]
) -> Scores:
    """Score, with a progress bar on a terminal; when stderr is captured (a file, a pipe, a
    log), the redrawn bar would be many lines, so one final line is written instead."""
    n = len(predictions)
    if n < PROGRESS_MIN_EXAMPLES:
        return scorer.score(predictions, references)
    if not sys.stderr.isatty():
        start = time.perf_counter()
        scores = scorer.score(predictions, references)
        seconds = time.perf_counter() - start
        print(f"scored {plural(n, 'pair')} in {seconds:.2f} s", file=sys.stderr)
        return scores
    from tqdm import tqdm

    with tqdm(total=n, unit="pairs", file=sys.stderr) as bar:
        return scorer.score(predictions, references, progress=bar.update)


def _signature(scores: Scores, args: argparse.Namespace) -> str:
    return Rouge.from_settings(scores.settings).signature(
        scores.stats.ref_counts(),
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
            entry: dict[str, object] = dict(values._asdict())
            if intervals:
                entry["interval"] = intervals[name]._asdict()
            payload[name] = entry
        payload["n"] = len(scores)
        payload["signature"] = signature
        print(json.dumps(payload, indent=2, allow_nan=False))
        return
    if intervals:
        level = f"{args.confidence:g}"
        rows = [
            [name, *means[name], "[{:.4f}, {:.4f}]".format(*intervals[name].fmeasure)]
            for name in means
        ]
        print(table(["type", "precision", "recall", "F", f"F {level} CI"], rows))
    else:
        print(prf_table(means))
    print(f"\n{plural(len(scores), 'example')}")
    print(f"signature: {signature}")


def _open_output(path: str) -> TextIO:
    """Open an output file before any work, so a bad path fails first, with one line."""
    try:
        return open(path, "w", newline="", encoding="utf-8")
    except OSError as error:
        raise InputError(f"--csv {path}: cannot be written ({error.strerror or error})") from None


def _read_inputs(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Table:
    if args.data:
        if args.predictions or args.references:
            raise InputError("give either --data or --predictions/--references, not both")
        return load_table(args.data)
    if args.predictions and args.references:
        return Table(*read_parallel(args.predictions, args.references), ids=None)
    # One line, not the usage block of every option (that is --help).
    missing = "--references FILE [FILE …]" if args.predictions else "--predictions FILE"
    raise InputError(
        f"missing {missing}; give --predictions FILE and --references FILE [FILE …], or "
        f"--data FILE ({parser.prog} --help)"
    )


def _score_rouge155(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``score --compat rouge155``: the Perl script's report of the files, as
    ``rouge(..., compat="rouge155")`` computes it (folders of summaries: ``rouge-lcs
    rouge155``)."""
    from rouge_lcs.rouge155.mode import rouge155_report

    if args.csv:
        parser.error("--csv: per-example CSV is not written with --compat rouge155 (use --json)")
    if args.num_proc != 1 or args.num_threads is not None:
        parser.error("--num-proc/--num-threads: not used with --compat rouge155")
    options = _options(args)
    data = _read_inputs(parser, args)
    report, _, signature = rouge155_report(data.predictions, data.references, options)
    n = len(data.predictions)
    if args.json:
        payload: dict[str, object] = dict(report.to_dict())
        payload["n"] = n
        payload["signature"] = signature
        print(json.dumps(payload, indent=2, allow_nan=False))
        return 0
    sys.stdout.write(dataclasses.replace(report, details=False).text())  # the script without -d
    print(f"\n{plural(n, 'example')}")
    print(f"signature: {signature}")
    return 0


def cmd_score(argv: Sequence[str]) -> int:
    """``rouge-lcs score``."""
    parser = _score_parser()
    args = parser.parse_args(argv)
    if args.compat == "rouge155":
        return _score_rouge155(parser, args)
    scorer = _scorer(args)  # bad options: before reading
    if is_parquet(args.data):  # .parquet or .pq, any case, as dedup and similar read them
        return _score_parquet(scorer, args)
    if args.output:
        raise InputError("--output: per-example Parquet is written with --data FILE.parquet")
    table = _read_inputs(parser, args)
    csv_file = _open_output(args.csv) if args.csv else None
    try:
        scores = _score_with_progress(scorer, table.predictions, table.references)
        _print_result(scores, args)
        if csv_file is not None:
            write_scores_csv(csv_file, scores, ids=table.ids)
    finally:
        if csv_file is not None:
            csv_file.close()
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
    _add_scoring_options(parser, without=("rouge155",))
    _add_statistics_options(parser, confidence=0.95)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if args.confidence is None:
        parser.error("--confidence is needed for the interval of the difference")
    if args.compat == "rouge155":
        # the script's numbers are rounded averages of its own bootstrap, not per-example
        # arrays that a paired test can resample
        parser.error(
            "--compat rouge155: not available in compare; for ROUGE-1.5.5's numbers use "
            "'rouge-lcs score --compat rouge155' (text files) or 'rouge-lcs rouge155' (folders)"
        )
    scorer = _scorer(args)
    system_a, references = read_parallel(args.system_a, args.references)
    system_b, _ = read_parallel(args.system_b, args.references)
    a = _score_with_progress(scorer, system_a, references)
    b = _score_with_progress(scorer, system_b, references)
    result = compare(a.fmeasure, b.fmeasure, args.confidence, args.n_resamples, args.seed)
    signature = _signature(a, args)
    if len(a) < COMPARE_MIN_EXAMPLES:
        print(
            f"rouge-lcs compare: warning: {plural(len(a), 'example')}; below "
            f"{COMPARE_MIN_EXAMPLES} the p-values and the interval are not reliable (the "
            "bootstrap understates the sampling error): compare on more examples",
            file=sys.stderr,
        )
    names = a.rouge_types
    if args.json:
        payload: dict[str, object] = dict(result.to_dict(names))
        payload["n"] = len(a)
        payload["signature"] = signature
        print(json.dumps(payload, indent=2, allow_nan=False))
        return 0
    level = f"{args.confidence:g}"
    rows = [
        [
            name,
            float(result.mean_a[k]),
            float(result.mean_b[k]),
            f"{result.difference[k]:+.4f}",
            f"[{result.low[k]:+.4f}, {result.high[k]:+.4f}]",
            p_value(float(result.p_bootstrap[k]), args.n_resamples),
            p_value(float(result.p_randomization[k]), args.n_resamples),
        ]
        for k, name in enumerate(names)
    ]
    print(f"F of system B ({args.system_b}) against system A ({args.system_a}):\n")
    headers = ["type", "A", "B", "B - A", f"{level} CI", "p (bootstrap)", "p (rand.)"]
    print(table(headers, rows))
    print(
        f"\n{plural(len(a), 'example')}; paired bootstrap (Koehn 2004) and approximate "
        "randomization,"
    )
    print(
        f"{plural(args.n_resamples, 'resample')} each, seed {args.seed}; p-values are two-sided, "
        f"to the {1 / (args.n_resamples + 1):.2g} the resamples resolve."
    )
    print(f"signature: {signature}")
    return 0


def p_value(p: float, n_resamples: int) -> str:
    """A resampled p-value at the resolution ``n_resamples`` allow.

    p = (1 + k) / (1 + n_resamples) moves in steps of 1 / (1 + n_resamples), so it is printed
    with the decimals of that step (1,000 resamples: 3), and the smallest value, which only
    says that no resample was as extreme, as a bound: ``"< 0.001"``.
    """
    decimals = max(1, len(str(n_resamples)) - 1)
    floor = 1 / (n_resamples + 1)
    bound = 10.0**-decimals
    if p <= floor * (1 + 1e-9) and floor < bound:
        return f"< {bound:.{decimals}f}"
    return f"{p:.{decimals}f}"


def cmd_examples(argv: Sequence[str]) -> int:
    """Score the bundled example set with default settings and print the tables."""
    parser = argparse.ArgumentParser(
        prog="rouge-lcs examples", description="Score the bundled example set."
    )
    _add_scoring_options(parser)
    args = parser.parse_args(argv)
    examples = bundled_examples()
    scorer = _scorer(args)
    scores = scorer.score([e["prediction"] for e in examples], [e["references"] for e in examples])
    s = scorer.settings
    print(
        f"Per-example F ({s.tokenizer.name} tokenizer, "
        f"{s.tokenizer.stemmer.name + ' stemming' if s.tokenizer.stemmed else 'no stemming'}, "
        f"multi_ref={s.multi_ref}):\n"
    )
    rows = [[e["id"], *scores.fmeasure[k].tolist()] for k, e in enumerate(examples)]
    print(table(["example", *scores.rouge_types], rows))
    print("\nMean over the examples:\n")
    print(prf_table(scores.mean()))
    print(f"\nsignature: {scorer.signature(scores.stats.ref_counts())}")
    return 0


def _exercise_lines(count: int) -> list[str]:
    # Bytes, decoded strictly: a non-UTF-8 input is an error, not replacement characters.
    lines = decode(sys.stdin.buffer.read(), "stdin").split("\n")
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
    **similarity_commands(),  # dedup, similar
    "audit": lambda rest: __import__("rouge_lcs.cli.audit").cli.audit.main(rest),
}

#: One line of help per command, in the order of :data:`COMMANDS`.
COMMAND_HELP = {
    "score": "score predictions against references (text files, JSONL or CSV); intervals, "
    "signature, JSON, per-example CSV",
    "compare": "system B against system A on the same references: paired bootstrap and "
    "approximate randomization",
    "examples": "score the bundled example set (the default with no arguments)",
    "l-f1": "exercise format: reference and candidate lines on stdin -> ROUGE-L F1",
    "n-recall": "exercise format: N, generated and reference lines on stdin -> ROUGE-N recall",
    "rouge155": "the Perl ROUGE-1.5.5 report for a folder of system summaries and a folder of "
    "model summaries, matched as pyrouge matches them",
    "audit": "which tool and settings reproduce a paper's ROUGE numbers (ranked recipes)",
    "dedup": "drop near-duplicate texts of a file (ROUGE similarity above a threshold)",
    "similar": "the most similar texts of a corpus for each query (ROUGE similarity)",
}


def _parser() -> argparse.ArgumentParser:
    """The top-level parser: its help and usage line (each command parses its own arguments)."""
    parser = argparse.ArgumentParser(
        prog="rouge-lcs",
        description="ROUGE-N, ROUGE-L and ROUGE-Lsum: exact, Unicode-aware, fast.",
        epilog="Each command has --help. With no command, 'rouge-lcs --predictions F "
        "--references F' means 'rouge-lcs score …'; with no argument at all, 'examples'.",
    )
    parser.add_argument("--version", action="version", version=f"rouge-lcs {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command")
    for name in COMMANDS:  # every command, in order; one without a line still shows its name
        commands.add_parser(name, help=COMMAND_HELP.get(name, ""), add_help=False)
    return parser


def _unknown_command(parser: argparse.ArgumentParser, word: str) -> int:
    close = difflib.get_close_matches(word, COMMANDS, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    parser.print_usage(sys.stderr)
    print(
        f"rouge-lcs: error: unknown command {word!r}{hint}; commands: {', '.join(COMMANDS)}",
        file=sys.stderr,
    )
    return 2


#: The exit status of a command whose reader went away (``rouge-lcs … | head``): a shell's
#: 128 + SIGPIPE, what ``cat`` reports when it is stopped the same way.
BROKEN_PIPE_STATUS = 141


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``rouge-lcs`` and ``python -m rouge_lcs``.

    Output piped into a reader that stops early (``| head``) ends the command quietly, as
    ``cat`` ends: no traceback, status 141, whatever the command."""
    try:
        status = _main(argv)
        sys.stdout.flush()  # here, not at exit, where a closed pipe would print a traceback
        return status
    except BrokenPipeError:
        # Python would flush stdout again at exit and fail again: point it at nothing.
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return BROKEN_PIPE_STATUS


def _main(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    if not argv:
        command, rest = "examples", []
    elif argv[0] in COMMANDS:
        command, rest = argv[0], argv[1:]
    elif argv[0] in ("-h", "--help", "--version"):
        try:
            parser.parse_args(argv[:1])  # prints the help or the version
        except SystemExit as done:
            return int(done.code or 0)
        return 0
    elif not argv[0].startswith("-"):
        return _unknown_command(parser, argv[0])
    else:
        command, rest = "score", argv
    try:
        return COMMANDS[command](rest)
    # Bad input, or an optional extra (jieba, pythainlp, …) not installed: one line, exit 2.
    except (InputError, ValueError, TypeError, ImportError) as error:
        print(f"rouge-lcs: error: {error}", file=sys.stderr)
        return 2
    except MemoryError:
        print("rouge-lcs: error: out of memory (README: Limits and guarantees)", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
