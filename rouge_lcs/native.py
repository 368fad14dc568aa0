"""Which engine scores: the compiled core or the pure-Python/numpy reference.

``ROUGE_LCS_IMPLEMENTATION`` is ``native`` or ``python``; unset, the compiled core is used when
it loads (the library warns once otherwise).  ``ROUGE_LCS_NUM_THREADS`` is the default number of
threads.  The engines live in :mod:`rouge_lcs.engine`; this is their documented switchboard.
"""

from rouge_lcs.engine.native import (
    ENV,
    THREADS_ENV,
    active,
    available,
    default_num_threads,
    extension,
    implementation,
    native_unicode,
)

__all__ = [
    "ENV",
    "THREADS_ENV",
    "active",
    "available",
    "default_num_threads",
    "extension",
    "implementation",
    "native_unicode",
]
