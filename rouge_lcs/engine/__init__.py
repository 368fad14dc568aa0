"""Per-pair counts of a checked batch: the one engine seam (``backend``), the pure-Python/numpy
reference engine (``documents``, ``ngrams``, ``lcs``, ``lcs_batch``, ``counts``), the native
engine over the C core (``native``, ``csrc/``), and processes (``parallel``).

How ROUGE-L is computed: :mod:`rouge_lcs.engine.lcs` (one pair, the reference and the
explanation of rouge_score's backtrack), :mod:`rouge_lcs.engine.lcs_batch` (a batch, bit rows)."""
