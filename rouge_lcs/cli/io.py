"""Reading evaluation data: text files (one text a line), JSONL and CSV, and the bundled examples.

Every failure is one ``InputError`` that names the file, the line and what was wrong (missing,
not UTF-8, mismatched line counts, missing columns, malformed JSON or CSV, a row with too many or
too few fields).  The readers
follow the formats' own rules: records of a JSONL file are separated by ``\\n`` only (U+2028 and
friends are valid inside JSON strings), and CSV fields may hold quoted line breaks.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from rouge_lcs.scores.results import Scores

#: Longest CSV field accepted (Python's csv stops at 131,072 characters by default, which a
#: long document exceeds); past it a row is reported, not truncated.
MAX_CSV_FIELD = 64 * 1024 * 1024

# The csv module's field limit is one process-wide setting with no per-reader form.  Raising
# and restoring it around each read raced between threads (the Space reads from two workers):
# it is raised once, here, and never lowered, so every read sees at least this limit and no
# read changes it.
if csv.field_size_limit() < MAX_CSV_FIELD:
    csv.field_size_limit(MAX_CSV_FIELD)


class InputError(ValueError):
    """A data file that cannot be used, with a message naming the file."""


def decode(raw: bytes, name: str) -> str:
    """UTF-8 text (a BOM is dropped); otherwise an ``InputError`` with the line number."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise InputError(
            f"{name}: not valid UTF-8 (line {line}, byte {error.start}); "
            "convert it, e.g. with iconv -t UTF-8"
        ) from None


def read_text(path: str | Path) -> str:
    """The whole file as text."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as error:
        raise InputError(f"{path}: cannot be read ({error.strerror or error})") from None
    return decode(raw, str(path))


def split_lines(text: str) -> list[str]:
    """Lines split at ``\\n`` only (``\\r\\n`` too); a final newline adds no empty line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_lines(path: str | Path) -> list[str]:
    """One text per line (a trailing newline does not make an extra empty text)."""
    return split_lines(read_text(path))


def read_parallel(
    predictions: str | Path, references: Sequence[str | Path]
) -> tuple[list[str], list[list[str]]]:
    """Predictions file plus one or more reference files, aligned line by line."""
    preds = read_lines(predictions)
    ref_columns = [read_lines(path) for path in references]
    counts = [(str(predictions), len(preds))] + [
        (str(path), len(col)) for path, col in zip(references, ref_columns)
    ]
    if len({n for _, n in counts}) > 1:
        detail = ", ".join(f"{name}: {n} line{'' if n == 1 else 's'}" for name, n in counts)
        raise InputError(f"files have different line counts ({detail})")
    return preds, [list(refs) for refs in zip(*ref_columns)] if ref_columns else []


#: ``(line, record)``: a record of a data file and the line it starts on.
Record = tuple[int, dict[str, Any]]


def _records_from_jsonl(name: str, text: str) -> list[Record]:
    records = []
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise InputError(f"{name}: line {number} is not valid JSON ({error.msg})") from None
        except RecursionError:
            raise InputError(f"{name}: line {number} is nested too deeply") from None
        except ValueError as error:  # e.g. an integer past Python's 4,300-digit limit
            raise InputError(f"{name}: line {number} is not usable JSON ({error})") from None
        if not isinstance(record, dict):
            raise InputError(f"{name}: line {number} is not a JSON object")
        records.append((number, record))
    return records


def _records_from_csv(name: str, text: str, dialect: str) -> list[Record]:
    """The rows of a CSV (or, with ``excel-tab``, TSV) file under its header, strictly.

    ``strict``: a stray quote is an error, and a quote left open to the end of the file (which
    would merge every row after it into one field) is reported at the line it opens on.  A
    row with more or fewer fields than the header is an error, not padded or cut.
    """
    # newline="" lets the csv module see the file's own line breaks, so a quoted field keeps
    # its newlines.
    reader = csv.reader(io.StringIO(text, newline=""), dialect=dialect, strict=True)
    records: list[Record] = []
    header: list[str] | None = None
    while True:
        line = reader.line_num + 1  # where the next record starts
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            detail = str(error)
            if detail == "unexpected end of data":
                detail = "a quoted field opened here is never closed"
            elif "field larger than field limit" in detail:
                detail = f"a field is longer than {csv.field_size_limit():,} characters"
            raise InputError(f"{name}: CSV line {line}: {detail}") from None
        if not row:
            continue  # blank line
        if header is None:
            repeated = next((c for k, c in enumerate(row) if c in row[:k]), None)
            if repeated is not None:  # a dict of the row would keep only its last cell
                raise InputError(
                    f"{name}: CSV line {line}: the header names the column {repeated!r} twice; "
                    "each column must be named once"
                )
            header = row
            continue
        if len(row) != len(header):
            raise InputError(
                f"{name}: CSV line {line}: expected {len(header)} fields as in the header, "
                f"got {len(row)} (quote a field that holds the delimiter)"
            )
        records.append((line, dict(zip(header, row))))
    return records


def _row_texts(name: str, number: int, record: dict[str, Any]) -> tuple[str, list[str]]:
    if "prediction" not in record or not ("reference" in record or "references" in record):
        raise InputError(
            f"{name}: line {number} needs a 'prediction' column and a 'reference' or "
            f"'references' column; found {sorted(map(str, record))}"
        )
    prediction = record["prediction"]
    refs = record["references"] if "references" in record else record["reference"]
    if isinstance(refs, str) and "references" in record and refs.lstrip().startswith("["):
        # In CSV, a list of references is written as a JSON list; a cell that only starts
        # like one (or holds an integer past Python's digit limit) stays a text.
        with contextlib.suppress(ValueError, RecursionError):
            refs = json.loads(refs)
    if isinstance(refs, str):
        refs = [refs]
    if not isinstance(prediction, str):
        raise InputError(f"{name}: line {number}: 'prediction' must be a text")
    if not isinstance(refs, list) or not refs or not all(isinstance(r, str) for r in refs):
        raise InputError(f"{name}: line {number}: references must be a text or a list of texts")
    return prediction, refs


@dataclass(frozen=True)
class Table:
    """The rows of a data file: texts, and the ``id`` column when the file has one."""

    predictions: list[str]
    references: list[list[str]]
    ids: list[object] | None


def read_table(path: str | Path, text: str | None = None) -> tuple[list[str], list[list[str]]]:
    """Predictions and references from a JSONL or CSV file (see :func:`load_table`)."""
    table = load_table(path, text)
    return table.predictions, table.references


def read_records(path: str | Path, text: str) -> list[Record] | None:
    """The records of a JSONL, CSV or TSV file's ``text`` with their line numbers, read as
    its suffix says; ``None`` for another suffix (the caller decides what that means)."""
    name, suffix = str(path), Path(path).suffix.lower()
    if suffix in (".jsonl", ".json", ".ndjson"):
        return _records_from_jsonl(name, text)
    if suffix in (".csv", ".tsv"):
        return _records_from_csv(name, text, "excel-tab" if suffix == ".tsv" else "excel")
    return None


def load_table(path: str | Path, text: str | None = None) -> Table:
    """Predictions, references and ids from a JSONL or CSV file.

    Columns: ``prediction`` and either ``reference`` (one text) or ``references`` (a list in
    JSONL; in CSV, a JSON list or a single text); ``id`` optional, kept for the output.
    ``text`` may give the content directly.
    """
    path = Path(path)
    if text is None:
        text = read_text(path)
    name = str(path)
    records = read_records(path, text)
    if records is None:
        raise InputError(f"{path}: expected a .jsonl or .csv file")
    if not records:
        raise InputError(f"{path}: no rows")
    predictions, references = [], []
    for number, record in records:
        prediction, refs = _row_texts(name, number, record)
        predictions.append(prediction)
        references.append(refs)
    has_ids = any("id" in record for _, record in records)
    ids = [record.get("id", "") for _, record in records] if has_ids else None
    return Table(predictions, references, ids)


#: A lone surrogate (U+D800–U+DFFF alone): JSON's ``\ud800`` escape reads as one, and UTF-8
#: cannot encode it.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def json_line(record: Any, default: Callable[[Any], Any] | None = None) -> str:
    """``record`` as one JSONL line (with its ``\n``), by the reader's rule: text as is (not
    ASCII-escaped), except a lone surrogate, which a record can hold (the reader takes the
    escape ``\ud800``, as JSON allows) and UTF-8 cannot: it is written back as that escape,
    so every record read round-trips.  ``default``: as ``json.dumps`` takes it."""
    line = json.dumps(record, ensure_ascii=False, default=default)
    if not line.isascii():
        # A surrogate can only sit inside a JSON string, where its escape means the same.
        line = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", line)
    return line + "\n"


def lone_surrogate(text: str) -> int | None:
    """The code point of the first lone surrogate in ``text``, or ``None``."""
    found = None if text.isascii() else _LONE_SURROGATE.search(text)
    return ord(found.group()) if found else None


def write_scores_csv(
    handle: TextIO,
    scores: Scores,
    predictions: Sequence[str] | None = None,
    references: Sequence[Sequence[str]] | None = None,
    ids: Sequence[object] | None = None,
) -> None:
    """Per-example precision, recall and F of every type as CSV (full float precision); with
    the texts when given (references as a JSON list), and the input's ids when given."""
    writer = csv.writer(handle)
    header = ["index"] + (["id"] if ids is not None else [])
    header += ["prediction", "references"] if predictions is not None else []
    for name in scores.rouge_types:
        header += [f"{name}_precision", f"{name}_recall", f"{name}_fmeasure"]
    writer.writerow(header)
    measures = (scores.precision, scores.recall, scores.fmeasure)
    for e in range(len(scores)):
        row: list[object] = [e]
        if ids is not None:
            row.append(ids[e])
        if predictions is not None:
            refs = references[e] if references is not None else []
            row += [predictions[e], json.dumps(list(refs), ensure_ascii=False)]
        for k in range(len(scores.rouge_types)):
            row += [repr(float(m[e, k])) for m in measures]
        writer.writerow(row)


def bundled_examples() -> list[dict[str, Any]]:
    """The example set shipped with the package (the seeds' examples and a few English pairs)."""
    text = resources.files("rouge_lcs").joinpath("data/examples.jsonl").read_text("utf-8")
    return [json.loads(line) for line in split_lines(text) if line.strip()]


class Output:
    """An output opened before the work: a file is written to a temporary file beside it and
    renamed over it only when everything was written (no partial file is left, and a path
    that cannot be written is refused before the run); stdout is written directly."""

    def __init__(self, path: str | None, flag: str, binary: bool = False) -> None:
        self.path = path
        self._temp: str | None = None
        if binary and (path is None or path == "-"):
            raise InputError(f"{flag}: a Parquet output is a file (-o FILE.parquet)")
        if path is None or path == "-":
            stream = sys.stdout.buffer
            self.handle: Any = io.TextIOWrapper(
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
        self.handle = (
            open(descriptor, "wb")  # noqa: SIM115
            if binary
            else open(descriptor, "w", encoding="utf-8", newline="")  # noqa: SIM115
        )

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
