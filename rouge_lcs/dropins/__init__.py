"""Drop-in replacements for other packages' modules: rouge_score's ``rouge_scorer``,
``scoring`` and ``tokenizers``, scored by this library.

Documented as ``from rouge_lcs import rouge_scorer, scoring, tokenizers`` (the top-level
paths re-export these modules)."""
