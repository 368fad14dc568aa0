"""Fuzz targets of the C core and the readers (issue 24), coverage-guided with atheris.

    python tests/fuzz/fuzz.py --seconds 30          # every target in turn, ~30 s in all (CI)
    python tests/fuzz/fuzz.py --target punkt -- -max_total_time=3600   # one target, long run

Each target takes bytes and checks one boundary:

- ``tokens``: the C ``unicode`` tokenizer equals the Python one (``regex``) on any text;
- ``encoder``: the C Encoder interns any text (lone surrogates included) into as many ids as
  the Python tokenizer makes tokens;
- ``user_tokens``: a user tokenizer's result of any shape is checked in C (``Encoder(name=)``)
  as ``CheckedTokenizer`` checks it in Python: the same error, or the same ids;
- ``nfkc``: NFKC, lower() and the joiners' removal in C (``csrc/nfkc.h``) equal CPython's on
  any text, alone and inside the Encoder on two threads;
- ``punkt``: Punkt in C (``punkt_spans``, no model and the English one; with CPython's str
  methods too) equals the Python port on any text;
- ``punkt_tables``: the reader of a model module's literals (``punkt_model_from_source``)
  takes any bytes spliced into a model file: a model or None;
- ``readers``: the CLI's JSONL and CSV readers raise nothing but ``InputError``;
- ``rouge155``: the ROUGE-1.5.5 token reader in C equals the Python one on any bytes;
- ``combine``: P/R/F from counts in C (``combine``) takes any buffers (a ValueError or the
  NumPy reference's floats, bit for bit).
- ``arrow_rows``: any bytes cut into the rows of an Arrow column (``encode_arrow``): refused
  with the first row and byte that Python's strict UTF-8 decoder refuses, else encoded as the
  rows' str (the run check 16 bytes at a time, the per-row count and the decode);
- ``similarity``: the C similarity kernel's LCS hits equal rapidfuzz's LCS on id sequences cut
  from the bytes, some repeated past one 4,096-token strip (the dense table's limit).

``tests/fuzz/corpus/seeds/`` holds the inputs that crashed or misbehaved before (the issues'
hostile tests) and seeds every target; ``tests/fuzz/corpus/<target>/`` is the target's corpus
as libFuzzer merged it (the inputs that reach new coverage).  With ``--target`` and atheris, the
run is coverage-guided: libFuzzer reads both directories and writes new inputs into the first
(give other directories after ``--`` to keep the checkout clean, as ``scripts/fuzz.sh`` does).
The coverage is the C extension's when it is built with ``-fsanitize=fuzzer-no-link``
(``scripts/fuzz.sh``), plus the Python modules of ``PY_INSTRUMENTED`` (the ``readers`` target
has no C code).  Without atheris (``pip install atheris``) or with ``--random`` the targets run
on the whole corpus and on random mutations of it for the time given.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import random
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"


def _text(data: bytes) -> str:
    # surrogatepass: lone surrogates reach the C code as they can from Python
    return data.decode("utf-8", "surrogatepass") if _valid(data) else data.decode("latin-1")


def _valid(data: bytes) -> bool:
    try:
        data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return False
    return True


def target_tokens(data: bytes) -> None:
    from rouge_lcs import _native
    from rouge_lcs.engine import native
    from rouge_lcs.text.tokenizers import unicode_tokenize

    text = _text(data)
    if native.native_unicode():
        assert _native._test_unicode_tokens(text, native._normalize) == unicode_tokenize(text)


def target_encoder(data: bytes) -> None:
    from rouge_lcs import _native
    from rouge_lcs.engine import native
    from rouge_lcs.text.tokenizers import unicode_tokenize

    text = _text(data)
    encoder = _native.Encoder(_native.MODE_UNICODE, unicode_tokenize, None, native._normalize)
    ids, offsets = encoder.encode([text, text[: len(text) // 2]])
    assert len(ids) // 4 == len(unicode_tokenize(text)) + len(
        unicode_tokenize(text[: len(text) // 2])
    )


class _Str(str):
    pass


def target_user_tokens(data: bytes) -> None:
    # A user tokenizer's result, checked in C (Encoder(name=)) as CheckedTokenizer checks it in
    # Python: the same error, or the same ids.
    from rouge_lcs import _native
    from rouge_lcs.text.tokenizers import CheckedTokenizer

    text = _text(data[1:])
    shape = data[0] % 8 if data else 0
    shapes: list[Callable[[str], object]] = [
        lambda t: t.split(),
        lambda t: tuple(t.split()),
        lambda t: [_Str(w) for w in t.split()],
        lambda t: (w for w in t.split()),
        lambda t: t,
        lambda t: [*t.split(), len(t)],
        lambda t: None,
        lambda t: [t.encode("utf-8", "surrogatepass")],
    ]
    fn = shapes[shape]
    checked = _native.Encoder(_native.MODE_PYTHON, CheckedTokenizer(fn, "f"), None)
    named = _native.Encoder(_native.MODE_PYTHON, fn, None, name="f")
    outcomes = []
    for encoder in (checked, named):
        try:
            outcomes.append(encoder.encode([text, text[::-1]]))
        except TypeError as error:
            outcomes.append(str(error))
    assert outcomes[0] == outcomes[1], (shape, outcomes)


def target_nfkc(data: bytes) -> None:
    import unicodedata

    from rouge_lcs import _native
    from rouge_lcs.engine import native
    from rouge_lcs.text.tokenizers import JOINERS, unicode_tokenize

    text = _text(data)
    got = _native._test_nfkc(text)
    assert got is None or got == unicodedata.normalize("NFKC", text).lower().translate(JOINERS)
    texts = [text, text[::-1], text[: len(text) // 2]]
    encoder = _native.Encoder(
        _native.MODE_UNICODE, unicode_tokenize, None, native._normalize, native_nfkc=True
    )
    ids, offsets = encoder.encode(texts, 2)
    assert len(ids) // 4 == sum(len(unicode_tokenize(t)) for t in texts)


def target_punkt(data: bytes) -> None:
    from rouge_lcs import _native
    from rouge_lcs.engine import native
    from rouge_lcs.text import sentences

    text = _text(data)
    if not native.native_unicode():
        return
    for model in (None, "english") if sentences.punkt_models_installed() else (None,):
        want = list(map(tuple, sentences.punkt_of(model).spans(text)))
        for cpython in (False, True):
            got = _native.punkt_spans(text, native._c_model(model), cpython)
            assert list(map(tuple, got)) == want


# A model module with room for the fuzzed bytes in a string, an item list and a value.
_MODEL = b"""'''A model.'''
N = 0
ABBREV_TYPES = frozenset(('dr','@',))
SENT_STARTERS = frozenset(())
COLLOCATIONS = frozenset((('a','b'),))
ORTHO_CONTEXT = {'a':126,'b':@}
"""


def target_punkt_tables(data: bytes) -> None:
    from rouge_lcs import _native

    for source in (_MODEL.replace(b"@", data, 1), _MODEL.replace(b"@", data)):
        model = _native.punkt_model_from_source(source, ".?!")
        if model is not None:
            model._test_tables()
            _native.punkt_spans("Dr. X came. He left.", model)


def target_readers(data: bytes) -> None:
    from rouge_lcs.cli.io import InputError, read_table

    text = _text(data)
    for name in ("fuzz.jsonl", "fuzz.csv", "fuzz.tsv"):
        with contextlib.suppress(InputError):  # a clear error is the right answer
            read_table(name, text)


def target_rouge155(data: bytes) -> None:
    import numpy as np

    from rouge_lcs import _native
    from rouge_lcs.engine.reference.python import BACKEND

    for lower in (False, True):
        ids, distinct = _native.rouge155_tokens(data, lower)
        want_ids, want_distinct = BACKEND.rouge155_tokens(data, lower)
        assert distinct == want_distinct
        assert (np.frombuffer(ids, dtype=np.int32) == want_ids).all()


def target_combine(data: bytes) -> None:
    from array import array

    import numpy as np

    from rouge_lcs import _native
    from rouge_lcs.config.options import MULTI_REF_MODES
    from rouge_lcs.scores.multiref import combine

    if len(data) < 3:
        return
    n_types, mode, n_examples = 1 + data[0] % 4, data[1] % 4, data[2] % 8
    body = data[3:]
    n_refs = array("q", [1 + b % 3 for b in body[:n_examples]])
    counts = array("q", body[n_examples:][: len(body[n_examples:]) // 8 * 8])
    cells = len(n_refs) * n_types
    outs = [array("d", bytes(8 * cells)) for _ in range(3)]
    try:
        _native.combine(counts, n_types, n_refs, mode, 1.0, *outs)
    except ValueError:
        return
    grid = np.frombuffer(counts, dtype=np.int64).reshape(-1, n_types, 3)
    if (grid < 0).any() or (grid > 1 << 50).any():
        return  # counts the kernels never make: only memory safety is checked
    want = combine(grid, np.frombuffer(n_refs, dtype=np.int64), MULTI_REF_MODES[mode], 1.0)
    for got, expected in zip(outs, want):
        assert np.frombuffer(got, dtype=np.float64).tobytes() == expected.tobytes()


def target_number_texts(data: bytes) -> None:
    from array import array

    from rouge_lcs import _native
    from rouge_lcs.engine.reference.python import BACKEND

    # the bytes cut into short strings (equal ones built apart, so equal but distinct objects),
    # the first byte choosing where the range starts and how long the outputs are
    if not data:
        return
    words = [_text(data[k : k + 1 + data[k] % 4]) for k in range(1, len(data))]
    half = len(words) // 2
    pairs, refs = words[:half], words[half : 2 * half]
    start = (data[0] >> 4) % 4 - 1  # -1 .. 2: a range inside the lists or not
    # mostly the rest of the lists from start, sometimes not
    n_out = max(half - start, 0) if data[0] % 5 else data[0] % 3
    outs = [array("q", bytes(8 * n_out)) for _ in range(2)]
    try:
        texts = _native.number_texts(pairs, refs, *outs, start)
    except ValueError:
        assert start < 0 or start + n_out > half
        return
    want = BACKEND.number_texts(pairs, refs, start, start + n_out)
    assert (texts, outs[0], outs[1]) == want


def target_similarity(data: bytes) -> None:
    import numpy as np
    from rapidfuzz.distance import LCSseq

    from rouge_lcs import _native

    # byte 0: how often each sequence repeats (1, or up to 700 times: several strips);
    # byte 1: the alphabet; the rest, split at 0xff, the sequences (the first is the query)
    if len(data) < 3:
        return
    times = 1 if data[0] % 4 else 1 + data[0] * 3 % 700
    alphabet = 2 + data[1] % 64
    parts = data[2:].split(b"\xff")[:6]
    seqs = [[b % alphabet for b in part] * times for part in parts]
    query, choices = seqs[0], seqs[1:] or [[]]
    ids = np.array([t for c in choices for t in c], dtype=np.int32)
    starts = np.cumsum([0] + [len(c) for c in choices], dtype=np.int64)
    one = np.zeros(1, dtype=np.int64)
    out = np.empty(len(choices), dtype=np.int64)
    _native.similarity(
        np.array(query, dtype=np.int32),
        np.array([0, len(query)], dtype=np.int64),
        one,
        ids,
        starts,
        np.arange(len(choices), dtype=np.int64),
        one,
        one + len(choices),
        alphabet,
        0,  # LCS
        0,
        1.0,
        -1.0,  # every pair passes the floor: none is pruned
        False,
        0,
        1 + data[0] % 2,
        out,
        np.empty(0, dtype=np.int64),
        np.empty(0, dtype=np.int64),
    )
    want = [LCSseq.similarity(query, c) if query and c else 0 for c in choices]
    assert out.tolist() == want, (len(query), [len(c) for c in choices])


def target_all_utf8(data: bytes) -> None:
    from rouge_lcs import _native

    # the bytes cut into texts (lone surrogates as surrogatepass decodes them), the answer
    # checked against encoding each text
    texts = [_text(data[k : k + 1 + data[k] % 32]) for k in range(0, len(data), 7)]

    def encodes(text: str) -> bool:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True

    assert _native.all_utf8(texts) is all(map(encodes, texts))


def target_int_lists(data: bytes) -> None:
    from rouge_lcs.engine.native import BACKEND
    from rouge_lcs.engine.reference.python import BACKEND as PYTHON

    # lists and tuples of ints of every size, with now and then an item that is not one (a
    # bool, a float, an int past int64, a nested list): the C pass answers as the reference
    kinds = [0, 1, -1, 1 << 62, -(1 << 63), (1 << 63) - 1, 1 << 63, True, 2.0, [1]]
    seqs: list[object] = []
    for k in range(0, len(data), 5):
        chunk = data[k : k + 5]
        items = [int.from_bytes(chunk, "little", signed=True) + b for b in chunk[:2]]
        items += [kinds[b % len(kinds)] for b in chunk[2:] if b % 7 == 0]
        seqs.append(tuple(items) if chunk[0] % 2 else items)
    want, got = PYTHON.int_lists(seqs), BACKEND.int_lists(seqs)
    assert (want is None) == (got is None), (want, got)
    if want is not None and got is not None:
        assert want[0].tolist() == got[0].tolist() and want[1].tolist() == got[1].tolist()


def target_column_sums(data: bytes) -> None:
    import math
    import struct
    from array import array

    from rouge_lcs import _native

    # the bytes as doubles (any bit pattern: NaN, infinities, subnormals), the first byte
    # choosing the columns (0 and some that do not divide the values: refused)
    if not data:
        return
    columns = data[0] % 5
    values = list(
        struct.unpack(f"<{(len(data) - 1) // 8}d", data[1 : 1 + (len(data) - 1) // 8 * 8])
    )
    try:
        got = _native.column_sums(array("d", values), columns)
    except ValueError:
        assert columns == 0 or len(values) % columns or not all(map(math.isfinite, values))
        return
    except OverflowError:
        with_overflow = True
    else:
        with_overflow = False
    try:
        want = [math.fsum(values[c::columns]) for c in range(columns)]
    except OverflowError:
        assert with_overflow
        return
    assert not with_overflow and got == want, (values, got, want)


def target_arrow_rows(data: bytes) -> None:
    import re
    import struct

    from rouge_lcs import _native
    from rouge_lcs.engine import native
    from rouge_lcs.text.tokenizers import unicode_tokenize

    # the first byte chooses the cuts' spacing: the rows' bytes are the rest, end to end (a
    # cut may fall inside a character, as a hostile offsets buffer can put it)
    if not data:
        return
    body, step = data[1:], 1 + data[0] % 40
    cuts = sorted(
        {0, len(body), *range(0, len(body), step), *(b % (len(body) + 1) for b in data[:4])}
    )
    rows = [body[a:b] for a, b in zip(cuts, cuts[1:])]
    offsets = struct.pack(f"<{len(cuts)}i", *cuts)
    want_bad = None
    for k, row in enumerate(rows):
        try:
            row.decode("utf-8")
        except UnicodeDecodeError as error:
            want_bad = (k, error.start)
            break
    encoder = _native.Encoder(
        _native.MODE_UNICODE, unicode_tokenize, None, native._normalize, native_nfkc=True
    )
    try:
        ids, starts = encoder.encode_arrow([(offsets, body, 4, 0, len(rows), "t", 0)])
    except ValueError as error:
        got = re.fullmatch(r"t\[(\d+)\]: invalid UTF-8 at byte (\d+)", str(error))
        assert got is not None and want_bad == (int(got[1]), int(got[2])), (error, want_bad)
        return
    assert want_bad is None, want_bad
    texts = [row.decode("utf-8") for row in rows]
    assert (ids, starts) == encoder.encode(texts)


TARGETS: dict[str, Callable[[bytes], None]] = {
    "combine": target_combine,
    "similarity": target_similarity,
    "number_texts": target_number_texts,
    "all_utf8": target_all_utf8,
    "int_lists": target_int_lists,
    "column_sums": target_column_sums,
    "arrow_rows": target_arrow_rows,
    "tokens": target_tokens,
    "encoder": target_encoder,
    "user_tokens": target_user_tokens,
    "nfkc": target_nfkc,
    "punkt": target_punkt,
    "punkt_tables": target_punkt_tables,
    "readers": target_readers,
    "rouge155": target_rouge155,
}


# Python modules instrumented for a target's coverage: only where no C code is reached, so that
# the other targets' coverage numbers are the C core's alone.
PY_INSTRUMENTED: dict[str, list[str]] = {"readers": ["rouge_lcs.cli.io"]}


def seeds() -> list[bytes]:
    """The checked-in corpus: every target's inputs and the ones that broke something once."""
    return [p.read_bytes() for p in sorted(CORPUS.rglob("*")) if p.is_file()]


def mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    """A random edit of ``data`` (insert, delete, flip, splice with another seed)."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        pick = rng.random()
        at = rng.randint(0, len(out))
        if pick < 0.3:
            out[at:at] = rng.choice(
                [b".", b"\n", b" ", b"\xed\xa0\x80", b'"', b",", b"Mr. ", b"\t"]
            )
        elif pick < 0.5 and out:
            del out[at : at + rng.randint(1, 8)]
        elif pick < 0.7 and out:
            out[min(at, len(out) - 1)] = rng.randrange(256)
        else:
            other = rng.choice(pool)
            out[at:at] = other[: rng.randint(0, len(other))]
    return bytes(out[:4096])


def run_random(target: Callable[[bytes], None], seconds: float, seed: int = 0) -> int:
    """The target on every seed, then on mutations until ``seconds`` pass; runs done."""
    pool = seeds() or [b""]
    for data in pool:
        target(data)
    rng = random.Random(seed)
    end, runs = time.monotonic() + seconds, len(pool)
    while time.monotonic() < end:
        target(mutate(rng, rng.choice(pool), pool))
        runs += 1
    return runs


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", choices=sorted(TARGETS), help="one target (default: all)")
    parser.add_argument("--seconds", type=float, default=30.0, help="in all, for every target")
    parser.add_argument("--random", action="store_true", help="random mutations even with atheris")
    args, rest = parser.parse_known_args(argv)
    names = [args.target] if args.target else sorted(TARGETS)
    try:
        import atheris  # type: ignore[import-not-found]
    except ImportError:
        atheris = None
    if atheris is not None and not args.random and args.target:
        # libFuzzer owns the process: one target; its corpus directories are the ones given
        # after `--`, else the target's kept corpus (written to) and the shared seeds
        extra = [a for a in rest if a != "--"]
        if not any(a.startswith("-max_total_time") for a in extra):
            extra.append(f"-max_total_time={int(args.seconds)}")
        if not any(not a.startswith("-") for a in extra):
            (CORPUS / args.target).mkdir(exist_ok=True)
            extra += [str(CORPUS / args.target), str(CORPUS / "seeds")]
        with atheris.instrument_imports():
            for module in PY_INSTRUMENTED.get(args.target, []):
                importlib.import_module(module)
        # imported before fuzzing starts, so that libFuzzer counts the extension's edges
        # (its counters register when the module loads)
        import rouge_lcs._native  # noqa: F401

        import rouge_lcs.engine.native  # noqa: F401

        # libFuzzer runs its argv again through the shell for -merge=1 (and -fork, -jobs):
        # argv[0] as the interpreter and this file; --target= is passed through verbatim
        self = shlex.join([sys.executable, str(Path(__file__).resolve())])
        atheris.Setup([self, f"--target={args.target}", *extra], TARGETS[args.target])
        atheris.Fuzz()
        return 0
    for name in names:
        runs = run_random(TARGETS[name], args.seconds / len(names))
        print(f"fuzz {name}: {runs} inputs, no failure", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
