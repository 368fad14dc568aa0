"""Which engine scores: the compiled core or the pure-Python/numpy reference.

``ROUGE_LCS_IMPLEMENTATION`` is ``native`` or ``python``; unset, the compiled core is used when
it loads (the library warns once otherwise).  ``ROUGE_LCS_NUM_THREADS`` is the default number of
threads.  The engines live in :mod:`rouge_lcs.engine`; this is their documented switchboard
(the library itself never asks: both engines give the same numbers).
"""

from rouge_lcs.engine.backend import (
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
    "active",
    "available",
    "default_num_threads",
    "implementation",
    "native_unicode",
]
