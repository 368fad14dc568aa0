"""Per-pair statistics of ROUGE-1.5.5: one (peer, model) pair at a time, no rounding.

For every metric and every model (reference) of an example we keep the script's four numbers:
``hit``, ``model_count``, ``peer_count`` and ``select`` — the per-model score that ``-f B`` uses
to pick the best model.  :mod:`rouge_lcs.rouge155.report` combines them (``-f A`` / ``-f B``),
rounds and averages; nothing here depends on ``-f``, ``-p`` or the averaging.

- ROUGE-N (``createNGram``/``ngramScore``): clipped n-gram hits; ``select`` is the recall rounded
  to 5 decimals (the script compares ``sprintf("%07.5f")`` strings).
- ROUGE-S/SU (``createSkipBigram``): pairs ``(i, j)``, ``i < j <= i + d + 1`` (any ``j`` when
  ``d < 0``); with ``-u`` each token but the *last* also counts as a unigram (the script's loop
  stops one short), so a one-token summary has no SU units at all.
- ROUGE-L (``lcs``): for each model sentence the union of its LCS positions against every peer
  sentence (the script's backtrack: diagonal on a match, else up when that keeps the length,
  else left); a union token counts while the whole-summary unigram counts of both sides last.
  ``model_count`` is the number of model LCS tokens, ``peer_count`` the peer's unigram count,
  ``select`` the unrounded recall.
- ROUGE-W (``wlcs``): the same walk on the weighted-LCS table with weight ``f(k) = k ** w``;
  the script adds ``f(run)`` for each run of consecutive hits, and weights the model length
  *twice*: ``model_count = (sum_s len(s) ** w) ** w``, ``peer_count = len(peer) ** w``, which
  we reproduce.  A model without tokens makes the script die (division by zero): we raise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rouge_lcs.rouge155.tokenize import Terms, raw_tokens, read_text, read_text_lcs

__all__ = ["Metric", "Summary", "prepare", "pair_stats", "PairStat"]

#: ``(hit, model_count, peer_count, select)`` of one (peer, model) pair for one metric.
PairStat = tuple[float, float, float, float]


@dataclass(frozen=True)
class Metric:
    """One line of the script's report: ``kind`` N, L, W or S and its parameter."""

    kind: str  # "N", "L", "W", "S"
    n: int = 0  # ROUGE-N size
    weight: float = 1.2  # ROUGE-W
    weight_text: str = "1.2"  # how the script prints it (Perl's number as the user typed it)
    skip: int = 4  # ROUGE-S skip distance, < 0 unlimited
    skip_text: str = "4"
    unigrams: bool = False  # ROUGE-SU

    @property
    def tag(self) -> str:
        """The script's name: ``ROUGE-2``, ``ROUGE-L``, ``ROUGE-W-1.2``, ``ROUGE-SU4``, ``ROUGE-S*``."""
        if self.kind == "N":
            return f"ROUGE-{self.n}"
        if self.kind == "L":
            return "ROUGE-L"
        if self.kind == "W":
            return f"ROUGE-W-{self.weight_text}"
        distance = self.skip_text if self.skip >= 0 else "*"
        return f"ROUGE-{'SU' if self.unigrams else 'S'}{distance}"


class Summary:
    """A summary as the script sees it: whole-text terms and per-sentence terms."""

    __slots__ = ("terms", "sentences", "_grams", "_skips")

    def __init__(self, terms: list[str], sentences: list[list[str]]) -> None:
        self.terms = terms
        self.sentences = sentences
        self._grams: dict[int, Counter] = {}
        self._skips: dict[tuple[int, bool], Counter] = {}

    def ngrams(self, n: int) -> Counter:
        """``createNGram``: n-gram counts (the count total is ``max(0, len - n + 1)``)."""
        grams = self._grams.get(n)
        if grams is None:
            t = self.terms
            grams = Counter(t) if n == 1 else Counter(zip(*(t[i:] for i in range(n))))
            self._grams[n] = grams
        return grams

    def skip_bigrams(self, skip: int, unigrams: bool) -> Counter:
        """``createSkipBigram`` counts (with the script's missing last unigram under ``-u``)."""
        key = (skip, unigrams)
        grams = self._skips.get(key)
        if grams is None:
            t = self.terms
            size = len(t)
            grams = Counter()
            for i in range(size - 1):
                if unigrams:
                    grams[t[i]] += 1
                end = size if skip < 0 else min(size, i + skip + 2)
                first = t[i]
                grams.update((first, t[j]) for j in range(i + 1, end))
            self._skips[key] = grams
        return grams


def prepare(
    lines: Sequence[bytes], terms: Terms, length_limit: int = 0, byte_limit: int = 0
) -> Summary:
    """Read one summary the way the script does (see :mod:`rouge_lcs.rouge155.tokenize`)."""
    whole = terms(raw_tokens(read_text(lines, length_limit, byte_limit)))
    sentences = [
        terms(raw_tokens(s)) for s in read_text_lcs(lines, length_limit, byte_limit)
    ]
    return Summary(whole, sentences)


def _clipped_hits(model: Counter, peer: Counter) -> int:
    if len(peer) < len(model):
        model, peer = peer, model
    return sum(min(c, peer[g]) for g, c in model.items() if g in peer)


def _round5(x: float) -> float:
    return float(f"{x:.5f}")


# ---------------------------------------------------------------- LCS


class _Sentence:
    """A peer sentence prepared for bit-parallel LCS: per-token position masks."""

    __slots__ = ("tokens", "masks", "full")

    def __init__(self, tokens: Sequence[str]) -> None:
        self.tokens = tokens
        masks: dict[str, int] = {}
        for position, token in enumerate(tokens):
            masks[token] = masks.get(token, 0) | (1 << position)
        self.masks = masks
        self.full = (1 << len(tokens)) - 1


def _prefix_parity(bits: int, width: int) -> int:
    shift = 1
    while shift < width:
        bits ^= bits << shift
        shift <<= 1
    return bits


def _lcs_positions(model: Sequence[str], peer: _Sentence) -> list[int]:
    """Model positions that the script's ``markLCS`` marks for one sentence pair.

    The script walks back from ``(m, n)``: diagonal on a token match, else up when
    ``c[i-1][j] >= c[i][j-1]`` (the vertical step keeps the length), else left.  Rows of the DP
    table are kept as Hyyrö bit vectors (a zero where the row steps up), so the vertical
    difference is the running parity of two consecutive rows and each row is visited once.
    The same walk as rouge_score's, which is why :mod:`rouge_lcs.lcs` has this kernel too.
    """
    masks, full = peer.masks, peer.full
    width = len(peer.tokens)
    row = full
    rows = [row]
    for token in model:
        match = row & masks.get(token, 0)
        row = ((row + match) | (row - match)) & full
        rows.append(row)
    length = width - row.bit_count()
    found: list[int] = []
    i, j = len(model), width
    while j > 0 and len(found) < length:
        match = masks.get(model[i - 1], 0)
        flat = ~_prefix_parity(rows[i - 1] ^ rows[i], width)
        stops = (match | flat) & ((1 << j) - 1)
        if not stops:
            break
        column = stops.bit_length()
        i -= 1
        if match >> (column - 1) & 1:
            j = column - 1
            found.append(i)
        else:
            j = column
    return found


def _lcs_stat(model: Summary, peer_sentences: list[_Sentence], peer: Summary) -> PairStat:
    union: Counter = Counter()
    base = 0
    for sentence in model.sentences:
        base += len(sentence)
        if not sentence:
            continue
        words = set(sentence)
        positions: set[int] = set()
        for cand in peer_sentences:
            if cand.tokens and not words.isdisjoint(cand.masks):
                positions.update(_lcs_positions(sentence, cand))
        union.update(sentence[p] for p in positions)
    # Each union position is a distinct model occurrence and the script decrements both unigram
    # tables once per counted hit, so a term counts min(union, model, peer) times.
    m1, p1 = model.ngrams(1), peer.ngrams(1)
    hit = sum(min(c, m1.get(t, 0), p1.get(t, 0)) for t, c in union.items())
    peer_count = len(peer.terms)
    return hit, base, peer_count, (hit / base if base > 0 else 0.0)


# ---------------------------------------------------------------- weighted LCS


def _wlcs_marks(model: Sequence[str], peer: Sequence[str], w: float, mask: list[int]) -> None:
    """``wlcs_inner`` + ``markLCS``: the weighted DP table and the script's walk back."""
    m, n = len(model), len(peer)
    if m == 0:
        return
    prev_c = [0.0] * (n + 1)
    prev_l = [0] * (n + 1)
    moves: list[bytes] = [b""]
    for i in range(1, m + 1):
        cur_c = [0.0] * (n + 1)
        cur_l = [0] * (n + 1)
        move = bytearray(n + 1)
        token = model[i - 1]
        for j in range(1, n + 1):
            if token == peer[j - 1]:
                k = prev_l[j - 1]
                # the script's float expression, in its order
                cur_c[j] = prev_c[j - 1] + (k + 1) ** w - k**w
                cur_l[j] = k + 1
                move[j] = 1
            elif prev_c[j] >= cur_c[j - 1]:
                cur_c[j] = prev_c[j]
                move[j] = 2
            else:
                cur_c[j] = cur_c[j - 1]
                move[j] = 3
        moves.append(bytes(move))
        prev_c, prev_l = cur_c, cur_l
    i, j = m, n
    while i and j:
        step = moves[i][j]
        if step == 1:
            i -= 1
            j -= 1
            mask[i] = 1
        elif step == 2:
            i -= 1
        else:
            j -= 1


def _wlcs_stat(model: Summary, peer: Summary, w: float) -> PairStat:
    m1 = Counter(model.ngrams(1))
    p1 = Counter(peer.ngrams(1))
    hit = 0.0
    base = 0.0
    for sentence in model.sentences:
        base += len(sentence) ** w
        mask = [0] * len(sentence)
        for peer_sentence in peer.sentences:
            _wlcs_marks(sentence, peer_sentence, w, mask)
        run = 0
        size = len(sentence)
        for j, token in enumerate(sentence):
            # The script's loop, literally: a marked token that fails the unigram clip does not
            # end the current run, so the run can continue after it.
            if mask[j] == 1 and m1.get(token, 0) > 0 and p1.get(token, 0) > 0:
                run += 1
                if j + 1 < size and mask[j + 1] == 0 or j + 1 == size:
                    hit += run**w
                    run = 0
                m1[token] -= 1
                p1[token] -= 1
    if base == 0:
        raise ValueError(
            "ROUGE-W: a reference has no tokens; ROUGE-1.5.5 dies on it (division by zero)"
        )
    select = (hit / base) ** (1 / w)
    return hit, base**w, len(peer.terms) ** w, select


# ---------------------------------------------------------------- one pair, every metric


def pair_stats(
    peer: Summary, models: Sequence[Summary], metrics: Sequence[Metric]
) -> list[list[PairStat]]:
    """``stats[metric][model]`` for one example."""
    out: list[list[PairStat]] = []
    peer_sentences: list[_Sentence] | None = None
    for metric in metrics:
        row: list[PairStat] = []
        if metric.kind == "N":
            pg = peer.ngrams(metric.n)
            p_count = max(0, len(peer.terms) - metric.n + 1)
            for model in models:
                mg = model.ngrams(metric.n)
                m_count = max(0, len(model.terms) - metric.n + 1)
                hit = _clipped_hits(mg, pg)
                row.append((hit, m_count, p_count, _round5(hit / m_count) if m_count else 0.0))
        elif metric.kind == "S":
            pg = peer.skip_bigrams(metric.skip, metric.unigrams)
            p_count = sum(pg.values())
            for model in models:
                mg = model.skip_bigrams(metric.skip, metric.unigrams)
                m_count = sum(mg.values())
                hit = _clipped_hits(mg, pg)
                row.append((hit, m_count, p_count, _round5(hit / m_count) if m_count else 0.0))
        elif metric.kind == "L":
            if peer_sentences is None:
                peer_sentences = [_Sentence(s) for s in peer.sentences]
            for model in models:
                row.append(_lcs_stat(model, peer_sentences, peer))
        elif metric.kind == "W":
            for model in models:
                row.append(_wlcs_stat(model, peer, metric.weight))
        else:
            raise ValueError(f"unknown metric kind {metric.kind!r}")
        out.append(row)
    return out
