"""Per-pair counts of a checked batch: the one engine seam (``backend``, over ``interface``), the
pure-Python/numpy reference engine (``reference/``), the native engine over the C core
(``native``, ``csrc/``), the batch driver (``compute``) and processes (``parallel``).

How ROUGE-L is computed: :mod:`rouge_lcs.engine.lcs` (one pair on any tokens, and the one
explanation of rouge_score's backtrack), :mod:`rouge_lcs.engine.reference.lcs_batch` (a batch,
bit rows), ``csrc/lcs_step.h`` (the bit-parallel step in C)."""
