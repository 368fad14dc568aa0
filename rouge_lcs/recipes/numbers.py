"""Each recipe's corpus numbers on a batch: statistics once per group, arithmetic after.

A *group* is one tokenization and sentence split: its per-example P, R, F come from one engine
call (:func:`rouge_lcs.scores.scorer.function_scorer`; the script's groups from
:func:`rouge_lcs.rouge155.score`), and every recipe of the group is a mean, or a bootstrap
interval, of one of its columns.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

import numpy as np

from rouge_lcs.base.lazy import no_gc
from rouge_lcs.base.validation import TextBatch, check_texts
from rouge_lcs.engine.parallel import FrozenGC, can_fork, collect, fork_call
from rouge_lcs.recipes import pltrdy, py_rouge, sumeval, xlsum
from rouge_lcs.recipes.catalogue import Recipe
from rouge_lcs.rouge155.api import Reading, shared_reading
from rouge_lcs.rouge155.flags import score_flags
from rouge_lcs.scores.results import MEASURES
from rouge_lcs.scores.scorer import function_scorer
from rouge_lcs.text.sentences import nltk_split

__all__ = ["Groups", "Numbers", "TYPES", "Unavailable", "compute", "mid_interval"]

TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")

#: rouge_score's BootstrapAggregator: 1,000 resamples, the median of their means.
BOOTSTRAP_SAMPLES = 1000
#: Half-width of the interval of that median, in its standard deviations (a draw outside
#: happens about once in 15,000 runs).
MID_Z = 4.0


@dataclass(frozen=True)
class Numbers:
    """A recipe's corpus numbers (fractions) per type; ``intervals``: where an unseeded
    bootstrap mid falls (``None``: one exact number); ``error``: why there are none (the
    package raises on this input)."""

    recipe: Recipe
    values: dict[str, float]
    intervals: dict[str, tuple[float, float]] | None = None
    error: str | None = None


# A group's per-example values: {measure: {type: column}}
Columns = dict[str, dict[str, np.ndarray]]


def mid_interval(column: np.ndarray) -> tuple[float, float]:
    """Where the median of 1,000 bootstrap means of ``column`` falls: the mean ± MID_Z
    standard deviations of that median (sqrt(pi / 2) times the bootstrap standard error over
    sqrt(1000), the normal approximation of a sample median)."""
    n = len(column)
    mean = math.fsum(column.tolist()) / n
    if n < 2:
        return mean, mean
    se = float(np.std(column)) / math.sqrt(n)
    half = MID_Z * math.sqrt(math.pi / 2) * se / math.sqrt(BOOTSTRAP_SAMPLES)
    return mean - half, mean + half


def _engine_group(texts: Texts | TextBatch, types: tuple[str, ...], **options: object) -> Columns:
    scorer = function_scorer(list(types), options)
    # a batch checked once serves every group that reads the same texts
    batch = texts if isinstance(texts, TextBatch) else check_texts(*texts)
    scores = scorer.score_of(batch)
    return {m: {t: scores.column(t, m) for t in types} for m in MEASURES}


# (predictions, references) as a group reads them
Texts = tuple[list[str], list[list[str]]]


def _nltk_lines(text: str) -> str:
    return "\n".join(nltk_split(text))


def _files2rouge_lines(text: str) -> str:
    return "\n".join(" ".join(text.split("\n")).split(" . "))


def _perl_group(texts: Texts, flags: str) -> dict[str, dict[str, dict[str, float]]]:
    """The script's numbers for one flag set (``-n 2`` and the recipe's flags: R1, R2, RL do
    not depend on ``-n 4``, ``-2``, ``-U``, ``-w``): ``{"printed": …, "per_example_mean": …}``,
    each ``{measure: {type: value}}``: its printed averages, and the plain mean of its
    per-summary (``-d``) lines, doubles of 5 printed decimals, from the same run."""
    report = score_flags(*texts, flags)
    printed = report.to_dict()
    means = report.mean()
    out: dict[str, dict[str, dict[str, float]]] = {"printed": {}, "per_example_mean": {}}
    for measure, suffix in (
        ("recall", "recall"),
        ("precision", "precision"),
        ("fmeasure", "f_score"),
    ):
        for how, source in (("printed", printed), ("per_example_mean", means)):
            values = {
                t: source[f"rouge_{k}_{suffix}"]
                for t, k in (("rouge1", 1), ("rouge2", 2), ("rougeL", "l"))
            }
            values["rougeLsum"] = values["rougeL"]  # the script's ROUGE-L is summary level
            out[how][measure] = values
    return out


class Unavailable(Exception):
    """The package itself fails on this input (the message says where)."""


def _pltrdy_group(batch: TextBatch) -> Columns:
    rows = []
    memo: pltrdy.Memo = {}  # each distinct text read once (a reference meets many summaries)
    for i, (pred, refs) in enumerate(zip(batch.predictions, batch.references)):
        try:
            rows.append(pltrdy.pair_scores(pred, refs[0], memo))
        except pltrdy.EmptyText as error:
            raise Unavailable(
                f"the package raises ValueError({str(error)!r}) on example {i}"
            ) from None
    types = ("rouge1", "rouge2", "rougeL")
    return {
        m: {t: np.array([row[t][k] for row in rows]) for t in types} for k, m in enumerate(MEASURES)
    }


def _mean(column: np.ndarray) -> float:
    return math.fsum(column.tolist()) / len(column)


# A group's columns (or why there are none) and the script's numbers by group, as sent back
# by another process
Parts = tuple[dict[str, "Columns | Unavailable"], dict[str, dict[str, dict[str, dict[str, float]]]]]


class Groups:
    """Each group of per-example values computed at its first use, once."""

    def __init__(self, batch: TextBatch) -> None:
        self.batch = batch
        self._columns: dict[str, Columns | Unavailable] = {}
        self._printed: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
        # lists (an Arrow batch's columns become str here: the auditor reads each text)
        given = (list(batch.predictions), [list(refs) for refs in batch.references])
        self._texts: dict[str, Texts] = {"as given": given}
        self._sentences: dict[str, list[str]] = {}
        self._batches: dict[str, TextBatch] = {}
        self._py_rouge_words: dict[str, list[str]] = {}  # py-rouge's words of each line
        self._reading: Reading = {}  # the script's terms of each line, per -m

    def checked(self, split: str) -> TextBatch:
        """:meth:`texts` as a checked batch, checked once for every group that reads it."""
        found = self._batches.get(split)
        if found is None:
            found = self._batches[split] = check_texts(*self.texts(split))
        return found

    def texts(self, split: str) -> Texts:
        """The batch's texts with sentences cut as ``split`` does: ``"nltk"``, each Punkt
        sentence a line (as scripts do it, ``"\\n".join(sent_tokenize(text))``);
        ``"punkt_only"``, the same with a newline inside a sentence a space (torchmetrics);
        ``"files2rouge"``, each line cut at ``" . "``; ``"as given"``.  Each distinct text is
        split once for every recipe that reads it."""
        found = self._texts.get(split)
        if found is not None:
            return found
        cut: Callable[[str], str]
        if split == "files2rouge":
            cut = _files2rouge_lines
        else:
            sentences = self._sentences

            def join(sentence: str) -> str:
                return sentence if split == "nltk" else " ".join(sentence.split("\n"))

            def cut(text: str) -> str:
                found = sentences.get(text)
                if found is None:
                    found = sentences[text] = nltk_split(text)
                return "\n".join(map(join, found))

        memo: dict[str, str] = {}

        def lines(text: str) -> str:
            out = memo.get(text)
            if out is None:
                out = memo[text] = cut(text)
            return out

        batch = self.batch
        texts = (
            [lines(p) for p in batch.predictions],
            [[lines(r) for r in rs] for rs in batch.references],
        )
        self._texts[split] = texts
        return texts

    def columns(self, name: str) -> Columns:
        """The group's ``{measure: {type: per-example values}}``; :class:`Unavailable`."""
        if name not in self._columns:
            try:
                self._columns[name] = self._make(name)
            except Unavailable as error:
                self._columns[name] = error
        found = self._columns[name]
        if isinstance(found, Unavailable):
            raise found
        return found

    def printed(self, recipe: Recipe) -> dict[str, dict[str, float]]:
        """The script's numbers for a Perl recipe's flags and sentences, as the recipe
        aggregates them (printed averages, or the plain mean of the ``-d`` lines):
        ``{measure: {type: value}}``; one run of the script per flag set and split."""
        if recipe.group not in self._printed:
            flags = str(recipe.extra["flags"])
            texts = self.texts(str(recipe.extra["split"]))
            # the flag sets of one audit read each line once (-l and -b cut few of them)
            with shared_reading(self._reading):
                self._printed[recipe.group] = _perl_group(texts, flags)
        return self._printed[recipe.group][recipe.aggregate]

    def parts(self, names: list[str]) -> Parts:
        """What :meth:`columns` and :meth:`printed` computed for groups ``names`` (to send to
        another process's :meth:`merge`)."""
        return (
            {n: self._columns[n] for n in names if n in self._columns},
            {n: self._printed[n] for n in names if n in self._printed},
        )

    def merge(self, parts: Parts) -> None:
        """Keep groups another process computed (:meth:`parts`)."""
        columns, printed = parts
        self._columns.update(columns)
        self._printed.update(printed)

    def _make(self, name: str) -> Columns:
        batch = self.batch
        if name == "pltrdy":
            return _pltrdy_group(batch)
        stem = "_stem" in name
        multi = "max_f" if not name.endswith("_avg") else "mean"
        if name.startswith(("tm_nltk", "rs_")):
            # rs_nltk: ROUGE-Lsum as scripts do it, "\n".join(sent_tokenize(text)) then
            # newline sentences; tm_nltk: on torchmetrics' Punkt sentences
            split = "as given"
            types: tuple[str, ...] = TYPES
            if name.startswith(("tm_nltk", "rs_nltk")):
                split = "punkt_only" if name.startswith("tm") else "nltk"
                types = ("rougeLsum",)
            return _engine_group(
                self.checked(split), types, tokenizer="rouge_score", lsum_split="newline",
                use_stemmer=stem, multi_ref=multi,
            )  # fmt: skip
        if name.startswith("xlsum_"):
            # XL-Sum's scorer: one reference; ROUGE-Lsum tokens without the OpenNMT step
            preds, refs = self.texts("as given")
            first = check_texts(preds, [r[:1] for r in refs])
            cols = _engine_group(
                first, TYPES[:3], tokenizer=xlsum.words, use_stemmer=stem, multi_ref="max_f"
            )
            lsum = _engine_group(
                first, ("rougeLsum",), tokenizer=xlsum.sentence_words, lsum_split="newline",
                use_stemmer=stem, multi_ref="max_f",
            )  # fmt: skip
            for measure in MEASURES:
                cols[measure]["rougeLsum"] = lsum[measure]["rougeLsum"]
            return cols
        if name == "rouge_metric":
            # rouge-metric's PyRouge: str.split() tokens (case and punctuation kept), counts
            # summed over references (multi_ref_mode="average"), its "rouge-l" summary level
            cols = _engine_group(
                self.checked("as given"), ("rouge1", "rouge2", "rougeLsum"), tokenizer="whitespace",
                lsum_split="newline", multi_ref="pooled",
            )  # fmt: skip
            for measure in MEASURES:
                cols[measure]["rougeL"] = cols[measure].pop("rougeLsum")
            return cols
        if name.startswith("sumeval_"):
            # sumeval: its words (stop words out, references stemmed by its table), counts
            # pooled over references, no rougeLsum
            texts = sumeval.texts(*self.texts("as given"), stopwords="_stop_" in name, stem=stem)
            return _engine_group(texts, TYPES[:3], tokenizer="whitespace", multi_ref="pooled")
        if name.startswith("py_rouge:"):
            # py-rouge: its truncation, words and stems; the script's hits, its own counts
            limit = py_rouge.LIMITS[name.partition(":")[2]]
            cols = py_rouge.columns(*self.texts("as given"), limit, memo=self._py_rouge_words)
            for measure in MEASURES:
                cols[measure]["rougeLsum"] = cols[measure]["rougeL"]  # summary level
            return cols
        if name.startswith("lcs_"):
            return _engine_group(self.checked("as given"), TYPES, use_stemmer=stem)
        raise KeyError(name)  # pragma: no cover - the catalogue names only these


#: From this many examples on, the groups are shared with a second process where one can be
#: forked (below it the fork and the pickled columns cost more than the half they save).
FORK_MIN_EXAMPLES = 1000


def _bundle(name: str) -> int:
    """The bundle of group ``name``: groups that share work (a sentence split, a memo of
    words) are computed in one process; bundles in this order, costliest first (CPU
    seconds on 11,490 distinct pairs), so that two processes end at about the same time."""
    if name.startswith(("perl|", "rs_nltk", "tm_nltk")):
        return 0  # the script's flag sets (one bootstrap's draws) and Punkt's sentences
    for index, prefix in enumerate(("pltrdy", "py_rouge:", "xlsum_", "sumeval_"), 1):
        if name.startswith(prefix):
            return index
    return 5  # the engine's groups on the texts as given


# A bundle's work: (group name, a recipe of it: the script's flags and split)
_Work = list[tuple[str, Recipe]]


def _take(groups: Groups, bundles: list[_Work], counter: Any, parent: int = 0) -> list[str]:
    """Compute bundles, taking the next one from the shared ``counter`` until none is left
    (the other process takes the others); return the groups computed.  ``parent``: in the
    forked process, the pid of the one that waits for it (stop once it is gone: killed past
    a time limit, as the Space kills its audit process)."""
    done: list[str] = []
    while not parent or os.getppid() == parent:
        with counter.get_lock():
            index = counter.value
            counter.value += 1
        if index >= len(bundles):
            return done
        for name, recipe in bundles[index]:
            if name.startswith("perl|"):
                groups.printed(recipe)
            else:
                with suppress(Unavailable):  # kept in the groups, raised where read
                    groups.columns(name)
            done.append(name)
    return done


def _detached(groups: Groups, bundles: list[_Work], counter: Any, parent: int) -> Parts:
    """The forked process's share (:func:`_take`), with its standard streams on the null
    device: it holds no pipe of the caller's (a caller reading this process's output to its
    end, as the Space does, would wait for it)."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    return groups.parts(_take(groups, bundles, counter, parent))


def _processes(batch: TextBatch) -> int:
    """Two where a second process can share the work: a forking platform, two CPUs, a batch
    large enough, and no other thread in this process (a fork copies a lock another thread
    holds, held for ever in the child)."""
    if len(batch) < FORK_MIN_EXAMPLES or threading.active_count() > 1 or not can_fork():
        return 1
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return 2 if (cpus or 1) > 1 else 1


def _share(groups: Groups, recipes: list[Recipe]) -> None:
    """Compute every group the recipes read in this process and a forked one, bundle by
    bundle (see :func:`_bundle`), and keep the other process's in ``groups``: the same
    functions on the same inputs, so the numbers are those of one process."""
    import multiprocessing  # ~10 ms: only a shared audit needs it
    import signal  # imports enum (~1.5 ms)

    work: dict[str, Recipe] = {}
    for recipe in recipes:
        for name in (recipe.group, recipe.lsum_group):
            if name is not None:
                work.setdefault(name, recipe)
    bundles: list[_Work] = [[] for _ in range(6)]
    for name, recipe in work.items():
        bundles[_bundle(name)].append((name, recipe))
    bundles = [b for b in bundles if b]
    counter = multiprocessing.get_context("fork").Value("l", 0)
    child: tuple[int, int] | None = None
    try:
        with FrozenGC():
            parent = os.getpid()
            child = fork_call(lambda: _detached(groups, bundles, counter, parent))
        _take(groups, bundles, counter)
        pid, read = child
        child = None
        groups.merge(collect(pid, read, wait=True, role="audit"))
    finally:
        if child is not None:  # only after an error here: stop and reap the child
            os.kill(child[0], signal.SIGKILL)
            os.waitpid(child[0], 0)
            os.close(child[1])


def compute(batch: TextBatch, recipes: list[Recipe], processes: int | None = None) -> list[Numbers]:
    """Every recipe's numbers on ``batch`` (each group of statistics computed once), in
    ``processes`` processes (1 or 2; default: 2 where :func:`_processes` finds it pays),
    the same numbers however many."""
    if processes is None:
        processes = _processes(batch)
    if processes not in (1, 2):
        raise ValueError(f"processes must be 1 or 2, got {processes!r}")
    # The groups' memos (words, n-gram sets, LCS rows of each distinct text) are millions of
    # small acyclic objects: the collector's scans of them cost a third of pltrdy's time.
    with no_gc():
        return _numbers(Groups(batch), recipes, processes)


def _numbers(groups: Groups, recipes: list[Recipe], processes: int) -> list[Numbers]:
    if processes == 2:
        _share(groups, recipes)
    out = []
    for recipe in recipes:
        if recipe.group.startswith("perl|"):
            out.append(Numbers(recipe, dict(groups.printed(recipe)[recipe.measure])))
            continue
        try:
            cols = dict(groups.columns(recipe.group)[recipe.measure])
            if recipe.lsum_group is not None:
                cols["rougeLsum"] = groups.columns(recipe.lsum_group)[recipe.measure]["rougeLsum"]
        except Unavailable as error:
            out.append(Numbers(recipe, {}, error=str(error)))
            continue
        values = {t: _mean(c) for t, c in cols.items()}
        if recipe.aggregate == "f_of_means":
            # F of the mean precision and the mean recall (rouge-metric's mode="average")
            group = groups.columns(recipe.group)
            values = {}
            for t in group["fmeasure"]:
                p, r = _mean(group["precision"][t]), _mean(group["recall"][t])
                zero = math.isclose(p, 0) or math.isclose(r, 0)
                values[t] = 0.0 if zero else r * p / (0.5 * r + 0.5 * p)
        intervals = None
        if recipe.aggregate == "bootstrap_mid":
            intervals = {t: mid_interval(c) for t, c in cols.items()}
        out.append(Numbers(recipe, values, intervals))
    return out
