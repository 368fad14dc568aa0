/*
 * lcs_step.h: Hyyro's bit-parallel LCS step, the one definition that every LCS kernel of the C
 * core uses (kernels.h: ROUGE-L and the ROUGE-Lsum union; the Python twin is
 * rouge_lcs/engine/lcs.py, which also explains the rouge_score backtrack these rows serve).
 *
 * Bit p of a row stands for candidate position p; row i (after i reference tokens) has a zero
 * at each column where L[i][.] steps up.  One reference token t updates the row as
 *     u = row & M[t];  row = ((row + u) | (row - u)) & full
 * u is a subset of row, so the subtraction never borrows across words; only the addition's
 * carry does, which is what lets a row of many words (and strips of words) be processed one
 * word after another.
 */
#ifndef ROUGE_LCS_LCS_STEP_H
#define ROUGE_LCS_LCS_STEP_H

#include <stdint.h>

/* One word of a row: `v` the word, `match` the token's match mask for it, `*carry` the
 * addition's carry from the word below (0 for the lowest word), updated for the word above.
 * With one word and a carry that is never read, the compiler keeps only (v + u) | (v - u). */
static inline uint64_t lcs_step(uint64_t v, uint64_t match, uint64_t *carry) {
    uint64_t u = v & match;
    uint64_t s = v + u;
    uint64_t c1 = s < v;
    uint64_t s2 = s + *carry;
    *carry = c1 | (s2 < s);
    return s2 | (v - u);
}

#endif
