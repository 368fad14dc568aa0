/*
 * nfkc.h: unicodedata.normalize("NFKC", s) without the interpreter, for the text stage's
 * threads (tokens.h: the unicode tokenizer's SCAN_NFKC pieces).
 *
 * The steps are Unicode's (UAX #15) and CPython's: a quick check first (every character its
 * own NFKC form, none that composes with the one before it, combining classes in order: the
 * text is its own NFKC form, as unicodedata's is_normalized answers YES), else the full
 * compatibility decomposition of each character, the canonical reordering of each run of
 * combining marks (a stable sort by class), and the canonical composition (a character
 * composes with the last starter when nothing between them blocks it).  The per-code-point data
 * come from the interpreter's own unicodedata (nfkc_table.h, scripts/gen_nfkc_table.py, with
 * its Unicode version); Hangul syllables decompose and compose by arithmetic.
 *
 * The tokenizer then lowercases (str.lower) and removes the joiners, from the same records.
 * Like tokens.h this file includes no Python.h.
 */
#ifndef ROUGE_LCS_NFKC_H
#define ROUGE_LCS_NFKC_H

/* kernels.h's clock_gettime under -std=c99, for this file compiled on its own (tokens.h) */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdint.h>

#include "kernels.h" /* grow */
#include "nfkc_table.h"

static inline const NfkcRecord *nfkc_record(uint32_t c) {
    if (c >= 0x110000) c = 0; /* no such code point reaches here; U+0000's record is inert */
    size_t block = NFKC_STAGE1[c / NFKC_BLOCK];
    return &NFKC_RECORDS[NFKC_STAGE2[block * NFKC_BLOCK + c % NFKC_BLOCK]];
}

static inline int nfkc_ccc(uint32_t c) { return c < 0x300 ? 0 : nfkc_record(c)->ccc; }

/* A growing buffer of code points. */
typedef struct {
    uint32_t *u;
    int64_t len, cap;
} NfkcBuf;

static inline int nfkc_put(NfkcBuf *b, uint32_t c) {
    if (b->len == b->cap && !grow((void **)&b->u, &b->cap, b->len + 1, sizeof(uint32_t)))
        return 0;
    b->u[b->len++] = c;
    return 1;
}

enum {
    HANGUL_S = 0xAC00, HANGUL_L = 0x1100, HANGUL_V = 0x1161, HANGUL_T = 0x11A7,
    HANGUL_LCOUNT = 19, HANGUL_VCOUNT = 21, HANGUL_TCOUNT = 28, HANGUL_NCOUNT = 588,
    HANGUL_SCOUNT = 11172,
};

/* Append c's full compatibility decomposition; 0 when out of memory. */
static int nfkc_decompose(NfkcBuf *b, uint32_t c) {
    if (c < 128) return nfkc_put(b, c);
    const NfkcRecord *r = nfkc_record(c);
    if (r->flags & NFKC_HANGUL) {
        uint32_t s = c - HANGUL_S;
        if (!nfkc_put(b, HANGUL_L + s / HANGUL_NCOUNT) ||
            !nfkc_put(b, HANGUL_V + (s % HANGUL_NCOUNT) / HANGUL_TCOUNT))
            return 0;
        return s % HANGUL_TCOUNT ? nfkc_put(b, HANGUL_T + s % HANGUL_TCOUNT) : 1;
    }
    if (r->len == 0) return nfkc_put(b, c);
    for (uint32_t k = 0; k < r->len; k++)
        if (!nfkc_put(b, NFKC_POOL[r->at + k])) return 0;
    return 1;
}

/* The canonical ordering: each run of non-starters sorted by combining class, stably (an
 * insertion sort, as CPython's). */
static void nfkc_reorder(uint32_t *u, int64_t n) {
    for (int64_t i = 1; i < n; i++) {
        uint32_t c = u[i];
        int cc = nfkc_ccc(c);
        if (cc == 0) continue;
        int64_t j = i;
        while (j > 0 && nfkc_ccc(u[j - 1]) > cc) {
            u[j] = u[j - 1];
            j--;
        }
        u[j] = c;
    }
}

/* The primary composite of (a, b), or 0 if none. */
static uint32_t nfkc_pair(uint32_t a, uint32_t b) {
    if (a >= HANGUL_L && a < HANGUL_L + HANGUL_LCOUNT && b >= HANGUL_V &&
        b < HANGUL_V + HANGUL_VCOUNT)
        return HANGUL_S + ((a - HANGUL_L) * HANGUL_VCOUNT + (b - HANGUL_V)) * HANGUL_TCOUNT;
    if (a >= HANGUL_S && a < HANGUL_S + HANGUL_SCOUNT && (a - HANGUL_S) % HANGUL_TCOUNT == 0 &&
        b > HANGUL_T && b < HANGUL_T + HANGUL_TCOUNT)
        return a + (b - HANGUL_T);
    uint64_t key = (uint64_t)a << 21 | b;
    int lo = 0, hi = NFKC_PAIR_COUNT - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (NFKC_PAIRS[mid][0] == key) return (uint32_t)NFKC_PAIRS[mid][1];
        if (NFKC_PAIRS[mid][0] < key) lo = mid + 1;
        else hi = mid - 1;
    }
    return 0;
}

/* The canonical composition of n decomposed, reordered code points, in place; returns how many
 * are left. */
static int64_t nfkc_compose(uint32_t *u, int64_t n) {
    if (n == 0) return 0;
    int64_t starter = 0, out = 1;
    int last = nfkc_ccc(u[0]);
    if (last != 0) last = 256; /* a leading non-starter: nothing composes with it */
    for (int64_t i = 1; i < n; i++) {
        uint32_t c = u[i];
        const NfkcRecord *r = c < 128 ? NULL : nfkc_record(c);
        int cc = r ? r->ccc : 0;
        if (r && (r->flags & NFKC_BACK) && (last < cc || last == 0)) {
            uint32_t composite = nfkc_pair(u[starter], c);
            if (composite) {
                u[starter] = composite;
                continue;
            }
        }
        if (cc == 0) starter = out;
        last = cc;
        u[out++] = c;
    }
    return out;
}

/* Code unit k of a CPython string's data (kind: 1, 2 or 4 bytes a unit). */
static inline uint32_t unit_at(int kind, const void *data, int64_t k) {
    return kind == 1 ? ((const uint8_t *)data)[k]
           : kind == 2 ? ((const uint16_t *)data)[k]
                       : ((const uint32_t *)data)[k];
}

/* Hangul syllables and the CJK Unified Ideographs: most of the non-ASCII text read here, and
 * none of them needs its record.  Each is its own NFKC form, of class 0, the second of no
 * composite, no joiner, its own lowercase, and no U+0307 or U+03A3 in its NFKD
 * (tests/text/test_nfkc.py checks each code point). */
static inline int nfkc_plain(uint32_t c) {
    return (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0x4E00 && c <= 0x9FFF);
}

/* Whether a non-ASCII character leaves the text's normal form to CPython (nfkc_native_ok). */
static inline int nfkc_needs_python(uint32_t c) {
    return !nfkc_plain(c) && (nfkc_record(c)->flags & NFKC_PYTHON);
}

/* The full normal form of the segment [start, end) appended at b->u[base:] (b->len set):
 * decomposed, reordered, composed, then lowered in place without the joiners (one unit out for
 * at most one in); 0 when out of memory. */
static int nfkc_segment(NfkcBuf *b, int64_t base, int kind, const void *data, int64_t start,
                        int64_t end) {
    b->len = base;
    for (int64_t k = start; k < end; k++)
        if (!nfkc_decompose(b, unit_at(kind, data, k))) return 0;
    nfkc_reorder(b->u + base, b->len - base);
    int64_t n = base + nfkc_compose(b->u + base, b->len - base);
    b->len = base;
    for (int64_t k = base; k < n; k++) {
        uint32_t c = b->u[k];
        const NfkcRecord *r = nfkc_record(c);
        if (!(r->flags & NFKC_JOINER)) b->u[b->len++] = (uint32_t)((int32_t)c + r->lower);
    }
    return 1;
}

/* The unicode tokenizer's normal form of code units [start, end): NFKC, str.lower(), the
 * joiners removed, into b (b->len set); 0 when out of memory.  The text must hold no
 * NFKC_PYTHON character (the caller checks: nfkc_native_ok).
 *
 * Segment by segment (ICU's way): a character that is its own NFKC form, of combining class 0
 * and composing with nothing before it starts a segment, since nothing moves or composes across
 * it, so the text's form is its segments' forms put together.  A segment that passes the quick
 * check is copied lowered as it is read; only one that fails it is decomposed and composed.
 * Normalizing the whole text when one character failed (a fullwidth "，" in Chinese text, or
 * "（1）") cost the Chinese and Korean texts of benchmarks/bench_nfkc.py most of their time. */
static int nfkc_lower(NfkcBuf *b, int kind, const void *data, int64_t start, int64_t end) {
    b->len = 0;
    int64_t seg = start, base = 0; /* the segment: its first unit, where its form starts */
    int quick = 1, last = 0;       /* it passes the quick check so far; the last class */
    for (int64_t k = start; k < end; k++) {
        uint32_t c = unit_at(kind, data, k);
        /* ASCII and nfkc_plain characters (most of what this reads) without their records */
        const NfkcRecord *r = c < 128 || nfkc_plain(c) ? NULL : nfkc_record(c);
        int ccc = r ? r->ccc : 0;
        int stable = !r || !(r->flags & (NFKC_CHANGES | NFKC_BACK));
        if (k > seg && ccc == 0 && stable) { /* a new segment starts at c */
            if (!quick && !nfkc_segment(b, base, kind, data, seg, k)) return 0;
            seg = k;
            base = b->len;
            quick = 1;
            last = 0;
        }
        if (!quick) continue;
        if (!stable || (ccc && last > ccc)) {
            quick = 0; /* the segment's form is made when it ends */
            continue;
        }
        last = ccc;
        if (!r) {
            if (!nfkc_put(b, c - 'A' < 26u ? c + 32 : c)) return 0; /* str.lower() of these */
        } else if (!(r->flags & NFKC_JOINER) && !nfkc_put(b, (uint32_t)((int32_t)c + r->lower))) {
            return 0;
        }
    }
    return quick || nfkc_segment(b, base, kind, data, seg, end);
}

/* Whether the C normal form applies to the text: no character whose NFKD holds U+0307 or
 * U+03A3 (their lowercase is CPython's to decide: U+0130 from "I" + U+0307, and the sigma by
 * its neighbours), and one that lowers to no ASCII letter (not only ASCII and KELVIN SIGN: the
 * tokenizer cuts such a text as ASCII after lower()). */
static int nfkc_native_ok(int kind, const void *data, int64_t n) {
    int other = 0;
    for (int64_t k = 0; k < n; k++) {
        uint32_t c = unit_at(kind, data, k);
        if (c < 128) continue;
        if (nfkc_needs_python(c)) return 0;
        other |= c != 0x212A;
    }
    return other;
}

#endif /* ROUGE_LCS_NFKC_H */
