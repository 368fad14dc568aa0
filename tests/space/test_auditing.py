"""The Reproduce tab's plain-Python side (no gradio, no browser): its inputs checked as the page
words them, the audit in a child process killed past the time budget, the ranking rendered,
what to report instead.  Through a live server and a browser: tests/space/test_app_browser.py."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from rouge_lcs import rouge
from space import auditing, limits, render
from space.parsing import UserError

CAT = "the cat sat on the mat\tthe cat sat on a mat\na b c\ta b d\n"


def _write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), "utf-8")
    return str(path)


def test_pasted_rows_rank_a_hand_worked_score_first():
    # rouge1 F by hand: 5/6 and 2/3 -> mean 0.75; every unigram recipe gives 75.00 here.
    result = auditing.audit_outputs(pasted=CAT, reported="R1=75.00")
    assert result.reproduced and result.n_examples == 2
    best = [c for c in result.candidates if c["rank"] == 1]
    assert len(best) > 1 and all(c["tied"] and c["matches"] for c in best)
    assert "tie" in result.audit["verdict"]
    page = render.render_audit(result)
    shown, _, rest = page.partition('id="audit-rest"')  # the others behind a disclosure
    assert shown.count('class="candidate match"') == min(len(best), limits.AUDIT_ROWS_SHOWN)
    assert rest.count('class="candidate') == len(result.candidates) - limits.AUDIT_ROWS_SHOWN
    assert "1=" in page


def test_files_of_lines_and_a_separator(tmp_path):
    preds = _write(tmp_path / "test.hypo", ["the cat sat. <n> it ran", "a b c"])
    refs = _write(tmp_path / "test.target", ["the cat sat. <n> it ran away", "a b d"])
    result = auditing.audit_outputs(preds, refs, "", "", "<n>")
    assert result.audit["reported"] is None and result.n_examples == 2
    # rougeLsum of rouge_score without the stemmer on the newline-marked sentences.
    expected = rouge(
        ["the cat sat. \n it ran", "a b c"],
        ["the cat sat. \n it ran away", "a b d"],
        compat="rouge_score",
    )
    first = result.candidates[0]
    assert first["key"] == "rouge-score/nostem/newline/mean"
    assert first["numbers"]["rougeLsum"] == pytest.approx(100 * expected["rougeLsum"], abs=1e-9)
    assert "No reported numbers typed" in render.audit_verdict(result)


def test_report_instead_is_this_librarys_numbers_and_signature():
    result = auditing.audit_outputs(pasted=CAT, reported="R1=75.00")
    instead = result.instead
    ours = rouge(
        ["the cat sat on the mat", "a b c"],
        ["the cat sat on a mat", "a b d"],
        use_stemmer=instead["use_stemmer"],
    )
    for name, value in instead["numbers"].items():
        assert value == pytest.approx(100 * ours[name], abs=1e-9)
    text = render.report_instead_text(result)
    assert text.startswith("R1 = 75.00, R2 = ") and "rouge_lcs:v" in text
    assert "refs:1" in result.signature


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"reported": "R7=40"}, "Reported numbers: expected type names R1, R2, RL, RLsum"),
        ({"reported": "R1=101"}, "Reported numbers, R1: expected a number from 0 to 100"),
        ({"reported": "R1=-1"}, "Reported numbers, R1: expected a number from 0 to 100"),
        ({"reported": "R1=abc"}, "Reported numbers, R1: expected a number"),
        ({"reported": "R1 44"}, "Reported numbers: expected items NAME=VALUE"),
        ({"reported": "R1=1 R1=2"}, "Reported numbers: expected each type once"),
        ({"reported": 44.1}, "Reported numbers: expected text, got float"),
        ({"reported": "R1=4 " * 100}, "Reported numbers: 499 characters; at most 200"),
        ({"sentence_separator": ["<n>"]}, "Sentence separator: expected text, got list"),
        ({"sentence_separator": "x" * 21}, "Sentence separator: 21 characters; at most 20"),
        ({"pasted": "a b c"}, "Pasted rows, line 1: expected a prediction and a reference"),
        ({"pasted": ""}, "Reproduce: upload a predictions file and a references file"),
        ({"pasted": "a\tb\n" * 5001}, "Reproduce: 5,001 pairs; this demo scores at most 5,000"),
        ({"pasted": "a\t" + "b" * 10_001}, "Reproduce row 1: 10,001 characters"),
    ],
)
def test_bad_input_is_one_message_naming_the_field(fields, expected):
    arguments = {"pasted": CAT, "reported": "R1=44.16", **fields}
    with pytest.raises(UserError) as caught:
        auditing.audit_outputs(**arguments)
    assert str(caught.value).startswith(expected), str(caught.value)


def test_files_refused_with_their_names(tmp_path):
    preds = _write(tmp_path / "p.txt", ["a b", "c d", "e"])
    refs = _write(tmp_path / "r.txt", ["a b", "c d"])
    with pytest.raises(UserError, match="predictions file has 3 lines and the references file 2"):
        auditing.audit_outputs(preds, refs)
    with pytest.raises(UserError, match="upload the references file too"):
        auditing.audit_outputs(preds, None)
    latin = tmp_path / "latin.txt"
    latin.write_bytes("caf\xe9\n".encode("latin-1"))
    with pytest.raises(UserError, match=r"References file: latin.txt: not valid UTF-8 \(line 1"):
        auditing.audit_outputs(preds, str(latin))
    empty_ref = _write(tmp_path / "e.txt", ["a b", "  ", "e"])
    with pytest.raises(UserError, match="Reproduce row 2: the reference is empty"):
        auditing.audit_outputs(preds, empty_ref)
    big = tmp_path / "big.txt"
    big.write_bytes(b"a b\n" * (limits.MAX_UPLOAD_BYTES // 4 + 1))
    with pytest.raises(UserError, match="Predictions file: big.txt is 5.0 MB; this demo takes"):
        auditing.audit_outputs(str(big), refs)


def test_a_slow_audit_is_killed_at_the_budget(monkeypatch):
    """400 short sentences a side keep pltrdy's recipe busy for seconds (an LCS walk for each
    of 160,000 sentence pairs a row, ~50 ms a row, 50 distinct rows): past the budget the child
    is killed and the visitor told why, within about the budget."""
    monkeypatch.setattr(limits, "TIME_BUDGET_S", 1.0)
    others = [f"w{(k * 11) % 50}" for k in range(1600)]  # the same words, reordered
    reference = ". ".join(" ".join(others[i : i + 4]) for i in range(0, 1600, 4))

    def prediction(row: int) -> str:
        # every row's sentences its own (the audit counts each distinct pair once)
        words = [f"w{(k * 7 + row) % 50}" for k in range(1600)]
        return ". ".join(" ".join(words[i : i + 4]) for i in range(0, 1600, 4))

    rows = "".join(f"{prediction(k)}\t{reference}\n" for k in range(200))
    started = time.monotonic()
    with pytest.raises(UserError, match=r"Reproduce: stopped after 1 s, this demo's limit"):
        auditing.audit_outputs(pasted=rows, reported="R1=40")
    assert time.monotonic() - started < 10


def test_a_lone_surrogate_is_a_message():
    with pytest.raises(UserError, match="lone surrogate"):
        auditing.audit_outputs(pasted="a \ud800 b\ta b\n")


def test_the_librarys_refusal_in_the_child_is_a_message():
    # What the library refuses (here a reference list that is not one) comes back from the
    # child as the library's message, not as a failure.
    with pytest.raises(UserError, match="^Reproduce: references"):
        auditing.run_audit(["a b"], [[]], "", 600.0)  # minutes: a shared machine may be slow


def test_api_answer_is_plain_json(tmp_path):
    # An empty prediction (a system may print nothing): pltrdy's rouge raises on it.
    preds = _write(tmp_path / "p.txt", ["", "a b"])
    refs = _write(tmp_path / "r.txt", ["a b", "a b"])
    result = auditing.audit_outputs(preds, refs, reported="R1=50")
    answer = result.as_dict()
    errors = [c for c in answer["candidates"] if c["error"]]
    assert errors and all(c["distance"] is None for c in errors)  # inf is not JSON
    assert set(answer) >= {"verdict", "candidates", "report_instead", "signature"}
    page = render.render_audit(result)
    assert "Could not score:" in page
    # Every text of the table is escaped (the recipe's notes quote code).
    assert not re.search(r"<(?!/?(div|table|thead|tbody|tr|th|td|a|wbr|details|summary)\b)", page)


def test_a_request_runs_in_the_worker_started_before_it():
    """The worker waiting for a request (its imports done) takes it, and another is started
    for the next one; a worker whose parent ends before sending anything exits quietly."""
    auditing.warm_worker()
    waiting = auditing._spare
    assert waiting is not None and waiting.poll() is None
    # a budget of minutes: the worker may still be importing on a loaded machine
    answer = auditing.run_audit(
        ["the cat sat on the mat", "a b c"], [["the cat sat on a mat"], ["a b d"]], "R1=75.00", 600
    )
    # rouge_score's R1 F: (5/6 + 2/3) / 2 = 75.00, reproduced
    assert answer["answer"].startswith("rouge_score") and waiting.wait(timeout=60) == 0
    following = auditing._spare
    assert following is not None and following is not waiting and following.poll() is None
    out, _ = following.communicate(b"", timeout=120)  # no request: nothing written, code 0
    assert (out, following.returncode) == (b"", 0)
