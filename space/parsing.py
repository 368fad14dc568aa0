"""The visitor's input to texts and settings: every refusal is one :class:`UserError` whose
message names the field and is shown on the page as is.

The checks of the texts themselves (valid Unicode, the options) are the library's; this
module adds only the Space's limits (:mod:`space.limits`) and the shapes of its input boxes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from rouge_lcs.base.validation import check_beta, check_unicode
from rouge_lcs.cli.io import InputError, read_table
from rouge_lcs.config.settings import Settings, make_settings
from space import choices, limits


class UserError(ValueError):
    """A problem with what the visitor entered (or a limit reached); shown on the page as is."""


def check_text(text: str, what: str) -> None:
    """A text within the length limit that is valid Unicode (no lone surrogate, which neither
    the page nor JSON can carry)."""
    if len(text) > limits.MAX_TEXT_CHARS:
        raise UserError(
            f"{what}: {len(text):,} characters; this demo takes at most "
            f"{limits.MAX_TEXT_CHARS:,} per text (the library itself has no limit)."
        )
    try:
        check_unicode(text, what)
    except ValueError as error:
        raise UserError(f"{error}.") from None


def parse_references(text: str | None) -> list[str]:
    """References from the box: separated by a blank line; lines within one stay together."""
    if text is None or not text.strip():
        raise UserError("References: enter at least one reference text.")
    blocks, current = [], []
    for line in text.splitlines():
        if line.strip():
            current.append(line.rstrip())
        elif current:
            blocks.append("\n".join(current))
            current = []
    if current:
        blocks.append("\n".join(current))
    if len(blocks) > limits.MAX_REFERENCES:
        raise UserError(
            f"References: {len(blocks)} given (separated by blank lines); at most "
            f"{limits.MAX_REFERENCES} in this demo."
        )
    return blocks


def resolve_types(selected: Sequence[str] | None, extra: str | None) -> list[str]:
    """The checked standard types plus any typed in (comma or space separated)."""
    names = list(selected or [])
    names += [t for t in re.split(r"[\s,;]+", extra or "") if t]
    # Spellings may repeat a type (rouge1, ROUGE-1), so allow some slack before the library
    # collapses them; past it, do not even parse the names.
    if len(names) > 4 * limits.MAX_TYPES:
        raise UserError(
            f"ROUGE types: {len(names):,} given; this demo scores at most {limits.MAX_TYPES} "
            "at once (the library has no such limit)."
        )
    if not names:
        raise UserError("ROUGE types: choose at least one (e.g. rouge1, rougeL).")
    return names


def check_beta_field(beta: float | None) -> float:
    """β from its number box: the library's rule, worded for the field (the box itself has no
    limits, so that a bad value reaches this message instead of being refused by the widget)."""
    if beta is None:
        return choices.DEFAULT_BETA
    try:
        return check_beta(beta)
    except (TypeError, ValueError) as error:
        reason = str(error).removeprefix("beta: ")
        raise UserError(f"β (F-measure): {reason}.") from None


def settings_for(
    types: list[str],
    tokenizer: str | None,
    stemmer: bool | None,
    lsum_split: str | None,
    beta: float | None,
    multi_ref: str | None,
    language: str | None = None,
    compat: str | None = None,
) -> Settings:
    """Library settings from the option widgets; every refusal is a page message.

    ``compat="rouge_score"``: the stock metric's settings for the same choices (its tokenizer,
    newline sentences, best-F reference, β = 1), for the numbers shown beside ours."""
    beta_value = check_beta_field(beta)
    try:
        if compat:
            settings = make_settings(types, use_stemmer=bool(stemmer), compat=compat)
        else:
            settings = make_settings(
                types,
                use_stemmer=bool(stemmer),
                # With a language, the untouched default tokenizer means "that language's
                # default".
                tokenizer=None
                if language and tokenizer in (None, "", choices.DEFAULT_TOKENIZER)
                else (tokenizer or choices.DEFAULT_TOKENIZER),
                lsum_split=lsum_split or choices.DEFAULT_SPLIT,
                multi_ref=multi_ref or choices.DEFAULT_MULTI_REF,
                beta=beta_value,
                language=language or None,
            )
    except ImportError as error:  # a segmenter this install lacks: the library names it
        raise UserError(f"{error} (this demo cannot install it; leave that option).") from None
    except (ValueError, TypeError, OverflowError) as error:
        raise UserError(str(error)) from None
    if len(settings.names) > limits.MAX_TYPES:
        raise UserError(
            f"ROUGE types: {len(settings.names)} chosen; this demo scores at most "
            f"{limits.MAX_TYPES} at once (the library has no such limit)."
        )
    too_long = [t.name for t in settings.rouge_types if t.kind == "n" and t.n > limits.MAX_N]
    if too_long:
        raise UserError(
            f"ROUGE types: {too_long[0]} — this demo takes ROUGE-N up to N = {limits.MAX_N} "
            "(the library up to 1000)."
        )
    return settings


def check_sentences(text: str, what: str, settings: Settings) -> None:
    """ROUGE-Lsum's work grows with the product of both sides' sentence counts: bound each."""
    if not settings.needs_sentences:
        return
    # Every sentence has at least one character, so a short text cannot exceed the limit;
    # only a longer one is split (by the library's own splitter, the one that scores it).
    if len(text) <= limits.MAX_SENTENCES:
        return
    if len(settings.splitter(text)) > limits.MAX_SENTENCES:
        raise UserError(
            f"{what}: more than {limits.MAX_SENTENCES} sentences for ROUGE-Lsum; this demo "
            f"takes at most {limits.MAX_SENTENCES} per text (untick rougeLsum, or use the "
            "library or CLI)."
        )


def parse_pasted(text: str, columns: int = 1, what: str = "Pasted data") -> list[list[str]]:
    """Pasted tab-separated rows: ``columns`` prediction cells then one or more references.

    Returns the rows' cells (empty trailing references dropped)."""
    if len(text) > limits.MAX_UPLOAD_BYTES:  # the same bound as a file
        raise UserError(
            f"{what}: {len(text):,} characters; this demo takes at most "
            f"{limits.MAX_UPLOAD_BYTES // 2**20} MB (upload a file, or use the library or CLI)."
        )
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        cells = line.split("\t")
        if len(cells) < columns + 1 or not all(c.strip() for c in cells[: columns + 1]):
            shape = (
                "a prediction and a reference"
                if columns == 1
                else ("system A's output, system B's output and a reference")
            )
            raise UserError(
                f"{what}, line {number}: expected {shape} separated by tabs (copy "
                f"{columns + 1} columns from a spreadsheet)."
            )
        rows.append(cells[:columns] + [c for c in cells[columns:] if c.strip()])
    return rows


def upload_problem(what: str, name: str, size: int) -> str | None:
    """Why a file cannot be taken (too large, or not a table), or ``None``.  The page checks a
    file with this before it is sent (the server refuses larger ones), and so does the API."""
    suffix = Path(name).suffix.lower()
    if suffix not in limits.UPLOAD_SUFFIXES:
        kinds = ", ".join(limits.UPLOAD_SUFFIXES)
        return f"{what}: {name} is not a table file; expected one of {kinds} (CSV or JSONL)."
    if size > limits.MAX_UPLOAD_BYTES:
        return (
            f"{what}: {name} is {size / 2**20:.1f} MB; this demo takes files up to "
            f"{limits.MAX_UPLOAD_BYTES // 2**20} MB (use the library or CLI for more)."
        )
    return None


def read_upload(file_path: str, what: str) -> tuple[list[str], list[list[str]]]:
    """Predictions and references of an uploaded CSV/JSONL, or a page message."""
    path = Path(file_path)
    problem = upload_problem(what, path.name, path.stat().st_size)
    if problem:
        raise UserError(problem)
    try:
        return read_table(path)
    except InputError as error:
        raise UserError(f"{what}: {error}".replace(str(path), path.name)) from None
    except (ValueError, RecursionError, MemoryError) as error:  # any reader failure, worded
        raise UserError(f"{what}: cannot be read ({type(error).__name__}).") from None


def check_rows(predictions: list[str], references: list[list[str]], what: str = "Batch") -> None:
    """The batch limits, with the row number of the first violation."""
    if not predictions:
        raise UserError(f"{what}: no rows found.")
    if len(predictions) > limits.MAX_PAIRS:
        raise UserError(
            f"{what}: {len(predictions):,} pairs; this demo scores at most {limits.MAX_PAIRS:,}."
        )
    for k, (pred, refs) in enumerate(zip(predictions, references), start=1):
        if not isinstance(pred, str) or not isinstance(refs, list) or not refs:
            raise UserError(f"{what} row {k}: needs a prediction text and at least one reference.")
        if len(refs) > limits.MAX_REFERENCES:
            raise UserError(
                f"{what} row {k}: {len(refs)} references; at most {limits.MAX_REFERENCES}."
            )
        for text in [pred, *refs]:
            if not isinstance(text, str):
                raise UserError(f"{what} row {k}: every prediction and reference must be text.")
            check_text(text, f"{what} row {k}")


def parse_batch(file_path: str | None, pasted: str | None) -> tuple[list[str], list[list[str]]]:
    """Predictions and references from an uploaded CSV/JSONL or pasted columns, checked."""
    if file_path:
        predictions, references = read_upload(file_path, "Upload")
    elif pasted and pasted.strip():
        rows = parse_pasted(pasted)
        predictions, references = [r[0] for r in rows], [r[1:] for r in rows]
    else:
        raise UserError("Batch: upload a CSV or JSONL file, or paste two columns.")
    check_rows(predictions, references)
    return predictions, references


def parse_comparison(
    file_a: str | None, file_b: str | None, pasted: str | None
) -> tuple[list[str], list[str], list[list[str]]]:
    """Two systems' outputs and their shared references: two files in the batch format (same
    examples, same references, same order) or pasted ``A<TAB>B<TAB>reference…`` rows."""
    if file_a or file_b:
        if not (file_a and file_b):
            raise UserError("Compare: upload a file for each system (A and B), or paste rows.")
        preds_a, refs_a = read_upload(file_a, "System A file")
        preds_b, refs_b = read_upload(file_b, "System B file")
        if len(preds_a) != len(preds_b):
            raise UserError(
                f"Compare: system A has {len(preds_a):,} rows and system B {len(preds_b):,}; "
                "both files must list the same examples in the same order."
            )
        for k, (ra, rb) in enumerate(zip(refs_a, refs_b), start=1):
            if ra != rb:
                raise UserError(
                    f"Compare row {k}: the two files' references differ; both systems must be "
                    "scored against the same references."
                )
        references = refs_a
    elif pasted and pasted.strip():
        rows = parse_pasted(pasted, columns=2, what="Pasted rows")
        preds_a, preds_b = [r[0] for r in rows], [r[1] for r in rows]
        references = [r[2:] for r in rows]
    else:
        raise UserError(
            "Compare: upload system A's and system B's files, or paste A<TAB>B<TAB>reference rows."
        )
    check_rows(preds_a, references, "Compare")
    check_rows(preds_b, references, "Compare")
    return preds_a, preds_b, references


def system_name(given: str | None, file_path: str | None, fallback: str) -> str:
    """A system's name as the page shows it: typed, else the file's name, else A or B."""
    name = (given or "").strip() or (Path(file_path).stem if file_path else "") or fallback
    name = " ".join(name.split())  # one line
    if len(name) > limits.MAX_NAME_CHARS:
        raise UserError(
            f"Name of system {fallback}: {len(name)} characters; at most {limits.MAX_NAME_CHARS}."
        )
    return name
