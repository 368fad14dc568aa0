"""Command line of :mod:`rouge_lcs.similarity`: ``rouge-lcs dedup`` and ``rouge-lcs similar``.

- ``dedup FILE [--field F] [--threshold 0.7] [-o OUT]``: the greedy filter of the
  Self-Instruct / Alpaca pipelines; keeps the records (JSONL, CSV/TSV, or lines of a .txt file)
  whose text scores at most the threshold against every record kept before it;
- ``similar QUERIES CORPUS [--top-k 10]``: for each query, its most similar corpus texts, as
  JSONL (``{"query_index", "query", "matches": [{"index", "text", "score"}]}``).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from rouge_lcs.cli.io import (
    InputError,
    decode,
    json_line,
    lone_surrogate,
    read_records,
    read_text,
    split_lines,
)
from rouge_lcs.config.options import OPTIONS
from rouge_lcs.similarity import SimilarityIndex, dedup

#: Inputs at least this long show a progress bar on stderr.
PROGRESS_MIN_TEXTS = 5000


def _kind(path: str) -> str:
    suffix = Path(path).suffix.lower()
    if suffix in (".jsonl", ".json", ".ndjson"):
        return "jsonl"
    if suffix in (".csv", ".tsv"):
        return suffix[1:]
    return "txt"


def _read(path: str, field: str) -> tuple[list[str], list[dict[str, Any]]]:
    """The texts of a file and its records (a .txt file's lines become ``{field: line}``);
    ``-``: standard input, one text a line."""
    if path == "-":
        text = decode(sys.stdin.buffer.read(), "stdin")
        numbered = None
    else:
        text = read_text(path)
        numbered = read_records(path, text)
    if numbered is None:  # any other file: one text a line
        lines = split_lines(text)
        return lines, [{field: line} for line in lines]
    texts = []
    for number, record in numbered:
        value = record.get(field)
        if not isinstance(value, str):
            found = ", ".join(repr(name) for name in record) or "none"
            what = "no field" if value is None else f"a {type(value).__name__} in field"
            raise InputError(
                f"{path}: line {number} has {what} {field!r} (--field); its fields: {found}"
            )
        texts.append(value)
    return texts, [record for _, record in numbered]


def _write(handle: TextIO, kind: str, records: list[dict[str, Any]], texts: list[str]) -> None:
    """Records in the output's format (a .txt output gets the texts, one a line)."""
    if kind == "txt":
        handle.writelines(f"{line}\n" for line in texts)
    elif kind == "jsonl":
        handle.writelines(json_line(r) for r in records)
    else:
        columns = list(dict.fromkeys(name for record in records for name in record))
        dialect = "excel-tab" if kind == "tsv" else "excel"
        writer = csv.DictWriter(handle, fieldnames=columns, dialect=dialect)
        writer.writeheader()
        # nested values as JSON (what a reader of the table can parse), not Python reprs
        writer.writerows(
            {
                name: json.dumps(value, ensure_ascii=False)
                if isinstance(value, (dict, list)) or value is None
                else value
                for name, value in record.items()
            }
            for record in records
        )


class _Output:
    """An output opened before the work: a file is written to a temporary file beside it and
    renamed over it only when everything was written (no partial file is left, and a path
    that cannot be written is refused before the run); stdout is written directly."""

    def __init__(self, path: str | None, flag: str) -> None:
        self.path = path
        self._temp: str | None = None
        if path is None or path == "-":
            stream = sys.stdout.buffer
            self.handle: io.TextIOWrapper = io.TextIOWrapper(
                stream, encoding="utf-8", newline="", write_through=True
            )
            return
        folder = os.path.dirname(os.path.abspath(path))
        try:
            if os.path.isdir(path):
                raise IsADirectoryError(21, "is a directory")
            descriptor, self._temp = tempfile.mkstemp(
                prefix=".rouge-lcs-", suffix=".part", dir=folder
            )
        except OSError as error:
            raise InputError(
                f"{flag} {path}: cannot be written ({error.strerror or error})"
            ) from None
        # closed by commit() or discard(), which the caller always reaches
        self.handle = open(descriptor, "w", encoding="utf-8", newline="")  # noqa: SIM115

    def commit(self) -> None:
        """Put the written file in place."""
        if self._temp is None:
            self.handle.flush()
            self.handle.detach()
            return
        self.handle.close()
        assert self.path is not None
        os.replace(self._temp, self.path)
        self._temp = None

    def discard(self) -> None:
        """Remove the temporary file of an output that is not to be kept (stdout: let it go
        without closing it, so the command's error message can still be printed)."""
        if self._temp is None:
            with contextlib.suppress(OSError, ValueError):
                self.handle.flush()
            with contextlib.suppress(ValueError):
                self.handle.detach()
            return
        if self._temp is not None:
            self.handle.close()
            with contextlib.suppress(OSError):
                os.unlink(self._temp)
            self._temp = None


def _options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("scoring options")
    group.add_argument("--rouge-type", default="rougeL", help="rougeL (default) or rougeN")
    group.add_argument("--measure", default="fmeasure", choices=("fmeasure", "precision", "recall"))
    for name in ("tokenizer", "language"):
        option = OPTIONS[name]
        assert option.cli is not None
        group.add_argument(option.cli, dest=name, choices=option.choices, help=option.help)
    group.add_argument("--stem", dest="use_stemmer", action="store_true", help="Porter stemming")
    group.add_argument("--workers", type=int, default=1, help="threads (-1: every core)")
    parser.add_argument("--field", default="text", help="the text field of JSONL/CSV records")


def _scoring(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "rouge_type": args.rouge_type,
        "measure": args.measure,
        "tokenizer": args.tokenizer,
        "language": args.language,
        "use_stemmer": args.use_stemmer,
        "workers": args.workers,
    }


def dedup_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rouge-lcs dedup",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        description="Drop each text whose ROUGE score against a text kept before it is "
        "above the threshold (the Self-Instruct / Alpaca filter).",
    )
    parser.add_argument("input", help="JSONL, CSV/TSV (a --field column) or .txt (one a line)")
    parser.add_argument(
        "--threshold", type=float, default=0.7, help="drop a text scoring above this"
    )
    parser.add_argument("-o", "--output", help="kept records (default: stdout), input's format")
    parser.add_argument("--dropped", metavar="FILE", help="JSONL of dropped texts and matches")
    parser.add_argument(
        "--seeds",
        metavar="FILE",
        help="texts every input text is also compared with, never dropped nor written "
        "(Alpaca's and Self-Instruct's seed tasks); same formats and --field as the input",
    )
    parser.add_argument(
        "--neighbors",
        type=int,
        default=0,
        metavar="K",
        help="add to each kept JSONL record its K most similar earlier texts (seeds or kept) "
        'as "neighbors": [{"text", "score"}] (default: 0, none)',
    )
    _options(parser)
    return parser


def similar_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rouge-lcs similar",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        description="Each query's most similar corpus texts (JSONL).",
    )
    parser.add_argument("queries", help="JSONL, CSV/TSV or .txt")
    parser.add_argument("corpus", help="JSONL, CSV/TSV or .txt")
    parser.add_argument("--top-k", type=int, default=10, help="matches per query")
    parser.add_argument(
        "--score-cutoff", type=float, default=None, help="only matches scoring at least this"
    )
    parser.add_argument("-o", "--output", help="JSONL output (default: stdout)")
    _options(parser)
    return parser


def cmd_dedup(argv: Sequence[str]) -> int:
    args = dedup_parser().parse_args(argv)
    kind = _kind(args.output) if args.output else _kind(args.input)
    if args.neighbors and kind != "jsonl":
        raise InputError("--neighbors: the kept records go to a JSONL output (-o FILE.jsonl)")
    texts, records = _read(args.input, args.field)
    seeds = _read(args.seeds, args.field)[0] if args.seeds else []
    if kind == "txt":
        broken = next((k for k, t in enumerate(texts) if "\n" in t or "\r" in t), None)
        if broken is not None:  # one text a line cannot hold it: refused before the run
            raise InputError(
                f"{args.input}: record {broken + 1} has a line break, which a .txt output "
                "(one text a line) cannot hold; write JSONL or CSV (-o FILE.jsonl)"
            )
    if kind != "jsonl":  # JSONL keeps a lone surrogate as its escape; UTF-8 text cannot
        for k, record in enumerate(records):
            found = lone_surrogate(json.dumps(record, ensure_ascii=False))
            if found is not None:
                raise InputError(
                    f"{args.input}: record {k + 1} holds a lone surrogate U+{found:04X} (read "
                    f"from a JSON escape), which a UTF-8 .{kind} output cannot hold; write "
                    "JSONL (-o FILE.jsonl), which keeps the escape"
                )
    outputs = [_Output(args.output, "-o")]
    try:
        if args.dropped:
            outputs.append(_Output(args.dropped, "--dropped"))
        _dedup_to(args, kind, texts, records, seeds, outputs)
    except BaseException:
        for output in outputs:
            output.discard()
        raise
    for output in outputs:
        output.commit()
    return 0


def _dedup_to(
    args: argparse.Namespace,
    kind: str,
    texts: list[str],
    records: list[dict[str, Any]],
    seeds: list[str],
    outputs: list[_Output],
) -> None:
    from tqdm import tqdm

    # a bar only on a terminal: captured stderr gets no carriage-return updates
    quiet = len(texts) < PROGRESS_MIN_TEXTS or not sys.stderr.isatty()
    with tqdm(total=len(texts), unit="texts", file=sys.stderr, disable=quiet) as bar:
        result = dedup(
            texts,
            seeds=seeds,
            threshold=args.threshold,
            neighbors=args.neighbors,
            progress=bar.update,
            **_scoring(args),
        )
    if result.neighbors is not None:
        pool = seeds + texts
        records = [
            {**record, "neighbors": [{"text": pool[j], "score": v} for j, v in near]}
            for record, near in zip(records, result.neighbors)
        ]
    _write(
        outputs[0].handle, kind, [records[i] for i in result.kept], [texts[i] for i in result.kept]
    )

    def pool_text(j: int) -> str:  # match indices are into seeds + texts
        return seeds[j] if j < len(seeds) else texts[j - len(seeds)]

    if args.dropped:
        handle = outputs[1].handle
        for i, (j, value) in sorted(result.matches.items()):
            row = {"index": i, "text": texts[i], "match_index": j, "match": pool_text(j)}
            handle.write(json_line({**row, "score": value}))
    print(f"kept {len(result.kept)} of {len(texts)} texts", file=sys.stderr)


def cmd_similar(argv: Sequence[str]) -> int:
    args = similar_parser().parse_args(argv)
    if args.top_k < 0:  # named by its flag, before anything is read
        raise InputError(f"--top-k: expected an integer >= 0, got {args.top_k}")
    queries, _ = _read(args.queries, args.field)
    corpus, _ = _read(args.corpus, args.field)
    output = _Output(args.output, "-o")
    try:
        index = SimilarityIndex(corpus, **_scoring(args))
        handle = output.handle
        for k, query in enumerate(queries):
            found = index.extract(query, limit=args.top_k, score_cutoff=args.score_cutoff)
            matches = [{"index": i, "text": text, "score": value} for text, value, i in found]
            row = {"query_index": k, "query": query, "matches": matches}
            handle.write(json_line(row))
    except BaseException:
        output.discard()
        raise
    output.commit()
    return 0


def commands() -> dict[str, Callable[[Sequence[str]], int]]:
    """The subcommands this module adds to ``rouge-lcs``, by name."""
    return {"dedup": cmd_dedup, "similar": cmd_similar}
