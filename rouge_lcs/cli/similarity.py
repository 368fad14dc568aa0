"""Command line of :mod:`rouge_lcs.similarity`: ``rouge-lcs dedup`` and ``rouge-lcs similar``.

- ``dedup FILE [--field F] [--threshold 0.7] [-o OUT]``: the greedy filter of the
  Self-Instruct / Alpaca pipelines; keeps the records (JSONL, CSV/TSV, or lines of a .txt file)
  whose text scores at most the threshold against every record kept before it;
- ``similar QUERIES CORPUS [--top-k 10]``: for each query, its most similar corpus texts, as
  JSONL (``{"query_index", "query", "matches": [{"index", "text", "score"}]}``), CSV/TSV
  (``matches`` as JSON) or Parquet (``matches`` a list of structs), by the output's suffix.

Parquet files (``--data FILE.parquet --column text``; also as seeds, corpus or output) are read
by record batches into Arrow columns that the engine reads without a ``str`` per row
(:mod:`rouge_lcs.cli.columns`), with a progress bar in rows/s.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from rouge_lcs.cli.columns import (
    BATCH_ROWS,
    TableSink,
    as_large_strings,
    is_parquet,
    open_parquet,
    pyarrow_modules,
    read_column,
    record_batches,
    text_batches,
)
from rouge_lcs.cli.io import (
    InputError,
    Output,
    decode,
    json_line,
    lone_surrogate,
    read_records,
    read_text,
    split_lines,
)
from rouge_lcs.config.options import OPTIONS, command_line_help
from rouge_lcs.similarity import DedupResult, SimilarityIndex, dedup

#: Inputs at least this long show a progress bar on stderr.
PROGRESS_MIN_TEXTS = 5000


def _kind(path: str) -> str:
    suffix = Path(path).suffix.lower()
    if is_parquet(path):
        return "parquet"
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


def _options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("scoring options")
    group.add_argument(
        "--rouge-type", default="rougeL", help="rougeL or rougeN (e.g. rouge2). Default: rougeL."
    )
    group.add_argument(
        "--measure",
        default="fmeasure",
        choices=("fmeasure", "precision", "recall"),
        help="which score of a pair counts. Default: fmeasure.",
    )
    for name in ("tokenizer", "language"):
        option = OPTIONS[name]
        assert option.cli is not None
        group.add_argument(
            option.cli, dest=name, choices=option.choices, help=command_line_help(name)
        )
    group.add_argument(
        "--stem", dest="use_stemmer", action="store_true", help=command_line_help("use_stemmer")
    )
    group.add_argument(
        "--workers", type=int, default=1, help="threads (-1: every core). Default: 1."
    )
    parser.add_argument(
        "--field",
        "--column",
        dest="field",
        default="text",
        help="the text field of JSONL/CSV records, the text column of a Parquet file. "
        "Default: text.",
    )


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
        description="Drop each text whose ROUGE score against a text kept before it is "
        "above the threshold (the Self-Instruct / Alpaca filter).",
    )
    parser.add_argument(
        "input",
        nargs="?",
        help="JSONL, CSV/TSV (a --field column), Parquet (a --column column, read by record "
        "batches) or .txt (one a line); -: stdin",
    )
    parser.add_argument(
        "--data", metavar="FILE", help="the input, named as score names it (instead of INPUT)"
    )
    parser.add_argument(
        "--threshold", type=float, default=0.7, help="drop a text scoring above this. Default: 0.7."
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="kept records, in the format its suffix names (.jsonl, .csv, .tsv, .txt, .parquet). "
        "Default: stdout, in the input's format (JSONL for Parquet).",
    )
    parser.add_argument(
        "--dropped",
        metavar="FILE",
        help="JSONL (or, named .parquet, Parquet) of dropped texts and what they matched. "
        "Default: not written.",
    )
    parser.add_argument(
        "--seeds",
        metavar="FILE",
        help="texts every input text is also compared with, never dropped nor written "
        "(Alpaca's and Self-Instruct's seed tasks); same formats and --field as the input. "
        "Default: none.",
    )
    parser.add_argument(
        "--neighbors",
        type=int,
        default=0,
        metavar="K",
        help="add to each kept JSONL or Parquet record its K most similar earlier texts (seeds "
        'or kept) as "neighbors": [{"text", "score"}]. Default: 0, none.',
    )
    _options(parser)
    return parser


def similar_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rouge-lcs similar",
        description="Each query's most similar corpus texts (JSONL).",
    )
    parser.add_argument(
        "queries", nargs="?", help="JSONL, CSV/TSV, Parquet or .txt (one a line); -: stdin"
    )
    parser.add_argument("corpus", nargs="?", help="JSONL, CSV/TSV, Parquet or .txt (one a line)")
    parser.add_argument(
        "--data",
        metavar="FILE",
        help="the queries (instead of QUERIES); a Parquet file is read by record batches",
    )
    parser.add_argument(
        "--corpus",
        dest="corpus_file",
        metavar="FILE",
        help="the corpus, named as a flag (with --data). Default: the CORPUS argument.",
    )
    parser.add_argument("--top-k", type=int, default=10, help="matches per query. Default: 10.")
    parser.add_argument(
        "--score-cutoff",
        type=float,
        default=None,
        help="only matches scoring at least this. Default: every match.",
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="JSONL, or by its suffix CSV/TSV (matches as JSON) or Parquet. "
        "Default: stdout, JSONL.",
    )
    _options(parser)
    return parser


def _one_source(positional: str | None, data: str | None, what: str) -> str:
    """The input named by a positional argument or by ``--data`` (exactly one of them)."""
    if positional is not None and data is not None:
        raise InputError(f"give the {what} either as {what.upper()} or as --data FILE, not both")
    if positional is None and data is None:
        raise InputError(f"missing the {what}: give {what.upper()} or --data FILE")
    return positional if positional is not None else data  # type: ignore[return-value]


def cmd_dedup(argv: Sequence[str]) -> int:
    args = dedup_parser().parse_args(argv)
    source = _one_source(args.input, args.data, "input")
    default = "jsonl" if is_parquet(source) else _kind(source)
    kind = _kind(args.output) if args.output else default
    if args.neighbors and kind not in ("jsonl", "parquet"):
        raise InputError(
            "--neighbors: the kept records go to a JSONL or Parquet output (-o FILE.jsonl)"
        )
    work: Callable[[list[Output]], None]
    if kind == "parquet" or any(is_parquet(p) for p in (source, args.seeds, args.dropped)):
        work = _dedup_arrow(args, source, kind)
    else:
        work = _dedup_lists(args, source, kind)
    outputs = [Output(args.output, "-o", binary=kind == "parquet")]
    try:
        if args.dropped:
            outputs.append(Output(args.dropped, "--dropped", binary=is_parquet(args.dropped)))
        work(outputs)
    except BaseException:
        for output in outputs:
            output.discard()
        raise
    for output in outputs:
        output.commit()
    return 0


def _dedup_lists(
    args: argparse.Namespace, source: str, kind: str
) -> Callable[[list[Output]], None]:
    """Read and check a file of texts (refused before any output is opened); returns the
    run, which writes to the outputs."""
    texts, records = _read(source, args.field)
    seeds = _read(args.seeds, args.field)[0] if args.seeds else []
    if kind == "txt":
        broken = next((k for k, t in enumerate(texts) if "\n" in t or "\r" in t), None)
        if broken is not None:  # one text a line cannot hold it: refused before the run
            raise InputError(
                f"{source}: record {broken + 1} has a line break, which a .txt output "
                "(one text a line) cannot hold; write JSONL or CSV (-o FILE.jsonl)"
            )
    if kind != "jsonl":  # JSONL keeps a lone surrogate as its escape; UTF-8 text cannot
        for k, record in enumerate(records):
            found = lone_surrogate(json.dumps(record, ensure_ascii=False))
            if found is not None:
                raise InputError(
                    f"{source}: record {k + 1} holds a lone surrogate U+{found:04X} (read "
                    f"from a JSON escape), which a UTF-8 .{kind} output cannot hold; write "
                    "JSONL (-o FILE.jsonl), which keeps the escape"
                )
    return lambda outputs: _dedup_to(args, kind, texts, records, seeds, outputs)


def _run_dedup(
    args: argparse.Namespace, texts: Any, seeds: Any, progress: Callable[[int], object]
) -> DedupResult:
    return dedup(
        texts,
        seeds=seeds,
        threshold=args.threshold,
        neighbors=args.neighbors,
        progress=progress,
        **_scoring(args),
    )


def _dedup_to(
    args: argparse.Namespace,
    kind: str,
    texts: list[str],
    records: list[dict[str, Any]],
    seeds: list[str],
    outputs: list[Output],
) -> None:
    from tqdm import tqdm

    # a bar only on a terminal: captured stderr gets no carriage-return updates
    quiet = len(texts) < PROGRESS_MIN_TEXTS or not sys.stderr.isatty()
    with tqdm(total=len(texts), unit="texts", file=sys.stderr, disable=quiet) as bar:
        result = _run_dedup(args, texts, seeds, bar.update)
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


class _Progress:
    """Rows done, as a bar in rows/s on a terminal; when stderr is captured, one final line
    with the rate (a redrawn bar would be many lines)."""

    def __init__(self, total: int, verb: str) -> None:
        self.total, self.verb, self.done = total, verb, 0
        self._start = time.perf_counter()
        self._bar: Any = None
        if sys.stderr.isatty():
            from tqdm import tqdm

            self._bar = tqdm(total=total, unit="rows", file=sys.stderr, smoothing=0.1)

    def update(self, rows: int) -> None:
        self.done += rows
        if self._bar is not None:
            self._bar.update(rows)

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        if self._bar is not None:
            self._bar.close()
            return
        if kind is not None:  # a failed run says why, not how fast it went
            return
        seconds = time.perf_counter() - self._start
        rate = self.done / max(seconds, 1e-9)
        print(
            f"{self.verb} {self.done:,} rows in {seconds:.2f} s ({rate:,.0f} rows/s)",
            file=sys.stderr,
        )


def _match_lists(pa: Any, pool: Any, rows: list[list[tuple[int, float]]], index: bool) -> Any:
    """``list<struct<[index,] text, score>>``, one list per row of ``(j, score)`` matches,
    the texts taken from ``pool`` (an Arrow column) by index: no ``str`` per match."""
    import numpy as np

    offsets = np.zeros(len(rows) + 1, dtype=np.int32)
    np.cumsum([len(row) for row in rows], out=offsets[1:])
    where = pa.array([j for row in rows for j, _ in row], pa.int64())
    fields = [pool.take(where).combine_chunks()]
    names = ["text"]
    if index:
        fields.insert(0, where)
        names.insert(0, "index")
    fields.append(pa.array([v for row in rows for _, v in row], pa.float64()))
    names.append("score")
    structs = pa.StructArray.from_arrays(fields, names=names)
    return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), structs)


def _column_of(args: argparse.Namespace, path: str, flag: str) -> Any:
    """A file's texts as an Arrow column: a Parquet file's --column, read by record batches;
    any other file's texts as ``_read`` reads them."""
    pa, _ = pyarrow_modules(f"{flag} with Parquet")
    if is_parquet(path):
        return read_column(path, args.field, flag).texts
    return pa.chunked_array([pa.array(_read(path, args.field)[0], pa.large_string())])


def _arrow_texts(args: argparse.Namespace, path: str, flag: str) -> tuple[Any, Any]:
    """A file's texts as an Arrow column and its records as Arrow tables, one per batch (a
    callable: a Parquet file is read again when the kept rows are written)."""
    pa, _ = pyarrow_modules(f"{flag} with Parquet")
    if is_parquet(path):
        return _column_of(args, path, flag), lambda: (
            pa.Table.from_batches([b]) for b in record_batches(path, flag)
        )
    items, records = _read(path, args.field)
    try:
        table = pa.Table.from_pylist(records)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError) as error:
        raise InputError(
            f"{path}: its records do not make one Arrow table for a Parquet output ({error}); "
            "write JSONL (-o FILE.jsonl)"
        ) from None
    return pa.chunked_array([pa.array(items, pa.large_string())]), lambda: iter([table])


def _dedup_arrow(
    args: argparse.Namespace, source: str, kind: str
) -> Callable[[list[Output]], None]:
    """``dedup`` with a Parquet input, seeds or output: Arrow columns in, tables out (read and
    checked now; the returned run writes to the outputs)."""
    pa, _ = pyarrow_modules("dedup with Parquet")
    texts, tables = _arrow_texts(args, source, "--data")
    if args.seeds:
        seeds: Any = _column_of(args, args.seeds, "--seeds")
    else:
        seeds = pa.chunked_array([], pa.large_string())
    if kind == "txt":
        breaks = pa.compute.match_substring_regex(texts, "[\r\n]")
        if pa.compute.any(breaks).as_py():
            row = pa.compute.index(breaks, True).as_py()
            raise InputError(
                f"{source}: row {row} (counting from 0) has a line break, which a .txt output "
                "(one text a line) cannot hold; write JSONL, CSV or Parquet (-o FILE.jsonl)"
            )
    return lambda outputs: _dedup_arrow_to(args, kind, texts, tables, seeds, outputs)


def _dedup_arrow_to(
    args: argparse.Namespace,
    kind: str,
    texts: Any,
    tables: Callable[[], Any],
    seeds: Any,
    outputs: list[Output],
) -> None:
    import numpy as np

    pa, _ = pyarrow_modules("dedup with Parquet")
    with _Progress(len(texts), "deduplicated") as progress:
        result = _run_dedup(args, texts, seeds, progress.update)
    # match and neighbour indices are into seeds + texts
    pool = pa.chunked_array(as_large_strings(seeds).chunks + as_large_strings(texts).chunks)
    keep = np.zeros(len(texts), dtype=bool)
    keep[result.kept] = True
    kept_rows = np.flatnonzero(keep)
    sink = TableSink(outputs[0].handle, kind, text=args.field)
    done = 0
    for table in tables():  # the file read again, batch by batch: its kept rows written
        n = table.num_rows
        part = table.filter(pa.array(keep[done : done + n]))
        if result.neighbors is not None:
            rows = kept_rows[(kept_rows >= done) & (kept_rows < done + n)].tolist()
            near = [result.neighbors[i] for i in rows]
            part = part.append_column("neighbors", _match_lists(pa, pool, near, False))
        sink.write(part)
        done += n
    sink.close()
    if args.dropped:
        found = sorted(result.matches.items())
        where = pa.array([i for i, _ in found], pa.int64())
        matched = pa.array([j for _, (j, _) in found], pa.int64())
        dropped = pa.table(
            {
                "index": where,
                "text": as_large_strings(texts).take(where),
                "match_index": matched,
                "match": pool.take(matched),
                "score": pa.array([v for _, (_, v) in found], pa.float64()),
            }
        )
        sink = TableSink(outputs[1].handle, "parquet" if is_parquet(args.dropped) else "jsonl")
        sink.write(dropped)
        sink.close()
    print(f"kept {len(result.kept)} of {len(texts)} texts", file=sys.stderr)


def _similar_arrow(args: argparse.Namespace, queries: str, corpus: str, kind: str) -> int:
    """``similar`` with a Parquet input or output: queries by record batches, matched in one
    call per batch, written as tables."""
    pa, _ = pyarrow_modules("similar with Parquet")
    texts = _column_of(args, corpus, "--corpus")
    if is_parquet(queries):
        total = open_parquet(queries, "--data").metadata.num_rows
        batches: Any = text_batches(queries, args.field, "--data")
    else:
        items = _column_of(args, queries, "--data").combine_chunks()
        total = len(items)
        batches = ((k, items.slice(k, BATCH_ROWS)) for k in range(0, total, BATCH_ROWS))
    output = Output(args.output, "-o", binary=kind == "parquet")
    try:
        index = SimilarityIndex(texts, **_scoring(args))
        pool = as_large_strings(texts)
        sink = TableSink(output.handle, kind)
        with _Progress(total, "matched") as progress:
            for first, arr in batches:
                found = index.top_matches(arr, limit=args.top_k, score_cutoff=args.score_cutoff)
                table = pa.table(
                    {
                        "query_index": pa.array(range(first, first + len(arr)), pa.int64()),
                        "query": arr,
                        "matches": _match_lists(pa, pool, found, True),
                    }
                )
                sink.write(table)
                progress.update(len(arr))
        sink.close()
    except BaseException:
        output.discard()
        raise
    output.commit()
    return 0


def cmd_similar(argv: Sequence[str]) -> int:
    args = similar_parser().parse_args(argv)
    if args.top_k < 0:  # named by its flag, before anything is read
        raise InputError(f"--top-k: expected an integer >= 0, got {args.top_k}")
    positional = [p for p in (args.queries, args.corpus) if p is not None]
    if args.data is not None:
        positional.insert(0, args.data)
    if args.corpus_file is not None:
        positional.append(args.corpus_file)
    if len(positional) != 2:
        raise InputError(
            "give the queries and the corpus: QUERIES CORPUS, or --data QUERIES --corpus CORPUS"
        )
    query_path, corpus_path = positional
    kind = _kind(args.output) if args.output else "jsonl"
    kind = kind if kind in ("parquet", "csv", "tsv") else "jsonl"
    if kind != "jsonl" or is_parquet(query_path) or is_parquet(corpus_path):
        return _similar_arrow(args, query_path, corpus_path, kind)
    queries, _ = _read(query_path, args.field)
    corpus, _ = _read(corpus_path, args.field)
    output = Output(args.output, "-o")
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
