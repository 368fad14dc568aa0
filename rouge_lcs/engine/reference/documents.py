"""Per-call document cache: each distinct text is tokenized, stemmed and split once.

In real evaluations the same references recur (every system is scored against the same
documents), and ROUGE-N, ROUGE-L and ROUGE-Lsum all read the same tokens.  A
:class:`DocumentStore` maps text -> :class:`Document`.  Tokens are interned to small integer ids
per store, which makes counting and rapidfuzz's LCS cheap and collision-free.
"""

from __future__ import annotations

from rouge_lcs.text.sentences import Splitter
from rouge_lcs.text.tokenizers import ResolvedTokenizer


class Document:
    """One tokenized text: token ids, and token ids per sentence when ROUGE-Lsum is computed."""

    __slots__ = ("tokens", "sentences")

    def __init__(self, tokens: list[int], sentences: list[list[int]] | None) -> None:
        self.tokens = tokens
        self.sentences = sentences


class DocumentStore:
    """Tokenizes each distinct text once per call and interns tokens to integer ids."""

    def __init__(self, tokenizer: ResolvedTokenizer, splitter: Splitter | None) -> None:
        self._tokenize = tokenizer.split
        self._stem = tokenizer.stemmer.stem if tokenizer.stemmed else None
        self._splitter = splitter
        # Where the splitter cuts only at boundaries that the tokenizer treats as separators,
        # the tokens of the sentences, put together, are the tokens of the whole text: one
        # tokenization serves every rouge type (the objects say so themselves).
        self._separators = tokenizer.separators
        # Raw token -> id of its (stemmed) form: one dictionary lookup per token does both the
        # stemming and the interning once a word has been seen.
        self._vocab: dict[str, int] = {}
        self._ids_of_forms: dict[str, int] = {}
        self._docs: dict[str, Document] = {}

    def _id(self, token: str) -> int:
        form = self._stem(token) if self._stem is not None else token
        forms = self._ids_of_forms
        token_id = forms.get(form)
        if token_id is None:
            token_id = forms[form] = len(forms)
        self._vocab[token] = token_id
        return token_id

    def _ids(self, text: str) -> list[int]:
        tokens = self._tokenize(text)
        try:
            return list(map(self._vocab.__getitem__, tokens))
        except KeyError:
            vocab, new_id = self._vocab, self._id
            return [vocab[t] if t in vocab else new_id(t) for t in tokens]

    def __len__(self) -> int:
        return len(self._docs)

    def get(self, text: str) -> Document:
        """The document for ``text``, built on first request."""
        doc = self._docs.get(text)
        if doc is not None:
            return doc
        splitter = self._splitter
        if splitter is None:
            doc = Document(self._ids(text), None)
        else:
            texts = splitter.split(text)
            sentences = [self._ids(s) for s in texts]
            if splitter.cuts(text) <= self._separators:
                tokens = [t for s in sentences for t in s]
            elif texts == [text]:
                # One sentence, the text itself: the same tokens, whatever the tokenizer.
                tokens = sentences[0]
            else:
                tokens = self._ids(text)
            doc = Document(tokens, sentences)
        self._docs[text] = doc
        return doc
