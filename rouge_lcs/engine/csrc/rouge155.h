/*
 * rouge155.h: the kernels of the ROUGE-1.5.5 mode (rouge_lcs/rouge155), apart from the core.
 *
 *   r155_read     ROUGE-1.5.5's token reader (rouge_lcs/rouge155/tokenize.py, flat_terms): the
 *                 tokens of many summaries at once, interned by first occurrence.  A token is a
 *                 maximal run of ASCII [a-z0-9] bytes (A-Z lower-cased first when `lower`;
 *                 otherwise they separate tokens, like every other byte); each "\n" ends a line.
 *   skip_counts   ROUGE-S/SU's clipped skip-bigram counts (the script's createSkipBigram).
 *
 * Pure C on bytes and int32 ids, no Python.h (tests/test_native.py compiles it alone):
 * module.c checks the arguments, builds the Python objects and releases the GIL around
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

/* The unit count of a document of n tokens, saturated at INT64_MAX (then no buffer fits). */
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

/* Fill out[3k..3k+3) with (clipped skip-bigram hits, the peer's units, the model's units) of
 * pair k.  The arguments are checked by the caller (offsets monotone, indices in range, skip
 * at most the number of tokens, so that i + skip + 2 cannot overflow).  Returns 0 when memory
 * runs out (or the buffers' sizes would not fit a size_t). */
static int skip_counts(const int32_t *tokens, const int64_t *doc_start, int64_t n_docs,
                       const int64_t *pair_peer, const int64_t *pair_model, int64_t n_pairs,
                       int64_t skip, int unigrams, int64_t *out) {
    uint64_t *peer_keys = NULL, *model_keys = NULL, *slot_key = NULL;
    int64_t *slot_count = NULL;
    int ok = 0;
    /* the largest unit count of any document: the buffers' size */
    int64_t most = 0;
    for (int64_t d = 0; d < n_docs; d++) {
        int64_t c = skip_unit_count(doc_start[d + 1] - doc_start[d], skip, unigrams);
        if (c > most) most = c;
    }
    if (most > (INT64_MAX / 4) / (int64_t)sizeof(uint64_t) ||
        (uint64_t)most > SIZE_MAX / (4 * sizeof(uint64_t)))
        return 0; /* the table (~4x most, 8 bytes each) would not fit */
    int64_t size = 16;
    while (size < 2 * most) size <<= 1;
    peer_keys = malloc((size_t)(most > 0 ? most : 1) * sizeof(uint64_t));
    model_keys = malloc((size_t)(most > 0 ? most : 1) * sizeof(uint64_t));
    slot_key = malloc((size_t)size * sizeof(uint64_t));
    slot_count = malloc((size_t)size * sizeof(int64_t));
    if (!peer_keys || !model_keys || !slot_key || !slot_count) goto done;
    for (int64_t k = 0; k < n_pairs; k++) {
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
    ok = 1;
done:
    free(peer_keys);
    free(model_keys);
    free(slot_key);
    free(slot_count);
    return ok;
}

#endif /* ROUGE_LCS_ROUGE155_H */
