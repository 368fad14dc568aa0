"""ROUGE-1.5.5's reading and token rules (``readText``, ``readText_LCS``, ``createNGram``).

What the script does to a summary, in order (all on bytes: the script reads files without any
encoding, so a non-ASCII character is 2-4 bytes that each become a space, and ``-b`` counts bytes):

1. each line (sentence) is chomped; empty lines are dropped, a line of spaces is kept;
   ``A-Z`` are lower-cased (nothing else: ``İ`` or the Kelvin sign stay non-ASCII bytes);
2. ``-l N`` / ``-b N`` cut the sentence list (words are ``split /\\s+/`` fields of the raw
   line, so ``"end."`` is one word and a leading space makes an empty first word);
3. ``-`` becomes `` - ``, every byte other than ``[A-Za-z0-9-]`` becomes a space, tokens are
   the space-separated fields: runs of ``[a-z0-9]`` and lone hyphens;
4. with ``-s`` tokens in the SMART list are dropped; only tokens starting with ``[a-z0-9$]`` are
   kept, so hyphens never count; with ``-m`` tokens longer than 3 characters are stemmed.

ROUGE-N, ROUGE-S and the unigram counts that clip ROUGE-L/W read the whole summary as one text
(``readText``); ROUGE-L/W read it sentence by sentence (``readText_LCS``).  The two cut
differently under ``-b``: ``readText_LCS`` never adds up the bytes it has kept (its running total
stays 0), so it keeps every sentence shorter than the limit until the first one that is not, which
it cuts to the limit.  We reproduce that.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from itertools import count

import numpy as np

from rouge_lcs.engine.backend import backend
from rouge_lcs.rouge155.stem import morph_stem
from rouge_lcs.text.rouge155_tokens import ASCII_LOWER, ROUGE155_TOKEN_BYTES

__all__ = [
    "lines_of",
    "script_bytes",
    "read_text",
    "read_parts",
    "read_text_lcs",
    "raw_tokens",
    "Terms",
    "stopwords",
    "Flat",
    "flat_terms",
]

# Perl's \s on a byte string: ASCII space, \t, \n, \v, \f, \r (not \x85 or \xa0).
_PERL_SPACE_BYTES = b" \t\n\x0b\f\r"
_TOKEN_BYTES = ROUGE155_TOKEN_BYTES
_UPPER = ASCII_LOWER


# Lone surrogates that surrogateescape cannot write back as the byte they stand for.
_OTHER_SURROGATE = re.compile("([\ud800-\udc7f\udd00-\udfff])")


def script_bytes(text: str) -> bytes:
    """The bytes of a file holding ``text``, as the script reads them.

    UTF-8; ``U+DC80``-``U+DCFF`` are the bytes ``0x80``-``0xFF`` they stand for (Python's
    ``surrogateescape``, so text read with it is scored as its file); any other lone surrogate
    (``"\\ud800"``) is written as its three-byte form (``surrogatepass``: ``ED A0 80``), as a
    file holding it would be.  Every such byte is non-ASCII, so it separates tokens as in the
    other modes, and ``-b`` counts it as that file's bytes.
    """
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        parts = _OTHER_SURROGATE.split(text)  # odd items: one such surrogate each
        return b"".join(
            part.encode("utf-8", "surrogatepass" if k % 2 else "surrogateescape")
            for k, part in enumerate(parts)
        )


def lines_of(text: str | Sequence[str]) -> list[bytes]:
    """The lines the script reads from a summary file holding ``text``.

    A string is the file's content (sentences separated by ``\\n``); a list holds one sentence
    per item and is written one per line.  Lines are UTF-8 bytes, lower-cased A-Z only, and
    empty lines are dropped as the script's SPL reader does (bytes: :func:`script_bytes`).
    """
    if not isinstance(text, str):
        text = "\n".join(text)
    data = script_bytes(text).translate(_UPPER)
    return [line for line in data.split(b"\n") if line]


def _perl_split(line: bytes) -> list[bytes]:
    """``split(/\\s+/, $line)``: a leading empty field is kept, trailing empty ones are not."""
    # bytes.split() cuts at runs of the same six bytes (Python's ASCII whitespace), drops
    # empty fields at both ends, and is several times faster than the pattern
    fields = line.split()
    if fields and line[:1] in _PERL_SPACE_BYTES:
        fields.insert(0, b"")
    return fields


def read_text(lines: Sequence[bytes], length_limit: int = 0, byte_limit: int = 0) -> bytes:
    """The whole summary as ``readText`` builds it before tokenizing (``b""`` when nothing)."""
    # The script joins with a space only once something has been counted; the pieces are then
    # only whitespace apart, so a plain join tokenizes the same.
    return b" ".join(read_parts(lines, length_limit, byte_limit))


def read_parts(lines: Sequence[bytes], length_limit: int = 0, byte_limit: int = 0) -> list[bytes]:
    """The pieces :func:`read_text` joins with spaces: the lines ``readText`` keeps whole,
    then the cut one.  A space never joins two tokens, so the text's tokens are the pieces'
    tokens in order (a line's are read once for every summary and flag set that keeps it)."""
    if not length_limit and not byte_limit:
        return list(lines)
    parts: list[bytes] = []
    kept = 0
    for line in lines:
        if length_limit:
            words = _perl_split(line)
            size = len(words)
            if kept + size < length_limit:
                parts.append(line)
                kept += size
                continue
            parts.append(b" ".join(words[: length_limit - kept]))
        else:
            size = len(line)
            if kept + size < byte_limit:
                parts.append(line)
                kept += size
                continue
            parts.append(line[: byte_limit - kept])
        break
    return parts


def read_text_lcs(
    lines: Sequence[bytes], length_limit: int = 0, byte_limit: int = 0
) -> list[bytes]:
    """The sentences as ``readText_LCS`` keeps them (its ``-b`` never accumulates: see above)."""
    if not length_limit and not byte_limit:
        return list(lines)
    kept_lines: list[bytes] = []
    kept = 0
    for line in lines:
        if length_limit:
            words = _perl_split(line)
            if kept + len(words) < length_limit:
                kept += len(words)
                kept_lines.append(line)
                continue
            kept_lines.append(b" ".join(words[: length_limit - kept]))
        else:
            if len(line) < byte_limit:  # the script's running byte total is never updated
                kept_lines.append(line)
                continue
            kept_lines.append(line[:byte_limit])
        break
    return kept_lines


def raw_tokens(text: bytes) -> list[str]:
    """Tokens the script keeps from a text before stop words and stemming."""
    return text.translate(_TOKEN_BYTES).decode("ascii").split()


@lru_cache(maxsize=1)
def stopwords() -> frozenset[str]:
    """ROUGE-1.5.5's stop list (``data/smart_common_words.txt``), removed with ``-s``."""
    text = resources.files(__package__).joinpath("data/smart_common_words.txt").read_text("ascii")
    return frozenset(w for w in text.splitlines() if w and not w.startswith("#"))


class Terms:
    """Token → term mapping for one setting of ``-s`` and ``-m``, memoized per token."""

    def __init__(self, *, stem: bool = False, remove_stopwords: bool = False) -> None:
        self.stem = stem
        self.stop = stopwords() if remove_stopwords else frozenset()
        self._memo: dict[str, str] = {}
        self._lines: dict[bytes, list[str]] = {}
        self._line_ids: dict[bytes, list[int]] = {}
        #: term -> id (ids are sparse: below :meth:`id_bound`, unique per term)
        self.vocab: dict[str, int] = {}
        self._next_id = count()

    def of_line(self, line: bytes) -> list[str]:
        """Terms of one line (sentence), memoized: summaries of one document share sentences."""
        out = self._lines.get(line)
        if out is None:
            out = self._lines[line] = self(raw_tokens(line))
        return out

    def ids(self, terms: Sequence[str]) -> list[int]:
        """Ids of terms in :attr:`vocab`.  ``setdefault`` with a running counter maps every
        token in C (no Python loop per token); a new term keeps the counter's value at its
        position, so ids have gaps, which the numpy kernels do not mind."""
        return list(map(self.vocab.setdefault, terms, self._next_id))

    def id_bound(self) -> int:
        """A number above every id given so far."""
        return next(self._next_id)

    def ids_of_line(self, line: bytes) -> list[int]:
        """:meth:`of_line` as ids, memoized the same way: each distinct line is mapped once,
        instead of every token of every summary (most lines recur across summaries)."""
        out = self._line_ids.get(line)
        if out is None:
            out = self._line_ids[line] = self.ids(self.of_line(line))
        return out

    def __call__(self, tokens: Iterable[str]) -> list[str]:
        """Drop stop words, stem tokens longer than 3 characters when ``-m`` is on."""
        stop = self.stop
        if not self.stem:
            return [t for t in tokens if t not in stop] if stop else list(tokens)
        memo = self._memo
        out = []
        for t in tokens:
            if t in stop:
                continue
            if len(t) > 3:
                s = memo.get(t)
                if s is None:
                    s = memo[t] = morph_stem(t)
                out.append(s)
            else:
                out.append(t)
        return out


@dataclass(frozen=True)
class Flat:
    """Many summaries read at once (no ``-l``/``-b``): term ids of their kept tokens, summary
    after summary and line after line, and where each line and each summary starts.

    ROUGE-N/S and the unigram counts read a summary as the concatenation of its lines, and
    ROUGE-L/W as its lines (empty ones included, which never change a number)."""

    #: term ids (int64), below :attr:`vocab_size`
    ids: np.ndarray
    #: ``ids[line_start[k]:line_start[k + 1]]`` are line ``k``'s terms (int64, lines + 1)
    line_start: np.ndarray
    #: summary ``d`` has lines ``doc_line[d] … doc_line[d + 1] - 1`` (int64, summaries + 1)
    doc_line: np.ndarray
    vocab_size: int

    @property
    def doc_start(self) -> np.ndarray:
        """Offsets of the summaries in :attr:`ids` (summaries + 1)."""
        return self.line_start[self.doc_line]

    def sentence_ids(self) -> list[list[list[int]]]:
        """Every summary's lines as lists of term ids."""
        ids, starts = self.ids.tolist(), self.line_start.tolist()
        lines = [ids[a:b] for a, b in zip(starts, starts[1:])]
        bounds = self.doc_line.tolist()
        return [lines[a:b] for a, b in zip(bounds, bounds[1:])]


def flat_terms(blob: bytes, line_counts: Sequence[int], terms: Terms, *, lower: bool) -> Flat:
    """Read summaries given as one text: their lines joined by ``\\n`` (summary ``d`` has
    ``line_counts[d]`` of them, at least 1), as :func:`raw_tokens` then ``terms`` read each line.

    ``lower``: lower-case A-Z first (raw text; :func:`lines_of`'s lines already are).  Tokens are
    numbered by the extension's ``rouge155_tokens`` with the native engine (else by one byte
    translation and ``str.split``), mapped to terms once per distinct token; the rest is numpy
    on the whole batch.
    """
    numbers, raw, bound = _token_numbers(blob, lower)
    distinct = raw
    if terms.stem or terms.stop:
        # Each distinct token's term, its id (gaps allowed: below ``bound``), -1 if a stop word.
        if terms.stem:
            distinct = [morph_stem(t) if len(t) > 3 else t for t in distinct]  # memoized
        vocab: dict[str, int] = {}
        table = np.full(bound + 1, -2, dtype=np.int64)  # the last entry: line breaks (-1)
        table[:bound] = np.fromiter(map(vocab.setdefault, distinct, count()), np.int64, bound)
        if terms.stop:
            table[:bound][np.fromiter(map(terms.stop.__contains__, raw), bool, bound)] = -1
        ids = table[numbers]
        mark = ids == -2
        vocab_size = bound
    else:  # every token is its term
        ids = numbers
        mark = ids == -1
        vocab_size = bound
    keep = ids >= 0
    n_lines = sum(line_counts)
    line_of = np.cumsum(mark)[keep]  # line of each kept token (a mark ends a line)
    line_start = np.zeros(n_lines + 1, dtype=np.int64)
    np.cumsum(np.bincount(line_of, minlength=n_lines), out=line_start[1:])
    doc_line = np.zeros(len(line_counts) + 1, dtype=np.int64)
    np.cumsum(np.asarray(line_counts, dtype=np.int64), out=doc_line[1:])
    return Flat(ids[keep].astype(np.int64), line_start, doc_line, max(vocab_size, 1))


def _token_numbers(blob: bytes, lower: bool) -> tuple[np.ndarray, list[str], int]:
    """Every token of ``blob`` as its number by first occurrence (0, 1, …), -1 for each line
    break; the distinct tokens in that order; their count."""
    numbers, distinct = backend().rouge155_tokens(blob, lower)
    return numbers, distinct, len(distinct)
