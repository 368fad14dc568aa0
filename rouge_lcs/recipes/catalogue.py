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


#: Tools that run the same code underneath: their numbers differ only by options a paper
#: rarely prints (the family's name -> its packages).
FAMILIES = {
    "ROUGE-1.5.5": ("ROUGE-1.5.5", "pyrouge", "files2rouge", "py-rouge"),
    "rouge_score": ("rouge-score", "evaluate", "datasets", "torchmetrics"),
}
FAMILY_OF = {package: name for name, packages in FAMILIES.items() for package in packages}


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
    #: The recipe in plain words ("rouge_score, stemmer on, plain mean of per-example F").
    plain: str = ""
    #: Recipes whose numbers differ only where these tools differ (see ``FAMILIES``).
    family: str = ""

    def __post_init__(self) -> None:
        if not self.family:
            object.__setattr__(self, "family", FAMILY_OF.get(self.package, self.package))
        if not self.plain:
            object.__setattr__(self, "plain", f"{self.package} [{self.key}]")


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
                        plain=_rs_plain("rouge_score", stem, aggregate, split),
                    )
                )
    return out


def _rs_plain(tool: str, stem: bool, aggregate: str, split: str) -> str:
    how = (
        "plain mean of per-example F"
        if aggregate == "mean"
        else "unseeded BootstrapAggregator mid (moves from run to run)"
    )
    lsum = ", ROUGE-Lsum on nltk sentences" if split == "nltk" else ""
    return f"{tool}, stemmer {'on' if stem else 'off'}{lsum}, {how}"


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
                plain=_rs_plain(
                    "evaluate's rouge (rouge_score)",
                    stem,
                    "bootstrap_mid" if aggregator else "mean",
                    split,
                ),
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
                plain=_rs_plain(
                    "datasets.load_metric('rouge') (rouge_score)", stem, "bootstrap_mid", ""
                ),
            )
        )
    return out


PERL_NOTE = (
    "the script keeps ASCII letters and digits only (non-English texts score near 0), prints 5 "
    "decimals and averages by a bootstrap over examples in order"
)
PYROUGE_SOURCE = (
    "pyrouge 0.1.3 (PyPI) pyrouge/Rouge155.py: __add_config_option returns "
    "options + ['-m'] + [config], for the defaults and for any rouge_args"
)
PLTRDY_PYROUGE = "https://github.com/pltrdy/pyrouge/blob/master/pyrouge/Rouge155.py"
REALSUMM = "https://github.com/neulab/REALSumm/blob/master/scoring/scorer.py"
PYROUGE_FLAGS = "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a"
FILES2ROUGE_FLAGS = "-c 95 -r 1000 -n 2 -a"

#: (key, package, stem, sentences, aggregate, note, source, measures)
_FlagSet = tuple[str, str, bool, str, str, str, str, tuple[str, ...]]


def _perl_flag_sets(multi_ref: bool) -> list[_FlagSet]:
    both = ("fmeasure", "recall")
    sets: list[_FlagSet] = [
        (
            "pyrouge",
            "pyrouge",
            True,
            "as given",
            "printed",
            f"pyrouge.Rouge155() (0.1.3 and master): {PYROUGE_FLAGS} -m; pyrouge always adds "
            "-m (Porter stemmer), also after rouge_args",
            PYROUGE,
            both,
        ),
        (
            "pyrouge/nltk",
            "pyrouge",
            True,
            "nltk",
            "printed",
            f"pyrouge.Rouge155() on nltk-split sentences: {PYROUGE_FLAGS} -m",
            PYROUGE,
            both,
        ),
        (
            "perl",
            "ROUGE-1.5.5",
            False,
            "as given",
            "printed",
            f"the script called directly ({PYROUGE_FLAGS}; -n 2 prints the same R1, R2, RL), or "
            "pltrdy's pyrouge fork with stemming=False: no -m",
            PLTRDY_PYROUGE,
            both,
        ),
        (
            "perl/nltk",
            "ROUGE-1.5.5",
            False,
            "nltk",
            "printed",
            "the script called directly on nltk-split sentences, no -m",
            PLTRDY_PYROUGE,
            both,
        ),
        (
            "files2rouge",
            "files2rouge",
            True,
            "files2rouge",
            "printed",
            f"files2rouge since July 2020: {FILES2ROUGE_FLAGS} -m (stemming is its default; "
            "-nm turns it off), lines cut at ' . '",
            FILES2ROUGE,
            both,
        ),
        (
            "files2rouge/-nm",
            "files2rouge",
            False,
            "files2rouge",
            "printed",
            f"files2rouge -nm (no stemming): {FILES2ROUGE_FLAGS}, lines cut at ' . '",
            FILES2ROUGE,
            both,
        ),
        (
            "files2rouge/2018-2020",
            "files2rouge",
            False,
            "files2rouge",
            "printed",
            f"files2rouge from January 2018 to July 2020: {FILES2ROUGE_FLAGS} without -m; its "
            "main() passed (reference, summary) to run(summ_path, ref_path) (fixed in July 2020, "
            "commit c3a61d3): the printed recall is the summaries' precision; its F is "
            "files2rouge/-nm's",
            FILES2ROUGE,
            ("precision",),
        ),
    ]
    sets.append(
        ("pyrouge/-d/mean", "pyrouge", True, "as given", "per_example_mean",
         "pyrouge with rouge_args '-c 95 -n 2 -a -r 1000 -m -d' (REALSumm's scorer; SummEval's "
         "per-summary scores likewise): the plain mean of the script's per-summary lines "
         "(5 decimals), not its printed average", REALSUMM, both)
    )  # fmt: skip
    sets.append(
        ("perl/-d/mean", "ROUGE-1.5.5", False, "as given", "per_example_mean",
         "the script called directly with -d, no -m: the plain mean of its per-summary lines "
         "(5 decimals)", PLTRDY_PYROUGE, both)
    )  # fmt: skip
    for limit in ("-l 75", "-l 100", "-b 665"):
        for stem in (False, True):
            label = f"{limit}{' -m' if stem else ''}"
            note = f"DUC-style truncation {limit}{' with -m' if stem else ''}, the script direct"
            sets.append((f"perl/{label}", "ROUGE-1.5.5", stem, "as given", "printed", note,
                         PLTRDY_PYROUGE, both))  # fmt: skip
    if multi_ref:
        sets.append(("pyrouge/-f B", "pyrouge", True, "as given", "printed",
                     "pyrouge with rouge_args '... -f B' (best reference), -m added", PYROUGE,
                     both))  # fmt: skip
    return sets


def _perl_recipes(multi_ref: bool) -> list[Recipe]:
    out = []
    for key, package, stem, split, aggregate, note, source, measures in _perl_flag_sets(multi_ref):
        flag_list = []
        if stem:
            flag_list.append("-m")
        limit = next(
            (p.removesuffix(" -m") for p in key.split("/")[1:] if p.startswith(("-l", "-b"))), ""
        )
        if limit:
            flag_list.append(limit)
        if key.endswith("-f B"):
            flag_list.append("-f B")
        args = " ".join(flag_list)
        for measure in measures:
            options: dict[str, object] = {
                "use_stemmer": stem,
                "flags": args or "(none beyond the defaults)",
                "sentence_split": {
                    "as given": "newlines in the text (one sentence a line)",
                    "nltk": NLTK,
                    "files2rouge": "each line cut at ' . ' (files2rouge's --eos '.')",
                }[split],
                "measure": {"recall": "recall (as DUC papers report)", "fmeasure": "F"}.get(
                    measure, "printed as recall: the summaries' precision"
                ),
                "multi_ref": "-f " + ("B" if key.endswith("-f B") else "A"),
                "aggregate": (
                    "plain mean of the -d per-summary lines"
                    if aggregate == "per_example_mean"
                    else "the script's printed average"
                ),
            }
            out.append(
                Recipe(
                    key=f"{key}/{'F' if measure == 'fmeasure' else 'R'}",
                    package=package,
                    version="ROUGE-1.5.5",
                    options=options,
                    note=f"{note}; {PERL_NOTE}",
                    source=source,
                    # recipes of one flag set and sentence split share the script's run
                    group=f"perl|{args}|{split}",
                    aggregate=aggregate,
                    measure=measure,
                    extra={"flags": f"-n 2 {args}".strip(), "split": split},
                    plain=_perl_plain(package, stem, aggregate, measure, split, limit),
                )
            )
    return out


def _perl_plain(
    package: str, stem: bool, aggregate: str, measure: str, split: str, limit: str
) -> str:
    program = {
        "pyrouge": "the Perl ROUGE-1.5.5 via pyrouge",
        "files2rouge": "the Perl ROUGE-1.5.5 via files2rouge",
    }.get(package, "the Perl ROUGE-1.5.5 called directly")
    what = {"fmeasure": "F", "recall": "recall"}.get(measure, "precision (printed as its recall)")
    how = (
        f"plain mean of per-summary {what}"
        if aggregate == "per_example_mean"
        else f"its printed average {what}"
    )
    extra = f", {limit}" if limit else ""
    sentences = ", nltk sentences" if split == "nltk" else ""
    return f"{program}, stemmer {'on (-m)' if stem else 'off'}{extra}{sentences}, {how}"


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
                    plain=(
                        f"torchmetrics ROUGEScore, stemmer {'on' if stem else 'off'}, "
                        f"accumulate='{accumulate}', plain mean of per-example F"
                    ),
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
            plain="pltrdy's rouge 1.0.1 (n-gram sets, case kept), no stemmer, mean F",
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
            plain="rouge-metric's PyRouge (case kept), no stemmer, F of the mean P and mean R",
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
                plain=f"rouge-lcs defaults (Unicode words), stemmer {'on' if stem else 'off'}",
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
        plain = (
            f"sumeval, stop words {'removed' if stopwords else 'kept'}, "
            f"{'references stemmed' if stem else 'no stemmer'}, mean F"
        )
        out.append(
            Recipe(f"sumeval/{key}", "sumeval", "0.2.2", options, note, SUMEVAL, group, plain=plain)
        )
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
        plain = f"py-rouge, stemmer on, length limit {limit}, mean F"
        out.append(
            Recipe(
                f"py-rouge/{key}", "py-rouge", "1.1", options, note, PY_ROUGE, group, plain=plain
            )
        )
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
                    plain=_rs_plain("XL-Sum's multilingual-rouge", stem, aggregate, ""),
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
