"""Reading evaluation data: text files (one text a line), JSONL and CSV, and the bundled examples.

Every failure is one ``InputError`` that names the file and what was wrong (missing, not UTF-8
with the line number, mismatched line counts, missing columns).
"""

from __future__ import annotations

import contextlib
import csv
import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rouge_lcs.api import Scores


class InputError(ValueError):
    """A data file that cannot be used, with a message naming the file."""


def read_lines(path: str | Path) -> list[str]:
    """One text per line (a trailing newline does not make an extra empty text)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as error:
        raise InputError(f"{path}: cannot be read ({error.strerror or error})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise InputError(
            f"{path}: not valid UTF-8 (line {line}, byte {error.start}); "
            "convert it, e.g. with iconv -t UTF-8"
        ) from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip("\r") for line in lines]


def read_parallel(
    predictions: str | Path, references: list[str | Path]
) -> tuple[list[str], list[list[str]]]:
    """Predictions file plus one or more reference files, aligned line by line."""
    preds = read_lines(predictions)
    ref_columns = [read_lines(path) for path in references]
    counts = [(str(predictions), len(preds))] + [
        (str(path), len(col)) for path, col in zip(references, ref_columns)
    ]
    if len({n for _, n in counts}) > 1:
        detail = ", ".join(f"{name}: {n} lines" for name, n in counts)
        raise InputError(f"files have different line counts ({detail})")
    return preds, [list(refs) for refs in zip(*ref_columns)] if ref_columns else []


def _records_from_jsonl(path: Path, text: str) -> list[dict]:
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise InputError(f"{path}: line {number} is not valid JSON ({error.msg})") from None
        if not isinstance(record, dict):
            raise InputError(f"{path}: line {number} is not a JSON object")
        records.append(record)
    return records


def read_table(path: str | Path, text: str | None = None) -> tuple[list[str], list[list[str]]]:
    """Predictions and references from a JSONL or CSV file.

    Columns: ``prediction`` and either ``reference`` (one text) or ``references`` (a list in
    JSONL; in CSV, a JSON list or a single text).  ``text`` may give the content directly.
    """
    path = Path(path)
    if text is None:
        text = "\n".join(read_lines(path))
    if path.suffix.lower() in (".jsonl", ".json", ".ndjson"):
        records = _records_from_jsonl(path, text)
    elif path.suffix.lower() in (".csv", ".tsv"):
        dialect = "excel-tab" if path.suffix.lower() == ".tsv" else "excel"
        records = list(csv.DictReader(text.splitlines(), dialect=dialect))
    else:
        raise InputError(f"{path}: expected a .jsonl or .csv file")
    if not records:
        raise InputError(f"{path}: no rows")
    predictions, references = [], []
    for number, record in enumerate(records, start=1):
        if "prediction" not in record or not ("reference" in record or "references" in record):
            raise InputError(
                f"{path}: row {number} needs a 'prediction' column and a 'reference' or "
                f"'references' column; found {sorted(record)}"
            )
        refs = record.get("references", record.get("reference"))
        if isinstance(refs, str) and refs.startswith("[") and "references" in record:
            with contextlib.suppress(json.JSONDecodeError):
                refs = json.loads(refs)
        predictions.append(record["prediction"])
        references.append([refs] if isinstance(refs, str) else refs)
    return predictions, references


def write_scores_csv(
    handle: TextIO,
    scores: Scores,
    predictions: Sequence[str] | None = None,
    references: Sequence[Sequence[str]] | None = None,
) -> None:
    """Per-example precision, recall and F of every type as CSV (full float precision); with
    the texts when given (references as a JSON list)."""
    writer = csv.writer(handle)
    header = ["index"] + (["prediction", "references"] if predictions is not None else [])
    for name in scores.rouge_types:
        header += [f"{name}_precision", f"{name}_recall", f"{name}_fmeasure"]
    writer.writerow(header)
    measures = (scores.precision, scores.recall, scores.fmeasure)
    for e in range(len(scores)):
        row: list[object] = [e]
        if predictions is not None:
            refs = references[e] if references is not None else []
            row += [predictions[e], json.dumps(list(refs), ensure_ascii=False)]
        for k in range(len(scores.rouge_types)):
            row += [repr(float(m[e, k])) for m in measures]
        writer.writerow(row)


def bundled_examples() -> list[dict]:
    """The example set shipped with the package (the seeds' examples and a few English pairs)."""
    text = resources.files("rouge_lcs").joinpath("data/examples.jsonl").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]
