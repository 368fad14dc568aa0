"""Input checks: the one home of every argument check, with one rule and one message format.

Rule: a value of the wrong *type* raises ``TypeError``; a value of the right type but outside
what is allowed raises ``ValueError``.  Message: ``"<argument>: expected <what>, got <value>"``.
Nothing is silently dropped, converted or truncated: what a check returns is what gets scored.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import chain, filterfalse
from operator import itemgetter

from rouge_lcs.base.arrow import ArrowLists, arrow_texts, single_references
from rouge_lcs.base.records import record

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    from typing import Any

#: Predictions: one text per example.
Texts = Sequence[str]
#: References: one text, or a list of texts, per example.
References = Sequence[str | Sequence[str]]

#: Largest value accepted for the integer options (num_proc, n_resamples, seed, n of rougeN):
#: beyond it a number is a typo or an attack, never a setting.
MAX_INT = 2**63 - 1


def fail_type(name: str, expected: str, value: object) -> TypeError:
    """The ``TypeError`` for argument ``name``: what was expected, and the type that came."""
    return TypeError(f"{name}: expected {expected}, got {type(value).__name__}")


def fail_value(name: str, expected: str, value: object) -> ValueError:
    """The ``ValueError`` for argument ``name``: what was expected, and the value that came."""
    shown = repr(value)
    if "\n" in shown:  # a multi-line repr (an Arrow array's) made a message of many lines
        shown = " ".join(shown.split())
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return ValueError(f"{name}: expected {expected}, got {shown}")


def check_bool(value: object, name: str) -> bool:
    """Flags are real booleans (a string like ``"False"`` would silently be true)."""
    if not isinstance(value, bool):
        raise fail_type(name, "True or False", value)
    return value


def check_int(value: object, name: str, minimum: int = 0, maximum: int = MAX_INT) -> int:
    """An ``int`` (not a bool) in ``[minimum, maximum]``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail_type(name, f"an integer >= {minimum}", value)
    if not minimum <= value <= maximum:
        raise fail_value(name, f"an integer from {minimum} to {maximum}", value)
    return value


def check_number(value: object, name: str, *, positive: bool = False) -> float:
    """A finite real number (int or float, not a bool); ``positive``: also > 0."""
    expected = "a finite number > 0" if positive else "a finite number"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise fail_type(name, expected, value)
    if not math.isfinite(value) or (positive and value <= 0):
        raise fail_value(name, expected, value)
    return float(value)


def check_choice(value: object, name: str, choices: Sequence[str]) -> str:
    """One of ``choices`` (strings)."""
    if not isinstance(value, str):
        raise fail_type(name, f"one of {list(choices)}", value)
    if value not in choices:
        raise fail_value(name, f"one of {list(choices)}", value)
    return value


def check_beta(beta: object) -> float:
    """``beta`` is a finite number > 0 for which F stays a finite number.

    F_beta = (1 + beta²)·P·R / (R + beta²·P): past ~1e150, beta² overflows to infinity and F
    becomes NaN, so such a beta is refused rather than scored.
    """
    value = check_number(beta, "beta", positive=True)
    if not 1e-150 <= value <= 1e150:
        raise fail_value("beta", "a number from 1e-150 to 1e150", beta)
    return value


def check_confidence_level(value: object) -> float | None:
    """``None`` (no interval) or a number strictly between 0 and 1."""
    if value is None:
        return None
    level = check_number(value, "confidence_level")
    if not 0 < level < 1:
        raise fail_value("confidence_level", "a number between 0 and 1 (e.g. 0.95)", value)
    return level


def _as_list(value: object, name: str) -> list[Any]:
    """A list/tuple/array of items as a list; a string is *not* a list of its characters."""
    if isinstance(value, (str, bytes)):
        raise fail_type(name, "a list", value)
    if isinstance(value, Sequence):
        return list(value)
    tolist = getattr(value, "tolist", None)  # numpy arrays, pandas Series
    if callable(tolist):
        items = tolist()
        if isinstance(items, list):
            return items
    raise fail_type(name, "a list", value)


@record
class TextBatch:
    """A validated batch: ``predictions[i]`` is scored against every text of ``references[i]``.

    Only :func:`check_texts` makes one, so whatever receives a ``TextBatch`` (the engine) knows
    every item is a ``str`` and every reference list is non-empty.  ``single``: when every
    example has exactly one reference (the common batch), those references as one list, so
    that the engine need not unwrap them again (``None``: not known to be so).
    """

    predictions: Sequence[str]
    references: Sequence[list[str]]
    single: Sequence[str] | None = None

    def __len__(self) -> int:
        return len(self.predictions)

    def slice(self, start: int, stop: int) -> TextBatch:
        """Examples ``start`` to ``stop - 1`` (already checked, so not checked again)."""
        single = None if self.single is None else self.single[start:stop]
        return TextBatch(self.predictions[start:stop], self.references[start:stop], single)

    @property
    def n_refs(self) -> list[int]:
        """References per example."""
        return [len(r) for r in self.references]

    def one_reference_each(self) -> Sequence[str] | None:
        """The references as one sequence when every example has exactly one (``single``, or
        made from ``references`` when the batch was built without it), else ``None``."""
        if self.single is not None:
            return self.single
        if set(map(len, self.references)) == {1}:
            return list(map(itemgetter(0), self.references))
        return None


def plain(text: str) -> str:
    """The text of a str subclass (numpy.str_, markupsafe.Markup, …) as a plain str: ROUGE is a
    function of the characters, so a subclass's own split(), lower(), __eq__ or __hash__ must
    not take part (the native tokenizers read the characters anyway; evaluate's Arrow storage
    did the same).  Applied wherever strings enter: texts, tokens from a tokenizer, sentences
    from a splitter.  ``str.__str__`` copies the characters without calling the subclass."""
    return text if type(text) is str else str.__str__(text)


def exact_strs(items: list[Any]) -> bool:
    """Whether every item is exactly a ``str`` (no subclass): one pass in C, ``map(type)``."""
    return set(map(type, items)) <= {str}


def returned_strs(items: list[Any], what: str) -> list[str]:
    """A user callable's result (``items``, a list of its own) as plain strs, in place: a str
    subclass counts by its characters (:func:`plain`); any other item is a ``TypeError``
    saying that ``what`` (``"tokenizer: words"``) must return a list of str."""
    if exact_strs(items):
        return items
    for k, item in enumerate(items):
        if type(item) is not str:
            if not isinstance(item, str):
                raise TypeError(
                    f"{what} must return a list of str, got an item of type {type(item).__name__}"
                )
            items[k] = plain(item)
    return items


def callable_hash(fn: object, name: str) -> int:
    """The hash of a record holding a user's callable ``fn`` and its ``name``: the callable may
    be unhashable (an object with ``__eq__`` and no ``__hash__``), which would make the
    settings holding it unhashable; then the name's (equal records have equal names)."""
    try:
        return hash((fn, name))
    except TypeError:
        return hash(name)


def check_texts(
    predictions: object,
    references: object,
    *,
    names: tuple[str, str] = ("predictions", "references"),
    all_str: Callable[[list[Any]], bool] = exact_strs,
) -> TextBatch:
    """Validate a batch of predictions and references.

    References may be one string per prediction or a list of strings per prediction; both
    shapes may be mixed in one batch, and the count may vary (each list needs at least one).
    ``names``: the two arguments as the caller calls them, for the messages.  ``all_str``:
    :func:`exact_strs` or a faster function that answers the same (the engine's, which the
    scorers pass: :meth:`rouge_lcs.engine.interface.Backend.exact_strs`).
    """
    pname, rname = names
    if isinstance(predictions, TextBatch):
        raise fail_type(pname, "a list of str", predictions)
    arrow_preds, arrow_refs = arrow_texts(predictions, pname), arrow_texts(references, rname)
    if isinstance(arrow_preds, ArrowLists):
        raise fail_type(pname, "a list of str (an Arrow column of strings)", predictions)
    if arrow_preds is not None and arrow_refs is not None:  # read from the buffers
        if not len(arrow_preds):
            raise fail_value(pname, "at least one prediction", predictions)
        if len(arrow_preds) != len(arrow_refs):
            raise ValueError(
                f"{pname} and {rname}: expected columns of the same length, got "
                f"{len(arrow_preds)} {pname} and {len(arrow_refs)} {rname}"
            )
        if isinstance(arrow_refs, ArrowLists):
            return TextBatch(arrow_preds, arrow_refs)
        return TextBatch(arrow_preds, single_references(arrow_refs), arrow_refs)
    # One Arrow column beside a list: its texts as str, checked as above.
    if arrow_preds is not None:
        predictions = arrow_preds.tolist()
    if arrow_refs is not None:
        references = list(arrow_refs) if isinstance(arrow_refs, ArrowLists) else arrow_refs.tolist()
    preds = _as_list(predictions, pname)
    refs = _as_list(references, rname)
    if not preds:
        raise fail_value(pname, "at least one prediction", predictions)
    if len(preds) != len(refs):
        raise ValueError(
            f"{pname} and {rname}: expected lists of the same length, got "
            f"{len(preds)} {pname} and {len(refs)} {rname}"
        )
    # The common batch (every item exactly a str) is checked by one pass in C (all_str: the
    # engine's, or map(type)); the per-item loops below only run otherwise, and they make the
    # messages.
    if not all_str(preds):
        for i, pred in enumerate(preds):
            if not isinstance(pred, str):
                raise fail_type(f"{pname}[{i}]", "str", pred)
        preds = [plain(pred) for pred in preds]
    if all_str(refs):
        return TextBatch(preds, single_references(refs), refs)
    ref_types = set(map(type, refs))
    if ref_types == {list}:  # the nested batch (evaluate's shape), checked by passes in C too
        lengths = list(map(len, refs))
        if min(lengths) > 0 and set(map(type, chain.from_iterable(refs))) == {str}:
            single = list(map(itemgetter(0), refs)) if max(lengths) == 1 else None
            return TextBatch(preds, list(map(list.copy, refs)), single)
    ref_lists: list[list[str]] = []
    for i, ref in enumerate(refs):
        if isinstance(ref, str):
            ref_lists.append([plain(ref)])
            continue
        if ref is None or isinstance(ref, bytes):
            raise fail_type(f"{rname}[{i}]", "str or a list of str", ref)
        items = _as_list(ref, f"{rname}[{i}]")
        if not items:
            raise fail_value(f"{rname}[{i}]", "at least one reference", ref)
        for j, item in enumerate(items):
            if not isinstance(item, str):
                raise fail_type(f"{rname}[{i}][{j}]", "str", item)
        ref_lists.append([plain(item) for item in items])
    return TextBatch(preds, ref_lists)


def single_example(predictions: object, references: object) -> tuple[str, list[str]] | None:
    """``(prediction, references)`` of a batch of one example whose texts are all exactly
    ``str`` (``[p]`` and ``[r]`` or ``[[r1, r2, …]]``, in lists or tuples), else ``None``.

    The per-call path's check, which costs what one example costs: it accepts only what
    :func:`check_texts` passes unchanged and returns ``None`` for anything else, which then
    goes through :func:`check_texts` (so a wrong input gets the same error either way).
    """
    if type(predictions) not in (list, tuple) or type(references) not in (list, tuple):
        return None
    if len(predictions) != 1 or len(references) != 1:  # type: ignore[arg-type]
        return None
    prediction = predictions[0]  # type: ignore[index]
    reference = references[0]  # type: ignore[index]
    if type(prediction) is not str:
        return None
    if type(reference) is str:
        return prediction, [reference]
    if type(reference) in (list, tuple) and reference and set(map(type, reference)) == {str}:
        return prediction, list(reference)
    return None


def check_unicode(text: str, name: str, note: str = "") -> None:
    """``text`` is encodable as UTF-8: a lone surrogate (``"\\ud800"``) is a ``ValueError`` naming
    ``name``, the code point and its (0-based) position, followed by ``note``."""
    if text.isascii():  # the common case: nothing can fail
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        code = ord(text[error.start])
        raise ValueError(
            f"{name}: expected valid Unicode text, got a lone surrogate U+{code:04X} at "
            f"character {error.start}{note}"
        ) from None


def all_utf8(texts: Sequence[str], block: int = 1024) -> bool:
    """Whether every text encodes as UTF-8, checked a block of texts at a time: one ``join``
    and one ``encode`` per block cost 4 ms on 10,000 REALSumm and Korean pairs where a loop
    over the texts cost 17 ms, all of it before the evaluate module's ``num_proc`` workers
    start.  Joining cannot hide a lone surrogate: two that meet (``"\\ud83d" + "\\ude00"``)
    stay two code points, which the codec refuses as well.  ASCII texts (``str.isascii`` reads
    a flag) cannot fail and are left out, a third of the check on that batch."""
    texts = list(filterfalse(str.isascii, texts))
    for start in range(0, len(texts), block):
        try:
            "".join(texts[start : start + block]).encode("utf-8")
        except UnicodeEncodeError:
            return False
    return True


def check_utf8(batch: TextBatch, all_utf8: Callable[[Sequence[str]], bool] = all_utf8) -> TextBatch:
    """Every text is encodable as UTF-8 (no lone surrogates such as ``"\\ud800"``).

    The library scores such texts (a lone surrogate is not a letter, so it separates tokens),
    but storage that needs real Unicode text — evaluate's Arrow cache — cannot hold them.
    ``all_utf8``: :func:`all_utf8` or a faster function that answers the same (the engine's:
    :meth:`rouge_lcs.engine.interface.Backend.all_utf8`).
    """

    references = batch.single
    if references is None:
        references = [text for refs in batch.references for text in refs]
    if all_utf8(batch.predictions) and all_utf8(references):
        return batch

    def check(text: str, name: str, *index: int) -> None:
        check_unicode(
            text,
            name + "".join(f"[{k}]" for k in index),
            " (rouge_lcs.rouge() scores it; evaluate cannot store it)",
        )

    # Some text cannot be encoded: find the first, text by text, to name it.
    for i, text in enumerate(batch.predictions):
        check(text, "predictions", i)
    for i, refs in enumerate(batch.references):
        for j, text in enumerate(refs):
            check(text, "references", i, j)
    return batch


#: More processes or threads than this is a typo.
MAX_NUM_PROC = 1024
#: More resamples than this is a typo (each costs a pass over the examples).
MAX_RESAMPLES = 1_000_000


def check_num_proc(num_proc: object) -> int:
    """``num_proc`` is ``None`` (one process) or an integer from 1 to :data:`MAX_NUM_PROC`."""
    return 1 if num_proc is None else check_int(num_proc, "num_proc", 1, MAX_NUM_PROC)


def check_num_threads(num_threads: object) -> int | None:
    """``num_threads`` is ``None`` (the environment's default, read when scoring) or an
    integer from 1 to :data:`MAX_NUM_PROC`."""
    if num_threads is None:
        return None
    return check_int(num_threads, "num_threads", 1, MAX_NUM_PROC)


def check_seed(seed: object) -> int:
    """Seeds are non-negative integers (``None`` would make results irreproducible)."""
    return check_int(seed, "seed", 0)
