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
from rouge_lcs.cli.io import InputError, decode, read_records, read_table
from rouge_lcs.config.settings import Settings, settings_of
from rouge_lcs.config.values import Options
from rouge_lcs.text.languages import LANGUAGES
from rouge_lcs.text.tokenizers import TOKENIZERS as TOKENIZER_RECORDS
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
    text = text_field(text, "References")
    if not text.strip():
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
    if selected is not None and (
        isinstance(selected, str)
        or not isinstance(selected, Sequence)
        or not all(isinstance(t, str) for t in selected)
    ):
        raise UserError(f"ROUGE types: expected a list of type names, got {_shown(selected)}.")
    names = list(selected or [])
    names += [t for t in re.split(r"[\s,;]+", text_field(extra, "More types")) if t]
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


#: What β may be, as the library words it (``check_beta``'s range).
BETA_RANGE = "a number from 1e-150 to 1e150"


def check_beta_field(beta: object) -> float:
    """β from its number box: the library's rule, worded for the field (the box itself has no
    limits, so that a bad value reaches this message instead of being refused by the widget).

    An empty box arrives as ``None``, and so does a number too large for the browser's floats
    (``1e400`` is sent as ``null``): neither means the default, both are refused as ``1e308``
    is."""
    if beta is None:
        raise UserError(
            f"β (F-measure): expected {BETA_RANGE}, got no number (an empty box, or a number "
            "too large to send, such as 1e400)."
        )
    try:
        return check_beta(beta)
    except (TypeError, ValueError) as error:
        reason = str(error).removeprefix("beta: ")
        raise UserError(f"β (F-measure): {reason}.") from None


def text_field(value: object, what: str) -> str:
    """A text box's value: ``None`` is an empty box; anything but text is refused (the API
    can send any JSON value)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise UserError(f"{what}: expected text, got {type(value).__name__}.")
    return value


def _shown(value: object) -> str:
    """A visitor's value in a message: quoted, one line, at most 40 characters."""
    text = " ".join(repr(value).split())
    return text if len(text) <= 40 else text[:39] + "…"


def menu_choice(value: object, menu: Sequence[str], what: str, default: str) -> str:
    """A menu's value: one of ``menu`` (``None`` or ``""``: the default).  The API can send any
    value; it is refused here with the menu's choices, before the web framework would log it."""
    if value is None or value == "":
        return default
    if isinstance(value, str) and value in menu:
        return value
    raise UserError(f"{what}: {_shown(value)} is not one of the choices ({', '.join(menu)}).")


def check_tokenizer(value: object) -> str:
    """The tokenizer menu's value; a tokenizer this install cannot run is named with the
    packages it needs."""
    if isinstance(value, str) and value not in choices.TOKENIZERS and value in TOKENIZER_RECORDS:
        raise UserError(not_installed("Tokenizer", value, TOKENIZER_RECORDS[value].packages))
    return menu_choice(value, choices.TOKENIZERS, "Tokenizer", choices.DEFAULT_TOKENIZER)


def not_installed(what: str, name: str, packages: Sequence[str]) -> str:
    """The message for a choice whose packages this install lacks."""
    return (
        f"{what}: {name} needs {' and '.join(packages)}, which this demo does not have "
        "installed; choose another."
    )


def check_language(value: object) -> str:
    """The language menu's value (an ISO 639-1 code, ``""``: none)."""
    if value is None or value == "":
        return ""
    if isinstance(value, str) and value in LANGUAGES and value not in choices.LANGUAGE_CODES:
        record = TOKENIZER_RECORDS[LANGUAGES[value].tokenizer]
        raise UserError(not_installed("Language", choices.language_label(value), record.packages))
    if isinstance(value, str) and value in choices.LANGUAGE_CODES:
        return value
    raise UserError(
        f"Language: {_shown(value)} is not a language code of the menu (e.g. en, ko, zh; "
        f"{len(choices.LANGUAGE_CODES)} in all)."
    )


def check_flag(value: object, what: str) -> bool:
    """A checkbox's value (``None``: unticked)."""
    if value is None or isinstance(value, bool):
        return bool(value)
    raise UserError(f"{what}: expected true or false, got {_shown(value)}.")


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
    use_stemmer = check_flag(stemmer, "Stemmer")
    if not compat:  # the menus' values, checked before the library sees them
        chosen_tokenizer = check_tokenizer(tokenizer)
        split = menu_choice(
            lsum_split, choices.SPLITS, "ROUGE-Lsum sentences", choices.DEFAULT_SPLIT
        )
        mode = menu_choice(
            multi_ref, choices.MULTI_REF_MODES, "Several references", choices.DEFAULT_MULTI_REF
        )
        code = check_language(language)
        if use_stemmer and code and LANGUAGES[code].stemmer is None:
            raise UserError(
                f"Stemmer: {choices.language_label(code)} has no stemmer; untick the stemmer "
                "box to score it."
            )
        beta_value = check_beta_field(beta)
    try:
        # The library's one options value, as every other door builds it.
        if compat:
            options = Options(types, use_stemmer=use_stemmer, compat=compat)
        else:
            options = Options(
                types,
                use_stemmer=use_stemmer,
                # With a language, the untouched default tokenizer means "that language's
                # default".
                tokenizer=None
                if code and chosen_tokenizer == choices.DEFAULT_TOKENIZER
                else chosen_tokenizer,
                lsum_split=split,
                multi_ref=mode,
                beta=beta_value,
                language=code or None,
            )
        settings = settings_of(options)
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


def upload_problem(
    what: str, name: str, size: int, suffixes: Sequence[str] | None = limits.UPLOAD_SUFFIXES
) -> str | None:
    """Why a file cannot be taken (too large, or not a table), or ``None``.  The page checks a
    file with this before it is sent (the server refuses larger ones), and so does the API.
    ``suffixes=None``: any name (a file of one text per line, such as ``test.hypo``)."""
    suffix = Path(name).suffix.lower()
    if suffixes is not None and suffix not in suffixes:
        kinds = ", ".join(limits.UPLOAD_SUFFIXES)
        return f"{what}: {name} is not a table file; expected one of {kinds} (CSV or JSONL)."
    if size > limits.MAX_UPLOAD_BYTES:
        return (
            f"{what}: {name} is {size / 2**20:.1f} MB; this demo takes files up to "
            f"{limits.MAX_UPLOAD_BYTES // 2**20} MB (use the library or CLI for more)."
        )
    return None


def read_upload(file_path: str, what: str) -> tuple[list[str], list[list[str]]]:
    """Predictions and references of an uploaded CSV/JSONL, or a page message; a row with an
    empty reference is refused at its line, as the One pair tab refuses an empty reference."""
    path = Path(file_path)
    problem = upload_problem(what, path.name, path.stat().st_size)
    if problem:
        raise UserError(problem)
    try:
        predictions, references = read_table(path)
    except InputError as error:
        raise UserError(f"{what}: {error}".replace(str(path), path.name)) from None
    except (ValueError, RecursionError, MemoryError) as error:  # any reader failure, worded
        raise UserError(f"{what}: cannot be read ({type(error).__name__}).") from None
    for k, refs in enumerate(references):
        empty = next((j for j, r in enumerate(refs, start=1) if not r.strip()), None)
        if empty is not None:
            records = read_records(path, decode(path.read_bytes(), path.name)) or []
            line = records[k][0] if k < len(records) else k + 1
            raise UserError(
                f"{what}: {path.name}, line {line}: reference {empty} is empty; every pair "
                "needs a reference text (an empty one would score 0)."
            )
    return predictions, references


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
    pasted = text_field(pasted, "Pasted data")
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
    pasted = text_field(pasted, "Pasted rows")
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
    name = (
        text_field(given, f"Name of system {fallback}").strip()
        or (Path(file_path).stem if file_path else "")
        or fallback
    )
    name = " ".join(name.split())  # one line
    if len(name) > limits.MAX_NAME_CHARS:
        raise UserError(
            f"Name of system {fallback}: {len(name)} characters; at most {limits.MAX_NAME_CHARS}."
        )
    return name
