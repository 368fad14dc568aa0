"""Unit tests of the Space's functions (no browser): parsing, limits, rendering, scoring, the
API's answers and the hostile inputs of issue 15 (each must be a message, never an exception)."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import numpy as np
import pytest

gr = pytest.importorskip("gradio")
import app  # noqa: E402
from rouge_lcs import rouge  # noqa: E402
from rouge_lcs.config.options import OPTIONS  # noqa: E402
from rouge_lcs.scores.explain import explain  # noqa: E402

FOUR_DECIMALS = re.compile(r"^-?\d\.\d{4}$")


def _numbers(page: str) -> list[str]:
    """The score cells of a rendered table."""
    return re.findall(r'<td class="num"[^>]*>([^<]*)</td>', page)


def test_widget_choices_and_defaults_come_from_the_options_table():
    assert list(OPTIONS["tokenizer"].choices) == app.TOKENIZERS
    assert list(OPTIONS["multi_ref"].choices) == app.MULTI_REF_MODES
    assert OPTIONS["lsum_split"].default == app.DEFAULT_SPLIT
    assert OPTIONS["beta"].default == app.DEFAULT_BETA


def test_parse_references_blank_line_separated():
    assert app.parse_references("a b\nc d\n\n  \ne f\n") == ["a b\nc d", "e f"]
    with pytest.raises(app.UserError, match="at least one reference"):
        app.parse_references("  \n ")
    with pytest.raises(app.UserError, match="at most"):
        app.parse_references("\n\n".join("x" for _ in range(app.MAX_REFERENCES + 1)))


def test_score_pair_korean_example_four_decimals_and_trace():
    result = app.score_pair(app.KO_PREDICTION, app.KO_REFERENCE)
    page = app.render_pair_scores(result)
    f_cells = _numbers(page)[2::3]
    assert f_cells == ["0.4286", "0.1667", "0.2857", "0.2857"]
    assert all(FOUR_DECIMALS.match(cell) for cell in _numbers(page))
    assert "P = 3/7 · R = 3/7" in page  # rouge1's counts, under its row
    assert 'class="tok hit"' in result.explanation_html and "P = 3/7" in result.explanation_html
    assert result.signature.startswith("rouge_lcs:v") and "|refs:1|" in result.signature


@pytest.mark.parametrize("mode", ["max_f", "max_recall"])
def test_each_type_names_the_reference_it_used(mode):
    refs = "a dog barked\n\nthe cat sat on the mat"
    result = app.score_pair("the cat sat", refs, ["rouge1", "rougeL"], "", multi_ref=mode)
    page = app.render_pair_scores(result)
    word = "best F" if mode == "max_f" else "best recall"
    assert page.count(f"reference 2 of 2 ({word})") == 2
    assert "Reference 2 of 2 — used for rouge1, rougeL" in result.explanation_html
    assert "Reference 1 of 2 — not used by any type" in result.explanation_html
    answer = result.as_dict()["scores"]
    assert answer["rouge1"]["reference"] == 2
    assert answer["rouge1"]["counts"] == [[0, 3, 3], [3, 3, 6]]


def test_pooled_and_mean_show_their_sums_and_averages():
    refs = "the cat sat on the mat\n\na dog\n\nthe cat"
    pooled = app.render_pair_scores(
        app.score_pair("the cat sat", refs, ["rouge1"], "", multi_ref="pooled")
    )
    assert "P = (3+0+2)/(3+3+3) = 5/9 · R = (3+0+2)/(6+2+2) = 5/10" in pooled
    assert _numbers(pooled)[:2] == [f"{5 / 9:.4f}", f"{5 / 10:.4f}"]
    mean = app.render_pair_scores(
        app.score_pair("the cat sat", refs, ["rouge1"], "", multi_ref="mean")
    )
    assert (
        "P = (3/3 + 0/3 + 2/3)/3 · R = (3/6 + 0/2 + 2/2)/3 · F = (0.6667 + 0.0000 + 0.8000)/3"
        in mean
    )
    assert _numbers(mean)[2] == f"{(2 / 3 + 0 + 0.8) / 3:.4f}"


def test_extra_types_and_library_equality():
    refs = "the cat sat on the mat\n\na dog"
    result = app.score_pair("the cat sat", refs, ["rougeL"], "rouge3, ROUGE-4")
    assert result.scores.rouge_types == ["rougeL", "rouge3", "rouge4"]
    expected = rouge(["the cat sat"], [["the cat sat on the mat", "a dog"]], ["rougeL"])
    assert result.as_dict()["scores"]["rougeL"]["fmeasure"] == expected["rougeL"]


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (("", "a"), {}, "Prediction: enter"),
        (("a" * (app.MAX_TEXT_CHARS + 1), "a"), {}, "at most 10,000"),
        (("a", ""), {}, "References: enter"),
        (("a", "a", []), {}, "ROUGE types: choose"),
        (("a", "a", [], "rougeZ"), {}, "rouge_types: expected"),
        (("a", "a", ["rouge1"]), {"beta": 0.0}, "beta"),
        (("a", "a", ["rouge1"]), {"beta": 1e200}, "beta"),  # issue 15.9: no NaN on the page
        (("a", "a", ["rouge1"]), {"beta": float("nan")}, "beta"),
        # issue 15.6: bounded work — types, N, sentences
        (
            ("a", "a", []),
            {"extra_types": " ".join(f"rouge{n}" for n in range(1, 151))},
            "at most 8",
        ),
        (("a", "a", []), {"extra_types": "rouge" + "1" + "0" * 20}, "rouge_types: expected"),
        (("a", "a", []), {"extra_types": "rouge50"}, "N = 20"),
        (("a\n" * 300, "a"), {}, "more than 200 sentences"),
        (("The cat sat. " * 300, "a"), {}, "more than 200 sentences"),  # Punkt, no newline
        # issue 15.14: a lone surrogate is named, not a crash in the JSON encoder
        (("abc \ud800 def", "a"), {}, "lone surrogate U\\+D800 at character 5"),
    ],
)
def test_score_pair_errors_are_messages(args, kwargs, message):
    with pytest.raises(app.UserError, match=message):
        app.score_pair(*args, **kwargs)
    # The page handler shows the same message, in one element, and clears every result.
    shown = app.pair_page(*args, **kwargs)
    assert shown[0].startswith('<div class="msg msg-error" role="alert">')
    assert shown[1:] == ("", "", "")


def test_page_handler_never_raises_on_internal_errors(monkeypatch):
    def boom(*args, **kwargs):
        raise KeyError("secret detail")

    monkeypatch.setattr(app, "score_pair", boom)
    message, *cleared = app.pair_page("a", "a")
    assert "Something went wrong on our side (KeyError)" in message
    assert "secret detail" not in message and "Traceback" not in message
    assert cleared == ["", "", ""]


def test_explanation_is_bounded_in_size(monkeypatch):
    monkeypatch.setattr(app, "MAX_EXPLANATION_CHARS", 3000)
    refs = "\n\n".join(f"the cat sat on the mat number {k}" for k in range(5))
    result = app.score_pair("the cat sat on the mat", refs)
    assert "not drawn (this demo's explanation budget" in result.explanation_html
    assert result.explanation_html.count("<h4>") < 5
    assert len(result.scores.mean()) == 4  # the scores are complete


def test_render_side_marks_and_escapes():
    html_text = app.render_side("X", [["<b>", "ok", "no"]], [[1, 2, 0]])
    assert "&lt;b&gt;" in html_text and 'class="tok hit"' in html_text
    assert 'class="tok clipped"' in html_text


def test_explanation_counts_equal_the_scores():
    pred = "The cat sat on the mat. The cat ran!\nA dog barked."
    ref = "The cat sat.\nThe dog barked at the cat on the mat."
    for item in explain(pred, ref, ["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True):
        expected = rouge(
            [pred], [ref], [item.rouge_type], use_stemmer=True, return_precision_recall=True
        )
        assert item.fmeasure == expected[item.rouge_type]
        assert item.recall == expected[f"{item.rouge_type}_recall"]


def test_examples_are_named_and_show_sentences_and_references():
    names = [e.name for e in app.EXAMPLES]
    assert len(set(names)) == len(names) and all(names)
    news = app.example_card(app.EXAMPLES[-1])
    assert news.count("<li>") == 2  # two references, numbered
    assert "<div>A strong storm hit the coast on Monday.</div>" in news  # one sentence a line
    assert app.load_example(len(app.EXAMPLES) - 1)[1].count("\n\n") == 1


def test_parse_batch_upload_and_paste(tmp_path):
    jsonl = tmp_path / "d.jsonl"
    jsonl.write_text(json.dumps({"prediction": "a b", "references": ["a b", "c"]}) + "\n")
    assert app.parse_batch(str(jsonl), None) == (["a b"], [["a b", "c"]])
    csv_file = tmp_path / "d.csv"
    csv_file.write_text('prediction,reference\nx y,"x z\nsecond line"\n')
    assert app.parse_batch(str(csv_file), None) == (["x y"], [["x z\nsecond line"]])
    assert app.parse_batch(None, "p1\tr1\np2\tr2\tr3\n") == (["p1", "p2"], [["r1"], ["r2", "r3"]])


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("bad.jsonl", '{"prediction": "a"}\n', "bad.jsonl: line 1 needs"),
        ("deep.jsonl", "[" * 100_000 + "]" * 100_000 + "\n", "deep.jsonl: line 1"),  # 15.20
        ("long.csv", "prediction,reference\n" + "a," + "b" * 200_000 + "\n", None),  # 15.19
        ("sur.jsonl", '{"prediction": "a \\ud800", "reference": "a"}\n', "lone surrogate"),  # 15.14
        ("bin.csv", b"prediction,reference\ncaf\xe9,x\n", "not valid UTF-8"),
        ("x.txt", "hello\n", "expected a .jsonl or .csv"),
    ],
)
def test_hostile_uploads_are_messages(tmp_path, name, content, message):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    if message is None:  # a long field is read whole, then the per-text limit speaks
        message = "at most 10,000"
    with pytest.raises(app.UserError, match=message):
        app.parse_batch(str(path), None)
    shown = app.batch_page(str(path), "", *_batch_options(), "rougeL")
    assert shown[0].startswith('<div class="msg msg-error"') and shown[1] == ""


def _batch_options() -> list[object]:
    return [app.STANDARD_TYPES, "", "unicode", False, "auto", 1.0, "max_f"]


def test_parse_batch_limits(tmp_path, monkeypatch):
    with pytest.raises(app.UserError, match="upload a CSV or JSONL"):
        app.parse_batch(None, "")
    with pytest.raises(app.UserError, match="line 1: expected a prediction and a reference"):
        app.parse_batch(None, "only one column\n")
    big = tmp_path / "big.csv"
    big.write_text("prediction,reference\n" + "a,b\n" * 10)
    monkeypatch.setattr(app, "MAX_UPLOAD_BYTES", 20)
    with pytest.raises(app.UserError, match="Upload: .* MB"):
        app.parse_batch(str(big), None)
    monkeypatch.setattr(app, "MAX_UPLOAD_BYTES", 10**9)
    monkeypatch.setattr(app, "MAX_PAIRS", 5)
    with pytest.raises(app.UserError, match="10 pairs; this demo scores at most 5"):
        app.parse_batch(str(big), None)


def test_pasted_text_and_type_names_are_bounded(monkeypatch):
    monkeypatch.setattr(app, "MAX_UPLOAD_BYTES", 100)
    with pytest.raises(app.UserError, match="Pasted data: 120 characters; .* at most"):
        app.parse_batch(None, "a\tb\n" * 30)
    with pytest.raises(app.UserError, match="ROUGE types: 1,000 given"):
        app.resolve_types([], "rouge1 " * 1000)


def test_batch_time_budget_stops_between_chunks(monkeypatch):
    monkeypatch.setattr(app, "CHUNK", 2)
    monkeypatch.setattr(app, "TIME_BUDGET_S", -1.0)  # already spent
    with pytest.raises(app.UserError, match="stopped after 0 of 3 pairs .* per request"):
        app.score_batch(None, "a\tb\nc\td\ne\tf\n")


def _jsonl(tmp_path: Path, rows: list[tuple[str, str]], name: str = "d.jsonl") -> Path:
    data = tmp_path / name
    data.write_text("".join(json.dumps({"prediction": p, "reference": r}) + "\n" for p, r in rows))
    return data


ROWS = [("the cat sat", "the cat sat on the mat"), ("a dog", "the dog ran"), ("x", "y")]


def test_score_batch_page_outputs(tmp_path):
    data = _jsonl(tmp_path, ROWS)
    message, aggregate, chooser, hist, per_example, csv_path, signature, state = app.batch_page(
        str(data), "", *_batch_options(), "rougeL"
    )
    expected = rouge([p for p, _ in ROWS], [r for _, r in ROWS])
    f_cells = re.findall(r'data-label="F">([^<]*)<', aggregate)
    assert f_cells == [f"{expected[k]:.4f}" for k in expected]
    assert "3 pairs scored" in message
    assert per_example.count("<tr>") == 1 + 3 and "the cat sat" in per_example
    assert all(FOUR_DECIMALS.match(c) for c in _numbers(per_example))
    lines = Path(csv_path).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("index,prediction,references,rouge1_precision") and len(lines) == 4
    assert signature.endswith("ci:bootstrap-0.95-n1000-seed0")
    assert 'data-type="rougeL"' in hist
    # The histogram follows its chooser from the kept state, without re-scoring.
    assert 'data-type="rouge2"' in app.histogram_page("rouge2", state)
    assert app.histogram_page("rouge9", state) == ""


def test_one_csv_per_session_overwritten(tmp_path):
    data = _jsonl(tmp_path, ROWS)
    request = type("R", (), {"session_hash": "abc123"})()
    before = set(app.SESSION_DIR.iterdir())
    for _ in range(3):
        path = app.batch_page(str(data), "", *_batch_options(), "rougeL", request=request)[5]
    assert set(app.SESSION_DIR.iterdir()) - before == {Path(path)}
    app.forget_session(request)
    assert not Path(path).exists()


def test_histogram_bins():
    page = app.histogram_html(np.array([0.0, 0.05, 0.5, 1.0]), "rougeL")
    assert re.findall(r'hist-count">(\d+)<', page) == [
        "2",
        "0",
        "0",
        "0",
        "0",
        "1",
        "0",
        "0",
        "0",
        "1",
    ]
    assert "[0.9, 1.0]" in page


def test_compare_pasted_rows_match_the_library():
    from rouge_lcs import score
    from rouge_lcs.scores.statistics import compare

    pasted = "the cat sat\tthe cat\tthe cat sat down\na b c\ta b\ta b c d\nx y\tx z\tx y z\n"
    result = app.compare_systems(None, None, pasted, ["rouge1", "rougeL"])
    a = score(
        ["the cat sat", "a b c", "x y"],
        ["the cat sat down", "a b c d", "x y z"],
        ["rouge1", "rougeL"],
    )
    b = score(
        ["the cat", "a b", "x z"], ["the cat sat down", "a b c d", "x y z"], ["rouge1", "rougeL"]
    )
    expected = compare(a.fmeasure, b.fmeasure, 0.95, 1000, 0)
    answer = result.as_dict()["types"]["rouge1"]
    assert answer["difference"] == pytest.approx(float(expected.difference[0]))
    assert answer["p_randomization"] == pytest.approx(float(expected.p_randomization[0]))
    page = app.render_comparison(result)
    assert f"{expected.difference[0]:+.4f}" in page and "p (bootstrap)" in page


def test_compare_files_need_the_same_references(tmp_path):
    a = _jsonl(tmp_path, ROWS, "a.jsonl")
    b = _jsonl(tmp_path, [(p + " x", r) for p, r in ROWS], "b.jsonl")
    assert app.compare_systems(str(a), str(b)).pairs == 3
    other = _jsonl(tmp_path, [(p, r + " z") for p, r in ROWS], "c.jsonl")
    with pytest.raises(app.UserError, match="Compare row 1: the two files' references differ"):
        app.compare_systems(str(a), str(other))
    with pytest.raises(app.UserError, match="upload a file for each system"):
        app.compare_systems(str(a), None)
    message, table, signature = app.compare_page(None, None, "only\ttwo\n")
    assert "line 1: expected system A&#x27;s output" in message and table == signature == ""


@pytest.mark.parametrize("fn", [app.score_api, app.score_batch_api, app.compare_api])
def test_api_functions_default_every_option(fn):
    required = [p.name for p in inspect.signature(fn).parameters.values() if p.default is p.empty]
    assert required == (["prediction", "references"] if fn is app.score_api else [])


def test_score_api_two_arguments_and_errors():
    answer = app.score_api(app.KO_PREDICTION, app.KO_REFERENCE)
    assert round(answer["scores"]["rouge1"]["fmeasure"], 4) == 0.4286
    assert answer["signature"].startswith("rouge_lcs:v")
    with pytest.raises(gr.Error, match="Prediction: enter"):
        app.score_api("", "a")


def test_launch_refuses_large_uploads_at_the_server():
    options = app.launch_options()
    assert options["max_file_size"] == app.MAX_UPLOAD_BYTES
    assert options["run_history"] is False


def test_language_selector_chooses_that_languages_tokens():
    # 上海是中国的城市 / 北京是中国的首都: 8 characters a side, 4 shared (是 中 国 的).
    result = app.score_pair("上海是中国的城市", "北京是中国的首都", ["rouge1"], "", language="zh")
    assert result.settings.tokenizer.name == "char"
    assert result.scores.fmeasure[0, 0] == 0.5
    assert "lang:zh" in result.signature
    assert app.LANGUAGES[0] == "" and "zh" in app.LANGUAGES
