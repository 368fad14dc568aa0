/*
 * prefix.h: the counts of every prefix of a prediction, for per-token ROUGE (token rewards).
 *
 * For a pair (prediction p[0..m), reference r[0..n)) and each k in 1..m, the counts (hits,
 * prediction total, reference total) of p[0..k) against r: what counting the prefix as its own
 * prediction gives (rouge_lcs/engine/reference/prefix.py is the reference engine's half, line by line):
 *
 *   ROUGE-N   a running clipped count: the prefix's new n-gram is a hit while the reference
 *             still has an unmatched copy of it (kernels.h's ngram_table of the reference's
 *             n-grams, the table ROUGE-N counts with).
 *   ROUGE-L   the rows of kernels.h's bit-parallel LCS over the reference's positions, one per
 *             prediction token (advance_rows, the same step as every LCS count); the LCS of
 *             the prefix is the number of cleared bits of its row.  Rows are stored a block
 *             at a time (PREFIX_BLOCK_WORDS), so memory stays linear in the input.
 *
 * Pure C on int32 ids, no Python.h (tests/engine/native/test_native_sources.py compiles it
 * alone); py_prefix.h checks every buffer and index and releases the GIL around prefix_counts.
 */
#ifndef ROUGE_LCS_PREFIX_H
#define ROUGE_LCS_PREFIX_H

#include "kernels.h" /* first: it sets the POSIX feature macro; Workspace, advance_rows */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Words of stored LCS rows per block (512 KiB), whatever the lengths. */
#define PREFIX_BLOCK_WORDS ((int64_t)1 << 16)

/* out[k * stride] = LCS(pred[0..k + 1), ref) for k < m; 0 when memory runs out or the call is
 * to stop (ws->failed says which). */
static int prefix_lcs(Workspace *ws, const int32_t *pred, int64_t m, const int32_t *ref,
                      int64_t n, int64_t *out, int64_t stride) {
    if (n == 0) {
        for (int64_t k = 0; k < m; k++) out[k * stride] = 0;
        return 1;
    }
    int64_t W = (n + 63) / 64, block = PREFIX_BLOCK_WORDS / W;
    if (W > STRIP_WORDS) {
        /* Past one strip the walk builds each strip's mask table once for the rows it is
         * given: rows stored in blocks of PREFIX_BLOCK_WORDS / W (41 rows of a 100,000-token
         * reference) rebuilt every table per block, ~20x the sequence score's time, growing
         * with the distinct tokens.  All the prefixes in one walk, each row's ones counted as
         * it goes, no row stored. */
        if (!set_full(ws, n)) return 0;
        for (int64_t k = 0; k < m; k++) out[k * stride] = 0;
        if (!walk_rows(ws, ref, n, pred, m, ws->vec, NULL, out, stride)) return 0;
        for (int64_t k = 0; k < m; k++) out[k * stride] = n - out[k * stride];
        return 1;
    }
    if (block < 1) block = 1;
    if (!set_full(ws, n) || !GROW(ws, rows, rows_cap, (block + 1) * W)) {
        ws->failed = ws->failed ? ws->failed : RUN_NO_MEMORY;
        return 0;
    }
    for (int64_t k0 = 0; k0 < m; k0 += block) {
        int64_t rows = m - k0 < block ? m - k0 : block;
        /* the reference is the candidate whose positions the row's bits stand for */
        if (!advance_rows(ws, ref, n, pred + k0, rows, ws->vec, ws->rows)) return 0;
        for (int64_t j = 0; j < rows; j++) out[(k0 + j) * stride] = zeros(ws->rows + (j + 1) * W, n);
    }
    return 1;
}

/* out[k * stride] = clipped n-gram hits of pred[0..k + 1) against ref, for k < m. */
static int prefix_ngrams(Workspace *ws, const int32_t *pred, int64_t m, const int32_t *ref,
                         int64_t lr, int64_t n, int64_t *out, int64_t stride) {
    int64_t nr = lr - n + 1, hits = 0;
    if (nr <= 0 || m < n) {
        for (int64_t k = 0; k < m; k++) out[k * stride] = 0;
        return 1;
    }
    uint64_t mask = ngram_table(ws, ref, nr, n); /* the reference's n-grams (kernels.h) */
    if (mask == 0) return 0;
    int32_t *slot_count = ws->slot_count;
    for (int64_t k = 0; k < m; k++) {
        if (k >= n - 1) {
            int64_t s = ngram_slot(ws, mask, ref, pred + k - n + 1, n);
            if (s >= 0 && slot_count[s] > 0) {
                hits++;
                slot_count[s]--;
            }
        }
        out[k * stride] = hits;
    }
    return !ws_tick(ws, m * n);
}

/*
 * Fill out (rows x n_types x 3, int64), where the rows of pair q are row_start[q] ...
 * row_start[q] + len(pred) - 1 (one per prefix).  types holds (kind, n) per type: KIND_N or
 * KIND_L only (py_prefix.h refuses the others).  Returns RUN_OK, RUN_NO_MEMORY or RUN_STOPPED.
 */
static int prefix_counts(const int32_t *tokens, const int64_t *doc_start, const int64_t *pair_pred,
                         const int64_t *pair_ref, int64_t n_pairs, const int64_t *row_start,
                         const int64_t *types, int64_t n_types, int64_t vocab, Control *control,
                         int64_t *out) {
    Workspace ws;
    if (!workspace_init(&ws, vocab)) {
        workspace_free(&ws);
        return RUN_NO_MEMORY;
    }
    ws.ctl = control;
    int64_t stride = n_types * 3;
    for (int64_t q = 0; q < n_pairs && !ws.failed; q++) {
        const int32_t *pred = tokens + doc_start[pair_pred[q]];
        const int32_t *ref = tokens + doc_start[pair_ref[q]];
        int64_t m = doc_start[pair_pred[q] + 1] - doc_start[pair_pred[q]];
        int64_t n = doc_start[pair_ref[q] + 1] - doc_start[pair_ref[q]];
        int64_t *block = out + row_start[q] * stride;
        for (int64_t t = 0; t < n_types && !ws.failed; t++) {
            int64_t kind = types[2 * t], order = types[2 * t + 1];
            int64_t *cell = block + t * 3;
            int ok = kind == KIND_L ? prefix_lcs(&ws, pred, m, ref, n, cell, stride)
                                    : prefix_ngrams(&ws, pred, m, ref, n, order, cell, stride);
            if (!ok) {
                if (!ws.failed) ws.failed = RUN_NO_MEMORY;
                break;
            }
            int64_t ref_total = kind == KIND_L ? n : (n - order + 1 > 0 ? n - order + 1 : 0);
            for (int64_t k = 0; k < m; k++) {
                int64_t pred_total = kind == KIND_L ? k + 1 : k + 2 - order;
                cell[k * stride + 1] = pred_total > 0 ? pred_total : 0;
                cell[k * stride + 2] = ref_total;
            }
        }
    }
    release_table(&ws);
    int status = ws.failed;
    workspace_free(&ws);
    return status;
}

#endif /* ROUGE_LCS_PREFIX_H */
