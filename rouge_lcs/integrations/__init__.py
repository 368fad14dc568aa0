"""Integrations with other frameworks: the evaluate module's entry point (``hub``),
evaluate's evaluator, datasets, Dask/Spark/Ray, the Hugging Face Trainer, training
rewards (TRL, verl, OpenRLHF), torchmetrics and lm-eval.

Each is also importable at its documented path at the top of the package
(``rouge_lcs.trainer``, ``rouge_lcs.rewards``, ...).  Importing this folder imports none
of them, and none imports its framework before it is used."""
