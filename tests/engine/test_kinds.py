"""The closed set of ROUGE kinds, and ROUGE-W, ROUGE-S and ROUGE-SU as first-class types.

The expected numbers come from plain-Python transcriptions of the definitions written here
(Lin 2004's weighted LCS table with ROUGE-1.5.5's operation order; skip bigrams and unigrams
counted with Counters), and, under ``compat="rouge155"``, from the Perl script itself.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import rouge_lcs
from rouge_lcs.base.validation import check_texts
from rouge_lcs.config.settings import make_settings
from rouge_lcs.scores.explain import explain
from rouge_lcs.scores.prefix import prefix_scores
from rouge_lcs.scores.state import RougeState
from rouge_lcs.similarity import cdist
from rouge_lcs.text import rouge_types
from rouge_lcs.text.rouge_types import KINDS, LCS, RougeKind, RougeType, parse_rouge_type

sys.path.insert(0, str(Path(__file__).parents[1]))
import rouge155_oracle as oracle  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine")

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran"]


@pytest.mark.parametrize(
    ("spelling", "name", "kind", "weight", "skip"),
    [
        ("rougeW", "rougeW", "W", 1.2, 0),
        ("ROUGE-W-1.2", "rougeW", "W", 1.2, 0),
        ("rouge_w-1.50", "rougeW-1.5", "W", 1.5, 0),
        ("rougeW-2", "rougeW-2", "W", 2.0, 0),
        ("rougeS4", "rougeS4", "S", 0.0, 4),
        ("ROUGE-S*", "rougeS*", "S", 0.0, -1),
        ("rouge-s0", "rougeS0", "S", 0.0, 0),
        ("rougeSU4", "rougeSU4", "SU", 0.0, 4),
        ("rougesu*", "rougeSU*", "SU", 0.0, -1),
    ],
)
def test_names_parse_once_into_kind_and_parameters(spelling, name, kind, weight, skip) -> None:
    parsed = parse_rouge_type(spelling)
    assert (parsed.name, parsed.kind, parsed.weight, parsed.skip) == (name, kind, weight, skip)
    assert parsed.unigrams == (kind == "SU")


def test_an_unknown_kind_is_a_value_error_naming_the_type() -> None:
    with pytest.raises(ValueError, match="'rougeQ' has kind 'Q'"):
        RougeType("rougeQ", "Q")
    assert KINDS == ("n", "L", "Lsum", "W", "S", "SU")


def test_explain_and_similarity_refuse_the_kinds_they_do_not_show() -> None:
    with pytest.raises(ValueError, match="rouge_types: expected types that explain"):
        explain("a b", "a b", ["rougeW"])
    for name in ("rougeW", "rougeS4", "rougeSU*"):
        with pytest.raises(ValueError, match="rouge_type: expected 'rougeL' or 'rougeN'"):
            cdist(["a b"], ["a b"], rouge_type=name)


# ------------------------------------------------------------------ the definitions, by hand


def wlcs_by_table(x: list[str], y: list[str], w: float) -> float:
    """The whole (m+1) x (n+1) weighted-LCS table, as the script's wlcs_inner computes it."""
    c = [[0.0] * (len(y) + 1) for _ in range(len(x) + 1)]
    run = [[0] * (len(y) + 1) for _ in range(len(x) + 1)]
    for i in range(1, len(x) + 1):
        for j in range(1, len(y) + 1):
            if x[i - 1] == y[j - 1]:
                k = run[i - 1][j - 1]
                c[i][j] = c[i - 1][j - 1] + (k + 1) ** w - k**w
                run[i][j] = k + 1
            else:
                c[i][j] = c[i - 1][j] if c[i - 1][j] >= c[i][j - 1] else c[i][j - 1]
    return c[len(x)][len(y)]


def skip_units(t: list[str], skip: int, unigrams: bool) -> Counter:
    units: Counter = Counter()
    for i in range(len(t)):
        last = len(t) if skip < 0 else min(len(t), i + skip + 2)
        units.update((t[i], t[j]) for j in range(i + 1, last))
    if unigrams:
        units.update((u,) for u in t)
    return units


def prf_by_hand(hits, pred_total, ref_total, w=None):
    p = hits / pred_total if pred_total > 0 else 0.0
    r = hits / ref_total if ref_total > 0 else 0.0
    if w is not None:
        p, r = p ** (1 / w), r ** (1 / w)
    f = 2.0 * p * r / (r + 1.0 * p) if r + 1.0 * p > 0 else 0.0
    return p, r, f


def by_hand(pred: str, ref: str, rouge_type: RougeType):
    x, y = pred.split(), ref.split()
    if rouge_type.kind == "W":
        w = rouge_type.weight
        return prf_by_hand(wlcs_by_table(x, y, w), len(x) ** w, len(y) ** w, w)
    a = skip_units(x, rouge_type.skip, rouge_type.unigrams)
    b = skip_units(y, rouge_type.skip, rouge_type.unigrams)
    return prf_by_hand(sum((a & b).values()), sum(a.values()), sum(b.values()))


def _texts(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randrange(0, 25))) for _ in range(n)]


def assert_scores_by_hand(preds: list[str], refs: list[str], names: list[str]) -> None:
    """``score``'s P/R/F of every type equal :func:`by_hand`'s, to the bit."""
    scores = rouge_lcs.score(preds, refs, names)
    for name in names:
        rouge_type = parse_rouge_type(name)
        want = np.array([by_hand(p, r, rouge_type) for p, r in zip(preds, refs)])
        got = np.stack(
            [scores.values(name, m) for m in ("precision", "recall", "fmeasure")], axis=1
        )
        assert np.array_equal(got, want), name


TYPES = ["rougeW", "rougeW-1.5", "rougeS4", "rougeS0", "rougeS*", "rougeSU4", "rougeSU*"]


@pytest.mark.parametrize("seed", range(3))
def test_scores_equal_the_definitions_written_out(seed: int) -> None:
    assert_scores_by_hand(_texts(seed, 60), _texts(seed + 100, 60), TYPES)


def _overlapping_pair(rng: random.Random) -> tuple[str, str]:
    """Two texts that share some words and phrases and have words of their own (runs of them
    too), of 0 to ~120 tokens: what the C kernel's vocabulary restriction and its strips of
    rows meet (gaps at either end, repeated and copied runs, lengths around the strip)."""
    shared = [f"s{k}" for k in range(rng.choice((2, 5, 30)))]

    def text(own: str) -> list[str]:
        out: list[str] = []
        for _ in range(rng.randrange(0, 12)):
            pick = rng.random()
            if pick < 0.3:  # a run of words of this side only
                out += [f"{own}{rng.randrange(20)}" for _ in range(rng.randrange(1, 6))]
            elif pick < 0.5:  # a phrase both sides have
                out += [f"p{k}" for k in range(rng.randrange(1, 9))]
            else:
                out += [rng.choice(shared) for _ in range(rng.randrange(1, 8))]
        return out

    return " ".join(text("x")), " ".join(text("y"))


@pytest.mark.parametrize("seed", range(4))
def test_weighted_lcs_equals_the_table_on_texts_with_words_of_their_own(seed: int) -> None:
    rng = random.Random(seed)
    pairs = [_overlapping_pair(rng) for _ in range(150)]
    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    assert_scores_by_hand(preds, refs, ["rougeW", "rougeW-1.5", "rougeW-2"])


def test_other_types_keep_their_numbers_and_threads_change_nothing() -> None:
    preds, refs = _texts(7, 200), _texts(8, 200)
    plain = rouge_lcs.rouge(preds, refs, ["rouge1", "rouge2", "rougeL", "rougeLsum"])
    mixed = rouge_lcs.rouge(preds, refs, ["rouge1", "rouge2", "rougeL", "rougeLsum", *TYPES])
    assert {k: mixed[k] for k in plain} == plain
    one = rouge_lcs.rouge(preds, refs, TYPES, use_aggregator=False, num_threads=1)
    two = rouge_lcs.rouge(preds, refs, TYPES, use_aggregator=False, num_threads=2)
    assert one == two


@pytest.mark.parametrize("mode", ["max_f", "max_recall", "pooled", "mean"])
def test_multi_reference_modes_combine_weighted_counts(mode: str) -> None:
    preds = _texts(3, 30)
    refs = [[a, b] for a, b in zip(_texts(4, 30), _texts(5, 30))]
    w = 1.2
    got = rouge_lcs.score(preds, refs, ["rougeW"], multi_ref=mode)
    for e, (pred, pair) in enumerate(zip(preds, refs)):
        x = pred.split()
        cells = [(wlcs_by_table(x, r.split(), w), len(x) ** w, len(r.split()) ** w) for r in pair]
        per_ref = [prf_by_hand(*cell, w) for cell in cells]
        if mode == "pooled":  # hits and f(len) totals added, then f^-1 (the script's -f A)
            want = prf_by_hand(*(cells[0][k] + cells[1][k] for k in range(3)), w)
        elif mode == "mean":
            want = tuple((a + b) / 2.0 for a, b in zip(*per_ref))
        else:
            key = 2 if mode == "max_f" else 1
            want = per_ref[1] if per_ref[1][key] > per_ref[0][key] else per_ref[0]
        assert tuple(got.values("rougeW", m)[e] for m in ("precision", "recall", "fmeasure")) == (
            pytest.approx(want, rel=0, abs=0) if mode != "mean" else pytest.approx(want)
        )


def test_every_entry_point_takes_the_new_types() -> None:
    from rouge_lcs.integrations.hub import compute

    preds, refs = ["the cat sat on the mat"], ["the cat was on the mat"]
    want = rouge_lcs.rouge(preds, refs, ["rougeW", "rougeSU4"])
    assert rouge_lcs.Rouge(["rougeW", "rougeSU4"]).compute(preds, refs) == want
    nested = [[r] for r in refs]
    assert compute(predictions=preds, references=nested, rouge_types=["rougeW", "rougeSU4"]) == want


# ------------------------------------------------------------------ compat="rouge155" vs Perl


@pytest.mark.perl
@pytest.mark.parametrize(
    ("types", "flags"),
    [
        (["rouge2", "rougeL", "rougeW", "rougeS4", "rougeSU4"], "-n 2 -w 1.2 -2 4 -U"),
        (["rouge1", "rougeL", "rougeW-1.5", "rougeSU*"], "-n 1 -w 1.5 -2 -1 -u"),
    ],
)
def test_compat_rouge155_equals_the_script(corpora, types, flags) -> None:
    if not oracle.available():
        pytest.skip("ROUGE-1.5.5 oracle not installed")
    from rouge_lcs.config.values import Options
    from rouge_lcs.rouge155.mode import rouge155_report

    rows = corpora.rows("en_headlines_rougemetric")[::4]
    preds = [r["prediction"] for r in rows]
    refs = [r["references"] for r in rows]
    report, _, _ = rouge155_report(preds, refs, Options(types))
    peers = [oracle.file_bytes(p) for p in preds]
    models = [[oracle.file_bytes(r) for r in rs] for rs in refs]
    perl = oracle.run(peers, models, flags.split())[0]
    assert report.text() == perl


def test_the_command_line_scores_the_new_types(tmp_path) -> None:
    import json
    import subprocess

    (tmp_path / "p.txt").write_text("the cat sat on the mat\n")
    (tmp_path / "r.txt").write_text("the cat was on the mat\n")
    types = ["rougeW-1.5", "rougeS*", "rougeSU4"]
    done = subprocess.run(
        [sys.executable, "-m", "rouge_lcs", "score", "-p", "p.txt", "-r", "r.txt", "--json"]
        + ["--rouge-types", *types],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    for name in types:
        f = by_hand("the cat sat on the mat", "the cat was on the mat", parse_rouge_type(name))[2]
        assert out[name]["fmeasure"] == pytest.approx(f, rel=1e-12)


def test_the_benchmark_runs_on_tiny_input(capsys) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import bench_kinds

    bench_kinds.main(["--tiny"])
    assert "compat='rouge155' rougeW" in capsys.readouterr().out


# ------------------------------------------------------------------ a new kind is one record


def _parse_lcs(rest: str) -> RougeType | None:
    return RougeType("rougeLcs", "Lcs") if rest == "lcs" else None


def test_a_new_kind_on_a_kernel_of_both_engines_is_its_record_alone(monkeypatch) -> None:
    # "rougeLcs", a second spelling of the whole-text LCS, added as one record: the parser, both
    # engines' counting kernels, the per-token scores, explain() and the similarity kernel read
    # it.  "the cat sat on the mat" / "the cat sat on a mat": LCS 5 of 6 and 6 tokens.
    record = RougeKind(
        "Lcs", "'rougeLcs'", _parse_lcs, LCS, "ROUGE-L", prefix=True, similarity=True, explain=True
    )
    monkeypatch.setitem(rouge_types.ROUGE_KINDS, "Lcs", record)
    pred, ref = "the cat sat on the mat", "the cat sat on a mat"
    assert parse_rouge_type("ROUGE-LCS") == RougeType("rougeLcs", "Lcs")
    scores = rouge_lcs.score([pred], [ref], ["rougeLcs"])
    assert scores.precision[0, 0] == scores.recall[0, 0] == scores.fmeasure[0, 0] == 5 / 6
    (shown,) = explain(pred, ref, ["rougeLcs"])
    assert (shown.hits, shown.recall) == (5, 5 / 6)
    assert cdist([pred], [ref], rouge_type="rougeLcs").tolist() == [[5 / 6]]
    settings = make_settings(["rougeLcs"])
    prefixes = prefix_scores(check_texts([pred], [ref]), settings).scores.recall[:, 0]
    # "the", "the cat", …: LCS 1, 2, 3, 4, 4 (the second "the" matches nothing more), 5
    assert prefixes.tolist() == [k / 6 for k in (1, 2, 3, 4, 4, 5)]
    assert RougeState(ref, ["rougeLcs"]).push(pred).scores()["rougeLcs"].recall == 5 / 6
