/*
 * scores.h: precision, recall and F_beta from the counting kernels' (hits, prediction total,
 * reference total), with an example's references combined — rouge_lcs/engine/stats.py's
 * `combine`, for the native engine, so that a batch goes from texts to scores without NumPy.
 *
 * The floats must be bit-identical to stats.py's NumPy arithmetic (tests/engine/native/
 * test_native_scores.py compares them on random counts in every mode), so each value is computed with the same
 * operations in the same order:
 *
 *   p = hits / prediction_total          (0 when the total is 0)
 *   r = hits / reference_total           (0 when the total is 0)
 *   f = ((1 + b2) * p) * r / (r + b2 * p)  (0 when the denominator is 0)
 *
 * and, across an example's references, `mean` adds the per-reference values in order (NumPy's
 * add.reduceat along the pairs) and divides by their number; `pooled` adds the integer counts
 * first; `max_f` / `max_recall` take the first reference with the largest F / recall.
 * setup.py builds with -ffp-contract=off: a fused multiply-add would round differently.
 *
 * No Python.h: py_scores.h checks the buffers (sizes, n_refs >= 1 summing to the pairs).
 */
#ifndef ROUGE_LCS_SCORES_H
#define ROUGE_LCS_SCORES_H

#include <math.h> /* fabs, isfinite */
#include <stdint.h>

enum { COMBINE_MAX_F = 0, COMBINE_MAX_RECALL = 1, COMBINE_POOLED = 2, COMBINE_MEAN = 3 };

/* P, R, F of one (hits, prediction total, reference total) cell. */
static void prf_cell(const int64_t *c, double b2, double *p, double *r, double *f) {
    double hits = (double)c[0];
    *p = c[1] > 0 ? hits / (double)c[1] : 0.0;
    *r = c[2] > 0 ? hits / (double)c[2] : 0.0;
    double denominator = *r + b2 * *p;
    *f = denominator > 0 ? (1.0 + b2) * *p * *r / denominator : 0.0;
}

/*
 * counts: pairs x types x 3, the pairs of example e consecutive (n_refs[e] of them);
 * out_p / out_r / out_f: examples x types.
 */
static void combine_scores(const int64_t *counts, int64_t n_types, const int64_t *n_refs,
                           int64_t n_examples, int mode, double b2, double *out_p,
                           double *out_r, double *out_f) {
    const int64_t *pair = counts;
    for (int64_t e = 0; e < n_examples; e++) {
        int64_t refs = n_refs[e];
        for (int64_t t = 0; t < n_types; t++) {
            int64_t cell = e * n_types + t;
            double p, r, f;
            if (refs == 1) {
                prf_cell(pair + 3 * t, b2, &p, &r, &f);
            } else if (mode == COMBINE_POOLED) {
                /* Summed as unsigned, which wraps (signed overflow is undefined behaviour)
                 * as numpy's int64 sum does; the counting kernels' counts never come near. */
                uint64_t sum[3] = {0, 0, 0};
                for (int64_t j = 0; j < refs; j++)
                    for (int k = 0; k < 3; k++)
                        sum[k] += (uint64_t)pair[(j * n_types + t) * 3 + k];
                int64_t pooled[3] = {(int64_t)sum[0], (int64_t)sum[1], (int64_t)sum[2]};
                prf_cell(pooled, b2, &p, &r, &f);
            } else if (mode == COMBINE_MEAN) {
                prf_cell(pair + 3 * t, b2, &p, &r, &f);
                for (int64_t j = 1; j < refs; j++) {
                    double pj, rj, fj;
                    prf_cell(pair + (j * n_types + t) * 3, b2, &pj, &rj, &fj);
                    p += pj;
                    r += rj;
                    f += fj;
                }
                double n = (double)refs;
                p /= n;
                r /= n;
                f /= n;
            } else { /* max_f / max_recall: the first reference with the largest key */
                prf_cell(pair + 3 * t, b2, &p, &r, &f);
                for (int64_t j = 1; j < refs; j++) {
                    double pj, rj, fj;
                    prf_cell(pair + (j * n_types + t) * 3, b2, &pj, &rj, &fj);
                    if (mode == COMBINE_MAX_F ? fj > f : rj > r) {
                        p = pj;
                        r = rj;
                        f = fj;
                    }
                }
            }
            out_p[cell] = p;
            out_r[cell] = r;
            out_f[cell] = f;
        }
        pair += refs * n_types * 3;
    }
}

/*
 * The correctly rounded sum of n finite doubles read `stride` apart (a column of a flat
 * examples x types table): math.fsum's answer, so the means equal the reference engine's bit
 * for bit.  Shewchuk's method: `partials` holds non-overlapping doubles whose exact sum is the
 * running total (each value added splits into a rounded sum and its exact error, 2Sum); the
 * partials are then added from the largest, and where the last addition rounded a tie, the
 * next partial's sign says which way the exact value lies (round half to even of the exact
 * sum, not of a rounded one).  Finite doubles need at most ~40 partials (their exponents span
 * 2098 bits).  Returns 0 where the sum overflows a double (or MAX_PARTIALS were too few).
 */
#define MAX_PARTIALS 128

static int exact_sum(const double *values, int64_t n, int64_t stride, double *sum) {
    double partials[MAX_PARTIALS];
    int count = 0;
    for (int64_t k = 0; k < n; k++) {
        double x = values[k * stride];
        int kept = 0;
        for (int j = 0; j < count; j++) {
            double y = partials[j];
            if (fabs(x) < fabs(y)) {
                double t = x;
                x = y;
                y = t;
            }
            double hi = x + y;
            double lo = y - (hi - x);
            if (lo != 0.0) partials[kept++] = lo;
            x = hi;
        }
        if (x != 0.0) { /* as math.fsum: no zero partial (so -0.0 alone sums to 0.0) */
            if (kept == MAX_PARTIALS) return 0;
            partials[kept++] = x;
        }
        count = kept;
    }
    double hi = 0.0, lo = 0.0;
    int j = count;
    if (j > 0) {
        hi = partials[--j];
        while (j > 0) {
            double x = hi, y = partials[--j];
            hi = x + y;
            lo = y - (hi - x);
            if (lo != 0.0) break;
        }
        /* a tie rounded by the last addition: the next partial's sign decides it */
        if (j > 0 && ((lo < 0.0 && partials[j - 1] < 0.0) || (lo > 0.0 && partials[j - 1] > 0.0))) {
            double y = lo * 2.0;
            double x = hi + y;
            if (y == x - hi) hi = x;
        }
    }
    *sum = hi;
    return isfinite(hi); /* a sum past DBL_MAX (math.fsum raises OverflowError) */
}

#endif
