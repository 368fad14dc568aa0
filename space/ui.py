"""The page and the API (the one module that imports gradio): the handlers wire the plain
functions of :mod:`space.scoring` and :mod:`space.render` to components.

The buttons of the page use private events that render HTML and show one message at a time
(old results cleared) instead of raising toasts; four public API endpoints (``score``,
``score_batch``, ``compare``, ``audit``) return JSON-like dicts and give every parameter a
default.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import gradio as gr
from gradio import processing_utils
from starlette.middleware import Middleware

from rouge_lcs.cli.io import write_scores_csv
from space import limits, render
from space.auditing import AuditResult, audit_outputs
from space.choices import (
    DEFAULT_BETA,
    DEFAULT_MULTI_REF,
    DEFAULT_SPLIT,
    DEFAULT_STEMMER,
    DEFAULT_TOKENIZER,
    LANGUAGE_CHOICES,
    MULTI_REF_MODES,
    SPLITS,
    STANDARD_TYPES,
    TOKENIZERS,
    TYPE_CHOICES,
    stemmer_label,
)
from space.examples import EXAMPLES, example_card, load_example
from space.parsing import UserError, upload_problem
from space.render import ExamplesView, examples_page, message_html, sort_choices
from space.scoring import (
    BatchResult,
    ComparisonResult,
    compare_systems,
    score_batch,
    score_pair,
)
from space.server import FILE_WORDS, UploadGate
from space.sessions import SessionFiles
from space.uploads import check_upload

log = logging.getLogger("rouge_space")
STATIC = Path(__file__).with_name("static")

#: Each visitor's files (the per-example CSV, their uploads): removed when they leave, all of
#: them when the server stops.
SESSIONS = SessionFiles(unclaimed_s=limits.UNCLAIMED_UPLOAD_S)
SESSIONS.sweep_every(limits.UNCLAIMED_UPLOAD_S / 4)
atexit.register(SESSIONS.close)

INTERNAL = (
    "Something went wrong on our side ({}). Your input was not stored; please report it with "
    "the input that caused it."
)


def _guard(what: str, call: Callable[[], Any]) -> tuple[Any, str]:
    """Run ``call``; return ``(result, "")`` or ``(None, message html)`` — a user error as is,
    anything else as a short internal-error note.  The server log gets the error's type and
    where it arose, never its message or the input (both may hold the visitor's text)."""
    try:
        return call(), ""
    except UserError as error:
        return None, message_html(str(error))
    except Exception as error:  # the page must never show a raw exception
        where = "".join(traceback.format_tb(error.__traceback__))
        log.error("%s failed: %s\n%s", what, type(error).__name__, where)
        return None, message_html(INTERNAL.format(type(error).__name__))


def _session(request: gr.Request | None) -> str:
    return str(getattr(request, "session_hash", None) or "")


#: The Blocks being served (set by :func:`build_demo`): its upload route records the files
#: it received.
SERVED: list[gr.Blocks] = []

#: The file inputs, by element id: the API parameter and the field as messages name it.
FILE_FIELDS = {
    elem_id: (parameter, FILE_WORDS[parameter])
    for elem_id, parameter in (
        ("upload", "file"),
        ("file-a", "file_a"),
        ("file-b", "file_b"),
        ("audit-predictions", "predictions_file"),
        ("audit-references", "references_file"),
    )
}


def event_fields(fn_index: int | None, api_name: str) -> list[tuple[str, str] | None]:
    """Per input of the served event ``fn_index`` (or the endpoint ``api_name``): its file
    field, ``None`` for an input that is not a file (see :class:`space.server.UploadGate`)."""
    if not SERVED:
        return []
    fns = SERVED[-1].fns
    fn = fns.get(fn_index) if fn_index is not None else None
    if fn is None and api_name:
        fn = next((f for f in fns.values() if f.api_name == api_name), None)
    if fn is None:
        return []
    return [FILE_FIELDS.get(str(getattr(block, "elem_id", "") or "")) for block in fn.inputs]


def _received(paths: list[str]) -> None:
    """Tell the served Blocks of files the upload gate stored (as its own route would)."""
    if SERVED:
        SERVED[-1].upload_file_set.update(paths)


def uploaded(value: Any, what: str, session: str) -> str | None:
    """The path of a file argument if it is a file uploaded to this server that ``session``
    owns (see :mod:`space.uploads`), else a :class:`UserError`; no file stays ``None``.
    ``value``: the file's data as sent (events that skip the widgets' preprocessing) or its
    path."""
    path = value.get("path") if isinstance(value, dict) else value
    if path is None or path == "":
        return None
    checked = check_upload(
        path,
        what,
        folder=processing_utils.get_upload_folder(),
        is_uploaded=lambda p: SESSIONS.claim(p, session),
        content_hash=processing_utils.hash_file,
    )
    return str(checked)


@contextlib.contextmanager
def request_uploads(request: gr.Request | None) -> Iterator[Callable[[Any, str], str | None]]:
    """For one API request: a checker of its file arguments (as :func:`uploaded`) that also
    deletes every file it accepted when the request ends, scored or refused (an API caller
    has no page whose closing would delete them)."""
    session = _session(request)
    taken: list[str] = []

    def take(value: Any, what: str) -> str | None:
        path = uploaded(value, what, session)
        if path:
            taken.append(path)
        return path

    try:
        yield take
    finally:
        for path in taken:
            SESSIONS.release(session, path)


# --- One pair --------------------------------------------------------------------------------

PAIR_PLACEHOLDER = '<p class="placeholder">Scores appear here after <b>Score</b>.</p>'


def pair_page(*inputs: Any) -> tuple[str, str, str, str]:
    """The One pair tab (prediction, references, the options): message, score table,
    signature, explanation."""
    result, message = _guard("score", lambda: score_pair(*inputs))
    if result is None:
        return message, "", "", ""
    explanation = render.pair_explanation(result)
    return "", render.render_pair_scores(result), result.signature, explanation


# --- A batch ---------------------------------------------------------------------------------


def write_csv(result: BatchResult, session: str) -> Path:
    """All per-example scores with their texts, in this session's own folder; the copy the
    server makes to serve it is deleted with the session too."""
    path = SESSIONS.folder(session) / "rouge_per_example.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        write_scores_csv(handle, result.scores, result.predictions, result.references)
    # Gradio serves an output file from a copy in its cache, in a folder named by a hash of
    # the content: register that copy as well, so nothing of the visitor outlives the visit.
    cache = Path(processing_utils.get_upload_folder())
    SESSIONS.register(session, cache / processing_utils.hash_file(path) / path.name)
    return path


def _examples_state(result: BatchResult) -> dict[str, Any]:
    """What the per-example table, the histogram and its chooser need, kept per session."""
    return {
        "predictions": result.predictions,
        "references": result.references,
        "f": result.scores.fmeasure,
        "names": list(result.scores.rouge_types),
        "settings": result.settings,
        "view": ExamplesView(),
    }


#: The A batch tab's outputs after an error (the message first): every result emptied.
BATCH_CLEARED = ("", gr.update(choices=STANDARD_TYPES), "", gr.update(), "", None, "", None)


# Gradio fills a gr.Request only into a parameter before ``*inputs``: the request comes first.
def batch_page(request: gr.Request, *inputs: Any) -> tuple[Any, ...]:
    """The A batch tab: message, aggregate, histogram chooser, histogram, sort menu,
    per-example table, CSV, signature, and the session's state (for the histogram and the
    table's pages).  ``inputs``: the upload, the pasted rows, the options, the histogram's
    type."""
    *scoring_inputs, histogram_type = inputs

    def run() -> BatchResult:
        file = uploaded(scoring_inputs[0], "Upload", _session(request))
        return score_batch(file, *scoring_inputs[1:])

    result, message = _guard("score_batch", run)
    if result is None:
        return (message, *BATCH_CLEARED)
    names = result.scores.rouge_types
    chosen = histogram_type if histogram_type and histogram_type in names else names[0]
    state = _examples_state(result)
    table, _ = examples_page(
        result.predictions, result.references, state["f"], result.settings, state["view"]
    )
    note = f"{render.plural(len(result.predictions), 'pair')} scored."
    csv_path = write_csv(result, _session(request))
    sorts = sort_choices(names)
    return (
        message_html(note, "note"),
        render.render_aggregate(result),
        gr.update(choices=names, value=chosen),
        render.histogram_html(result.scores.column(chosen), chosen),
        gr.update(choices=sorts, value=sorts[0]),
        table,
        str(csv_path),
        result.signature,
        state,
    )


def histogram_page(histogram_type: str, state: dict[str, Any] | None) -> str:
    """Redraw the histogram from the last batch (kept in gr.State): no re-scoring."""
    if not state or histogram_type not in state["names"]:
        return ""
    column = state["f"][:, state["names"].index(histogram_type)]
    return render.histogram_html(column, histogram_type)


def _view_page(state: dict[str, Any] | None, view: ExamplesView) -> tuple[str, Any]:
    if not state:
        return "", state
    table, page = examples_page(
        state["predictions"], state["references"], state["f"], state["settings"], view
    )
    view.page = page
    return table, {**state, "view": view}


def examples_view(
    sort: str | None, query: str | None, state: dict[str, Any] | None
) -> tuple[str, Any]:
    """Another order or filter of the per-example table: back to its first page."""
    return _view_page(state, ExamplesView(sort or render.INPUT_ORDER, (query or "")[:200], 1))


def examples_step(step: int) -> Callable[..., tuple[str, Any]]:
    """The handler of the previous (-1) or next (+1) page button."""

    def turn(state: dict[str, Any] | None) -> tuple[str, Any]:
        if not state:
            return "", state
        view: ExamplesView = state["view"]
        return _view_page(state, ExamplesView(view.sort, view.query, view.page + step))

    return turn


def refused_upload(
    payload: str | None, cleared: tuple[Any, ...], lines: bool = False
) -> tuple[Any, ...]:
    """A file the page stopped before sending (see static/page.js): its reason in the tab's
    message area, the old results cleared.  ``lines``: a file of one text per line (any
    name), not a table."""
    try:
        data = json.loads(payload or "{}")
        what = str(data.get("what", "Upload"))[:40]
        name, size = str(data.get("name", "the file"))[:200], int(data.get("size", 0))
    except (ValueError, TypeError, AttributeError):
        what, name, size = "Upload", "the file", 0
    suffixes = None if lines else limits.UPLOAD_SUFFIXES
    reason = upload_problem(what, name, size, suffixes) or f"{what}: {name} could not be taken."
    return (message_html(reason), *cleared)


# --- Compare ---------------------------------------------------------------------------------


def compare_page(request: gr.Request, *inputs: Any) -> tuple[str, str, str]:
    """The Compare tab (two files, pasted rows, the options, the two names): message,
    comparison (with the largest differences), signature."""
    *scoring_inputs, name_a, name_b = inputs

    def run() -> ComparisonResult:
        session = _session(request)
        files = (
            uploaded(scoring_inputs[0], "System A file", session),
            uploaded(scoring_inputs[1], "System B file", session),
        )
        return compare_systems(*files, *scoring_inputs[2:], name_a=name_a, name_b=name_b)

    result, message = _guard("compare", run)
    if result is None:
        return message, "", ""
    return "", render.render_comparison(result), result.signature


# --- Reproduce a reported score ------------------------------------------------------------


def audit_page(request: gr.Request, *inputs: Any) -> tuple[str, str, str]:
    """The Reproduce tab (two files, pasted rows, the reported numbers, the sentence
    separator): message (the verdict), ranking, what to report instead."""

    def run() -> AuditResult:
        session = _session(request)
        files = (
            uploaded(inputs[0], "Predictions file", session),
            uploaded(inputs[1], "References file", session),
        )
        return audit_outputs(*files, *inputs[2:])

    result, message = _guard("audit", run)
    if result is None:
        return message, "", ""
    return (
        render.audit_verdict(result),
        render.render_audit(result),
        render.report_instead_text(result),
    )


def forget_session(request: gr.Request) -> None:
    """When a visitor leaves, their files go too."""
    session = _session(request)
    if session:
        SESSIONS.forget(session)


# --- API endpoints: JSON answers; a user error is a gr.Error with the same message ----------


def _api(call: Callable[[], Any]) -> dict[str, Any]:
    try:
        answer: dict[str, Any] = call().as_dict()
    except UserError as error:
        raise gr.Error(str(error), print_exception=False) from None
    return answer


def _named_options(
    rouge_types: list[str] | None,
    extra_types: str,
    tokenizer: str,
    stemmer: bool,
    lsum_split: str,
    beta: float,
    multi_ref: str,
    language: str | None,
) -> dict[str, Any]:
    """The API endpoints' option fields by the names of :class:`space.scoring.Options` (which
    builds the library's one options value from them); no types: the standard ones."""
    return {
        "rouge_types": STANDARD_TYPES if rouge_types is None else rouge_types,
        "extra_types": extra_types,
        "tokenizer": tokenizer,
        "stemmer": stemmer,
        "lsum_split": lsum_split,
        "beta": beta,
        "multi_ref": multi_ref,
        "language": language,
    }


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
    "stock_fmeasure", "signature"}``; several references are separated by a blank line."""
    options = _named_options(
        rouge_types, extra_types, tokenizer, stemmer, lsum_split, beta, multi_ref, language
    )
    return _api(lambda: score_pair(prediction, references, **options))


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
    request: gr.Request | None = None,
) -> dict[str, Any]:
    """Score a CSV/JSONL file or pasted ``prediction<TAB>reference`` rows."""
    options = _named_options(
        rouge_types, extra_types, tokenizer, stemmer, lsum_split, beta, multi_ref, language
    )
    with request_uploads(request) as take:
        return _api(lambda: score_batch(take(file, "Upload"), pasted, **options))


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
    name_a: str = "",
    name_b: str = "",
    request: gr.Request | None = None,
) -> dict[str, Any]:
    """Compare systems A and B (two files, or pasted ``A<TAB>B<TAB>reference`` rows); per type
    the keys of ``rouge-lcs compare --json``."""
    options = _named_options(
        rouge_types, extra_types, tokenizer, stemmer, lsum_split, beta, multi_ref, language
    )
    with request_uploads(request) as take:
        return _api(
            lambda: compare_systems(
                take(file_a, "System A file"),
                take(file_b, "System B file"),
                pasted,
                name_a=name_a,
                name_b=name_b,
                **options,
            )
        )


def audit_api(
    predictions_file: str | None = None,
    references_file: str | None = None,
    pasted: str = "",
    reported: str = "",
    sentence_separator: str = "",
    request: gr.Request | None = None,
) -> dict[str, Any]:
    """Which tool and settings reproduce ``reported`` (``"R1=44.16 R2=21.28 RL=40.90"``, the
    CLI's ``--reported``) on these outputs: two files of one text per line, or pasted
    ``prediction<TAB>reference`` rows; the keys of ``rouge-lcs audit --json`` plus
    ``report_instead`` and ``signature``."""
    with request_uploads(request) as take:
        return _api(
            lambda: audit_outputs(
                take(predictions_file, "Predictions file"),
                take(references_file, "References file"),
                pasted,
                reported,
                sentence_separator,
            )
        )


# --- the page --------------------------------------------------------------------------------


def _scroll(elem_id: str) -> str:
    return f"() => window.rougeScroll && window.rougeScroll({elem_id!r})"


def _options(prefix: str) -> list[Any]:
    """The scoring options (choices and defaults from :data:`rouge_lcs.config.options.OPTIONS`)."""
    with gr.Accordion("Options", open=False, elem_id=f"{prefix}-options"):
        types = gr.CheckboxGroup(
            TYPE_CHOICES, value=STANDARD_TYPES, label="ROUGE types", elem_id=f"{prefix}-types"
        )
        extra = gr.Textbox(
            value="",
            label=f"More types (up to {limits.MAX_TYPES} in all; rougeN with N ≤ {limits.MAX_N})",
            placeholder="e.g. rouge3, rougeW-1.5, rougeS*",
            elem_id=f"{prefix}-extra",
        )
        with gr.Row():
            tokenizer = gr.Dropdown(
                TOKENIZERS, value=DEFAULT_TOKENIZER, label="Tokenizer", min_width=140
            )
            stemmer = gr.Checkbox(
                value=DEFAULT_STEMMER,
                label=stemmer_label(""),
                min_width=140,
                elem_id=f"{prefix}-stemmer",
            )
            lsum_split = gr.Dropdown(
                SPLITS, value=DEFAULT_SPLIT, label="ROUGE-Lsum sentences", min_width=140
            )
        with gr.Row():
            # No minimum on the box: a bad β must reach the app, which names the field.
            beta = gr.Number(
                value=DEFAULT_BETA, label="β (F-measure)", min_width=140, elem_id=f"{prefix}-beta"
            )
            multi_ref = gr.Dropdown(
                MULTI_REF_MODES, value=DEFAULT_MULTI_REF, label="Several references", min_width=140
            )
            language = gr.Dropdown(
                LANGUAGE_CHOICES,
                value="",
                label="Language (tokens, stemmer, sentence ends)",
                min_width=140,
                elem_id=f"{prefix}-language",
            )
    # The box names the stemmer the chosen language really uses.
    language.change(lambda code: gr.update(label=stemmer_label(code)), language, stemmer, **PRIVATE)
    return [types, extra, tokenizer, stemmer, lsum_split, beta, multi_ref, language]


def _refusal(prefix: str) -> tuple[gr.Textbox, gr.Button]:
    """The hidden hand-off through which the page script reports a refused upload."""
    box = gr.Textbox(elem_id=f"{prefix}-refused", elem_classes="offscreen", show_label=False)
    button = gr.Button("refused", elem_id=f"{prefix}-refused-go", elem_classes="offscreen")
    return box, button


LIMITS = (
    f"Limits of this demo: {limits.MAX_TEXT_CHARS:,} characters per text, "
    f"{limits.MAX_REFERENCES} references, {limits.MAX_TYPES} types, {limits.MAX_SENTENCES} "
    f"sentences per text for ROUGE-Lsum, {limits.MAX_UPLOAD_BYTES // 2**20} MB per file "
    f"({', '.join(limits.UPLOAD_SUFFIXES)}), {limits.MAX_PAIRS:,} pairs, "
    f"{limits.TIME_BUDGET_S:.0f} s per request. The library and CLI have none of these."
)
PRIVATE: dict[str, Any] = {"api_visibility": "private"}
#: Events that take their inputs as sent, unprocessed by the widgets: the app checks every
#: value itself (a menu's value outside its choices would otherwise be refused by the widget,
#: which logs the caller's text with a traceback), and a file arrives as its data, without the
#: empty temporary file the file widget's preprocessing leaves in the cache on every call.
RAW: dict[str, Any] = {"preprocess": False}
PAIR_QUEUE: dict[str, Any] = {"concurrency_id": "pair", "concurrency_limit": 4}
HEAVY_QUEUE: dict[str, Any] = {"concurrency_id": "heavy", "concurrency_limit": 2}


#: The README, served by the Space itself (the one file it serves besides a visitor's own):
#: the page links it, and it needs no network.
README = Path(__file__).resolve().parent.parent / "README.md"
README_LINK = f"/gradio_api/file={README.name}"

INTRO = (
    "# ROUGE, explained\n"
    "ROUGE scores a generated text (the prediction) by what it shares with reference texts: "
    "**P** (precision) is the share of the prediction's words, n-grams (ROUGE-N) or longest "
    "common subsequence (ROUGE-L) found in the reference, **R** (recall) the share of the "
    "reference's found in the prediction, **F** their harmonic mean.\n\n"
    "ROUGE-N, ROUGE-L and ROUGE-Lsum with the tokens that counted highlighted. "
    "Unicode-aware (Korean, Chinese, Japanese score correctly), exact mean, same "
    "numbers as `rouge_score` with the `rouge_score` tokenizer — and, beside ours, "
    'what the stock `evaluate.load("rouge")` says. The library, its command line and '
    f"evaluate module: [the README]({README_LINK})."
)


def build_demo() -> gr.Blocks:
    """The Blocks of the Space: four tabs, their private events, the four API endpoints."""
    with gr.Blocks(
        title="ROUGE, explained",
        analytics_enabled=False,
        # Gradio's own cache (uploads, served CSVs) is swept hourly of files older than an
        # hour; a visitor's files go sooner, when the visitor leaves.
        delete_cache=(3600, 3600),
    ) as demo:
        gr.Markdown(INTRO, elem_id="intro")
        pair_inputs = _pair_tab()
        batch_inputs = _batch_tab()
        compare_inputs = _compare_tab()
        audit_inputs = _audit_tab()
        # The API: hidden triggers whose inputs are the widgets above (so every parameter has
        # the widget's initial value as its default, and uploads go through Gradio's checks).
        api_out = gr.JSON(visible=False)
        with gr.Row(visible=False):
            api_score = gr.Button("api score")
            api_batch = gr.Button("api score_batch")
            api_compare = gr.Button("api compare")
            api_audit = gr.Button("api audit")
        api_score.click(score_api, pair_inputs, api_out, api_name="score", **RAW, **PAIR_QUEUE)
        api_batch.click(
            score_batch_api, batch_inputs, api_out, api_name="score_batch", **RAW, **HEAVY_QUEUE
        )
        api_compare.click(
            compare_api, compare_inputs, api_out, api_name="compare", **RAW, **HEAVY_QUEUE
        )
        api_audit.click(audit_api, audit_inputs, api_out, api_name="audit", **RAW, **HEAVY_QUEUE)
        demo.unload(forget_session)
    # A bounded queue: a flood of requests is turned away instead of piling up.
    demo.queue(max_size=64, default_concurrency_limit=2)
    SERVED[:] = [demo]
    return demo


def _pair_tab() -> list[Any]:
    with gr.Tab("One pair", id="pair"), gr.Row(equal_height=False):
        with gr.Column(scale=1, min_width=320):
            prediction = gr.Textbox(label="Prediction", lines=4, value="", elem_id="prediction")
            references = gr.Textbox(
                label="Reference(s) — separate several references with a blank line; "
                "newlines inside one reference mark its sentences",
                lines=4,
                value="",
                elem_id="references",
            )
            options = _options("pair")
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
            message = gr.HTML(elem_id="pair-message")
            scores = gr.HTML(PAIR_PLACEHOLDER, elem_id="pair-scores")
            signature = gr.Textbox(
                label="Reproducibility (paste into your paper)",
                lines=3,
                elem_id="signature",
                interactive=False,
                buttons=["copy"],
            )
            explanation = gr.HTML(elem_id="explanation")
    inputs = [prediction, references, *options]
    outputs = [message, scores, signature, explanation]
    score_button.click(pair_page, inputs, outputs, **PRIVATE, **PAIR_QUEUE).then(
        None, js=_scroll("pair-results")
    )
    examples.click(load_example, examples, [prediction, references], **PRIVATE, **PAIR_QUEUE).then(
        pair_page, inputs, outputs, **PRIVATE, **PAIR_QUEUE
    ).then(None, js=_scroll("pair-results"))
    return inputs


def _batch_tab() -> list[Any]:
    with gr.Tab("A batch", id="batch"):
        with gr.Row(equal_height=False):
            with gr.Column(scale=1, min_width=320):
                gr.Markdown(
                    "Upload a **CSV** or **JSONL** with columns `prediction` and `reference` "
                    "(one text) or `references` (a list), or paste two columns (tab-separated, "
                    f"e.g. from a spreadsheet). {LIMITS}"
                )
                upload = gr.File(
                    label="CSV or JSONL", file_types=list(limits.UPLOAD_SUFFIXES), elem_id="upload"
                )
                pasted = gr.Textbox(
                    label="…or paste prediction<TAB>reference rows",
                    lines=5,
                    value="",
                    elem_id="pasted",
                )
                options = _options("batch")
                button = gr.Button("Score batch", variant="primary", elem_id="score-batch")
            with gr.Column(scale=1, min_width=320, elem_id="batch-results", elem_classes="results"):
                message = gr.HTML(elem_id="batch-message")
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
                signature = gr.Textbox(
                    label="Reproducibility signature",
                    elem_id="batch-signature",
                    interactive=False,
                    buttons=["copy"],
                )
        with gr.Column(elem_id="examples-area", elem_classes="results"):
            gr.Markdown("## Every example — find the worst ones")
            with gr.Row(equal_height=True):
                sort = gr.Dropdown(
                    [render.INPUT_ORDER],
                    value=render.INPUT_ORDER,
                    label="Sort by",
                    elem_id="examples-sort",
                    min_width=200,
                )
                query = gr.Textbox(
                    label="Only examples containing (press Enter)",
                    elem_id="examples-filter",
                    min_width=200,
                )
            previous, following = _pager("examples")
            per_example = gr.HTML(elem_id="per-example")
            # A phone shows the table as cards thousands of pixels long: a pager below it too.
            previous_below, following_below = _pager("examples-below")
        refused, refused_go = _refusal("batch")
    state = gr.State()
    inputs = [upload, pasted, *options]
    outputs = [
        message,
        aggregate,
        histogram_type,
        histogram,
        sort,
        per_example,
        download,
        signature,
        state,
    ]
    button.click(
        batch_page, [*inputs, histogram_type], outputs, **PRIVATE, **RAW, **HEAVY_QUEUE
    ).then(None, js=_scroll("batch-results"))
    refused_go.click(
        lambda payload: refused_upload(payload, BATCH_CLEARED), refused, outputs, **PRIVATE
    ).then(None, js=_scroll("batch-results"))
    histogram_type.input(histogram_page, [histogram_type, state], histogram, **PRIVATE)
    sort.input(examples_view, [sort, query, state], [per_example, state], **PRIVATE)
    query.submit(examples_view, [sort, query, state], [per_example, state], **PRIVATE)
    for button, step in (
        (previous, -1),
        (following, +1),
        (previous_below, -1),
        (following_below, +1),
    ):
        turned = button.click(examples_step(step), state, [per_example, state], **PRIVATE)
        if button in (previous_below, following_below):  # the new page starts in view
            turned.then(None, js=_scroll("per-example"))
    return inputs


def _pager(prefix: str) -> tuple[gr.Button, gr.Button]:
    """The per-example table's previous and next page buttons (``{prefix}-previous``,
    ``{prefix}-next``)."""
    with gr.Row(elem_classes="pager"):
        previous = gr.Button("← Previous page", elem_id=f"{prefix}-previous", min_width=150)
        following = gr.Button("Next page →", elem_id=f"{prefix}-next", min_width=150)
    return previous, following


def _compare_tab() -> list[Any]:
    with gr.Tab("Compare", id="compare"):
        # Inputs above, results below at full width: the comparison has eight columns.
        gr.Markdown(
            "## Compare two systems\n"
            "Two systems' outputs on the same examples: upload one file per system in the batch "
            "format (same rows, same references), or paste three columns "
            "`A<TAB>B<TAB>reference` (more reference columns may follow). Per type: both mean "
            "F, the difference B − A with its 95% CI, paired bootstrap and approximate "
            "randomization p-values, and on how many examples each system scores higher; then "
            f"the examples where they differ most. {LIMITS}"
        )
        with gr.Row(equal_height=False):
            file_a = gr.File(
                label="System A (CSV or JSONL)",
                file_types=list(limits.UPLOAD_SUFFIXES),
                elem_id="file-a",
                min_width=240,
            )
            file_b = gr.File(
                label="System B (CSV or JSONL)",
                file_types=list(limits.UPLOAD_SUFFIXES),
                elem_id="file-b",
                min_width=240,
            )
            pasted = gr.Textbox(
                label="…or paste A<TAB>B<TAB>reference rows",
                lines=5,
                value="",
                elem_id="compare-pasted",
                min_width=240,
            )
        with gr.Row():
            name_a = gr.Textbox(
                value="",
                label="Name of system A (default: its file's name, or A)",
                elem_id="name-a",
                min_width=200,
            )
            name_b = gr.Textbox(
                value="",
                label="Name of system B (default: its file's name, or B)",
                elem_id="name-b",
                min_width=200,
            )
        options = _options("compare")
        button = gr.Button("Compare", variant="primary", elem_id="compare")
        with gr.Column(elem_id="compare-results", elem_classes="results"):
            message = gr.HTML(elem_id="compare-message")
            comparison = gr.HTML(
                '<p class="placeholder">The comparison appears here after <b>Compare</b>.</p>',
                elem_id="comparison",
            )
            signature = gr.Textbox(
                label="Reproducibility signature",
                elem_id="compare-signature",
                interactive=False,
                buttons=["copy"],
            )
        refused, refused_go = _refusal("compare")
    inputs = [file_a, file_b, pasted, *options, name_a, name_b]
    outputs = [message, comparison, signature]
    button.click(compare_page, inputs, outputs, **PRIVATE, **RAW, **HEAVY_QUEUE).then(
        None, js=_scroll("compare-results")
    )
    refused_go.click(
        lambda payload: refused_upload(payload, ("", "")), refused, outputs, **PRIVATE
    ).then(None, js=_scroll("compare-results"))
    return inputs


#: The Reproduce tab's lead: what it answers, in one sentence; how, folded below it.
AUDIT_LEAD = (
    "## Reproduce a reported score\n"
    "Which package and settings give a paper's ROUGE numbers on its outputs? Give the outputs "
    "and the numbers; the answer is the first line of the results."
)

#: How the Reproduce tab works, in a disclosure under its lead (a visitor who knows reads
#: on to the fields).
AUDIT_HOW = (
    "Upload the predictions and the references (one text per line, line k of each the same "
    "example — as `rouge-lcs audit` reads them), or paste `prediction<TAB>reference` rows "
    "(more reference columns may follow), and type the numbers as the paper prints them "
    "(`R1=44.16 R2=21.28 RL=40.90`; any of R1, R2, RL, RLsum; percent or fractions; the "
    "decimals as written). Every known recipe — rouge-score, evaluate, datasets, pyrouge and "
    "files2rouge (the Perl script), torchmetrics, pltrdy's rouge, this library — is computed "
    "on your texts and ranked: those whose numbers round to the reported ones first (several "
    "tie when the data cannot tell them apart), then by distance. Without numbers, every "
    "recipe side by side. How each recipe is computed and its known defects: `docs/audit.md` "
    f"(linked from [the README]({README_LINK}))."
)


AUDIT_PLACEHOLDER = (
    '<p class="placeholder">The ranking appears here after <b>Find the recipe</b>.</p>'
)


def _audit_tab() -> list[Any]:
    with gr.Tab("Reproduce", id="reproduce"):
        gr.Markdown(
            f'{AUDIT_LEAD}\n\n<details id="audit-how"><summary>How it works, and the limits'
            f"</summary>\n\n{AUDIT_HOW}\n\n{LIMITS}\n\n</details>",
            elem_id="audit-intro",
        )
        with gr.Row(equal_height=False):
            predictions = gr.File(
                label="Predictions (one per line)", elem_id="audit-predictions", min_width=240
            )
            references = gr.File(
                label="References (one per line)", elem_id="audit-references", min_width=240
            )
            pasted = gr.Textbox(
                label="…or paste prediction<TAB>reference rows",
                lines=5,
                value="",
                elem_id="audit-pasted",
                min_width=240,
            )
        with gr.Row():
            reported = gr.Textbox(
                value="",
                label="Reported numbers (as the paper prints them)",
                placeholder="e.g. R1=44.16 R2=21.28 RL=40.90",
                elem_id="audit-reported",
                min_width=240,
            )
            separator = gr.Textbox(
                value="",
                label="Sentence-end marker inside a line (optional)",
                placeholder="e.g. <n>",
                elem_id="audit-separator",
                min_width=200,
            )
        button = gr.Button("Find the recipe", variant="primary", elem_id="audit")
        with gr.Column(elem_id="audit-results", elem_classes="results"):
            message = gr.HTML(elem_id="audit-message")
            ranking = gr.HTML(AUDIT_PLACEHOLDER, elem_id="audit-ranking")
            instead = gr.Textbox(
                label="Report instead: this library's numbers and their signature",
                lines=3,
                elem_id="audit-signature",
                interactive=False,
                buttons=["copy"],
            )
        refused, refused_go = _refusal("reproduce")
    inputs = [predictions, references, pasted, reported, separator]
    outputs = [message, ranking, instead]
    button.click(audit_page, inputs, outputs, **PRIVATE, **RAW, **HEAVY_QUEUE).then(
        None, js=_scroll("audit-results")
    )
    refused_go.click(
        lambda payload: refused_upload(payload, ("", ""), lines=True), refused, outputs, **PRIVATE
    ).then(None, js=_scroll("audit-results"))
    return inputs


def _theme() -> gr.themes.Base:
    # System fonts: the default theme fetches web fonts, which an offline machine cannot.
    system = ["ui-sans-serif", "system-ui", "sans-serif"]
    theme = gr.themes.Default(font=system, font_mono=["ui-monospace", "monospace"])
    # The stock orange fails WCAG AA contrast (white on #f97316 is 2.8:1, the selected tab's
    # orange text on white too): a darker orange (5.2:1 with white) in both schemes; the
    # selected tab's colour is in static/style.css.
    return theme.set(
        button_primary_background_fill="#c2410c",
        button_primary_background_fill_dark="#c2410c",
        button_primary_background_fill_hover="#9a3412",
        button_primary_background_fill_hover_dark="#9a3412",
        button_primary_text_color="#ffffff",
        button_primary_text_color_dark="#ffffff",
    )


def page_script() -> str:
    """static/page.js as the function Gradio runs on load, with the upload limits it checks."""
    config = {"maxBytes": limits.MAX_UPLOAD_BYTES, "suffixes": list(limits.UPLOAD_SUFFIXES)}
    body = (STATIC / "page.js").read_text("utf-8")
    return f"() => {{\nconst LIMITS = {json.dumps(config)};\n{body}\n}}"


def launch_options() -> dict[str, Any]:
    """``demo.launch`` arguments: the server refuses uploads over the limit before they land
    (``max_file_size``); run history is off (it would keep every result in the browser); the
    sessions whose state is kept are capped."""
    return {
        "server_name": os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"),
        "theme": _theme(),
        "css": (STATIC / "style.css").read_text("utf-8"),
        "js": page_script(),
        "max_file_size": limits.MAX_UPLOAD_BYTES,
        "run_history": False,
        # Each session's last batch (texts and per-example F, up to 5,000 pairs) is kept for
        # the histogram and the table's pages; cap how many sessions are remembered.
        "state_session_capacity": 500,
        "show_error": False,
        "allowed_paths": [str(README)],
        # Every upload owned from the moment it lands; every file an event names checked
        # before the framework reads it (space/server.py).
        "app_kwargs": {
            "middleware": [
                Middleware(UploadGate, sessions=SESSIONS, fields=event_fields, on_upload=_received)
            ]
        },
    }
