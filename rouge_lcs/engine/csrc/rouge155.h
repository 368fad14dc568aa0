/*
 * rouge155.h: the kernels of the ROUGE-1.5.5 mode (rouge_lcs/rouge155), apart from the core.
 *
 *   r155_read     ROUGE-1.5.5's token reader (rouge_lcs/rouge155/tokenize.py, flat_terms): the
 *                 tokens of many summaries at once, interned by first occurrence.  A token is a
 *                 maximal run of ASCII [a-z0-9] bytes (A-Z lower-cased first when `lower`;
 *                 otherwise they separate tokens, like every other byte); each "\n" ends a line.
 *   skip_counts   ROUGE-S/SU's clipped skip-bigram counts (the script's createSkipBigram), in
 *                memory linear in the input (the units themselves are never stored).
 *
 * Pure C on bytes and int32 ids, no Python.h (tests/engine/native/test_native_sources.py compiles it alone):
 * py_rouge155.h checks the arguments, builds the Python objects and releases the GIL around
 * skip_counts.  mix64 comes from kernels.h.
 */
#ifndef ROUGE_LCS_ROUGE155_H
#define ROUGE_LCS_ROUGE155_H

#include "kernels.h" /* first: it sets the POSIX feature macro; mix64, Control */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { R155_OK = 0, R155_NO_MEMORY = 1, R155_TOKEN_TOO_LONG = 2, R155_TOO_MANY_TOKENS = 3 };

/* The reader's output: ids[0..n_ids) (token numbers, -1 for each "\n") and the distinct tokens
 * as (start, length) in text (the lower-cased copy of the input). */
typedef struct {
    unsigned char *text;
    int32_t *ids;
    int64_t n_ids;
    int64_t *tok_start;
    int32_t *tok_len;
    uint64_t *tok_hash;
    int64_t n_tokens;
} R155Tokens;

static void r155_free(R155Tokens *r) {
    free(r->text);
    free(r->ids);
    free(r->tok_start);
    free(r->tok_len);
    free(r->tok_hash);
    memset(r, 0, sizeof(*r));
}

/* Read the tokens of src[0..n); returns R155_OK or an error code (r is then freed). */
static int r155_read(const unsigned char *src, int64_t n, int lower, R155Tokens *r) {
    memset(r, 0, sizeof(*r));
    int status = R155_NO_MEMORY;
    /* distinct tokens: start, length and hash; open-addressing table of their numbers */
    int64_t cap = 64, size = 128, n_tokens = 0;
    int32_t *slots = NULL;
    if (n < 0 || (uint64_t)n > SIZE_MAX / sizeof(int32_t)) goto fail;
    r->text = malloc((size_t)(n > 0 ? n : 1));
    r->ids = malloc((size_t)(n > 0 ? n : 1) * sizeof(int32_t));
    r->tok_start = malloc((size_t)cap * sizeof(int64_t));
    r->tok_len = malloc((size_t)cap * sizeof(int32_t));
    r->tok_hash = malloc((size_t)cap * sizeof(uint64_t));
    slots = malloc((size_t)size * sizeof(int32_t));
    if (!r->text || !r->ids || !r->tok_start || !r->tok_len || !r->tok_hash || !slots) goto fail;
    memset(slots, 0xff, (size_t)size * sizeof(int32_t));
    unsigned char *text = r->text;
    int32_t *ids = r->ids;
    for (int64_t k = 0; k < n; k++) {
        unsigned char c = src[k];
        text[k] = lower && c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
    }
    int64_t n_ids = 0, k = 0;
    while (k < n) {
        unsigned char c = text[k];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
            if (c == '\n') ids[n_ids++] = -1;
            k++;
            continue;
        }
        int64_t start = k;
        uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
        while (k < n && ((text[k] >= 'a' && text[k] <= 'z') || (text[k] >= '0' && text[k] <= '9'))) {
            h = (h ^ text[k]) * 0x100000001b3ULL;
            k++;
        }
        int64_t len = k - start;
        if (len > INT32_MAX) {
            status = R155_TOKEN_TOO_LONG;
            goto fail;
        }
        uint64_t mask = (uint64_t)size - 1, s = h & mask;
        int32_t found = -1;
        while (slots[s] >= 0) {
            int32_t t = slots[s];
            if (r->tok_hash[t] == h && r->tok_len[t] == len &&
                memcmp(text + r->tok_start[t], text + start, (size_t)len) == 0) {
                found = t;
                break;
            }
            s = (s + 1) & mask;
        }
        if (found < 0) {
            if (n_tokens == INT32_MAX) {
                status = R155_TOO_MANY_TOKENS;
                goto fail;
            }
            if (n_tokens == cap) {
                int64_t new_cap = cap * 2;
                int64_t *a = realloc(r->tok_start, (size_t)new_cap * sizeof(int64_t));
                if (a) r->tok_start = a;
                int32_t *b = realloc(r->tok_len, (size_t)new_cap * sizeof(int32_t));
                if (b) r->tok_len = b;
                uint64_t *c2 = realloc(r->tok_hash, (size_t)new_cap * sizeof(uint64_t));
                if (c2) r->tok_hash = c2;
                if (!a || !b || !c2) goto fail;
                cap = new_cap;
            }
            found = (int32_t)n_tokens++;
            r->tok_start[found] = start;
            r->tok_len[found] = (int32_t)len;
            r->tok_hash[found] = h;
            slots[s] = found;
            if (2 * n_tokens > size) { /* keep the table at most half full */
                int64_t new_size = size * 2;
                int32_t *grown = malloc((size_t)new_size * sizeof(int32_t));
                if (!grown) goto fail;
                memset(grown, 0xff, (size_t)new_size * sizeof(int32_t));
                uint64_t new_mask = (uint64_t)new_size - 1;
                for (int64_t t = 0; t < n_tokens; t++) {
                    uint64_t q = r->tok_hash[t] & new_mask;
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
    r->n_ids = n_ids;
    r->n_tokens = n_tokens;
    free(slots);
    return R155_OK;
fail:
    free(slots);
    r155_free(r);
    return status;
}

/* The unit count of a document of n tokens, saturated at INT64_MAX. */
static int64_t skip_unit_count(int64_t n, int64_t skip, int unigrams) {
    int64_t count = 0;
    for (int64_t i = 0; i + 1 < n; i++) {
        int64_t end = skip < 0 || i + skip + 2 > n ? n : i + skip + 2;
        int64_t add = end - i - 1 + (unigrams ? 1 : 0);
        if (count > INT64_MAX - add) return INT64_MAX;
        count += add;
    }
    return count;
}

/* Dense ids: `tokens` as they are when their largest id is below 2 * n + 64 (the reader's and
 * the Encoder's ids are dense), else renumbered by first occurrence into a copy, so that the
 * per-id arrays of skip_counts stay linear in the input whatever ids a caller passes.  Sets
 * *dense (a copy to free, or NULL) and *vocab; 0 when memory runs out. */
static int skip_dense_ids(const int32_t *tokens, int64_t n, int32_t **dense, int64_t *vocab) {
    int64_t top = -1;
    for (int64_t k = 0; k < n; k++)
        if (tokens[k] > top) top = tokens[k];
    *dense = NULL;
    if (top < 2 * n + 64) {
        *vocab = top + 1;
        return 1;
    }
    int64_t size = 16;
    while (size < 2 * n) size <<= 1;
    int32_t *key = malloc((size_t)size * sizeof(int32_t)), *value = NULL;
    int32_t *out = malloc((size_t)(n > 0 ? n : 1) * sizeof(int32_t));
    if (key) value = malloc((size_t)size * sizeof(int32_t));
    if (!key || !value || !out) {
        free(key);
        free(value);
        free(out);
        return 0;
    }
    memset(key, 0xff, (size_t)size * sizeof(int32_t)); /* -1: empty (ids are >= 0) */
    uint64_t mask = (uint64_t)size - 1;
    int32_t next = 0;
    for (int64_t k = 0; k < n; k++) {
        uint64_t s = mix64((uint64_t)(uint32_t)tokens[k]) & mask;
        while (key[s] >= 0 && key[s] != tokens[k]) s = (s + 1) & mask;
        if (key[s] < 0) {
            key[s] = tokens[k];
            value[s] = next++;
        }
        out[k] = value[s];
    }
    free(key);
    free(value);
    *dense = out;
    *vocab = next;
    return 1;
}

/* Scratch memory of skip_counts: per id (vocab) and per position (the longest document). */
typedef struct {
    int64_t *head_peer, *head_model; /* id -> its first position with units, or -1 */
    int64_t *next_peer, *next_model; /* position -> the next one of the same id, or -1 */
    int64_t *count;                  /* id -> count (kept all 0 between uses) */
    int32_t *touched;                /* ids whose count was raised */
} SkipScratch;

/* The clipped hits of one pair: sum over units u of min(peer's count of u, model's count of
 * u).  Never materialises the units (pyrouge's default -2 -1 -U has ~L^2 / 2 of them): the
 * positions of each first token a are linked (head/next), and for each a of the model that the
 * peer has too, the second tokens of a's peer units are counted in count[] and the model's
 * consume them.  Memory O(vocab + L); time O(units), polling `ctl` (returns -1 when stopped). */
static int64_t skip_pair_hits(SkipScratch *sc, const int32_t *pt, int64_t n, const int32_t *mt,
                              int64_t m, int64_t skip, int unigrams, Control *ctl,
                              int64_t *ticks) {
    int64_t hits = 0;
    if (n < 2 || m < 2) return 0;
    int64_t *count = sc->count;
    if (unigrams) { /* t[i] alone for i < L - 1 */
        for (int64_t i = 0; i + 1 < n; i++) count[pt[i]]++;
        for (int64_t i = 0; i + 1 < m; i++)
            if (count[mt[i]] > 0) {
                hits++;
                count[mt[i]]--;
            }
        for (int64_t i = 0; i + 1 < n; i++) count[pt[i]] = 0;
    }
    for (int64_t i = n - 2; i >= 0; i--) {
        sc->next_peer[i] = sc->head_peer[pt[i]];
        sc->head_peer[pt[i]] = i;
    }
    for (int64_t i = m - 2; i >= 0; i--) {
        sc->next_model[i] = sc->head_model[mt[i]];
        sc->head_model[mt[i]] = i;
    }
    int stopped = 0;
    for (int64_t i = 0; i + 1 < m && !stopped; i++) {
        int32_t a = mt[i];
        /* each first token once: at its first position in the model, if the peer has it */
        if (sc->head_model[a] != i || sc->head_peer[a] < 0) continue;
        int64_t n_touched = 0, work = 0;
        for (int64_t q = sc->head_peer[a]; q >= 0; q = sc->next_peer[q]) {
            int64_t end = skip < 0 || q + skip + 2 > n ? n : q + skip + 2;
            for (int64_t j = q + 1; j < end; j++)
                if (count[pt[j]]++ == 0) sc->touched[n_touched++] = pt[j];
            work += end - q;
        }
        for (int64_t q = i; q >= 0; q = sc->next_model[q]) {
            int64_t end = skip < 0 || q + skip + 2 > m ? m : q + skip + 2;
            for (int64_t j = q + 1; j < end; j++)
                if (count[mt[j]] > 0) {
                    hits++;
                    count[mt[j]]--;
                }
            work += end - q;
        }
        for (int64_t k = 0; k < n_touched; k++) count[sc->touched[k]] = 0;
        *ticks += work + n_touched;
        if (*ticks >= POLL_TICKS) {
            *ticks = 0;
            stopped = control_stopped(ctl);
        }
    }
    for (int64_t i = 0; i + 1 < n; i++) sc->head_peer[pt[i]] = -1;
    for (int64_t i = 0; i + 1 < m; i++) sc->head_model[mt[i]] = -1;
    return stopped ? -1 : hits;
}

/* Fill out[3k..3k+3) with (clipped skip-bigram hits, the peer's units, the model's units) of
 * pair k.  The arguments are checked by the caller (offsets monotone, indices in range, skip
 * at most the number of tokens, so that i + skip + 2 cannot overflow).  Memory is linear in
 * the input (skip_pair_hits).  Returns RUN_OK, RUN_NO_MEMORY or RUN_STOPPED (`ctl`). */
static int skip_counts(const int32_t *tokens, const int64_t *doc_start, int64_t n_docs,
                       const int64_t *pair_peer, const int64_t *pair_model, int64_t n_pairs,
                       int64_t skip, int unigrams, Control *ctl, int64_t *out) {
    int64_t n_tok = doc_start[n_docs], vocab, longest = 1, ticks = 0;
    int32_t *dense;
    if (!skip_dense_ids(tokens, n_tok, &dense, &vocab)) return RUN_NO_MEMORY;
    const int32_t *ids = dense != NULL ? dense : tokens;
    for (int64_t d = 0; d < n_docs; d++)
        if (doc_start[d + 1] - doc_start[d] > longest) longest = doc_start[d + 1] - doc_start[d];
    if (vocab < 1) vocab = 1;
    SkipScratch sc;
    sc.head_peer = malloc((size_t)vocab * sizeof(int64_t));
    sc.head_model = malloc((size_t)vocab * sizeof(int64_t));
    sc.count = calloc((size_t)vocab, sizeof(int64_t));
    sc.touched = malloc((size_t)vocab * sizeof(int32_t));
    sc.next_peer = malloc((size_t)longest * sizeof(int64_t));
    sc.next_model = malloc((size_t)longest * sizeof(int64_t));
    int status = RUN_NO_MEMORY;
    if (!sc.head_peer || !sc.head_model || !sc.count || !sc.touched || !sc.next_peer ||
        !sc.next_model)
        goto done;
    memset(sc.head_peer, 0xff, (size_t)vocab * sizeof(int64_t));
    memset(sc.head_model, 0xff, (size_t)vocab * sizeof(int64_t));
    status = RUN_OK;
    for (int64_t k = 0; k < n_pairs; k++) {
        int64_t p = pair_peer[k], m = pair_model[k];
        int64_t lp = doc_start[p + 1] - doc_start[p], lm = doc_start[m + 1] - doc_start[m];
        int64_t hits = skip_pair_hits(&sc, ids + doc_start[p], lp, ids + doc_start[m], lm, skip,
                                      unigrams, ctl, &ticks);
        if (hits < 0) {
            status = RUN_STOPPED;
            break;
        }
        out[3 * k] = hits;
        out[3 * k + 1] = skip_unit_count(lp, skip, unigrams);
        out[3 * k + 2] = skip_unit_count(lm, skip, unigrams);
        ticks += lp + lm;
    }
done:
    free(dense);
    free(sc.head_peer);
    free(sc.head_model);
    free(sc.count);
    free(sc.touched);
    free(sc.next_peer);
    free(sc.next_model);
    return status;
}

#endif /* ROUGE_LCS_ROUGE155_H */
