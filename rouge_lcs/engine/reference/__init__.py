"""The reference engine: pure Python and numpy, the numbers the native engine equals bit for bit.

:mod:`~rouge_lcs.engine.reference.python` is its :class:`~rouge_lcs.engine.interface.Backend`;
:mod:`~rouge_lcs.engine.reference.documents` (each distinct text tokenized once),
:mod:`~rouge_lcs.engine.reference.ngrams` (ROUGE-N), :mod:`~rouge_lcs.engine.reference.lcs_batch`
(ROUGE-Lsum in bit rows) and :mod:`~rouge_lcs.engine.reference.counts` (every type of a chunk)
are its stages.  Only :mod:`rouge_lcs.engine` imports it (through the seam,
:mod:`rouge_lcs.engine.backend`).
"""
