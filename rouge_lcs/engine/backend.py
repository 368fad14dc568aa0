"""The one engine seam: which engine scores, chosen in one place, behind one interface.

As rapidfuzz picks its compiled or its pure-Python backend once and both export the same
functions, :func:`backend` returns the :class:`~rouge_lcs.engine.interface.Backend` in use
(``ROUGE_LCS_IMPLEMENTATION`` is ``native`` or ``python``; unset, the compiled core when it
loads).  Both implement every method of the interface with bit-identical results: the
pure-Python/numpy one (:mod:`rouge_lcs.engine.reference`) is the reference, the native one
(:mod:`rouge_lcs.engine.native`) runs the C core.  Code outside :mod:`rouge_lcs.engine` calls
the interface's methods on :func:`backend`'s engine and never asks which engine runs, imports
an engine's module or reads a store's private state (tests/test_architecture.py holds this);
the switchboard below (which engine, whether it loads, its threads) is for users, through
:mod:`rouge_lcs.native`, and for the tests.
"""

from __future__ import annotations

from rouge_lcs.base.validation import TextBatch, check_texts, check_utf8
from rouge_lcs.engine import native
from rouge_lcs.engine.interface import Backend, IdDocs, Store
from rouge_lcs.engine.native import (
    ENV,
    THREADS_ENV,
    active,
    available,
    default_num_threads,
    implementation,
    native_unicode,
)

__all__ = [
    "ENV",
    "THREADS_ENV",
    "Backend",
    "IdDocs",
    "Store",
    "active",
    "available",
    "backend",
    "checked_texts",
    "default_num_threads",
    "implementation",
    "native_unicode",
]


def backend() -> Backend:
    """The engine in use now (reads ``ROUGE_LCS_IMPLEMENTATION`` at each call, so that a test
    or a user can switch engines between calls)."""
    if native.active():
        return native.BACKEND
    from rouge_lcs.engine.reference import python  # imported once it is chosen

    return python.BACKEND


def checked_texts(
    predictions: object,
    references: object,
    *,
    names: tuple[str, str] = ("predictions", "references"),
) -> TextBatch:
    """:func:`rouge_lcs.base.validation.check_texts` with the engine's check that every text
    is exactly a ``str`` (:meth:`~rouge_lcs.engine.interface.Backend.exact_strs`): the same
    batch and the same errors, the first pass over the texts done by the engine."""
    return check_texts(predictions, references, names=names, all_str=backend().exact_strs)


def checked_utf8(batch: TextBatch) -> TextBatch:
    """:func:`rouge_lcs.base.validation.check_utf8` with the engine's check
    (:meth:`~rouge_lcs.engine.interface.Backend.all_utf8`): the same batch and errors."""
    return check_utf8(batch, all_utf8=backend().all_utf8)
