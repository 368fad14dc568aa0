"""Parquet for the command line: a column of texts read by record batches, tables written.

``dedup`` and ``similar`` read their texts from one column of a Parquet file (``--data FILE
--column NAME``) as Arrow arrays, batch by batch, so that the engine reads the column's buffers
and no Python ``str`` is made per row; each batch is checked as it comes (a missing column, a
column that is not text, a null: one ``InputError`` naming the file, the column and the row,
counted from 0 as Arrow counts).  :class:`TableSink` writes result tables as Parquet, JSONL,
CSV/TSV or lines of text, by the output's suffix.  pyarrow is imported only here, and only when
a Parquet file is read or written.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from rouge_lcs.base.arrow import first_null, plain_strings
from rouge_lcs.cli.io import InputError, json_line

#: Rows read at once: bounds the memory of a batch (``score --data`` reads the same).
BATCH_ROWS = 16384

#: Bytes of the file read at once.  Without a buffer (pyarrow's default, 0) a column chunk is
#: read whole, and a file written with pyarrow's or pandas' defaults is one row group of up
#: to 1,048,576 rows: its column was held whole (1M short pairs: 403 MB peak against ~144 MB
#: with this buffer; benchmarks/bench_stream_rowgroups.py).
READ_BUFFER = 1 << 20

#: The suffixes read and written as Parquet.
PARQUET_SUFFIXES = (".parquet", ".pq")


def is_parquet(path: str | None) -> bool:
    """Whether ``path`` names a Parquet file (by its suffix)."""
    return path is not None and Path(path).suffix.lower() in PARQUET_SUFFIXES


def pyarrow_modules(flag: str) -> tuple[Any, Any]:
    """``pyarrow`` and ``pyarrow.parquet``; without them, an ``InputError`` saying how to
    install them (``flag``: what needs them)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        from rouge_lcs.base.install import install_command

        raise InputError(f"{flag} needs pyarrow: {install_command('arrow')}") from None
    return pa, pq


def open_parquet(path: str, flag: str) -> Any:
    """The file as a ``pyarrow.parquet.ParquetFile`` read through a buffer of
    ``READ_BUFFER`` bytes, without ``pre_buffer`` (which keeps the column chunks read so far
    in memory: rouge_lcs.cli.stream)."""
    pa, pq = pyarrow_modules(f"{flag} FILE.parquet")
    if not Path(path).is_file():
        raise InputError(f"{flag} {path}: no such file")
    try:
        return pq.ParquetFile(path, pre_buffer=False, buffer_size=READ_BUFFER)
    except (OSError, pa.ArrowInvalid) as error:
        raise InputError(f"{flag} {path}: cannot be read as Parquet ({error})") from None


def text_chunk(arr: Any, path: str, column: str, first_row: int) -> Any:
    """One batch of the column, checked: a string or large_string array without nulls
    (string views and dictionaries of strings are cast, as the library casts them)."""
    import pyarrow as pa

    types = pa.types
    arr = plain_strings(arr)
    if not (types.is_string(arr.type) or types.is_large_string(arr.type)):
        raise InputError(
            f"{path}: column {column!r} holds {arr.type}, not text (--column names a column "
            "of strings)"
        )
    if arr.null_count:
        row = first_row + first_null(arr)
        raise InputError(
            f"{path}: row {row} (counting from 0) of column {column!r} is null; every row needs "
            "a text (drop or fill the nulls first)"
        )
    return arr


@dataclass
class TextColumn:
    """A column of texts read from a Parquet file: its chunks (one per record batch, as
    Arrow arrays of one type) and the file's column names."""

    texts: Any
    names: list[str]

    def __len__(self) -> int:
        return len(self.texts)


def _check_column(source: Any, path: str, column: str) -> list[str]:
    """The file's column names, once its schema and statistics show the column to be one of
    texts without nulls: a streamed run is refused before it writes anything.  (The batches
    are checked again as they are read, for a file written without statistics.)"""
    schema = source.schema_arrow
    names = list(schema.names)
    if column not in names:
        raise InputError(f"{path}: no column {column!r} (--column); its columns: {names}")
    text_chunk(_empty(schema.field(column).type), path, column, 0)  # the type alone
    metadata, first = source.metadata, 0
    leaves = [metadata.schema.column(i).path for i in range(metadata.num_columns)]
    leaf = leaves.index(column) if column in leaves else None
    for group in range(metadata.num_row_groups if leaf is not None else 0):
        rows = metadata.row_group(group)
        stats = rows.column(leaf).statistics
        if stats is not None and stats.has_null_count and stats.null_count:
            # by batches: a row group can hold the whole file (pyarrow's default: 1M rows)
            at = first
            for batch in source.iter_batches(
                batch_size=BATCH_ROWS, row_groups=[group], columns=[column]
            ):
                text_chunk(batch.column(0), path, column, at)
                at += batch.num_rows
        first += rows.num_rows
    return names


def _empty(kind: Any) -> Any:
    """An empty array of type ``kind``."""
    import pyarrow as pa

    return pa.array([], kind)


def text_batches(
    path: str, column: str, flag: str, source: Any = None
) -> Iterator[tuple[int, Any]]:
    """``(first row, checked array)`` for each record batch of the column (``source``: the
    file opened already)."""
    if source is None:
        source = open_parquet(path, flag)
        _check_column(source, path, column)
    done = 0
    for batch in source.iter_batches(batch_size=BATCH_ROWS, columns=[column]):
        yield done, text_chunk(batch.column(0), path, column, done)
        done += batch.num_rows


def read_column(path: str, column: str, flag: str) -> TextColumn:
    """The whole column, read batch by batch into one ``ChunkedArray`` of one string type
    (the texts stay in Arrow's buffers: no ``str`` per row)."""
    import pyarrow as pa

    source = open_parquet(path, flag)
    names = _check_column(source, path, column)
    chunks = [arr for _, arr in text_batches(path, column, flag, source)]
    if any(pa.types.is_large_string(c.type) for c in chunks):
        chunks = [c.cast(pa.large_string()) for c in chunks]
    kind = chunks[0].type if chunks else pa.string()
    return TextColumn(pa.chunked_array(chunks, kind), names)


def record_batches(path: str, flag: str) -> Iterator[Any]:
    """Every column of the file, by record batches."""
    yield from open_parquet(path, flag).iter_batches(batch_size=BATCH_ROWS)


def as_large_strings(texts: Any) -> Any:
    """Texts (a list of str or an Arrow column) as one ``large_string`` ChunkedArray, so that
    columns of different string types can be joined and taken from."""
    import pyarrow as pa

    if isinstance(texts, list):
        return pa.chunked_array([pa.array(texts, pa.large_string())])
    return texts.cast(pa.large_string())


def _cell(value: object) -> object:
    # nested values as JSON (what a reader of the table can parse), not Python reprs
    if isinstance(value, (dict, list)) or value is None:
        return json.dumps(value, ensure_ascii=False, default=str)
    return value


class TableSink:
    """Writes Arrow tables, one after the other, to an opened output in the format ``kind``
    names (``parquet``: ``handle`` is binary; ``jsonl``, ``csv``, ``tsv``: records; ``txt``:
    the ``text`` column, one a line).  ``schema``: what an output with no rows still holds."""

    def __init__(self, handle: IO[Any], kind: str, schema: Any = None, text: str = "") -> None:
        self.handle, self.kind, self.schema, self.text = handle, kind, schema, text
        self._writer: Any = None

    def write(self, table: Any) -> None:
        """Append the rows of ``table``."""
        if self.kind == "parquet":
            if self._writer is None:
                _, pq = pyarrow_modules("-o FILE.parquet")
                self._writer = pq.ParquetWriter(self.handle, table.schema)
            self._writer.write_table(table)
        elif self.kind == "txt":
            self.handle.writelines(f"{t}\n" for t in table.column(self.text).to_pylist())
        elif self.kind == "jsonl":
            # values JSON has no type for (timestamps, decimals) as their text
            self.handle.writelines(json_line(r, default=str) for r in table.to_pylist())
        else:
            if self._writer is None:
                dialect = "excel-tab" if self.kind == "tsv" else "excel"
                self._writer = csv.writer(self.handle, dialect=dialect)
                self._writer.writerow(table.column_names)
            names = table.column_names
            self._writer.writerows([_cell(r[name]) for name in names] for r in table.to_pylist())

    def close(self) -> None:
        """Finish the output (a Parquet file with no rows gets ``schema``)."""
        if self.kind == "parquet":
            if self._writer is None and self.schema is not None:
                self.write(self.schema.empty_table())
            if self._writer is not None:
                self._writer.close()
        elif self.kind in ("csv", "tsv") and self._writer is None and self.schema is not None:
            writer = csv.writer(self.handle, dialect="excel-tab" if self.kind == "tsv" else "excel")
            writer.writerow(self.schema.names)
