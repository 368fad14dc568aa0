"""Per-pair counts of a checked batch: the one engine seam (``backend``, over ``interface``), the
pure-Python/numpy reference engine (``reference/``), the native engine over the C core
(``native``, ``csrc/``), the batch driver (``compute``) and processes (``parallel``).

How ROUGE-L is computed: :mod:`rouge_lcs.engine.lcs` (one pair on any tokens, and the one
explanation of rouge_score's backtrack), :mod:`rouge_lcs.engine.reference.lcs_batch` (a batch,
bit rows), ``csrc/lcs_step.h`` (the bit-parallel step in C).

The LCS of one pair on any tokens is offered here, to code outside ``engine/`` (explanations,
incremental scores, rouge_score's and ROUGE-1.5.5's per-pair statements): ``from
rouge_lcs.engine import Candidate, lcs_pairs``; no module outside ``engine/`` imports
:mod:`rouge_lcs.engine.lcs` itself (tests/test_architecture.py holds this).  The names load
with that module at their first use (a module ``__getattr__``), so that importing an engine
module does not import it."""

from __future__ import annotations

# Not typing's TYPE_CHECKING: importing typing costs a fresh process ~3 ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from rouge_lcs.engine.lcs import Candidate, Tokens, lcs_indices, lcs_length, lcs_pairs, lcs_step

__all__ = ["Candidate", "Tokens", "lcs_indices", "lcs_length", "lcs_pairs", "lcs_step"]


def __getattr__(name: str) -> object:
    """The LCS names of :data:`__all__`, from :mod:`rouge_lcs.engine.lcs` (PEP 562)."""
    if name in __all__:
        from rouge_lcs.engine import lcs

        return getattr(lcs, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
