"""Results to HTML (no gradio): tables that turn into cards on a phone, the highlighted
explanation of a pair, the pages of the per-example table, the comparison.

Every text from the visitor goes through :func:`esc`; numbers have four decimals (p-values
the resolution their resamples allow).
"""

from __future__ import annotations

import html
import math
import time
from dataclasses import dataclass

import numpy as np

from rouge_lcs.config.settings import Settings
from rouge_lcs.scores.explain import CLIPPED, MATCHED, Explanation, explain_with
from rouge_lcs.scores.multiref import prf
from rouge_lcs.scores.results import Scores
from rouge_lcs.scores.scorer import Rouge
from space import limits
from space.auditing import AUDIT_TYPES, SHORT, AuditResult
from space.scoring import BatchResult, ComparisonResult, PairResult


def fmt(value: float) -> str:
    """A score as the page shows it: four decimals (``n/a`` if not a number)."""
    return f"{value:.4f}" if math.isfinite(value) else "n/a"


def fmt_p(p: float, resamples: int) -> str:
    """A resampled p-value at the resolution its resamples allow: ``(1 + k) / (1 + R)`` moves
    in steps of about ``1/R``, so 1,000 resamples give three decimals, and the smallest value
    reads ``< 0.001`` (the true p may be anything below it)."""
    decimals = max(1, math.ceil(math.log10(resamples)))
    step = 10.0**-decimals
    return f"< {step:.{decimals}f}" if p < step else f"{p:.{decimals}f}"


def esc(text: str) -> str:
    """HTML-escaped text."""
    return html.escape(text, quote=True)


def plural(count: int, singular: str, many: str | None = None) -> str:
    """``1 example``, ``2 examples`` (with the count, thousands separated)."""
    return f"{count:,} {singular if count == 1 else (many or singular + 's')}"


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


def _unit(unit: str, count: int) -> str:
    """The explanation's unit for ``count`` hits: "1 matched 1-gram", "3 matched 1-grams"."""
    if count != 1:
        return unit
    first, _, rest = unit.partition(" ")
    return " ".join(filter(None, [first.removesuffix("s"), rest]))


def render_explanation(item: Explanation) -> str:
    """One rouge type: the counts, the formula with numbers, both sides highlighted."""
    summary = (
        f"<b>{esc(item.rouge_type)}</b>: {item.hits} matched {esc(_unit(item.unit, item.hits))}; "
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


TEXT_COLUMNS = ("prediction", "references", "reference(s)")


def _table(
    headers: list[str],
    body: str,
    css_class: str,
    elem_id: str = "",
    caption: str = "",
    texts: tuple[str, ...] = TEXT_COLUMNS,
    scroll: str = "",
) -> str:
    """A responsive table: on a phone each row of a ``wide`` table becomes a card whose cells
    carry their header (``data-label``), so no number needs horizontal scrolling.  ``scroll``:
    the name of the horizontal scroll area the table sits in on a wider screen (none if empty)."""
    # Number columns' headers sit right, over their right-aligned numbers.
    head = "".join(
        f'<th scope="col">{esc(h)}</th>'
        if k == 0 or h in texts
        else f'<th scope="col" class="num">{esc(h)}</th>'
        for k, h in enumerate(headers)
    )
    ident = f' id="{elem_id}"' if elem_id else ""
    cap = f'<div class="caption">{esc(caption)}</div>' if caption else ""
    table = (
        f'<table class="rt {css_class}"{ident}><thead><tr>{head}</tr></thead>'
        f"{body if body.startswith('<tbody') else f'<tbody>{body}</tbody>'}</table>"
    )
    if scroll:
        # A table that may be wider than the page (long system names, many columns) scrolls
        # in its own area, which a keyboard can reach (tabindex) and a screen reader names;
        # the page itself never scrolls sideways.
        table = (
            f'<div class="table-scroll" role="region" tabindex="0" aria-label="{esc(scroll)}">'
            f"{table}</div>"
        )
    return cap + table


def _cells(labels: list[str], values: list[str], header: str) -> str:
    """A row whose first cell names it (a row header) and whose other cells are numbers."""
    tds = "".join(
        f'<td class="num" data-label="{esc(label)}">{value}</td>'
        for label, value in zip(labels, values)
    )
    return f'<th scope="row" data-label="type">{esc(header)}</th>{tds}'


def _pair_table(
    scores: Scores, settings: Settings, n_refs: int, elem_id: str = "", caption: bool = True
) -> str:
    """The P/R/F table of one pair with, under each type, where its numbers come from."""
    chosen = scores.chosen_references()[0]
    counts = scores.stats.counts
    rows = []
    labels = ["precision", "recall", "F"]
    for k, (name, score) in enumerate(scores.mean().items()):
        values = [fmt(score.precision), fmt(score.recall), fmt(score.fmeasure)]
        rows.append(
            f'<tr class="score-row" data-type="{esc(name)}">{_cells(labels, values, name)}</tr>'
        )
        how = trace(counts[:, k, :], int(chosen[k]), settings.multi_ref, n_refs, settings.beta)
        rows.append(
            f'<tr class="trace-row" data-type="{esc(name)}"><td colspan="4">{esc(how)}</td></tr>'
        )
    title = "Scores"
    if n_refs > 1:
        title += f" — {n_refs} references, each type from {MODE_WORDS[settings.multi_ref]}"
    if settings.beta != 1.0:
        title += f"; F with β = {settings.beta:g}"
    return _table(["type", *labels], "".join(rows), "scores", elem_id, title if caption else "")


WHY_STOCK_DIFFERS = (
    "Why they can differ: rouge_score keeps only ASCII letters and digits (Korean, Chinese, "
    "accented words vanish or split), cuts ROUGE-Lsum sentences at newlines only, knows no "
    "multi-reference mode but best F and no β, and evaluate's default aggregation reports the "
    "median of an unseeded bootstrap instead of the exact mean."
)


#: Runs of evaluate's unseeded bootstrap simulated to show where its printed median falls.
EVALUATE_RUNS = 10
#: Up to this many examples the resamples are drawn example by example; past it, from the
#: normal law their means follow (drawing 5,000 × 1,000 indices per run took seconds).
EXACT_UP_TO = 200


def evaluate_range(f: np.ndarray, runs: int = EVALUATE_RUNS, seed: int = 0) -> np.ndarray:
    """``(types, 2)``: the lowest and highest of ``runs`` simulated values of what
    ``evaluate.load("rouge")`` prints for per-example F ``f`` ``(examples, types)``: the median
    of the means of 1,000 resamples of the examples (rouge_score's BootstrapAggregator, unseeded,
    so each run prints another number near the exact mean)."""
    n = f.shape[0]
    rng = np.random.default_rng(seed)
    medians = []
    for _ in range(runs):
        if n <= EXACT_UP_TO:
            # Each resample draws n examples with replacement, as rouge_score's aggregator does.
            drawn = rng.integers(0, n, size=(limits.RESAMPLES, n))
            means = f[drawn].mean(axis=1)
        else:  # a resample's mean is then normal about the mean (central limit): draw it so
            scale = f.std(axis=0) / math.sqrt(n)
            means = f.mean(axis=0) + scale * rng.standard_normal((limits.RESAMPLES, f.shape[1]))
        medians.append(np.median(means, axis=0))
    stacked = np.array(medians)
    return np.stack([stacked.min(0), stacked.max(0)], axis=1)


def render_stock(ours: Scores, stock: Scores, batch: bool = False) -> str:
    """Our F beside the stock metric's (``evaluate.load("rouge")``) for the same input, with one
    line on why they differ.  The stock column is rouge_score's exact mean; evaluate prints
    an unseeded bootstrap median of it, whose range over runs is shown beside it."""
    rows = []
    labels = ["our F", "rouge_score's mean F"]
    if batch:
        labels.append("evaluate prints")
        spread = evaluate_range(stock.fmeasure)
    mine, theirs = ours.mean(), stock.mean()
    agree = True
    for k, (name, score) in enumerate(mine.items()):
        other = theirs[name].fmeasure
        agree = agree and math.isclose(score.fmeasure, other, abs_tol=5e-5)
        values = [fmt(score.fmeasure), fmt(other)]
        if batch:
            values.append(f"{fmt(float(spread[k, 0]))}–{fmt(float(spread[k, 1]))}")
        rows.append(f'<tr data-type="{esc(name)}">{_cells(labels, values, name)}</tr>')
    what = "mean F over the examples" if batch else "F"
    title = f'What the stock metric says: evaluate.load("rouge") ({what}, compat="rouge_score")'
    note = "Here they agree to four decimals. " + WHY_STOCK_DIFFERS if agree else WHY_STOCK_DIFFERS
    if batch:
        note += (
            ' The column "evaluate prints": where that median fell in '
            f"{EVALUATE_RUNS} simulated runs of evaluate's {limits.RESAMPLES:,}-resample "
            "bootstrap (each run prints another number)."
        )
    return (
        '<div class="stock">'
        + _table(
            ["type", *labels],
            "".join(rows),
            "scores wide stock-table",
            "batch-stock-table" if batch else "pair-stock-table",
            title,
        )
        + f'<p class="note">{esc(note)}</p></div>'
    )


def render_pair_scores(result: PairResult) -> str:
    """The One pair tab's results: the P/R/F table with its traces, the stock metric's F."""
    return _pair_table(
        result.scores, result.settings, len(result.references), "pair-scores-table"
    ) + render_stock(result.scores, result.stock)


def explanation_for(
    prediction: str,
    references: list[str],
    settings: Settings,
    chosen: np.ndarray,
    deadline: float,
    budget_chars: int | None = None,
    level: int = 2,
) -> str:
    """Highlighted tokens per reference and type, within a size and time budget; references
    past the budget are named, not drawn (their scores are complete).  ``level``: the heading
    level of each reference's title (one below the heading it sits under, so screen readers'
    outline of the page has no gap)."""
    budget = limits.MAX_EXPLANATION_CHARS if budget_chars is None else budget_chars
    parts = [LEGEND]
    size = len(LEGEND)
    n_refs = len(references)
    for k, reference in enumerate(references):
        if k and (size > budget or time.monotonic() > deadline):
            rest = f"{k + 1}–{n_refs}" if k + 1 < n_refs else f"{k + 1}"
            parts.append(
                '<p class="note">'
                f"Reference {rest}: not drawn (this demo's explanation budget of "
                f"{budget // 1000:,} kB / {limits.EXPLAIN_BUDGET_S:.0f} s is spent); "
                "their scores are complete.</p>"
            )
            break
        used = [name for t, name in enumerate(settings.names) if chosen[t] == k]
        title = f"Reference {k + 1} of {n_refs}" if n_refs > 1 else "Reference"
        if n_refs > 1 and chosen.max() >= 0:
            title += f" — used for {', '.join(used)}" if used else " — not used by any type"
        block = f"<h{level}>{esc(title)}</h{level}>" + "".join(
            render_explanation(item) for item in explain_with(prediction, reference, settings)
        )
        if k == 0 and len(block) > budget:
            block = (
                f"<h{level}>{esc(title)}</h{level}><p class='note'>The highlighted texts "
                f"would take {len(block) // 1000:,} kB, more than this demo draws; the scores are "
                "complete.</p>"
            )
        parts.append(block)
        size += len(block)
    return "".join(parts)


def pair_explanation(result: PairResult) -> str:
    """The One pair tab's explanation, within its budget."""
    return explanation_for(
        result.prediction,
        result.references,
        result.settings,
        result.scores.chosen_references()[0],
        time.monotonic() + limits.EXPLAIN_BUDGET_S,
    )


def histogram_html(values: np.ndarray, name: str, bins: int | None = None) -> str:
    """Per-example F in equal-width bins over [0, 1], as horizontal bars: labels never overlap,
    whatever the width of the screen."""
    bins = bins or limits.HISTOGRAM_BINS
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
    return esc(text if len(text) <= limits.SHOWN_CHARS else text[: limits.SHOWN_CHARS] + "…")


def _refs_html(refs: list[str]) -> str:
    if len(refs) == 1:
        return _short(refs[0])
    return "<ol>" + "".join(f"<li>{_short(r)}</li>" for r in refs) + "</ol>"


def render_aggregate(result: BatchResult) -> str:
    """Mean P/R/F over examples with the bootstrap CI of F, and the stock metric's mean F."""
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
        f"Mean over {plural(n, 'example')} of each example's P, R and F "
        f"(several references: {MODE_WORDS[mode]}); 95% CI: percentile bootstrap, "
        f"{limits.RESAMPLES:,} resamples, seed {limits.SEED}"
    )
    return _table(
        ["type", *labels], "".join(rows), "scores wide", "aggregate-table", caption
    ) + render_stock(result.scores, result.stock, batch=True)


# --- the per-example table: sorted, filtered, paged; each row opens its explanation ---------

INPUT_ORDER = "input order"


def sort_choices(names: list[str]) -> list[str]:
    """The sort menu: input order, then each type's F lowest first (the worst examples), then
    highest first."""
    return (
        [INPUT_ORDER]
        + [f"{n} F, lowest first" for n in names]
        + [f"{n} F, highest first" for n in names]
    )


@dataclass
class ExamplesView:
    """One page of the per-example table, as chosen by the visitor."""

    sort: str = INPUT_ORDER
    query: str = ""
    page: int = 1


def select_rows(
    predictions: list[str],
    references: list[list[str]],
    f: np.ndarray,
    names: list[str],
    view: ExamplesView,
) -> list[int]:
    """The examples' indices in the chosen order, keeping those whose prediction or a
    reference contains the query (case-insensitive)."""
    order = list(range(len(predictions)))
    query = view.query.strip().casefold()
    if query:
        order = [
            e
            for e in order
            if query in predictions[e].casefold()
            or any(query in r.casefold() for r in references[e])
        ]
    for k, name in enumerate(names):
        if view.sort.startswith(f"{name} F, "):
            sign = 1.0 if view.sort.endswith("lowest first") else -1.0
            # A stable sort: equal F keep their input order.
            order.sort(key=lambda e: sign * float(f[e, k]))
            break
    return order


def examples_page(
    predictions: list[str],
    references: list[list[str]],
    f: np.ndarray,
    settings: Settings,
    view: ExamplesView,
) -> tuple[str, int]:
    """One page of the per-example table and the page number it shows (clamped to the pages
    there are).  Each example's row is followed by a disclosure that opens, in place, the
    pair's scores with their traces and its highlighted explanation."""
    names = list(settings.names)
    order = select_rows(predictions, references, f, names, view)
    size = limits.PAGE_ROWS
    pages = max(1, math.ceil(len(order) / size))
    page = min(max(1, view.page), pages)
    shown = order[(page - 1) * size : page * size]
    scorer = Rouge.from_settings(settings)
    deadline = time.monotonic() + limits.EXPLAIN_BUDGET_S
    bodies = []
    columns = 3 + len(names)
    for e in shown:
        cells = "".join(
            f'<td class="num" data-label="{esc(n)} F">{fmt(float(f[e, k]))}</td>'
            for k, n in enumerate(names)
        )
        scores = scorer.score([predictions[e]], [references[e]])
        details = _pair_table(scores, settings, len(references[e]), caption=False)
        details += explanation_for(
            predictions[e],
            references[e],
            settings,
            scores.chosen_references()[0],
            deadline,
            limits.MAX_EXPLANATION_CHARS // size,
            level=3,
        )
        bodies.append(
            f'<tbody class="example" data-index="{e + 1}"><tr>'
            f'<th scope="row" data-label="#">{e + 1}</th>{cells}'
            f'<td class="text" data-label="prediction">{_short(predictions[e])}</td>'
            f'<td class="text" data-label="references">{_refs_html(references[e])}</td></tr>'
            f'<tr class="explain-row"><td colspan="{columns}"><details>'
            f"<summary>How example {e + 1} was scored</summary>{details}</details></td></tr>"
            "</tbody>"
        )
    total = len(predictions)
    if not order:
        status = f"No example of {plural(total, 'example')} contains “{view.query.strip()}”."
    else:
        first, last = (page - 1) * size + 1, (page - 1) * size + len(shown)
        kept = (
            f" ({plural(len(order), 'example')} of {total:,} "
            f"{'contains' if len(order) == 1 else 'contain'} “{view.query.strip()}”)"
            if view.query.strip()
            else ""
        )
        status = f"Page {page} of {pages}: examples {first}–{last} of {len(order):,}{kept}."
    table = (
        _table(
            ["#", *(f"{n} F" for n in names), "prediction", "references"],
            "".join(bodies),
            "examples wide",
            "examples-table",
        )
        if shown
        else ""
    )
    return f'<p class="note" id="examples-status" role="status">{esc(status)}</p>' + table, page


# --- the comparison -------------------------------------------------------------------------


def _small_n_note(n: int) -> str:
    if n >= limits.MIN_PAIRS_FOR_TEST:
        return ""
    if n == 1:
        return (
            "Only 1 example: one difference has no spread to test it against, so no p-value "
            f"is shown (a resampled one would be meaningless). Compare more examples (below "
            f"{limits.MIN_PAIRS_FOR_TEST} these tests have little power)."
        )
    smallest = 2.0 ** (1 - n)
    return (
        f"Only {plural(n, 'example')}: below {limits.MIN_PAIRS_FOR_TEST} examples these tests "
        f"have little power and their p-values are not evidence. Swapping the systems' scores "
        f"of {plural(n, 'example')} gives {2**n:,} patterns, so randomization's exact p cannot "
        f"be below {smallest:.4g} (the value shown is estimated from random swaps, so it can "
        f"fall a little under); the bootstrap resamples the same few examples, which makes its "
        "spread — and its p — far too small. Compare more examples."
    )


def difference_label(systems: tuple[str, str]) -> str:
    """The difference of the systems as the page names it: "B − A", or "new − old" when the
    systems are named."""
    name_a, name_b = systems
    return f"{name_b} − {name_a}"


def render_comparison(result: ComparisonResult) -> str:
    """Per type: both means, B − A with its CI, the two p-values, per-example wins/ties/losses;
    then the examples where the systems differ most.  Columns name the systems."""
    c = result.comparison
    name_a, name_b = result.systems
    difference = difference_label(result.systems)
    labels = [
        f"mean F of {name_a}",
        f"mean F of {name_b}",
        difference,
        f"95% CI of {difference}",
        "p (bootstrap)",
        "p (randomization)",
        f"{name_b} higher · tie · {name_a} higher",
    ]
    rows = []
    outcomes = result.outcomes()
    for k, name in enumerate(result.names):
        wins, ties, losses = (int(x) for x in outcomes[k])
        values = [
            fmt(c.mean_a[k]),
            fmt(c.mean_b[k]),
            f"{c.difference[k]:+.4f}",
            f"[{c.low[k]:+.4f}, {c.high[k]:+.4f}]",
            # One example has no spread to test against: no p-value, not a tiny one.
            fmt_p(float(c.p_bootstrap[k]), limits.RESAMPLES) if result.pairs > 1 else "n/a",
            fmt_p(float(c.p_randomization[k]), limits.RESAMPLES) if result.pairs > 1 else "n/a",
            f"{wins:,} · {ties:,} · {losses:,}",
        ]
        rows.append(f'<tr data-type="{esc(name)}">{_cells(labels, values, name)}</tr>')
    n = result.pairs
    caption = (
        ("" if (name_a, name_b) == ("A", "B") else f"A: {name_a}, B: {name_b}; ")
        + f"{plural(n, 'example')}, the same references for both "
        f"systems; {difference} > 0 means {name_b} scores higher. CI: paired bootstrap "
        f"({limits.RESAMPLES:,} resamples, seed {limits.SEED}); p-values: paired bootstrap and "
        "approximate randomization, two-sided"
    )
    caption += (
        "."
        if n < limits.MIN_PAIRS_FOR_TEST
        else " — below 0.05, a difference this large is unlikely if the systems were equally good."
    )
    warning = _small_n_note(n)
    out = (
        f'<div class="msg msg-warn" role="note" id="small-n">{esc(warning)}</div>'
        if warning
        else ""
    )
    out += _table(
        ["type", *labels],
        "".join(rows),
        "scores wide compare",
        "compare-table",
        caption,
        scroll="Comparison",
    )
    return out + render_largest_differences(result)


def _system_details(
    result: ComparisonResult, e: int, scorer: Rouge, deadline: float, budget: int
) -> str:
    """Example ``e`` opened: each system's output with its scores (and their traces) and its
    highlighted tokens against the reference(s), one system after the other."""
    parts = []
    references = result.references[e]
    for name, predictions in zip(result.systems, result.predictions):
        scores = scorer.score([predictions[e]], [references])
        parts.append(
            f"<h3>{esc(name)}</h3>"
            + _pair_table(scores, result.settings, len(references), caption=False)
            + explanation_for(
                predictions[e],
                references,
                result.settings,
                scores.chosen_references()[0],
                deadline,
                budget,
                level=4,
            )
        )
    return "".join(parts)


def render_largest_differences(result: ComparisonResult) -> str:
    """The examples where the two systems' F differ most (rougeL's, else the first type's);
    each row opens, in place, both systems' outputs scored and highlighted against the
    reference(s), as a row of the batch's per-example table does."""
    names = result.names
    k = names.index("rougeL") if "rougeL" in names else 0
    diff = result.f_b[:, k] - result.f_a[:, k]
    # Largest |B − A| first; a stable sort keeps input order among equals.
    order = sorted(range(len(diff)), key=lambda e: -abs(float(diff[e])))
    order = [e for e in order if diff[e] != 0][: limits.LARGEST_DIFFERENCES]
    name_a, name_b = result.systems
    difference = difference_label(result.systems)
    if not order:
        return (
            f'<p class="note">The two systems have the same {esc(names[k])} F on every example.</p>'
        )
    preds_a, preds_b = result.predictions
    scorer = Rouge.from_settings(result.settings)
    deadline = time.monotonic() + limits.EXPLAIN_BUDGET_S
    # Two systems per row: each gets half of a row's share of the explanation budget.
    budget = limits.MAX_EXPLANATION_CHARS // (2 * limits.LARGEST_DIFFERENCES)
    bodies = [
        f'<tbody class="example" data-index="{e + 1}"><tr>'
        f'<th scope="row" data-label="#">{e + 1}</th>'
        f'<td class="num" data-label="{esc(name_a)} F">{fmt(float(result.f_a[e, k]))}</td>'
        f'<td class="num" data-label="{esc(name_b)} F">{fmt(float(result.f_b[e, k]))}</td>'
        f'<td class="num" data-label="{esc(difference)}">{float(diff[e]):+.4f}</td>'
        f'<td class="text" data-label="{esc(name_a)}">{_short(preds_a[e])}</td>'
        f'<td class="text" data-label="{esc(name_b)}">{_short(preds_b[e])}</td>'
        f'<td class="text" data-label="references">{_refs_html(result.references[e])}</td></tr>'
        f'<tr class="explain-row"><td colspan="7"><details>'
        f"<summary>How example {e + 1} was scored for {esc(name_a)} and {esc(name_b)}</summary>"
        f"{_system_details(result, e, scorer, deadline, budget)}</details></td></tr></tbody>"
        for e in order
    ]
    caption = (
        f"Where the systems differ most: the {plural(len(order), 'example')} with the largest "
        f"|{difference}| of {names[k]} F; open a row to see both outputs scored against the "
        "reference"
    )
    headers = ["#", f"{name_a} F", f"{name_b} F", difference, name_a, name_b, "references"]
    texts = (name_a, name_b, "references")
    return _table(
        headers,
        "".join(bodies),
        "examples wide compare",
        "differences-table",
        caption,
        texts,
        scroll="Where the systems differ most",
    )


# --- Reproduce a reported score ---------------------------------------------------------------


def _audit_number(value: float | None, interval: list[float] | None, digits: int) -> str:
    if interval is not None:
        return f"{interval[0]:.{digits}f}–{interval[1]:.{digits}f}"
    return "n/a" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def _option_words(options: dict[str, object]) -> str:
    words = []
    for key, value in options.items():
        shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
        words.append(f"{key.replace('_', ' ')}: {shown}")
    return " · ".join(words)


def _breakable(key: str) -> str:
    """A recipe's name that may break after its slashes (and nowhere else)."""
    return "/<wbr>".join(esc(part) for part in key.split("/"))


def _source_html(source: str) -> str:
    if source.startswith("https://"):
        return f'<a href="{esc(source)}" target="_blank" rel="noopener noreferrer">source</a>'
    return f"source: {esc(source)}"


def _audit_rows(result: AuditResult, candidates: list[dict], types: list[str], digits: int) -> str:
    reported = result.audit["reported"] is not None
    labels = [SHORT[t] for t in types] + (["distance", "matches"] if reported else [])
    columns = 3 + len(labels)
    rows = []
    for c in candidates:
        intervals = c.get("intervals") or {}
        values = [
            _audit_number(c["numbers"].get(t), intervals.get(t), digits)
            if not c.get("error")
            else "n/a"
            for t in types
        ]
        if reported:
            distance = c.get("distance")
            values.append("n/a" if distance is None else f"{distance:.{digits}f}")
            values.append("yes" if c.get("matches") else "no")
        rank = "" if c.get("rank") is None else f"{c['rank']}{'=' if c.get('tied') else ''}"
        tds = "".join(
            f'<td class="num" data-label="{esc(label)}">{esc(value)}</td>'
            for label, value in zip(labels, values)
        )
        matched = " match" if c.get("matches") else ""
        rows.append(
            f'<tr class="candidate{matched}" data-key="{esc(c["key"])}">'
            f'<td class="num" data-label="rank">{esc(rank)}</td>'
            f'<th scope="row" data-label="package">{esc(c["package"])} {esc(c["version"])}</th>'
            f'<td class="text recipe" data-label="recipe">{_breakable(c["key"])}</td>{tds}</tr>'
        )
        error = f" Could not score: {esc(c['error'])}." if c.get("error") else ""
        rows.append(
            f'<tr class="explain-row note-row" data-key="{esc(c["key"])}">'
            f'<td colspan="{columns}"><div class="options">{esc(_option_words(c["options"]))}'
            f'</div><div class="note">{esc(c["note"])} ({_source_html(c["source"])}).{error}'
            "</div></td></tr>"
        )
    return "".join(rows)


def render_audit(result: AuditResult) -> str:
    """The ranking: the reported numbers, then the candidates best first (rank, package and
    version, recipe, its numbers in the reported units — an unseeded bootstrap as the interval
    its median falls in — distance and whether it matches), each with its options and its
    note; past the first ten, the others behind a disclosure.  Without reported numbers, every
    recipe side by side."""
    audit = result.audit
    reported = audit["reported"]
    types = [t for t in AUDIT_TYPES if reported is None or t in reported]
    digits = 2 if audit["units"] == "percent" else 4
    if audit.get("decimals") is not None:
        digits = max(digits, int(audit["decimals"]) + 1)
    labels = [SHORT[t] for t in types] + (["distance", "matches"] if reported else [])
    headers = ["rank", "package", "recipe", *labels]
    candidates = result.candidates
    unit = "percent" if audit["units"] == "percent" else "fractions"
    if reported is None:
        caption = (
            f"Every recipe's numbers on these {plural(result.n_examples, 'example')} ({unit}): "
            "how much the number moves with the tool and its settings."
        )
        shown, rest = candidates, []
    else:
        decimals = int(audit["decimals"])
        typed = " ".join(f"{SHORT[t]}={reported[t]:.{decimals}f}" for t in types)
        caption = (
            f"Reported: {typed} ({unit}, {decimals} decimals) on "
            f"{plural(result.n_examples, 'example')}. A recipe matches when each of its numbers "
            "rounds to the reported one; recipes that match tie at rank 1 (1=). Distance: the "
            "largest difference from a reported number."
        )
        shown = candidates[: limits.AUDIT_ROWS_SHOWN]
        rest = candidates[limits.AUDIT_ROWS_SHOWN :]
    out = _table(
        headers,
        _audit_rows(result, shown, types, digits),
        "scores wide audit",
        "audit-table",
        caption,
        texts=("package", "recipe"),
    )
    if rest:
        out += (
            f'<details id="audit-rest"><summary>The other {plural(len(rest), "recipe")}'
            "</summary>"
            + _table(
                headers,
                _audit_rows(result, rest, types, digits),
                "scores wide audit",
                "audit-rest-table",
                texts=("package", "recipe"),
            )
            + "</details>"
        )
    return out


def audit_verdict(result: AuditResult) -> str:
    """The library's verdict in the tab's message area: a note when some recipe reproduces
    the numbers (ties said as ties), a warning when none does (with the nearest)."""
    verdict = str(result.audit["verdict"])
    if result.audit["reported"] is None:
        return message_html(
            f"No reported numbers typed: {verdict}. Type the paper's numbers to rank them.",
            "note",
        )
    if result.reproduced:
        return message_html(verdict[:1].upper() + verdict[1:] + ".", "note")
    return message_html(verdict[:1].upper() + verdict[1:] + ".", "warn")


def report_instead_text(result: AuditResult) -> str:
    """What to report instead of a bare number: this library's numbers (the best candidate's
    stemming) and their signature."""
    instead = result.instead
    unit = "" if instead["units"] == "fraction" else " (percent)"
    numbers = ", ".join(
        f"{SHORT[t]} = {v:.2f}" if instead["units"] == "percent" else f"{SHORT[t]} = {v:.4f}"
        for t, v in instead["numbers"].items()
    )
    stem = "with" if instead["use_stemmer"] else "without"
    return f"{numbers}{unit}, rouge_lcs defaults {stem} the stemmer\n{result.signature}"
