"""The Space: ROUGE with an explanation of every score (Gradio).

Run locally with ``python app.py`` (http://127.0.0.1:7860).  The functions above the UI are plain
Python (tested in tests/test_app.py); the UI only wires them to components.
"""

from __future__ import annotations

import html
import os
import tempfile
from pathlib import Path

import gradio as gr
import numpy as np
import pandas as pd

from rouge_lcs import __version__
from rouge_lcs.explain import CLIPPED, MATCHED, Explanation, explain_with
from rouge_lcs.io import InputError, read_table, write_scores_csv
from rouge_lcs.options import OPTIONS
from rouge_lcs.rouge_types import DEFAULT_ROUGE_TYPES
from rouge_lcs.scorer import Rouge
from rouge_lcs.settings import make_settings
from rouge_lcs.signature import make_signature

# Limits that keep a public Space responsive; each violation is a clear message on the page.
MAX_TEXT_CHARS = 10_000
MAX_REFERENCES = 8
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
MAX_PAIRS = 5_000
SHOWN_ROWS = 500

# The widgets' choices come from the library's one declaration of each option.
STANDARD_TYPES = list(DEFAULT_ROUGE_TYPES)
TOKENIZERS = list(OPTIONS["tokenizer"].choices)
SPLITS = list(OPTIONS["lsum_split"].choices)
MULTI_REF_MODES = list(OPTIONS["multi_ref"].choices)

KO_PREDICTION = "서울은 대한민국의 수도이며 인구는 약 구백만 명이다"
KO_REFERENCE = "서울의 인구는 약 천만 명이고 대한민국의 수도이다"
EXAMPLES = [
    [KO_PREDICTION, KO_REFERENCE],
    [KO_PREDICTION, "서울의 인구는 약 천만 명이다\n서울은 대한민국의 수도이다"],
    ["a c e", "a b c d e"],
    ["the cat sat on the mat", "the cat sat on a rug"],
    ["C B A", "A B C"],
    [
        "A strong storm hit the coast on Monday. Thousands of homes lost power and two roads "
        "were closed.",
        "The storm struck the coast on Monday, cutting power to thousands of homes.\n"
        "Officials closed two coastal roads.\n\n"
        "Thousands lost power when a storm hit the coast Monday.",
    ],
]


class UserError(ValueError):
    """A problem with what the visitor entered; shown on the page as is."""


# --- input parsing --------------------------------------------------------------------------


def parse_references(text: str) -> list[str]:
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


def _check_length(text: str, what: str) -> None:
    if len(text) > MAX_TEXT_CHARS:
        raise UserError(
            f"{what}: {len(text):,} characters; this demo takes at most {MAX_TEXT_CHARS:,} "
            "per text (the library itself has no limit)."
        )


def resolve_types(selected: list[str] | None, extra: str | None) -> list[str]:
    """The checked standard types plus any typed in (comma or space separated)."""
    names = list(selected or [])
    names += [t for t in (extra or "").replace(",", " ").split() if t]
    if not names:
        raise UserError("ROUGE types: choose at least one (e.g. rouge1, rougeL).")
    return names


def settings_for(types, tokenizer, stemmer, lsum_split, beta, multi_ref):
    """Library settings from the option widgets (errors become page messages)."""
    try:
        return make_settings(
            types,
            use_stemmer=bool(stemmer),
            tokenizer=tokenizer,
            lsum_split=lsum_split,
            multi_ref=multi_ref,
            beta=float(beta) if beta is not None else 1.0,
        )
    except (ValueError, TypeError) as error:
        raise UserError(str(error)) from None


def parse_pasted(text: str) -> tuple[list[str], list[list[str]]]:
    """Pasted rows: ``prediction<TAB>reference[<TAB>reference…]`` (a spreadsheet copy)."""
    predictions, references = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        cells = line.split("\t")
        if len(cells) < 2 or not all(c.strip() for c in cells[:2]):
            raise UserError(
                f"Pasted data, line {number}: expected a prediction and a reference separated "
                "by a tab (copy two columns from a spreadsheet)."
            )
        predictions.append(cells[0])
        references.append([c for c in cells[1:] if c.strip()])
    return predictions, references


def parse_batch(file_path: str | None, pasted: str | None) -> tuple[list[str], list[list[str]]]:
    """Predictions and references from an uploaded CSV/JSONL or pasted columns, checked."""
    if file_path:
        path = Path(file_path)
        size = path.stat().st_size
        if size > MAX_UPLOAD_BYTES:
            raise UserError(
                f"Upload: {size / 1e6:.1f} MB; this demo takes files up to "
                f"{MAX_UPLOAD_BYTES / 1e6:.0f} MB (use the library or CLI for more)."
            )
        try:
            predictions, references = read_table(path)
        except InputError as error:
            raise UserError(f"Upload: {error}".replace(str(path), path.name)) from None
    elif pasted and pasted.strip():
        predictions, references = parse_pasted(pasted)
    else:
        raise UserError("Batch: upload a CSV or JSONL file, or paste two columns.")
    if not predictions:
        raise UserError("Batch: no rows found.")
    if len(predictions) > MAX_PAIRS:
        raise UserError(
            f"Batch: {len(predictions):,} pairs; this demo scores at most {MAX_PAIRS:,}."
        )
    for k, (pred, refs) in enumerate(zip(predictions, references), start=1):
        if not isinstance(pred, str) or not isinstance(refs, list) or not refs:
            raise UserError(f"Batch row {k}: needs a prediction text and at least one reference.")
        if len(refs) > MAX_REFERENCES:
            raise UserError(f"Batch row {k}: {len(refs)} references; at most {MAX_REFERENCES}.")
        for text in [pred, *refs]:
            if not isinstance(text, str):
                raise UserError(f"Batch row {k}: every prediction and reference must be text.")
            _check_length(text, f"Batch row {k}")
    return predictions, references


# --- rendering ------------------------------------------------------------------------------

_STYLE = {
    MATCHED: "background:#b7f0c1;border-radius:3px;padding:0 2px;",
    CLIPPED: "background:#ffe29a;border-radius:3px;padding:0 2px;text-decoration:line-through;",
}
_CLASS = {MATCHED: "tok hit", CLIPPED: "tok clipped"}


def render_side(label: str, sentences: list[list[str]], marks: list[list[int]]) -> str:
    """One text as tokens; matched tokens highlighted, one line per sentence."""
    lines = []
    for k, (tokens, token_marks) in enumerate(zip(sentences, marks), start=1):
        spans = []
        for token, mark in zip(tokens, token_marks):
            text = html.escape(token)
            if mark in _STYLE:
                spans.append(f'<span class="{_CLASS[mark]}" style="{_STYLE[mark]}">{text}</span>')
            else:
                spans.append(f'<span class="tok">{text}</span>')
        prefix = f"<small>s{k}</small> " if len(sentences) > 1 else ""
        lines.append(prefix + (" ".join(spans) or "<i>(no tokens)</i>"))
    return f"<div><b>{html.escape(label)}</b><br>" + "<br>".join(lines) + "</div>"


def render_explanation(item: Explanation) -> str:
    """One rouge type: the counts, the formula with numbers, both sides highlighted."""
    summary = (
        f"<b>{item.rouge_type}</b>: {item.hits} matched {html.escape(item.unit)}; "
        f"P = {item.hits}/{item.prediction_total} = {item.precision:.4f}, "
        f"R = {item.hits}/{item.reference_total} = {item.recall:.4f}, "
        f"F = {item.fmeasure:.4f}"
    )
    return (
        f'<div class="explanation" data-type="{item.rouge_type}" '
        'style="margin:0.6em 0;padding:0.5em;border:1px solid #ddd;border-radius:6px;">'
        f"{summary}"
        f"{render_side('Prediction', item.prediction.sentences, item.prediction.marks)}"
        f"{render_side('Reference', item.reference.sentences, item.reference.marks)}</div>"
    )


LEGEND = (
    '<p><span class="tok hit" style="' + _STYLE[MATCHED] + '">matched</span> counted · '
    '<span class="tok clipped" style="' + _STYLE[CLIPPED] + '">clipped</span> in the union '
    "LCS but beyond the prediction's count of that token (ROUGE-Lsum only). Texts are shown as "
    "the scorer sees them: normalized, lowercased, stemmed if asked, punctuation dropped.</p>"
)


def signature_text(settings, n_refs: list[int]) -> str:
    sig = make_signature(settings, n_refs)
    return (
        f"{sig}\n\nROUGE computed with rouge_lcs {__version__} (signature above: tokenizer, "
        "normalization, stemming, ROUGE-Lsum sentence split, multi-reference mode, beta, "
        "references per example, aggregation)."
    )


# --- actions --------------------------------------------------------------------------------


def score_pair(
    prediction: str,
    references_text: str,
    rouge_types: list[str],
    extra_types: str,
    tokenizer: str,
    stemmer: bool,
    lsum_split: str,
    beta: float,
    multi_ref: str,
):
    """Score one prediction against one or more references.

    Returns the P/R/F table, the highlighted explanation (HTML), the reproducibility
    signature and the scores as a dict ``{type: {"precision", "recall", "fmeasure"}}``.
    """
    try:
        if prediction is None or not prediction.strip():
            raise UserError("Prediction: enter a text to score.")
        _check_length(prediction, "Prediction")
        references = parse_references(references_text)
        for k, ref in enumerate(references, start=1):
            _check_length(ref, f"Reference {k}")
        types = resolve_types(rouge_types, extra_types)
        settings = settings_for(types, tokenizer, stemmer, lsum_split, beta, multi_ref)
    except UserError as error:
        raise gr.Error(str(error)) from None
    result = Rouge.from_settings(settings).score([prediction], [references])
    means = result.mean()
    table = [[name, *(round(float(x), 4) for x in values)] for name, values in means.items()]
    parts = [LEGEND]
    for k, reference in enumerate(references, start=1):
        title = f"Reference {k} of {len(references)}" if len(references) > 1 else "Reference"
        parts.append(f"<h4>{title}</h4>")
        parts += [
            render_explanation(item) for item in explain_with(prediction, reference, settings)
        ]
    if len(references) > 1:
        parts.insert(
            1,
            f"<p>The table combines the {len(references)} references by "
            f"<b>{html.escape(multi_ref)}</b>; below, each reference on its own.</p>",
        )
    as_dict = {
        name: dict(zip(("precision", "recall", "fmeasure"), map(float, values)))
        for name, values in means.items()
    }
    return table, "".join(parts), signature_text(settings, [len(references)]), as_dict


def histogram(values: np.ndarray, bins: int = 10) -> pd.DataFrame:
    """Counts of per-example F in equal-width bins over [0, 1]."""
    counts, edges = np.histogram(values, bins=bins, range=(0.0, 1.0))
    labels = [f"{edges[k]:.1f}–{edges[k + 1]:.1f}" for k in range(bins)]
    return pd.DataFrame({"F": labels, "examples": counts.astype(int)})


def per_example_rows(predictions, references, result) -> list[list[object]]:
    """``#``, the F of each type, then the texts (scores first: the texts are wide)."""
    rows = []
    for e in range(min(len(predictions), SHOWN_ROWS)):
        row: list[object] = [e + 1]
        row += [round(float(result.fmeasure[e, k]), 4) for k in range(len(result.rouge_types))]
        row += [predictions[e], "\n\n".join(references[e])]
        rows.append(row)
    return rows


def write_csv(predictions, references, result) -> str:
    """All per-example scores with their texts, to a temporary CSV file for download."""
    with tempfile.NamedTemporaryFile(
        "w", suffix=".csv", prefix="rouge_per_example_", delete=False, newline="", encoding="utf-8"
    ) as handle:
        write_scores_csv(handle, result, predictions, references)
    return handle.name


def score_batch(
    file_path,
    pasted,
    rouge_types,
    extra_types,
    tokenizer,
    stemmer,
    lsum_split,
    beta,
    multi_ref,
    histogram_type,
):
    """Score a batch: aggregate table, per-example table, histogram, CSV download, signature."""
    try:
        predictions, references = parse_batch(file_path, pasted)
        types = resolve_types(rouge_types, extra_types)
        settings = settings_for(types, tokenizer, stemmer, lsum_split, beta, multi_ref)
    except UserError as error:
        raise gr.Error(str(error)) from None
    result = Rouge.from_settings(settings).score(predictions, references)
    intervals = result.interval(0.95, 1000, 0)
    aggregate = [
        [
            name,
            *(round(float(x), 4) for x in values),
            f"[{intervals[name].fmeasure.low:.4f}, {intervals[name].fmeasure.high:.4f}]",
        ]
        for name, values in result.mean().items()
    ]
    chosen = histogram_type if histogram_type in result.rouge_types else result.rouge_types[0]
    shown = min(len(predictions), SHOWN_ROWS)
    note = f"{len(predictions)} pairs scored."
    if shown < len(predictions):
        note += f" The table shows the first {shown}; the CSV has all {len(predictions)}."
    per_example = pd.DataFrame(
        per_example_rows(predictions, references, result),
        columns=["#", *result.rouge_types, "prediction", "references"],
    )
    n_refs = [len(r) for r in references]
    sig = make_signature(settings, n_refs, confidence_level=0.95, n_resamples=1000, seed=0)
    return (
        aggregate,
        note,
        per_example,
        gr.BarPlot(
            value=histogram(result.column(chosen)),
            x="F",
            y="examples",
            title=f"Per-example {chosen} F",
        ),
        write_csv(predictions, references, result),
        sig,
    )


# --- UI -------------------------------------------------------------------------------------


def _options_row():
    with gr.Accordion("Options", open=False):
        with gr.Row():
            types = gr.CheckboxGroup(STANDARD_TYPES, value=STANDARD_TYPES, label="ROUGE types")
            extra = gr.Textbox(label="More types", placeholder="e.g. rouge3, rouge12", scale=1)
        with gr.Row():
            tokenizer = gr.Dropdown(TOKENIZERS, value=TOKENIZERS[0], label="Tokenizer")
            stemmer = gr.Checkbox(value=OPTIONS["use_stemmer"].default, label="Porter stemmer")
            lsum_split = gr.Dropdown(
                SPLITS, value=OPTIONS["lsum_split"].default, label="ROUGE-Lsum sentences"
            )
            beta = gr.Number(value=1.0, minimum=0.01, label="β (F-measure)")
            multi_ref = gr.Dropdown(
                MULTI_REF_MODES, value=OPTIONS["multi_ref"].default, label="Several references"
            )
    return [types, extra, tokenizer, stemmer, lsum_split, beta, multi_ref]


with gr.Blocks(title="ROUGE, explained", analytics_enabled=False) as demo:
    gr.Markdown(
        "# ROUGE, explained\n"
        "ROUGE-N, ROUGE-L and ROUGE-Lsum with the tokens that counted highlighted. Unicode-aware "
        "(Korean, Chinese, Japanese score correctly), exact mean, same numbers as `rouge_score` "
        "with the `rouge_score` tokenizer. Library and evaluate module: see the README."
    )
    with gr.Tab("One pair"):
        with gr.Row():
            prediction = gr.Textbox(label="Prediction", lines=4, elem_id="prediction")
            references = gr.Textbox(
                label="Reference(s) — several references: separate them with a blank line; "
                "newlines inside one reference mark its sentences",
                lines=4,
                elem_id="references",
            )
        pair_options = _options_row()
        score_button = gr.Button("Score", variant="primary", elem_id="score")
        gr.Examples(EXAMPLES, inputs=[prediction, references], label="Examples")
        pair_table = gr.Dataframe(
            headers=["type", "precision", "recall", "F"],
            label="Scores",
            elem_id="pair-table",
            interactive=False,
        )
        pair_html = gr.HTML(elem_id="explanation")
        pair_signature = gr.Textbox(
            label="Reproducibility (paste into your paper)", lines=3, elem_id="signature"
        )
        pair_json = gr.JSON(label="Scores as JSON", visible=False)
        score_button.click(
            score_pair,
            inputs=[prediction, references, *pair_options],
            outputs=[pair_table, pair_html, pair_signature, pair_json],
            api_name="score",
        )
    with gr.Tab("A batch"):
        gr.Markdown(
            "Upload a **CSV** or **JSONL** with columns `prediction` and `reference` (one text) or "
            "`references` (a list), or paste two columns (tab-separated, e.g. from a "
            f"spreadsheet). Limits: {MAX_UPLOAD_BYTES // 2**20} MB, {MAX_PAIRS:,} pairs, "
            f"{MAX_TEXT_CHARS:,} characters per text, {MAX_REFERENCES} references per row."
        )
        with gr.Row():
            upload = gr.File(
                label="CSV or JSONL", file_types=[".csv", ".jsonl", ".json"], elem_id="upload"
            )
            pasted = gr.Textbox(label="…or paste prediction<TAB>reference rows", lines=5)
        batch_options = _options_row()
        histogram_type = gr.Dropdown(
            STANDARD_TYPES, value="rougeL", label="Histogram of per-example F for"
        )
        batch_button = gr.Button("Score batch", variant="primary", elem_id="score-batch")
        aggregate_table = gr.Dataframe(
            headers=["type", "precision", "recall", "F", "F 95% CI"],
            label="Mean over examples (with bootstrap 95% CI of F)",
            elem_id="aggregate-table",
            interactive=False,
        )
        batch_note = gr.Markdown()
        per_example_table = gr.Dataframe(label="Per example (F)", interactive=False, wrap=True)
        plot = gr.BarPlot(x="F", y="examples", label="Histogram")
        download = gr.File(label="Per-example scores (CSV)")
        batch_signature = gr.Textbox(label="Reproducibility signature")
        batch_button.click(
            score_batch,
            inputs=[upload, pasted, *batch_options, histogram_type],
            outputs=[
                aggregate_table,
                batch_note,
                per_example_table,
                plot,
                download,
                batch_signature,
            ],
            api_name="score_batch",
        )


def _theme():
    # System fonts: the default theme fetches web fonts, which an offline machine cannot.
    system = ["ui-sans-serif", "system-ui", "sans-serif"]
    return gr.themes.Default(font=system, font_mono=["ui-monospace", "monospace"])


if __name__ == "__main__":
    demo.launch(
        server_name=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"),
        theme=_theme(),
        show_error=True,
    )
