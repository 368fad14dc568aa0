"""Unit tests of the Space's plain-Python modules (no gradio, no browser): parsing, limits,
rendering, scoring, the API's answers and the hostile inputs of issue 15 (each must be a
message, never an exception).  The page handlers are tested through a live server in
tests/space/test_app_browser.py."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import numpy as np
import pytest

from rouge_lcs import rouge
from rouge_lcs.config.options import OPTIONS
from rouge_lcs.scores.explain import explain
from space import choices, examples, limits, parsing, render, scoring, sessions
from space.sessions import SessionFiles

FOUR_DECIMALS = re.compile(r"^-?\d\.\d{4}$")


def _numbers(page: str) -> list[str]:
    """The score cells of a rendered table."""
    return re.findall(r'<td class="num"[^>]*>([^<]*)</td>', page)


def test_widget_choices_and_defaults_come_from_the_options_table():
    # Every tokenizer runs here (the language extras are installed, as in the Space).
    assert list(OPTIONS["tokenizer"].choices) == choices.TOKENIZERS
    assert list(OPTIONS["multi_ref"].choices) == choices.MULTI_REF_MODES
    assert OPTIONS["lsum_split"].default == choices.DEFAULT_SPLIT
    assert OPTIONS["beta"].default == choices.DEFAULT_BETA


def test_parse_references_blank_line_separated():
    assert parsing.parse_references("a b\nc d\n\n  \ne f\n") == ["a b\nc d", "e f"]
    with pytest.raises(parsing.UserError, match="at least one reference"):
        parsing.parse_references("  \n ")
    with pytest.raises(parsing.UserError, match="at most"):
        parsing.parse_references("\n\n".join("x" for _ in range(limits.MAX_REFERENCES + 1)))


def test_score_pair_korean_example_four_decimals_and_trace():
    result = scoring.score_pair(examples.KO_PREDICTION, examples.KO_REFERENCE)
    page = render.render_pair_scores(result)
    table = page.split('id="pair-stock-table"')[0]
    f_cells = _numbers(table)[2::3]
    assert f_cells == ["0.4286", "0.1667", "0.2857", "0.2857"]
    assert all(FOUR_DECIMALS.match(cell) for cell in _numbers(page))
    assert "P = 3/7 · R = 3/7" in page  # rouge1's counts, under its row
    explanation = render.pair_explanation(result)
    assert 'class="tok hit"' in explanation and "P = 3/7" in explanation
    assert result.signature.startswith("rouge_lcs:v") and "|refs:1|" in result.signature


@pytest.mark.parametrize("mode", ["max_f", "max_recall"])
def test_each_type_names_the_reference_it_used(mode):
    refs = "a dog barked\n\nthe cat sat on the mat"
    result = scoring.score_pair("the cat sat", refs, ["rouge1", "rougeL"], "", multi_ref=mode)
    page = render.render_pair_scores(result)
    word = "best F" if mode == "max_f" else "best recall"
    assert page.count(f"reference 2 of 2 ({word})") == 2
    assert "Reference 2 of 2 — used for rouge1, rougeL" in render.pair_explanation(result)
    assert "Reference 1 of 2 — not used by any type" in render.pair_explanation(result)
    answer = result.as_dict()["scores"]
    assert answer["rouge1"]["reference"] == 2
    assert answer["rouge1"]["counts"] == [[0, 3, 3], [3, 3, 6]]


def test_pooled_and_mean_show_their_sums_and_averages():
    refs = "the cat sat on the mat\n\na dog\n\nthe cat"
    pooled = render.render_pair_scores(
        scoring.score_pair("the cat sat", refs, ["rouge1"], "", multi_ref="pooled")
    )
    assert "P = (3+0+2)/(3+3+3) = 5/9 · R = (3+0+2)/(6+2+2) = 5/10" in pooled
    assert _numbers(pooled)[:2] == [f"{5 / 9:.4f}", f"{5 / 10:.4f}"]
    mean = render.render_pair_scores(
        scoring.score_pair("the cat sat", refs, ["rouge1"], "", multi_ref="mean")
    )
    assert (
        "P = (3/3 + 0/3 + 2/3)/3 · R = (3/6 + 0/2 + 2/2)/3 · F = (0.6667 + 0.0000 + 0.8000)/3"
        in mean
    )
    assert _numbers(mean)[2] == f"{(2 / 3 + 0 + 0.8) / 3:.4f}"


def test_extra_types_and_library_equality():
    refs = "the cat sat on the mat\n\na dog"
    result = scoring.score_pair("the cat sat", refs, ["rougeL"], "rouge3, ROUGE-4")
    assert result.scores.rouge_types == ["rougeL", "rouge3", "rouge4"]
    expected = rouge(["the cat sat"], [["the cat sat on the mat", "a dog"]], ["rougeL"])
    assert result.as_dict()["scores"]["rougeL"]["fmeasure"] == expected["rougeL"]


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (("", "a"), {}, "Prediction: enter"),
        (("a" * (limits.MAX_TEXT_CHARS + 1), "a"), {}, "at most 10,000"),
        (("a", ""), {}, "References: enter"),
        (("a", "a", []), {}, "ROUGE types: choose"),
        (("a", "a", [], "rougeZ"), {}, "rouge_types: expected"),
        (("a", "a", ["rouge1"]), {"beta": 0.0}, "β \\(F-measure\\)"),
        (
            ("a", "a", ["rouge1"]),
            {"beta": 1e200},
            "β \\(F-measure\\)",
        ),  # issue 15.9: no NaN on the page
        (("a", "a", ["rouge1"]), {"beta": float("nan")}, "β \\(F-measure\\)"),
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
        (("abc \ud800 def", "a"), {}, "lone surrogate U\\+D800 at character 4"),
    ],
)
def test_score_pair_errors_are_messages(args, kwargs, message):
    with pytest.raises(parsing.UserError, match=message):
        scoring.score_pair(*args, **kwargs)


def test_explanation_is_bounded_in_size(monkeypatch):
    monkeypatch.setattr(limits, "MAX_EXPLANATION_CHARS", 3000)
    refs = "\n\n".join(f"the cat sat on the mat number {k}" for k in range(5))
    result = scoring.score_pair("the cat sat on the mat", refs)
    assert "not drawn (this demo's explanation budget" in render.pair_explanation(result)
    assert render.pair_explanation(result).count("<h2>") < 5
    assert len(result.scores.mean()) == 4  # the scores are complete


def test_render_side_marks_and_escapes():
    html_text = render.render_side("X", [["<b>", "ok", "no"]], [[1, 2, 0]])
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
    names = [e.name for e in examples.EXAMPLES]
    assert len(set(names)) == len(names) and all(names)
    news = examples.example_card(examples.EXAMPLES[-1])
    assert news.count("<li>") == 2  # two references, numbered
    assert "<div>A strong storm hit the coast on Monday.</div>" in news  # one sentence a line
    assert examples.load_example(len(examples.EXAMPLES) - 1)[1].count("\n\n") == 1


def test_parse_batch_upload_and_paste(tmp_path):
    jsonl = tmp_path / "d.jsonl"
    jsonl.write_text(json.dumps({"prediction": "a b", "references": ["a b", "c"]}) + "\n")
    assert parsing.parse_batch(str(jsonl), None) == (["a b"], [["a b", "c"]])
    csv_file = tmp_path / "d.csv"
    csv_file.write_text('prediction,reference\nx y,"x z\nsecond line"\n')
    assert parsing.parse_batch(str(csv_file), None) == (["x y"], [["x z\nsecond line"]])
    assert parsing.parse_batch(None, "p1\tr1\np2\tr2\tr3\n") == (
        ["p1", "p2"],
        [["r1"], ["r2", "r3"]],
    )


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("bad.jsonl", '{"prediction": "a"}\n', "bad.jsonl: line 1 needs"),
        ("deep.jsonl", "[" * 100_000 + "]" * 100_000 + "\n", "deep.jsonl: line 1"),  # 15.20
        ("long.csv", "prediction,reference\n" + "a," + "b" * 200_000 + "\n", None),  # 15.19
        ("sur.jsonl", '{"prediction": "a \\ud800", "reference": "a"}\n', "lone surrogate"),  # 15.14
        ("bin.csv", b"prediction,reference\ncaf\xe9,x\n", "not valid UTF-8"),
        ("x.txt", "hello\n", "x.txt is not a table file"),
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
    with pytest.raises(parsing.UserError, match=message):
        parsing.parse_batch(str(path), None)


def test_parse_batch_limits(tmp_path, monkeypatch):
    with pytest.raises(parsing.UserError, match="upload a CSV or JSONL"):
        parsing.parse_batch(None, "")
    with pytest.raises(parsing.UserError, match="line 1: expected a prediction and a reference"):
        parsing.parse_batch(None, "only one column\n")
    big = tmp_path / "big.csv"
    big.write_text("prediction,reference\n" + "a,b\n" * 10)
    monkeypatch.setattr(limits, "MAX_UPLOAD_BYTES", 20)
    with pytest.raises(parsing.UserError, match="Upload: .* MB"):
        parsing.parse_batch(str(big), None)
    monkeypatch.setattr(limits, "MAX_UPLOAD_BYTES", 10**9)
    monkeypatch.setattr(limits, "MAX_PAIRS", 5)
    with pytest.raises(parsing.UserError, match="10 pairs; this demo scores at most 5"):
        parsing.parse_batch(str(big), None)


def test_pasted_text_and_type_names_are_bounded(monkeypatch):
    monkeypatch.setattr(limits, "MAX_UPLOAD_BYTES", 100)
    with pytest.raises(parsing.UserError, match="Pasted data: 120 characters; .* at most"):
        parsing.parse_batch(None, "a\tb\n" * 30)
    with pytest.raises(parsing.UserError, match="ROUGE types: 1,000 given"):
        parsing.resolve_types([], "rouge1 " * 1000)


def test_batch_time_budget_stops_between_chunks(monkeypatch):
    monkeypatch.setattr(limits, "CHUNK", 2)
    monkeypatch.setattr(limits, "TIME_BUDGET_S", -1.0)  # already spent
    with pytest.raises(parsing.UserError, match="stopped after 0 of 3 pairs .* per request"):
        scoring.score_batch(None, "a\tb\nc\td\ne\tf\n")


def _jsonl(tmp_path: Path, rows: list[tuple[str, str]], name: str = "d.jsonl") -> Path:
    data = tmp_path / name
    data.write_text("".join(json.dumps({"prediction": p, "reference": r}) + "\n" for p, r in rows))
    return data


ROWS = [("the cat sat", "the cat sat on the mat"), ("a dog", "the dog ran"), ("x", "y")]


def test_score_batch_outputs(tmp_path):
    data = _jsonl(tmp_path, ROWS)
    result = scoring.score_batch(str(data))
    aggregate = render.render_aggregate(result)
    expected = rouge([p for p, _ in ROWS], [r for _, r in ROWS])
    f_cells = re.findall(r'data-label="F">([^<]*)<', aggregate)
    assert f_cells == [f"{expected[k]:.4f}" for k in expected]
    assert "Mean over 3 examples" in aggregate and 'id="batch-stock-table"' in aggregate
    assert result.signature.endswith("ci:bootstrap-0.95-n1000-seed0")
    answer = result.as_dict()
    assert answer["pairs"] == 3 and set(answer["stock_mean_fmeasure"]) == set(expected)


def test_examples_table_sorts_filters_pages_and_explains(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "PAGE_ROWS", 2)
    result = scoring.score_batch(str(_jsonl(tmp_path, ROWS)))
    f, settings = result.scores.fmeasure, result.settings
    args = (result.predictions, result.references, f, settings)
    page, number = render.examples_page(*args, render.ExamplesView())
    assert number == 1 and page.count('<tbody class="example"') == 2
    assert "Page 1 of 2: examples 1–2 of 3." in page
    assert all(FOUR_DECIMALS.match(c) for c in _numbers(page.split("<details>")[0]))
    # Each row opens its pair's scores (with traces) and highlighted tokens in place.
    assert page.count("<details><summary>How example") == 2 and 'class="tok hit"' in page
    worst, _ = render.examples_page(*args, render.ExamplesView("rougeL F, lowest first"))
    assert re.findall(r'data-index="(\d+)"', worst) == ["3", "2"]  # x/y scores 0, then a dog
    last, number = render.examples_page(*args, render.ExamplesView(page=9))
    assert number == 2 and "Page 2 of 2: examples 3–3 of 3." in last
    kept, _ = render.examples_page(*args, render.ExamplesView(query="DOG"))
    assert re.findall(r'data-index="(\d+)"', kept) == ["2"]
    assert "1 example of 3 contains “DOG”" in kept
    none, _ = render.examples_page(*args, render.ExamplesView(query="zebra"))
    assert "No example of 3 examples contains “zebra”." in none and "<table" not in none


def test_session_files_are_apart_and_removed(tmp_path):
    files = SessionFiles(tmp_path / "sessions")
    one, two = files.folder("session-one"), files.folder("session-two")
    assert one != two and "session" not in one.name  # not derived in the open
    shared = tmp_path / "upload.csv"
    shared.write_text("x")
    files.register("session-one", shared)
    files.register("session-two", shared)
    (one / "rouge_per_example.csv").write_text("mine")
    removed = files.forget("session-one")
    assert not one.exists() and two.exists()
    assert shared.exists()  # still used by session two
    assert one / "rouge_per_example.csv" in removed
    files.forget("session-two")
    assert not shared.exists()
    with pytest.raises(ValueError, match="session"):
        files.folder("")


def test_uploads_have_one_owner_from_landing_to_deletion(tmp_path, monkeypatch):
    """Each upload is its own file with one owner: a session that sent it, or the first
    session to claim it; nobody else may read it or delete it; an unclaimed file goes after
    its deadline, an API call's when the call ends, a session's when the session ends."""
    files = SessionFiles(tmp_path / "sessions", unclaimed_s=60)

    def land(name: str, session: str = "") -> Path:
        landing = tmp_path / "uploads" / name
        path = landing / "same-hash" / "pairs.jsonl"
        path.parent.mkdir(parents=True)
        path.write_text("identical content", "utf-8")
        files.landed(path, landing, session)
        return path

    mine, theirs = land("one", "session-one"), land("two", "session-two")
    assert mine != theirs  # identical content, two stored files
    assert files.claim(mine, "session-one") and not files.claim(mine, "session-two")
    assert not files.claim(theirs, "session-one")
    files.release("session-two", mine)  # another's request cannot delete it
    files.forget("session-two")
    assert mine.exists() and not theirs.exists() and not theirs.parent.parent.exists()
    files.forget("session-one")
    assert not mine.exists() and not files.is_upload(mine)
    # An API caller's upload (no session when it lands): the first claimant owns it.
    anonymous = land("three")
    assert files.claim(anonymous, "api-caller") and not files.claim(anonymous, "other")
    files.release("other", anonymous)
    assert anonymous.exists()
    files.release("api-caller", anonymous)  # the call ended
    assert not anonymous.exists() and not files.claim(anonymous, "api-caller")
    # Unclaimed past its deadline: swept; a claimed one stays.
    left, kept = land("four"), land("five")
    assert files.claim(kept, "session-three")
    assert files.sweep() == [] and left.exists()
    later = time.monotonic() + 61
    monkeypatch.setattr(sessions.time, "monotonic", lambda: later)
    assert files.sweep() == [left.resolve()] and not left.exists() and kept.exists()
    assert not files.claim(tmp_path / "not-an-upload", "session-three")
    assert not files.claim(kept, "")


def test_histogram_bins():
    page = render.histogram_html(np.array([0.0, 0.05, 0.5, 1.0]), "rougeL")
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
    result = scoring.compare_systems(None, None, pasted, ["rouge1", "rougeL"])
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
    page = render.render_comparison(result)
    assert f"{expected.difference[0]:+.4f}" in page and "p (bootstrap)" in page


def test_compare_files_need_the_same_references(tmp_path):
    a = _jsonl(tmp_path, ROWS, "a.jsonl")
    b = _jsonl(tmp_path, [(p + " x", r) for p, r in ROWS], "b.jsonl")
    assert scoring.compare_systems(str(a), str(b)).pairs == 3
    other = _jsonl(tmp_path, [(p, r + " z") for p, r in ROWS], "c.jsonl")
    with pytest.raises(parsing.UserError, match="Compare row 1: the two files' references differ"):
        scoring.compare_systems(str(a), str(other))
    with pytest.raises(parsing.UserError, match="upload a file for each system"):
        scoring.compare_systems(str(a), None)
    with pytest.raises(parsing.UserError, match="line 1: expected system A's output"):
        scoring.compare_systems(None, None, "only\ttwo\n")


def test_language_selector_chooses_that_languages_tokens():
    # 上海是中国的城市 / 北京是中国的首都: 8 characters a side, 4 shared (是 中 国 的).
    result = scoring.score_pair(
        "上海是中国的城市", "北京是中国的首都", ["rouge1"], "", language="zh"
    )
    assert result.settings.tokenizer.name == "char"
    assert result.scores.fmeasure[0, 0] == 0.5
    assert "lang:zh" in result.signature
    assert choices.LANGUAGE_CHOICES[0] == (choices.NO_LANGUAGE, "")
    assert ("Chinese (zh)", "zh") in choices.LANGUAGE_CHOICES
    assert ("Korean (ko)", "ko") in choices.LANGUAGE_CHOICES


def test_comparison_payload_is_the_libraries_schema():
    pasted = "the cat sat\tthe cat\tthe cat sat down\na b c\ta b c\ta b c d\n"
    result = scoring.compare_systems(None, None, pasted, ["rouge1"], name_a="base", name_b="new")
    answer = result.as_dict()
    library = result.comparison.to_dict(["rouge1"])["rouge1"]
    assert {k: answer["types"]["rouge1"][k] for k in library} == library
    assert "interval" in library and "difference_ci" not in answer["types"]["rouge1"]
    assert answer["systems"] == ["base", "new"]
    assert (answer["types"]["rouge1"]["b_lower"], answer["types"]["rouge1"]["ties"]) == (1, 1)


def test_small_comparisons_say_the_test_has_little_power():
    one = scoring.compare_systems(None, None, "a b\ta\ta b c\n", ["rouge1"])
    page = render.render_comparison(one)
    assert "Only 1 example: one difference has no spread" in page
    assert "below 10 these tests have little power" in page
    assert "unlikely if the systems were equally good" not in page
    assert "< 0.001" not in page  # one example: no p-value at all (issue 31), not a tiny one
    rows = "".join(f"w{k} x\tw{k}\tw{k} x y\n" for k in range(limits.MIN_PAIRS_FOR_TEST))
    enough = render.render_comparison(scoring.compare_systems(None, None, rows, ["rouge1"]))
    assert "little power" not in enough and "equally good" in enough
    assert 'id="differences-table"' in enough


def test_p_values_at_the_resolution_of_the_resamples():
    assert render.fmt_p(1 / 1001, 1000) == "< 0.001"
    assert render.fmt_p(0.0429, 1000) == "0.043"
    assert render.fmt_p(1.0, 1000) == "1.000"
    assert render.fmt_p(0.5, 100) == "0.50"


def test_plurals_and_units():
    assert render.plural(1, "example") == "1 example" and render.plural(2, "pair") == "2 pairs"
    one = scoring.score_pair("a", "a b", ["rouge1", "rougeL"])
    text = render.pair_explanation(one)
    assert "1 matched 1-gram;" in text and "1 matched token of the longest" in text
    two = render.pair_explanation(scoring.score_pair("a b", "a b", ["rouge1"]))
    assert "2 matched 1-grams;" in two


def test_stock_metric_numbers_beside_ours():
    from rouge_lcs import rouge as library

    result = scoring.score_pair(examples.KO_PREDICTION, examples.KO_REFERENCE, ["rouge1"])
    stock = library(
        [examples.KO_PREDICTION], [examples.KO_REFERENCE], ["rouge1"], compat="rouge_score"
    )
    assert result.as_dict()["stock_fmeasure"]["rouge1"] == stock["rouge1"] == 0.0
    page = render.render_pair_scores(result)
    assert 'id="pair-stock-table"' in page and "keeps only ASCII letters and digits" in page
    english = render.render_pair_scores(scoring.score_pair("the cat sat", "the cat sat down"))
    assert "Here they agree to four decimals." in english


@pytest.mark.parametrize(
    ("beta", "message"),
    [(0, "β \\(F-measure\\): expected"), (-1, "β \\(F-measure\\)"), (1e200, "β")],
)
def test_out_of_range_beta_is_named(beta, message):
    with pytest.raises(parsing.UserError, match=message):
        scoring.score_pair("a", "a", ["rouge1"], beta=beta)


def test_upload_problems_name_the_file():
    assert "notes.txt is not a table file" in parsing.upload_problem("Upload", "notes.txt", 10)
    big = parsing.upload_problem("System A file", "big.csv", 6 * 2**20)
    assert big.startswith("System A file: big.csv is 6.0 MB; this demo takes files up to 5 MB")
    assert parsing.upload_problem("Upload", "ok.jsonl", 10) is None


# --- issue 31: only the request's own upload is read ---------------------------------------


def _upload_folder(tmp_path: Path) -> tuple[Path, Path]:
    """An upload folder holding one upload, stored as the upload route stores it
    (``<folder>/<request's folder>/<content hash>/<name>``), with a stand-in hash."""
    folder = tmp_path / "uploads"
    upload = folder / "landing" / "hash-of-pairs" / "pairs.jsonl"
    upload.parent.mkdir(parents=True)
    upload.write_text('{"prediction": "a", "reference": "a"}\n', "utf-8")
    return folder, upload


def test_check_upload_takes_only_the_upload_routes_files(tmp_path):
    from space.uploads import check_upload

    folder, upload = _upload_folder(tmp_path)
    received = {str(upload)}

    def check(path: object) -> Path:
        return check_upload(
            path,
            "Upload",
            folder=folder,
            is_uploaded=lambda p: str(p) in received,
            content_hash=lambda p: "hash-of-pairs" if p.name == "pairs.jsonl" else "other",
        )

    assert check(str(upload)) == upload.resolve()
    stored = folder / "landing" / "hash-of-pairs"
    planted = stored / "planted.jsonl"  # in an upload's folder, not uploaded
    planted.write_text(upload.read_text("utf-8"), "utf-8")
    link = stored / "link.jsonl"
    link.symlink_to(upload)
    linked_folder = folder / "landing" / "linked"
    linked_folder.symlink_to(upload.parent)
    linked_landing = folder / "linked-landing"
    linked_landing.symlink_to(upload.parent.parent)
    received |= {str(planted), str(link), str(linked_folder / "pairs.jsonl")}
    received.add(str(linked_landing / "hash-of-pairs" / "pairs.jsonl"))
    changed = stored / "changed.jsonl"  # listed, but not its folder's hash
    changed.write_text("x", "utf-8")
    received.add(str(changed))
    deep = folder / "landing" / "hash-of-pairs" / "sub" / "pairs.jsonl"
    outside = tmp_path / "pairs.jsonl"
    outside.write_text(upload.read_text("utf-8"), "utf-8")
    for path in (
        str(planted),  # wrong hash (the stand-in knows only pairs.jsonl)
        str(link),
        str(linked_folder / "pairs.jsonl"),
        str(changed),
        str(deep),
        str(outside),
        str(folder / "hash-of-pairs.jsonl"),  # one level: the stock upload route's shape
        str(linked_landing / "hash-of-pairs" / "pairs.jsonl"),
        f"{folder}/landing/hash-of-pairs/../hash-of-pairs/pairs.jsonl",
        "landing/hash-of-pairs/pairs.jsonl",  # relative
        str(folder / "landing" / "hash-of-pairs"),  # a folder
        str(upload) + "\x00",
        "",
        None,
        {"path": str(upload)},
    ):
        with pytest.raises(parsing.UserError, match="^Upload: not a file uploaded with this"):
            check(path)
    received.discard(str(upload))
    with pytest.raises(parsing.UserError, match="not a file uploaded"):
        check(str(upload))  # stored there, but not by the upload route


def test_an_uninstalled_tokenizer_or_language_names_its_packages(monkeypatch):
    monkeypatch.setattr(choices, "TOKENIZERS", [t for t in choices.TOKENIZERS if t != "mecab"])
    monkeypatch.setattr(choices, "LANGUAGE_CODES", [c for c in choices.LANGUAGE_CODES if c != "th"])
    with pytest.raises(parsing.UserError, match="^Tokenizer: mecab needs fugashi and unidic-lite"):
        scoring.score_pair("a", "a", tokenizer="mecab")
    with pytest.raises(parsing.UserError, match=r"^Language: Thai \(th\) needs pythainlp"):
        scoring.score_pair("a", "a", language="th")


def test_beta_box_empty_or_too_large_is_refused_as_1e308_is():
    expected = "β (F-measure): expected a number from 1e-150 to 1e150"
    for beta in (None, 1e308):
        with pytest.raises(parsing.UserError, match=re.escape(expected)):
            scoring.score_pair("a", "a", beta=beta)


def test_a_batch_row_with_an_empty_reference_is_refused_at_its_line(tmp_path):
    data = tmp_path / "pairs.csv"
    # The first row's quoted prediction spans two lines: the empty reference is on line 4.
    data.write_text('prediction,reference\n"a\nb",a b\nc d,  \n', "utf-8")
    with pytest.raises(parsing.UserError, match=r"^Upload: pairs.csv, line 4: reference 1 is"):
        scoring.score_batch(str(data))
    listed = tmp_path / "pairs.jsonl"
    listed.write_text('{"prediction": "a", "references": ["a", ""]}\n', "utf-8")
    with pytest.raises(parsing.UserError, match=r"pairs.jsonl, line 1: reference 2 is empty"):
        scoring.score_batch(str(listed))


def test_language_names_read_as_written():
    labels = dict((code, label) for label, code in choices.LANGUAGE_CHOICES)
    assert labels["gd"] == "Scottish Gaelic (gd)" and choices.language_label("gd") == labels["gd"]


def test_compare_at_one_example_prints_no_p_value_and_the_api_flags_small_samples():
    one = scoring.compare_systems(pasted="a b\ta\ta b c", rouge_types=["rouge1"])
    cells = _numbers(render.render_comparison(one).split('id="differences-table"')[0])
    assert cells[4:6] == ["n/a", "n/a"]  # p (bootstrap), p (randomization)
    assert one.as_dict()["small_sample"] is True
    rows = "".join(f"a b {k}\ta {k}\ta b c {k}\n" for k in range(limits.MIN_PAIRS_FOR_TEST))
    enough = scoring.compare_systems(pasted=rows, rouge_types=["rouge1"])
    assert enough.as_dict()["small_sample"] is False
    assert enough.as_dict()["min_pairs_for_test"] == limits.MIN_PAIRS_FOR_TEST


def test_evaluates_printed_median_falls_in_the_range_shown():
    """The range beside rouge_score's exact mean is where evaluate's unseeded bootstrap median
    lands: checked against rouge_score's own BootstrapAggregator over several seeds."""
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    scoring_module = pytest.importorskip("rouge_score.scoring")
    rng = np.random.default_rng(5)
    words = [f"w{k}" for k in range(12)]
    pairs = [(" ".join(rng.choice(words, 8)), " ".join(rng.choice(words, 9))) for _ in range(40)]
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    per_example = [scorer.score(ref, pred) for pred, ref in pairs]
    printed = []
    for seed in range(10):
        np.random.seed(seed)  # evaluate leaves numpy's global generator unseeded
        aggregator = scoring_module.BootstrapAggregator()
        for score in per_example:
            aggregator.add_scores(score)
        printed.append(aggregator.aggregate()["rouge1"].mid.fmeasure)
    f = np.array([[s["rouge1"].fmeasure] for s in per_example])
    low, high = render.evaluate_range(f)[0]
    width = high - low
    assert all(low - width <= p <= high + width for p in printed), (low, high, printed)
    assert 0.25 < (max(printed) - min(printed)) / width < 4
    result = scoring.score_batch(pasted="".join(f"{p}\t{r}\n" for p, r in pairs))
    page = render.render_aggregate(result)
    assert "rouge_score&#x27;s mean F" in page and "evaluate prints" in page
