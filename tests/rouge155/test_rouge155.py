"""ROUGE-1.5.5 compatibility (``rouge_lcs.rouge155``) against the real Perl script.

The oracle is ROUGE-1.5.5.pl installed by ``../shared/tools/rouge155/install.sh`` (``.ci/run``
installs it).  Each test runs the script once on a whole batch with ``-a -d`` and compares its
*entire* stdout with our report text, byte for byte: every per-example R/P/F (5 decimals) and
every printed average and confidence bound.  Tests marked ``perl`` are skipped only when the
oracle is missing outside CI; with ``CI`` set a missing oracle is a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parents[1]))
import rouge155_oracle as oracle  # noqa: E402

from rouge_lcs.rouge155 import score_flags  # noqa: E402
from rouge_lcs.rouge155.pyrouge import Rouge155  # noqa: E402
from rouge_lcs.rouge155.stem import morph_stem  # noqa: E402
from rouge_lcs.rouge155.tokenize import lines_of, raw_tokens  # noqa: E402

_AVAILABLE = oracle.available()


REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data"


def _need_oracle() -> None:
    if _AVAILABLE:
        return
    if os.environ.get("CI"):
        pytest.fail(f"ROUGE-1.5.5 oracle missing at {oracle.SCRIPT} (CI must install it)")
    pytest.skip("ROUGE-1.5.5 oracle not installed (../shared/tools/rouge155/install.sh)")


def _ours(preds, refs, flags: list[str]) -> str:
    return score_flags(preds, refs, flags).text()


def _perl(preds, refs, flags: list[str]) -> str:
    peers = [oracle.file_bytes(p) for p in preds]
    models = [[oracle.file_bytes(r) for r in ([rs] if isinstance(rs, str) else rs)] for rs in refs]
    return oracle.run(peers, models, flags)[0]


def _assert_same(ours: str, perl: str) -> int:
    """Equal reports; returns how many numbers were compared."""
    if ours != perl:
        bad = [(a, b) for a, b in zip(ours.splitlines(), perl.splitlines()) if a != b]
        shown = "\n".join(f"ours: {a}\nperl: {b}" for a, b in bad[:6])
        raise AssertionError(f"{len(bad)} differing lines\n{shown}")
    return sum(line.count(":") - 1 for line in perl.splitlines() if " Eval " in line)


def _corpus(corpora, name: str, every: int = 1):
    rows = corpora.rows(name)[::every]
    if "prediction_sents" in rows[0]:
        return [r["prediction_sents"] for r in rows], [r["references_sents"] for r in rows]
    return [r["prediction"] for r in rows], [r["references"] for r in rows]


# Every flag alone, then the combinations of issue 11.
HEADLINE_FLAGS = [
    "-n 4",
    "-n 2 -m",
    "-n 1 -s",
    "-n 2 -f B",
    "-n 2 -l 10",
    "-n 2 -b 75",
    "-n 1 -w 1.2",
    "-n 2 -p 0.3",
    "-n 1 -2 4 -u",
    "-n 1 -2 -1 -U",
    "-x -n 1 -2 0",
    "-n 2 -m -f A",
    "-n 4 -m -s -2 4 -u -f B",
    "-n 2 -m -w 1.2 -f B",
    "-n 2 -p 0.5 -m -s -l 8",
]
REALSUMM_FLAGS = [
    "-n 2 -m -f A",
    "-n 4 -m -s -2 4 -u -f B",
    "-n 2 -l 100",
    "-n 2 -b 665",
    "-n 1 -w 1.2 -m",
    "-n 2 -p 0.5",
]


@pytest.mark.perl
@pytest.mark.parametrize("flags", HEADLINE_FLAGS)
def test_headlines_all_200_with_4_refs(corpora, flags: str) -> None:
    _need_oracle()
    preds, refs = _corpus(corpora, "en_headlines_rougemetric")
    assert len(preds) == 200
    assert _assert_same(_ours(preds, refs, flags.split()), _perl(preds, refs, flags.split()))


@pytest.mark.perl
@pytest.mark.parametrize("flags", REALSUMM_FLAGS)
def test_realsumm_sample(corpora, flags: str) -> None:
    _need_oracle()
    preds, refs = _corpus(corpora, "en_cnndm_realsumm", every=10)  # 250 pairs, all 25 systems
    assert _assert_same(_ours(preds, refs, flags.split()), _perl(preds, refs, flags.split()))


@pytest.mark.perl
def test_chen2018_tokenized(corpora) -> None:
    _need_oracle()
    preds, refs = _corpus(corpora, "en_cnndm_chen2018_sacrerouge")
    flags = ["-n", "4", "-m", "-2", "4", "-u", "-w", "1.2"]
    assert _assert_same(_ours(preds, refs, flags), _perl(preds, refs, flags))


@pytest.mark.perl
@pytest.mark.parametrize("flags", ["-n 2", "-n 1 -b 5", "-n 1 -b 6", "-n 1 -l 2"])
def test_lone_surrogates_score_as_the_script_reads_their_bytes(flags: str) -> None:
    """A lone surrogate is the file bytes ED A0 80 (U+D800), FF (U+DCFF, surrogateescape)."""
    _need_oracle()
    preds = ["a \ud800 b c", "x\udcffy z"]
    refs = ["a b c", "x y z"]
    peer_files = [b"a \xed\xa0\x80 b c", b"x\xffy z"]  # written by hand, not by our encoder
    perl = oracle.run(peer_files, [[r.encode()] for r in refs], flags.split())[0]
    assert _assert_same(_ours(preds, refs, flags.split()), perl)


@pytest.mark.perl
def test_cli_score_compat_rouge155_prints_the_scripts_averages(corpora, tmp_path: Path) -> None:
    """``rouge-lcs score --compat rouge155`` on line files: the script's Average lines."""
    _need_oracle()
    from rouge_lcs.cli.main import main as cli_main

    rows = corpora.rows("en_headlines_rougemetric")[::4]
    preds = [row["prediction"].replace("\n", " ") for row in rows]
    refs = [row["references"][0].replace("\n", " ") for row in rows]
    (tmp_path / "p.txt").write_text("".join(p + "\n" for p in preds), encoding="utf-8")
    (tmp_path / "r.txt").write_text("".join(r + "\n" for r in refs), encoding="utf-8")
    argv = ["score", "-p", str(tmp_path / "p.txt"), "-r", str(tmp_path / "r.txt")]
    argv += ["--compat", "rouge155", "--rouge-types", "rouge1", "rouge2", "rougeL", "--stem"]
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli_main(argv) == 0
    perl = _perl(preds, refs, ["-n", "2", "-m", "-f", "A", "-p", "0.5"])

    def averages(text: str) -> list[str]:
        return [line for line in text.splitlines() if " Average_" in line]

    assert averages(out.getvalue()) == averages(perl) and len(averages(perl)) == 9


def _pyrouge_folders(tmp_path: Path, corpora) -> tuple[Path, Path, Path, Path]:
    """Plain-text folders (DUC-style names) from the headlines corpus, with a line cut at "<",
    an empty line and an already-HTML line; and the same summaries in pyrouge's HTML."""
    from_pyrouge = pytest.importorskip("pyrouge", reason="pip install pyrouge==0.1.3 to run")
    rows = corpora.rows("en_headlines_rougemetric")[::5]
    folders = [tmp_path / name for name in ("sys", "gold", "sys_html", "gold_html")]
    for folder in folders:
        folder.mkdir()
    for i, row in enumerate(rows):
        pred = row["prediction"]
        if i == 0:
            pred += '\nan <b>html</b> tag\n\n<a name="1">[1]</a> <a href="#1" id=1>already</a>'
        files = [(f"summary.{i:03d}.txt", pred, 0)]
        files += [
            (f"summary.{'ABCD'[j]}.{i:03d}.txt", r, 1) for j, r in enumerate(row["references"])
        ]
        for name, text, side in files:
            (folders[side] / name).write_text(text, encoding="utf-8")
            html = from_pyrouge.Rouge155.convert_text_to_rouge_format(text)
            (folders[2 + side] / name).write_text(html, encoding="utf-8")
    return folders[0], folders[1], folders[2], folders[3]


@pytest.mark.perl
@pytest.mark.parametrize(
    "rouge_args",
    [
        None,
        f"-e {oracle.HOME / 'data'} -n 2 -a",
        f"-e {oracle.HOME / 'data'} -n 1 -2 4 -u -f B -a -d",
    ],
)
def test_pyrouge_class_equals_pyrouge_itself(
    corpora, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rouge_args
) -> None:
    """pyrouge 0.1.3 running the script (its forced -m, its defaults, its conversion) against
    the class: convert_and_evaluate on plain text, evaluate on pyrouge's HTML, byte for byte."""
    _need_oracle()
    monkeypatch.setenv("HOME", str(tmp_path))  # pyrouge writes ~/.pyrouge/settings.ini
    sys_dir, gold_dir, sys_html, gold_html = _pyrouge_folders(tmp_path, corpora)
    import logging

    import pyrouge

    logging.getLogger("global").setLevel(logging.WARNING)  # pyrouge logs every file
    for method, system, model in (
        ("convert_and_evaluate", sys_dir, gold_dir),
        ("evaluate", sys_html, gold_html),
        ("convert_and_evaluate", sys_html, gold_html),  # HTML given to the converter: zeros
    ):
        runs = []
        for cls in (pyrouge.Rouge155, Rouge155):
            if cls is pyrouge.Rouge155:
                r = cls(str(oracle.HOME), rouge_args=rouge_args)
            else:
                r = cls(rouge_args=rouge_args)
            r.system_dir, r.model_dir = str(system), str(model)
            r.system_filename_pattern = r"summary.(\d+).txt"
            r.model_filename_pattern = "summary.[A-Z].#ID#.txt"
            runs.append(getattr(r, method))
        try:
            theirs = runs[0]()
        except subprocess.CalledProcessError:
            # every line dropped: ROUGE-W (in the defaults) divides by zero and the script dies
            assert method == "convert_and_evaluate" and system == sys_html and rouge_args is None
            with pytest.raises(ValueError, match="ROUGE-1.5.5 dies on it"):
                runs[1]()
            continue
        ours = runs[1]()
        assert ours == theirs, method
        assert " Average_R: " in ours


# ---------------------------------------------------------------- generated texts

_WORDS = [
    "the", "The", "THE", "cat", "cats", "were", "be", "feet", "said", "buying", "days",
    "agreement", "using", "running", "it's", "don't", "co-operate", "-", "--", "e-mail",
    "3", "42", "3.14", "1,000", "$5", "U.S.", "café", "İstanbul", "Kelvin", "\u212a", "naïve",
    "東京", "ß", "a", "of", "and", "!", "?", "...", "(x)", "\"q\"", "yes", "yesterday",
]  # fmt: skip
_word = st.sampled_from(_WORDS)
_space = st.sampled_from([" ", " ", " ", "  ", "\t", "\u00a0", " \r"])


@st.composite
def _sentence(draw) -> str:
    words = draw(st.lists(_word, min_size=0, max_size=12))
    out = draw(st.sampled_from(["", " ", ""]))
    for w in words:
        out += w + draw(_space)
    return out


_text = st.lists(_sentence(), min_size=0, max_size=4).map("\n".join)
_example = st.tuples(_text, st.lists(_text, min_size=1, max_size=4))

GENERATED_FLAGS = [
    "-n 3 -f A",
    "-n 2 -m -s -f B",
    "-n 2 -2 4 -u -f B -p 0.3",
    "-n 1 -2 -1 -U -m",
    "-n 2 -l 7",
    "-n 2 -b 23",
    "-n 1 -b 23 -f B",
]


@pytest.mark.perl
@pytest.mark.parametrize("flags", GENERATED_FLAGS)
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(batch=st.lists(_example, min_size=30, max_size=30))
def test_generated_texts(flags: str, batch) -> None:
    _need_oracle()
    preds = [p for p, _ in batch]
    refs = [r for _, r in batch]
    _assert_same(_ours(preds, refs, flags.split()), _perl(preds, refs, flags.split()))


@pytest.mark.perl
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(batch=st.lists(_example, min_size=20, max_size=20))
def test_generated_texts_rouge_w(batch) -> None:
    """ROUGE-W: the script dies on a reference without tokens; we raise ValueError then."""
    _need_oracle()
    preds = [p for p, _ in batch]
    refs = [r for _, r in batch]
    flags = ["-n", "1", "-w", "1.2", "-f", "B"]
    try:
        ours = _ours(preds, refs, flags)
    except ValueError:
        with pytest.raises(RuntimeError):
            _perl(preds, refs, flags)
        return
    _assert_same(ours, _perl(preds, refs, flags))


# ---------------------------------------------------------------- -m: the script's own stem


def _perl_stems(words: list[str]) -> dict[str, str]:
    tool = REPO.parent / "shared" / "tools" / "rouge155" / "perl_stem.pl"
    if not tool.exists():
        tool = oracle.HOME.parent / "perl_stem.pl"
    proc = subprocess.run(
        ["perl", str(tool), str(oracle.HOME)],
        input="\n".join(words).encode(),
        capture_output=True,
        check=True,
    )
    return {line.split("\t")[0]: line.split("\t")[1] for line in proc.stdout.decode().splitlines()}


@pytest.mark.perl
def test_stem_equals_the_script_on_every_corpus_token(corpora) -> None:
    _need_oracle()
    words: set[str] = set()
    for name in ("en_headlines_rougemetric", "en_cnndm_realsumm", "en_cnndm_chen2018_sacrerouge"):
        if not (DATA / name).exists():
            continue
        for row in corpora.rows(name):
            for text in [row["prediction"], *row["references"]]:
                words.update(t for line in lines_of(text) for t in raw_tokens(line))
    dictionary = Path("/usr/share/dict/words")
    if dictionary.exists():
        for line in lines_of(dictionary.read_text("utf-8", "replace")):
            words.update(raw_tokens(line))
    long_words = sorted(w for w in words if len(w) > 3)
    assert len(long_words) > 10000
    expected = _perl_stems(long_words)
    wrong = [(w, expected[w], morph_stem(w)) for w in long_words if morph_stem(w) != expected[w]]
    assert not wrong, wrong[:20]


# ---------------------------------------------------------------- pyrouge workflow


def _pyrouge_html(text: str) -> bytes:
    """What pyrouge's convert_text_to_rouge_format writes for a plain-text summary."""
    elems = "\n".join(
        f'<a name="{i}">[{i}]</a> <a href="#{i}" id={i}>{s}</a>'
        for i, s in enumerate(text.split("\n"), start=1)
    )
    html = (
        "<html>\n<head>\n<title>dummy title</title>\n</head>\n"
        f'<body bgcolor="white">\n{elems}\n</body>\n</html>'
    )
    return html.encode()


@pytest.mark.perl
def test_pyrouge_class_equals_the_script_with_pyrouge_defaults(corpora, tmp_path: Path) -> None:
    _need_oracle()
    preds, refs = _corpus(corpora, "en_headlines_rougemetric", every=4)
    preds = [p if isinstance(p, str) else "\n".join(p) for p in preds]
    preds[0] += "\nan <b>html</b> tag\n\n"  # cut at "<", empty line dropped
    # a line that already is pyrouge's HTML is wrapped again by pyrouge, so the script's
    # [^<]+ finds nothing in it: dropped
    preds[1] += '\n<a name="1">[1]</a> <a href="#1" id=1>already html</a>'
    (tmp_path / "sys").mkdir()
    (tmp_path / "gold").mkdir()
    for i, (p, rs) in enumerate(zip(preds, refs)):
        (tmp_path / "sys" / f"summary.{i:03d}.txt").write_text(p, encoding="utf-8")
        for j, r in enumerate(rs):
            text = r if isinstance(r, str) else "\n".join(r)
            (tmp_path / "gold" / f"summary.{'ABCD'[j]}.{i:03d}.txt").write_text(text, "utf-8")
    r = Rouge155()
    r.system_dir, r.model_dir = str(tmp_path / "sys"), str(tmp_path / "gold")
    r.system_filename_pattern = r"summary.(\d+).txt"
    r.model_filename_pattern = "summary.[A-Z].#ID#.txt"
    ours = r.convert_and_evaluate()
    peers = [_pyrouge_html(p) for p in preds]
    models = [[_pyrouge_html(x if isinstance(x, str) else "\n".join(x)) for x in rs] for rs in refs]
    # pyrouge's defaults and the -m it appends to every command
    flags = ["-c", "95", "-2", "-1", "-U", "-r", "1000", "-n", "4", "-w", "1.2", "-m"]
    perl = oracle.run(peers, models, flags, fmt="SEE")[0]
    # pyrouge runs without -d: drop the per-example block of the oracle's -d run.
    perl = (
        "\n".join(
            line
            for line in perl.splitlines()
            if " Eval " not in line and not line.startswith(".....")
        )
        + "\n"
    )
    assert ours == perl
    d = r.output_to_dict(ours)
    assert {
        "rouge_1_recall",
        "rouge_l_f_score",
        "rouge_w_1.2_precision",
        "rouge_su*_f_score",
        "rouge_s*_recall",
        "rouge_4_f_score_cb",
    } <= set(d)
    assert d == Rouge155.output_to_dict(perl)


def test_score_flags_reads_the_flags_as_typed() -> None:
    """A string and a list are the same flags; a flag the script does not have is named."""
    preds, refs = ["police killed the gunman"], [["the gunman killed the policeman", "a b"]]
    as_text = score_flags(preds, refs, "-n 2 -m -f B -c 90 -r 50").text()
    assert (
        as_text
        == score_flags(preds, refs, ["-n", "2", "-m", "-f", "B", "-c", "90", "-r", "50"]).text()
    )
    assert "90%-conf.int." in as_text and "ROUGE-2" in as_text
    with pytest.raises(ValueError, match="-q"):
        score_flags(preds, refs, "-n 2 -q")
