"""Punkt sentence boundaries: NLTK's ``PunktSentenceTokenizer.tokenize``, ported for speed.

The decision procedure of NLTK 3.10's Punkt (Kiss & Strunk 2006; ``nltk/tokenize/punkt.py``,
Apache License 2.0, © NLTK Project) for a *trained* model — the candidate contexts, the word
tokenizer, the first pass (sentence ends, ellipses, abbreviations), the second pass
(collocations, orthographic heuristic, frequent sentence starters, initials and ordinals) and
the realignment of closing quotes — with the same regular expressions (their ``\\s``, ``\\w``
and ``\\d`` written out as the project's own classes of one Unicode version, so that the
installed ``regex``, the engine NLTK routes them through, does not decide them) and no per-token
objects.  Training is not ported: the parameters are NLTK's own pretrained ``punkt_tab`` tables.

Why a port: ``import nltk`` imports all of NLTK (and SciPy when installed: 0.3–3 s on the first
ROUGE-Lsum call), and NLTK's per-token objects made Punkt half of the native engine's time on
Korean text, holding the GIL.  ``tests/text/test_punkt.py`` checks the sentences equal NLTK's own
tokenizer on every text of the project's corpora and on generated texts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    import re
    from typing import Any

# Orthographic context bits (nltk.tokenize.punkt._ORTHO_*).
_BEG_UC, _MID_UC, _UNK_UC = 1 << 1, 1 << 2, 1 << 3
_BEG_LC, _MID_LC, _UNK_LC = 1 << 4, 1 << 5, 1 << 6
_UC = _BEG_UC | _MID_UC | _UNK_UC
_LC = _BEG_LC | _MID_LC | _UNK_LC

# PunktSentenceTokenizer.PUNCTUATION: a sentence does not start with these.
_PUNCTUATION = frozenset(";:,.!?")
# _get_last_whitespace_index tests membership in string.whitespace (ASCII only).
_ASCII_WHITESPACE = frozenset(" \t\n\r\x0b\x0c")

# PunktToken's regular expressions (compiled by each Punkt at the first use of one).
_RE_ELLIPSIS = r"\.\.+$"
_RE_NUMERIC = r"^-?[\.,]?\d[\d,\.-]*\.?$"
_RE_INITIAL = r"[^\W\d]\.$"
# PunktLanguageVars' patterns, formatted with the sentence-end characters.
_RE_BOUNDARY_REALIGNMENT = r'["\')\]}\u2018\u2019\u201c\u201d\xab\xbb]+?(?:\s+|(?=--)|$)'
_WORD_START = r"[^\(\"\`{\[:;&\#\*@\)}\]\-,]"
_MULTI_CHAR_PUNCT = r"(?:\-{2,}|\.{2,}|(?:\.\s){2,}\.)"
_WORD_TOKENIZE_FMT = r"""(
        %(MultiChar)s
        |
        (?=%(WordStart)s)\S+?  # Accept word characters until end is found
        (?= # Sequences marking a word's end
            \s|                                 # White-space
            $|                                  # End-of-string
            %(NonWord)s|%(MultiChar)s|          # Punctuation
            ,(?=$|\s|%(NonWord)s|%(MultiChar)s) # Comma if at end of word
        )
        |
        \S
    )"""
_PERIOD_CONTEXT_FMT = r"""
        %(SentEndChars)s             # a potential sentence ending
        (?=(?P<after_tok>
            %(NonWord)s              # either other punctuation
            |
            \s+(?P<next_tok>\S+)     # or whitespace and some other token
        ))"""


class Punkt:
    """A Punkt sentence splitter with fixed parameters.

    Args:
        abbrev_types: known abbreviations, lowercase, without the final period.
        collocations: ``(type, next type)`` pairs across which a period is not a sentence end.
        sent_starters: types that frequently start a sentence.
        ortho_context: per type, the orthographic context bits seen in training.
        sent_end_chars: the characters that may end a sentence (NLTK: ``. ? !``).
    """

    def __init__(
        self,
        abbrev_types: Iterable[str] = (),
        collocations: Iterable[tuple[str, str]] = (),
        sent_starters: Iterable[str] = (),
        ortho_context: Mapping[str, int] | None = None,
        sent_end_chars: Iterable[str] = (".", "?", "!"),
    ) -> None:
        self.abbrev_types = frozenset(abbrev_types)
        self.collocations = frozenset(collocations)
        self.sent_starters = frozenset(sent_starters)
        self.ortho_context = dict(ortho_context or {})
        self.sent_end_chars = tuple(sent_end_chars)

    _PATTERNS = ("_ellipsis", "_numeric", "_initial", "_realignment", "_word_re", "_period_re")

    def __getattr__(self, name: str) -> Any:
        """The regular expressions, compiled at the first use of one (only the Python splitter
        reads them; Punkt in C reads :attr:`tables`): compiling them costs milliseconds of a
        fresh process's first call.  Compiling twice from two threads at once
        builds equal patterns, so no lock."""
        if name not in Punkt._PATTERNS:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self._compile()
        return object.__getattribute__(self, name)

    def _compile(self) -> None:
        """Compile the patterns as NLTK's PunktLanguageVars builds them, with ``\\s``, ``\\w``
        and ``\\d`` written out as the project's classes (rouge_lcs.text.unicode_classes, which
        Punkt in C reads too): with them explicit, the standard library's ``re`` runs them as
        ``regex`` does NLTK's, and no installed module's Unicode version decides them."""
        import re  # here too: ~3 ms of every fresh process

        from rouge_lcs.text.unicode_classes import punkt_pattern

        def compile_(pattern: str, flags: int = 0) -> re.Pattern[str]:
            return re.compile(punkt_pattern(pattern), flags)

        self._ellipsis = compile_(_RE_ELLIPSIS)
        self._numeric = compile_(_RE_NUMERIC)
        self._initial = compile_(_RE_INITIAL)
        self._realignment = compile_(_RE_BOUNDARY_REALIGNMENT, re.MULTILINE)
        # As PunktLanguageVars builds them, with re.escape (a set's order does not matter in a
        # character class).
        ends = re.escape("".join(set(self.sent_end_chars) - {"."}))
        non_word = r"(?:[)\";}\]\*:@\'\({\[\u2018\u2019\u201c\u201d\xab\xbb" + ends + "])"
        sent_end = "[" + re.escape("".join(self.sent_end_chars)) + "]"
        self._word_re = compile_(
            _WORD_TOKENIZE_FMT
            % {"NonWord": non_word, "MultiChar": _MULTI_CHAR_PUNCT, "WordStart": _WORD_START},
            re.VERBOSE,
        )
        self._period_re = compile_(
            _PERIOD_CONTEXT_FMT % {"NonWord": non_word, "SentEndChars": sent_end},
            re.VERBOSE,
        )

    @property
    def tables(
        self,
    ) -> tuple[str, frozenset[str], frozenset[tuple[str, str]], frozenset[str], dict[str, int]]:
        """The parameters as the C version takes them (``_native.PunktModel(*tables)``)."""
        return (
            "".join(self.sent_end_chars),
            self.abbrev_types,
            self.collocations,
            self.sent_starters,
            self.ortho_context,
        )

    # -- the decision for one candidate context (text_contains_sentbreak) -------------------

    def _first_pass(self, tok: str) -> tuple[bool, bool, bool]:
        """(sentbreak, abbr, ellipsis) from the token alone."""
        if tok in self.sent_end_chars:
            return True, False, False
        if self._ellipsis.match(tok):
            return False, False, True
        if tok.endswith(".") and not tok.endswith(".."):
            low = tok[:-1].lower()
            if low in self.abbrev_types or low.split("-")[-1] in self.abbrev_types:
                return False, True, False
            return True, False, False
        return False, False, False

    def _ortho(self, tok: str, typ_no_sentperiod: str) -> bool | None:
        """The orthographic heuristic: True / False, or None for NLTK's "unknown"."""
        if tok in _PUNCTUATION:
            return False
        context = self.ortho_context.get(typ_no_sentperiod, 0)
        first = tok[0]
        if first.isupper() and context & _LC and not context & _MID_UC:
            return True
        if first.islower() and (context & _UC or not context & _BEG_LC):
            return False
        return None

    def contains_sentbreak(self, text: str) -> bool:
        """Whether ``text`` has a sentence break before its last token
        (``PunktSentenceTokenizer.text_contains_sentbreak``)."""
        tokens: list[str] = []
        for line in text.split("\n"):
            if line.strip():
                tokens.extend(self._word_re.findall(line))
        n = len(tokens)
        # Only tokens before the last can answer True; the second pass of token i looks at
        # token i + 1 after its first pass (whose sentence break matters only if it ends
        # with a period).
        for i in range(n - 1):
            tok = tokens[i]
            if not tok.endswith("."):
                if tok in self.sent_end_chars:  # the first pass's only break without a period
                    return True
                continue
            sentbreak, abbr, ellipsis = self._first_pass(tok)
            tok2 = tokens[i + 1]
            tok2_break = tok2.endswith(".") and self._first_pass(tok2)[0]
            if self._second_pass(tok, sentbreak, abbr, ellipsis, tok2, tok2_break):
                return True
        return False

    def _type(self, tok: str) -> str:
        """PunktToken.type: lowercase, numbers as ``##number##``."""
        return self._numeric.sub("##number##", tok.lower())

    def _second_pass(
        self, tok: str, sentbreak: bool, abbr: bool, ellipsis: bool, tok2: str, tok2_break: bool
    ) -> bool:
        """The sentence break of a period-final token after the token-context rules."""
        typ = self._type(tok)
        if len(typ) > 1 and typ[-1] == ".":
            typ = typ[:-1]
        next_typ = self._type(tok2)
        if tok2_break and len(next_typ) > 1 and next_typ[-1] == ".":
            next_typ = next_typ[:-1]
        initial = self._initial.match(tok) is not None
        if (typ, next_typ) in self.collocations:
            return False
        if (abbr or ellipsis) and not initial:
            starter = self._ortho(tok2, next_typ)
            if starter is True:
                return True
            if tok2[0].isupper() and next_typ in self.sent_starters:
                return True
        if initial or typ == "##number##":
            starter = self._ortho(tok2, next_typ)
            if starter is False:
                return False
            if (
                starter is None
                and initial
                and tok2[0].isupper()
                and not self.ortho_context.get(next_typ, 0) & _LC
            ):
                return False
        return sentbreak

    # -- the text-level procedure (span_tokenize) -------------------------------------------

    def _contexts(self, text: str) -> Iterable[tuple[re.Match[str], str]]:
        """``_match_potential_end_contexts``: each candidate and the text around it."""
        prev_start = prev_stop = 0
        prev_match: re.Match[str] | None = None
        for match in self._period_re.finditer(text):
            start = match.start()
            # The last ASCII whitespace between the previous candidate and this one.
            index = max([text.rfind(c, prev_stop, start) for c in _ASCII_WHITESPACE])
            index = index - prev_stop if index >= 0 else 0
            # NLTK's quirk kept: whitespace at the very start of the gap counts as none.
            word_start = index + prev_stop + 1 if index else prev_start
            if prev_match is not None and prev_stop <= word_start:
                yield (
                    prev_match,
                    text[prev_start:prev_stop] + prev_match.group() + prev_match["after_tok"],
                )
            prev_match, prev_start, prev_stop = match, word_start, start
        if prev_match is not None:
            yield (
                prev_match,
                text[prev_start:prev_stop] + prev_match.group() + prev_match["after_tok"],
            )

    def _slices(self, text: str) -> list[tuple[int, int]]:
        slices = []
        last_break = 0
        for match, context in self._contexts(text):
            if self.contains_sentbreak(context):
                slices.append((last_break, match.end()))
                last_break = match.start("next_tok") if match["next_tok"] else match.end()
        slices.append((last_break, len(text.rstrip())))
        return slices

    def spans(self, text: str) -> list[tuple[int, int]]:
        """(start, end) of each sentence, closing quotes realigned
        (``span_tokenize(text, realign_boundaries=True)``)."""
        slices = self._slices(text)
        out = []
        realign = 0
        for k, (start, stop) in enumerate(slices):
            start += realign
            if k + 1 == len(slices):
                if text[start:stop]:
                    out.append((start, stop))
                continue
            start2, stop2 = slices[k + 1]
            m = self._realignment.match(text[start2:stop2])
            if m:
                out.append((start, start2 + len(m.group(0).rstrip())))
                realign = m.end()
            else:
                realign = 0
                if text[start:stop]:
                    out.append((start, stop))
        return out

    def tokenize(self, text: str) -> list[str]:
        """The sentences of ``text`` (``PunktSentenceTokenizer.tokenize``)."""
        return [text[s:e] for s, e in self.spans(text)]
