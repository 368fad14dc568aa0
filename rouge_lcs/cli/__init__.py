"""The ``rouge-lcs`` command line (``python -m rouge_lcs``): arguments, files, tables."""

from rouge_lcs.cli.main import main

__all__ = ["main"]
