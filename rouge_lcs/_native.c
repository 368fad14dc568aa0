/*
 * rouge_lcs._native: the compiled scoring core.
 *
 * Everything here works on token ids (small non-negative integers interned per call), so the
 * kernels never see strings:
 *
 *   counts(...)   per (prediction, reference) pair and rouge type, the integer triple
 *                 (hits, prediction_total, reference_total), with the GIL released and the
 *                 pairs split over threads;
 *   Encoder       tokenizes texts (rouge_score's and the unicode tokenizer natively, any
 *                 Python tokenizer otherwise), splits ROUGE-Lsum sentences (newlines, Punkt
 *                 in _punkt.h), stems (Porter in C) and interns tokens to ids;
 *   rouge155_*    ROUGE-1.5.5's token reader and skip-bigram counts (rouge_lcs/rouge155).
 *
 * It is one of the two engines behind rouge_lcs/engine/backend.py; the kernels are exact ports of
 * the reference engine (rouge_lcs/engine/ngrams.py, lcs.py, lcs_batch.py):
 *
 *   ROUGE-N      clipped n-gram matches: sum over n-grams of min(count_pred, count_ref).
 *   ROUGE-L      LCS length, Hyyro's bit-parallel recurrence, 64 cells per word operation.
 *   ROUGE-Lsum   union LCS: rouge_score's backtrack replayed on bit rows (lcs.py::lcs_indices
 *                explains why each backtrack step is one row up and how the "move left" test
 *                is a prefix parity of two rows' xor), clipped against the candidate's counts.
 *
 * Memory stays linear in the input: the match masks are built per strip of at most
 * STRIP_WORDS words of the candidate (a carry bit per row links strips), and the bit rows that
 * the backtrack needs are recomputed block by block from sqrt-spaced checkpoints when storing
 * all of them would exceed ROW_BUDGET_WORDS.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_unicode_table.h"

#ifdef _WIN32
#include <windows.h>
#else
#include <pthread.h>
#endif

#if defined(_MSC_VER)
#include <intrin.h>
static inline int popcount64(uint64_t x) { return (int)__popcnt64(x); }
static inline int highest_bit(uint64_t x) {
    unsigned long index;
    _BitScanReverse64(&index, x);
    return (int)index;
}
#else
static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int highest_bit(uint64_t x) { return 63 - __builtin_clzll(x); }
#endif

/* Words of candidate per mask-table strip: the table holds at most 64 * STRIP_WORDS distinct
 * tokens times STRIP_WORDS words (2 MiB), whatever the length of the text. */
#define STRIP_WORDS 64
/* Bit rows kept at once for one backtrack before switching to checkpoints (32 MiB). */
#define ROW_BUDGET_WORDS ((int64_t)1 << 22)

enum { KIND_N = 0, KIND_L = 1, KIND_LSUM = 2 };

/* interned at module init: the per-text calls of the tokenizers build no strings */
static PyObject *STR_LOWER, *STR_NFKC;

/* ------------------------------------------------------------------------------------------ */
/* Per-thread scratch space                                                                    */

typedef struct {
    int64_t vocab;
    int32_t *local;   /* token id -> row of the strip's mask table, or -1 (kept all -1) */
    int32_t *count;   /* token id -> count, for unigram and union clipping (kept all 0) */
    uint64_t *masks;  /* strip mask table */
    int64_t masks_cap;
    uint64_t *rows;   /* stored bit rows of one block */
    int64_t rows_cap;
    uint64_t *checkpoints;
    int64_t checkpoints_cap;
    uint64_t *vec;    /* the current row */
    int64_t vec_cap;
    uint8_t *carry;   /* carry bit per row between strips */
    int64_t carry_cap;
    uint8_t *unions;  /* union-LCS flags per reference token of a document */
    int64_t unions_cap;
    int64_t *slots;   /* n-gram hash table: first position of the n-gram, or -1 */
    int64_t slots_cap;
    int32_t *slot_count;
    int64_t slot_count_cap;
    /* the mask table currently describes this candidate (single-strip candidates only) */
    const int32_t *table_for;
    int64_t table_len;
    int failed;       /* allocation failure */
} Workspace;

static int grow(void **buffer, int64_t *cap, int64_t need, size_t item) {
    if (need <= *cap) return 1;
    int64_t n = need < 64 ? 64 : need;
    if (n < *cap * 2) n = *cap * 2;
    void *p = realloc(*buffer, (size_t)n * item);
    if (p == NULL) return 0;
    *buffer = p;
    *cap = n;
    return 1;
}

#define GROW(ws, field, cap, need) \
    (grow((void **)&(ws)->field, &(ws)->cap, (need), sizeof(*(ws)->field)) || ((ws)->failed = 1, 0))

static int workspace_init(Workspace *ws, int64_t vocab) {
    memset(ws, 0, sizeof(*ws));
    ws->vocab = vocab;
    size_t n = (size_t)(vocab > 0 ? vocab : 1);
    ws->local = malloc(n * sizeof(int32_t));
    ws->count = calloc(n, sizeof(int32_t));
    if (ws->local == NULL || ws->count == NULL) return 0;
    memset(ws->local, 0xff, n * sizeof(int32_t));
    return 1;
}

static void workspace_free(Workspace *ws) {
    free(ws->local);
    free(ws->count);
    free(ws->masks);
    free(ws->rows);
    free(ws->checkpoints);
    free(ws->vec);
    free(ws->carry);
    free(ws->unions);
    free(ws->slots);
    free(ws->slot_count);
}

/* ------------------------------------------------------------------------------------------ */
/* ROUGE-N: clipped n-gram matches                                                             */

static inline uint64_t mix64(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb3f97f4a7c15ULL;
    h ^= h >> 33;
    return h;
}

static inline uint64_t ngram_hash(const int32_t *t, int64_t n) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int64_t k = 0; k < n; k++) h = mix64(h ^ (uint64_t)(uint32_t)t[k]) + (uint64_t)k;
    return h;
}

/* sum over n-grams of min(count in pred, count in ref) */
static int64_t ngram_hits(Workspace *ws, const int32_t *pred, int64_t lp, const int32_t *ref,
                          int64_t lr, int64_t n) {
    int64_t np_ = lp - n + 1, nr = lr - n + 1, hits = 0;
    if (np_ <= 0 || nr <= 0) return 0;
    if (n == 1) {
        int32_t *count = ws->count;
        for (int64_t k = 0; k < lp; k++) count[pred[k]]++;
        for (int64_t k = 0; k < lr; k++) {
            if (count[ref[k]] > 0) {
                hits++;
                count[ref[k]]--;
            }
        }
        for (int64_t k = 0; k < lp; k++) count[pred[k]] = 0;
        return hits;
    }
    /* Open addressing over the prediction's n-grams; a slot keeps the first position of its
     * n-gram (compared by content) and a count that the reference's n-grams consume. */
    int64_t size = 16;
    while (size < 2 * np_) size <<= 1;
    if (!GROW(ws, slots, slots_cap, size)) return 0;
    if (!GROW(ws, slot_count, slot_count_cap, size)) return 0;
    int64_t *slots = ws->slots;
    int32_t *slot_count = ws->slot_count;
    uint64_t mask = (uint64_t)size - 1;
    for (int64_t s = 0; s < size; s++) slots[s] = -1;
    size_t bytes = (size_t)n * sizeof(int32_t);
    for (int64_t k = 0; k < np_; k++) {
        uint64_t s = ngram_hash(pred + k, n) & mask;
        for (;;) {
            int64_t at = slots[s];
            if (at < 0) {
                slots[s] = k;
                slot_count[s] = 1;
                break;
            }
            if (memcmp(pred + at, pred + k, bytes) == 0) {
                slot_count[s]++;
                break;
            }
            s = (s + 1) & mask;
        }
    }
    for (int64_t k = 0; k < nr; k++) {
        uint64_t s = ngram_hash(ref + k, n) & mask;
        for (;;) {
            int64_t at = slots[s];
            if (at < 0) break;
            if (memcmp(pred + at, ref + k, bytes) == 0) {
                if (slot_count[s] > 0) {
                    hits++;
                    slot_count[s]--;
                }
                break;
            }
            s = (s + 1) & mask;
        }
    }
    return hits;
}

/* ------------------------------------------------------------------------------------------ */
/* Bit-parallel LCS rows                                                                        */
/*
 * Bit p of a row stands for candidate position p; row i (after i reference tokens) has a zero at
 * each column where L[i][.] steps up.  One reference token t updates the row as
 *     u = row & M[t];  row = ((row + u) | (row - u)) & full
 * (u is a subset of row, so the subtraction never borrows across words; only the addition's
 * carry does, which is what lets strips of words be processed one after another).
 */

/* Build the mask table of candidate positions [p0, p1) (words w0 = p0 / 64 ...). */
static int build_masks(Workspace *ws, const int32_t *cand, int64_t p0, int64_t p1,
                       int64_t *n_local) {
    int64_t sw = (p1 - p0 + 63) / 64, a = 0;
    if (!GROW(ws, masks, masks_cap, (p1 - p0) * sw)) return 0;
    int32_t *local = ws->local;
    uint64_t *masks = ws->masks;
    for (int64_t p = p0; p < p1; p++) {
        int32_t t = cand[p];
        if (local[t] < 0) {
            local[t] = (int32_t)a;
            memset(masks + a * sw, 0, (size_t)sw * sizeof(uint64_t));
            a++;
        }
        masks[local[t] * sw + (p - p0) / 64] |= (uint64_t)1 << ((p - p0) & 63);
    }
    *n_local = a;
    return 1;
}

static void clear_masks(Workspace *ws, const int32_t *cand, int64_t p0, int64_t p1) {
    int32_t *local = ws->local;
    for (int64_t p = p0; p < p1; p++) local[cand[p]] = -1;
    if (ws->table_for == cand) ws->table_for = NULL;
}

/* Make the mask table describe the whole candidate (which must fit one strip). */
static int table_for(Workspace *ws, const int32_t *cand, int64_t n) {
    if (ws->table_for == cand && ws->table_len == n) return 1;
    if (ws->table_for != NULL) clear_masks(ws, ws->table_for, 0, ws->table_len);
    int64_t a;
    if (!build_masks(ws, cand, 0, n, &a)) return 0;
    ws->table_for = cand;
    ws->table_len = n;
    return 1;
}

static void release_table(Workspace *ws) {
    if (ws->table_for != NULL) clear_masks(ws, ws->table_for, 0, ws->table_len);
}

/*
 * Advance `vec` (W words, the row before) through reference tokens rtok[0..nrows).  When `store`
 * is not NULL, row k + 1 is written at store + (k + 1) * W and the starting row at store.
 * Candidates longer than one strip are processed strip by strip with a carry bit per row.
 */
static int advance_rows(Workspace *ws, const int32_t *cand, int64_t n, const int32_t *rtok,
                        int64_t nrows, uint64_t *vec, uint64_t *store) {
    int64_t W = (n + 63) / 64;
    uint64_t top = (n & 63) ? (((uint64_t)1 << (n & 63)) - 1) : ~(uint64_t)0;
    if (store != NULL) memcpy(store, vec, (size_t)W * sizeof(uint64_t));
    if (W <= STRIP_WORDS) {
        if (!table_for(ws, cand, n)) return 0;
        const int32_t *local = ws->local;
        const uint64_t *masks = ws->masks;
        if (W == 1) {
            uint64_t v = vec[0];
            for (int64_t k = 0; k < nrows; k++) {
                int32_t l = local[rtok[k]];
                if (l >= 0) {
                    uint64_t u = v & masks[l];
                    v = ((v + u) | (v - u)) & top;
                }
                if (store != NULL) store[k + 1] = v;
            }
            vec[0] = v;
            return 1;
        }
        for (int64_t k = 0; k < nrows; k++) {
            int32_t l = local[rtok[k]];
            if (l >= 0) {
                const uint64_t *m = masks + (int64_t)l * W;
                uint64_t carry = 0;
                for (int64_t w = 0; w < W; w++) {
                    uint64_t v = vec[w], u = v & m[w];
                    uint64_t s = v + u;
                    uint64_t c1 = s < v;
                    uint64_t s2 = s + carry;
                    carry = c1 | (s2 < s);
                    vec[w] = s2 | (v - u);
                }
                vec[W - 1] &= top;
            }
            if (store != NULL) memcpy(store + (k + 1) * W, vec, (size_t)W * sizeof(uint64_t));
        }
        return 1;
    }
    /* Several strips: the table never describes the whole candidate. */
    release_table(ws);
    if (!GROW(ws, carry, carry_cap, nrows)) return 0;
    uint8_t *carries = ws->carry;
    memset(carries, 0, (size_t)nrows);
    for (int64_t w0 = 0; w0 < W; w0 += STRIP_WORDS) {
        int64_t w1 = w0 + STRIP_WORDS < W ? w0 + STRIP_WORDS : W;
        int64_t p0 = w0 * 64, p1 = w1 * 64 < n ? w1 * 64 : n, sw = w1 - w0, a;
        if (!build_masks(ws, cand, p0, p1, &a)) return 0;
        const int32_t *local = ws->local;
        const uint64_t *masks = ws->masks;
        for (int64_t k = 0; k < nrows; k++) {
            int32_t l = local[rtok[k]];
            uint64_t carry = carries[k];
            if (l >= 0 || carry) {
                const uint64_t *m = l >= 0 ? masks + (int64_t)l * sw : NULL;
                for (int64_t w = w0; w < w1; w++) {
                    uint64_t v = vec[w], u = m != NULL ? v & m[w - w0] : 0;
                    uint64_t s = v + u;
                    uint64_t c1 = s < v;
                    uint64_t s2 = s + carry;
                    carry = c1 | (s2 < s);
                    vec[w] = s2 | (v - u);
                }
                if (w1 == W) vec[W - 1] &= top;
                carries[k] = (uint8_t)carry;
            }
            if (store != NULL)
                memcpy(store + (k + 1) * W + w0, vec + w0, (size_t)sw * sizeof(uint64_t));
        }
        clear_masks(ws, cand, p0, p1);
    }
    return 1;
}

static int set_full(Workspace *ws, int64_t n) {
    int64_t W = (n + 63) / 64;
    if (!GROW(ws, vec, vec_cap, W)) return 0;
    for (int64_t w = 0; w < W; w++) ws->vec[w] = ~(uint64_t)0;
    if (n & 63) ws->vec[W - 1] = ((uint64_t)1 << (n & 63)) - 1;
    return 1;
}

static int64_t zeros(const uint64_t *vec, int64_t n) {
    int64_t W = (n + 63) / 64, ones = 0;
    for (int64_t w = 0; w < W; w++) ones += popcount64(vec[w]);
    return n - ones;
}

/* LCS length; returns -1 on allocation failure. */
static int64_t lcs_length(Workspace *ws, const int32_t *a, int64_t m, const int32_t *b,
                          int64_t n) {
    if (m == 0 || n == 0) return 0;
    /* bits over the shorter sequence: fewer words per row, a smaller mask table */
    if (n > m) {
        const int32_t *t = a;
        a = b;
        b = t;
        int64_t k = m;
        m = n;
        n = k;
    }
    if (!set_full(ws, n)) return -1;
    if (!advance_rows(ws, b, n, a, m, ws->vec, NULL)) return -1;
    return zeros(ws->vec, n);
}

/* ------------------------------------------------------------------------------------------ */
/* rouge_score's backtrack                                                                      */

/* bit p of the result: parity of bits 0..p of x */
static inline uint64_t prefix_parity(uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

static inline uint64_t match_word(Workspace *ws, const int32_t *cand, int64_t n, int64_t W,
                                  int32_t t, int64_t w) {
    if (ws->table_for == cand && ws->table_len == n) {
        int32_t l = ws->local[t];
        return l >= 0 ? ws->masks[(int64_t)l * W + w] : 0;
    }
    uint64_t m = 0;
    int64_t p1 = (w + 1) * 64 < n ? (w + 1) * 64 : n;
    for (int64_t p = w * 64; p < p1; p++)
        if (cand[p] == t) m |= (uint64_t)1 << (p & 63);
    return m;
}

/*
 * Mark in flags[0..m) the reference positions of the LCS of ref and cand that rouge_score's
 * _backtrack_norec picks (lcs.py::lcs_pairs, on words).  Returns 0 on allocation failure.
 */
static int union_lcs(Workspace *ws, const int32_t *ref, int64_t m, const int32_t *cand,
                     int64_t n, uint8_t *flags) {
    int64_t W = (n + 63) / 64;
    /* rows per block: all of them when they fit the budget, else ~sqrt(m) (checkpoints) */
    int64_t block = m;
    if ((m + 1) * W > ROW_BUDGET_WORDS) {
        block = 1;
        while (block * block < m) block++;
    }
    int64_t n_blocks = (m + block - 1) / block;
    if (!set_full(ws, n)) return 0;
    if (!GROW(ws, rows, rows_cap, (block + 1) * W)) return 0;
    uint64_t *vec = ws->vec;
    if (n_blocks > 1) {
        if (!GROW(ws, checkpoints, checkpoints_cap, n_blocks * W)) return 0;
        for (int64_t b = 0; b < n_blocks; b++) {
            int64_t r0 = b * block, r1 = r0 + block < m ? r0 + block : m;
            memcpy(ws->checkpoints + b * W, vec, (size_t)W * sizeof(uint64_t));
            if (!advance_rows(ws, cand, n, ref + r0, r1 - r0, vec, NULL)) return 0;
        }
    } else if (!advance_rows(ws, cand, n, ref, m, vec, ws->rows)) {
        return 0;
    }
    int64_t length = zeros(vec, n);
    if (length == 0) return 1;
    int64_t i = m, j = n, found = 0;
    for (int64_t b = n_blocks - 1; b >= 0 && j > 0 && found < length; b--) {
        int64_t r0 = b * block, r1 = r0 + block < m ? r0 + block : m;
        if (n_blocks > 1) {
            memcpy(vec, ws->checkpoints + b * W, (size_t)W * sizeof(uint64_t));
            if (!advance_rows(ws, cand, n, ref + r0, r1 - r0, vec, ws->rows)) return 0;
        }
        const uint64_t *rows = ws->rows;
        while (i > r0 && j > 0 && found < length) {
            const uint64_t *prev = rows + (i - 1 - r0) * W, *cur = rows + (i - r0) * W;
            int32_t t = ref[i - 1];
            int64_t wj = (j - 1) / 64;
            /* parity of the xor's bits below word wj */
            uint64_t below = 0;
            for (int64_t w = 0; w < wj; w++) below ^= (uint64_t)popcount64(prev[w] ^ cur[w]);
            below &= 1;
            int64_t column = -1;
            for (int64_t w = wj; w >= 0; w--) {
                uint64_t x = prev[w] ^ cur[w];
                if (w < wj) below ^= (uint64_t)(popcount64(x) & 1); /* now: bits below w */
                uint64_t parity = prefix_parity(x) ^ (below ? ~(uint64_t)0 : 0);
                uint64_t stops = match_word(ws, cand, n, W, t, w) | ~parity;
                if (w == wj) {
                    int64_t bits = j - 64 * wj;
                    if (bits < 64) stops &= ((uint64_t)1 << bits) - 1;
                }
                if (stops) {
                    column = 64 * w + highest_bit(stops) + 1;
                    break;
                }
            }
            if (column < 0) return 1; /* no stop: the walk has ended */
            i--;
            if (match_word(ws, cand, n, W, t, (column - 1) / 64) >> ((column - 1) & 63) & 1) {
                j = column - 1;
                flags[i] = 1;
                found++;
            } else {
                j = column;
            }
        }
    }
    return 1;
}


/* union_lcs for a candidate of at most 64 tokens (nearly every sentence): one word per row,
 * the row in a register, the match masks from the candidate's table. */
static int union_lcs_word(Workspace *ws, const int32_t *ref, int64_t m, const int32_t *cand,
                          int64_t n, uint8_t *flags) {
    if (!table_for(ws, cand, n)) return 0;
    if (!GROW(ws, rows, rows_cap, m + 1)) return 0;
    const int32_t *local = ws->local;
    const uint64_t *masks = ws->masks;
    uint64_t *rows = ws->rows;
    uint64_t full = n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1), v = full;
    rows[0] = v;
    for (int64_t i = 0; i < m; i++) {
        int32_t l = local[ref[i]];
        if (l >= 0) {
            uint64_t u = v & masks[l];
            v = ((v + u) | (v - u)) & full;
        }
        rows[i + 1] = v;
    }
    int64_t length = n - popcount64(v), found = 0, i = m, j = n;
    while (i > 0 && j > 0 && found < length) {
        int32_t l = local[ref[i - 1]];
        uint64_t match = l >= 0 ? masks[l] : 0;
        uint64_t stops = (match | ~prefix_parity(rows[i - 1] ^ rows[i]));
        if (j < 64) stops &= ((uint64_t)1 << j) - 1;
        if (!stops) break;
        int p = highest_bit(stops);
        i--;
        if (match >> p & 1) {
            j = p;
            flags[i] = 1;
            found++;
        } else {
            j = p + 1;
        }
    }
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* Per-pair counts                                                                              */

typedef struct {
    const int32_t *tokens;     /* document tokens, flat */
    const int64_t *doc_start;  /* ndocs + 1 */
    const int32_t *sent_tokens;
    const int64_t *sent_start; /* nsent + 1 */
    const int64_t *doc_sent;   /* ndocs + 1: sentences of document d */
    const int64_t *pair_pred;
    const int64_t *pair_ref;
    const int64_t *types;      /* (kind, n) per type */
    int64_t n_types;
    int64_t vocab;
    int64_t *out;              /* pairs x types x 3 */
} Job;

typedef struct {
    const Job *job;
    int64_t first, last;  /* pair range */
    int failed;
} Shard;

/* ROUGE-Lsum hits of one pair; -1 on allocation failure. */
static int64_t lsum_hits(Workspace *ws, const Job *job, int64_t pred, int64_t ref) {
    const int32_t *st = job->sent_tokens;
    const int64_t *ss = job->sent_start;
    int64_t c0 = job->doc_sent[pred], c1 = job->doc_sent[pred + 1];
    int64_t r0 = job->doc_sent[ref], r1 = job->doc_sent[ref + 1];
    int64_t ref_base = ss[r0], ref_len = ss[r1] - ref_base;
    if (ref_len == 0 || ss[c1] == ss[c0]) return 0;
    if (!GROW(ws, unions, unions_cap, ref_len)) return -1;
    uint8_t *flags = ws->unions;
    memset(flags, 0, (size_t)ref_len);
    for (int64_t c = c0; c < c1; c++) {
        int64_t n = ss[c + 1] - ss[c];
        if (n == 0) continue;
        for (int64_t r = r0; r < r1; r++) {
            int64_t m = ss[r + 1] - ss[r];
            if (m == 0) continue;
            int ok = n <= 64 ? union_lcs_word(ws, st + ss[r], m, st + ss[c], n,
                                              flags + (ss[r] - ref_base))
                             : union_lcs(ws, st + ss[r], m, st + ss[c], n,
                                         flags + (ss[r] - ref_base));
            if (!ok) return -1;
        }
    }
    release_table(ws);
    /* Clipping (ROUGE-1.5.5 / rouge_score): each candidate occurrence is used at most once,
     * i.e. sum over tokens of min(union occurrences, candidate occurrences). */
    int32_t *count = ws->count;
    for (int64_t k = ss[c0]; k < ss[c1]; k++) count[st[k]]++;
    int64_t hits = 0;
    for (int64_t k = 0; k < ref_len; k++) {
        if (flags[k]) {
            int32_t t = st[ref_base + k];
            if (count[t] > 0) {
                hits++;
                count[t]--;
            }
        }
    }
    for (int64_t k = ss[c0]; k < ss[c1]; k++) count[st[k]] = 0;
    return hits;
}

static int shard_run(Shard *shard) {
    const Job *job = shard->job;
    Workspace ws;
    if (!workspace_init(&ws, job->vocab)) {
        workspace_free(&ws);
        return 0;
    }
    for (int64_t k = shard->first; k < shard->last && !ws.failed; k++) {
        int64_t p = job->pair_pred[k], r = job->pair_ref[k];
        const int32_t *pt = job->tokens + job->doc_start[p], *rt = job->tokens + job->doc_start[r];
        int64_t lp = job->doc_start[p + 1] - job->doc_start[p];
        int64_t lr = job->doc_start[r + 1] - job->doc_start[r];
        for (int64_t t = 0; t < job->n_types; t++) {
            int64_t kind = job->types[2 * t], n = job->types[2 * t + 1];
            int64_t *o = job->out + (k * job->n_types + t) * 3;
            if (kind == KIND_N) {
                o[0] = ngram_hits(&ws, pt, lp, rt, lr, n);
                o[1] = lp - n + 1 > 0 ? lp - n + 1 : 0;
                o[2] = lr - n + 1 > 0 ? lr - n + 1 : 0;
            } else if (kind == KIND_L) {
                o[0] = lcs_length(&ws, rt, lr, pt, lp);
                if (o[0] < 0) ws.failed = 1;
                o[1] = lp;
                o[2] = lr;
            } else {
                o[0] = lsum_hits(&ws, job, p, r);
                if (o[0] < 0) ws.failed = 1;
                o[1] = job->sent_start[job->doc_sent[p + 1]] - job->sent_start[job->doc_sent[p]];
                o[2] = job->sent_start[job->doc_sent[r + 1]] - job->sent_start[job->doc_sent[r]];
            }
        }
    }
    int ok = !ws.failed;
    workspace_free(&ws);
    return ok;
}

/* Threads: task 0 runs on the calling thread, the others each on a thread of its own (or
 * here, when a thread cannot start).  Shared by the counting and the similarity kernels. */
#define MAX_THREADS 64
typedef void (*TaskFn)(void *task);
typedef struct {
    TaskFn fn;
    void *task;
} Task;

#ifdef _WIN32
static DWORD WINAPI task_thread(LPVOID arg) {
    Task *t = (Task *)arg;
    t->fn(t->task);
    return 0;
}
#else
static void *task_thread(void *arg) {
    Task *t = (Task *)arg;
    t->fn(t->task);
    return NULL;
}
#endif

/* Run fn on each of the n (<= MAX_THREADS) tasks of `size` bytes at `tasks`, in parallel. */
static void run_parallel(TaskFn fn, void *tasks, size_t size, int n) {
#ifdef _WIN32
    HANDLE handles[MAX_THREADS];
#else
    pthread_t handles[MAX_THREADS];
#endif
    Task items[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    for (int k = 0; k < n; k++) {
        items[k].fn = fn;
        items[k].task = (char *)tasks + (size_t)k * size;
    }
    for (int k = 1; k < n; k++) {
#ifdef _WIN32
        handles[k] = CreateThread(NULL, 0, task_thread, &items[k], 0, NULL);
        started[k] = handles[k] != NULL;
#else
        started[k] = pthread_create(&handles[k], NULL, task_thread, &items[k]) == 0;
#endif
        if (!started[k]) task_thread(&items[k]); /* no thread: run it here */
    }
    task_thread(&items[0]);
    for (int k = 1; k < n; k++) {
        if (!started[k]) continue;
#ifdef _WIN32
        WaitForSingleObject(handles[k], INFINITE);
        CloseHandle(handles[k]);
#else
        pthread_join(handles[k], NULL);
#endif
    }
}

static void shard_task(void *arg) {
    Shard *shard = (Shard *)arg;
    shard->failed = !shard_run(shard);
}

/* Run the shards; returns 0 if any failed. */
static int run_shards(Shard *shards, int n) {
    run_parallel(shard_task, shards, sizeof(Shard), n);
    int ok = 1;
    for (int k = 0; k < n; k++) ok = ok && !shards[k].failed;
    return ok;
}

/* ------------------------------------------------------------------------------------------ */
/* Argument checking: the kernels index with these arrays, so every index is checked here.      */

static int check_view(Py_buffer *view, Py_ssize_t item, const char *name, Py_ssize_t *count) {
    if (view->len % item != 0) {
        PyErr_Format(PyExc_ValueError, "%s: buffer size is not a multiple of %zd", name, item);
        return 0;
    }
    *count = view->len / item;
    return 1;
}

static int check_offsets(const int64_t *start, Py_ssize_t count, int64_t total,
                         const char *name) {
    if (count < 1 || start[0] != 0 || start[count - 1] != total) {
        PyErr_Format(PyExc_ValueError, "%s: offsets must start at 0 and end at the size", name);
        return 0;
    }
    for (Py_ssize_t k = 1; k < count; k++) {
        if (start[k] < start[k - 1]) {
            PyErr_Format(PyExc_ValueError, "%s: offsets must not decrease", name);
            return 0;
        }
    }
    return 1;
}

static int check_ids(const int32_t *ids, Py_ssize_t count, int64_t vocab, const char *name) {
    for (Py_ssize_t k = 0; k < count; k++) {
        if (ids[k] < 0 || ids[k] >= vocab) {
            PyErr_Format(PyExc_ValueError, "%s: token id out of range", name);
            return 0;
        }
    }
    return 1;
}

static int check_index(const int64_t *index, Py_ssize_t count, int64_t bound, const char *name) {
    for (Py_ssize_t k = 0; k < count; k++) {
        if (index[k] < 0 || index[k] >= bound) {
            PyErr_Format(PyExc_ValueError, "%s: document index out of range", name);
            return 0;
        }
    }
    return 1;
}

PyDoc_STRVAR(counts_doc,
"counts(tokens, doc_start, sent_tokens, sent_start, doc_sent, pair_pred, pair_ref, types,\n"
"       vocab, out, num_threads)\n"
"--\n\n"
"Fill ``out`` (int64, pairs x types x 3) with (hits, prediction total, reference total).\n\n"
"Buffers: tokens/sent_tokens int32 ids below ``vocab``; doc_start, sent_start, doc_sent int64\n"
"offsets; pair_pred/pair_ref int64 document indices; types int64 (kind, n) pairs with kind\n"
"0 = ROUGE-N, 1 = ROUGE-L, 2 = ROUGE-Lsum.  The GIL is released while counting; pairs are\n"
"split over ``num_threads`` threads.");

static PyObject *py_counts(PyObject *self, PyObject *args) {
    Py_buffer b[10];
    Py_ssize_t vocab;
    int num_threads;
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*nw*i", &b[0], &b[1], &b[2], &b[3], &b[4],
                          &b[5], &b[6], &b[7], &vocab, &b[8], &num_threads))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n_tok, n_doc1, n_stok, n_sent1, n_docsent1, n_pairs, n_ref, n_types2, n_out;
    Job job;
    if (!check_view(&b[0], 4, "tokens", &n_tok) || !check_view(&b[1], 8, "doc_start", &n_doc1) ||
        !check_view(&b[2], 4, "sent_tokens", &n_stok) ||
        !check_view(&b[3], 8, "sent_start", &n_sent1) ||
        !check_view(&b[4], 8, "doc_sent", &n_docsent1) ||
        !check_view(&b[5], 8, "pair_pred", &n_pairs) || !check_view(&b[6], 8, "pair_ref", &n_ref) ||
        !check_view(&b[7], 8, "types", &n_types2) || !check_view(&b[8], 8, "out", &n_out))
        goto done;
    job.tokens = b[0].buf;
    job.doc_start = b[1].buf;
    job.sent_tokens = b[2].buf;
    job.sent_start = b[3].buf;
    job.doc_sent = b[4].buf;
    job.pair_pred = b[5].buf;
    job.pair_ref = b[6].buf;
    job.types = b[7].buf;
    job.n_types = n_types2 / 2;
    job.vocab = vocab;
    job.out = b[8].buf;
    if (vocab < 0 || vocab > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "vocab out of range");
        goto done;
    }
    if (n_types2 % 2 || n_ref != n_pairs || n_out != n_pairs * job.n_types * 3) {
        PyErr_SetString(PyExc_ValueError, "counts: inconsistent buffer sizes");
        goto done;
    }
    int needs_sentences = 0;
    for (Py_ssize_t t = 0; t < job.n_types; t++) {
        int64_t kind = job.types[2 * t], n = job.types[2 * t + 1];
        if (kind < KIND_N || kind > KIND_LSUM || (kind == KIND_N && (n < 1 || n > INT32_MAX))) {
            PyErr_SetString(PyExc_ValueError, "counts: bad rouge type");
            goto done;
        }
        needs_sentences |= kind == KIND_LSUM;
    }
    Py_ssize_t n_docs = n_doc1 - 1;
    if (!check_offsets(job.doc_start, n_doc1, n_tok, "doc_start") ||
        !check_ids(job.tokens, n_tok, vocab, "tokens") ||
        !check_index(job.pair_pred, n_pairs, n_docs, "pair_pred") ||
        !check_index(job.pair_ref, n_pairs, n_docs, "pair_ref"))
        goto done;
    if (needs_sentences) {
        if (n_docsent1 != n_doc1) {
            PyErr_SetString(PyExc_ValueError, "doc_sent: one offset per document plus one");
            goto done;
        }
        if (!check_offsets(job.sent_start, n_sent1, n_stok, "sent_start") ||
            !check_offsets(job.doc_sent, n_docsent1, n_sent1 - 1, "doc_sent") ||
            !check_ids(job.sent_tokens, n_stok, vocab, "sent_tokens"))
            goto done;
    }
    if (num_threads < 1) num_threads = 1;
    if (num_threads > MAX_THREADS) num_threads = MAX_THREADS;
    if (num_threads > n_pairs) num_threads = n_pairs > 0 ? (int)n_pairs : 1;
    Shard shards[MAX_THREADS];
    for (int k = 0; k < num_threads; k++) {
        shards[k].job = &job;
        shards[k].first = n_pairs * k / num_threads;
        shards[k].last = n_pairs * (k + 1) / num_threads;
        shards[k].failed = 0;
    }
    int ok;
    Py_BEGIN_ALLOW_THREADS
    ok = run_shards(shards, num_threads);
    Py_END_ALLOW_THREADS
    if (!ok) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyLong_FromLong(num_threads); /* the threads that ran (tests check the wiring) */
done:
    for (int k = 0; k < 9; k++)
        if (b[k].obj != NULL) PyBuffer_Release(&b[k]);
    return result;
}


/* ------------------------------------------------------------------------------------------ */
/* Porter stemmer: NLTK's PorterStemmer() in its default NLTK_EXTENSIONS mode, on ASCII words  */
/*
 * A line-by-line port of nltk/stem/porter.py (the mode rouge_score uses), including NLTK's
 * irregular-forms pool and its changes to steps 1a, 1b, 1c and 2.  NLTK's rules are "the first
 * rule whose suffix matches decides, whether or not its condition holds"; apply_rules keeps
 * that.  Words are lowercase ASCII in a buffer with room for one more character (step 1b can
 * add an "e" after removing "ed"/"ing", so no step grows a word past its input length + 1).
 */

typedef struct {
    char *s;
    int n;
} Word;

/* Consonant flags follow NLTK's _consonant_flags: a letter other than a, e, i, o, u is a
 * consonant, except that y is a consonant iff it starts the word or follows a vowel. */
static int measure(const char *s, int n) {
    int m = 0, prev = -1;
    for (int i = 0; i < n; i++) {
        char c = s[i];
        int cons;
        if (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u') cons = 0;
        else if (c == 'y') cons = i == 0 ? 1 : !prev;
        else cons = 1;
        if (prev == 0 && cons == 1) m++; /* a "vc" */
        prev = cons;
    }
    return m;
}

static int contains_vowel(const char *s, int n) {
    int prev = -1;
    for (int i = 0; i < n; i++) {
        char c = s[i];
        int cons;
        if (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u') cons = 0;
        else if (c == 'y') cons = i == 0 ? 1 : !prev;
        else cons = 1;
        if (!cons) return 1;
        prev = cons;
    }
    return 0;
}

/* flag of the last position, in O(n) without recursion depth trouble */
static int cons_last(const char *s, int n) {
    int prev = -1;
    for (int i = 0; i < n; i++) {
        char c = s[i];
        if (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u') prev = 0;
        else if (c == 'y') prev = i == 0 ? 1 : !prev;
        else prev = 1;
    }
    return prev == 1;
}

static int ends_double_consonant(const char *s, int n) {
    return n >= 2 && s[n - 1] == s[n - 2] && cons_last(s, n);
}

static int ends_cvc(const char *s, int n) {
    if (n >= 3) {
        int c3 = cons_last(s, n - 2), c2 = cons_last(s, n - 1), c1 = cons_last(s, n);
        char last = s[n - 1];
        if (c3 && !c2 && c1 && last != 'w' && last != 'x' && last != 'y') return 1;
    }
    return n == 2 && !cons_last(s, 1) && cons_last(s, 2);
}

static int ends_with(const Word *w, const char *suffix) {
    int k = (int)strlen(suffix);
    return w->n >= k && memcmp(w->s + w->n - k, suffix, (size_t)k) == 0;
}

/* replace the last `drop` characters by `repl` */
static void replace_tail(Word *w, int drop, const char *repl) {
    int k = (int)strlen(repl);
    memcpy(w->s + w->n - drop, repl, (size_t)k);
    w->n += k - drop;
}

enum { COND_NONE, COND_M_GT_0, COND_M_GT_1, COND_ION, COND_LOGI };

typedef struct {
    const char *suffix, *repl;
    int cond;
} Rule;

static int rule_holds(const Word *w, int stem_len, int cond) {
    switch (cond) {
    case COND_NONE: return 1;
    case COND_M_GT_0: return measure(w->s, stem_len) > 0;
    case COND_M_GT_1: return measure(w->s, stem_len) > 1;
    case COND_ION:
        return measure(w->s, stem_len) > 1 &&
               (w->s[stem_len - 1] == 's' || w->s[stem_len - 1] == 't');
    case COND_LOGI: return measure(w->s, w->n - 3) > 0; /* NLTK tests word[:-3] here */
    }
    return 0;
}

/* the first rule whose suffix matches decides (NLTK's _apply_rule_list) */
static void apply_rules(Word *w, const Rule *rules, int count) {
    for (int k = 0; k < count; k++) {
        if (ends_with(w, rules[k].suffix)) {
            int stem_len = w->n - (int)strlen(rules[k].suffix);
            if (rule_holds(w, stem_len, rules[k].cond)) {
                w->n = stem_len;
                replace_tail(w, 0, rules[k].repl);
            }
            return;
        }
    }
}

static void step1a(Word *w) {
    if (ends_with(w, "ies") && w->n == 4) {
        replace_tail(w, 3, "ie");
        return;
    }
    static const Rule rules[] = {
        {"sses", "ss", COND_NONE}, {"ies", "i", COND_NONE}, {"ss", "ss", COND_NONE},
        {"s", "", COND_NONE}};
    apply_rules(w, rules, 4);
}

static void step1b(Word *w) {
    if (ends_with(w, "ied")) {
        replace_tail(w, 3, w->n == 4 ? "ie" : "i");
        return;
    }
    if (ends_with(w, "eed")) {
        if (measure(w->s, w->n - 3) > 0) replace_tail(w, 3, "ee");
        return;
    }
    int stem_len = -1;
    if (ends_with(w, "ed") && contains_vowel(w->s, w->n - 2)) stem_len = w->n - 2;
    else if (ends_with(w, "ing") && contains_vowel(w->s, w->n - 3)) stem_len = w->n - 3;
    if (stem_len < 0) return;
    w->n = stem_len; /* the intermediate stem */
    if (ends_with(w, "at")) {
        replace_tail(w, 2, "ate");
    } else if (ends_with(w, "bl")) {
        replace_tail(w, 2, "ble");
    } else if (ends_with(w, "iz")) {
        replace_tail(w, 2, "ize");
    } else if (ends_double_consonant(w->s, w->n)) {
        /* "*d": one letter of the pair goes, unless it is l, s or z (then nothing changes) */
        char last = w->s[w->n - 1];
        if (last != 'l' && last != 's' && last != 'z') w->n -= 1;
    } else if (measure(w->s, w->n) == 1 && ends_cvc(w->s, w->n)) {
        replace_tail(w, 0, "e");
    }
}

static void step1c(Word *w) {
    if (ends_with(w, "y")) {
        int stem_len = w->n - 1;
        if (stem_len > 1 && cons_last(w->s, stem_len)) replace_tail(w, 1, "i");
    }
}

static void step2(Word *w) {
    if (ends_with(w, "alli") && measure(w->s, w->n - 4) > 0) {
        replace_tail(w, 4, "al");
        step2(w);
        return;
    }
    static const Rule rules[] = {
        {"ational", "ate", COND_M_GT_0}, {"tional", "tion", COND_M_GT_0},
        {"enci", "ence", COND_M_GT_0},   {"anci", "ance", COND_M_GT_0},
        {"izer", "ize", COND_M_GT_0},    {"bli", "ble", COND_M_GT_0},
        {"alli", "al", COND_M_GT_0},     {"entli", "ent", COND_M_GT_0},
        {"eli", "e", COND_M_GT_0},       {"ousli", "ous", COND_M_GT_0},
        {"ization", "ize", COND_M_GT_0}, {"ation", "ate", COND_M_GT_0},
        {"ator", "ate", COND_M_GT_0},    {"alism", "al", COND_M_GT_0},
        {"iveness", "ive", COND_M_GT_0}, {"fulness", "ful", COND_M_GT_0},
        {"ousness", "ous", COND_M_GT_0}, {"aliti", "al", COND_M_GT_0},
        {"iviti", "ive", COND_M_GT_0},   {"biliti", "ble", COND_M_GT_0},
        {"fulli", "ful", COND_M_GT_0},   {"logi", "log", COND_LOGI}};
    apply_rules(w, rules, (int)(sizeof(rules) / sizeof(rules[0])));
}

static void step3(Word *w) {
    static const Rule rules[] = {
        {"icate", "ic", COND_M_GT_0}, {"ative", "", COND_M_GT_0}, {"alize", "al", COND_M_GT_0},
        {"iciti", "ic", COND_M_GT_0}, {"ical", "ic", COND_M_GT_0}, {"ful", "", COND_M_GT_0},
        {"ness", "", COND_M_GT_0}};
    apply_rules(w, rules, (int)(sizeof(rules) / sizeof(rules[0])));
}

static void step4(Word *w) {
    static const Rule rules[] = {
        {"al", "", COND_M_GT_1},   {"ance", "", COND_M_GT_1}, {"ence", "", COND_M_GT_1},
        {"er", "", COND_M_GT_1},   {"ic", "", COND_M_GT_1},   {"able", "", COND_M_GT_1},
        {"ible", "", COND_M_GT_1}, {"ant", "", COND_M_GT_1},  {"ement", "", COND_M_GT_1},
        {"ment", "", COND_M_GT_1}, {"ent", "", COND_M_GT_1},  {"ion", "", COND_ION},
        {"ou", "", COND_M_GT_1},   {"ism", "", COND_M_GT_1},  {"ate", "", COND_M_GT_1},
        {"iti", "", COND_M_GT_1},  {"ous", "", COND_M_GT_1},  {"ive", "", COND_M_GT_1},
        {"ize", "", COND_M_GT_1}};
    apply_rules(w, rules, (int)(sizeof(rules) / sizeof(rules[0])));
}

static void step5a(Word *w) {
    if (ends_with(w, "e")) {
        int m = measure(w->s, w->n - 1);
        if (m > 1 || (m == 1 && !ends_cvc(w->s, w->n - 1))) w->n -= 1;
    }
}

static void step5b(Word *w) {
    if (ends_with(w, "ll") && measure(w->s, w->n - 1) > 1) w->n -= 1;
}

static const char *const POOL[][2] = {
    {"sky", "sky"},         {"skies", "sky"},       {"dying", "die"},
    {"lying", "lie"},       {"tying", "tie"},       {"news", "news"},
    {"innings", "inning"},  {"inning", "inning"},   {"outings", "outing"},
    {"outing", "outing"},   {"cannings", "canning"}, {"canning", "canning"},
    {"howe", "howe"},       {"proceed", "proceed"}, {"exceed", "exceed"},
    {"succeed", "succeed"}};

/* Stem the ASCII word s[0..n) into out (room for n + 2 bytes); returns the stem's length.
 * Exactly NLTK's PorterStemmer().stem(word) (which lowercases first). */
static int porter_stem(const char *s, int n, char *out) {
    for (int i = 0; i < n; i++) out[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char)(s[i] + 32) : s[i];
    for (size_t k = 0; k < sizeof(POOL) / sizeof(POOL[0]); k++) {
        if ((int)strlen(POOL[k][0]) == n && memcmp(out, POOL[k][0], (size_t)n) == 0) {
            int len = (int)strlen(POOL[k][1]);
            memcpy(out, POOL[k][1], (size_t)len);
            return len;
        }
    }
    if (n <= 2) return n;
    Word w = {out, n};
    step1a(&w);
    step1b(&w);
    step1c(&w);
    step2(&w);
    step3(&w);
    step4(&w);
    step5a(&w);
    step5b(&w);
    return w.n;
}

/* Porter on any word, exactly as NLTK: NLTK's rules look at characters only through "is it one
 * of a e i o u y", "is it w x y", "is it l s z", equality of neighbours and ASCII suffixes, so
 * every other character is a consonant that matches nothing.  Each distinct non-ASCII code
 * point of the (already lowercased) word is given a distinct byte >= 128, which the byte
 * stemmer treats exactly so, and mapped back afterwards.  Returns the stem as a new str, or
 * NULL without an exception when the word has more than 128 distinct non-ASCII code points
 * (the caller then asks NLTK), or NULL with an exception on error. */
static PyObject *porter_stem_unicode(PyObject *lowered) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(lowered);
    if (n > INT32_MAX - 2) return NULL;
    int kind = PyUnicode_KIND(lowered);
    const void *data = PyUnicode_DATA(lowered);
    Py_UCS4 table[128];
    int used = 0;
    char *bytes = malloc((size_t)n + 2);
    char *out = malloc((size_t)n + 2);
    Py_UCS4 *ucs = malloc(((size_t)n + 2) * sizeof(Py_UCS4));
    PyObject *result = NULL;
    if (bytes == NULL || out == NULL || ucs == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < 128) {
            bytes[i] = (char)c;
            continue;
        }
        int k = 0;
        while (k < used && table[k] != c) k++;
        if (k == used) {
            if (used == 128) goto done; /* no exception: the caller falls back to NLTK */
            table[used++] = c;
        }
        bytes[i] = (char)(128 + k);
    }
    int len = porter_stem(bytes, (int)n, out);
    for (int i = 0; i < len; i++) {
        unsigned char b = (unsigned char)out[i];
        ucs[i] = b < 128 ? b : table[b - 128];
    }
    result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, ucs, len);
done:
    free(bytes);
    free(out);
    free(ucs);
    return result;
}

PyDoc_STRVAR(porter_doc,
"porter_stem(word: str) -> str\n"
"--\n\n"
"NLTK's PorterStemmer().stem(word) (NLTK_EXTENSIONS mode, which lowercases the word first);\n"
"ValueError for a word with more than 128 distinct non-ASCII characters (the engine stems\n"
"those with NLTK itself).");

static PyObject *py_porter_stem(PyObject *self, PyObject *word) {
    if (!PyUnicode_Check(word)) {
        PyErr_SetString(PyExc_TypeError, "porter_stem: expected a str");
        return NULL;
    }
    /* str.lower itself, also for a str subclass (whose own lower() could return anything) */
    PyObject *exact = PyUnicode_FromObject(word);
    if (exact == NULL) return NULL;
    PyObject *lowered = PyObject_CallMethod(exact, "lower", NULL);
    Py_DECREF(exact);
    if (lowered == NULL) return NULL;
    /* NLTK keeps words of at most 2 characters *before* lowercasing ("İy" lowercases to 3) */
    if (PyUnicode_GET_LENGTH(word) <= 2) return lowered;
    PyObject *result = porter_stem_unicode(lowered);
    Py_DECREF(lowered);
    if (result == NULL && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError,
                        "porter_stem: word too long or with more than 128 distinct non-ASCII "
                        "characters");
    return result;
}

/* ------------------------------------------------------------------------------------------ */
/* Encoder: texts -> token ids                                                                  */
/*
 * Raw tokens are interned by their CPython representation (kind byte + code units): equal
 * strings have equal representations (CPython strings are canonical), and no encoding step can
 * fail, lone surrogates included.  With stemming, a new raw token is stemmed once (by the C port
 * above; by NLTK through rouge_lcs.text.stemming only for a word with more than 128 distinct
 * non-ASCII characters) and its form interned in a
 * second map, so tokens that stem alike share an id exactly as in rouge_lcs/documents.py.  The
 * raw map is the per-call stemming memo.
 */

enum { MODE_ROUGE_SCORE = 0, MODE_UNICODE = 1, MODE_PYTHON = 2 };

/* open-addressing map from (kind, bytes) to an id, keys kept in an arena */
typedef struct {
    uint64_t *hashes;
    int64_t *key_at; /* offset of the key in the arena, -1 for an empty slot */
    int32_t *key_len;
    int32_t *ids;
    int64_t cap, size;
    char *arena;
    int64_t arena_len, arena_cap;
} Map;

static uint64_t bytes_hash(int kind, const char *data, int64_t n) {
    /* FNV-1a then a finalizer: cheap for short tokens */
    uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)kind;
    for (int64_t k = 0; k < n; k++) h = (h ^ (unsigned char)data[k]) * 0x100000001b3ULL;
    return mix64(h);
}

static void map_free(Map *map) {
    free(map->hashes);
    free(map->key_at);
    free(map->key_len);
    free(map->ids);
    free(map->arena);
    memset(map, 0, sizeof(*map));
}

static int map_rehash(Map *map) {
    int64_t cap = map->cap ? map->cap * 2 : 1024;
    uint64_t *hashes = malloc((size_t)cap * sizeof(uint64_t));
    int64_t *key_at = malloc((size_t)cap * sizeof(int64_t));
    int32_t *key_len = malloc((size_t)cap * sizeof(int32_t));
    int32_t *ids = malloc((size_t)cap * sizeof(int32_t));
    if (!hashes || !key_at || !key_len || !ids) {
        free(hashes);
        free(key_at);
        free(key_len);
        free(ids);
        PyErr_NoMemory();
        return 0;
    }
    for (int64_t s = 0; s < cap; s++) key_at[s] = -1;
    for (int64_t s = 0; s < map->cap; s++) {
        if (map->key_at[s] < 0) continue;
        uint64_t at = map->hashes[s] & (uint64_t)(cap - 1);
        while (key_at[at] >= 0) at = (at + 1) & (uint64_t)(cap - 1);
        hashes[at] = map->hashes[s];
        key_at[at] = map->key_at[s];
        key_len[at] = map->key_len[s];
        ids[at] = map->ids[s];
    }
    free(map->hashes);
    free(map->key_at);
    free(map->key_len);
    free(map->ids);
    map->hashes = hashes;
    map->key_at = key_at;
    map->key_len = key_len;
    map->ids = ids;
    map->cap = cap;
    return 1;
}

/* memcmp(a, b, n) == 0; inline, as keys are words of a few bytes (a libc call costs more). */
static inline int same_bytes(const char *a, const char *b, int64_t n) {
    if (n > 16) return memcmp(a, b, (size_t)n) == 0;
    for (int64_t k = 0; k < n; k++)
        if (a[k] != b[k]) return 0;
    return 1;
}

/* The slot of the key: its id is map->ids[slot] when map->key_at[slot] >= 0, else the key is
 * absent and map_put(slot) adds it.  -1 on error (memory). */
static int64_t map_find(Map *map, int kind, const char *data, int64_t nbytes, uint64_t h) {
    if (2 * (map->size + 1) > map->cap && !map_rehash(map)) return -1;
    uint64_t mask = (uint64_t)map->cap - 1, s = h & mask;
    for (;;) {
        int64_t at = map->key_at[s];
        if (at < 0) return (int64_t)s;
        if (map->hashes[s] == h && map->key_len[s] == nbytes + 1 && map->arena[at] == (char)kind &&
            same_bytes(map->arena + at + 1, data, nbytes))
            return (int64_t)s;
        s = (s + 1) & mask;
    }
}

static int map_put(Map *map, int64_t slot, int kind, const char *data, int64_t nbytes,
                   uint64_t h, int64_t id) {
    if (!grow((void **)&map->arena, &map->arena_cap, map->arena_len + nbytes + 1, 1)) {
        PyErr_NoMemory();
        return 0;
    }
    map->arena[map->arena_len] = (char)kind;
    memcpy(map->arena + map->arena_len + 1, data, (size_t)nbytes);
    map->hashes[slot] = h;
    map->key_at[slot] = map->arena_len;
    map->key_len[slot] = (int32_t)(nbytes + 1);
    map->ids[slot] = (int32_t)id;
    map->arena_len += nbytes + 1;
    map->size++;
    return 1;
}

typedef struct {
    PyObject_HEAD
    int mode;
    PyObject *split;  /* Python tokenizer (modes 1 and 2) */
    PyObject *stem;   /* rouge_lcs.text.stemming.stem, for words too odd for the C port, or NULL: no stemming */
    PyObject *normalize; /* unicodedata.normalize for the native unicode tokenizer, or NULL */
    Map raw;          /* raw token -> id of its form */
    Map forms;        /* stemmed form -> id */
    int64_t n_ids;
    /* output of the current call */
    int32_t *out;
    int64_t out_len, out_cap;
    char *scratch;
    int64_t scratch_cap;
    char *stem_buf;
    int64_t stem_cap;
    char *uni_buf;
    int64_t uni_cap;
    int64_t *soff; /* sentence offsets of the current call */
    int64_t soff_len, soff_cap;
} Encoder;

/* rouge_score (and so rouge_lcs) stems only tokens longer than this many characters */
#define MIN_STEM_LENGTH 3

/* The id of a stemmed form; -1 on error. */
static int64_t form_id(Encoder *e, int kind, const char *data, int64_t nbytes) {
    uint64_t h = bytes_hash(kind, data, nbytes);
    int64_t slot = map_find(&e->forms, kind, data, nbytes, h);
    if (slot < 0) return -1;
    if (e->forms.key_at[slot] >= 0) return e->forms.ids[slot];
    if (!map_put(&e->forms, slot, kind, data, nbytes, h, e->n_ids)) return -1;
    return e->n_ids++;
}

/* The id of the form of a new raw token; -1 on error. */
static int64_t new_id(Encoder *e, int kind, const char *data, int64_t nbytes) {
    if (e->stem == NULL) return e->n_ids++;
    if (kind == PyUnicode_1BYTE_KIND) {
        int ascii = 1;
        for (int64_t k = 0; k < nbytes && ascii; k++) ascii = (unsigned char)data[k] < 128;
        if (ascii) {
            if (nbytes <= MIN_STEM_LENGTH) {
                /* Too short to stem, but lowercased like every stemmed token
                 * (rouge_lcs.text.stemming.stem: Porter is defined on lowercase words). */
                char low[MIN_STEM_LENGTH];
                for (int64_t k = 0; k < nbytes; k++)
                    low[k] = (data[k] >= 'A' && data[k] <= 'Z') ? (char)(data[k] + 32) : data[k];
                return form_id(e, kind, low, nbytes);
            }
            if (nbytes > INT32_MAX - 2 ||
                !grow((void **)&e->stem_buf, &e->stem_cap, nbytes + 2, 1)) {
                PyErr_NoMemory();
                return -1;
            }
            int len = porter_stem(data, (int)nbytes, e->stem_buf);
            return form_id(e, kind, e->stem_buf, len);
        }
    }
    PyObject *token = PyUnicode_FromKindAndData(kind, data, nbytes / kind);
    if (token == NULL) return -1;
    PyObject *form = NULL;
    {
        /* rouge_lcs.text.stemming.stem (e->stem is always it): lowercase, Porter from 4 characters
         * on, here in C; NLTK only for a word porter_stem_unicode declines */
        PyObject *lowered = PyObject_CallMethod(token, "lower", NULL);
        if (lowered == NULL) {
            Py_DECREF(token);
            return -1;
        }
        if (PyUnicode_GET_LENGTH(lowered) <= MIN_STEM_LENGTH) {
            form = lowered;
        } else {
            form = porter_stem_unicode(lowered);
            Py_DECREF(lowered);
            if (form == NULL && PyErr_Occurred()) {
                Py_DECREF(token);
                return -1;
            }
        }
    }
    if (form == NULL) form = PyObject_CallOneArg(e->stem, token);
    Py_DECREF(token);
    if (form == NULL) return -1;
    int64_t id = -1;
    if (!PyUnicode_Check(form)) {
        PyErr_SetString(PyExc_TypeError, "stemmer must return str");
    } else {
        int fkind = PyUnicode_KIND(form);
        id = form_id(e, fkind, PyUnicode_DATA(form), (int64_t)PyUnicode_GET_LENGTH(form) * fkind);
    }
    Py_DECREF(form);
    return id;
}

/* Append the id of the token (kind, code units, h = bytes_hash of them) to the output; 0 on
 * error. */
static int emit_hashed(Encoder *e, int kind, const char *data, int64_t nbytes, uint64_t h) {
    if (nbytes > INT32_MAX - 1) {
        PyErr_SetString(PyExc_ValueError, "token too long");
        return 0;
    }
    if (e->out_len == e->out_cap &&
        !grow((void **)&e->out, &e->out_cap, e->out_len + 1, sizeof(int32_t))) {
        PyErr_NoMemory();
        return 0;
    }
    int64_t slot = map_find(&e->raw, kind, data, nbytes, h);
    if (slot < 0) return 0;
    if (e->raw.key_at[slot] >= 0) {
        e->out[e->out_len++] = e->raw.ids[slot];
        return 1;
    }
    int64_t id = new_id(e, kind, data, nbytes);
    if (id < 0) return 0;
    if (id > INT32_MAX - 1) {
        PyErr_SetString(PyExc_OverflowError, "too many distinct tokens");
        return 0;
    }
    /* new_id may have grown no map but raw's slot is still valid: only forms changed */
    if (!map_put(&e->raw, slot, kind, data, nbytes, h, id)) return 0;
    e->out[e->out_len++] = (int32_t)id;
    return 1;
}

/* Append the id of the token (kind, code units) to the output; 0 on error. */
static int emit(Encoder *e, int kind, const char *data, int64_t nbytes) {
    return emit_hashed(e, kind, data, nbytes, bytes_hash(kind, data, nbytes));
}

static inline int ascii_alnum_lower(unsigned c, char *out) {
    if (c >= 'a' && c <= 'z') {
        *out = (char)c;
        return 1;
    }
    if (c >= '0' && c <= '9') {
        *out = (char)c;
        return 1;
    }
    if (c >= 'A' && c <= 'Z') {
        *out = (char)(c + 32);
        return 1;
    }
    return 0;
}

/* ASCII byte -> itself lowered if it is [A-Za-z0-9], else 0 (filled at module init). */
static char ASCII_ALNUM_LOWER[256];

static void init_ascii_table(void) {
    for (unsigned c = 0; c < 128; c++) {
        char out;
        ASCII_ALNUM_LOWER[c] = ascii_alnum_lower(c, &out) ? out : 0;
    }
}

/* rouge_score's tokens: the maximal [a-z0-9] runs of text.lower(). */
static int encode_ascii_runs(Encoder *e, PyObject *text) {
    PyObject *lowered = NULL;
    if (!PyUnicode_IS_ASCII(text)) {
        /* str.lower() itself: it maps a few non-ASCII characters to ASCII letters (KELVIN SIGN
         * -> "k", LATIN CAPITAL LETTER I WITH DOT ABOVE -> "i" + U+0307), as rouge_score sees. */
        lowered = PyObject_CallMethodNoArgs(text, STR_LOWER);
        if (lowered == NULL) return 0;
        text = lowered;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    if (!grow((void **)&e->scratch, &e->scratch_cap, n + 1, 1)) {
        Py_XDECREF(lowered);
        PyErr_NoMemory();
        return 0;
    }
    char *buf = e->scratch;
    int64_t run = 0;
    int ok = 1;
    if (PyUnicode_IS_ASCII(text)) {
        /* The common case, one pass over the bytes: a table lowers and classifies each one and
         * the token's hash (bytes_hash's FNV-1a) is built as it is read.  In RL rewards and
         * torchmetrics updates tokenizing is most of the time of a call. */
        const unsigned char *s = (const unsigned char *)data;
        const uint64_t seed = 0xcbf29ce484222325ULL ^ (uint64_t)PyUnicode_1BYTE_KIND;
        uint64_t h = seed;
        for (Py_ssize_t k = 0; k < n; k++) {
            char c = ASCII_ALNUM_LOWER[s[k]];
            if (c) {
                buf[run++] = c;
                h = (h ^ (unsigned char)c) * 0x100000001b3ULL;
            } else if (run) {
                if (!emit_hashed(e, PyUnicode_1BYTE_KIND, buf, run, mix64(h))) return 0;
                run = 0;
                h = seed;
            }
        }
        return run ? emit_hashed(e, PyUnicode_1BYTE_KIND, buf, run, mix64(h)) : 1;
    }
    for (Py_ssize_t k = 0; k <= n && ok; k++) {
        Py_UCS4 c = k < n ? PyUnicode_READ(kind, data, k) : 0;
        if (c < 128 && k < n && ascii_alnum_lower(c, buf + run)) {
            run++;
        } else if (run) {
            ok = emit(e, PyUnicode_1BYTE_KIND, buf, run);
            run = 0;
        }
    }
    Py_XDECREF(lowered);
    return ok;
}


/* ------------------------------------------------------------------------------------------ */
/* The unicode tokenizer: classes from _unicode_table.h, NFKC and lower() from CPython          */

/* The index of the range of `c` in a sorted (first, last, value) table, -1 if none. */
static int range_index(const uint32_t (*r)[3], int count, Py_UCS4 c) {
    int lo = 0, hi = count - 1, found = -1;
    while (lo <= hi) { /* the last range starting at or before c */
        int mid = (lo + hi) / 2;
        if (r[mid][0] <= c) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return found >= 0 && c <= r[found][1] ? found : -1;
}

/* 0: separator, 1: word character, 2: a token by itself; `hint` caches the last range found */
static inline int unicode_class(Py_UCS4 c, int *hint) {
    if (c < 128)
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
    const uint32_t(*r)[3] = UNICODE_RANGES;
    if (*hint >= 0 && c >= r[*hint][0] && c <= r[*hint][1]) return (int)r[*hint][2];
    int found = range_index(r, UNICODE_RANGE_COUNT, c);
    if (found < 0) return 0;
    *hint = found;
    return (int)r[found][2];
}

typedef int (*EmitFn)(void *ctx, int kind, const char *data, int64_t nbytes);

/* Emit s[a:b] in CPython's canonical representation (the smallest kind that holds it), so that
 * it is interned like the same token coming from Python. */
static int emit_slice(EmitFn emit, void *ctx, PyObject *s, Py_ssize_t a, Py_ssize_t b,
                      Py_UCS4 maxchar, char **buf, int64_t *cap) {
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    int want = maxchar < 256 ? 1 : maxchar < 65536 ? 2 : 4;
    if (want == kind)
        return emit(ctx, kind, (const char *)data + a * kind, (int64_t)(b - a) * kind);
    if (!grow((void **)buf, cap, (int64_t)(b - a) * want, 1)) {
        PyErr_NoMemory();
        return 0;
    }
    for (Py_ssize_t k = a; k < b; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        if (want == 1) ((Py_UCS1 *)*buf)[k - a] = (Py_UCS1)c;
        else if (want == 2) ((Py_UCS2 *)*buf)[k - a] = (Py_UCS2)c;
        else ((Py_UCS4 *)*buf)[k - a] = c;
    }
    return emit(ctx, want, *buf, (int64_t)(b - a) * want);
}

/* Tokens of an already normalized and lowercased string: each class-2 character alone,
 * maximal runs of class-1 characters (the regex of rouge_lcs.text.tokenizers.unicode_tokenize). */
static int scan_unicode(PyObject *s, EmitFn emit, void *ctx, char **buf, int64_t *cap) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(s), start = -1;
    int kind = PyUnicode_KIND(s), hint = -1;
    const void *data = PyUnicode_DATA(s);
    Py_UCS4 maxchar = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        int cls = unicode_class(c, &hint);
        if (cls == 1) {
            if (start < 0) {
                start = k;
                maxchar = 0;
            }
            if (c > maxchar) maxchar = c;
            continue;
        }
        if (start >= 0) {
            if (!emit_slice(emit, ctx, s, start, k, maxchar, buf, cap)) return 0;
            start = -1;
        }
        if (cls == 2 && !emit_slice(emit, ctx, s, k, k + 1, c, buf, cap)) return 0;
    }
    if (start >= 0) return emit_slice(emit, ctx, s, start, n, maxchar, buf, cap);
    return 1;
}

/* unicode_tokenize's steps: lower(); ASCII after lowering -> [a-z0-9]+ runs of that; else
 * NFKC, lower(), then the class scan.  `ascii` handles the ASCII case. */
static int tokenize_unicode(PyObject *text, PyObject *normalize, EmitFn emit, void *ctx,
                            int (*ascii)(void *ctx, PyObject *lowered), char **buf,
                            int64_t *cap) {
    /* Only KELVIN SIGN (U+212A) lowercases to ASCII (checked over all code points by
     * tests/test_native.py), so a text with another non-ASCII character cannot lower to
     * ASCII: skip that first lower() for it. */
    /* A text of ASCII and precomposed Hangul syllables (U+AC00..U+D7A3) only is its own NFKC
     * form: each of these characters is NFKC-stable with combining class 0, and no two of them
     * compose (a syllable composes only with a following conjoining jamo, which is not in the
     * set).  It holds no joiner either, so the `normalize` call (NFKC, joiners removed) is the
     * identity and is skipped: most Korean texts are such texts. */
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text), may_lower_to_ascii = 1, nfkc_stable = 1, upper = 0;
    const void *data = PyUnicode_DATA(text);
    for (Py_ssize_t k = 0; k < n && (may_lower_to_ascii || nfkc_stable); k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        may_lower_to_ascii = may_lower_to_ascii && (c < 128 || c == 0x212A);
        nfkc_stable = nfkc_stable && (c < 128 || (c >= 0xAC00 && c <= 0xD7A3));
        upper |= c >= 'A' && c <= 'Z';
    }
    PyObject *lowered;
    if (nfkc_stable && !may_lower_to_ascii) {
        /* Hangul syllables have no case: without A-Z the text is its own lower() too. */
        if (!upper) return scan_unicode(text, emit, ctx, buf, cap);
        lowered = PyObject_CallMethodNoArgs(text, STR_LOWER);
        if (lowered == NULL) return 0;
        int ok = scan_unicode(lowered, emit, ctx, buf, cap);
        Py_DECREF(lowered);
        return ok;
    }
    if (may_lower_to_ascii) {
        lowered = PyObject_CallMethodNoArgs(text, STR_LOWER);
        if (lowered == NULL) return 0;
        if (PyUnicode_IS_ASCII(lowered)) {
            int ok = ascii(ctx, lowered);
            Py_DECREF(lowered);
            return ok;
        }
        Py_DECREF(lowered);
    }
    PyObject *call_args[2] = {STR_NFKC, text};
    PyObject *nfkc = PyObject_Vectorcall(normalize, call_args, 2, NULL);
    if (nfkc == NULL) return 0;
    if (!PyUnicode_Check(nfkc)) {
        Py_DECREF(nfkc);
        PyErr_SetString(PyExc_TypeError, "normalize must return str");
        return 0;
    }
    lowered = PyObject_CallMethodNoArgs(nfkc, STR_LOWER);
    Py_DECREF(nfkc);
    if (lowered == NULL) return 0;
    int ok = scan_unicode(lowered, emit, ctx, buf, cap);
    Py_DECREF(lowered);
    return ok;
}

static int emit_to_list(void *ctx, int kind, const char *data, int64_t nbytes) {
    PyObject *token = PyUnicode_FromKindAndData(kind, data, nbytes / kind);
    if (token == NULL) return 0;
    int ok = PyList_Append((PyObject *)ctx, token) == 0;
    Py_DECREF(token);
    return ok;
}

static int ascii_to_list(void *ctx, PyObject *lowered) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(lowered), start = -1;
    const Py_UCS1 *data = PyUnicode_1BYTE_DATA(lowered);
    for (Py_ssize_t k = 0; k <= n; k++) {
        int word = k < n && ((data[k] >= 'a' && data[k] <= 'z') || (data[k] >= '0' && data[k] <= '9'));
        if (word && start < 0) start = k;
        if (!word && start >= 0) {
            if (!emit_to_list(ctx, 1, (const char *)data + start, k - start)) return 0;
            start = -1;
        }
    }
    return 1;
}

static PyObject *py_unicode_class(PyObject *self, PyObject *arg) {
    long cp = PyLong_AsLong(arg);
    if (cp == -1 && PyErr_Occurred()) return NULL;
    if (cp < 0 || cp > 0x10FFFF) {
        PyErr_SetString(PyExc_ValueError, "unicode_class: not a code point");
        return NULL;
    }
    int hint = -1;
    return PyLong_FromLong(unicode_class((Py_UCS4)cp, &hint));
}

PyDoc_STRVAR(unicode_tokens_doc,
"unicode_tokens(text, normalize) -> list[str]\n"
"--\n\n"
"The native ``unicode`` tokenizer (``normalize`` is unicodedata.normalize); for tests.");

static PyObject *py_unicode_tokens(PyObject *self, PyObject *args) {
    PyObject *text, *normalize;
    if (!PyArg_ParseTuple(args, "UO", &text, &normalize)) return NULL;
    PyObject *list = PyList_New(0);
    if (list == NULL) return NULL;
    char *buf = NULL;
    int64_t cap = 0;
    int ok = tokenize_unicode(text, normalize, emit_to_list, list, ascii_to_list, &buf, &cap);
    free(buf);
    if (!ok) {
        Py_DECREF(list);
        return NULL;
    }
    return list;
}

static int encode_token_list(Encoder *e, PyObject *tokens) {
    PyObject *seq = PySequence_Fast(tokens, "tokenizer: must return a list of str");
    if (seq == NULL) return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    int ok = 1;
    for (Py_ssize_t k = 0; k < n && ok; k++) {
        PyObject *token = items[k];
        if (!PyUnicode_Check(token)) {
            PyErr_Format(PyExc_TypeError,
                         "tokenizer: must return a list of str, got an item of type %s",
                         Py_TYPE(token)->tp_name);
            ok = 0;
            break;
        }
        int kind = PyUnicode_KIND(token);
        ok = emit(e, kind, PyUnicode_DATA(token), (int64_t)PyUnicode_GET_LENGTH(token) * kind);
    }
    Py_DECREF(seq);
    return ok;
}

static int emit_to_encoder(void *ctx, int kind, const char *data, int64_t nbytes) {
    return emit((Encoder *)ctx, kind, data, nbytes);
}

static int ascii_to_encoder(void *ctx, PyObject *lowered) {
    return encode_ascii_runs((Encoder *)ctx, lowered);
}

static int encode_text(Encoder *e, PyObject *text) {
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "expected str, got %s", Py_TYPE(text)->tp_name);
        return 0;
    }
    if (e->mode == MODE_ROUGE_SCORE || (e->mode == MODE_UNICODE && PyUnicode_IS_ASCII(text)))
        return encode_ascii_runs(e, text);
    if (e->mode == MODE_UNICODE && e->normalize != NULL)
        return tokenize_unicode(text, e->normalize, emit_to_encoder, e, ascii_to_encoder,
                                &e->uni_buf, &e->uni_cap);
    PyObject *tokens = PyObject_CallOneArg(e->split, text);
    if (tokens == NULL) return 0;
    int ok = encode_token_list(e, tokens);
    Py_DECREF(tokens);
    return ok;
}

PyDoc_STRVAR(encode_doc,
"encode(texts) -> (ids: bytes, offsets: bytes)\n"
"--\n\n"
"Token ids of every text, concatenated (int32), and the int64 offsets of each text's ids\n"
"(len(texts) + 1 of them).  Ids are stable for the life of the encoder.");

static PyObject *encoder_encode(Encoder *e, PyObject *texts) {
    PyObject *seq = PySequence_Fast(texts, "texts must be a sequence of str");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *offsets = PyBytes_FromStringAndSize(NULL, (n + 1) * (Py_ssize_t)sizeof(int64_t));
    PyObject *result = NULL;
    if (offsets == NULL) goto done;
    int64_t *off = (int64_t *)PyBytes_AS_STRING(offsets);
    e->out_len = 0;
    off[0] = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (!encode_text(e, items[k])) goto done;
        off[k + 1] = e->out_len;
    }
    PyObject *ids = PyBytes_FromStringAndSize((const char *)e->out,
                                              (Py_ssize_t)(e->out_len * sizeof(int32_t)));
    if (ids == NULL) goto done;
    result = PyTuple_Pack(2, ids, offsets);
    Py_DECREF(ids);
done:
    Py_XDECREF(offsets);
    Py_DECREF(seq);
    /* the output buffer is per call: do not keep a huge one alive */
    if (e->out_cap > ((int64_t)1 << 20)) {
        free(e->out);
        e->out = NULL;
        e->out_cap = 0;
    }
    return result;
}

/* Sentence splitting for ROUGE-Lsum, natively where rouge_lcs.text.sentences allows it. */
enum { SPLIT_NEWLINE = 0, SPLIT_AUTO = 1, SPLIT_NLTK = 2 };

static int push_offset(Encoder *e) {
    if (!grow((void **)&e->soff, &e->soff_cap, e->soff_len + 1, sizeof(int64_t))) {
        PyErr_NoMemory();
        return 0;
    }
    e->soff[e->soff_len++] = e->out_len;
    return 1;
}

static int encode_sentence(Encoder *e, PyObject *text, Py_ssize_t a, Py_ssize_t b) {
    if (a == 0 && b == PyUnicode_GET_LENGTH(text)) /* the whole text: no copy */
        return encode_text(e, text) && push_offset(e);
    PyObject *sub = PyUnicode_Substring(text, a, b);
    if (sub == NULL) return 0;
    int ok = encode_text(e, sub) && push_offset(e);
    Py_DECREF(sub);
    return ok;
}

/* sentences.newline_split: the non-empty lines */
static int split_lines(Encoder *e, PyObject *text) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), start = 0;
    while (start <= n) {
        Py_ssize_t end = start < n ? PyUnicode_FindChar(text, '\n', start, n, 1) : -1;
        if (end == -2) return 0;
        if (end < 0) end = n;
        if (end > start && !encode_sentence(e, text, start, end)) return 0;
        start = end + 1;
    }
    return 1;
}

/* ASCII whitespace: \s to Python's str methods, to `re` and to `regex` alike. */
static int ascii_space(Py_UCS4 c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* sentences.nltk_split's shortcut: texts Punkt cannot split are one sentence, text.rstrip()
 * (none when blank).  Two sufficient conditions, each checked conservatively:
 * - at most one sentence end (.?!。！？), closing the text;
 * - no 。！？ (which are cut without a following space), and no . ? ! that Punkt's
 *   period_context_re can match: it needs the end to be followed by punctuation or by
 *   whitespace and a further token, so an end followed by an ASCII letter or digit or a Hangul
 *   syllable ("0.47", "A.B"), or by ASCII whitespace only up to the end of the text, is no
 *   candidate; anything else counts as one.  With no candidate, NLTK's _slices_from_text
 *   yields the single slice [0, len(text.rstrip())).
 * Returns 1 when it applied, 0 when Punkt is needed, -1 on error. */
static int split_short(Encoder *e, PyObject *text) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), ends = 0, last = -1, last_word = -1;
    int kind = PyUnicode_KIND(text), cjk = 0;
    const void *data = PyUnicode_DATA(text);
    Py_UCS4 first_end = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        if (c == '.' || c == '?' || c == '!' || c == 0x3002 || c == 0xFF01 || c == 0xFF1F) {
            if (ends++ == 0) first_end = c;
            cjk |= c > 127;
        }
        if (!Py_UNICODE_ISSPACE(c)) last = k;
        if (!ascii_space(c)) last_word = k;
    }
    int one_final = ends == 0 || (ends == 1 && last >= 0 &&
                                  PyUnicode_READ(kind, data, last) == first_end);
    if (!one_final) {
        if (cjk) return 0;
        for (Py_ssize_t k = 0; k + 1 < n; k++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, k);
            if (c != '.' && c != '?' && c != '!') continue;
            Py_UCS4 d = PyUnicode_READ(kind, data, k + 1);
            int word = (d >= '0' && d <= '9') || (d >= 'a' && d <= 'z') ||
                       (d >= 'A' && d <= 'Z') || (d >= 0xAC00 && d <= 0xD7A3);
            if (!word && last_word > k) return 0; /* maybe a candidate: ask Punkt */
        }
    }
    if (last < 0) return 1; /* blank: no sentence */
    return encode_sentence(e, text, 0, last + 1) ? 1 : -1;
}

static int split_python(Encoder *e, PyObject *splitter, PyObject *text) {
    PyObject *sentences = PyObject_CallOneArg(splitter, text);
    if (sentences == NULL) return 0;
    PyObject *seq = PySequence_Fast(sentences, "lsum_split: must return a list of str");
    Py_DECREF(sentences);
    if (seq == NULL) return 0;
    int ok = 1;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(seq) && ok; k++) {
        PyObject *sentence = PySequence_Fast_GET_ITEM(seq, k);
        ok = encode_text(e, sentence) && push_offset(e);
    }
    Py_DECREF(seq);
    return ok;
}

PyDoc_STRVAR(encode_sentences_doc,
"encode_sentences(texts, split_mode, splitter) -> (ids, sentence_offsets, doc_sentences)\n"
"--\n\n"
"Split each text into sentences (split_mode 0: newline_split, 1: auto_split, 2: nltk_split;\n"
"Punkt itself is ``splitter``, called only when the text needs it) and encode them: int32 ids,\n"
"int64 offsets of each sentence's ids, int64 offsets of each text's sentences.");

static PyObject *encoder_encode_sentences(Encoder *e, PyObject *args) {
    PyObject *texts, *splitter;
    int split_mode;
    if (!PyArg_ParseTuple(args, "OiO", &texts, &split_mode, &splitter)) return NULL;
    PyObject *seq = PySequence_Fast(texts, "texts must be a sequence of str");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *docs = PyBytes_FromStringAndSize(NULL, (n + 1) * (Py_ssize_t)sizeof(int64_t));
    PyObject *result = NULL;
    if (docs == NULL) goto done;
    int64_t *doc_sent = (int64_t *)PyBytes_AS_STRING(docs);
    e->out_len = 0;
    e->soff_len = 0;
    if (!push_offset(e)) goto done;
    doc_sent[0] = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *text = items[k];
        if (!PyUnicode_Check(text)) {
            PyErr_Format(PyExc_TypeError, "expected str, got %s", Py_TYPE(text)->tp_name);
            goto done;
        }
        Py_ssize_t len = PyUnicode_GET_LENGTH(text);
        int lines = split_mode == SPLIT_NEWLINE;
        if (split_mode == SPLIT_AUTO) {
            Py_ssize_t at = len ? PyUnicode_FindChar(text, '\n', 0, len, 1) : -1;
            if (at == -2) goto done;
            lines = at >= 0;
        }
        if (lines) {
            if (!split_lines(e, text)) goto done;
        } else {
            int shortcut = split_short(e, text);
            if (shortcut < 0 || (shortcut == 0 && !split_python(e, splitter, text))) goto done;
        }
        doc_sent[k + 1] = e->soff_len - 1;
    }
    PyObject *ids = PyBytes_FromStringAndSize((const char *)e->out,
                                              (Py_ssize_t)(e->out_len * sizeof(int32_t)));
    PyObject *offs = PyBytes_FromStringAndSize((const char *)e->soff,
                                               (Py_ssize_t)(e->soff_len * sizeof(int64_t)));
    if (ids != NULL && offs != NULL) result = PyTuple_Pack(3, ids, offs, docs);
    Py_XDECREF(ids);
    Py_XDECREF(offs);
done:
    Py_XDECREF(docs);
    Py_DECREF(seq);
    return result;
}

static PyObject *encoder_vocab_size(Encoder *e, void *closure) {
    return PyLong_FromLongLong(e->n_ids);
}

static int encoder_init(Encoder *e, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"mode", "split", "stem", "normalize", NULL};
    int mode;
    PyObject *split = Py_None, *stem = Py_None, *normalize = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "i|OOO", names, &mode, &split, &stem,
                                     &normalize))
        return -1;
    if (mode < MODE_ROUGE_SCORE || mode > MODE_PYTHON) {
        PyErr_SetString(PyExc_ValueError, "Encoder: unknown mode");
        return -1;
    }
    if (mode != MODE_ROUGE_SCORE && !PyCallable_Check(split)) {
        PyErr_SetString(PyExc_TypeError, "Encoder: split must be callable in this mode");
        return -1;
    }
    if (e->raw.cap != 0 || e->split != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Encoder: already initialized");
        return -1;
    }
    e->mode = mode;
    e->split = split == Py_None ? NULL : Py_NewRef(split);
    e->stem = stem == Py_None ? NULL : Py_NewRef(stem);
    e->normalize = normalize == Py_None ? NULL : Py_NewRef(normalize);
    return 0;
}

static void encoder_dealloc(Encoder *e) {
    Py_XDECREF(e->split);
    Py_XDECREF(e->stem);
    Py_XDECREF(e->normalize);
    free(e->uni_buf);
    free(e->soff);
    map_free(&e->raw);
    map_free(&e->forms);
    free(e->out);
    free(e->scratch);
    free(e->stem_buf);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

static PyMethodDef encoder_methods[] = {
    {"encode", (PyCFunction)encoder_encode, METH_O, encode_doc},
    {"encode_sentences", (PyCFunction)encoder_encode_sentences, METH_VARARGS,
     encode_sentences_doc},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef encoder_getset[] = {
    {"vocab_size", (getter)encoder_vocab_size, NULL, "number of distinct ids so far", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject EncoderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "rouge_lcs._native.Encoder",
    .tp_basicsize = sizeof(Encoder),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Encoder(mode, split=None, stem=None, normalize=None): texts -> token ids (modes: "
              "0 rouge_score, 1 unicode (native when normalize is given, else split for "
              "non-ASCII texts), 2 any Python tokenizer).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)encoder_init,
    .tp_dealloc = (destructor)encoder_dealloc,
    .tp_methods = encoder_methods,
    .tp_getset = encoder_getset,
};

/* ------------------------------------------------------------------------------------------ */
/* ROUGE-1.5.5's token reader (rouge_lcs/rouge155/tokenize.py, flat_terms)                     */
/*
 * Self-contained: the tokens of many summaries at once, interned by first occurrence.  A token
 * is a maximal run of ASCII [a-z0-9] bytes (A-Z lower-cased first when `lower`; otherwise they
 * separate tokens, like every other byte); each "\n" ends a line.
 */

PyDoc_STRVAR(rouge155_tokens_doc,
"rouge155_tokens(blob, lower) -> (ids, tokens)\n"
"--\n\n"
"The tokens of ROUGE-1.5.5's reader in ``blob`` (bytes): maximal runs of ASCII ``[a-z0-9]``\n"
"(``A-Z`` lower-cased first when ``lower``, else separators like any other byte).  ``ids``\n"
"(bytes of native int32) holds, in order, token k's number k by first occurrence, and -1 for\n"
"each ``\\n``; ``tokens[k]`` is token k as a str.");

static PyObject *py_rouge155_tokens(PyObject *self, PyObject *args) {
    Py_buffer view;
    int lower;
    if (!PyArg_ParseTuple(args, "y*p", &view, &lower)) return NULL;
    Py_ssize_t n = view.len;
    PyObject *result = NULL, *tokens = NULL, *ids_bytes = NULL;
    unsigned char *text = malloc((size_t)(n > 0 ? n : 1));
    int32_t *ids = malloc((size_t)(n > 0 ? n : 1) * sizeof(int32_t));
    /* distinct tokens: start, length and hash; open-addressing table of their numbers */
    Py_ssize_t cap = 64, n_tokens = 0, size = 128;
    Py_ssize_t *tok_start = malloc((size_t)cap * sizeof(Py_ssize_t));
    int32_t *tok_len = malloc((size_t)cap * sizeof(int32_t));
    uint64_t *tok_hash = malloc((size_t)cap * sizeof(uint64_t));
    int32_t *slots = malloc((size_t)size * sizeof(int32_t));
    if (!text || !ids || !tok_start || !tok_len || !tok_hash || !slots) {
        PyErr_NoMemory();
        goto done;
    }
    memset(slots, 0xff, (size_t)size * sizeof(int32_t));
    const unsigned char *src = view.buf;
    for (Py_ssize_t k = 0; k < n; k++) {
        unsigned char c = src[k];
        text[k] = lower && c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
    }
    Py_ssize_t n_ids = 0, k = 0;
    while (k < n) {
        unsigned char c = text[k];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
            if (c == '\n') ids[n_ids++] = -1;
            k++;
            continue;
        }
        Py_ssize_t start = k;
        uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
        while (k < n && ((text[k] >= 'a' && text[k] <= 'z') || (text[k] >= '0' && text[k] <= '9'))) {
            h = (h ^ text[k]) * 0x100000001b3ULL;
            k++;
        }
        Py_ssize_t len = k - start;
        if (len > INT32_MAX) {
            PyErr_SetString(PyExc_ValueError, "rouge155_tokens: token too long");
            goto done;
        }
        uint64_t mask = (uint64_t)size - 1, s = h & mask;
        int32_t found = -1;
        while (slots[s] >= 0) {
            int32_t t = slots[s];
            if (tok_hash[t] == h && tok_len[t] == len &&
                memcmp(text + tok_start[t], text + start, (size_t)len) == 0) {
                found = t;
                break;
            }
            s = (s + 1) & mask;
        }
        if (found < 0) {
            if (n_tokens == INT32_MAX) {
                PyErr_SetString(PyExc_ValueError, "rouge155_tokens: too many distinct tokens");
                goto done;
            }
            if (n_tokens == cap) {
                Py_ssize_t new_cap = cap * 2;
                Py_ssize_t *a = realloc(tok_start, (size_t)new_cap * sizeof(Py_ssize_t));
                if (a) tok_start = a;
                int32_t *b = realloc(tok_len, (size_t)new_cap * sizeof(int32_t));
                if (b) tok_len = b;
                uint64_t *c2 = realloc(tok_hash, (size_t)new_cap * sizeof(uint64_t));
                if (c2) tok_hash = c2;
                if (!a || !b || !c2) {
                    PyErr_NoMemory();
                    goto done;
                }
                cap = new_cap;
            }
            found = (int32_t)n_tokens++;
            tok_start[found] = start;
            tok_len[found] = (int32_t)len;
            tok_hash[found] = h;
            slots[s] = found;
            if (2 * n_tokens > size) { /* keep the table at most half full */
                Py_ssize_t new_size = size * 2;
                int32_t *grown = malloc((size_t)new_size * sizeof(int32_t));
                if (!grown) {
                    PyErr_NoMemory();
                    goto done;
                }
                memset(grown, 0xff, (size_t)new_size * sizeof(int32_t));
                uint64_t new_mask = (uint64_t)new_size - 1;
                for (Py_ssize_t t = 0; t < n_tokens; t++) {
                    uint64_t q = tok_hash[t] & new_mask;
                    while (grown[q] >= 0) q = (q + 1) & new_mask;
                    grown[q] = (int32_t)t;
                }
                free(slots);
                slots = grown;
                size = new_size;
            }
        }
        ids[n_ids++] = found;
    }
    tokens = PyList_New(n_tokens);
    if (tokens == NULL) goto done;
    for (Py_ssize_t t = 0; t < n_tokens; t++) {
        PyObject *word = PyUnicode_DecodeASCII((const char *)text + tok_start[t], tok_len[t], NULL);
        if (word == NULL) goto done;
        PyList_SET_ITEM(tokens, t, word);
    }
    ids_bytes = PyBytes_FromStringAndSize((const char *)ids, n_ids * (Py_ssize_t)sizeof(int32_t));
    if (ids_bytes == NULL) goto done;
    result = PyTuple_Pack(2, ids_bytes, tokens);
done:
    Py_XDECREF(ids_bytes);
    Py_XDECREF(tokens);
    free(text);
    free(ids);
    free(tok_start);
    free(tok_len);
    free(tok_hash);
    free(slots);
    PyBuffer_Release(&view);
    return result;
}

PyDoc_STRVAR(rouge155_skip_doc,
"rouge155_skip(tokens, doc_start, pair_peer, pair_model, skip, unigrams, out)\n"
"--\n\n"
"ROUGE-1.5.5's ROUGE-S/SU counts (createSkipBigram): fill ``out`` (int64, pairs x 3) with the\n"
"clipped skip-bigram hits, the peer's and the model's unit counts of each pair.  Units of a\n"
"document t[0..L): (t[i], t[j]) for i < j <= i + skip + 1 (any j when skip < 0) and, when\n"
"``unigrams``, t[i] alone for i < L - 1 (the script's loop stops one short).  Buffers: tokens\n"
"int32 (>= 0), doc_start int64 offsets (documents + 1), pair_peer/pair_model int64.");

/* the units of one document, as 64-bit keys: a << 32 | (b + 1), or a << 32 for a unigram */
static int64_t skip_units(const int32_t *t, int64_t n, int64_t skip, int unigrams,
                          uint64_t *keys) {
    int64_t count = 0;
    for (int64_t i = 0; i + 1 < n; i++) {
        uint64_t a = (uint64_t)(uint32_t)t[i] << 32;
        if (unigrams) keys[count++] = a;
        int64_t end = skip < 0 || i + skip + 2 > n ? n : i + skip + 2;
        for (int64_t j = i + 1; j < end; j++) keys[count++] = a | ((uint64_t)(uint32_t)t[j] + 1);
    }
    return count;
}

static int64_t skip_unit_count(int64_t n, int64_t skip, int unigrams) {
    int64_t count = 0;
    for (int64_t i = 0; i + 1 < n; i++) {
        int64_t end = skip < 0 || i + skip + 2 > n ? n : i + skip + 2;
        count += end - i - 1 + (unigrams ? 1 : 0);
    }
    return count;
}

static PyObject *py_rouge155_skip(PyObject *self, PyObject *args) {
    Py_buffer b[5];
    Py_ssize_t skip;
    int unigrams;
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "y*y*y*y*npw*", &b[0], &b[1], &b[2], &b[3], &skip, &unigrams,
                          &b[4]))
        return NULL;
    PyObject *result = NULL;
    uint64_t *peer_keys = NULL, *model_keys = NULL, *slot_key = NULL;
    int64_t *slot_count = NULL;
    Py_ssize_t n_tok, n_doc1, n_pairs, n_model, n_out;
    if (!check_view(&b[0], 4, "tokens", &n_tok) || !check_view(&b[1], 8, "doc_start", &n_doc1) ||
        !check_view(&b[2], 8, "pair_peer", &n_pairs) ||
        !check_view(&b[3], 8, "pair_model", &n_model) || !check_view(&b[4], 8, "out", &n_out))
        goto done;
    const int32_t *tokens = b[0].buf;
    const int64_t *doc_start = b[1].buf, *pair_peer = b[2].buf, *pair_model = b[3].buf;
    int64_t *out = b[4].buf;
    if (n_model != n_pairs || n_out != 3 * n_pairs) {
        PyErr_SetString(PyExc_ValueError, "rouge155_skip: inconsistent buffer sizes");
        goto done;
    }
    Py_ssize_t n_docs = n_doc1 - 1;
    if (!check_offsets(doc_start, n_doc1, n_tok, "doc_start") ||
        !check_ids(tokens, n_tok, INT32_MAX, "tokens") ||
        !check_index(pair_peer, n_pairs, n_docs, "pair_peer") ||
        !check_index(pair_model, n_pairs, n_docs, "pair_model"))
        goto done;
    /* the largest unit count of any document: the buffers' size */
    int64_t most = 0;
    for (Py_ssize_t d = 0; d < n_docs; d++) {
        int64_t c = skip_unit_count(doc_start[d + 1] - doc_start[d], skip, unigrams);
        if (c > most) most = c;
    }
    int64_t size = 16;
    while (size < 2 * most) size <<= 1;
    peer_keys = malloc((size_t)(most > 0 ? most : 1) * sizeof(uint64_t));
    model_keys = malloc((size_t)(most > 0 ? most : 1) * sizeof(uint64_t));
    slot_key = malloc((size_t)size * sizeof(uint64_t));
    slot_count = malloc((size_t)size * sizeof(int64_t));
    if (!peer_keys || !model_keys || !slot_key || !slot_count) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < n_pairs; k++) {
        int64_t p = pair_peer[k], m = pair_model[k];
        int64_t np_ = skip_units(tokens + doc_start[p], doc_start[p + 1] - doc_start[p], skip,
                                 unigrams, peer_keys);
        int64_t nm = skip_units(tokens + doc_start[m], doc_start[m + 1] - doc_start[m], skip,
                                unigrams, model_keys);
        int64_t hits = 0;
        if (np_ > 0 && nm > 0) {
            /* a table sized for this pair's peer: ~2x its units */
            int64_t t = 16;
            while (t < 2 * np_) t <<= 1;
            uint64_t mask = (uint64_t)t - 1;
            for (int64_t s = 0; s < t; s++) slot_count[s] = -1;
            for (int64_t u = 0; u < np_; u++) {
                uint64_t key = peer_keys[u], s = mix64(key) & mask;
                while (slot_count[s] >= 0 && slot_key[s] != key) s = (s + 1) & mask;
                if (slot_count[s] < 0) {
                    slot_key[s] = key;
                    slot_count[s] = 0;
                }
                slot_count[s]++;
            }
            for (int64_t u = 0; u < nm; u++) {
                uint64_t key = model_keys[u], s = mix64(key) & mask;
                while (slot_count[s] >= 0 && slot_key[s] != key) s = (s + 1) & mask;
                if (slot_count[s] > 0) {
                    hits++;
                    slot_count[s]--;
                }
            }
        }
        out[3 * k] = hits;
        out[3 * k + 1] = np_;
        out[3 * k + 2] = nm;
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    free(peer_keys);
    free(model_keys);
    free(slot_key);
    free(slot_count);
    for (int k = 0; k < 5; k++)
        if (b[k].obj != NULL) PyBuffer_Release(&b[k]);
    return result;
}

/* ------------------------------------------------------------------------------------------ */

/* ------------------------------------------------------------------------------------------ */
/* ROUGE similarity, one query against many choices (_similarity.h; rouge_lcs/similarity.py)   */

#include "_similarity.h"

/* A C-contiguous buffer of signed integers of `item` bytes (numpy int32 / int64). */
static int sim_view(PyObject *obj, Py_ssize_t item, int writable, const char *name,
                    Py_buffer *view, Py_ssize_t *count) {
    int flags = PyBUF_FORMAT | PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) return 0;
    const char *f = view->format != NULL ? view->format : "B";
    if (*f == '@' || *f == '=' || *f == '<') f++;
    if (view->itemsize != item || f[1] != '\0' || strchr("bhilq", f[0]) == NULL) {
        PyErr_Format(PyExc_TypeError, "%s: expected a buffer of %zd-byte signed integers, got "
                     "format '%s'", name, item, view->format != NULL ? view->format : "B");
        return 0;
    }
    *count = view->len / item;
    return 1;
}

PyDoc_STRVAR(similarity_doc,
"similarity(q_ids, q_starts, row_query, ids, starts, cands, cand_lo, cand_hi, vocab, kind,\n"
"           measure, beta, floor, strict, k, workers, out_hits, out_index, out_count)\n"
"--\n\n"
"Score query row_query[r] (token ids q_ids[q_starts[q]:q_starts[q+1]]) against the choices\n"
"cands[cand_lo[r]:cand_hi[r]] (ids[starts[c]:starts[c+1]]) for every row r; see\n"
"_similarity.h.  kind 0 = LCS, 1 = clipped overlap; measure 0 = F, 1 = P, 2 = R; a pair is\n"
"kept when its score is > floor (strict) or >= floor.  k = 0: out_hits gets each pair's hits\n"
"(-1: pruned); k > 0: each row's k best (out_index, out_hits, out_count).  int32 ids, int64\n"
"everything else; every index and offset used is checked; the GIL is released.");

static PyObject *py_similarity(PyObject *self, PyObject *args) {
    PyObject *obj[11];
    Py_buffer b[11];
    Py_ssize_t len[11];
    static const char *names[11] = {"q_ids", "q_starts", "row_query", "ids", "starts", "cands",
                                    "cand_lo", "cand_hi", "out_hits", "out_index", "out_count"};
    Py_ssize_t vocab, k;
    int kind, measure, strict, workers;
    double beta, floor_;
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "OOOOOOOOniiddpniOOO", &obj[0], &obj[1], &obj[2], &obj[3],
                          &obj[4], &obj[5], &obj[6], &obj[7], &vocab, &kind, &measure, &beta,
                          &floor_, &strict, &k, &workers, &obj[8], &obj[9], &obj[10]))
        return NULL;
    PyObject *result = NULL;
    int64_t *out_start = NULL;
    for (int i = 0; i < 11; i++)
        if (!sim_view(obj[i], i == 0 || i == 3 ? 4 : 8, i >= 8, names[i], &b[i], &len[i]))
            goto done;
    if (vocab < 1 || vocab > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "vocab: expected 1 to %d, got %zd", INT32_MAX, vocab);
        goto done;
    }
    if ((kind != SIM_LCS && kind != SIM_OVERLAP) || measure < 0 || measure > 2) {
        PyErr_Format(PyExc_ValueError, "kind/measure: expected 0-1 / 0-2, got %d / %d", kind,
                     measure);
        goto done;
    }
    if (!(beta > 0) || !(beta * beta < HUGE_VAL) || floor_ != floor_ || k < 0 || k > (1 << 24) ||
        workers < 1 || workers > MAX_THREADS) {
        PyErr_SetString(PyExc_ValueError,
                        "similarity: expected beta > 0, a number floor, 0 <= k <= 2**24 and "
                        "1 <= workers <= 64");
        goto done;
    }
    const int32_t *q_ids = b[0].buf, *ids = b[3].buf;
    const int64_t *q_starts = b[1].buf, *row_query = b[2].buf, *starts = b[4].buf;
    const int64_t *cands = b[5].buf, *lo = b[6].buf, *hi = b[7].buf;
    Py_ssize_t rows = len[2], n_docs = len[4] - 1;
    if (!check_offsets(q_starts, len[1], len[0], "q_starts") ||
        !check_ids(q_ids, len[0], vocab, "q_ids") ||
        !check_index(row_query, rows, len[1] - 1, "row_query"))
        goto done;
    if (len[6] != rows || len[7] != rows || n_docs < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "cand_lo, cand_hi: expected one per row; starts: at least one offset");
        goto done;
    }
    out_start = malloc((size_t)(rows + 1) * sizeof(int64_t));
    if (out_start == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    out_start[0] = 0;
    for (Py_ssize_t r = 0; r < rows; r++) {
        if (lo[r] < 0 || lo[r] > hi[r] || hi[r] > len[5]) {
            PyErr_Format(PyExc_ValueError, "cand_lo, cand_hi: row %zd: range out of bounds", r);
            goto done;
        }
        for (int64_t j = lo[r]; j < hi[r]; j++) {
            int64_t c = cands[j];
            if (c < 0 || c >= n_docs || starts[c] < 0 || starts[c] > starts[c + 1] ||
                starts[c + 1] > len[3]) {
                PyErr_Format(PyExc_ValueError,
                             "cands: choice %lld out of range or with bad offsets",
                             (long long)c);
                goto done;
            }
        }
        out_start[r + 1] = out_start[r] + (hi[r] - lo[r]);
    }
    if (k == 0 ? len[8] != out_start[rows]
               : (len[8] != rows * k || len[9] != rows * k || len[10] != rows)) {
        PyErr_SetString(PyExc_ValueError, "out_hits, out_index, out_count: wrong sizes");
        goto done;
    }
    SimJob job = {q_ids, q_starts, row_query, ids, starts, cands, lo, hi, rows, vocab, kind,
                  measure, strict, beta * beta, floor_, k, b[8].buf, b[9].buf, b[10].buf,
                  out_start};
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = sim_run(&job, workers);
    Py_END_ALLOW_THREADS
    if (status == SIM_NO_MEMORY) {
        PyErr_NoMemory();
        goto done;
    }
    if (status == SIM_BAD_ID) {
        PyErr_SetString(PyExc_ValueError, "ids: token id out of range");
        goto done;
    }
    result = Py_NewRef(Py_None);
done:
    free(out_start);
    for (int i = 0; i < 11; i++)
        if (b[i].obj != NULL) PyBuffer_Release(&b[i]);
    return result;
}

/* ------------------------------------------------------------------------------------------ */
/* Punkt sentence boundaries (rouge_lcs/punkt.py in C)                                          */

#include "_punkt.h"

static PyMethodDef module_methods[] = {
    {"counts", py_counts, METH_VARARGS, counts_doc},
    {"similarity", py_similarity, METH_VARARGS, similarity_doc},
    {"porter_stem", py_porter_stem, METH_O, porter_doc},
    {"punkt_spans", py_punkt_spans, METH_VARARGS, punkt_spans_doc},
    {"punkt_class", py_punkt_class, METH_O,
     "punkt_class(code_point) -> bits of Punkt's classes: 1 \\s, 2 \\w, 4 \\d"},
    {"unicode_tokens", py_unicode_tokens, METH_VARARGS, unicode_tokens_doc},
    {"unicode_class", py_unicode_class, METH_O,
     "unicode_class(code_point) -> 0 separator, 1 word character, 2 a token by itself"},
    {"rouge155_tokens", py_rouge155_tokens, METH_VARARGS, rouge155_tokens_doc},
    {"rouge155_skip", py_rouge155_skip, METH_VARARGS, rouge155_skip_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native",
    "The compiled scoring core of rouge_lcs (see rouge_lcs/native.py).", -1, module_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    init_ascii_table();
    if (PyType_Ready(&EncoderType) < 0) return NULL;
    if (STR_LOWER == NULL && (STR_LOWER = PyUnicode_InternFromString("lower")) == NULL)
        return NULL;
    if (STR_NFKC == NULL && (STR_NFKC = PyUnicode_InternFromString("NFKC")) == NULL)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Encoder", (PyObject *)&EncoderType) < 0 ||
        PyModule_AddIntConstant(m, "MODE_ROUGE_SCORE", MODE_ROUGE_SCORE) < 0 ||
        PyModule_AddIntConstant(m, "MODE_UNICODE", MODE_UNICODE) < 0 ||
        PyModule_AddIntConstant(m, "MODE_PYTHON", MODE_PYTHON) < 0 ||
        PyModule_AddStringConstant(m, "UNICODE_TABLE_REGEX_VERSION",
                                   UNICODE_TABLE_REGEX_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
