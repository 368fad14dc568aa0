"""Arrow columns in (read from their buffers), Arrow tables out: the same numbers as lists.

Every test runs on both engines; the list-of-str path (itself checked against rouge_score and
ROUGE-1.5.5 elsewhere) is the independent reference the Arrow path must equal to the bit.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

import rouge_lcs
from rouge_lcs import Rouge, similarity
from rouge_lcs.base.arrow import ArrowTexts, _Column, single_references
from rouge_lcs.base.validation import TextBatch

pa = pytest.importorskip(
    "pyarrow", reason="pyarrow is not installed (pip install rouge-lcs[arrow])"
)

pytestmark = pytest.mark.usefixtures("engine")

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def same(a: rouge_lcs.Scores, b: rouge_lcs.Scores) -> None:
    for measure in ("precision", "recall", "fmeasure"):
        assert np.array_equal(getattr(a, measure), getattr(b, measure)), measure


def corpus(corpora, name: str) -> tuple[list[str], list[list[str]]]:
    rows = corpora.rows(name)
    return [r["prediction"] for r in rows], [list(r["references"]) for r in rows]


@pytest.mark.parametrize(
    "name", ["en_cnndm_realsumm", "en_headlines_rougemetric", "ko_mt_wmt20_korsacrebleu_sample"]
)
@pytest.mark.parametrize("options", [{}, {"use_stemmer": True}, {"tokenizer": "rouge_score"}])
def test_corpora_equal_lists(corpora, name, options):
    preds, refs = corpus(corpora, name)
    expected = rouge_lcs.score(preds, refs, TYPES, **options)
    got = rouge_lcs.score(pa.array(preds), pa.array(refs), TYPES, **options)
    same(got, expected)
    if max(map(len, refs)) == 1:  # one reference each: a string column too
        single = pa.array([r[0] for r in refs], pa.large_string())
        same(
            rouge_lcs.score(pa.array(preds, pa.large_string()), single, TYPES, **options), expected
        )
    assert rouge_lcs.rouge(pa.array(preds), pa.array(refs), TYPES, **options) == rouge_lcs.rouge(
        preds, refs, TYPES, **options
    )


def test_repeated_references_are_numbered_once(corpora):
    # REALSumm: 25 systems' summaries of each document, so each reference recurs; the column's
    # distinct rows are what Python's set finds, and scoring through them changes no number.
    from rouge_lcs.base.arrow import _distinct_rows

    preds, refs = corpus(corpora, "en_cnndm_realsumm")
    column = pa.array([r[0] for r in refs])
    found = _distinct_rows(ArrowTexts.of(column, "references"), base=7)
    assert found is not None
    values, index = found
    assert sorted(values.tolist()) == sorted({r[0] for r in refs})
    assert [values[k - 7] for k in index] == [r[0] for r in refs]
    same(
        rouge_lcs.score(pa.array(preds), column, TYPES[:3]), rouge_lcs.score(preds, refs, TYPES[:3])
    )
    # a slice's rows are its own; distinct rows and unchecked buffers are left as they are
    assert _distinct_rows(ArrowTexts.of(pa.array(preds), "predictions")) is None
    sliced = ArrowTexts.of(column.slice(100, 1000), "references")
    part_values, part_index = _distinct_rows(sliced)
    assert [part_values[k] for k in part_index] == sliced.tolist()
    assert _distinct_rows(hostile([0, 3, 1], b"abc").predictions) is None


def test_korean_and_weighted_types(corpora):
    rows = corpora.rows("ko_korsts")[:1500]
    preds, refs = [r["prediction"] for r in rows], [r["references"][0] for r in rows]
    types = ["rouge1", "rougeL", "rougeW-1.2", "rougeSU4"]
    same(
        rouge_lcs.score(pa.array(preds), pa.array(refs), types), rouge_lcs.score(preds, refs, types)
    )


def test_forms_chunked_sliced_views_empty():
    preds = [
        "The cat sat.",
        "",
        "Über café 日本語",
        "한국어 문장",
        "ＡＢＣ 𝐀𝐁",
        "İstanbul ΣΑΣ",
        "x",
    ]
    refs = ["the cat", "x", "", "한국어", "abc", "istanbul σας", "x y"]
    expected = rouge_lcs.score(preds, refs, TYPES)
    same(rouge_lcs.score(pa.chunked_array([preds[:3], preds[3:]]), pa.array(refs), TYPES), expected)
    same(rouge_lcs.score(pa.array(preds, pa.string_view()), pa.array(refs), TYPES), expected)
    dictionary = pa.array(refs).dictionary_encode()
    same(rouge_lcs.score(pa.array(preds), dictionary, TYPES), expected)
    # a slice: offset != 0 into the same buffers
    sliced = pa.array(["pad", "pad pad"] + preds + ["tail"]).slice(2, len(preds))
    assert sliced.offset == 2
    same(rouge_lcs.score(sliced, pa.array(refs), TYPES), expected)
    # a table's column, and Rouge, and more examples than one chunk of the engine
    table = pa.table({"p": preds * 1500, "r": refs * 1500})
    scorer = Rouge(TYPES)
    same(scorer.score(table["p"], table["r"]), scorer.score(preds * 1500, refs * 1500))
    # an Arrow column beside a list
    same(rouge_lcs.score(pa.array(preds), refs, TYPES), expected)


def test_multi_reference_lists():
    preds = ["a b c", "the cat", "한국어 문장"]
    refs = [["a b", "b c d"], ["the cat sat"], ["한국어", "문장 입니다", "x"]]
    for mode in ("max_f", "mean"):
        expected = rouge_lcs.score(preds, refs, TYPES, multi_ref=mode)
        same(rouge_lcs.score(pa.array(preds), pa.array(refs), TYPES, multi_ref=mode), expected)
        large = pa.array(refs, pa.large_list(pa.large_string()))
        same(rouge_lcs.score(pa.array(preds), large, TYPES, multi_ref=mode), expected)
        chunked = pa.chunked_array([refs[:1], refs[1:]])
        same(
            rouge_lcs.score(
                pa.chunked_array([preds[:2], preds[2:]]), chunked, TYPES, multi_ref=mode
            ),
            expected,
        )
        sliced = pa.array([["pad"]] + refs).slice(1)
        same(rouge_lcs.score(pa.array(preds), sliced, TYPES, multi_ref=mode), expected)


def test_nulls_name_the_row():
    with pytest.raises(ValueError, match=r"predictions\[1\]: .*null"):
        rouge_lcs.rouge(pa.array(["a", None]), pa.array(["a", "b"]))
    with pytest.raises(ValueError, match=r"references\[3\]: .*null"):
        rouge_lcs.rouge(pa.array(list("abcd")), pa.chunked_array([["a", "b"], ["c", None]]))
    with pytest.raises(ValueError, match=r"references\[2\]\[1\]: .*null"):
        rouge_lcs.rouge(pa.array(list("abc")), pa.array([["a"], ["b", "c"], ["x", None]]))
    with pytest.raises(ValueError, match=r"references\[1\]: expected a list of str, got null"):
        rouge_lcs.rouge(pa.array(list("ab")), pa.array([["a"], None]))
    with pytest.raises(ValueError, match=r"references\[1\]: expected at least one reference"):
        rouge_lcs.rouge(pa.array(list("ab")), pa.array([["a"], []]))
    with pytest.raises(ValueError, match=r"texts\[0\]: .*null"):
        similarity.dedup(pa.array([None, "a"]))
    with pytest.raises(ValueError, match="same length"):
        rouge_lcs.rouge(pa.array(list("ab")), pa.array(["a"]))
    with pytest.raises(TypeError, match="strings"):
        rouge_lcs.rouge(pa.array([1, 2]), pa.array(["a", "b"]))


def hostile(offsets: list[int], data: bytes, large: bool = False, first: int = 0, rows=None):
    """Texts on raw buffers that pyarrow's own checks would refuse to build, as a batch."""
    width = 8 if large else 4
    raw = memoryview(struct.pack(f"<{len(offsets)}{'q' if large else 'i'}", *offsets))
    n = len(offsets) - 1 - first if rows is None else rows
    texts = ArrowTexts([_Column(None, raw, memoryview(data), width, first, n, "predictions", 0)])
    refs = ArrowTexts.of(pa.array(["a"] * n), "references")
    return TextBatch(texts, single_references(refs), refs)


@pytest.mark.parametrize(
    ("offsets", "data", "message"),
    [
        ([0, 5, 3], b"hello", r"predictions\[1\]: Arrow offsets decrease"),
        ([0, 2, 99], b"hello", r"predictions\[1\]: Arrow offset 99 past the end"),
        ([0, 2, 4], b"ab\xff\xfe", r"predictions\[1\]: invalid UTF-8 at byte 0"),
        ([0, 3, 5], b"\xed\xa0\x80ab", r"predictions\[0\]: invalid UTF-8"),  # a surrogate
        ([0, 2, 5], b"\xc0\xafabc", r"predictions\[0\]: invalid UTF-8"),  # overlong
        ([0, 1, 5], b"a\xf4\x90\x80\x80", r"predictions\[1\]: invalid UTF-8"),  # > U+10FFFF
        ([0, 1, 3], b"a\xe2\x82", r"predictions\[1\]: invalid UTF-8"),  # cut short
        ([-4, 1, 2], b"ab", r"negative"),
    ],
)
@pytest.mark.parametrize("large", [False, True])
def test_hostile_buffers(offsets, data, message, large):
    scorer = Rouge(["rouge1", "rougeL"])
    with pytest.raises(ValueError, match=message):
        scorer.score_of(hostile(offsets, data, large))


# Rows of ~100 bytes: 4,000 of them are ~400 kB, several of the text stage's ranges (64 kB
# at least each) on 4 threads, so the rows checked and decoded on the threads span ranges.
_ROW = "서울 인구는 약 천만 명이다 中文，句子。 plain ascii words"


@pytest.mark.parametrize("bad_rows", [[3000], [700, 3500], [3999]])
def test_invalid_utf8_found_across_the_threads_ranges(bad_rows):
    texts = [_ROW + f" {k}" for k in range(4000)]
    data, offsets = bytearray(), [0]
    for k, text in enumerate(texts):
        data += text.encode() + (b"\xff" if k in bad_rows else b"")
        offsets.append(len(data))
    byte = len(texts[bad_rows[0]].encode())
    for threads in (1, 4):
        with pytest.raises(
            ValueError, match=rf"predictions\[{bad_rows[0]}\]: invalid UTF-8 at byte {byte}$"
        ):
            Rouge(["rouge1"], num_threads=threads).score_of(hostile(offsets, bytes(data)))


# Pieces the rows are built of: valid characters of every length, and the byte sequences a
# strict decoder refuses (cut short, overlong, surrogates, above U+10FFFF, stray bytes).
_GOOD = [
    "a",
    " ",
    "Z",
    "\u00e9",
    "\u00ff",
    "\u0100",
    "\u07ff",
    "\u0800",
    "\ud55c",
    "\u4e2d",
    "\uffff",
    "\U00010000",
    "\U0001f600",
    "\U0010ffff",
]
_BAD = [
    b"\x80",
    b"\xbf",
    b"\xc0\xaf",
    b"\xc1\xbf",
    b"\xc2",
    b"\xe0\x80\xaf",
    b"\xe0\xa0",
    b"\xed\xa0\x80",
    b"\xed\xbf\xbf",
    b"\xef\xbf",
    b"\xf0\x80\x80\xaf",
    b"\xf0\x90\x80",
    b"\xf4\x90\x80\x80",
    b"\xf5\x80\x80\x80",
    b"\xf8",
    b"\xfe",
    b"\xff",
    b"\xc3\xa9\xa9",
]


def _strict_first_bad(rows: list[bytes]) -> tuple[int, int] | None:
    for k, row in enumerate(rows):
        try:
            row.decode("utf-8")
        except UnicodeDecodeError as error:
            return k, error.start
    return None


@pytest.mark.parametrize("seed", range(6))
def test_rows_checked_as_pythons_strict_decoder_checks_them(seed):
    # Up to 160 characters (0 to ~640 bytes) cut into up to 7 rows end to end, so that
    # characters and faults fall at every place in the 16-byte blocks the run check reads, and
    # some cuts fall inside a character: the row and byte refused are Python's, and a batch it
    # accepts scores as its str.
    import random

    rng = random.Random(seed)
    scorers = {}
    for trial in range(150):
        body = bytearray()
        for _ in range(rng.randint(0, 160)):
            body += rng.choice(_GOOD).encode() if rng.random() > 0.02 else rng.choice(_BAD)
        cuts = sorted(
            {0, len(body), *(rng.randint(0, len(body)) for _ in range(rng.randint(0, 6)))}
        )
        rows = [bytes(body[a:b]) for a, b in zip(cuts, cuts[1:])] or [b""]
        cuts = cuts if len(cuts) > 1 else [0, 0]
        want = _strict_first_bad(rows)
        batch = hostile(cuts, bytes(body))
        threads = 1 + trial % 2
        scorer = scorers.setdefault(threads, Rouge(["rouge1"], num_threads=threads))
        if want is not None:
            with pytest.raises(
                ValueError, match=rf"^predictions\[{want[0]}\]: invalid UTF-8 at byte {want[1]}$"
            ):
                scorer.score_of(batch)
            continue
        texts = [row.decode() for row in rows]
        same(scorer.score_of(batch), scorer.score(texts, ["a"] * len(texts)))


def test_rows_of_every_code_unit_size_in_any_order():
    # Decoded rows of 1, 2 and 4 bytes a code unit share one arena: a 2- or 4-byte row after
    # a 1-byte row of odd length must still be aligned (the sanitizer's build checks it).
    rows = ["é", "中", "é1", "😀", "ab", "é22", "中文", "😀😀x", "é", "한"]
    preds = [rows[(k * 7) % len(rows)] + rows[k % len(rows)] for k in range(300)]
    refs = [rows[(k * 3) % len(rows)] for k in range(300)]
    for threads in (1, 2):
        scorer = Rouge(TYPES[:3], num_threads=threads)
        same(scorer.score(pa.array(preds), pa.array(refs)), Rouge(TYPES[:3]).score(preds, refs))


def test_threads_give_the_lists_numbers_on_mixed_scripts():
    preds = [_ROW + f" {k}（{k % 7}）" for k in range(4000)]
    refs = [f"{k} ascii only" if k % 3 == 0 else _ROW[k % 20 :] for k in range(4000)]
    want = Rouge(TYPES[:3]).score(preds, refs)
    for threads in (1, 2, 4):
        same(Rouge(TYPES[:3], num_threads=threads).score(pa.array(preds), pa.array(refs)), want)


def test_hostile_buffer_sizes():
    scorer = Rouge(["rouge1"])
    with pytest.raises(ValueError, match="too short"):  # more rows than the offsets hold
        scorer.score_of(hostile([0, 1], b"abc", rows=3))
    with pytest.raises(ValueError, match="too short"):
        scorer.score_of(hostile([0, 1, 2], b"abc", first=2, rows=1))
    # the same through pyarrow's unchecked constructor: offsets that decrease
    buf = pa.py_buffer(struct.pack("<3i", 0, 3, 1))
    arr = pa.Array.from_buffers(pa.string(), 2, [None, buf, pa.py_buffer(b"abc")])
    with pytest.raises(ValueError, match=r"predictions\[1\]: Arrow offsets decrease"):
        rouge_lcs.score(arr, pa.array(["a", "b"]), ["rouge1"])


def test_similarity_and_rewards_take_columns():
    texts = ["the cat sat", "a cat sat", "한국어 문장", "the cat sat"]
    assert similarity.dedup(pa.array(texts)).kept == similarity.dedup(texts).kept
    assert np.array_equal(
        similarity.cdist(pa.array(texts), pa.array(texts[::-1])),
        similarity.cdist(texts, texts[::-1]),
    )
    from rouge_lcs.integrations.rewards import rouge_reward

    reward = rouge_reward("rouge1")
    assert reward.score(pa.array(texts), texts[::-1]) == reward.score(texts, texts[::-1])


@pytest.mark.parametrize("rouge_type", ["rougeL", "rouge2"])
def test_similarity_reads_columns_without_a_str_per_row(corpora, monkeypatch, rouge_type):
    """dedup, cdist and SimilarityIndex.top_matches on chunked columns (seeds a column too)
    equal the list-of-str calls (checked against the Alpaca loop in tests/scores), and on the
    native engine no text of a column is made a str."""
    from rouge_lcs.engine.backend import implementation

    texts = [r for row in corpora.rows("en_headlines_rougemetric") for r in row["references"]]
    texts = texts[:150] + texts[:10] + [t + " again" for t in texts[20:30]]
    seeds, column = texts[100:130], pa.chunked_array([texts[:70], texts[70:]])
    options = {"rouge_type": rouge_type, "tokenizer": "rouge_score"}
    want = similarity.dedup(texts, seeds=seeds, neighbors=3, **options)
    index = similarity.SimilarityIndex(texts[:100], **options)
    extracted = [index.extract(q, limit=5, score_cutoff=0.1) for q in texts]
    if implementation() == "native":

        def no_strings(self):
            raise AssertionError("a column was made a list of str")

        monkeypatch.setattr(ArrowTexts, "tolist", no_strings)
    got = similarity.dedup(column, seeds=pa.array(seeds), neighbors=3, **options)
    assert got == want and len(got.kept) < len(texts)
    assert np.array_equal(
        similarity.cdist(column, pa.array(seeds), **options),
        similarity.cdist(texts, seeds, **options),
    )
    found = index.top_matches(column, limit=5, score_cutoff=0.1)
    assert found == [[(i, v) for _, v, i in row] for row in extracted]
    assert index.top_matches([], limit=5) == []


def test_to_arrow():
    preds, refs = ["the cat sat", "a dog", ""], ["the cat sat down", "a dog", "x"]
    scores = rouge_lcs.score(preds, refs, ["rouge1", "rougeL"])
    table = scores.to_arrow()
    assert table.column_names == ["index", "rouge1", "rougeL"]
    assert table["index"].to_pylist() == [0, 1, 2]
    assert table["rouge1"].to_pylist() == [6 / 7, 1.0, 0.0]  # 3/3 precision, 3/4 recall
    full = scores.to_arrow(
        return_precision_recall=True, index=pa.array(["a", "b", "c"]), index_name="id"
    )
    assert full.column_names == [
        "id", "rouge1", "rougeL", "rouge1_precision", "rouge1_recall", "rougeL_precision",
        "rougeL_recall",
    ]  # fmt: skip
    assert full["rouge1_recall"].to_pylist() == [0.75, 1.0, 0.0]
    with pytest.raises(ValueError, match="index"):
        scores.to_arrow(index=[1, 2])
    with pytest.raises(ValueError, match="index_name"):
        scores.to_arrow(index_name="rouge1")


def test_polars_and_pandas_forms():
    preds, refs = (
        ["The cat sat.", "Über café 日本語", "한국어 문장"],
        ["the cat", "uber cafe", "한국어"],
    )
    expected = rouge_lcs.score(preds, refs, TYPES)
    pd = pytest.importorskip("pandas", reason="pandas is not installed")
    column = pd.Series(preds, dtype="string[pyarrow]")
    same(rouge_lcs.score(column, pd.Series(refs, dtype="string[pyarrow]"), TYPES), expected)
    pl = pytest.importorskip("polars", reason="polars is not installed (the test extra has it)")
    same(rouge_lcs.score(pl.Series(preds), pl.Series(refs), TYPES), expected)
    same(rouge_lcs.score(pl.Series(preds), pl.Series([[r] for r in refs]), TYPES), expected)
    with pytest.raises(ValueError, match=r"predictions\[1\]"):
        rouge_lcs.score(pl.Series(["a", None, "b"]), pl.Series(preds), TYPES)


def test_docs_page_runs(repo):
    """docs/arrow.md's example runs as written (its asserts hold)."""
    import re

    page = (repo / "docs" / "arrow.md").read_text("utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", page, flags=re.M | re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/arrow.md", "exec"), {})


def test_cli_streams_parquet(corpora, tmp_path, repo):
    """The real CLI on a Parquet file of more rows than one record batch: per-example scores
    as Parquet equal score()'s, the means rouge()'s to the bit (exact partial sums)."""
    import json
    import os
    import subprocess
    import sys

    import pyarrow.parquet as pq

    from rouge_lcs.cli.stream import BATCH_ROWS

    preds, refs = corpus(corpora, "en_headlines_rougemetric")
    reps = BATCH_ROWS // len(preds) + 2
    preds, refs = preds * reps, refs * reps
    source, output = tmp_path / "pairs.parquet", tmp_path / "scores.parquet"
    pq.write_table(pa.table({"prediction": preds, "references": refs}), source, row_group_size=5000)
    env = {**os.environ, "PYTHONPATH": str(repo)}
    run = subprocess.run(
        [sys.executable, "-m", "rouge_lcs", "score", "--data", str(source), "-o", str(output),
         "--json", "--rouge-types", "rouge1", "rougeL"],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    assert "rows/s" in run.stderr
    payload = json.loads(run.stdout)
    expected = rouge_lcs.score(preds, refs, ["rouge1", "rougeL"])
    for name, score in expected.mean().items():
        assert payload[name] == score._asdict()
    assert payload["n"] == len(preds)
    table = pq.read_table(output)
    assert table["row"].to_pylist() == list(range(len(preds)))
    assert np.array_equal(table["rougeL"].to_numpy(), expected.column("rougeL"))
    assert np.array_equal(table["rouge1_recall"].to_numpy(), expected.column("rouge1", "recall"))
