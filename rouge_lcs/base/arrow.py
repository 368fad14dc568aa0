"""Arrow string columns as texts, read from their buffers.

A pyarrow ``StringArray`` / ``LargeStringArray`` / ``StringViewArray`` / ``ChunkedArray``, a
polars ``Series`` or a pandas ``string[pyarrow]`` column of texts becomes an
:class:`ArrowTexts`: a sequence of ``str`` that also hands the native engine its offsets and
data buffers (:meth:`ArrowTexts.columns`), so that no Python string is made per row.  A
``list<string>`` column (several references per example) becomes :class:`ArrowLists`.

Objects are recognized by their type's module, without importing pyarrow (``import
rouge_lcs`` must not import it); pyarrow is imported only once such an object is given, when
it is already loaded.  Nulls are a ``ValueError`` naming the row; offsets and UTF-8 are
checked where the rows are read (the native engine's ``encode_arrow``, or :meth:`ArrowTexts.
__getitem__` here), so a malformed buffer is a ``ValueError`` naming the row too.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator, Sequence
from functools import lru_cache

TYPE_CHECKING = False  # not typing's: importing typing costs a fresh process ~3 ms
if TYPE_CHECKING:
    from typing import Any

#: The type modules of the columns read here (``pyarrow.lib``, ``polars.series.series``,
#: ``pandas.core.series``).
_MODULES = ("pyarrow", "polars", "pandas")


def _module(value: object) -> str:
    return type(value).__module__.split(".", 1)[0]


def _pyarrow() -> Any:
    import pyarrow  # loaded already: the caller holds a pyarrow object

    return pyarrow


def is_arrow(value: object) -> bool:
    """Whether ``value`` is an Arrow-backed column this module reads."""
    module = _module(value)
    if module not in _MODULES or module not in sys.modules:
        return False
    if module == "pyarrow":
        return hasattr(value, "type") and hasattr(value, "null_count")
    if module == "polars":
        return hasattr(value, "to_arrow") and hasattr(value, "dtype")
    dtype = getattr(value, "dtype", None)  # pandas: only Arrow-backed string columns
    return getattr(dtype, "storage", None) in ("pyarrow", "pyarrow_numpy") or (
        type(dtype).__name__ == "ArrowDtype"
    )


def _chunks(value: object) -> list[Any]:
    """The pyarrow arrays of an Arrow-backed column."""
    module = _module(value)
    if module == "polars":
        value = value.to_arrow()  # type: ignore[attr-defined]  # zero-copy
    elif module == "pandas":
        value = value.array.__arrow_array__()  # type: ignore[attr-defined]
    chunks = getattr(value, "chunks", None)
    return list(chunks) if chunks is not None else [value]


def first_null(arr: Any) -> int:
    """The index of the first null of ``arr`` (an Arrow array that has one)."""
    # pyarrow.compute is a submodule ``import pyarrow`` does not load: ``pa.compute`` failed
    # with AttributeError where nothing else had imported it (the command line's stream).
    import pyarrow.compute as pc

    return int(pc.index(arr.is_null(), True).as_py())


def plain_strings(arr: Any) -> Any:
    """``arr`` with a dictionary decoded and string views as ``large_string`` (their bytes
    copied by Arrow), anything else as it is: the forms the buffers are read in."""
    pa = _pyarrow()
    types = pa.types
    if types.is_dictionary(arr.type):
        values = arr.dictionary
        if types.is_string_view(values.type):
            # Arrow has no 'take' (dictionary_decode) for views: the values cast first
            values = values.cast(pa.large_string())
        arr = values.take(arr.indices)
    if types.is_string_view(arr.type):
        arr = arr.cast(pa.large_string())  # in C: Arrow's own copy of the bytes
    return arr


def _as_strings(arr: Any, name: str, base: int) -> Any:
    """``arr`` as a string or large_string array without nulls (views, dictionaries cast)."""
    pa = _pyarrow()
    types = pa.types
    arr = plain_strings(arr)
    if not (types.is_string(arr.type) or types.is_large_string(arr.type)):
        raise TypeError(f"{name}: expected an Arrow column of strings, got type {arr.type}")
    if arr.null_count:
        row = base + first_null(arr)
        raise ValueError(f"{name}[{row}]: expected a str, got null (a missing Arrow value)")
    return arr


class _Column:
    """One string array's rows ``first .. first + length - 1`` (rows ``base ..`` of ``name``)."""

    __slots__ = ("owner", "offsets", "data", "width", "first", "length", "name", "base")

    def __init__(
        self,
        owner: Any,
        offsets: Any,
        data: Any,
        width: int,
        first: int,
        length: int,
        name: str,
        base: int,
    ) -> None:
        self.owner = owner  # keeps the buffers alive
        self.offsets, self.data, self.width = offsets, data, width
        self.first, self.length, self.name, self.base = first, length, name, base

    @classmethod
    def of(cls, arr: Any, name: str, base: int) -> _Column:
        pa = _pyarrow()
        _, offsets, data = arr.buffers()
        width = 8 if pa.types.is_large_string(arr.type) else 4
        offsets = memoryview(offsets) if offsets is not None else memoryview(bytes(width))
        data = memoryview(data) if data is not None else memoryview(b"")
        length = len(arr)
        first = arr.offset if length else 0
        if not length:
            offsets = memoryview(bytes(width))
        return cls(arr, offsets, data, width, first, length, name, base)

    def part(self, start: int, stop: int) -> _Column:
        return _Column(
            self.owner,
            self.offsets,
            self.data,
            self.width,
            self.first + start,
            stop - start,
            self.name,
            self.base + start,
        )

    def key(self) -> tuple[Any, ...]:
        return (self.offsets, self.data, self.width, self.first, self.length, self.name, self.base)

    def strings(self) -> list[str]:
        """The rows as str, checked as the native engine checks them."""
        code = "i" if self.width == 4 else "q"
        end = (self.first + self.length + 1) * self.width
        if self.first < 0 or end > len(self.offsets):
            raise ValueError(f"encode_arrow: {self.name}: the offsets buffer is too short")
        offs = self.offsets[self.first * self.width : end].cast("B").cast(code)
        data = self.data.cast("B")
        out = []
        prev = offs[0] if self.length else 0
        if prev < 0:
            raise ValueError(f"encode_arrow: {self.name}: offsets must not be negative")
        for k in range(self.length):
            nxt = offs[k + 1]
            row = self.base + k
            if nxt < prev:
                raise ValueError(f"{self.name}[{row}]: Arrow offsets decrease ({nxt} after {prev})")
            if nxt > len(data):
                raise ValueError(
                    f"{self.name}[{row}]: Arrow offset {nxt} past the end of the data "
                    f"({len(data)} bytes)"
                )
            try:
                out.append(str(data[prev:nxt], "utf-8"))
            except UnicodeDecodeError as error:
                raise ValueError(
                    f"{self.name}[{row}]: invalid UTF-8 at byte {error.start}"
                ) from None
            prev = nxt
        return out


class ArrowTexts(Sequence[str]):
    """Texts held in Arrow string arrays: a sequence of ``str`` (decoded on access) whose
    :meth:`columns` are the buffers the native engine reads."""

    def __init__(self, parts: list[_Column]) -> None:
        self._parts = [p for p in parts if p.length]
        self._len = sum(p.length for p in self._parts)
        self._strings: list[str] | None = None

    @classmethod
    def of(cls, value: object, name: str) -> ArrowTexts:
        """The texts of an Arrow-backed string column (see :func:`is_arrow`)."""
        parts, base = [], 0
        for arr in _chunks(value):
            parts.append(_Column.of(_as_strings(arr, name, base), name, base))
            base += len(arr)
        return cls(parts)

    def __len__(self) -> int:
        return self._len

    def columns(self) -> list[tuple[Any, ...]]:
        """``(offsets, data, width, first, length, name, base)`` per part, as the native
        engine's ``Encoder.encode_arrow`` takes them."""
        return [p.key() for p in self._parts]

    def __add__(self, other: object) -> ArrowTexts:
        if not isinstance(other, ArrowTexts):
            return NotImplemented
        return ArrowTexts(self._parts + other._parts)

    def _slice(self, start: int, stop: int) -> ArrowTexts:
        parts, at = [], 0
        for p in self._parts:
            lo, hi = max(start - at, 0), min(stop - at, p.length)
            if lo < hi:
                parts.append(p.part(lo, hi))
            at += p.length
        return ArrowTexts(parts)

    def tolist(self) -> list[str]:
        """Every text as a ``str`` (made once)."""
        if self._strings is None:
            self._strings = [s for p in self._parts for s in p.strings()]
        return self._strings

    def __getitem__(self, index: Any) -> Any:
        """A text (``str``), or a slice of them (contiguous: an :class:`ArrowTexts` on the same
        buffers; with a step: a list)."""
        if isinstance(index, slice):
            start, stop, step = index.indices(self._len)
            if step != 1:
                return self.tolist()[index]
            return self._slice(start, max(start, stop))
        return self.tolist()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self.tolist())


def single_references(texts: Sequence[str]) -> Sequence[list[str]]:
    """One reference per example, ``[texts[i]]`` (a :class:`TextBatch`'s ``references``),
    made on access: a list of 100,000 one-item lists cost ~30 ms of a 190 ms call, most of it
    in the garbage collector's passes over the new lists (``benchmarks/bench_nfkc.py``)."""
    return _Singles(texts)


class _Singles(Sequence[list[str]]):
    """One reference per example: ``[texts[i]]``."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = texts

    def __len__(self) -> int:
        return len(self.texts)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return _Singles(self.texts[index])
        return [self.texts[index]]

    def __iter__(self) -> Iterator[list[str]]:
        return ([text] for text in self.texts)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]  # equal to a list, so as unhashable

    def __repr__(self) -> str:
        return f"single_references({self.texts!r})"


class ArrowLists(Sequence[list[str]]):
    """Several texts per example from an Arrow ``list<string>`` column: example ``i``'s texts
    are ``values[starts[i]:starts[i + 1]]``."""

    def __init__(self, starts: array[int], values: ArrowTexts) -> None:
        self.starts, self.values = starts, values

    @classmethod
    def of(cls, value: object, name: str) -> ArrowLists:
        """The lists of an Arrow-backed ``list<string>`` column (each non-empty)."""
        pa = _pyarrow()
        starts, values, base, total = array("q", [0]), [], 0, 0
        for arr in _chunks(value):
            if not (pa.types.is_list(arr.type) or pa.types.is_large_list(arr.type)):
                raise TypeError(f"{name}: expected an Arrow column of strings or lists of strings")
            if arr.null_count:
                row = base + first_null(arr)
                raise ValueError(f"{name}[{row}]: expected a list of str, got null")
            offs = arr.offsets.to_numpy(zero_copy_only=False)
            if len(arr) and (
                offs[0] < 0 or (offs[1:] < offs[:-1]).any() or offs[-1] > len(arr.values)
            ):
                raise ValueError(f"{name}: malformed Arrow list offsets")
            lengths = offs[1:] - offs[:-1]
            if len(arr) and lengths.min() == 0:
                row = base + int((lengths == 0).argmax())
                raise ValueError(f"{name}[{row}]: expected at least one reference, got []")
            flat = (
                arr.values.slice(int(offs[0]), int(offs[-1] - offs[0]))
                if len(arr)
                else (arr.values.slice(0, 0))
            )
            if flat.null_count:  # named by its example and place in the list
                v = first_null(flat)
                row = int((offs[1:] - offs[0] <= v).sum())
                j = v - int(offs[row] - offs[0])
                raise ValueError(f"{name}[{base + row}][{j}]: expected a str, got null")
            texts = ArrowTexts.of(flat, f"{name} (values)")
            if texts._parts:
                texts = ArrowTexts([p.part(0, p.length) for p in texts._parts])
                for p in texts._parts:
                    p.base += total
            values.append(texts)
            starts.extend(int(total + o - offs[0]) for o in offs[1:])
            base += len(arr)
            total += int(offs[-1] - offs[0]) if len(arr) else 0
        joined = ArrowTexts([p for v in values for p in v._parts])
        return cls(starts, joined)

    def __len__(self) -> int:
        return len(self.starts) - 1

    def counts(self) -> array[int]:
        """Texts per example (int64)."""
        s = self.starts
        return array("q", [s[k + 1] - s[k] for k in range(len(s) - 1)])

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return [self[k] for k in range(start, stop, step)]
            stop = max(start, stop)
            return ArrowLists(self.starts[start : stop + 1], self.values)
        if index < 0:
            index += len(self)
        a, b = self.starts[index], self.starts[index + 1]
        return list(self.values[a:b])


def arrow_texts(value: object, name: str) -> ArrowTexts | ArrowLists | None:
    """An Arrow-backed column as :class:`ArrowTexts` (strings) or :class:`ArrowLists` (lists
    of strings); ``None`` for anything else."""
    if not is_arrow(value):
        return None
    chunks = _chunks(value)
    pa = _pyarrow()
    if chunks and (pa.types.is_list(chunks[0].type) or pa.types.is_large_list(chunks[0].type)):
        return ArrowLists.of(value, name)
    return ArrowTexts.of(value, name)


#: Rows of a reference column sampled for repeats, and the share of distinct rows in the
#: sample below which the column is numbered (:func:`_distinct_rows`).
DISTINCT_SAMPLE, DISTINCT_SHARE = 1024, 0.9


def _distinct_rows(texts: ArrowTexts, base: int = 0) -> tuple[ArrowTexts, array[int]] | None:
    """The distinct rows of a column and each row's index among them plus ``base`` (int64),
    when the column's first rows repeat (one reference scored against many systems'
    outputs); else ``None``.

    Each row of an Arrow column is tokenized as it comes, where a list's equal texts are
    tokenized once: REALSumm's 2,500 references (100 distinct) made the Arrow path 0.84x the
    list path (benchmarks/bench_arrow.py).  Arrow's own hash kernel numbers the rows, only
    after ``validate(full=True)`` (a column built on unchecked buffers goes to the engine's
    checks, which name the bad row), and only when a sample repeats: on distinct short rows
    numbering would cost more than it saves.
    """
    pa = _pyarrow()
    import pyarrow.compute as pc

    owners = [part.owner for part in texts._parts]
    if not owners or any(not isinstance(a, pa.Array) for a in owners):
        return None
    if len({a.type for a in owners}) != 1:
        return None
    rows = [a.slice(p.first - a.offset, p.length) for p, a in zip(texts._parts, owners)]
    try:
        sample = pa.chunked_array(rows).slice(0, DISTINCT_SAMPLE)
        for chunk in sample.chunks:
            chunk.validate(full=True)
        if len(pc.unique(sample)) > DISTINCT_SHARE * len(sample):
            return None
        for chunk in rows:
            chunk.validate(full=True)
        encoded = pc.dictionary_encode(pa.concat_arrays(rows) if len(rows) > 1 else rows[0])
    except pa.ArrowException:  # left to the engine's checks, which name the row
        return None
    import numpy as np

    index = array("q")
    index.frombytes((np.asarray(encoded.indices, dtype=np.int64) + base).tobytes())
    return ArrowTexts.of(encoded.dictionary, texts._parts[0].name), index


@lru_cache(maxsize=16)
def _range_bytes(start: int, stop: int) -> bytes:
    return array("q", range(start, stop)).tobytes()


#: Longest range whose bytes are kept (512 kB): a chunk's examples, or their references.
_KEPT_RANGE = 65536


def _int64_range(start: int, stop: int) -> array[int]:
    """``array("q", range(start, stop))``, copied from bytes kept for the chunk sizes seen:
    made from the range each time, the pairs' indices of 8,192-row chunks cost ~8 ms of a
    one-thread call on 100,000 short Arrow pairs (an int object per row).  Longer ranges are
    made each time, so that what is kept stays small."""
    if stop - start > _KEPT_RANGE:
        return array("q", range(start, stop))
    out = array("q")
    out.frombytes(_range_bytes(start, stop))
    return out


def arrow_pairs(
    predictions: Sequence[str], references: Sequence[list[str]], single: Sequence[str] | None
) -> tuple[ArrowTexts, array[int], array[int], array[int]] | None:
    """The texts and pairs of an Arrow batch, unnumbered (each row its own text: equal texts
    give equal ids anyway) but for a reference column whose rows repeat
    (:func:`_distinct_rows`): ``(texts, pair_pred, pair_ref, n_refs)``; ``None`` when the
    batch is not all Arrow."""
    if not isinstance(predictions, ArrowTexts):
        return None
    n = len(predictions)
    if isinstance(single, ArrowTexts):
        index = _int64_range(0, n)
        distinct = _distinct_rows(single, base=n)  # the rows' ids follow the predictions'
        if distinct is not None:
            values, pair_ref = distinct
            return predictions + values, index, pair_ref, array("q", [1]) * n
        return predictions + single, index, _int64_range(n, 2 * n), array("q", [1]) * n
    if not isinstance(references, ArrowLists):
        return None
    starts = references.starts
    lo, hi = starts[0], starts[-1]
    counts = references.counts()
    pair_pred = array("q")
    for k, c in enumerate(counts):
        pair_pred.extend([k] * c)
    values = references.values[lo:hi]
    return predictions + values, pair_pred, _int64_range(n, n + hi - lo), counts
