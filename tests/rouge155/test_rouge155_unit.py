"""rouge_lcs.rouge155 without Perl: API shape, CLI, pyrouge class, fast vs exact averages.

The numbers themselves are checked against the real script in tests/rouge155/test_rouge155.py.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rouge_lcs.cli.main import main as rouge_lcs_main
from rouge_lcs.rouge155 import score
from rouge_lcs.rouge155.cli import main
from rouge_lcs.rouge155.pyrouge import Rouge155, parse_args
from rouge_lcs.rouge155.report import bootstrap_averages
from rouge_lcs.rouge155.stem import morph_stem, porter
from rouge_lcs.rouge155.tokenize import lines_of, raw_tokens


def test_known_answers() -> None:
    r = score(["Police killed the gunman"], ["The gunman killed the policeman"])
    d = r.per_example_dicts()[0]
    rpf = (d["rouge_1_recall"], d["rouge_1_precision"], d["rouge_1_f_score"])
    assert rpf == (0.6, 0.75, 0.66667)
    assert d["rouge_2_f_score"] == 0.57143 and d["rouge_l_f_score"] == 0.44444
    assert r.to_dict()["rouge_1_f_score_cb"] == 0.66667


def test_the_scripts_token_and_stem_rules() -> None:
    # hyphens split and vanish, non-ASCII separates, only A-Z are lower-cased
    assert raw_tokens(lines_of("Co-operate naïve İstanbul \u212aelvin e-mail")[0]) == [
        "co", "operate", "na", "ve", "stanbul", "elvin", "e", "mail",
    ]  # fmt: skip
    assert [morph_stem(w) for w in ["were", "feet", "days", "buying", "agreement", "using"]] == [
        "be", "foot", "dai", "bui", "agreem", "us",
    ]  # fmt: skip
    assert porter("yellowing") == "yellow"


def test_rouge_w_on_a_reference_without_tokens_raises() -> None:
    with pytest.raises(ValueError, match="no tokens"):
        score(["a b c"], [["- !"]], weight=1.2)


def test_bad_options() -> None:
    with pytest.raises(ValueError, match="exclusive"):
        score(["a"], ["a"], length_limit=3, byte_limit=3)
    with pytest.raises(ValueError, match="multi_ref"):
        score(["a"], ["a"], multi_ref="C")
    with pytest.raises(TypeError):
        score("a", "a")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"n": 1001}, r"n \(-n\): expected an integer from 0 to 1000, got 1001"),
        ({"n": 2.0}, r"n \(-n\): expected an integer"),
        ({"resamples": 10**6 + 1}, r"resamples \(-r\): expected an integer from 1 to 1000000"),
        ({"weight": 1e300}, r"weight \(-w\): expected a number from 1 to 10, got 1e\+300"),
        ({"weight": float("nan")}, r"weight \(-w\): expected a finite number"),
        ({"weight": "1e-300"}, r"weight \(-w\): expected a number from 1 to 10, got '1e-300'"),
        ({"length_limit": 2**63}, r"length_limit \(-l\): expected an integer from 0 to"),
        ({"byte_limit": -1}, r"byte_limit \(-b\): expected an integer from 0 to"),
        ({"skip": -(2**63)}, r"skip \(-2\): expected an integer"),
        ({"confidence": float("inf")}, r"confidence \(-c\): expected a finite number"),
        ({"alpha": 2}, r"alpha \(-p\): expected a number from 0 to 1"),
    ],
)
def test_flags_are_bounded_like_the_library(flags: dict, message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        score(["a b"], ["a b"], **flags)


def test_weights_at_the_bounds_score_as_the_script() -> None:
    # ROUGE-1.5.5.pl -n 0 -x -w W on "a b" / "a b" prints these R, P, F
    printed = {1: (1.0, 1.0, 1.0), 1.2: (0.87055, 1.0, 0.9308), 10: (0.00195, 1.0, 0.00389)}
    for w, expected in printed.items():
        row = score(["a b"], ["a b"], n=0, rouge_l=False, weight=w).per_example_dicts()[0]
        key = f"rouge_w_{w}"
        assert (row[f"{key}_recall"], row[f"{key}_precision"], row[f"{key}_f_score"]) == expected


def test_lone_surrogates_are_scored_as_the_scripts_bytes() -> None:
    from rouge_lcs import rouge
    from rouge_lcs.rouge155.tokenize import script_bytes

    # U+D800 is written as ED A0 80, U+DCFF (surrogateescape) as the byte FF it stands for
    assert script_bytes("a \ud800 b \udcff") == b"a \xed\xa0\x80 b \xff"
    # a lone surrogate separates tokens, as in every other mode
    got = rouge(["a\ud800b c"], ["a b c"], ["rouge1"], compat="rouge155")
    assert got["rouge_1_recall"] == 1.0
    # -b counts the three bytes: "a " + ED A0 80 + " b" is 6 bytes, so -b 5 keeps only "a"
    kept = score(["a \ud800 b"], ["a b"], n=1, rouge_l=False, byte_limit=5).to_dict()
    assert kept["rouge_1_recall"] == 0.5


def test_script_flags_parse_like_getopt() -> None:
    opts, details = parse_args("-n 4 -m -2 -1 -U -w 1.2 -c 95 -r 1000 -a -d")
    assert (opts.n, opts.stem, opts.skip, opts.unigrams, opts.weight, details) == (
        4, True, "-1", "both", "1.2", True,
    )  # fmt: skip
    r = score(["a b c d"], ["a c b d"], n=1, skip="-1", unigrams="both", weight="1.2")
    assert r.tags == ["ROUGE-1", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S*", "ROUGE-SU*"]


def test_fast_average_equals_the_scripts_float_sums(corpora) -> None:
    rows = corpora.rows("en_headlines_rougemetric")
    preds = [r["prediction"] for r in rows]
    refs = [r["references"] for r in rows]
    report = score(preds, refs, n=2, stem=True)
    columns = np.stack([c for rpf in report.per_example for c in rpf], axis=1)
    ids = [f"{i + 1}.1" for i in range(len(preds))]
    for confidence in (95, 90.5):
        fast = bootstrap_averages(columns, ids, 1000, confidence)
        assert fast == bootstrap_averages(columns, ids, 1000, confidence, exact=True)


def _write_folders(
    tmp_path: Path, systems: dict[str, str], models: dict[str, str]
) -> tuple[Path, Path]:
    folders = tmp_path / "sys", tmp_path / "gold"
    for folder, files in zip(folders, (systems, models)):
        folder.mkdir()
        for name, text in files.items():
            (folder / name).write_text(text)
    return folders


def _folders(tmp_path: Path) -> tuple[Path, Path]:
    systems = {
        "summary.001.txt": "The cat sat on the mat.\nIt was <b>happy</b>.\n",
        "summary.002.txt": "Police killed the gunman\n",
        "notes.txt": "not a summary",
    }
    models = {
        "summary.A.001.txt": "A cat sat on a mat.\n\nThe cat was happy.\n",
        "summary.B.001.txt": "The dog sat.\n",
        "summary.A.002.txt": "The gunman killed the policeman\n",
    }
    return _write_folders(tmp_path, systems, models)


def test_pyrouge_class_and_cli_agree(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    system, gold = _folders(tmp_path)
    r = Rouge155()
    r.system_dir, r.model_dir = str(system), str(gold)
    r.system_filename_pattern = r"summary.(\d+).txt"
    r.model_filename_pattern = "summary.[A-Z].#ID#.txt"
    text = r.convert_and_evaluate(rouge_args="-n 2 -m -d")
    assert "1 ROUGE-2 Eval 2.1 R:0.50000 P:0.66667 F:0.57143" in text
    d = r.output_to_dict(r.convert_and_evaluate())  # pyrouge's defaults
    assert {"rouge_4_recall", "rouge_w_1.2_f_score", "rouge_su*_precision_ce"} <= set(d)
    argv = [
        "rouge155", "--system-dir", str(system), "--model-dir", str(gold),
        "--system-pattern", r"summary.(\d+).txt", "--model-pattern", "summary.[A-Z].#ID#.txt",
        "-n", "2", "-m", "-d",
    ]  # fmt: skip
    assert rouge_lcs_main(argv) == 0
    assert capsys.readouterr().out == text


def _issue_folders(tmp_path: Path) -> tuple[Path, Path]:
    return _write_folders(
        tmp_path,
        {"summary.1.txt": "The children were playing\n"},
        {"summary.A.1.txt": "A child is playing\n"},
    )


def test_pyrouge_defaults_stem_as_pyrouge_does(tmp_path: Path, capsys) -> None:
    # pyrouge 0.1.3 on the real script prints ROUGE-1 R 0.50000, F 0.50000 here: it appends -m
    # ("children" -> "child", "playing" -> "plai"); without -m R would be 0.25
    system, gold = _issue_folders(tmp_path)
    r = Rouge155()
    r.system_dir, r.model_dir = str(system), str(gold)
    r.system_filename_pattern, r.model_filename_pattern = r"summary.(\d+).txt", "summary.A.#ID#.txt"
    d = r.output_to_dict(r.convert_and_evaluate())
    assert (d["rouge_1_recall"], d["rouge_1_f_score"]) == (0.5, 0.5)
    argv = ["--system-dir", str(system), "--model-dir", str(gold)]
    argv += ["--system-pattern", r"summary.(\d+).txt", "--model-pattern", "summary.A.#ID#.txt"]
    assert main(argv) == 0  # no flag: pyrouge's run, -m included
    assert "1 ROUGE-1 Average_R: 0.50000" in capsys.readouterr().out


def test_pyrouge_argument_precedence_and_quotes(tmp_path: Path) -> None:
    system, gold = _issue_folders(tmp_path)

    def run(r: Rouge155, **kwargs) -> list[str]:
        r.system_dir, r.model_dir = str(system), str(gold)
        r.system_filename_pattern = r"summary.(\d+).txt"
        r.model_filename_pattern = "summary.A.#ID#.txt"
        return r.convert_and_evaluate(**kwargs).splitlines()

    # pyrouge uses the constructor's arguments, enclosing quotes removed, over the call's
    lines = run(Rouge155(rouge_args='"-n 1 -x -a"'), rouge_args="-n 2 -a")
    assert {line.split()[1] for line in lines if "Average" in line} == {"ROUGE-1"}
    assert {
        line.split()[1] for line in run(Rouge155(), rouge_args="-n 2 -x -a") if "Average" in line
    } == {"ROUGE-1", "ROUGE-2"}
    # a falsy system id is pyrouge's 1
    assert run(Rouge155(rouge_args="-n 1 -x -a"), system_id=0)[1].startswith("1 ROUGE-1 ")
    assert run(Rouge155(rouge_args="-n 1 -x -a"), system_id="sysA")[1].startswith("sysA ROUGE-1 ")


def test_html_lines_are_read_as_pyrouge_reads_them(tmp_path: Path) -> None:
    from rouge_lcs.rouge155.pyrouge import read_summary

    path = tmp_path / "s.txt"
    path.write_bytes(
        b'<a name="1">[1]</a> <a href="#1" id=1>Already HTML</a>\nPlain <b>bold</b> Text\n\n'
    )
    # convert_and_evaluate: every line is wrapped again; the script reads up to the first "<"
    assert read_summary(path) == [b"plain "]
    # evaluate: the file is handed over as HTML; only lines in pyrouge's form count
    assert read_summary(path, html=True) == [b"already html"]


@pytest.mark.parametrize(
    "extra",
    [
        ["--system-dir", "/nonexistent"],
        ["-q"],
        ["-l", "5", "-b", "5"],
        ["-f", "C"],
        ["-n"],
        ["--model-pattern", "nomatch.#ID#"],
        # bounded as the library: no traceback, no NaN report, no endless run
        ["-w", "1e300"],
        ["-w", "1e308"],
        ["-w", "1e-300"],
        ["-w", "nan"],
        ["-w", "inf"],
        ["-w", "0.5"],
        ["-n", "1000000"],
        ["-r", "10000000"],
        ["-r", "0"],
        ["-l", "1" + "0" * 30],
        ["-b", "-1"],
        ["-2", "1" + "0" * 30],
        ["-c", "nan"],
        ["-p", "nan"],
    ],
)
def test_cli_bad_input_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture, extra: list[str]
) -> None:
    system, gold = _folders(tmp_path)
    argv = [
        "--system-dir", str(system), "--model-dir", str(gold),
        "--system-pattern", r"summary.(\d+).txt", "--model-pattern", "summary.[A-Z].#ID#.txt",
        "-n", "2",
    ]  # fmt: skip
    assert main(argv + extra) == 2
    err = capsys.readouterr().err
    assert err.startswith("rouge-lcs rouge155: error: ") and err.count("\n") == 1
    assert "Traceback" not in err


# --- compat="rouge155" through rouge() and the evaluate module -----------------------------


@pytest.mark.parametrize("corpus", ["en_headlines_rougemetric", "en_cnndm_realsumm"])
def test_compat_rouge155_equals_the_shipped_perl_gold(corpora, corpus) -> None:
    """`-n 2 -m` (gold option set A_n2_m, -f A) per example, to the script's 5 decimals."""
    from rouge_lcs import rouge

    rows = corpora.rows(corpus)[:300]
    gold = corpora.gold(corpus)
    if "prediction_sents" in rows[0]:
        preds = ["\n".join(r["prediction_sents"]) for r in rows]
        refs = [["\n".join(s) for s in r["references_sents"]] for r in rows]
    else:
        preds = [r["prediction"] for r in rows]
        refs = [r["references"] for r in rows]
    got = rouge(
        preds,
        refs,
        ["rouge1", "rouge2", "rougeL"],
        compat="rouge155",
        use_stemmer=True,
        use_aggregator=False,
    )
    compared = 0
    for i, row in enumerate(rows):
        expected = gold[row["id"]].get("A_n2_m")
        if expected is None:
            continue
        for name, key in (("ROUGE-1", "rouge_1"), ("ROUGE-2", "rouge_2"), ("ROUGE-L", "rouge_l")):
            recall, precision, fscore = expected[name]
            assert got[f"{key}_recall"][i] == recall, (row["id"], name)
            assert got[f"{key}_precision"][i] == precision, (row["id"], name)
            assert got[f"{key}_f_score"][i] == fscore, (row["id"], name)
        compared += 1
    assert compared > 100


def test_compat_rouge155_by_hand_and_its_limits() -> None:
    from rouge_lcs import Rouge, rouge

    # police killed the gunman / the gunman killed the policeman: 3 shared words.
    got = rouge(
        ["Police killed the gunman"],
        ["The gunman killed the policeman"],
        ["rouge1"],
        compat="rouge155",
    )
    assert (got["rouge_1_recall"], got["rouge_1_precision"], got["rouge_1_f_score"]) == (
        0.6,
        0.75,
        0.66667,
    )
    with pytest.raises(ValueError, match="tokenizer: expected the default with compat='rouge155'"):
        rouge(["a"], ["a"], compat="rouge155", tokenizer="unicode")
    with pytest.raises(ValueError, match="compat: 'rouge155' scores through"):
        Rouge(compat="rouge155")


def test_compat_rouge155_through_evaluate() -> None:
    import evaluate

    metric = evaluate.load(str(Path(__file__).resolve().parents[2] / "rouge_lcs_metric.py"))
    got = metric.compute(
        predictions=["Police killed the gunman"],
        references=["The gunman killed the policeman"],
        rouge_types=["rouge1"],
        compat="rouge155",
    )
    assert got["rouge_1_f_score"] == 0.66667


def _wlcs_full_table(model, peer, w, mask) -> None:
    # The script's wlcs_inner + markLCS with the whole move table, written out independently.
    m, n = len(model), len(peer)
    c = [[0.0] * (n + 1) for _ in range(m + 1)]
    length = [[0] * (n + 1) for _ in range(m + 1)]
    move = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if model[i - 1] == peer[j - 1]:
                k = length[i - 1][j - 1]
                c[i][j] = c[i - 1][j - 1] + (k + 1) ** w - k**w
                length[i][j] = k + 1
                move[i][j] = 1
            elif c[i - 1][j] >= c[i][j - 1]:
                c[i][j], move[i][j] = c[i - 1][j], 2
            else:
                c[i][j], move[i][j] = c[i][j - 1], 3
    i, j = m, n
    while i and j:
        if move[i][j] == 1:
            i, j = i - 1, j - 1
            mask[i] = 1
        elif move[i][j] == 2:
            i -= 1
        else:
            j -= 1


@pytest.mark.parametrize("cells", [1 << 24, 64, 7, 1])
def test_weighted_lcs_walk_is_the_same_with_a_bounded_table(cells, monkeypatch) -> None:
    # Past WLCS_TABLE_CELLS the walk recomputes its moves block by block from checkpoint rows
    # (memory ~ n * sqrt(m), not m * n); the marks must be the script's either way.
    from rouge_lcs.engine.reference import weighted

    monkeypatch.setattr(weighted, "WLCS_TABLE_CELLS", cells)
    rng = np.random.default_rng(3)
    for _ in range(60):
        m, n = rng.integers(0, 40, 2)
        model = [str(t) for t in rng.integers(0, 5, m)]
        peer = [str(t) for t in rng.integers(0, 5, n)]
        got, want = [0] * m, [0] * m
        weighted.wlcs_marks(model, peer, 1.2, got)
        _wlcs_full_table(model, peer, 1.2, want)
        assert got == want


def test_weighted_lcs_memory_stays_below_the_move_table(monkeypatch) -> None:
    # Past the bound the walk keeps ~sqrt(m) checkpoint rows and one block of moves: far less
    # than the m * n bytes of the whole move table (which the script itself keeps).
    import tracemalloc

    from rouge_lcs.engine.reference import weighted

    monkeypatch.setattr(weighted, "WLCS_TABLE_CELLS", 1 << 12)
    rng = np.random.default_rng(5)
    model = [str(t) for t in rng.integers(0, 50, 6400)]  # checkpoints 16 * n * sqrt(m) bytes
    peer = [str(t) for t in rng.integers(0, 50, 150)]
    mask, want = [0] * len(model), [0] * len(model)
    tracemalloc.start()
    weighted.wlcs_marks(model, peer, 1.2, mask)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 0.35 * len(model) * len(peer), peak
    monkeypatch.setattr(weighted, "WLCS_TABLE_CELLS", 1 << 24)  # the whole table: same marks
    weighted.wlcs_marks(model, peer, 1.2, want)
    assert mask == want and sum(mask) > 0


def test_shared_reading_gives_each_flag_sets_numbers() -> None:
    # Flag sets that cut lines differently (-l, -b) and read them with one Terms per -m: each
    # report equals the report of a call of its own, and the store holds one Terms per -m.
    from rouge_lcs.rouge155.api import shared_reading
    from rouge_lcs.rouge155.flags import score_flags

    preds = ["The cats sat on the mats.\nThey were sitting there", " Leading space here\nok"]
    refs = [["A cat sat on a mat.\nIt sat", "cats sitting"], ["leading spaces are here"]]
    sets = ["-n 2 -m -l 5", "-n 2 -m -b 20", "-n 2 -l 3", "-n 2 -m", "-n 2 -m -l 100"]
    alone = [score_flags(preds, refs, flags).text() for flags in sets]
    with shared_reading() as store:
        shared = [score_flags(preds, refs, flags).text() for flags in sets]
    assert shared == alone
    assert sorted(store) == [(False, False), (True, False)]
