"""rouge_score's ``tokenizers`` module: ``from rouge_lcs import tokenizers``.

>>> from rouge_lcs import tokenizers
>>> tokenizers.DefaultTokenizer(use_stemmer=True).tokenize("the friends had a meeting")
['the', 'friend', 'had', 'a', 'meet']
>>> class Words(tokenizers.Tokenizer):  # subclassed as rouge_score's is
...     def tokenize(self, text):
...         return text.split()
>>> from rouge_lcs import rouge_scorer
>>> rouge_scorer.RougeScorer(["rouge1"], tokenizer=Words()).score("A b", "a b")["rouge1"].recall
0.5

:class:`Tokenizer` is the abstract base (one method, ``tokenize``); :class:`DefaultTokenizer`
is rouge_score's default tokenizer, byte for byte (lowercase ``[a-z0-9]`` runs, NLTK's Porter
stemmer on tokens longer than 3 characters when asked), on this library's implementation.
Given to :class:`rouge_lcs.rouge_scorer.RougeScorer`, it runs in the engine's own tokenizer
mode instead of through a Python call per text.
"""

from __future__ import annotations

import abc

from rouge_lcs.text.tokenizers import resolve_tokenizer

__all__ = ["DefaultTokenizer", "Tokenizer"]


class Tokenizer(abc.ABC):
    """Base class of tokenizers: subclasses implement :meth:`tokenize`."""

    @abc.abstractmethod
    def tokenize(self, text: str) -> list[str]:
        """The tokens of ``text``."""
        raise NotImplementedError("Tokenizer must override tokenize() method")


class DefaultTokenizer(Tokenizer):
    """rouge_score's default tokenizer: lowercase ``[a-z0-9]`` runs, Porter-stemmed if asked."""

    def __init__(self, use_stemmer: bool = False) -> None:
        self.use_stemmer = bool(use_stemmer)
        self._tokenizer = resolve_tokenizer("rouge_score", self.use_stemmer)

    def tokenize(self, text: str) -> list[str]:
        """The tokens of ``text``."""
        return self._tokenizer.tokenize(text)
