"""The Space: ROUGE with an explanation of every score (Gradio).

Run locally with ``python app.py`` (http://127.0.0.1:7860).  Everything above the UI section is
plain Python (tested in tests/test_app.py): parsing with limits, scoring with a time budget,
rendering to HTML.  The UI only wires these functions to components.

Three public API endpoints (``score``, ``score_batch``, ``compare``) return JSON-like dicts and
give every parameter a default; the buttons of the page use private events that render HTML and
show one message at a time instead of raising toasts.
"""

from __future__ import annotations

import atexit
import html
import logging
import math
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import gradio as gr
import numpy as np

from rouge_lcs import __version__
from rouge_lcs.cli.io import InputError, read_table, write_scores_csv
from rouge_lcs.config.options import OPTIONS
from rouge_lcs.config.settings import Settings, make_settings
from rouge_lcs.engine.stats import PairStats
from rouge_lcs.scores.explain import CLIPPED, MATCHED, Explanation, explain_with
from rouge_lcs.scores.multiref import prf
from rouge_lcs.scores.results import Scores
from rouge_lcs.scores.scorer import Rouge
from rouge_lcs.scores.signature import make_signature
from rouge_lcs.scores.statistics import Comparison, compare
from rouge_lcs.text.rouge_types import DEFAULT_ROUGE_TYPES

log = logging.getLogger("rouge_space")

# --- limits ---------------------------------------------------------------------------------
# A public Space must answer everyone: each limit bounds the work of one request, and each
# violation is one clear message on the page.  The library itself has none of these limits.
MAX_TEXT_CHARS = 10_000
MAX_REFERENCES = 8
MAX_UPLOAD_BYTES = 5 * 1024 * 1024  # also the server's max_file_size: refused before landing
MAX_PAIRS = 5_000
#: Rouge types per request: each type is a pass over the data and a block of explanation HTML.
MAX_TYPES = 8
#: Largest N of ROUGE-N here (the library takes up to 1000): N passes over every text.
MAX_N = 20
#: ROUGE-Lsum sentences per text: its cost grows with (prediction sentences × reference
#: sentences); 5,000 one-token lines against 8 such references took minutes.
MAX_SENTENCES = 200
#: Explanation HTML of one pair, in characters; past it the remaining references are summarized.
MAX_EXPLANATION_CHARS = 1_500_000
#: Time budgets in seconds: scoring of a batch or a comparison stops between chunks past it; the
#: explanation stops adding references past its own.
TIME_BUDGET_S = 20.0
EXPLAIN_BUDGET_S = 5.0
#: Examples scored between two looks at the clock.
CHUNK = 250
#: Rows of the per-example table on the page, and characters of each text shown there (the
#: CSV download has everything).
SHOWN_ROWS = 500
SHOWN_CHARS = 300
CONFIDENCE = 0.95
RESAMPLES = 1000
SEED = 0
HISTOGRAM_BINS = 10

# --- option widgets: choices and defaults from the library's one declaration ----------------
STANDARD_TYPES = list(DEFAULT_ROUGE_TYPES)
TOKENIZERS = list(OPTIONS["tokenizer"].choices)
SPLITS = list(OPTIONS["lsum_split"].choices)
MULTI_REF_MODES = list(OPTIONS["multi_ref"].choices)
#: "" = no language (the defaults); then every ISO 639-1 code the library knows.
LANGUAGES = ["", *OPTIONS["language"].choices]
# The tokenizer's default is None, which the library resolves to its first (unicode) tokenizer.
DEFAULT_TOKENIZER = str(OPTIONS["tokenizer"].default or TOKENIZERS[0])
DEFAULT_STEMMER = bool(OPTIONS["use_stemmer"].default)
DEFAULT_SPLIT = str(OPTIONS["lsum_split"].default)
DEFAULT_BETA = float(OPTIONS["beta"].default)  # type: ignore[arg-type]
DEFAULT_MULTI_REF = str(OPTIONS["multi_ref"].default)


class Example(NamedTuple):
    """A named example: its prediction and its references (one text each)."""

    name: str
    prediction: str
    references: list[str]


KO_PREDICTION = "서울은 대한민국의 수도이며 인구는 약 구백만 명이다"
KO_REFERENCE = "서울의 인구는 약 천만 명이고 대한민국의 수도이다"
EXAMPLES = [
    Example("Korean, one reference", KO_PREDICTION, [KO_REFERENCE]),
    Example(
        "Korean, a two-sentence reference",
        KO_PREDICTION,
        ["서울의 인구는 약 천만 명이다\n서울은 대한민국의 수도이다"],
    ),
    Example("A subsequence", "a c e", ["a b c d e"]),
    Example("English, one phrase changed", "the cat sat on the mat", ["the cat sat on a rug"]),
    Example("Same words, reversed order", "C B A", ["A B C"]),
    Example(
        "News: two sentences, two references",
        "A strong storm hit the coast on Monday. Thousands of homes lost power and two roads "
        "were closed.",
        [
            "The storm struck the coast on Monday, cutting power to thousands of homes.\n"
            "Officials closed two coastal roads.",
            "Thousands lost power when a storm hit the coast Monday.",
        ],
    ),
]


class UserError(ValueError):
    """A problem with what the visitor entered (or a limit reached); shown on the page as is."""


# --- input parsing --------------------------------------------------------------------------


def check_text(text: str, what: str) -> None:
    """A text within the length limit that is valid Unicode (no lone surrogate, which neither
    the page nor JSON can carry)."""
    if len(text) > MAX_TEXT_CHARS:
        raise UserError(
            f"{what}: {len(text):,} characters; this demo takes at most {MAX_TEXT_CHARS:,} "
            "per text (the library itself has no limit)."
        )
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:
            raise UserError(
                f"{what}: not valid Unicode text (a lone surrogate U+{ord(text[error.start]):04X} "
                f"at character {error.start + 1:,})."
            ) from None


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
    if len(blocks) > MAX_REFERENCES:
        raise UserError(
            f"References: {len(blocks)} given (separated by blank lines); at most "
            f"{MAX_REFERENCES} in this demo."
        )
    return blocks


def resolve_types(selected: Sequence[str] | None, extra: str | None) -> list[str]:
    """The checked standard types plus any typed in (comma or space separated)."""
    names = list(selected or [])
    names += [t for t in re.split(r"[\s,;]+", extra or "") if t]
    # Spellings may repeat a type (rouge1, ROUGE-1), so allow some slack before the library
    # collapses them; past it, do not even parse the names.
    if len(names) > 4 * MAX_TYPES:
        raise UserError(
            f"ROUGE types: {len(names):,} given; this demo scores at most {MAX_TYPES} at once "
            "(the library has no such limit)."
        )
    if not names:
        raise UserError("ROUGE types: choose at least one (e.g. rouge1, rougeL).")
    return names


def settings_for(
    types: list[str],
    tokenizer: str | None,
    stemmer: bool | None,
    lsum_split: str | None,
    beta: float | None,
    multi_ref: str | None,
    language: str | None = None,
) -> Settings:
    """Library settings from the option widgets; every refusal is a page message."""
    try:
        settings = make_settings(
            types,
            use_stemmer=bool(stemmer),
            # With a language, the untouched default tokenizer means "that language's default".
            tokenizer=None
            if language and tokenizer in (None, "", DEFAULT_TOKENIZER)
            else (tokenizer or DEFAULT_TOKENIZER),
            lsum_split=lsum_split or DEFAULT_SPLIT,
            multi_ref=multi_ref or DEFAULT_MULTI_REF,
            beta=DEFAULT_BETA if beta is None else float(beta),
            language=language or None,
        )
    except (ValueError, TypeError, OverflowError) as error:
        raise UserError(str(error)) from None
    if len(settings.names) > MAX_TYPES:
        raise UserError(
            f"ROUGE types: {len(settings.names)} chosen; this demo scores at most {MAX_TYPES} "
            "at once (the library has no such limit)."
        )
    too_long = [t.name for t in settings.rouge_types if t.kind == "n" and t.n > MAX_N]
    if too_long:
        raise UserError(
            f"ROUGE types: {too_long[0]} — this demo takes ROUGE-N up to N = {MAX_N} "
            "(the library up to 1000)."
        )
    return settings


_SENTENCE_ENDS = re.compile(r"[.?!。！？]")


def check_sentences(text: str, what: str, settings: Settings) -> None:
    """ROUGE-Lsum's work grows with the product of both sides' sentence counts: bound each."""
    if not settings.needs_sentences:
        return
    # The built-in splits cut only at line breaks and sentence ends, so counting those bounds
    # the number of sentences cheaply; only a text that might exceed the limit is split.
    if text.count("\n") + len(_SENTENCE_ENDS.findall(text)) < MAX_SENTENCES:
        return
    if len(settings.splitter(text)) > MAX_SENTENCES:
        raise UserError(
            f"{what}: more than {MAX_SENTENCES} sentences for ROUGE-Lsum; this demo takes at "
            f"most {MAX_SENTENCES} per text (untick rougeLsum, or use the library or CLI)."
        )


def parse_pasted(text: str, columns: int = 1, what: str = "Pasted data") -> list[list[str]]:
    """Pasted tab-separated rows: ``columns`` prediction cells then one or more references.

    Returns the rows' cells (empty trailing references dropped)."""
    if len(text) > MAX_UPLOAD_BYTES:  # the same bound as a file
        raise UserError(
            f"{what}: {len(text):,} characters; this demo takes at most "
            f"{MAX_UPLOAD_BYTES // 2**20} MB (upload a file, or use the library or CLI)."
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


def read_upload(file_path: str, what: str) -> tuple[list[str], list[list[str]]]:
    """Predictions and references of an uploaded CSV/JSONL, or a page message."""
    path = Path(file_path)
    size = path.stat().st_size
    if size > MAX_UPLOAD_BYTES:  # the server refuses larger uploads; a direct call may not
        raise UserError(
            f"{what}: {size / 2**20:.1f} MB; this demo takes files up to "
            f"{MAX_UPLOAD_BYTES // 2**20} MB (use the library or CLI for more)."
        )
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
    if len(predictions) > MAX_PAIRS:
        raise UserError(
            f"{what}: {len(predictions):,} pairs; this demo scores at most {MAX_PAIRS:,}."
        )
    for k, (pred, refs) in enumerate(zip(predictions, references), start=1):
        if not isinstance(pred, str) or not isinstance(refs, list) or not refs:
            raise UserError(f"{what} row {k}: needs a prediction text and at least one reference.")
        if len(refs) > MAX_REFERENCES:
            raise UserError(f"{what} row {k}: {len(refs)} references; at most {MAX_REFERENCES}.")
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


# --- scoring with a budget ------------------------------------------------------------------


def score_with_budget(
    settings: Settings,
    predictions: list[str],
    references: list[list[str]],
    deadline: float,
    what: str = "Batch",
) -> Scores:
    """Score in chunks of :data:`CHUNK` examples, stopping with a message past ``deadline``
    (``time.monotonic()``): a request cannot hold a worker longer than its budget."""
    if settings.needs_sentences:
        for k, (pred, refs) in enumerate(zip(predictions, references), start=1):
            for text in [pred, *refs]:
                check_sentences(text, f"{what} row {k}", settings)
                _check_deadline(deadline, what, k - 1, len(predictions))
    scorer = Rouge.from_settings(settings)
    parts = []
    for start in range(0, len(predictions), CHUNK):
        _check_deadline(deadline, what, start, len(predictions))
        stop = start + CHUNK
        parts.append(scorer.stats(predictions[start:stop], references[start:stop]))
    return Scores.from_stats(PairStats.concatenate(parts), settings)


def _check_deadline(deadline: float, what: str, done: int, total: int) -> None:
    if time.monotonic() > deadline:
        raise UserError(
            f"{what}: stopped after {done:,} of {total:,} pairs — more than this demo's "
            f"{TIME_BUDGET_S:.0f} s per request. Score fewer pairs or types here, or use the "
            "library or CLI (no time limit)."
        )


# --- rendering ------------------------------------------------------------------------------


def fmt(value: float) -> str:
    """A score as the page shows it: four decimals (``n/a`` if not a number)."""
    return f"{value:.4f}" if math.isfinite(value) else "n/a"


def esc(text: str) -> str:
    """HTML-escaped text."""
    return html.escape(text, quote=True)


def message_html(text: str, kind: str = "error") -> str:
    """The one message area of a tab: an error (or a note) replaces whatever was there."""
    role = "alert" if kind == "error" else "status"
    return f'<div class="msg msg-{kind}" role="{role}">{esc(text)}</div>'


_CLASS = {MATCHED: "tok hit", CLIPPED: "tok clipped"}


def render_side(label: str, sentences: list[list[str]], marks: list[list[int]]) -> str:
    """One text as tokens; counted tokens highlighted, one line per sentence."""
    lines = []
    for k, (tokens, token_marks) in enumerate(zip(sentences, marks), start=1):
        # Unmatched tokens are plain text: the HTML of a long text stays small.
        spans = [
            f'<span class="{_CLASS[mark]}">{esc(token)}</span>' if mark in _CLASS else esc(token)
            for token, mark in zip(tokens, token_marks)
        ]
        prefix = f'<small class="sent">s{k}</small> ' if len(sentences) > 1 else ""
        lines.append(f"<div>{prefix}{' '.join(spans) or '<i>(no tokens)</i>'}</div>")
    return f'<div class="side"><b>{esc(label)}</b>{"".join(lines)}</div>'


def render_explanation(item: Explanation) -> str:
    """One rouge type: the counts, the formula with numbers, both sides highlighted."""
    summary = (
        f"<b>{esc(item.rouge_type)}</b>: {item.hits} matched {esc(item.unit)}; "
        f"P = {item.hits}/{item.prediction_total} = {fmt(item.precision)}, "
        f"R = {item.hits}/{item.reference_total} = {fmt(item.recall)}, "
        f"F = {fmt(item.fmeasure)}"
    )
    return (
        f'<div class="explanation" data-type="{esc(item.rouge_type)}">'
        f'<div class="formula">{summary}</div>'
        f"{render_side('Prediction', item.prediction.sentences, item.prediction.marks)}"
        f"{render_side('Reference', item.reference.sentences, item.reference.marks)}</div>"
    )


LEGEND = (
    '<p class="legend"><span class="tok hit">matched</span> counted · '
    '<span class="tok clipped">clipped</span> in the union LCS but beyond the prediction\'s '
    "count of that token (ROUGE-Lsum only). Texts are shown as the scorer sees them: "
    "normalized, lowercased, stemmed if asked, punctuation dropped.</p>"
)

MODE_WORDS = {
    "max_f": "the reference with the best F",
    "max_recall": "the reference with the best recall",
    "pooled": "all references pooled (hits and lengths summed)",
    "mean": "the mean over references",
}


def trace(counts: np.ndarray, chosen: int, mode: str, n_refs: int, beta: float = 1.0) -> str:
    """How one type's headline numbers arise from counts, for one example.

    ``counts`` is ``(references, 3)``: hits, prediction total, reference total per reference;
    ``chosen`` the reference used (``-1``: all of them)."""

    def ratio(h: int, total: int) -> str:
        return f"{h}/{total}"

    if n_refs == 1 or chosen >= 0:
        k = max(chosen, 0)
        h, p, r = (int(x) for x in counts[k])
        where = (
            f"reference {k + 1} of {n_refs} ({'best F' if mode == 'max_f' else 'best recall'}) · "
            if n_refs > 1
            else ""
        )
        return f"{where}P = {ratio(h, p)} · R = {ratio(h, r)}"
    hits, preds, refs = (counts[:, m].astype(int).tolist() for m in range(3))
    if mode == "pooled":
        return (
            f"{n_refs} references pooled · P = ({'+'.join(map(str, hits))})/"
            f"({'+'.join(map(str, preds))}) = {ratio(sum(hits), sum(preds))} · "
            f"R = ({'+'.join(map(str, hits))})/({'+'.join(map(str, refs))}) = "
            f"{ratio(sum(hits), sum(refs))}"
        )
    f_values = prf(counts, beta)[2]
    parts_p = " + ".join(ratio(h, p) for h, p in zip(hits, preds))
    parts_r = " + ".join(ratio(h, r) for h, r in zip(hits, refs))
    parts_f = " + ".join(fmt(float(f)) for f in f_values)
    return (
        f"mean of {n_refs} references · P = ({parts_p})/{n_refs} · R = ({parts_r})/{n_refs} · "
        f"F = ({parts_f})/{n_refs}"
    )


TEXT_COLUMNS = ("prediction", "references")


def _table(headers: list[str], rows: list[str], css_class: str, elem_id: str = "") -> str:
    """A responsive table: on a phone each row becomes a card whose cells carry their header
    (``data-label``), so no number needs horizontal scrolling."""
    # Number columns' headers sit right, over their right-aligned numbers.
    head = "".join(
        f'<th scope="col">{esc(h)}</th>'
        if k == 0 or h in TEXT_COLUMNS
        else f'<th scope="col" class="num">{esc(h)}</th>'
        for k, h in enumerate(headers)
    )
    ident = f' id="{elem_id}"' if elem_id else ""
    return (
        f'<table class="rt {css_class}"{ident}><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _cells(labels: list[str], values: list[str], header: str) -> str:
    """A row whose first cell names it (a row header) and whose other cells are numbers."""
    tds = "".join(
        f'<td class="num" data-label="{esc(label)}">{value}</td>'
        for label, value in zip(labels, values)
    )
    return f'<th scope="row" data-label="type">{esc(header)}</th>{tds}'


@dataclass
class PairResult:
    """Everything one scored pair shows: scores, which reference each used, the explanation."""

    prediction: str
    references: list[str]
    settings: Settings
    scores: Scores
    explanation_html: str
    signature: str

    def as_dict(self) -> dict[str, Any]:
        """The API's answer: full-precision scores, the reference used (1-based, ``None`` when
        every reference counts) and the counts of each type, plus the signature."""
        chosen = self.scores.chosen_references()[0]
        counts = self.scores.stats.counts
        out: dict[str, Any] = {}
        for k, (name, score) in enumerate(self.scores.mean().items()):
            out[name] = {
                "precision": float(score.precision),
                "recall": float(score.recall),
                "fmeasure": float(score.fmeasure),
                "reference": int(chosen[k]) + 1 if chosen[k] >= 0 else None,
                "counts": [[int(x) for x in counts[r, k]] for r in range(counts.shape[0])],
            }
        return {"scores": out, "signature": self.signature}


def render_pair_scores(result: PairResult) -> str:
    """The P/R/F table with, under each type, where its numbers come from."""
    settings, n_refs = result.settings, len(result.references)
    chosen = result.scores.chosen_references()[0]
    counts = result.scores.stats.counts
    rows = []
    labels = ["precision", "recall", "F"]
    for k, (name, score) in enumerate(result.scores.mean().items()):
        values = [fmt(score.precision), fmt(score.recall), fmt(score.fmeasure)]
        rows.append(
            f'<tr class="score-row" data-type="{esc(name)}">{_cells(labels, values, name)}</tr>'
        )
        how = trace(counts[:, k, :], int(chosen[k]), settings.multi_ref, n_refs, settings.beta)
        rows.append(
            f'<tr class="trace-row" data-type="{esc(name)}"><td colspan="4">{esc(how)}</td></tr>'
        )
    caption = "Scores"
    if n_refs > 1:
        caption += f" — {n_refs} references, each type from {MODE_WORDS[settings.multi_ref]}"
    if settings.beta != 1.0:
        caption += f"; F with β = {settings.beta:g}"
    return f'<div class="caption">{esc(caption)}</div>' + _table(
        ["type", *labels], rows, "scores", "pair-scores-table"
    )


def explanation_for(
    prediction: str, references: list[str], settings: Settings, chosen: np.ndarray, deadline: float
) -> str:
    """Highlighted tokens per reference and type, within a size and time budget; references
    past the budget are named, not drawn (their scores above are complete)."""
    parts = [LEGEND]
    size = len(LEGEND)
    n_refs = len(references)
    for k, reference in enumerate(references):
        if k and (size > MAX_EXPLANATION_CHARS or time.monotonic() > deadline):
            rest = f"{k + 1}–{n_refs}" if k + 1 < n_refs else f"{k + 1}"
            parts.append(
                '<p class="note">'
                f"Reference {rest}: not drawn (this demo's explanation budget of "
                f"{MAX_EXPLANATION_CHARS // 1000:,} kB / {EXPLAIN_BUDGET_S:.0f} s is spent); "
                "their scores above are complete.</p>"
            )
            break
        used = [name for t, name in enumerate(settings.names) if chosen[t] == k]
        title = f"Reference {k + 1} of {n_refs}" if n_refs > 1 else "Reference"
        if n_refs > 1 and chosen.max() >= 0:
            title += f" — used for {', '.join(used)}" if used else " — not used by any type"
        block = f"<h4>{esc(title)}</h4>" + "".join(
            render_explanation(item) for item in explain_with(prediction, reference, settings)
        )
        if k == 0 and len(block) > MAX_EXPLANATION_CHARS:
            block = (
                f"<h4>{esc(title)}</h4><p class='note'>The highlighted texts would take "
                f"{len(block) // 1000:,} kB, more than this demo draws; scores above are "
                "complete.</p>"
            )
        parts.append(block)
        size += len(block)
    return "".join(parts)


def signature_text(settings: Settings, n_refs: list[int], **interval: Any) -> str:
    """The reproducibility signature and a sentence to cite it with."""
    sig = make_signature(settings, n_refs, **interval)
    return (
        f"{sig}\n\nROUGE computed with rouge_lcs {__version__} (signature above: tokenizer, "
        "normalization, stemming, ROUGE-Lsum sentence split, multi-reference mode, beta, "
        "references per example, aggregation)."
    )


def score_pair(
    prediction: str | None,
    references_text: str | None,
    rouge_types: Sequence[str] | None = STANDARD_TYPES,
    extra_types: str | None = "",
    tokenizer: str | None = DEFAULT_TOKENIZER,
    stemmer: bool | None = DEFAULT_STEMMER,
    lsum_split: str | None = DEFAULT_SPLIT,
    beta: float | None = DEFAULT_BETA,
    multi_ref: str | None = DEFAULT_MULTI_REF,
    language: str | None = None,
) -> PairResult:
    """Score one prediction against one or more references (raises :class:`UserError`)."""
    if prediction is None or not prediction.strip():
        raise UserError("Prediction: enter a text to score.")
    check_text(prediction, "Prediction")
    references = parse_references(references_text)
    for k, ref in enumerate(references, start=1):
        check_text(ref, f"Reference {k}")
    settings = settings_for(
        resolve_types(rouge_types, extra_types),
        tokenizer,
        stemmer,
        lsum_split,
        beta,
        multi_ref,
        language,
    )
    check_sentences(prediction, "Prediction", settings)
    for k, ref in enumerate(references, start=1):
        check_sentences(ref, f"Reference {k}", settings)
    result = Rouge.from_settings(settings).score([prediction], [references])
    explanation = explanation_for(
        prediction,
        references,
        settings,
        result.chosen_references()[0],
        time.monotonic() + EXPLAIN_BUDGET_S,
    )
    return PairResult(
        prediction,
        references,
        settings,
        result,
        explanation,
        signature_text(settings, [len(references)]),
    )


def histogram_html(values: np.ndarray, name: str, bins: int = HISTOGRAM_BINS) -> str:
    """Per-example F in equal-width bins over [0, 1], as horizontal bars: labels never overlap,
    whatever the width of the screen."""
    counts, edges = np.histogram(values, bins=bins, range=(0.0, 1.0))
    top = max(int(counts.max()), 1)
    rows = []
    for k, count in enumerate(counts.astype(int)):
        closing = "]" if k == bins - 1 else ")"
        label = f"[{edges[k]:.1f}, {edges[k + 1]:.1f}{closing}"
        rows.append(
            f'<div class="hist-row"><span class="hist-label">{label}</span>'
            f'<span class="hist-bar"><span style="width:{100 * count / top:.1f}%"></span></span>'
            f'<span class="hist-count">{count}</span></div>'
        )
    return (
        f'<div class="hist" data-type="{esc(name)}"><div class="caption">Per-example {esc(name)} '
        f"F: examples per bin (n = {len(values):,})</div>{''.join(rows)}</div>"
    )


def _short(text: str) -> str:
    return esc(text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…")


def per_example_html(predictions: list[str], references: list[list[str]], scores: Scores) -> str:
    """The first :data:`SHOWN_ROWS` examples: # and F per type, then the texts."""
    names = scores.rouge_types
    rows = []
    for e in range(min(len(predictions), SHOWN_ROWS)):
        values = [fmt(float(scores.fmeasure[e, k])) for k in range(len(names))]
        refs = references[e]
        ref_html = (
            _short(refs[0])
            if len(refs) == 1
            else "<ol>" + "".join(f"<li>{_short(r)}</li>" for r in refs) + "</ol>"
        )
        rows.append(
            f'<tr><th scope="row" data-label="#">{e + 1}</th>'
            + "".join(
                f'<td class="num" data-label="{esc(n)} F">{v}</td>' for n, v in zip(names, values)
            )
            + f'<td class="text" data-label="prediction">{_short(predictions[e])}</td>'
            f'<td class="text" data-label="references">{ref_html}</td></tr>'
        )
    return _table(
        ["#", *(f"{n} F" for n in names), "prediction", "references"], rows, "examples wide"
    )


@dataclass
class BatchResult:
    """A scored batch: what the page and the API show."""

    predictions: list[str]
    references: list[list[str]]
    settings: Settings
    scores: Scores
    intervals: dict[str, Any]
    signature: str

    def as_dict(self) -> dict[str, Any]:
        """The API's answer: means with their 95% CI, per-example F, the signature."""
        return {
            "pairs": len(self.predictions),
            "mean": {
                name: {
                    "precision": float(s.precision),
                    "recall": float(s.recall),
                    "fmeasure": float(s.fmeasure),
                    "fmeasure_ci": list(self.intervals[name].fmeasure),
                }
                for name, s in self.scores.mean().items()
            },
            "per_example_fmeasure": {
                name: self.scores.column(name).tolist() for name in self.scores.rouge_types
            },
            "signature": self.signature,
        }


def score_batch(
    file_path: str | None = None,
    pasted: str | None = "",
    rouge_types: Sequence[str] | None = STANDARD_TYPES,
    extra_types: str | None = "",
    tokenizer: str | None = DEFAULT_TOKENIZER,
    stemmer: bool | None = DEFAULT_STEMMER,
    lsum_split: str | None = DEFAULT_SPLIT,
    beta: float | None = DEFAULT_BETA,
    multi_ref: str | None = DEFAULT_MULTI_REF,
    language: str | None = None,
) -> BatchResult:
    """Score a batch with bootstrap intervals of the means (raises :class:`UserError`)."""
    deadline = time.monotonic() + TIME_BUDGET_S
    predictions, references = parse_batch(file_path, pasted)
    settings = settings_for(
        resolve_types(rouge_types, extra_types),
        tokenizer,
        stemmer,
        lsum_split,
        beta,
        multi_ref,
        language,
    )
    scores = score_with_budget(settings, predictions, references, deadline)
    intervals = scores.interval(CONFIDENCE, RESAMPLES, SEED)
    n_refs = [len(r) for r in references]
    sig = make_signature(
        settings, n_refs, confidence_level=CONFIDENCE, n_resamples=RESAMPLES, seed=SEED
    )
    return BatchResult(predictions, references, settings, scores, intervals, sig)


def render_aggregate(result: BatchResult) -> str:
    """Mean P/R/F over examples with the bootstrap CI of F."""
    labels = ["precision", "recall", "F", "F 95% CI"]
    rows = []
    for name, s in result.scores.mean().items():
        ci = result.intervals[name].fmeasure
        values = [
            fmt(s.precision),
            fmt(s.recall),
            fmt(s.fmeasure),
            f"[{fmt(ci.low)}, {fmt(ci.high)}]",
        ]
        rows.append(f'<tr data-type="{esc(name)}">{_cells(labels, values, name)}</tr>')
    n = len(result.predictions)
    mode = result.settings.multi_ref
    caption = (
        f"Mean over {n:,} examples of each example's P, R and F "
        f"(several references: {MODE_WORDS[mode]}); 95% CI: percentile bootstrap, "
        f"{RESAMPLES:,} resamples, seed {SEED}"
    )
    return f'<div class="caption">{esc(caption)}</div>' + _table(
        ["type", *labels], rows, "scores wide", "aggregate-table"
    )


@dataclass
class ComparisonResult:
    """Two systems scored on the same references, and their paired comparison (F)."""

    settings: Settings
    pairs: int
    names: list[str]
    comparison: Comparison
    signature: str

    def as_dict(self) -> dict[str, Any]:
        """The API's answer per type: both means, B − A with its CI, both p-values."""
        c = self.comparison
        return {
            "pairs": self.pairs,
            "types": {
                name: {
                    "mean_a": float(c.mean_a[k]),
                    "mean_b": float(c.mean_b[k]),
                    "difference": float(c.difference[k]),
                    "difference_ci": [float(c.low[k]), float(c.high[k])],
                    "p_bootstrap": float(c.p_bootstrap[k]),
                    "p_randomization": float(c.p_randomization[k]),
                }
                for k, name in enumerate(self.names)
            },
            "signature": self.signature,
        }


def compare_systems(
    file_a: str | None = None,
    file_b: str | None = None,
    pasted: str | None = "",
    rouge_types: Sequence[str] | None = STANDARD_TYPES,
    extra_types: str | None = "",
    tokenizer: str | None = DEFAULT_TOKENIZER,
    stemmer: bool | None = DEFAULT_STEMMER,
    lsum_split: str | None = DEFAULT_SPLIT,
    beta: float | None = DEFAULT_BETA,
    multi_ref: str | None = DEFAULT_MULTI_REF,
    language: str | None = None,
) -> ComparisonResult:
    """Score systems A and B on the same references and compare their per-example F
    (raises :class:`UserError`)."""
    deadline = time.monotonic() + TIME_BUDGET_S
    preds_a, preds_b, references = parse_comparison(file_a, file_b, pasted)
    settings = settings_for(
        resolve_types(rouge_types, extra_types),
        tokenizer,
        stemmer,
        lsum_split,
        beta,
        multi_ref,
        language,
    )
    a = score_with_budget(settings, preds_a, references, deadline, "Compare (system A)")
    b = score_with_budget(settings, preds_b, references, deadline, "Compare (system B)")
    result = compare(a.fmeasure, b.fmeasure, CONFIDENCE, RESAMPLES, SEED)
    sig = make_signature(
        settings,
        [len(r) for r in references],
        confidence_level=CONFIDENCE,
        n_resamples=RESAMPLES,
        seed=SEED,
    )
    return ComparisonResult(settings, len(references), settings.names, result, sig)


def render_comparison(result: ComparisonResult) -> str:
    """Per type: both means, B − A with its CI, the two p-values, and what they say."""
    c = result.comparison
    labels = [
        "mean F of A",
        "mean F of B",
        "B − A",
        "95% CI of B − A",
        "p (bootstrap)",
        "p (randomization)",
    ]
    rows = []
    for k, name in enumerate(result.names):
        values = [
            fmt(c.mean_a[k]),
            fmt(c.mean_b[k]),
            f"{c.difference[k]:+.4f}",
            f"[{c.low[k]:+.4f}, {c.high[k]:+.4f}]",
            fmt(c.p_bootstrap[k]),
            fmt(c.p_randomization[k]),
        ]
        rows.append(f'<tr data-type="{esc(name)}">{_cells(labels, values, name)}</tr>')
    caption = (
        f"{result.pairs:,} examples, the same references for both systems; B − A > 0 means B "
        f"scores higher. CI: paired bootstrap ({RESAMPLES:,} resamples, seed {SEED}); p-values: "
        "paired bootstrap and approximate randomization, two-sided — below 0.05, a difference "
        "this large is unlikely if the systems were equally good."
    )
    return f'<div class="caption">{esc(caption)}</div>' + _table(
        ["type", *labels], rows, "scores wide", "compare-table"
    )


# --- per-session CSV download ---------------------------------------------------------------

#: One directory per server process, removed at exit; one CSV per browser session in it,
#: overwritten by each batch of that session (no file left per call).
SESSION_DIR = Path(tempfile.mkdtemp(prefix="rouge_space_"))
atexit.register(shutil.rmtree, SESSION_DIR, ignore_errors=True)


def _session_file(session: str | None) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_-]", "", session or "") or "anonymous"
    return SESSION_DIR / f"rouge_per_example_{safe[:64]}.csv"


def write_csv(result: BatchResult, session: str | None) -> str:
    """All per-example scores with their texts, in this session's one CSV file."""
    path = _session_file(session)
    with path.open("w", newline="", encoding="utf-8") as handle:
        write_scores_csv(handle, result.scores, result.predictions, result.references)
    return str(path)


def forget_session(request: gr.Request) -> None:
    """When a visitor leaves, their CSV goes too."""
    _session_file(getattr(request, "session_hash", None)).unlink(missing_ok=True)


# --- page handlers: never raise; one message replaces the last, stale results are cleared ---

INTERNAL = (
    "Something went wrong on our side ({}). Your input was not stored; please report it with "
    "the input that caused it."
)


def _guard(what: str, call: Callable[[], Any]) -> tuple[Any, str]:
    """Run ``call``; return ``(result, "")`` or ``(None, message html)`` — a user error as is,
    anything else as a short internal-error note (details go to the server log only)."""
    try:
        return call(), ""
    except UserError as error:
        return None, message_html(str(error))
    except Exception as error:  # the page must never show a raw exception
        log.exception("%s failed", what)
        return None, message_html(INTERNAL.format(type(error).__name__))


PAIR_PLACEHOLDER = '<p class="placeholder">Scores appear here after <b>Score</b>.</p>'


def pair_page(*args: Any, **kwargs: Any) -> tuple[str, str, str, str]:
    """The One pair tab: message, score table, signature, explanation."""
    result, message = _guard("score", lambda: score_pair(*args, **kwargs))
    if result is None:
        return message, "", "", ""
    return "", render_pair_scores(result), result.signature, result.explanation_html


def batch_page(*args: Any, request: gr.Request | None = None) -> tuple[Any, ...]:
    """The A batch tab: message, aggregate, note, histogram chooser, histogram, per-example
    table, CSV, signature, and the state that lets the histogram follow its chooser."""
    *inputs, histogram_type = args
    result, message = _guard("score_batch", lambda: score_batch(*inputs))
    if result is None:
        return (message, "", gr.update(choices=STANDARD_TYPES), "", "", None, "", None)
    names = result.scores.rouge_types
    chosen = histogram_type if histogram_type in names else names[0]
    n, shown = len(result.predictions), min(len(result.predictions), SHOWN_ROWS)
    note = f"{n:,} pairs scored."
    if shown < n:
        note += f" The table shows the first {shown}; the CSV has all {n:,}."
    state = {"names": names, "f": result.scores.fmeasure}
    csv_path = write_csv(result, getattr(request, "session_hash", None))
    return (
        message_html(note, "note"),
        render_aggregate(result),
        gr.update(choices=names, value=chosen),
        histogram_html(result.scores.column(chosen), chosen),
        per_example_html(result.predictions, result.references, result.scores),
        csv_path,
        result.signature,
        state,
    )


def histogram_page(histogram_type: str, state: dict[str, Any] | None) -> str:
    """Redraw the histogram from the last batch (kept in gr.State): no re-scoring."""
    if not state or histogram_type not in state["names"]:
        return ""
    column = state["f"][:, state["names"].index(histogram_type)]
    return histogram_html(column, histogram_type)


def compare_page(*args: Any) -> tuple[str, str, str]:
    """The Compare tab: message, comparison table, signature."""
    result, message = _guard("compare", lambda: compare_systems(*args))
    if result is None:
        return message, "", ""
    return "", render_comparison(result), result.signature


# --- API endpoints: JSON answers; a user error is a gr.Error with the same message ----------


def _api(call: Callable[[], Any]) -> dict[str, Any]:
    try:
        return call().as_dict()
    except UserError as error:
        raise gr.Error(str(error), print_exception=False) from None


def score_api(
    prediction: str,
    references: str,
    rouge_types: list[str] | None = None,
    extra_types: str = "",
    tokenizer: str = DEFAULT_TOKENIZER,
    stemmer: bool = DEFAULT_STEMMER,
    lsum_split: str = DEFAULT_SPLIT,
    beta: float = DEFAULT_BETA,
    multi_ref: str = DEFAULT_MULTI_REF,
    language: str | None = None,
) -> dict[str, Any]:
    """Score one pair: ``{"scores": {type: {precision, recall, fmeasure, reference, counts}},
    "signature"}``; several references in ``references`` are separated by a blank line."""
    types = STANDARD_TYPES if rouge_types is None else rouge_types
    return _api(
        lambda: score_pair(
            prediction,
            references,
            types,
            extra_types,
            tokenizer,
            stemmer,
            lsum_split,
            beta,
            multi_ref,
            language,
        )
    )


def score_batch_api(
    file: str | None = None,
    pasted: str = "",
    rouge_types: list[str] | None = None,
    extra_types: str = "",
    tokenizer: str = DEFAULT_TOKENIZER,
    stemmer: bool = DEFAULT_STEMMER,
    lsum_split: str = DEFAULT_SPLIT,
    beta: float = DEFAULT_BETA,
    multi_ref: str = DEFAULT_MULTI_REF,
    language: str | None = None,
) -> dict[str, Any]:
    """Score a CSV/JSONL file or pasted ``prediction<TAB>reference`` rows."""
    types = STANDARD_TYPES if rouge_types is None else rouge_types
    return _api(
        lambda: score_batch(
            file,
            pasted,
            types,
            extra_types,
            tokenizer,
            stemmer,
            lsum_split,
            beta,
            multi_ref,
            language,
        )
    )


def compare_api(
    file_a: str | None = None,
    file_b: str | None = None,
    pasted: str = "",
    rouge_types: list[str] | None = None,
    extra_types: str = "",
    tokenizer: str = DEFAULT_TOKENIZER,
    stemmer: bool = DEFAULT_STEMMER,
    lsum_split: str = DEFAULT_SPLIT,
    beta: float = DEFAULT_BETA,
    multi_ref: str = DEFAULT_MULTI_REF,
    language: str | None = None,
) -> dict[str, Any]:
    """Compare systems A and B (two files, or pasted ``A<TAB>B<TAB>reference`` rows)."""
    types = STANDARD_TYPES if rouge_types is None else rouge_types
    return _api(
        lambda: compare_systems(
            file_a,
            file_b,
            pasted,
            types,
            extra_types,
            tokenizer,
            stemmer,
            lsum_split,
            beta,
            multi_ref,
            language,
        )
    )


# --- UI -------------------------------------------------------------------------------------

CSS = """
/* Hangul (and any spaced script) wraps between words, never inside one; a token longer than
   the line still breaks rather than pushing the page sideways. */
.gradio-container textarea, .results, #examples { word-break: keep-all; overflow-wrap: anywhere; }
/* No message, no space: the results start at the top of their column. */
#pair-message:has(.prose:empty), #batch-message:has(.prose:empty),
#compare-message:has(.prose:empty) { display: none; }
.msg { padding: .6em .8em; border-radius: 6px; margin: .2em 0; }
.msg-error { background: #fde8e8; border: 1px solid #f5a3a3; color: #7a1010; }
.msg-note { background: #eef6ee; border: 1px solid #b9dcb9; }
.placeholder, .note, .caption { color: #555; font-size: .92em; margin: .3em 0; }
.tok.hit { background: #b7f0c1; border-radius: 3px; padding: 0 2px; }
.tok.clipped { background: #ffe29a; border-radius: 3px; padding: 0 2px;
               text-decoration: line-through; }
.explanation { margin: .6em 0; padding: .5em; border: 1px solid #ddd; border-radius: 6px; }
.explanation .side { margin-top: .3em; }
.sent { color: #777; }
table.rt { border-collapse: collapse; width: 100%; margin: .3em 0 .6em; }
.results table.rt, .results table.rt tr { border: none !important; }
.results table.rt th.num { text-align: right; }
/* Numbers and type names never break inside; only the texts and traces wrap. */
.results table.rt th, .results table.rt td.num { white-space: nowrap; word-break: normal;
                                                 overflow-wrap: normal; }
.results table.rt th, .results table.rt td { border: none !important;
    border-bottom: 1px solid #e3e3e3 !important;
    padding: .3em .45em; text-align: left; vertical-align: top; }
table.rt td.num { font-variant-numeric: tabular-nums; white-space: nowrap; text-align: right; }
table.rt tr.trace-row td { color: #444; font-size: .88em; padding-top: 0; }
table.rt ol { margin: 0; padding-left: 1.2em; }
.examples-wrap { max-height: 32em; overflow-y: auto; }
.hist-row { display: grid; grid-template-columns: 6.5em 1fr 3.5em; gap: .5em;
            align-items: center; margin: .15em 0; font-variant-numeric: tabular-nums; }
.hist-bar { background: #f0f0f0; height: 1.1em; border-radius: 3px; overflow: hidden; }
.hist-bar > span { display: block; height: 100%; background: #5b8def; }
.hist-count { text-align: right; }
.example-card { text-align: left; line-height: 1.35; }
.example-card .ex-label { color: #666; font-size: .85em; margin-top: .25em; }
.example-card ol { margin: 0; padding-left: 1.3em; }
/* Phone: a wide table's row becomes a card and each cell says what it is, so nothing scrolls
   sideways and every number stays readable. */
@media (max-width: 640px) {
  table.rt th, table.rt td { padding: .3em .25em; }
  table.rt.wide thead { display: none; }
  table.rt.wide, table.rt.wide tbody, table.rt.wide tr, table.rt.wide th, table.rt.wide td {
      display: block; width: auto; }
  .results table.rt.wide tr { border: 1px solid #ddd !important; border-radius: 6px;
                             margin: .4em 0; padding: .2em; }
  .results table.rt.wide th, .results table.rt.wide td { border: none !important; }
  table.rt.wide td.num { display: flex; justify-content: space-between; gap: 1em;
                         white-space: normal; }
  table.rt.wide td::before { content: attr(data-label); color: #555; text-align: left; }
  table.rt.wide td.text::before { display: block; font-size: .85em; }
}
"""

# After an action, bring the results column into view when it is not (on a phone it sits
# below the inputs; on a laptop beside them, so nothing moves).
SCROLL_JS = """(id) => {
  const el = document.getElementById(id);
  if (!el) return;
  const top = el.getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight * 0.6) el.scrollIntoView({block: "start"});
}"""


def _scroll(elem_id: str) -> str:
    return f"() => ({SCROLL_JS})({elem_id!r})"


def _options(prefix: str) -> list[Any]:
    """The scoring options (choices and defaults from :data:`rouge_lcs.config.options.OPTIONS`)."""
    with gr.Accordion("Options", open=False, elem_id=f"{prefix}-options"):
        types = gr.CheckboxGroup(
            STANDARD_TYPES, value=STANDARD_TYPES, label="ROUGE types", elem_id=f"{prefix}-types"
        )
        extra = gr.Textbox(
            value="",
            label=f"More types (up to {MAX_TYPES} in all; rougeN with N ≤ {MAX_N})",
            placeholder="e.g. rouge3, rouge4",
            elem_id=f"{prefix}-extra",
        )
        with gr.Row():
            tokenizer = gr.Dropdown(
                TOKENIZERS, value=DEFAULT_TOKENIZER, label="Tokenizer", min_width=140
            )
            stemmer = gr.Checkbox(value=DEFAULT_STEMMER, label="Porter stemmer", min_width=140)
            lsum_split = gr.Dropdown(
                SPLITS, value=DEFAULT_SPLIT, label="ROUGE-Lsum sentences", min_width=140
            )
        with gr.Row():
            beta = gr.Number(value=DEFAULT_BETA, minimum=0.01, label="β (F-measure)", min_width=140)
            multi_ref = gr.Dropdown(
                MULTI_REF_MODES, value=DEFAULT_MULTI_REF, label="Several references", min_width=140
            )
            language = gr.Dropdown(
                LANGUAGES,
                value="",
                label="Language (tokens, stemmer, sentence ends)",
                min_width=140,
                elem_id=f"{prefix}-language",
            )
    return [types, extra, tokenizer, stemmer, lsum_split, beta, multi_ref, language]


def example_card(example: Example) -> str:
    """How an example reads in the list: its name, the prediction's sentences on their own
    lines (as ROUGE-Lsum splits them), the references numbered."""
    splitter = make_settings(["rougeLsum"]).splitter
    sentences = "".join(f"<div>{esc(s)}</div>" for s in splitter(example.prediction))
    refs = "".join(
        "<li>" + "".join(f"<div>{esc(s)}</div>" for s in splitter(r)) + "</li>"
        for r in example.references
    )
    noun = "reference" if len(example.references) == 1 else "references"
    return (
        f'<div class="example-card"><b>{esc(example.name)}</b>'
        f'<div class="ex-label">Prediction</div>{sentences}'
        f'<div class="ex-label">{len(example.references)} {noun}</div><ol>{refs}</ol></div>'
    )


def load_example(index: int) -> tuple[str, str]:
    """An example into the two boxes (references separated by a blank line, as typed)."""
    example = EXAMPLES[int(index)]
    return example.prediction, "\n\n".join(example.references)


LIMITS = (
    f"Limits of this demo: {MAX_TEXT_CHARS:,} characters per text, {MAX_REFERENCES} references, "
    f"{MAX_TYPES} types, {MAX_SENTENCES} sentences per text for ROUGE-Lsum, "
    f"{MAX_UPLOAD_BYTES // 2**20} MB per file, {MAX_PAIRS:,} pairs, {TIME_BUDGET_S:.0f} s per "
    "request. The library and CLI have none of these."
)

with gr.Blocks(
    title="ROUGE, explained",
    analytics_enabled=False,
    # Gradio's own cache (uploads, served CSVs) is swept hourly of files older than an hour.
    delete_cache=(3600, 3600),
) as demo:
    gr.Markdown(
        "# ROUGE, explained\n"
        "ROUGE-N, ROUGE-L and ROUGE-Lsum with the tokens that counted highlighted. "
        "Unicode-aware (Korean, Chinese, Japanese score correctly), exact mean, same numbers as "
        "`rouge_score` with the `rouge_score` tokenizer. Library and evaluate module: see the "
        "README."
    )
    with gr.Tab("One pair", id="pair"):
        with gr.Row(equal_height=False):
            with gr.Column(scale=1, min_width=320):
                prediction = gr.Textbox(label="Prediction", lines=4, value="", elem_id="prediction")
                references = gr.Textbox(
                    label="Reference(s) — separate several references with a blank line; "
                    "newlines inside one reference mark its sentences",
                    lines=4,
                    value="",
                    elem_id="references",
                )
                pair_options = _options("pair")
                score_button = gr.Button("Score", variant="primary", elem_id="score")
                examples = gr.Dataset(
                    components=["html"],
                    samples=[[example_card(e)] for e in EXAMPLES],
                    type="index",
                    label="Examples — click one to score it",
                    elem_id="examples",
                    samples_per_page=len(EXAMPLES),
                )
            with gr.Column(scale=1, min_width=320, elem_id="pair-results", elem_classes="results"):
                pair_message = gr.HTML(elem_id="pair-message")
                pair_scores = gr.HTML(PAIR_PLACEHOLDER, elem_id="pair-scores")
                pair_signature = gr.Textbox(
                    label="Reproducibility (paste into your paper)",
                    lines=3,
                    elem_id="signature",
                    interactive=False,
                )
                pair_html = gr.HTML(elem_id="explanation")
        pair_inputs = [prediction, references, *pair_options]
        pair_outputs = [pair_message, pair_scores, pair_signature, pair_html]
        pair_events: dict[str, Any] = {
            "api_visibility": "private",
            "concurrency_id": "pair",
            "concurrency_limit": 4,
        }
        score_button.click(pair_page, pair_inputs, pair_outputs, **pair_events).then(
            None, js=_scroll("pair-results")
        )
        examples.click(load_example, examples, [prediction, references], **pair_events).then(
            pair_page, pair_inputs, pair_outputs, **pair_events
        ).then(None, js=_scroll("pair-results"))

    with gr.Tab("A batch", id="batch"):
        with gr.Row(equal_height=False):
            with gr.Column(scale=1, min_width=320):
                gr.Markdown(
                    "Upload a **CSV** or **JSONL** with columns `prediction` and `reference` "
                    "(one text) or `references` (a list), or paste two columns (tab-separated, "
                    f"e.g. from a spreadsheet). {LIMITS}"
                )
                upload = gr.File(
                    label="CSV or JSONL", file_types=[".csv", ".jsonl", ".json"], elem_id="upload"
                )
                pasted = gr.Textbox(
                    label="…or paste prediction<TAB>reference rows",
                    lines=5,
                    value="",
                    elem_id="pasted",
                )
                batch_options = _options("batch")
                batch_button = gr.Button("Score batch", variant="primary", elem_id="score-batch")
            with gr.Column(scale=1, min_width=320, elem_id="batch-results", elem_classes="results"):
                batch_message = gr.HTML(elem_id="batch-message")
                aggregate = gr.HTML(
                    '<p class="placeholder">Means appear here after <b>Score batch</b>.</p>',
                    elem_id="aggregate",
                )
                histogram_type = gr.Dropdown(
                    STANDARD_TYPES,
                    value="rougeL",
                    label="Histogram of per-example F for",
                    elem_id="histogram-type",
                )
                histogram = gr.HTML(elem_id="histogram")
                download = gr.File(label="Per-example scores (CSV)", elem_id="download")
                batch_signature = gr.Textbox(
                    label="Reproducibility signature",
                    elem_id="batch-signature",
                    interactive=False,
                )
        per_example = gr.HTML(elem_id="per-example", elem_classes="results")
        batch_state = gr.State()
        batch_button.click(
            batch_page,
            [upload, pasted, *batch_options, histogram_type],
            [
                batch_message,
                aggregate,
                histogram_type,
                histogram,
                per_example,
                download,
                batch_signature,
                batch_state,
            ],
            api_visibility="private",
            concurrency_id="heavy",
            concurrency_limit=2,
        ).then(None, js=_scroll("batch-results"))
        histogram_type.input(
            histogram_page, [histogram_type, batch_state], histogram, api_visibility="private"
        )

    with gr.Tab("Compare", id="compare"):
        # Inputs above, results below at full width: the comparison has seven columns.
        gr.Markdown(
            "### Compare two systems\n"
            "Two systems' outputs on the same examples: upload one file per system in the batch "
            "format (same rows, same references), or paste three columns "
            "`A<TAB>B<TAB>reference` (more reference columns may follow). Per type: both mean "
            "F, the difference B − A with its 95% CI, paired bootstrap and approximate "
            f"randomization p-values. {LIMITS}"
        )
        with gr.Row(equal_height=False):
            file_a = gr.File(
                label="System A (CSV or JSONL)",
                file_types=[".csv", ".jsonl", ".json"],
                elem_id="file-a",
                min_width=240,
            )
            file_b = gr.File(
                label="System B (CSV or JSONL)",
                file_types=[".csv", ".jsonl", ".json"],
                elem_id="file-b",
                min_width=240,
            )
            compare_pasted = gr.Textbox(
                label="…or paste A<TAB>B<TAB>reference rows",
                lines=5,
                value="",
                elem_id="compare-pasted",
                min_width=240,
            )
        compare_options = _options("compare")
        compare_button = gr.Button("Compare", variant="primary", elem_id="compare")
        with gr.Column(elem_id="compare-results", elem_classes="results"):
            compare_message = gr.HTML(elem_id="compare-message")
            comparison = gr.HTML(
                '<p class="placeholder">The comparison appears here after <b>Compare</b>.</p>',
                elem_id="comparison",
            )
            compare_signature = gr.Textbox(
                label="Reproducibility signature",
                elem_id="compare-signature",
                interactive=False,
            )
        compare_button.click(
            compare_page,
            [file_a, file_b, compare_pasted, *compare_options],
            [compare_message, comparison, compare_signature],
            api_visibility="private",
            concurrency_id="heavy",
            concurrency_limit=2,
        ).then(None, js=_scroll("compare-results"))

    # The API: hidden triggers whose inputs are the widgets above (so every parameter has the
    # widget's initial value as its default, and uploads go through Gradio's file checks).
    api_out = gr.JSON(visible=False)
    with gr.Row(visible=False):
        api_score = gr.Button("api score")
        api_batch = gr.Button("api score_batch")
        api_compare = gr.Button("api compare")
    api_score.click(
        score_api,
        pair_inputs,
        api_out,
        api_name="score",
        concurrency_id="pair",
        concurrency_limit=4,
    )
    api_batch.click(
        score_batch_api,
        [upload, pasted, *batch_options],
        api_out,
        api_name="score_batch",
        concurrency_id="heavy",
        concurrency_limit=2,
    )
    api_compare.click(
        compare_api,
        [file_a, file_b, compare_pasted, *compare_options],
        api_out,
        api_name="compare",
        concurrency_id="heavy",
        concurrency_limit=2,
    )
    demo.unload(forget_session)

# A bounded queue: a flood of requests is turned away instead of piling up.
demo.queue(max_size=64, default_concurrency_limit=2)


def _theme() -> gr.themes.Base:
    # System fonts: the default theme fetches web fonts, which an offline machine cannot.
    system = ["ui-sans-serif", "system-ui", "sans-serif"]
    return gr.themes.Default(font=system, font_mono=["ui-monospace", "monospace"])


def launch_options() -> dict[str, Any]:
    """``demo.launch`` arguments: the server refuses uploads over the limit before they land
    (``max_file_size``); run history is off (it would keep every result in the browser); the
    sessions whose state is kept are capped."""
    return {
        "server_name": os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"),
        "theme": _theme(),
        "css": CSS,
        "max_file_size": MAX_UPLOAD_BYTES,
        "run_history": False,
        # Each session's last batch (per-example F, up to 5,000 × 8 floats) is kept for the
        # histogram; cap how many sessions are remembered so memory stays bounded.
        "state_session_capacity": 500,
        "show_error": False,
    }


if __name__ == "__main__":
    demo.launch(**launch_options())
