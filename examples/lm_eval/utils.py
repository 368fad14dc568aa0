"""Helpers of the example lm-eval task folder (``lm_eval --include_path examples/lm_eval``).

Importing this file imports :mod:`rouge_lcs.lm_eval`, which registers the metrics ``rouge1``,
``rouge2``, ``rougeL`` and ``rougeLsum``; lm-eval imports it because each task's YAML names
one of its functions with ``!function`` (``process_docs`` or ``process_results``).
"""

from __future__ import annotations

from rouge_lcs.lm_eval import make_process_results, process_docs

__all__ = ["norsumm_process_results", "process_docs"]

#: NorEval's NorSumm: several reference summaries per article (``summaries``). NorEval's own
#: ``rougeL_max`` is the best ROUGE-Lsum F over them (rouge_score, which reads "på økte
#: støtten" as "p kte st tten"); here the same, with Unicode tokens, in [0, 1].
norsumm_process_results = make_process_results("summaries", ["rougeLsum"])
