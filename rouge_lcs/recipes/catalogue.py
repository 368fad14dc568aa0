"""The known ways a ROUGE number is computed ("recipes"): package, version, options, defects.

Each recipe names the group of per-pair statistics it reads (:mod:`.numbers` computes each
group once and every recipe of the group is arithmetic on it) and how the corpus number is
made from the per-example values: the plain mean, or the interval where an unseeded
bootstrap's median falls.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Recipe", "recipes"]

ROUGE_SCORE = "https://github.com/google-research/google-research/tree/master/rouge"
EVALUATE_ROUGE = "https://huggingface.co/spaces/evaluate-metric/rouge"
PLTRDY = "https://github.com/pltrdy/rouge"
FILES2ROUGE = "https://github.com/pltrdy/files2rouge"
PYROUGE = "https://github.com/bheinzerling/pyrouge"
TORCHMETRICS = "https://lightning.ai/docs/torchmetrics/stable/text/rouge_score.html"
XLSUM = "https://github.com/csebuetnlp/xl-sum/tree/master/multilingual_rouge_scoring"
GRUSKY = "Grusky, 'Rogue Scores', ACL 2023"


@dataclass(frozen=True)
class Recipe:
    """One configuration.  ``group``: the statistics it reads (see :mod:`.numbers`);
    ``aggregate``: ``"mean"`` or ``"bootstrap_mid"`` (rouge_score's unseeded
    ``BootstrapAggregator``: the interval its median falls in); ``measure``: ``"fmeasure"`` or
    ``"recall"`` (``"precision"`` where a tool prints precision as recall)."""

    key: str
    package: str
    version: str
    options: dict[str, object]
    note: str
    source: str
    group: str
    aggregate: str = "mean"
    measure: str = "fmeasure"
    lsum_group: str | None = None  # a group whose rougeLsum replaces this group's
    extra: dict[str, object] = field(default_factory=dict)


def _rs_options(stem: bool, lsum: str, aggregate: str) -> dict[str, object]:
    return {
        "use_stemmer": stem,
        "tokenizer": "rouge_score (ASCII lowercase letters and digits)",
        "sentence_split": lsum,
        "aggregate": aggregate,
        "multi_ref": "best F per type",
    }


NEWLINES = "newlines in the text (none: ROUGE-Lsum = ROUGE-L)"
NLTK = "nltk.sent_tokenize, joined by newlines"
BOOTSTRAP_NOTE = (
    "BootstrapAggregator is unseeded: its mid moves from run to run (evaluate's Space: "
    "'non-deterministic when using the aggregator'); the interval its mid falls in is shown"
)


def _rouge_score_recipes() -> list[Recipe]:
    out = []
    for stem in (False, True):
        s = "stem" if stem else "nostem"
        group = f"rs_{s}"
        for lsum, lsum_group in ((NEWLINES, None), (NLTK, f"rs_nltk_{s}")):
            split = "nltk" if lsum_group else "newline"
            for aggregate in ("mean", "bootstrap_mid"):
                note = (
                    BOOTSTRAP_NOTE
                    if aggregate == "bootstrap_mid"
                    else "the plain mean of per-example F (scoring.py's aggregator not used)"
                )
                if lsum_group is None:
                    note += (
                        "; without newlines between sentences rougeLsum equals rougeL "
                        "(rouge_score's README: newlines separate sentences)"
                    )
                out.append(
                    Recipe(
                        key=f"rouge-score/{s}/{split}/{aggregate}",
                        package="rouge-score",
                        version="0.1.2",
                        options=_rs_options(stem, lsum, aggregate),
                        note=note,
                        source=ROUGE_SCORE,
                        group=group,
                        aggregate=aggregate,
                        lsum_group=lsum_group,
                    )
                )
    return out


def _evaluate_recipes() -> list[Recipe]:
    out = []
    for stem, split, aggregator in (
        (False, "newline", True),
        (False, "newline", False),
        (True, "newline", True),
        (True, "nltk", True),
    ):
        s = "stem" if stem else "nostem"
        options = _rs_options(stem, NLTK if split == "nltk" else NEWLINES, "")
        options.pop("aggregate")
        options["use_aggregator"] = aggregator
        if split == "nltk":
            options["recipe"] = "transformers' run_summarization.py postprocess_text"
        note = (
            BOOTSTRAP_NOTE
            if aggregator
            else "use_aggregator=False returns per-example lists; their plain mean"
        )
        out.append(
            Recipe(
                key=f"evaluate/{s}/{split}/{'aggregator' if aggregator else 'lists'}",
                package="evaluate",
                version="0.4",
                options=options,
                note=note,
                source=EVALUATE_ROUGE,
                group=f"rs_{s}",
                aggregate="bootstrap_mid" if aggregator else "mean",
                lsum_group=f"rs_nltk_{s}" if split == "nltk" else None,
            )
        )
    for stem in (False, True):
        s = "stem" if stem else "nostem"
        options = _rs_options(stem, NEWLINES, "BootstrapAggregator mid")
        out.append(
            Recipe(
                key=f"datasets/{s}/load_metric",
                package="datasets",
                version="<3.0 (load_metric)",
                options=options,
                note=(
                    "returns low/mid/high AggregateScores; papers report mid.fmeasure, an "
                    "unseeded bootstrap median; load_metric was removed in datasets 3.0"
                ),
                source="https://github.com/huggingface/datasets/blob/2.14.0/metrics/rouge/rouge.py",
                group=f"rs_{s}",
                aggregate="bootstrap_mid",
            )
        )
    return out


PERL_NOTE = (
    "the script keeps ASCII letters and digits only (non-English texts score near 0), prints 5 "
    "decimals and averages by a bootstrap over examples in order"
)


def _perl_recipes(multi_ref: bool) -> list[Recipe]:
    out = []
    pyrouge_defaults = "pyrouge defaults: -c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a"
    # (key, package, flags, sentences, note)
    flag_sets: list[tuple[str, str, dict[str, object], str, str]] = [
        ("pyrouge", "pyrouge", {}, "as given", pyrouge_defaults),
        ("pyrouge/-m", "pyrouge", {"stem": True}, "as given", f"{pyrouge_defaults} -m"),
        ("pyrouge/nltk", "pyrouge", {}, "nltk", f"{pyrouge_defaults}, nltk-split sentences"),
        ("pyrouge/nltk/-m", "pyrouge", {"stem": True}, "nltk", f"{pyrouge_defaults} -m, nltk"),
        ("files2rouge", "files2rouge", {}, "files2rouge", "files2rouge: -c 95 -r 1000 -n 2 -a"),
    ]
    for limit in ("-l 75", "-l 100", "-b 665"):
        flag, value = limit.split()
        name = "length_limit" if flag == "-l" else "byte_limit"
        for stem in (False, True):
            flags: dict[str, object] = {name: int(value)}
            if stem:
                flags["stem"] = True
            label = f"{limit}{' -m' if stem else ''}"
            out_note = f"DUC-style truncation {limit}{' with -m' if stem else ''}"
            flag_sets.append((f"perl/{label}", "pyrouge", flags, "as given", out_note))
    if multi_ref:
        flag_sets.append(
            ("pyrouge/-f B", "pyrouge", {"multi_ref": "B"}, "as given", "-f B: best reference")
        )
    for key, package, flags, split, note in flag_sets:
        group = "perl|" + key
        args = " ".join(
            {
                "stem": "-m",
                "length_limit": f"-l {flags.get('length_limit')}",
                "byte_limit": f"-b {flags.get('byte_limit')}",
                "multi_ref": f"-f {flags.get('multi_ref')}",
            }[k]
            for k in flags
        )
        measures = ["fmeasure", "recall"]
        for measure in measures:
            options: dict[str, object] = {
                "use_stemmer": bool(flags.get("stem")),
                "flags": args or "(none beyond the defaults)",
                "sentence_split": {
                    "as given": "newlines in the text (one sentence a line)",
                    "nltk": NLTK,
                    "files2rouge": "each line cut at ' . ' (files2rouge's --eos '.')",
                }[split],
                "measure": "recall (as DUC papers report)" if measure == "recall" else "F",
                "multi_ref": "-f " + str(flags.get("multi_ref", "A")),
            }
            full_note = f"{note}; {PERL_NOTE}"
            recipe_measure = measure
            if package == "files2rouge":
                full_note += (
                    "; files2rouge's main() passes (reference, summary) to run(summ_path, "
                    "ref_path): the printed recall is the summaries' precision (F unchanged)"
                )
                if measure == "recall":
                    recipe_measure = "precision"
            out.append(
                Recipe(
                    key=f"{key}/{'R' if measure == 'recall' else 'F'}",
                    package=package,
                    version="ROUGE-1.5.5",
                    options=options,
                    note=full_note,
                    source=FILES2ROUGE if package == "files2rouge" else PYROUGE,
                    group=group,
                    measure=recipe_measure,
                    extra={"flags": f"-n 2 {args}".strip(), "split": split},
                )
            )
    return out


def _other_recipes() -> list[Recipe]:
    out = []
    for stem in (False, True):
        s = "stem" if stem else "nostem"
        for accumulate in ("best", "avg"):
            out.append(
                Recipe(
                    key=f"torchmetrics/{s}/{accumulate}",
                    package="torchmetrics",
                    version="1.x",
                    options={
                        "use_stemmer": stem,
                        "normalizer": "re.sub(r'[^a-z0-9]+', ' ', text.lower())",
                        "sentence_split": "nltk.sent_tokenize only (a newline is a space)",
                        "accumulate": accumulate,
                    },
                    note=(
                        "ROUGE-Lsum needs NLTK's punkt download at run time; per-example "
                        "values are float32; accumulate='avg' averages P, R, F over references"
                    ),
                    source=TORCHMETRICS,
                    group=f"rs_{s}" if accumulate == "best" else f"rs_{s}_avg",
                    lsum_group=f"tm_nltk_{s}" if accumulate == "best" else f"tm_nltk_{s}_avg",
                )
            )
    out.append(
        Recipe(
            key="rouge/1.0.1",
            package="rouge",
            version="1.0.1",
            options={
                "use_stemmer": False,
                "tokenizer": "str.split(' '), case and punctuation kept",
                "sentence_split": "every '.'",
                "aggregate": "mean (get_scores(avg=True))",
                "multi_ref": "first reference only",
            },
            note=(
                "n-grams counted as sets; ROUGE-L a union of LCS words over distinct-word "
                "counts; a text ending in '. ' gets a phantom empty word; an empty text raises "
                "(pltrdy/rouge#57 'Rouge-l results changed significantly'; Grusky 2023)"
            ),
            source=PLTRDY,
            group="pltrdy",
        )
    )
    out.extend(_xlsum_recipes())
    out.append(
        Recipe(
            key="rouge-metric/PyRouge",
            package="rouge-metric",
            version="1.0.1",
            options={
                "use_stemmer": False,
                "tokenizer": "str.split(), case and punctuation kept",
                "sentence_split": "newlines (ROUGE-L is summary level)",
                "aggregate": "F of the mean P and the mean R (mode='average')",
                "multi_ref": "counts summed over references (multi_ref_mode='average')",
            },
            note=(
                "the corpus F is computed from the averaged P and R, not averaged "
                "(py_rouge.py _AverageRougeAggregator.average_score); no lowercasing: its "
                "README lowercases the texts first"
            ),
            source="https://github.com/li-plus/rouge-metric/blob/master/rouge_metric/py_rouge.py",
            group="rouge_metric",
            aggregate="f_of_means",
        )
    )
    out.extend(_sumeval_recipes())
    out.extend(_py_rouge_recipes())
    for stem in (False, True):
        s = "stem" if stem else "nostem"
        out.append(
            Recipe(
                key=f"rouge-lcs/{s}/defaults",
                package="rouge-lcs",
                version="0.2",
                options={
                    "use_stemmer": stem,
                    "tokenizer": "unicode",
                    "sentence_split": "auto (newlines if any, else Punkt)",
                    "aggregate": "mean",
                },
                note="this library's defaults: Unicode words, exact mean; report its signature",
                source="docs/audit.md",
                group=f"lcs_{s}",
            )
        )
    return out


SUMEVAL = "https://github.com/chakki-works/sumeval/blob/master/sumeval/metrics/rouge.py"


def _sumeval_recipes() -> list[Recipe]:
    out = []
    for stopwords, stem in ((True, False), (True, True), (False, False), (False, True)):
        key = (
            "defaults"
            if stopwords and not stem
            else "-".join(
                (["keep-stopwords"] if not stopwords else []) + (["stem"] if stem else [])
            )
        )
        note = (
            "stop words (ROUGE-1.5.5's SMART list) removed by default; ROUGE-L a plain LCS "
            "(no sentences); counts pooled over references; no rougeLsum"
        )
        if stem:
            note += (
                "; stemming=True stems the references only, by WordNet exceptions alone "
                "('axes' becomes 'ax axis', which nothing matches)"
            )
        options: dict[str, object] = {
            "use_stemmer": stem,
            "stopwords": "removed" if stopwords else "kept",
            "tokenizer": "ASCII letter and digit runs, lowercased",
            "sentence_split": "none (ROUGE-L on the whole text)",
            "aggregate": "mean (sumeval r prints statistics.mean)",
            "multi_ref": "counts pooled over references",
        }
        group = f"sumeval_{'stop' if stopwords else 'keep'}_{'stem' if stem else 'nostem'}"
        out.append(Recipe(f"sumeval/{key}", "sumeval", "0.2.2", options, note, SUMEVAL, group))
    return out


PY_ROUGE = "https://github.com/Diego999/py-rouge/blob/master/rouge/rouge.py"


def _py_rouge_recipes() -> list[Recipe]:
    out = []
    for limit, key, call in (
        ("665 bytes", "defaults", "Rouge(metrics=['rouge-n', 'rouge-l'], max_n=2)"),
        ("100 words", "100-words", "its README: length_limit=100, length_limit_type='words'"),
        ("none", "no-limit", "limit_length=False"),
    ):
        options: dict[str, object] = {
            "use_stemmer": True,
            "call": call,
            "length_limit": limit,
            "tokenizer": "lowercase, ASCII letters and digits, nltk.word_tokenize",
            "stemmer": "its WordNet table, else NLTK's Porter ORIGINAL_ALGORITHM",
            "sentence_split": "newlines (ROUGE-L summary level; rougeLsum = rougeL)",
            "aggregate": "mean (apply_avg=True)",
            "multi_ref": "counts pooled over references",
        }
        note = (
            "truncates to 665 characters by default (length_limit_type='bytes' counts "
            "characters); an n-gram count len - n + 1 can be negative; its ROUGE-L decrements "
            "the reference's count at the key ref_token_id (harmless); needs pkg_resources "
            "and NLTK's punkt download at run time"
        )
        group = f"py_rouge:{limit}"
        out.append(Recipe(f"py-rouge/{key}", "py-rouge", "1.1", options, note, PY_ROUGE, group))
    return out


def _xlsum_recipes() -> list[Recipe]:
    out = []
    for stem in (False, True):
        s = "porter" if stem else "nostem"
        for aggregate in ("mean", "bootstrap_mid"):
            note = (
                "ROUGE-1/2/L tokens cut by OpenNMT's aggressive mode ('440million' is 2 "
                "tokens), ROUGE-Lsum's not (rouge_scorer.py passes no tokenizer there); one "
                "reference (no score_multi)"
            )
            if stem:
                note += "; lang=None stems with Porter, lang='english' with Snowball (not this)"
            if aggregate == "bootstrap_mid":
                note = f"{BOOTSTRAP_NOTE}; {note}"
            out.append(
                Recipe(
                    key=f"multilingual-rouge/{s}/{aggregate}",
                    package="multilingual-rouge",
                    version="0.0.1",
                    options={
                        "use_stemmer": stem,
                        "lang": "None (Porter)" if stem else "None or 'english'",
                        "tokenizer": "BERT basic + pyonmttok aggressive, lowercase",
                        "sentence_split": NEWLINES,
                        "aggregate": aggregate,
                        "multi_ref": "first reference only",
                    },
                    note=note,
                    source=XLSUM,
                    group=f"xlsum_{'stem' if stem else 'nostem'}",
                    aggregate=aggregate,
                )
            )
    return out


def recipes(multi_ref: bool = False) -> list[Recipe]:
    """Every recipe, in the order they are listed without reported numbers."""
    return [
        *_rouge_score_recipes(),
        *_evaluate_recipes(),
        *_perl_recipes(multi_ref),
        *_other_recipes(),
    ]
