"""Token ids as input: a batch of already tokenized predictions and references, checked once.

A prediction or reference may be a sequence of token ids instead of a text: a list or tuple of
ints, a 1-D NumPy integer array or a 1-D torch tensor; a 2-D array or tensor is a batch, one
row per example (``pad_id`` cuts its padding), and so is a tokenizer's batch with its mask,
``{"input_ids": ..., "attention_mask": ...}`` (a dict or Hugging Face's ``BatchEncoding``: the
positions whose mask is 1 are kept, wherever they are; ``pad_id`` is not applied there, so an
end-of-text id that is also the padding id survives).  The ids are scored as they are (no
decode): the numbers equal scoring the same ids written as space-separated words with the
``whitespace`` tokenizer.  :func:`check_ids` turns a batch into one int64 buffer with offsets
(:class:`IdBatch`): one NumPy call per sequence, never a Python object per token for arrays.

torch is never imported here: a tensor is recognised by its type's module and converted by its
own ``.numpy()``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.base.records import record
from rouge_lcs.base.validation import fail_type, fail_value

TYPE_CHECKING = False  # not typing's: type checkers treat any name TYPE_CHECKING as true
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    import numpy as np

    #: :meth:`rouge_lcs.engine.interface.Backend.int_lists`.
    IntLists = Callable[[list[object]], "tuple[np.ndarray, np.ndarray] | None"]
    #: :meth:`rouge_lcs.engine.interface.Backend.cut_rows`.
    CutRows = Callable[["np.ndarray", int], "tuple[np.ndarray, np.ndarray] | None"]
else:
    np = lazy_import("numpy")

#: The largest id accepted (int64's); ids past int32 are renumbered before the kernels.
MAX_ID = (1 << 63) - 1


@record
class IdBatch:
    """A checked batch of token ids: document ``d``'s ids are ``ids[starts[d]:starts[d + 1]]``
    (int64, or int32 as the engine's readers give them; every id >= 0); the predictions are
    documents ``0 .. n - 1``, the references follow; pair ``k`` is
    ``(pair_pred[k], pair_ref[k])``, example ``e`` has ``n_refs[e]`` consecutive pairs."""

    ids: np.ndarray
    starts: np.ndarray
    pair_pred: np.ndarray
    pair_ref: np.ndarray
    n_refs: np.ndarray

    def __len__(self) -> int:
        return int(self.n_refs.size)


def _is_tensor(value: object) -> bool:
    """Whether ``value`` is a torch tensor (recognised without importing torch)."""
    return type(value).__module__.startswith("torch") and hasattr(value, "numpy")


def _is_array(value: object) -> bool:
    return type(value).__module__ == "numpy" and hasattr(value, "ndim")


#: The keys of a masked batch (Hugging Face tokenizers' names).
IDS_KEY, MASK_KEY = "input_ids", "attention_mask"


def is_id_masked(value: object) -> bool:
    """Whether ``value`` is a tokenizer's output with a mask: a mapping (a dict, a
    ``BatchEncoding``) holding ``input_ids`` (``attention_mask`` is then checked)."""
    return isinstance(value, Mapping) and IDS_KEY in value


_is_masked = is_id_masked


def _is_matrix(value: object) -> bool:
    """An array, a tensor or a masked batch: what may be a 2-D batch of ids."""
    return _is_array(value) or _is_tensor(value) or _is_masked(value)


def _ndim(value: object) -> int:
    if _is_masked(value):
        return _ndim(value[IDS_KEY])  # type: ignore[index]
    if _is_array(value) or _is_tensor(value):
        return int(value.ndim)  # type: ignore[attr-defined]
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], (list, tuple)):
        return 2  # a tokenizer's padded lists (no return_tensors)
    return 1


def is_id_sequence(value: object) -> bool:
    """Whether ``value`` is meant as token ids (not a text, not a list of texts): an array or a
    tensor, or a list/tuple that is empty or starts with an int."""
    if isinstance(value, str):
        return False
    if _is_matrix(value):
        return True
    if isinstance(value, (list, tuple)):
        if not value:
            return True
        first = value[0]
        return isinstance(first, int) or (_is_array(first) and getattr(first, "ndim", 1) == 0)
    return False


def _shows_ids(value: object) -> bool:
    """Whether ``value`` shows that a batch is of ids: a tensor, a numeric array, or a list/tuple
    starting with an int (an empty one shows nothing: texts may have empty reference lists)."""
    if _is_tensor(value) or _is_masked(value):
        return True
    if _is_array(value):  # numbers are ids (bool and float refused there); str, objects: texts
        return value.dtype.kind in "iubf"  # type: ignore[attr-defined]
    return isinstance(value, (list, tuple)) and bool(value) and is_id_sequence(value)


def is_id_input(predictions: object, references: object) -> bool:
    """Whether a batch's predictions or references are token ids: a batch of texts pays a
    type check of its first items; items are read on only past empty lists."""
    for side in (predictions, references):
        if _is_matrix(side):
            return _shows_ids(side)
        if not isinstance(side, (list, tuple)):
            continue
        for item in side:
            if isinstance(item, str):
                break  # texts on this side
            if _shows_ids(item):
                return True
            if isinstance(item, (list, tuple)) and item:  # several references
                if isinstance(item[0], str):
                    break
                if _shows_ids(item[0]):
                    return True
            elif not isinstance(item, (list, tuple)):
                break  # something else: the text checks name it
    return False


def _to_numpy(value: object, name: str) -> np.ndarray:
    """``value`` (an array or a tensor) as a NumPy integer array, checked: integer dtype, no
    bool (a mask is not ids)."""
    if _is_tensor(value):
        value = value.detach().cpu().numpy()  # type: ignore[attr-defined]
    array = np.asarray(value)
    kind = array.dtype.kind
    if not array.size and kind == "f":  # np.array([]) is float64: no value to misread
        return array.astype(np.int64)
    if kind == "b":
        raise fail_type(name, "integer token ids (a bool array is a mask, not ids)", value)
    if kind not in "iu":
        raise TypeError(f"{name}: expected integer token ids, got an array of {array.dtype}")
    return array


def _from_list(value: list[object] | tuple[object, ...], name: str) -> np.ndarray:
    """A list/tuple of ints as an int64 array; a bool, float, str or nested list is refused
    (one pass over the types in C, then one conversion)."""
    kinds = set(map(type, value))
    if kinds and not kinds <= {int}:
        for j, item in enumerate(value):
            if isinstance(item, bool) or not (
                isinstance(item, int) or (_is_array(item) and item.dtype.kind in "iu")  # type: ignore[attr-defined]
            ):
                raise fail_type(f"{name}[{j}]", "an int (a token id)", item)
    try:
        return np.array(value, dtype=np.int64)
    except OverflowError:
        raise fail_value(name, f"token ids from 0 to {MAX_ID}", max(value)) from None  # type: ignore[type-var]


def _rows(value: object, name: str, pad_id: int | None) -> list[np.ndarray]:
    """The id sequences of one argument item: one for a 1-D sequence, one per row of a 2-D
    array (padding cut)."""
    if isinstance(value, (list, tuple)):
        return [_cut(_from_list(value, name), pad_id)]
    if _is_masked(value):
        ids, lengths = _unmasked(value, name, pad_id)  # type: ignore[arg-type]
        return np.split(ids, np.cumsum(lengths)[:-1]) if lengths.size else []
    array = _to_numpy(value, name)
    if array.ndim == 1:
        return [_cut(array, pad_id)]
    if array.ndim == 2:
        return [_cut(row, pad_id) for row in array]
    raise fail_value(name, "a 1-D sequence of token ids (or a 2-D batch)", f"{array.ndim}-D array")


def _cut(ids: np.ndarray, pad_id: int | None) -> np.ndarray:
    """``ids`` without the padding at either end (left or right padding): ``pad_id`` runs at
    the start and at the end; an id equal to ``pad_id`` between other ids stays."""
    if pad_id is None or not ids.size:
        return ids
    keep = np.flatnonzero(ids != pad_id)
    if not keep.size:
        return ids[:0]
    return ids[keep[0] : keep[-1] + 1]


def _sequences(value: object, name: str, pad_id: int | None) -> list[np.ndarray]:
    """A whole argument (predictions, or the references of one example as a list of
    sequences) as id sequences: a 2-D array/tensor is one per row."""
    if _is_matrix(value):
        ids, lengths = _matrix(value, name, pad_id)
        return np.split(ids, np.cumsum(lengths)[:-1]) if lengths.size else []
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise fail_type(name, "a list of token id sequences", value)
    out = []
    for i, item in enumerate(value):
        if isinstance(item, str):
            raise _mixed(name, i)
        if not is_id_sequence(item):
            raise fail_type(f"{name}[{i}]", "a sequence of token ids (ints)", item)
        out.extend(_one(item, f"{name}[{i}]", pad_id))
    return out


def _one(value: object, name: str, pad_id: int | None) -> list[np.ndarray]:
    rows = _rows(value, name, pad_id)
    if len(rows) != 1:  # a 2-D item where one sequence is due
        raise fail_value(name, "a 1-D sequence of token ids", "a 2-D array")
    return rows


def _mixed(name: str, index: int) -> ValueError:
    return ValueError(
        f"{name}[{index}]: expected token ids like the rest of the batch, got a str (texts and "
        "token ids cannot be mixed in one call: decode the ids, or tokenize the texts)"
    )


@record
class IdOptions:
    """The options that shape a scoring of token ids (their ``signature``): the padding id
    cut from each sequence and ROUGE-Lsum's sentence-end ids."""

    pad_id: int | None = None
    sentence_end_ids: tuple[int, ...] = ()


def check_pad_id(pad_id: object) -> int | None:
    """``pad_id``: ``None`` or an int (a token id, >= 0)."""
    if pad_id is None:
        return None
    if isinstance(pad_id, bool) or not isinstance(pad_id, int):
        raise fail_type("pad_id", "an int or None", pad_id)
    if pad_id < 0:
        raise fail_value("pad_id", "a token id >= 0", pad_id)
    return pad_id


def check_end_ids(sentence_end_ids: object) -> tuple[int, ...]:
    """``sentence_end_ids``: ``None`` or ints (the ids that end a ROUGE-Lsum sentence)."""
    if sentence_end_ids is None:
        return ()
    if isinstance(sentence_end_ids, int) and not isinstance(sentence_end_ids, bool):
        sentence_end_ids = [sentence_end_ids]
    if not is_id_sequence(sentence_end_ids):
        raise fail_type("sentence_end_ids", "a list of ints or None", sentence_end_ids)
    ends = check_values(_rows(sentence_end_ids, "sentence_end_ids", None)[0], "sentence_end_ids")
    return tuple(sorted(set(ends.tolist())))


def check_values(ids: np.ndarray, name: str) -> np.ndarray:
    """``ids`` as int64 (int32 ones as they are: the kernels' width, which the engine's
    readers give), every id from 0 to :data:`MAX_ID` (uint64 ids past it refused)."""
    if ids.dtype.kind not in "iu":  # empty pieces only (concatenate makes float64)
        return ids.astype(np.int64)
    if ids.dtype == np.int32:
        if ids.size and int(ids.min()) < 0:
            raise fail_value(name, "token ids >= 0", int(ids.min()))
        return ids
    if ids.dtype.kind == "u" and ids.size and int(ids.max()) > MAX_ID:
        raise fail_value(name, f"token ids from 0 to {MAX_ID}", int(ids.max()))
    ids = ids.astype(np.int64, copy=False)
    if ids.size and int(ids.min()) < 0:
        raise fail_value(name, "token ids >= 0", int(ids.min()))
    return ids


def check_ids(
    predictions: object,
    references: object,
    *,
    pad_id: int | None = None,
    names: tuple[str, str] = ("predictions", "references"),
    int_lists: IntLists | None = None,
    cut_rows: CutRows | None = None,
) -> IdBatch:
    """A batch of token ids (see the module docstring) as one :class:`IdBatch`.

    ``predictions``: one id sequence per example, or a 2-D array/tensor (a row each).
    ``references``: per example one id sequence or a list of them (several references), or a
    2-D array/tensor (one reference each).  Texts beside ids are a ``ValueError`` naming the
    argument; floats, bools, nested or 3-D inputs a ``TypeError``/``ValueError`` naming it.
    ``int_lists``: the engine's one pass over lists of ints
    (:meth:`rouge_lcs.engine.interface.Backend.int_lists`), which serves the common batch
    (TRL's ``completion_ids``, one reference list each); the checks below make the messages.
    ``cut_rows``: the engine's one pass over a padded 2-D array
    (:meth:`rouge_lcs.engine.interface.Backend.cut_rows`), beside ``int_lists``.
    """
    pname, rname = names
    pad_id = check_pad_id(pad_id)
    if int_lists is not None:
        fast = _fast_batch(predictions, references, pad_id, int_lists, names, cut_rows)
        if fast is not None:
            return fast
    preds = _sequences(predictions, pname, pad_id)
    if not preds:
        raise fail_value(pname, "at least one prediction", predictions)
    refs: list[np.ndarray] = []
    n_refs: list[int] = []
    if _is_matrix(references):
        refs = _sequences(references, rname, pad_id)
        n_refs = [1] * len(refs)
    elif isinstance(references, (list, tuple)):
        for i, ref in enumerate(references):
            name = f"{rname}[{i}]"
            if isinstance(ref, str):
                raise _mixed(rname, i)
            if is_id_sequence(ref) and not (_is_matrix(ref) and _ndim(ref) == 2):
                refs.extend(_one(ref, name, pad_id))
                n_refs.append(1)
                continue
            several = _sequences(ref, name, pad_id)
            if not several:
                raise fail_value(name, "at least one reference", ref)
            refs.extend(several)
            n_refs.append(len(several))
    else:
        raise fail_type(rname, "a list of token id sequences", references)
    if len(preds) != len(n_refs):
        raise ValueError(
            f"{pname} and {rname}: expected the same number of examples, got "
            f"{len(preds)} {pname} and {len(n_refs)} {rname}"
        )
    docs = preds + refs
    lengths = np.fromiter(map(len, docs), dtype=np.int64, count=len(docs))
    starts = np.zeros(len(docs) + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    ids = np.concatenate([_joined(preds, pname), _joined(refs, rname)])
    counts = np.asarray(n_refs, dtype=np.int64)
    pair_pred = np.repeat(np.arange(len(preds), dtype=np.int64), counts)
    pair_ref = np.arange(len(preds), len(docs), dtype=np.int64)
    return IdBatch(ids, starts, pair_pred, pair_ref, counts)


def _matrix(
    value: object, name: str, pad_id: int | None, cut_rows: CutRows | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """A 2-D array/tensor's rows, padding cut from both ends, as (ids, lengths): by the
    engine's ``cut_rows`` where it serves the array, else in NumPy over the whole array (a
    row at a time cost ~40 us a row)."""
    if _is_masked(value):
        if _ndim(value) != 2:
            raise fail_value(
                f"{name}[{IDS_KEY!r}]", "a 2-D batch of token ids", f"{_ndim(value)}-D array"
            )
        return _unmasked(value, name, pad_id)  # type: ignore[arg-type]
    array = _to_numpy(value, name)
    if array.ndim != 2:
        raise fail_value(
            name, "a list of token id sequences or a 2-D array", f"{array.ndim}-D array"
        )
    rows, width = array.shape
    if pad_id is None or not array.size:
        return check_values(array.reshape(-1), name), np.full(rows, width, dtype=np.int64)
    cut = None if cut_rows is None else cut_rows(array, pad_id)
    if cut is not None:  # (ids from 0 to 2**31 - 1: checked)
        return cut
    keep = array != pad_id
    kept = keep.any(axis=1)
    first = np.where(kept, keep.argmax(axis=1), 0)
    stop = np.where(kept, width - keep[:, ::-1].argmax(axis=1), 0)
    columns = np.arange(width)
    inside = (columns >= first[:, None]) & (columns < stop[:, None])
    return check_values(array[inside], name), (stop - first).astype(np.int64)


def _masked_array(value: object, name: str) -> np.ndarray:
    """``value`` of a masked batch (ids or mask: a list, an array or a tensor) as an array; a
    ragged list is a ``ValueError`` naming it."""
    if _is_tensor(value):
        value = value.detach().cpu().numpy()  # type: ignore[attr-defined]
    if isinstance(value, str) or not (_is_array(value) or isinstance(value, (list, tuple))):
        raise fail_type(name, "a list, an array or a tensor", value)
    # numpy before 1.24 makes an object array of ragged rows where later ones raise
    if (
        isinstance(value, (list, tuple))
        and len({len(r) for r in value if hasattr(r, "__len__")}) > 1
    ):
        raise fail_value(name, "rows of one length (a padded batch)", "rows of several")
    try:
        return np.asarray(value)
    except ValueError:  # numpy's "inhomogeneous shape": rows of different lengths
        raise fail_value(name, "rows of one length (a padded batch)", "rows of several") from None


def _unmasked(
    value: Mapping[str, object], name: str, pad_id: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """A masked batch (``{"input_ids": ..., "attention_mask": ...}``, 1-D or 2-D) as
    (ids kept, each row's count): the positions whose mask is 1, in order; without a mask,
    the ids as an array would be (``pad_id`` cut)."""
    ids_name, mask_name = f"{name}[{IDS_KEY!r}]", f"{name}[{MASK_KEY!r}]"
    ids = _to_numpy(_masked_array(value[IDS_KEY], ids_name), ids_name)
    if ids.ndim not in (1, 2):
        raise fail_value(ids_name, "a 1-D or 2-D batch of token ids", f"{ids.ndim}-D array")
    mask_value = value.get(MASK_KEY)
    if mask_value is None:
        if ids.ndim == 1:
            kept = _cut(ids, pad_id)
            return check_values(kept, ids_name), np.array([kept.size], dtype=np.int64)
        return _matrix(ids, ids_name, pad_id)
    mask = _masked_array(mask_value, mask_name)
    if mask.dtype.kind not in "biu":
        raise TypeError(
            f"{mask_name}: expected a mask of 0 and 1 (ints or bools), got {mask.dtype}"
        )
    if mask.shape != ids.shape:
        raise ValueError(
            f"{mask_name}: expected the shape of {ids_name}, {tuple(ids.shape)}, got "
            f"{tuple(mask.shape)}"
        )
    keep = mask.astype(bool)
    if mask.dtype.kind != "b" and mask.size and bool((mask[keep] != 1).any()):
        bad = int(mask[keep][mask[keep] != 1][0])
        raise fail_value(mask_name, "0 (cut) or 1 (kept) at each position", bad)
    lengths = keep.sum(axis=-1, dtype=np.int64).reshape(-1)
    return check_values(ids[keep], ids_name), lengths


def _fast_side(
    value: object,
    name: str,
    pad_id: int | None,
    int_lists: IntLists,
    share: bool,
    cut_rows: CutRows | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None] | None:
    """One side of the common batch as ``(ids, lengths, where)``: a 2-D array/tensor, or a
    list of lists of ints read in one pass (``share``: a list object met again is read once,
    ``where`` says which read each example takes; None: one each).  None for anything else
    (or lists holding ``pad_id``): the general path then checks it."""
    if _is_matrix(value):
        ids, lengths = _matrix(value, name, pad_id, cut_rows)
        return ids, lengths, None
    if type(value) is not list or not value:
        return None
    where = None
    distinct: list[object] = value
    if share:
        distinct, where = _shared(value)
    read = int_lists(distinct)
    if read is None or _holds(read[0], pad_id):
        return None  # (padding in lists: cut by the general path)
    return check_values(read[0], name), read[1], where


def _holds(ids: np.ndarray, pad_id: int | None) -> bool:
    """Whether ``ids`` (int32 or int64) hold ``pad_id`` (one past their dtype's range never
    compared: NumPy before 2 and after it differ there)."""
    if pad_id is None or pad_id > np.iinfo(ids.dtype).max:
        return False
    return bool((ids == pad_id).any())


def _shared(value: list[object]) -> tuple[list[object], np.ndarray]:
    """The distinct objects of ``value`` (a list met again is read once: a trainer's column
    repeats one reference per group) and which of them each item is."""
    slot: dict[int, int] = {}
    distinct: list[object] = []
    places: list[int] = []
    for item in value:  # shared objects numbered once
        k = slot.get(id(item))
        if k is None:
            k = slot[id(item)] = len(distinct)
            distinct.append(item)
        places.append(k)
    return distinct, np.asarray(places, dtype=np.int64)


def _lists_batch(
    predictions: list[object],
    references: list[object],
    pad_id: int | None,
    int_lists: IntLists,
) -> IdBatch | None:
    """The commonest batch, lists of lists of ints on both sides (TRL's ``completion_ids``
    against one reference list each), in one read: the predictions and the distinct
    references land in one buffer, which is the batch's (no second copy of every id).  None
    when anything is off (the general path then says what)."""
    n = len(predictions)
    if len(references) != n:
        return None
    distinct, where = _shared(references)
    read = int_lists(predictions + distinct)
    if read is None:
        return None
    ids, lengths = read
    if ids.size and int(ids.min()) < 0:
        return None  # the general path names the side
    if _holds(ids, pad_id):
        return None  # (padding in lists: cut by the general path)
    starts = np.zeros(lengths.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    return IdBatch(ids, starts, np.arange(n, dtype=np.int64), where + n, np.ones(n, np.int64))


def _fast_batch(
    predictions: object,
    references: object,
    pad_id: int | None,
    int_lists: IntLists,
    names: tuple[str, str],
    cut_rows: CutRows | None = None,
) -> IdBatch | None:
    """The common batch (2-D arrays, or lists of ints with one reference list each) without a
    step per example; None for any other batch."""
    if type(predictions) is list and type(references) is list and predictions:
        return _lists_batch(predictions, references, pad_id, int_lists)
    preds = _fast_side(predictions, names[0], pad_id, int_lists, False, cut_rows)
    if preds is None or not preds[1].size:
        return None
    refs = _fast_side(references, names[1], pad_id, int_lists, True, cut_rows)
    if refs is None:
        return None
    pred_ids, pred_lengths, _ = preds
    ref_ids, ref_lengths, where = refs
    n = pred_lengths.size
    if (ref_lengths.size if where is None else where.size) != n:
        return None  # the general path says what differs
    lengths = np.concatenate([pred_lengths, ref_lengths])
    starts = np.zeros(lengths.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    pair_ref = (np.arange(n, dtype=np.int64) if where is None else where) + n
    ids = np.concatenate([pred_ids, ref_ids])
    return IdBatch(ids, starts, np.arange(n, dtype=np.int64), pair_ref, np.ones(n, np.int64))


def _joined(sequences: Sequence[np.ndarray], name: str) -> np.ndarray:
    """The sequences' ids concatenated, int64, checked (``name``: their argument)."""
    if not sequences:
        return np.zeros(0, np.int64)
    return check_values(np.concatenate(sequences), name)


def id_sequence(value: object, name: str, pad_id: int | None = None) -> np.ndarray:
    """One sequence of token ids (a list/tuple of ints, a 1-D array or tensor), checked:
    int64, every id from 0 to :data:`MAX_ID`."""
    if isinstance(value, str) or not is_id_sequence(value):
        raise fail_type(name, "a sequence of token ids (ints)", value)
    return check_values(_one(value, name, pad_id)[0], name)


@record
class IdColumn:
    """The token id sequences of one argument (a column of similarity's), checked: sequence
    ``k`` is ``ids[starts[k]:starts[k + 1]]`` (int64 or int32, every id >= 0)."""

    ids: np.ndarray
    starts: np.ndarray

    def __len__(self) -> int:
        return int(self.starts.size - 1)


def is_id_column(value: object) -> bool:
    """Whether an argument that holds texts or sequences is token ids: a numeric array, a
    tensor, a masked batch, or a list/tuple whose first item is a sequence of ids (an empty
    list shows nothing: it is texts).  An empty first item shows nothing either: the first
    non-empty one decides (``[[], ["a", "b"]]`` is two lists of texts, the first empty), and
    only empty ones are ids, as an empty first item alone was."""
    if _is_matrix(value):
        return _shows_ids(value)
    if isinstance(value, (list, tuple)) and value:
        for item in value:
            if isinstance(item, str) or not is_id_sequence(item):
                return False
            if len(item):
                return True
        return True
    return False


def id_column(
    value: object, name: str, pad_id: int | None = None, int_lists: IntLists | None = None
) -> IdColumn:
    """An argument of token id sequences (a list of them, a 2-D array/tensor with ``pad_id``
    cut, a masked batch) as one :class:`IdColumn`; a text among them is a ``ValueError``
    naming the argument.  ``int_lists``: as in :func:`check_ids`."""
    pad_id = check_pad_id(pad_id)
    fast = None
    if int_lists is not None and not _is_matrix(value):
        fast = _fast_side(value, name, pad_id, int_lists, False)
    if fast is not None:
        ids, lengths = fast[0], fast[1]
    elif _is_matrix(value):
        ids, lengths = _matrix(value, name, pad_id)
    else:
        sequences = _sequences(value, name, pad_id)
        ids = _joined(sequences, name)
        lengths = np.fromiter(map(len, sequences), dtype=np.int64, count=len(sequences))
    starts = np.zeros(lengths.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    return IdColumn(ids, starts)
