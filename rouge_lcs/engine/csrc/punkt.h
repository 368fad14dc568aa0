/*
 * punkt.h: Punkt's sentence boundaries in C: rouge_lcs/text/punkt.py (itself NLTK 3.10's
 * PunktSentenceTokenizer.tokenize) step by step, its regular expressions written out as scans.
 * tests/text/test_punkt.py checks it equal to NLTK.
 *
 * It sees no Python object, so it can run on the encoder's threads without the GIL
 * (py_sentences.h, tokens.h): the model is C maps (punkt_tables.h) and the text is code units.  The
 * only str methods Punkt uses, lower() of a token and isupper/islower/isspace of a character,
 * come from a PunktCase: case_table.h's (PUNKT_TABLE_CASE, exact for every character but the
 * two that punkt_decidable refuses), or CPython's own, which py_punkt.h supplies for the other
 * texts and runs with the GIL held.
 *
 * The character classes are the `regex` module's (\s, \w, \d: PUNKT_RANGES in unicode_table.h,
 * generated with the tokenizer's by scripts/gen_unicode_table.py).
 */
#ifndef ROUGE_LCS_PUNKT_H
#define ROUGE_LCS_PUNKT_H

#include "punkt_tables.h"

/* code units of a string that the caller keeps alive */
typedef struct {
    const void *data;
    int kind;
    int64_t n;
} PunktText;

/* The str methods Punkt calls.  lower: str.lower of units [a, b) of the text into *buf
 * (grown); its length, or -1 on error.  bits: CASE_UPPER / CASE_LOWER / CASE_SPACE of one
 * character (str.isupper, islower, isspace). */
typedef struct {
    int64_t (*lower)(void *ctx, const PunktText *t, int64_t a, int64_t b, uint32_t **buf,
                     int64_t *cap);
    int (*bits)(uint32_t c);
    void *ctx;
} PunktCase;

/* lower() from case_table.h, for a text punkt_decidable accepts */
static int64_t table_lower(void *ctx, const PunktText *t, int64_t a, int64_t b, uint32_t **buf,
                           int64_t *cap) {
    (void)ctx;
    if (!grow((void **)buf, cap, b - a + 1, sizeof(uint32_t))) return -1;
    for (int64_t k = a; k < b; k++) (*buf)[k - a] = case_lower(unit_at(t->kind, t->data, k));
    return b - a;
}

static const PunktCase PUNKT_TABLE_CASE = {table_lower, case_bits, NULL};

/* Whether case_table.h decides every str method Punkt calls on this text: no character whose
 * lowercase is not one character of its own (U+0130, U+03A3). */
static int punkt_decidable(const PunktText *t) {
    if (t->kind == 1) return 1; /* Latin-1: none of them */
    for (int64_t k = 0; k < t->n; k++) {
        uint32_t c = unit_at(t->kind, t->data, k);
        if (c >= 128 && (case_bits(c) & CASE_SPECIAL)) return 0;
    }
    return 1;
}

typedef struct {
    int64_t start, len;
} Span;

/* One run of Punkt over one text: the inputs and its scratch buffers. */
typedef struct {
    const PunktTables *m;
    const PunktCase *cs;
    PunktText t;
    Span *toks;
    int64_t toks_cap;
    uint32_t *typ, *next, *key; /* a token's type, the next token's, a lowered word */
    int64_t typ_cap, next_cap, key_cap;
    char *bytes, *next_bytes; /* lookup keys as UTF-8 (punkt_tables.h) */
    int64_t bytes_cap, next_bytes_cap;
    int64_t *sl; /* the slices, then the sentence spans: (start, end) pairs */
    int64_t n_sl, sl_cap;
} PunktRun;

static void punkt_run_free(PunktRun *r) {
    free(r->toks);
    free(r->typ);
    free(r->next);
    free(r->key);
    free(r->bytes);
    free(r->next_bytes);
    free(r->sl);
}

#define PCH(r, i) unit_at((r)->t.kind, (r)->t.data, (i))

static int punkt_bits(uint32_t c) {
    if (c < 128) {
        if (c == ' ' || (c >= 9 && c <= 13)) return 1;
        if (c >= '0' && c <= '9') return 6;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') return 2;
        return 0;
    }
    int found = range_index(PUNKT_RANGES, PUNKT_RANGE_COUNT, c);
    return found < 0 ? 0 : (int)PUNKT_RANGES[found][2];
}

static inline int p_space(uint32_t c) { return punkt_bits(c) & 1; }

static inline int p_str_space(const PunktRun *r, uint32_t c) { return r->cs->bits(c) & CASE_SPACE; }

static int p_is_end(const PunktRun *r, uint32_t c) {
    for (int k = 0; k < r->m->n_ends; k++)
        if (r->m->ends[k] == c) return 1;
    return 0;
}

/* The first index from i on (before n) whose character is a sentence end, or n: the scan for
 * candidates reads every character, a Latin-1 text's through the model's byte table. */
static inline int64_t p_next_end(const PunktRun *r, int64_t i, int64_t n) {
    if (r->t.kind == 1) {
        const uint8_t *s = (const uint8_t *)r->t.data, *is_end = r->m->end_byte;
        while (i < n && !is_end[s[i]]) i++;
        return i;
    }
    while (i < n && !p_is_end(r, PCH(r, i))) i++;
    return i;
}

/* _re_non_word_chars: characters that cannot appear within words */
static int p_nonword(const PunktRun *r, uint32_t c) {
    switch (c) {
    case ')': case '"': case ';': case '}': case ']': case '*': case ':': case '@': case '\'':
    case '(': case '{': case '[': case 0x2018: case 0x2019: case 0x201C: case 0x201D:
    case 0xAB: case 0xBB:
        return 1;
    default:
        return c != '.' && p_is_end(r, c);
    }
}

/* _re_multi_char_punct at i (before `end`): its length, 0 if none.
 * (?:\-{2,}|\.{2,}|(?:\.\s){2,}\.) with the regex engine's greedy backtracking. */
static int64_t p_multichar(const PunktRun *r, int64_t i, int64_t end) {
    if (i + 1 >= end) return 0;
    uint32_t c = PCH(r, i), d = PCH(r, i + 1);
    if ((c == '-' && d == '-') || (c == '.' && d == '.')) {
        int64_t j = i + 2;
        while (j < end && PCH(r, j) == c) j++;
        return j - i;
    }
    if (c != '.') return 0;
    int64_t pairs = 0, j = i;
    while (j + 1 < end && PCH(r, j) == '.' && p_space(PCH(r, j + 1))) {
        pairs++;
        j += 2;
    }
    if (pairs < 2) return 0;
    if (j < end && PCH(r, j) == '.') return 2 * pairs + 1;
    /* one pair fewer: the "." that starts the last pair closes it */
    return pairs >= 3 ? 2 * pairs - 1 : 0;
}

/* _re_word_start excludes these from starting a word */
static int p_no_word_start(uint32_t c) {
    switch (c) {
    case '(': case '"': case '`': case '{': case '[': case ':': case ';': case '&': case '#':
    case '*': case '@': case ')': case '}': case ']': case '-': case ',':
        return 1;
    default:
        return 0;
    }
}

/* The word tokenizer's end lookahead at j of a word ending before `end` */
static int p_word_ends(const PunktRun *r, int64_t j, int64_t end) {
    if (j >= end) return 1; /* $ (a line has no newline) */
    uint32_t c = PCH(r, j);
    if (p_space(c) || p_nonword(r, c) || p_multichar(r, j, end)) return 1;
    if (c == ',') {
        if (j + 1 >= end) return 1;
        uint32_t d = PCH(r, j + 1);
        return p_space(d) || p_nonword(r, d) || p_multichar(r, j + 1, end) > 0;
    }
    return 0;
}

/* PunktLanguageVars.word_tokenize (findall) on the line [a, b); appends to r->toks */
static int p_word_tokenize(PunktRun *r, int64_t a, int64_t b, int64_t *n) {
    int64_t i = a;
    while (i < b) {
        uint32_t c = PCH(r, i);
        int64_t len = p_multichar(r, i, b);
        if (len == 0 && !p_space(c)) {
            len = 1;
            if (!p_no_word_start(c)) {
                int64_t j = i + 1;
                while (!p_word_ends(r, j, b)) j++; /* stops at whitespace or the end at last */
                len = j - i;
            }
        }
        if (len == 0) {
            i++;
            continue;
        }
        if (*n == r->toks_cap && !grow((void **)&r->toks, &r->toks_cap, *n + 1, sizeof(Span)))
            return -1;
        r->toks[(*n)++] = (Span){i, len};
        i += len;
    }
    return 0;
}

static inline int p_ends_period(const PunktRun *r, Span t) {
    return PCH(r, t.start + t.len - 1) == '.';
}

static const uint32_t P_NUMBER[] = {'#', '#', 'n', 'u', 'm', 'b', 'e', 'r', '#', '#'};
#define P_NUMBER_LEN 10

/* PunktToken.type into *buf: tok.lower(), "##number##" for numbers; its length, -1 on error */
static int64_t p_type(PunktRun *r, Span t, uint32_t **buf, int64_t *cap) {
    int64_t n = r->cs->lower(r->cs->ctx, &r->t, t.start, t.start + t.len, buf, cap);
    if (n < 0) return -1;
    const uint32_t *low = *buf;
    /* ^-?[\.,]?\d[\d,\.-]*\.?$ */
    int64_t k = 0;
    if (k < n && low[k] == '-') k++;
    if (k < n && (low[k] == '.' || low[k] == ',')) k++;
    int number = k < n && (punkt_bits(low[k]) & 4);
    for (k++; number && k < n; k++) {
        uint32_t c = low[k];
        number = c == ',' || c == '.' || c == '-' || (punkt_bits(c) & 4);
    }
    if (!number) return n;
    if (!grow((void **)buf, cap, P_NUMBER_LEN, sizeof(uint32_t))) return -1;
    memcpy(*buf, P_NUMBER, sizeof(P_NUMBER));
    return P_NUMBER_LEN;
}

/* a type's length without its final period (when longer than one character) */
static inline int64_t p_no_period(const uint32_t *typ, int64_t n) {
    return n > 1 && typ[n - 1] == '.' ? n - 1 : n;
}

/* _first_pass for a period-final token: 1 sentence break, 2 abbreviation, 3 ellipsis, 0 none,
 * -1 error */
static int p_first_pass(PunktRun *r, Span t) {
    if (t.len == 1 && p_is_end(r, PCH(r, t.start))) return 1;
    int all_periods = t.len >= 2;
    for (int64_t k = 0; all_periods && k < t.len; k++) all_periods = PCH(r, t.start + k) == '.';
    if (all_periods) return 3;
    if (!p_ends_period(r, t)) return 0;
    if (t.len >= 2 && PCH(r, t.start + t.len - 2) == '.') return 0; /* ends with ".." */
    int64_t n = r->cs->lower(r->cs->ctx, &r->t, t.start, t.start + t.len - 1, &r->key,
                             &r->key_cap);
    if (n < 0) return -1;
    int64_t len = 0;
    if (!utf8_append(r->key, n, &r->bytes, &len, &r->bytes_cap)) return -1;
    if (pt_get(&r->m->abbrev, r->bytes, len) >= 0) return 2;
    for (int64_t dash = len - 1; dash >= 0; dash--) { /* low.split("-")[-1] */
        if (r->bytes[dash] != '-') continue;
        return pt_get(&r->m->abbrev, r->bytes + dash + 1, len - dash - 1) >= 0 ? 2 : 1;
    }
    return 1;
}

/* the orthographic context of a type (its UTF-8), 0 when unknown */
static inline int64_t p_ortho_context(const PunktRun *r, const char *typ, int64_t n) {
    int64_t v = pt_get(&r->m->ortho, typ, n);
    return v < 0 ? 0 : v;
}

enum { ORTHO_BEG_UC = 2, ORTHO_MID_UC = 4, ORTHO_UNK_UC = 8, ORTHO_BEG_LC = 16,
       ORTHO_MID_LC = 32, ORTHO_UNK_LC = 64 };
#define ORTHO_UC (ORTHO_BEG_UC | ORTHO_MID_UC | ORTHO_UNK_UC)
#define ORTHO_LC (ORTHO_BEG_LC | ORTHO_MID_LC | ORTHO_UNK_LC)

/* _ortho_heuristic: 1 True, 0 False, 2 unknown */
static int p_ortho(const PunktRun *r, Span t2, const char *next_typ, int64_t n) {
    if (t2.len == 1) {
        uint32_t c = PCH(r, t2.start);
        if (c == ';' || c == ':' || c == ',' || c == '.' || c == '!' || c == '?') return 0;
    }
    int64_t ctx = p_ortho_context(r, next_typ, n);
    int first = r->cs->bits(PCH(r, t2.start));
    if ((first & CASE_UPPER) && (ctx & ORTHO_LC) && !(ctx & ORTHO_MID_UC)) return 1;
    if ((first & CASE_LOWER) && ((ctx & ORTHO_UC) || !(ctx & ORTHO_BEG_LC))) return 0;
    return 2;
}

/* the sentence break of period-final token t (first pass `first`) followed by t2 (whose first
 * pass broke a sentence: t2_break); 1 / 0, -1 on error */
static int p_second_pass(PunktRun *r, Span t, int first, Span t2, int t2_break) {
    int sentbreak = first == 1, abbr_or_ellipsis = first == 2 || first == 3;
    int64_t n_typ = p_type(r, t, &r->typ, &r->typ_cap);
    if (n_typ < 0) return -1;
    n_typ = p_no_period(r->typ, n_typ);
    int64_t n_next = p_type(r, t2, &r->next, &r->next_cap);
    if (n_next < 0) return -1;
    if (t2_break) n_next = p_no_period(r->next, n_next);
    uint32_t c0 = PCH(r, t.start);
    int initial = t.len == 2 && PCH(r, t.start + 1) == '.' && (punkt_bits(c0) & 6) == 2;
    /* the keys as UTF-8: the next type alone, and the pair "type 0xFF next" */
    int64_t nb = 0, pb = 0;
    if (!utf8_append(r->next, n_next, &r->next_bytes, &nb, &r->next_bytes_cap) ||
        !utf8_append(r->typ, n_typ, &r->bytes, &pb, &r->bytes_cap) ||
        !grow((void **)&r->bytes, &r->bytes_cap, pb + nb + 1, 1))
        return -1;
    r->bytes[pb++] = (char)PUNKT_PAIR_SEP;
    memcpy(r->bytes + pb, r->next_bytes, (size_t)nb);
    if (pt_get(&r->m->colloc, r->bytes, pb + nb) >= 0) return 0;
    const char *next = r->next_bytes;
    int upper2 = r->cs->bits(PCH(r, t2.start)) & CASE_UPPER;
    if (abbr_or_ellipsis && !initial) {
        int starter = p_ortho(r, t2, next, nb);
        if (starter == 1) return 1;
        if (upper2 && pt_get(&r->m->starters, next, nb) >= 0) return 1;
    }
    int number = n_typ == P_NUMBER_LEN && memcmp(r->typ, P_NUMBER, sizeof(P_NUMBER)) == 0;
    if (initial || number) {
        int starter = p_ortho(r, t2, next, nb);
        if (starter == 0) return 0;
        if (starter == 2 && initial && upper2 && !(p_ortho_context(r, next, nb) & ORTHO_LC))
            return 0;
    }
    return sentbreak;
}

/* text_contains_sentbreak on the context [a, b): 1 / 0, -1 on error */
static int p_contains_sentbreak(PunktRun *r, int64_t a, int64_t b) {
    int64_t n = 0, line = a;
    for (int64_t i = a; i <= b; i++) {
        if (i < b && PCH(r, i) != '\n') continue;
        int blank = 1; /* line.strip(): str whitespace */
        for (int64_t k = line; k < i && blank; k++) blank = p_str_space(r, PCH(r, k)) != 0;
        if (!blank && p_word_tokenize(r, line, i, &n) < 0) return -1;
        line = i + 1;
    }
    for (int64_t i = 0; i + 1 < n; i++) {
        Span t = r->toks[i], t2 = r->toks[i + 1];
        if (!p_ends_period(r, t)) {
            if (t.len == 1 && p_is_end(r, PCH(r, t.start))) return 1;
            continue;
        }
        int first = p_first_pass(r, t);
        if (first < 0) return -1;
        int t2_break = 0;
        if (p_ends_period(r, t2)) {
            t2_break = p_first_pass(r, t2);
            if (t2_break < 0) return -1;
            t2_break = t2_break == 1;
        }
        int brk = p_second_pass(r, t, first, t2, t2_break);
        if (brk != 0) return brk;
    }
    return 0;
}

/* _RE_BOUNDARY_REALIGNMENT.match(text[a:b]): the match's end (relative to a) and the length
 * of its text without trailing str whitespace; returns 0 when it does not match */
static int p_realign(const PunktRun *r, int64_t a, int64_t b, int64_t *end, int64_t *kept) {
    int64_t k = a;
    for (;;) {
        if (k >= b) return 0;
        uint32_t c = PCH(r, k);
        if (!(c == '"' || c == '\'' || c == ')' || c == ']' || c == '}' || c == 0x2018 ||
              c == 0x2019 || c == 0x201C || c == 0x201D || c == 0xAB || c == 0xBB))
            return 0;
        k++; /* one more closer (lazy), then the alternatives */
        int64_t m = -1;
        if (k < b && p_space(PCH(r, k))) {
            m = k;
            while (m < b && p_space(PCH(r, m))) m++;
        } else if (k + 1 < b && PCH(r, k) == '-' && PCH(r, k + 1) == '-') {
            m = k;
        } else if (k == b) {
            m = k;
        }
        if (m >= 0) {
            int64_t e = m;
            while (e > a && p_str_space(r, PCH(r, e - 1))) e--;
            *end = m - a;
            *kept = e - a;
            return 1;
        }
    }
}

static int p_push(PunktRun *r, int64_t x, int64_t y) {
    if (!grow((void **)&r->sl, &r->sl_cap, r->n_sl + 2, sizeof(int64_t))) return -1;
    r->sl[r->n_sl++] = x;
    r->sl[r->n_sl++] = y;
    return 0;
}

/* span_tokenize(text, realign_boundaries=True): r->sl gets r->n_sl / 2 (start, end) pairs.
 * 0, or -1 on error (no memory, or what the PunktCase reported). */
static int punkt_run(PunktRun *r) {
    int64_t n = r->t.n;
    r->n_sl = 0;
    /* _match_potential_end_contexts + _slices_from_text */
    int64_t last_break = 0, prev_start = 0, prev_stop = 0;
    int64_t prev_i = -1, prev_after = 0, prev_next = -1;
    for (int64_t i = 0; i <= n; i++) {
        int64_t after = 0, next = -1;
        i = p_next_end(r, i, n); /* the characters before it are no candidates */
        if (i < n) {
            if (i + 1 >= n) continue;
            uint32_t d = PCH(r, i + 1);
            if (p_nonword(r, d)) {
                after = i + 2;
            } else if (p_space(d)) {
                int64_t j = i + 1;
                while (j < n && p_space(PCH(r, j))) j++;
                if (j == n) continue;
                int64_t k = j;
                while (k < n && !p_space(PCH(r, k))) k++;
                after = k;
                next = j;
            } else {
                continue;
            }
        }
        int64_t word_start = 0;
        int yield_prev = prev_i >= 0;
        if (i < n) {
            int64_t index = 0; /* the last ASCII whitespace after the previous candidate */
            for (int64_t k = i - 1; k >= prev_stop; k--) {
                uint32_t c = PCH(r, k);
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0B || c == 0x0C) {
                    index = k - prev_stop;
                    break;
                }
            }
            word_start = index ? index + prev_stop + 1 : prev_start;
            yield_prev = prev_i >= 0 && prev_stop <= word_start;
        }
        if (yield_prev) {
            int brk = p_contains_sentbreak(r, prev_start, prev_after);
            if (brk < 0) return -1;
            if (brk) {
                if (p_push(r, last_break, prev_i + 1) < 0) return -1;
                last_break = prev_next >= 0 ? prev_next : prev_i + 1;
            }
        }
        if (i == n) break;
        prev_i = i;
        prev_after = after;
        prev_next = next;
        prev_start = word_start;
        prev_stop = i;
    }
    int64_t stripped = n;
    while (stripped > 0 && p_str_space(r, PCH(r, stripped - 1))) stripped--;
    if (p_push(r, last_break, stripped) < 0) return -1;
    /* _realign_boundaries, in place: span k is written before slice k + 1 is read again */
    int64_t realign = 0, count = r->n_sl / 2, out = 0;
    int64_t *sl = r->sl;
    for (int64_t k = 0; k < count; k++) {
        int64_t start = sl[2 * k] + realign, stop = sl[2 * k + 1], end, kept;
        if (k + 1 < count && p_realign(r, sl[2 * k + 2], sl[2 * k + 3], &end, &kept)) {
            stop = sl[2 * k + 2] + kept;
            realign = end;
        } else {
            realign = 0;
            if (start >= stop) continue;
        }
        sl[2 * out] = start;
        sl[2 * out + 1] = stop;
        out++;
    }
    r->n_sl = 2 * out;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Many texts on threads (the encoder's sentence stage)                                        */

/* punkt_short_end's last step, for a text of several sentence ends (from index `from` on):
 * -2 when a .?! is followed by neither a word character nor the text's end (Punkt may cut
 * there), else `last`.  `kind` a constant where it is inlined. */
static inline __attribute__((always_inline)) int64_t
short_end_candidates(const PunktText *t, int kind, int64_t from, int64_t last,
                     int64_t last_word) {
    for (int64_t k = from; k + 1 < t->n; k++) {
        uint32_t c = unit_at(kind, t->data, k);
        if (c != '.' && c != '?' && c != '!') continue;
        uint32_t d = unit_at(kind, t->data, k + 1);
        int word = (d >= '0' && d <= '9') || (d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z') ||
                   (d >= 0xAC00 && d <= 0xD7A3);
        if (!word && last_word > k) return -2; /* maybe a candidate: ask Punkt */
    }
    return last;
}

/* punkt_short_end's classes of a Latin-1 character: a space to str.rstrip among ASCII
 * (SC_SPACE), a space to the word check (SC_GAP), or not ASCII, whose space class the caller's
 * `bits` decides (SC_HIGH). */
enum { SC_SPACE = 1, SC_GAP = 2, SC_HIGH = 4 };
#define SC_(c)                                                                                 \
    (((c) == ' ' || ((c) >= 9 && (c) <= 13) || ((c) >= 28 && (c) <= 31) ? SC_SPACE : 0) |      \
     ((c) == ' ' || ((c) >= 9 && (c) <= 13) ? SC_GAP : 0) | ((c) >= 128 ? SC_HIGH : 0))
#define SC4_(c) SC_(c), SC_((c) + 1), SC_((c) + 2), SC_((c) + 3)
#define SC16_(c) SC4_(c), SC4_((c) + 4), SC4_((c) + 8), SC4_((c) + 12)
#define SC64_(c) SC16_(c), SC16_((c) + 16), SC16_((c) + 32), SC16_((c) + 48)
static const uint8_t SHORT_CLASS[256] = {SC64_(0), SC64_(64), SC64_(128), SC64_(192)};
#undef SC64_
#undef SC16_
#undef SC4_
#undef SC_

/* punkt_short_end of a Latin-1 text, by searches instead of a loop over every character:
 * the sentence ends by memchr (the C library's, many bytes a step), the text's last
 * characters from its end.  The same answer as punkt_short_end_of, which read each character
 * through unit_at's width switch and made the scan cost as much as Punkt itself on a short
 * English text. */
static int64_t punkt_short_end_latin1(const PunktText *t, int (*bits)(uint32_t)) {
    const uint8_t *s = (const uint8_t *)t->data;
    int64_t n = t->n, last = n - 1, last_word = n - 1;
    while (last >= 0 && ((SHORT_CLASS[s[last]] & SC_SPACE) ||
                         ((SHORT_CLASS[s[last]] & SC_HIGH) && (bits(s[last]) & CASE_SPACE))))
        last--;
    while (last_word >= 0 && (SHORT_CLASS[s[last_word]] & SC_GAP)) last_word--;
    /* the first sentence end, and whether another one follows it */
    const uint8_t *first = NULL;
    static const uint8_t END_CHARS[3] = {'.', '?', '!'};
    for (int k = 0; k < 3; k++) {
        const uint8_t *at = n > 0 ? memchr(s, END_CHARS[k], (size_t)n) : NULL;
        if (at != NULL && (first == NULL || at < first)) first = at;
    }
    if (first == NULL) return last;
    int64_t after = first - s + 1, more = 0;
    for (int k = 0; k < 3 && !more; k++)
        more = after < n && memchr(s + after, END_CHARS[k], (size_t)(n - after)) != NULL;
    if (!more && last >= 0 && s[last] == *first) return last; /* one end, the final character */
    return short_end_candidates(t, 1, first - s, last, last_word);
}

/* punkt_short_end on code units of one width (`kind` a constant where it is inlined, so that
 * reading a unit is one load). */
static inline __attribute__((always_inline)) int64_t
punkt_short_end_of(const PunktText *t, int kind, int (*bits)(uint32_t), int *cjk_end) {
    int64_t n = t->n, ends = 0, last = -1, last_word = -1;
    int cjk = 0;
    uint32_t first_end = 0;
    for (int64_t k = 0; k < n; k++) {
        uint32_t c = unit_at(kind, t->data, k);
        if (c == '.' || c == '?' || c == '!' || c == 0x3002 || c == 0xFF01 || c == 0xFF1F) {
            if (ends++ == 0) first_end = c;
            cjk |= c > 127;
        }
        int space = c < 128 ? c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31)
                            : (bits(c) & CASE_SPACE) != 0;
        if (!space) last = k;
        if (!(c == ' ' || (c >= 9 && c <= 13))) last_word = k;
    }
    *cjk_end = cjk;
    int one_final = ends == 0 || (ends == 1 && last >= 0 &&
                                  unit_at(kind, t->data, last) == first_end);
    if (one_final) return last;
    return cjk ? -2 : short_end_candidates(t, kind, 0, last, last_word);
}

/* sentences.nltk_split's shortcut, for text.h's split_short (which says why it holds) and the
 * threads: the index of the last character of text.rstrip() when the text is one sentence
 * (-1: blank, no sentence), or -2 when Punkt is needed.  `bits` gives str.isspace; *cjk_end
 * says whether the text has 。！？. */
static int64_t punkt_short_end(const PunktText *t, int (*bits)(uint32_t), int *cjk_end) {
    switch (t->kind) {
    case 1:
        *cjk_end = 0; /* 。！？ are not Latin-1 */
        return punkt_short_end_latin1(t, bits);
    case 2:
        return punkt_short_end_of(t, 2, bits, cjk_end);
    default:
        return punkt_short_end_of(t, 4, bits, cjk_end);
    }
}

/* One text for the threads: how it is split (PJ_*), and its sentences. */
enum { PJ_SHORT = 0, PJ_PUNKT = 1, PJ_PYTHON = 2, PJ_NEEDS_PUNKT = 3 };

typedef struct {
    PunktText t;
    int how;
    int64_t last;   /* PJ_SHORT: punkt_short_end's answer */
    int64_t *spans; /* PJ_PUNKT: n_spans (start, end) pairs, malloc'd by the thread */
    int64_t n_spans;
} PunktJob;

typedef struct {
    const PunktTables *m; /* NULL: decide only (PJ_SHORT / PJ_PYTHON / PJ_NEEDS_PUNKT) */
    PunktJob *jobs;
    int64_t first, last;
    int failed; /* out of memory */
} PunktShard;

/* Decide each job (the shortcut; texts the case tables or cjk_cuts leave to Python) or, with
 * a model, run Punkt on the jobs that need it. */
static void punkt_shard_task(void *arg) {
    PunktShard *s = (PunktShard *)arg;
    PunktRun r;
    memset(&r, 0, sizeof(r));
    r.m = s->m;
    r.cs = &PUNKT_TABLE_CASE;
    for (int64_t k = s->first; k < s->last && !s->failed; k++) {
        PunktJob *job = &s->jobs[k];
        if (s->m == NULL) {
            int cjk;
            job->last = punkt_short_end(&job->t, case_bits, &cjk);
            job->how = job->last != -2 ? PJ_SHORT
                       : cjk || !punkt_decidable(&job->t) ? PJ_PYTHON : PJ_NEEDS_PUNKT;
            continue;
        }
        if (job->how != PJ_NEEDS_PUNKT) continue;
        r.t = job->t;
        if (punkt_run(&r) < 0) {
            s->failed = 1;
            break;
        }
        /* the spans are the job's now; the next text grows a new buffer */
        job->spans = r.sl;
        job->n_spans = r.n_sl / 2;
        job->how = PJ_PUNKT;
        r.sl = NULL;
        r.sl_cap = 0;
    }
    punkt_run_free(&r);
}

/* Code units per thread below which another thread costs more than it saves (Punkt reads
 * a unit several times: a thread pays for itself on far fewer units than tokenizing does). */
#define PUNKT_UNITS_PER_THREAD 8192

/* punkt_shard_task on every job (m NULL: deciding; else Punkt where needed), on up to `threads`
 * threads in contiguous shards of about equal length.  Returns the threads used, or -1 when
 * out of memory (the jobs' spans that were made are left for the caller to free). */
/* A job's weight for the shards: its text's length (every job), or only where Punkt runs. */
static int64_t job_units(const void *jobs, int64_t k) { return ((const PunktJob *)jobs)[k].t.n; }

static int64_t punkt_job_units(const void *jobs, int64_t k) {
    const PunktJob *job = (const PunktJob *)jobs + k;
    return job->how == PJ_NEEDS_PUNKT ? job->t.n : 0;
}

static int run_punkt_shards(const PunktTables *m, PunktJob *jobs, int64_t n_jobs, int threads) {
    int64_t total = 0;
    for (int64_t k = 0; k < n_jobs; k++)
        if (m == NULL || jobs[k].how == PJ_NEEDS_PUNKT) total += jobs[k].t.n;
    threads = threads_for(threads, total, PUNKT_UNITS_PER_THREAD);
    if ((int64_t)threads > n_jobs && n_jobs > 0) threads = (int)n_jobs;
    PunktShard shards[MAX_THREADS];
    int64_t k = 0, seen = 0;
    for (int t = 0; t < threads; t++) {
        shards[t] = (PunktShard){m, jobs, k, k, 0};
        shards[t].last = k = range_end(k, n_jobs, t, threads, total, &seen,
                                       m == NULL ? job_units : punkt_job_units, jobs);
    }
    if (threads == 1) punkt_shard_task(&shards[0]);
    else run_parallel(punkt_shard_task, shards, sizeof(PunktShard), threads);
    for (int t = 0; t < threads; t++)
        if (shards[t].failed) return -1;
    return threads;
}

#endif /* ROUGE_LCS_PUNKT_H */
