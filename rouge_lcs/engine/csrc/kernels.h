/*
 * kernels.h: the counting kernels of rouge_lcs._native, on int32 token ids only.
 *
 * Everything here runs without the GIL: this file includes no Python.h, so it cannot touch a
 * Python object (tests/engine/native/test_native_sources.py compiles it alone, without Python's
 * headers).  py_counts.h checks every buffer and index before calling in, and releases the GIL
 * around run_shards.
 *
 *   ROUGE-N      ngram_hits: clipped n-gram matches, sum over n-grams of min(count_pred,
 *                count_ref) (rouge_lcs/engine/reference/ngrams.py).
 *   ROUGE-L      lcs_length: Hyyro's bit-parallel LCS, 64 cells per word operation.
 *   ROUGE-Lsum   lsum_hits: the union over a reference's sentences of the LCS that
 *                rouge_score's backtrack picks with each prediction sentence (union_lcs,
 *                union_lcs_word), clipped against the prediction's counts.  The backtrack is
 *                explained once, in rouge_lcs/engine/lcs.py's module docstring ("rouge_score's
 *                backtrack on bit rows"); this is its word-by-word version (the prefix parity).
 *   threads      Job / Shard / run_shards: one shard per thread, each with its own Workspace
 *                (scratch memory); a shard claims the next block of contiguous pairs from a
 *                shared counter until none is left (pairs differ in cost, so fixed ranges
 *                left one thread waiting), and writes each pair's counts at the pair's own
 *                place, so the counts never depend on threads.
 *   stopping     Control: a long call stops on request (Ctrl-C).  The kernels count their
 *                work (ws_tick) and, about every millisecond of it, read a shared stop flag;
 *                on the calling thread they also ask py_args.h's poll function (at most every
 *                POLL_MS: it re-takes the GIL to run PyErr_CheckSignals), which sets the flag.
 *
 * Memory stays linear in the input: the match masks are built per strip of at most
 * STRIP_WORDS words of the candidate (a carry bit per row links strips), and the bit rows that
 * the backtrack needs are recomputed block by block from sqrt-spaced checkpoints when storing
 * all of them would exceed ROW_BUDGET_WORDS.
 */
#ifndef ROUGE_LCS_KERNELS_H
#define ROUGE_LCS_KERNELS_H

/* clock_gettime under -std=c99 (in module.c, Python.h has defined it already); the headers
 * that include this one include it before any system header. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200112L
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lcs_step.h"


#ifdef _WIN32
#include <windows.h>
#else
#include <pthread.h>
#include <time.h>
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

/* ------------------------------------------------------------------------------------------ */
/* Stopping a long call                                                                        */
/*
 * A call of many seconds must stop within one when the user presses Ctrl-C.  Python runs its
 * signal handlers only on the main thread with the GIL, so the thread that released the GIL
 * (the "owner", which also runs task 0) calls `poll` now and then; a nonzero answer sets
 * `stop`, which every thread reads between pieces of work and then returns RUN_STOPPED (the
 * caller raises the exception that `poll` left set, and discards the half-filled output).
 */

/* wall-clock milliseconds between two calls of `poll` (it takes the GIL: not too often) */
#define POLL_MS 50
/* work units (about one word operation each) between two looks at the stop flag: ~1 ms */
#define POLL_TICKS ((int64_t)1 << 20)

enum { RUN_OK = 0, RUN_NO_MEMORY = 1, RUN_STOPPED = 2 };

typedef int (*PollFn)(void *ctx);
typedef struct {
    PollFn poll; /* called on the owner thread only; nonzero: stop */
    void *ctx;
    int stop;    /* read and written with relaxed atomics (LOAD_FLAG / STORE_FLAG) */
    int64_t last_ms;
#ifdef _WIN32
    DWORD owner;
#else
    pthread_t owner;
#endif
} Control;

#if defined(_MSC_VER)
#define LOAD_FLAG(p) (*(volatile int *)(p))
#define STORE_FLAG(p, v) (*(volatile int *)(p) = (v))
#define FETCH_ADD64(p, v) _InterlockedExchangeAdd64((volatile long long *)(p), (v))
#else
#define LOAD_FLAG(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE_FLAG(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
/* the value before the addition; relaxed: the counter only hands out disjoint ranges */
#define FETCH_ADD64(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#endif

static int64_t now_ms(void) {
#ifdef _WIN32
    return (int64_t)GetTickCount64();
#else
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
#endif
}

/* A control owned by the calling thread; poll may be NULL (then only `stop` stops). */
static void control_init(Control *c, PollFn poll, void *ctx) {
    c->poll = poll;
    c->ctx = ctx;
    c->stop = 0;
    c->last_ms = now_ms();
#ifdef _WIN32
    c->owner = GetCurrentThreadId();
#else
    c->owner = pthread_self();
#endif
}

/* 1 when the call is to stop (asking `poll` first when on the owner thread and it is time). */
static int control_stopped(Control *c) {
    if (c == NULL) return 0;
    if (LOAD_FLAG(&c->stop)) return 1;
#ifdef _WIN32
    int owner = c->owner == GetCurrentThreadId();
#else
    int owner = pthread_equal(c->owner, pthread_self());
#endif
    if (c->poll == NULL || !owner) return 0;
    int64_t now = now_ms();
    if (now - c->last_ms < POLL_MS) return 0;
    c->last_ms = now;
    if (c->poll(c->ctx)) {
        STORE_FLAG(&c->stop, 1);
        return 1;
    }
    return 0;
}

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
    int64_t *present; /* union_lcs_word: the reference rows whose token the candidate has */
    int64_t present_cap;
    uint64_t *present_masks; /* and that token's match mask */
    int64_t present_masks_cap;
    int64_t *slots;   /* n-gram hash table: first position of the n-gram, or -1 */
    int64_t slots_cap;
    int32_t *slot_count;
    int64_t slot_count_cap;
    int64_t *undo;    /* ngram_shared_ref: the counts one prediction took, given back after it */
    int64_t undo_cap;
    /* the mask table currently describes this candidate (single-strip candidates only) */
    const int32_t *table_for;
    int64_t table_len;
    Control *ctl;     /* stop requests (may be NULL) */
    int64_t ticks;    /* work since the last look at ctl */
    int failed;       /* RUN_NO_MEMORY or RUN_STOPPED: the shard ends */
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
    (grow((void **)&(ws)->field, &(ws)->cap, (need), sizeof(*(ws)->field)) || \
     ((ws)->failed = RUN_NO_MEMORY, 0))

/* Count `cost` units of work; about every POLL_TICKS of them, 1 (and ws->failed set) when the
 * call is to stop.  Cheap enough for a row loop: an addition and a compare. */
static inline int ws_tick(Workspace *ws, int64_t cost) {
    ws->ticks += cost;
    if (ws->ticks < POLL_TICKS) return 0;
    ws->ticks = 0;
    if (!control_stopped(ws->ctl)) return 0;
    ws->failed = RUN_STOPPED;
    return 1;
}

/* Each thread's workspace holds two vocabulary-sized tables (`local`, `count`: 8 bytes an id).
 * Together they may take at most this much, so memory stays bounded however many threads a
 * caller asks for on however large a vocabulary: past it, fewer threads run (the counts never
 * depend on the number of threads). */
#define WORKSPACE_BUDGET_BYTES ((int64_t)256 << 20)

/* The number of counting threads to run: `wanted`, capped by WORKSPACE_BUDGET_BYTES for this
 * vocabulary (at least 1). */
static int threads_within_budget(int wanted, int64_t vocab) {
    int64_t per_thread = (vocab > 0 ? vocab : 1) * 2 * (int64_t)sizeof(int32_t);
    int64_t fit = WORKSPACE_BUDGET_BYTES / per_thread;
    if (fit < 1) fit = 1;
    return wanted > fit ? (int)fit : wanted;
}

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

/* Grow a kept workspace's vocabulary tables to at least `vocab` ids, the new ids' entries as
 * the kernels keep them between pairs (local -1, count 0); 0 without memory (the tables then
 * still serve the ids they served). */
static int workspace_reserve(Workspace *ws, int64_t vocab) {
    if (vocab <= ws->vocab) return 1;
    int64_t n = vocab < 2 * ws->vocab ? 2 * ws->vocab : vocab;
    int32_t *local = realloc(ws->local, (size_t)n * sizeof(int32_t));
    if (local == NULL) return 0;
    ws->local = local;
    int32_t *count = realloc(ws->count, (size_t)n * sizeof(int32_t));
    if (count == NULL) return 0;
    ws->count = count;
    memset(local + ws->vocab, 0xff, (size_t)(n - ws->vocab) * sizeof(int32_t));
    memset(count + ws->vocab, 0, (size_t)(n - ws->vocab) * sizeof(int32_t));
    ws->vocab = n;
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
    free(ws->undo);
    free(ws->present);
    free(ws->present_masks);
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

static inline int same_ngram(const int32_t *a, const int32_t *b, int64_t n) {
    /* n is small (ROUGE-N's n): a loop the compiler keeps inline, where memcmp was a call
     * per probe (5% of a REALSumm run) */
    for (int64_t k = 0; k < n; k++)
        if (a[k] != b[k]) return 0;
    return 1;
}

/* ROUGE-2's bigrams: the two ids packed in one 64-bit key that the table itself holds (no
 * second look at the tokens), placed by a multiplicative (Fibonacci) hash's top bits.  The
 * ids are >= 0, so no key is -1, the empty slot.  Same counts as the general path. */

/* The table (ws->slots, counts in ws->slot_count) of the n_bigrams bigrams starting at
 * tokens; *mask and *shift place a key in it (bigram_slot).  0 when memory ran out. */
static int bigram_table(Workspace *ws, const int32_t *tokens, int64_t n_bigrams, uint64_t *mask,
                        int *shift) {
    int64_t size = 16;
    *shift = 60; /* 64 - log2(size) */
    while (size < 2 * n_bigrams) {
        size <<= 1;
        (*shift)--;
    }
    if (!GROW(ws, slots, slots_cap, size) || !GROW(ws, slot_count, slot_count_cap, size))
        return 0;
    int64_t *keys = ws->slots;
    int32_t *slot_count = ws->slot_count;
    *mask = (uint64_t)size - 1;
    for (int64_t s = 0; s < size; s++) keys[s] = -1;
    for (int64_t k = 0; k < n_bigrams; k++) {
        int64_t key = (int64_t)(((uint64_t)(uint32_t)tokens[k] << 32) | (uint32_t)tokens[k + 1]);
        uint64_t s = ((uint64_t)key * 0x9e3779b97f4a7c15ULL) >> *shift;
        for (;;) {
            if (keys[s] == key) {
                slot_count[s]++;
                break;
            }
            if (keys[s] < 0) {
                keys[s] = key;
                slot_count[s] = 1;
                break;
            }
            s = (s + 1) & *mask;
        }
    }
    return 1;
}

/* The slot of bigram (a, b) in bigram_table's table; -1 when it lacks it. */
static inline int64_t bigram_slot(const int64_t *keys, uint64_t mask, int shift, int32_t a,
                                  int32_t b) {
    int64_t key = (int64_t)(((uint64_t)(uint32_t)a << 32) | (uint32_t)b);
    uint64_t s = ((uint64_t)key * 0x9e3779b97f4a7c15ULL) >> shift;
    for (;;) {
        if (keys[s] == key) return (int64_t)s;
        if (keys[s] < 0) return -1;
        s = (s + 1) & mask;
    }
}

static int64_t bigram_hits(Workspace *ws, const int32_t *pred, int64_t lp, const int32_t *ref,
                           int64_t lr) {
    int64_t hits = 0;
    uint64_t mask;
    int shift;
    if (!bigram_table(ws, pred, lp - 1, &mask, &shift)) return 0;
    const int64_t *keys = ws->slots;
    int32_t *slot_count = ws->slot_count;
    for (int64_t k = 0; k < lr - 1; k++) {
        int64_t s = bigram_slot(keys, mask, shift, ref[k], ref[k + 1]);
        if (s >= 0 && slot_count[s] > 0) {
            hits++;
            slot_count[s]--;
        }
    }
    return hits;
}

/* The n-gram table of ROUGE-N and of the prefix counts (prefix.h): open addressing over the
 * `count` n-grams of t, in ws->slots / ws->slot_count; a slot keeps the first position of its
 * n-gram (compared by content) and how many copies the text has, which the other text's
 * n-grams then consume.  Returns the mask of the table's slots, 0 when memory ran out
 * (ws->failed set). */
static inline uint64_t ngram_table(Workspace *ws, const int32_t *t, int64_t count, int64_t n) {
    int64_t size = 16;
    while (size < 2 * count) size <<= 1;
    if (!GROW(ws, slots, slots_cap, size)) return 0;
    if (!GROW(ws, slot_count, slot_count_cap, size)) return 0;
    int64_t *slots = ws->slots;
    int32_t *slot_count = ws->slot_count;
    uint64_t mask = (uint64_t)size - 1;
    for (int64_t s = 0; s < size; s++) slots[s] = -1;
    for (int64_t k = 0; k < count; k++) {
        uint64_t s = ngram_hash(t + k, n) & mask;
        for (;;) {
            int64_t at = slots[s];
            if (at < 0) {
                slots[s] = k;
                slot_count[s] = 1;
                break;
            }
            if (same_ngram(t + at, t + k, n)) {
                slot_count[s]++;
                break;
            }
            s = (s + 1) & mask;
        }
    }
    return mask;
}

/* The slot of `gram` in ngram_table's table of t (with its mask), -1 when t lacks it. */
static inline int64_t ngram_slot(const Workspace *ws, uint64_t mask, const int32_t *t,
                                 const int32_t *gram, int64_t n) {
    uint64_t s = ngram_hash(gram, n) & mask;
    for (;;) {
        int64_t at = ws->slots[s];
        if (at < 0) return -1;
        if (same_ngram(t + at, gram, n)) return (int64_t)s;
        s = (s + 1) & mask;
    }
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
    if (n == 2) return bigram_hits(ws, pred, lp, ref, lr);
    uint64_t mask = ngram_table(ws, pred, np_, n); /* the prediction's n-grams */
    if (mask == 0) return 0;
    int32_t *slot_count = ws->slot_count;
    for (int64_t k = 0; k < nr; k++) {
        int64_t s = ngram_slot(ws, mask, pred, ref + k, n);
        if (s >= 0 && slot_count[s] > 0) {
            hits++;
            slot_count[s]--;
        }
    }
    return hits;
}

/* ------------------------------------------------------------------------------------------ */
/* Bit-parallel LCS rows: the step is lcs_step.h's (one definition, explained there)             */

/* Build the mask table of candidate positions [p0, p1) (words w0 = p0 / 64 ...). */
static int build_masks(Workspace *ws, const int32_t *cand, int64_t p0, int64_t p1,
                       int64_t *n_local) {
    int64_t sw = (p1 - p0 + 63) / 64, a = 0;
    if (!GROW(ws, masks, masks_cap, (p1 - p0) * sw)) return 0;
    int32_t *local = ws->local;
    uint64_t *masks = ws->masks;
    for (int64_t p = p0; p < p1; p++) {
        int32_t t = cand[p], l = local[t];
        if (l < 0) {
            l = local[t] = (int32_t)a++;
            /* a loop, not memset: a row is a word or two nearly always, and the call per
             * distinct token was a visible part of ROUGE-Lsum's time */
            for (int64_t w = 0; w < sw; w++) masks[l * sw + w] = 0;
        }
        masks[l * sw + ((p - p0) >> 6)] |= (uint64_t)1 << ((p - p0) & 63);
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
 * is not NULL, row k + 1 is written at store + (k + 1) * W and the starting row at store; when
 * `ones` is not NULL, the set bits of row k + 1 are added to ones[k * stride] (prefix.h: every
 * row's count without storing the rows).  Candidates longer than one strip are processed strip
 * by strip with a carry bit per row.
 */
static int walk_rows(Workspace *ws, const int32_t *cand, int64_t n, const int32_t *rtok,
                     int64_t nrows, uint64_t *vec, uint64_t *store, int64_t *ones,
                     int64_t stride) {
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
                    uint64_t carry = 0;
                    v = lcs_step(v, masks[l], &carry) & top;
                }
                if (store != NULL) store[k + 1] = v;
                if (ones != NULL) ones[k * stride] += popcount64(v);
            }
            vec[0] = v;
            return !ws_tick(ws, nrows);
        }
        for (int64_t k = 0; k < nrows; k++) {
            int32_t l = local[rtok[k]];
            if (l >= 0) {
                const uint64_t *m = masks + (int64_t)l * W;
                uint64_t carry = 0;
                for (int64_t w = 0; w < W; w++) vec[w] = lcs_step(vec[w], m[w], &carry);
                vec[W - 1] &= top;
            }
            if (store != NULL) memcpy(store + (k + 1) * W, vec, (size_t)W * sizeof(uint64_t));
            if (ones != NULL)
                for (int64_t w = 0; w < W; w++) ones[k * stride] += popcount64(vec[w]);
            if (ws_tick(ws, W)) return 0;
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
                for (int64_t w = w0; w < w1; w++)
                    vec[w] = lcs_step(vec[w], m != NULL ? m[w - w0] : 0, &carry);
                if (w1 == W) vec[W - 1] &= top;
                carries[k] = (uint8_t)carry;
            }
            if (store != NULL)
                memcpy(store + (k + 1) * W + w0, vec + w0, (size_t)sw * sizeof(uint64_t));
            if (ones != NULL)
                for (int64_t w = w0; w < w1; w++) ones[k * stride] += popcount64(vec[w]);
            if (ws_tick(ws, sw)) {
                clear_masks(ws, cand, p0, p1);
                return 0;
            }
        }
        clear_masks(ws, cand, p0, p1);
    }
    return 1;
}

static int advance_rows(Workspace *ws, const int32_t *cand, int64_t n, const int32_t *rtok,
                        int64_t nrows, uint64_t *vec, uint64_t *store) {
    return walk_rows(ws, cand, n, rtok, nrows, vec, store, NULL, 0);
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
 * _backtrack_norec picks.  The walk is explained once, in rouge_lcs/engine/lcs.py's module
 * docstring ("rouge_score's backtrack on bit rows"): here in its prefix-parity form on 64-bit
 * words, the parity of the lower words carried in (`below`).  Stops are match | ~parity, cut
 * to the low j bits; the highest one is the column.  Returns 0 on allocation failure.
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
            if (ws_tick(ws, wj + 1)) return 0;
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
 * the row in a register, the match masks from the candidate's table (the same walk, see
 * rouge_lcs/engine/lcs.py's module docstring). */
static int union_lcs_word(Workspace *ws, const int32_t *ref, int64_t m, const int32_t *cand,
                          int64_t n, uint8_t *flags) {
    if (!table_for(ws, cand, n)) return 0;
    if (!GROW(ws, rows, rows_cap, m + 1) || !GROW(ws, present, present_cap, m) ||
        !GROW(ws, present_masks, present_masks_cap, m))
        return 0;
    const int32_t *local = ws->local;
    const uint64_t *masks = ws->masks;
    /* Only the rows of tokens the candidate has are kept: a row of another token equals the
     * row before it, where the walk back just steps up (its stops are every column below j,
     * the highest is j - 1, no match: j stays) -- and most reference tokens are not in a
     * given prediction sentence. */
    uint64_t *rows = ws->rows, *pmasks = ws->present_masks;
    int64_t *present = ws->present, kept = 0;
    uint64_t full = n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1), v = full;
    rows[0] = v;
    for (int64_t i = 0; i < m; i++) {
        int32_t l = local[ref[i]];
        if (l >= 0) {
            uint64_t carry = 0;
            v = lcs_step(v, masks[l], &carry) & full;
            present[kept] = i;
            pmasks[kept] = masks[l];
            rows[++kept] = v; /* rows[k]: after the k-th kept row; rows[0]: the start */
        }
    }
    int64_t length = n - popcount64(v), found = 0, k = kept, j = n;
    while (k > 0 && j > 0 && found < length) {
        uint64_t match = pmasks[k - 1];
        uint64_t stops = (match | ~prefix_parity(rows[k - 1] ^ rows[k]));
        if (j < 64) stops &= ((uint64_t)1 << j) - 1;
        if (!stops) break;
        int p = highest_bit(stops);
        k--;
        if (match >> p & 1) {
            j = p;
            flags[present[k]] = 1;
            found++;
        } else {
            j = p + 1;
        }
    }
    return !ws_tick(ws, m);
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
    Control *ctl;              /* stop requests (may be NULL) */
    int64_t n_pairs;
    int64_t block;             /* pairs a shard claims at a time (>= 1) */
    int64_t *next;             /* the first unclaimed pair, shared (FETCH_ADD64) */
} Job;

typedef struct {
    const Job *job;
    int status;           /* RUN_OK, RUN_NO_MEMORY or RUN_STOPPED */
} Shard;

/* Pairs per claim for n_pairs on n threads: about 32 claims a thread, so the last block
 * leaves the others idle for ~3% of a thread's share at most; one pair per block on few
 * pairs, at most 256 (a claim is one atomic addition). */
static int64_t shard_block(int64_t n_pairs, int n) {
    int64_t block = n_pairs / ((int64_t)n * 32);
    return block < 1 ? 1 : block > 256 ? 256 : block;
}

/*
 * ROUGE-N counts of type t (n-grams of n) for pairs [k0, k1) of `job`, which share the
 * reference rt of lr tokens (a GRPO group), into job->out; 0 with ws->failed set when memory
 * ran out.  The clipped matches, sum over n-grams of min(count in prediction, count in
 * reference), are symmetric: the table holds the reference's n-grams, built once for the
 * group (ngram_hits built one over each prediction), and each prediction's n-grams take from
 * its counts; what a prediction took is logged and given back before the next one.
 */
static int ngram_shared_ref(Workspace *ws, const Job *job, int64_t k0, int64_t k1, int64_t t,
                            const int32_t *rt, int64_t lr, int64_t n) {
    int64_t nr = lr - n + 1;
    if (nr < 1) nr = 0;
    uint64_t mask = 0;
    int shift = 60;
    int32_t *count = ws->count;
    if (n == 1) {
        for (int64_t k = 0; k < lr; k++) count[rt[k]]++;
    } else if (n == 2) {
        if (nr > 0 && !bigram_table(ws, rt, nr, &mask, &shift)) return 0;
    } else if (nr > 0) {
        mask = ngram_table(ws, rt, nr, n);
        if (mask == 0) return 0;
    }
    int ok = 1;
    for (int64_t k = k0; k < k1; k++) {
        int64_t p = job->pair_pred[k];
        const int32_t *pt = job->tokens + job->doc_start[p];
        int64_t lp = job->doc_start[p + 1] - job->doc_start[p], np_ = lp - n + 1, hits = 0;
        if (np_ < 0) np_ = 0;
        int64_t *o = job->out + (k * job->n_types + t) * 3;
        o[1] = np_;
        o[2] = nr;
        if (nr == 0 || np_ == 0) {
            o[0] = 0;
            continue;
        }
        if (!GROW(ws, undo, undo_cap, np_)) {
            ok = 0;
            break;
        }
        int64_t *undo = ws->undo;
        if (n == 1) {
            for (int64_t j = 0; j < lp; j++) {
                int32_t id = pt[j];
                if (count[id] > 0) {
                    count[id]--;
                    undo[hits++] = id;
                }
            }
            for (int64_t j = 0; j < hits; j++) count[undo[j]]++;
        } else {
            int32_t *slot_count = ws->slot_count;
            for (int64_t j = 0; j < np_; j++) {
                int64_t s = n == 2 ? bigram_slot(ws->slots, mask, shift, pt[j], pt[j + 1])
                                   : ngram_slot(ws, mask, rt, pt + j, n);
                if (s >= 0 && slot_count[s] > 0) {
                    slot_count[s]--;
                    undo[hits++] = s;
                }
            }
            for (int64_t j = 0; j < hits; j++) slot_count[undo[j]]++;
        }
        o[0] = hits;
        if (ws_tick(ws, lp)) {
            ok = 0;
            break;
        }
    }
    if (n == 1)
        for (int64_t k = 0; k < lr; k++) count[rt[k]] = 0; /* kept all 0 between pairs */
    return ok;
}

/*
 * ROUGE-L of predictions that share one reference of at most 128 tokens (a GRPO group: the
 * same reference for every completion of a prompt; token ids from a trainer).  The LCS length
 * is symmetric, so the bits go over the reference here: its mask table is built once for the
 * group (walk_rows built the table over each prediction), and each prediction's tokens walk a
 * row of one or two words.  Four predictions are walked together: each row depends on the row
 * before (an addition's carry chain), and four independent chains keep the core busy where
 * one waited on each step.  A token the reference lacks steps with a zero mask (the row stays
 * as it is) instead of a branch on every token.
 */
/* One row step of a 1- or 2-word row (W a constant where it is inlined) with the mask words
 * of the token's row in a table of W-word rows: row 0 (always there) anded with zero for a
 * token the table lacks, so no branch (the compiler made a branch of a conditional row, and
 * mispredicted it on about half the tokens). */
static inline void lcs_step_w(uint64_t *v0, uint64_t *v1, const int32_t *local,
                              const uint64_t *masks, int32_t t, uint64_t top, int W) {
    int32_t l = local[t];
    uint64_t keep = (uint64_t)0 - (uint64_t)(l >= 0); /* all ones when l >= 0, else 0 */
    const uint64_t *m = masks + ((uint64_t)(int64_t)l & keep) * (uint64_t)W; /* l, or 0 */
    uint64_t carry = 0;
    if (W == 1) {
        *v0 = lcs_step(*v0, m[0] & keep, &carry) & top;
        return;
    }
    uint64_t a = lcs_step(*v0, m[0] & keep, &carry);
    *v1 = lcs_step(*v1, m[1] & keep, &carry) & top;
    *v0 = a;
}

/* The LCS lengths of the predictions preds[0..count) (lengths lens) against the reference
 * whose table of W-word rows (n tokens, `top` its last word's bits) is built: into out[j]. */
static inline void lcs_against_table(const int32_t *local, const uint64_t *masks, int64_t n,
                                     uint64_t top, int W, const int32_t *const *preds,
                                     const int64_t *lens, int64_t count, int64_t *out) {
    uint64_t full0 = W == 1 ? top : ~(uint64_t)0, full1 = W == 1 ? 0 : top;
    int64_t j = 0;
    for (; j + 4 <= count; j += 4) {
        uint64_t a0 = full0, a1 = full1, b0 = full0, b1 = full1;
        uint64_t c0 = full0, c1 = full1, d0 = full0, d1 = full1;
        const int32_t *pa = preds[j], *pb = preds[j + 1], *pc = preds[j + 2], *pd = preds[j + 3];
        int64_t la = lens[j], lb = lens[j + 1], lc = lens[j + 2], ld = lens[j + 3];
        int64_t common = la < lb ? la : lb;
        if (lc < common) common = lc;
        if (ld < common) common = ld;
        for (int64_t k = 0; k < common; k++) {
            lcs_step_w(&a0, &a1, local, masks, pa[k], top, W);
            lcs_step_w(&b0, &b1, local, masks, pb[k], top, W);
            lcs_step_w(&c0, &c1, local, masks, pc[k], top, W);
            lcs_step_w(&d0, &d1, local, masks, pd[k], top, W);
        }
        for (int64_t k = common; k < la; k++)
            lcs_step_w(&a0, &a1, local, masks, pa[k], top, W);
        for (int64_t k = common; k < lb; k++)
            lcs_step_w(&b0, &b1, local, masks, pb[k], top, W);
        for (int64_t k = common; k < lc; k++)
            lcs_step_w(&c0, &c1, local, masks, pc[k], top, W);
        for (int64_t k = common; k < ld; k++)
            lcs_step_w(&d0, &d1, local, masks, pd[k], top, W);
        out[j] = n - popcount64(a0) - popcount64(a1);
        out[j + 1] = n - popcount64(b0) - popcount64(b1);
        out[j + 2] = n - popcount64(c0) - popcount64(c1);
        out[j + 3] = n - popcount64(d0) - popcount64(d1);
    }
    for (; j < count; j++) {
        uint64_t v0 = full0, v1 = full1;
        for (int64_t k = 0; k < lens[j]; k++)
            lcs_step_w(&v0, &v1, local, masks, preds[j][k], top, W);
        out[j] = n - popcount64(v0) - popcount64(v1);
    }
}

/* Predictions walked against one shared reference table at a time (lcs_shared_ref). */
#define LCS_GROUP 16

/* ROUGE-L counts of type t for pairs [k0, k1) of `job`, which share the reference rt of n
 * tokens (1 <= n <= 128), into job->out; 0 with ws->failed set when memory ran out. */
static int lcs_shared_ref(Workspace *ws, const Job *job, int64_t k0, int64_t k1, int64_t t,
                          const int32_t *rt, int64_t n) {
    if (!table_for(ws, rt, n)) return 0;
    int W = n > 64 ? 2 : 1;
    uint64_t top = (n & 63) ? (((uint64_t)1 << (n & 63)) - 1) : ~(uint64_t)0;
    const int32_t *preds[LCS_GROUP];
    int64_t lens[LCS_GROUP], lcs[LCS_GROUP];
    for (int64_t k = k0; k < k1; k += LCS_GROUP) {
        int64_t count = k1 - k < LCS_GROUP ? k1 - k : LCS_GROUP, work = 0;
        for (int64_t j = 0; j < count; j++) {
            int64_t p = job->pair_pred[k + j];
            preds[j] = job->tokens + job->doc_start[p];
            lens[j] = job->doc_start[p + 1] - job->doc_start[p];
            work += lens[j] * W;
        }
        if (W == 1)
            lcs_against_table(ws->local, ws->masks, n, top, 1, preds, lens, count, lcs);
        else
            lcs_against_table(ws->local, ws->masks, n, top, 2, preds, lens, count, lcs);
        for (int64_t j = 0; j < count; j++) {
            int64_t *o = job->out + ((k + j) * job->n_types + t) * 3;
            o[0] = lcs[j];
            o[1] = lens[j];
            o[2] = n;
        }
        if (ws_tick(ws, work)) return 0;
    }
    return 1;
}

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
            if (!ok) {
                release_table(ws);
                return -1;
            }
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

/* The counts of pairs [first, last) of the job, on this shard's workspace: type by type over
 * the block, so that a mask table survives from one pair to the next (a ROUGE-L table over a
 * reference that consecutive pairs share, which ROUGE-Lsum's tables evicted pair by pair). */
static void shard_pairs(const Job *job, Workspace *ws, int64_t first, int64_t last) {
    for (int64_t t = 0; t < job->n_types && !ws->failed; t++) {
        int64_t kind = job->types[2 * t], n = job->types[2 * t + 1];
        for (int64_t k = first; k < last && !ws->failed; k++) {
            int64_t p = job->pair_pred[k], r = job->pair_ref[k];
            const int32_t *pt = job->tokens + job->doc_start[p];
            const int32_t *rt = job->tokens + job->doc_start[r];
            int64_t lp = job->doc_start[p + 1] - job->doc_start[p];
            int64_t lr = job->doc_start[r + 1] - job->doc_start[r];
            int64_t *o = job->out + (k * job->n_types + t) * 3;
            if (kind == KIND_N) {
                /* a run of pairs sharing a reference: its n-gram table built once */
                int64_t end = k + 1;
                while (end < last && job->pair_ref[end] == r) end++;
                if (end - k > 1) {
                    if (!ngram_shared_ref(ws, job, k, end, t, rt, lr, n) && !ws->failed)
                        ws->failed = RUN_NO_MEMORY;
                    k = end - 1;
                    continue;
                }
                o[0] = ngram_hits(ws, pt, lp, rt, lr, n);
                o[1] = lp - n + 1 > 0 ? lp - n + 1 : 0;
                o[2] = lr - n + 1 > 0 ? lr - n + 1 : 0;
            } else if (kind == KIND_L) {
                /* a run of pairs sharing a short reference: its table built once */
                int64_t end = k + 1;
                while (end < last && job->pair_ref[end] == r) end++;
                if (end - k > 1 && lr >= 1 && lr <= 128) {
                    if (!lcs_shared_ref(ws, job, k, end, t, rt, lr) && !ws->failed)
                        ws->failed = RUN_NO_MEMORY;
                    k = end - 1;
                    continue;
                }
                o[0] = lcs_length(ws, rt, lr, pt, lp);
                if (o[0] < 0 && !ws->failed) ws->failed = RUN_NO_MEMORY;
                o[1] = lp;
                o[2] = lr;
            } else {
                o[0] = lsum_hits(ws, job, p, r);
                if (o[0] < 0 && !ws->failed) ws->failed = RUN_NO_MEMORY;
                o[1] = job->sent_start[job->doc_sent[p + 1]] - job->sent_start[job->doc_sent[p]];
                o[2] = job->sent_start[job->doc_sent[r + 1]] - job->sent_start[job->doc_sent[r]];
            }
            ws_tick(ws, lp + lr);
        }
    }
}

static int shard_run(Shard *shard) {
    const Job *job = shard->job;
    Workspace ws;
    if (!workspace_init(&ws, job->vocab)) {
        workspace_free(&ws);
        return RUN_NO_MEMORY;
    }
    ws.ctl = job->ctl;
    for (;;) {
        int64_t first = FETCH_ADD64(job->next, job->block);
        if (first >= job->n_pairs || ws.failed) break;
        int64_t last = first + job->block < job->n_pairs ? first + job->block : job->n_pairs;
        shard_pairs(job, &ws, first, last);
    }
    int status = ws.failed;
    workspace_free(&ws);
    return status;
}

/* Threads: task 0 runs on the calling thread, the others each on a thread of its own (or
 * here, when a thread cannot start).  Shared by the counting and the similarity kernels. */
#define MAX_THREADS 64
typedef void (*TaskFn)(void *task);

/* What the calling thread waits on: the started threads that have not finished yet. */
typedef struct {
    int remaining;
#ifndef _WIN32
    pthread_mutex_t lock;
    pthread_cond_t done;
#endif
} Waiter;

typedef struct {
    TaskFn fn;
    void *task;
    Waiter *waiter; /* NULL when the task runs on the calling thread */
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
    if (t->waiter != NULL) {
        pthread_mutex_lock(&t->waiter->lock);
        t->waiter->remaining--;
        pthread_cond_signal(&t->waiter->done);
        pthread_mutex_unlock(&t->waiter->lock);
    }
    return NULL;
}
#endif

/* Run fn on each of the n (<= MAX_THREADS) tasks of `size` bytes at `tasks`, in parallel.
 * With a Control, the calling thread waits for the others in slices of POLL_MS and asks it
 * between slices (control_stopped), so that a stop request is seen while task 0 is done but
 * other threads still run; the tasks themselves read the flag it sets. */
static void run_parallel_polled(TaskFn fn, void *tasks, size_t size, int n, Control *ctl) {
    if (n < 1) return; /* nothing to run (and task 0 would be unset) */
#ifdef _WIN32
    HANDLE handles[MAX_THREADS];
#else
    pthread_t handles[MAX_THREADS];
#endif
    Task items[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    Waiter waiter;
    waiter.remaining = 0;
#ifndef _WIN32
    int waiting = ctl != NULL && n > 1 && pthread_mutex_init(&waiter.lock, NULL) == 0;
    if (waiting && pthread_cond_init(&waiter.done, NULL) != 0) {
        pthread_mutex_destroy(&waiter.lock);
        waiting = 0;
    }
#endif
    for (int k = 0; k < n; k++) {
        items[k].fn = fn;
        items[k].task = (char *)tasks + (size_t)k * size;
        items[k].waiter = NULL;
    }
    for (int k = 1; k < n; k++) {
#ifdef _WIN32
        handles[k] = CreateThread(NULL, 0, task_thread, &items[k], 0, NULL);
        started[k] = handles[k] != NULL;
#else
        if (waiting) {
            items[k].waiter = &waiter;
            pthread_mutex_lock(&waiter.lock);
            waiter.remaining++;
            pthread_mutex_unlock(&waiter.lock);
        }
        started[k] = pthread_create(&handles[k], NULL, task_thread, &items[k]) == 0;
        if (!started[k] && waiting) {
            items[k].waiter = NULL;
            pthread_mutex_lock(&waiter.lock);
            waiter.remaining--;
            pthread_mutex_unlock(&waiter.lock);
        }
#endif
        if (!started[k]) task_thread(&items[k]); /* no thread: run it here */
    }
    task_thread(&items[0]);
#ifdef _WIN32
    if (ctl != NULL) {
        HANDLE live[MAX_THREADS];
        int count = 0;
        for (int k = 1; k < n; k++)
            if (started[k]) live[count++] = handles[k];
        while (count > 0 &&
               WaitForMultipleObjects((DWORD)count, live, TRUE, POLL_MS) == WAIT_TIMEOUT)
            control_stopped(ctl);
    }
#else
    if (waiting) {
        pthread_mutex_lock(&waiter.lock);
        while (waiter.remaining > 0) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += (long)POLL_MS * 1000000L;
            if (until.tv_nsec >= 1000000000L) {
                until.tv_sec += 1;
                until.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&waiter.done, &waiter.lock, &until);
            if (waiter.remaining > 0) {
                pthread_mutex_unlock(&waiter.lock); /* poll may take the GIL: not under it */
                control_stopped(ctl);
                pthread_mutex_lock(&waiter.lock);
            }
        }
        pthread_mutex_unlock(&waiter.lock);
    }
#endif
    for (int k = 1; k < n; k++) {
        if (!started[k]) continue;
#ifdef _WIN32
        WaitForSingleObject(handles[k], INFINITE);
        CloseHandle(handles[k]);
#else
        pthread_join(handles[k], NULL);
#endif
    }
#ifndef _WIN32
    if (waiting) {
        pthread_cond_destroy(&waiter.done);
        pthread_mutex_destroy(&waiter.lock);
    }
#endif
}

/* The threads worth starting for `work` units when each should have `per_thread` at least:
 * `threads` capped at MAX_THREADS and at work / per_thread + 1, and at least 1. */
static inline int threads_for(int threads, int64_t work, int64_t per_thread) {
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    if ((int64_t)threads > work / per_thread + 1) threads = (int)(work / per_thread + 1);
    return threads < 1 ? 1 : threads;
}

/* Where part t of `parts` contiguous ranges of about equal weight ends, the part starting at
 * item k of n: once the running weight *seen reaches total * (t + 1) / parts (the last part
 * takes the rest).  weight(ctx, k) is item k's weight. */
static int64_t range_end(int64_t k, int64_t n, int t, int parts, int64_t total, int64_t *seen,
                         int64_t (*weight)(const void *ctx, int64_t k), const void *ctx) {
    int64_t goal = total * (t + 1) / parts;
    while (k < n && (*seen < goal || t == parts - 1)) *seen += weight(ctx, k++);
    return k;
}

/* run_parallel_polled without stop requests. */
static void run_parallel(TaskFn fn, void *tasks, size_t size, int n) {
    run_parallel_polled(fn, tasks, size, n, NULL);
}

static void shard_task(void *arg) {
    Shard *shard = (Shard *)arg;
    shard->status = shard_run(shard);
}

/* Run the shards: RUN_OK, else RUN_STOPPED if any stopped, else RUN_NO_MEMORY. */
static int run_shards(Shard *shards, int n) {
    const Job *job = shards[0].job;
    run_parallel_polled(shard_task, shards, sizeof(Shard), n, job->ctl);
    int status = RUN_OK;
    for (int k = 0; k < n; k++)
        if (shards[k].status > status) status = shards[k].status;
    return status;
}

#endif /* ROUGE_LCS_KERNELS_H */
