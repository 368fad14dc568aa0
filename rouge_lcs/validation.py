"""Input checks: one clear error naming the argument and what was expected, nothing dropped."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rouge_lcs.multiref import MULTI_REF_MODES


def _as_list(value: object, name: str) -> list:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
            return _as_list(value.tolist(), name)  # numpy arrays of strings
        raise TypeError(f"{name}: expected a list, got {type(value).__name__}")
    return list(value)


def check_texts(predictions: object, references: object) -> tuple[list[str], list[list[str]]]:
    """Validate a batch; return predictions and references as ``list[str]``, ``list[list[str]]``.

    References may be one string per prediction or a list of strings per prediction (the count
    may vary between predictions, but each list needs at least one reference).
    """
    preds = _as_list(predictions, "predictions")
    refs = _as_list(references, "references")
    if not preds:
        raise ValueError("predictions: empty batch; expected at least one prediction")
    if len(preds) != len(refs):
        raise ValueError(
            f"predictions and references: expected lists of the same length, got "
            f"{len(preds)} predictions and {len(refs)} references"
        )
    for i, pred in enumerate(preds):
        if not isinstance(pred, str):
            raise TypeError(f"predictions[{i}]: expected str, got {type(pred).__name__}")
    ref_lists: list[list[str]] = []
    for i, ref in enumerate(refs):
        if isinstance(ref, str):
            ref_lists.append([ref])
            continue
        if ref is None or isinstance(ref, bytes):
            raise TypeError(
                f"references[{i}]: expected str or a list of str, got {type(ref).__name__}"
            )
        items = _as_list(ref, f"references[{i}]")
        if not items:
            raise ValueError(f"references[{i}]: empty list; expected at least one reference")
        for j, item in enumerate(items):
            if not isinstance(item, str):
                raise TypeError(f"references[{i}][{j}]: expected str, got {type(item).__name__}")
        ref_lists.append(items)
    return preds, ref_lists


def check_beta(beta: object) -> float:
    """``beta`` must be a finite real number > 0."""
    if isinstance(beta, bool) or not isinstance(beta, (int, float)):
        raise TypeError(f"beta: expected a number > 0, got {type(beta).__name__}")
    if not math.isfinite(beta) or beta <= 0:
        raise ValueError(f"beta: expected a finite number > 0, got {beta!r}")
    return float(beta)


def check_multi_ref(multi_ref: object) -> str:
    """``multi_ref`` must name one of the combination modes."""
    if multi_ref not in MULTI_REF_MODES:
        raise ValueError(
            f"multi_ref: unknown mode {multi_ref!r}; expected one of {list(MULTI_REF_MODES)}"
        )
    return str(multi_ref)


def check_bool(value: object, name: str) -> bool:
    """Flags must be real booleans (a string like "False" would silently be true)."""
    if not isinstance(value, bool):
        raise TypeError(f"{name}: expected True or False, got {value!r}")
    return value


def check_num_proc(num_proc: object) -> int:
    """``num_proc`` is a positive integer (or ``None``, meaning 1)."""
    if num_proc is None:
        return 1
    if isinstance(num_proc, bool) or not isinstance(num_proc, int) or num_proc < 1:
        raise ValueError(f"num_proc: expected a positive integer, got {num_proc!r}")
    return num_proc
