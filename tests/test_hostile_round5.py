"""Hostile inputs, round 5 (issue 47): each defect as a regression test, on both engines.

ROUGE-W within [0, 1] and exactly 1 for identical texts (docs/guarantees.md), ``mbr`` on an
empty or lone source, ``rouge-lcs audit`` on a blank reference and ``--limit``, Perl flag
numerals, one-line messages for an empty Arrow column.  (The streamed ``score --data
FILE.parquet``: tests/cli/test_stream.py.)
"""

from __future__ import annotations

import itertools
import math
import random
import re
import sys
from pathlib import Path

import pytest

from rouge_lcs import score
from rouge_lcs.rouge155 import flags
from rouge_lcs.similarity import mbr

sys.path.insert(0, str(Path(__file__).parent))
import rouge155_oracle as oracle  # noqa: E402
from test_hostile import _peak, assert_one_line_error, cli  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine")


# --- E7: ROUGE-W ----------------------------------------------------------------------------


def words(count: int, start: int = 0) -> str:
    return " ".join(f"w{k}x" for k in range(start, start + count))


@pytest.mark.parametrize("weight", ["rougeW", "rougeW-1.5", "rougeW-2"])
def test_rouge_w_of_identical_texts_is_exactly_one(weight):
    # 1,000 distinct words gave 1.0000000000000022 (the sum of weight steps, rounded);
    # repeated words and every length up to 1,500 by steps
    texts = [words(n) for n in (1, 2, 3, 7, 50, 333, 999, 1000, 1001, 1500)]
    texts += ["the cat the cat the cat " * 40, "a " * 700]
    result = score(texts, texts, [weight])
    for values in (result.precision, result.recall, result.fmeasure):
        assert values[:, 0].tolist() == [1.0] * len(texts)


def test_rouge_w_is_never_above_one():
    # a prediction that is a contiguous part of the reference: precision 1 (the whole
    # prediction is one run), recall and F below 1; with several references, pooled
    preds, refs = [], []
    for n in (10, 100, 999, 1000, 2000):
        preds.append(words(n, start=5))
        refs.append(words(n + 10))
    for multi_ref in ("max_f", "mean", "pooled"):
        result = score(
            preds, [[r, p] for r, p in zip(refs, preds)], ["rougeW"], multi_ref=multi_ref
        )
        for values in (result.precision, result.recall, result.fmeasure):
            assert values.max() <= 1.0, multi_ref
    single = score(preds, refs, ["rougeW"])
    assert single.precision[:, 0].max() <= 1.0
    assert single.precision[:, 0].min() > 1 - 1e-12  # and it is (up to rounding) 1


@pytest.mark.perl
def test_rouge_w_of_identical_texts_beside_the_script():
    """What ROUGE-1.5.5 prints for the same identical texts (docs/evaluate.md): precision
    1.00000 (its own sum rounds past 1 too; 5 decimals hide it) and recall n ** (1 - w), the
    reference's weight applied twice; compat="rouge155" prints the same."""
    if not oracle.available():
        pytest.skip("ROUGE-1.5.5 oracle not installed")
    from rouge_lcs.config.values import Options
    from rouge_lcs.rouge155.mode import rouge155_report

    text = words(1000)
    stdout = oracle.run([oracle.file_bytes(text)], [[oracle.file_bytes(text)]], ["-w", "1.2"])[0]
    found = re.search(r"ROUGE-W-1.2 Eval \S+ R:([0-9.]+) P:([0-9.]+) F:([0-9.]+)", stdout)
    assert found is not None, stdout
    recall, precision = float(found.group(1)), float(found.group(2))
    assert precision == 1.0 and recall == round(1000**-0.2, 5)
    ours = score([text], [text], ["rougeW"])
    assert ours.precision[0, 0] == 1.0 == ours.recall[0, 0]  # the definition: 1, not above
    report, _, _ = rouge155_report([text], [[text]], Options(["rougeW"]))
    assert "ROUGE-W-1.2 Average_R: 0.25119" in report.text()


# --- E8: mbr ----------------------------------------------------------------------------------


def test_mbr_an_empty_source_is_named():
    with pytest.raises(ValueError, match=r"candidates\[0\]: expected at least one"):
        mbr([[], ["a", "b"]])
    with pytest.raises(ValueError, match=r"candidates\[1\]: expected at least one"):
        mbr([["a b", "a c"], []])
    with pytest.raises(ValueError, match=r"references\[1\]: expected at least one"):
        mbr([["a"], ["b"]], references=[["a"], []])


@pytest.mark.parametrize("method", ["exact", "aggregate"])
def test_mbr_a_lone_candidate_has_a_number(method):
    rouge_type = "rouge1" if method == "aggregate" else "rougeL"
    result = mbr(["the cat sat"], rouge_type=rouge_type, method=method)
    # no other candidate: scored against itself, ROUGE of a text with itself is 1
    assert result.index == 0 and result.scores == [1.0]
    empty = mbr([""], rouge_type=rouge_type, method=method)  # no token: 0, as score() gives
    assert empty.scores == [0.0]
    assert not any(math.isnan(s) for r in mbr([["a"], ["b", "b c"]]) for s in r.scores)


# --- smaller items ----------------------------------------------------------------------------


def test_audit_refuses_a_blank_reference_line(tmp_path):
    preds, refs = tmp_path / "p.txt", tmp_path / "r.txt"
    preds.write_text("the cat sat\na dog ran\n", encoding="utf-8")
    refs.write_text("the cat sat down\n  \n", encoding="utf-8")
    done = cli("audit", "--predictions", str(preds), "--references", str(refs))
    assert_one_line_error(done, "line 2", "blank")


@pytest.mark.parametrize("limit", ["-1", "0"])
def test_audit_limit_below_one_is_refused(tmp_path, limit):
    preds, refs = tmp_path / "p.txt", tmp_path / "r.txt"
    preds.write_text("the cat sat\n", encoding="utf-8")
    refs.write_text("the cat sat down\n", encoding="utf-8")
    done = cli("audit", "--predictions", str(preds), "--references", str(refs), "--limit", limit)
    err = done.stderr.decode()
    assert done.returncode == 2 and "--limit" in err and "at least 1" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("value", ["1_0", "\uff12", "\u0662", " 1_0 "])
def test_perl_flag_numbers_are_ascii_numerals(value):
    # Perl reads "1_0" as 1 and a fullwidth or Arabic-Indic "2" as 0; Python's int() read
    # them as 10 and 2
    with pytest.raises(ValueError, match="-n needs a number"):
        flags.parse_args(["-n", value])
    with pytest.raises(ValueError, match="-w needs a number"):
        flags.parse_args(["-n", "1", "-w", f"1.{value}"])
    with pytest.raises(ValueError, match="skip"):
        from rouge_lcs.rouge155.api import Options

        Options(n=1, skip=value).validate()


def test_perl_flag_numbers_as_perl_writes_them_still_read():
    opts, _ = flags.parse_args(["-n", "+2", "-w", "1.2", "-c", "95", "-2", "4", "-p", ".5"])
    assert (opts.n, opts.weight, opts.skip, opts.alpha) == (2, "1.2", "4", 0.5)


def test_an_empty_arrow_column_is_a_one_line_error():
    pa = pytest.importorskip("pyarrow")
    with pytest.raises(ValueError) as caught:
        score(pa.array([], pa.string()), pa.array([], pa.string()), ["rouge1"])
    assert "\n" not in str(caught.value) and "predictions" in str(caught.value)


# --- E6: RougeState and per-token rewards linear in the reference's distinct tokens --------------


def test_rouge_state_memory_is_linear_in_distinct_tokens():
    from rouge_lcs import RougeState

    # a mask per distinct token OR-ed bit by bit: 10k / 40k distinct tokens held ~6 / ~100 MB
    # (16x for 4x the tokens); linear memory gives ~4x
    small, large = words(10_000), words(40_000)
    peaks = []
    for text in (small, large):
        state_of = lambda text=text: RougeState(text, ["rougeL"]).push(words(50, 100)).scores()  # noqa: E731
        peaks.append(_peak(state_of))
    assert peaks[1] / peaks[0] < 6, peaks
    state = RougeState(large, ["rouge1", "rougeL"]).push(words(50, 100) + " ")
    # hand-worked: 50 of the reference's words in order; P = 1, R = 50 / 40,000
    assert state.scores()["rougeL"].precision == 1.0
    assert state.scores()["rougeL"].recall == 50 / 40_000


def test_token_rewards_memory_is_linear_in_distinct_tokens():
    from rouge_lcs.integrations.rewards import token_rewards

    peaks = []
    for count in (10_000, 40_000):
        ref = words(count)
        peaks.append(_peak(lambda ref=ref: token_rewards([words(20, 7)], [ref])))
    assert peaks[1] / peaks[0] < 6, peaks


def test_token_rewards_on_a_reference_of_several_strips_equal_the_lcs_of_each_prefix():
    """A reference past one strip of the C kernel's mask table (4,096 tokens), walked strip by
    strip over every prefix: each prefix's recall is its LCS (rapidfuzz's) over the length."""
    from rapidfuzz.distance import LCSseq

    from rouge_lcs.integrations.rewards import token_rewards

    rng = random.Random(47)
    for n, vocab in [(9000, 40), (4097, 4097), (12_345, 3)]:
        ref = [f"t{rng.randrange(vocab)}" for _ in range(n)]
        pred = [f"t{rng.randrange(vocab)}" for _ in range(400)]
        rewards = token_rewards([" ".join(pred)], [" ".join(ref)], measure="recall")[0]
        running = list(itertools.accumulate(rewards))
        want = [LCSseq.similarity(pred[: k + 1], ref) / n for k in range(len(pred))]
        assert running == pytest.approx(want, abs=1e-12), n
