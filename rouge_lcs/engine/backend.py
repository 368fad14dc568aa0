"""The one engine seam: which engine scores, chosen in one place, behind one interface.

As rapidfuzz picks its compiled or its pure-Python backend once and both export the same
functions, :func:`backend` returns the :class:`~rouge_lcs.engine.interface.Backend` in use
(``ROUGE_LCS_IMPLEMENTATION`` is ``native`` or ``python``; unset, the compiled core when it
loads).  Both implement every method of the interface with bit-identical results: the
pure-Python/numpy one (:mod:`rouge_lcs.engine.reference.python`) is the reference, the native one
(:mod:`rouge_lcs.engine.native`) runs the C core.  Nothing else in the package asks which
engine runs.
"""

from __future__ import annotations

from rouge_lcs.engine import native
from rouge_lcs.engine.interface import Backend, IdDocs, Store
from rouge_lcs.engine.native import default_num_threads

__all__ = ["Backend", "IdDocs", "Store", "backend", "default_num_threads"]


def backend() -> Backend:
    """The engine in use now (reads ``ROUGE_LCS_IMPLEMENTATION`` at each call, so that a test
    or a user can switch engines between calls)."""
    if native.active():
        return native.BACKEND
    from rouge_lcs.engine.reference import (
        python,
    )  # the reference engine: imported once it is chosen

    return python.BACKEND
