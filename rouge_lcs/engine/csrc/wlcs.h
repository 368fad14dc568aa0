/*
 * wlcs.h: ROUGE-W, the weighted longest common subsequence of ROUGE-1.5.5 (Lin 2004), on int32
 * token ids.  No Python.h: py_wlcs.h checks every buffer and index before calling in, and
 * releases the GIL around wlcs_run.  The Python reference is rouge_lcs/engine/reference/weighted.py
 * (bit-identical: the same double operations in the same order).
 *
 * The table, with f(k) = k^w (the table `f` below, pow(k, w) as Perl's ** computes it):
 *
 *   x[i] == y[j]:  k = l[i-1][j-1];  c[i][j] = (c[i-1][j-1] + f(k+1)) - f(k);  l[i][j] = k + 1
 *   otherwise:     c[i][j] = c[i-1][j] >= c[i][j-1] ? c[i-1][j] : c[i][j-1];  l[i][j] = 0
 *
 *   wlcs_value    c[m][n], in two rows (memory linear in the shorter text); the value is the
 *                 same in either orientation (each cell's operations are symmetric).
 *   wlcs_mark     the script's markLCS walk on that table, back from (m, n): diagonal on a
 *                 match, else up when c[i-1][j] >= c[i][j-1], else left; it marks the x
 *                 positions of the diagonal steps.  The walk reads the moves row by row from
 *                 the last; rows are kept as sqrt-spaced checkpoints (values and runs) and one
 *                 block of moves is recomputed as the walk enters it, once the whole move table
 *                 would exceed WLCS_TABLE_BYTES (the same moves, twice the time).
 *   wlcs_summary  the script's summary-level ROUGE-W of one (peer, model) pair: for each model
 *                 sentence, the marks against every peer sentence, then runs of marked tokens
 *                 that the whole texts' unigram counts still allow add f(run); returns the hit
 *                 and the base sum of f(len(s)) over model sentences.
 *   wlcs_run      pairs claimed in blocks from a shared counter by the counting kernel's
 *                 threads (run_parallel_polled of kernels.h), each pair's values written at
 *                 its own place, so they never depend on the number of threads.
 */
#ifndef ROUGE_LCS_WLCS_H
#define ROUGE_LCS_WLCS_H

#include "kernels.h" /* first: it sets the POSIX feature macro; Control, Workspace */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Move-table bytes of one sentence pair kept at once by wlcs_mark (16 MB), as the Python
 * reference's WLCS_TABLE_CELLS. */
#define WLCS_TABLE_BYTES ((int64_t)1 << 24)

typedef struct {
    double *c0, *c1;           /* two rows of values */
    int64_t *l0, *l1;          /* two rows of run lengths */
    int64_t c0_cap, c1_cap, l0_cap, l1_cap;
    double *check_c;           /* checkpoint rows (wlcs_mark) */
    int64_t *check_l;
    int64_t check_c_cap, check_l_cap;
    uint8_t *moves;            /* one block of moves */
    int64_t moves_cap;
    uint8_t *mask;             /* marks of one model sentence */
    int64_t mask_cap;
    int32_t *model_count, *peer_count; /* id -> whole-text unigram count (kept all 0) */
    int32_t *xs, *ys;          /* the value's two texts, restricted and padded (wlcs_value) */
    int64_t xs_cap, ys_cap;
    uint32_t *seen_x, *seen_y; /* id -> the stamp of the last pair whose x / y has it */
    uint32_t stamp;
    int64_t vocab;
    Control *ctl;
    int64_t ticks;
    int failed;
} WlcsScratch;

/* kernels.h's GROW for this scratch space: 0 (and s->failed) when memory runs out. */
#define WGROW(s, field, cap, need) \
    (grow((void **)&(s)->field, &(s)->cap, (need), sizeof(*(s)->field)) || \
     ((s)->failed = RUN_NO_MEMORY, 0))

/* The two rows of a text of n tokens. */
static int wlcs_rows(WlcsScratch *s, int64_t n) {
    return WGROW(s, c0, c0_cap, n + 1) && WGROW(s, c1, c1_cap, n + 1) &&
           WGROW(s, l0, l0_cap, n + 1) && WGROW(s, l1, l1_cap, n + 1);
}

/* Count `cost` cells of work; 1 (and s->failed) when the call is to stop. */
static inline int wlcs_tick(WlcsScratch *s, int64_t cost) {
    s->ticks += cost;
    if (s->ticks < POLL_TICKS) return 0;
    s->ticks = 0;
    if (!control_stopped(s->ctl)) return 0;
    s->failed = RUN_STOPPED;
    return 1;
}

/* A branch the compiler is to lay out as not taken. */
#if defined(__GNUC__)
#define WLCS_UNLIKELY(c) __builtin_expect(!!(c), 0)
#else
#define WLCS_UNLIKELY(c) (c)
#endif

/* One row i of the table from the row above (pc, pl) into (cc, cl) for token `x`; moves, when
 * not NULL, gets each cell's move (1 diagonal, 2 up, 3 left). */
static inline void wlcs_row(int32_t x, const int32_t *y, int64_t n, const double *f,
                            const double *pc, const int64_t *pl, double *cc, int64_t *cl,
                            uint8_t *moves) {
    cc[0] = 0.0;
    cl[0] = 0;
    if (moves) {
        /* The up/left choice without a branch (it is unpredictable), the match with one (a
         * few cells in a hundred): a move is 1 diagonal, else 2 + (up < left). */
        double left = 0.0;
        for (int64_t j = 1; j <= n; j++) {
            double up = pc[j];
            int less = up < left;
            double value = less ? left : up; /* up >= left ? up : left */
            uint8_t move = (uint8_t)(2 + less);
            int64_t run = 0;
            if (WLCS_UNLIKELY(x == y[j - 1])) {
                int64_t k = pl[j - 1];
                value = pc[j - 1] + f[k + 1] - f[k];
                run = k + 1;
                move = 1;
            }
            cc[j] = left = value;
            cl[j] = run;
            moves[j] = move;
        }
        return;
    }
    /* The same cells without branches (the up/left choice is unpredictable): both values are
     * computed and selected, with the same operations in the same order. */
    double left = 0.0;
    for (int64_t j = 1; j <= n; j++) {
        int match = x == y[j - 1];
        int64_t k = pl[j - 1];
        double diag = pc[j - 1] + f[k + 1] - f[k];
        double up = pc[j];
        double best = left > up ? left : up; /* up >= left ? up : left, as maxsd */
        left = match ? diag : best;
        cc[j] = left;
        cl[j] = match ? k + 1 : 0;
    }
}

/* Rows of the table computed WLCS_STRIP at a time (wlcs_strip), and the padding each side of
 * the value's rows and of the padded column text that lets the strip run without tests. */
#define WLCS_STRIP 4
#define WLCS_PAD WLCS_STRIP
/* The restricted texts' gaps (wlcs_restrict) and the column text's padding: ids are >= 0 and
 * the three differ, so in either orientation a row token never equals a gap or padding of the
 * columns. */
#define WLCS_GAP_X (-1)
#define WLCS_GAP_Y (-2)
#define WLCS_NO_TOKEN (-3)
/* Rows put before the first to make whole strips: they match nothing (not even the padding),
 * so they repeat row 0 (zeros) exactly. */
#define WLCS_LEAD (-4)
/* Texts with ids below this get the per-pair vocabulary restriction (two stamp tables of
 * 4 bytes an id per thread); past it the whole texts run. */
#define WLCS_RESTRICT_VOCAB ((int64_t)1 << 24)

/* WLCS_STRIP rows of the table at once: rows x[0..WLCS_STRIP) from the row above (pc, pl),
 * the last of them into (cc, cl).  Each cell's operations are wlcs_row's, in the same order;
 * only the order of the cells changes: step t computes cell j = t - r of strip row r, so the
 * rows' chains of maxima (the left neighbour of each cell) run side by side instead of one
 * after another.  Row r - 1 hands row r its cells j (up) and j - 1 (diagonal) in registers.
 * The strip's run lengths are not kept: a match (a few in a hundred cells) reads its k back
 * along the diagonal, through at most WLCS_STRIP - 1 rows of x, then the row above (pl); only
 * the last row's runs are written (cl), for the next strip.  (Keeping four rows of runs in
 * registers spilled them to the stack: 15-30% slower.)
 * y is padded with WLCS_NO_TOKEN for WLCS_PAD ids each side, pc and pl hold finite values
 * (zeros) for WLCS_PAD cells past n, and cc and cl have room for WLCS_PAD cells before 0: the
 * cells outside 1..n are computed without tests (they match nothing, so the ones before 0 are
 * 0 as the table's column 0, and the ones after n are never read by a written cell). */
static inline void wlcs_strip(const int32_t *x, const int32_t *y, int64_t n, const double *f,
                              const double *pc, const int64_t *pl, double *cc, int64_t *cl) {
    double cur_c[WLCS_STRIP], prev_c[WLCS_STRIP];
    int32_t tok[WLCS_STRIP];
    for (int r = 0; r < WLCS_STRIP; r++) {
        cur_c[r] = prev_c[r] = 0.0;
        tok[r] = x[r];
    }
    for (int64_t t = 1; t < n + WLCS_STRIP; t++) {
        int64_t run = 0;
        for (int r = WLCS_STRIP - 1; r >= 0; r--) {
            int64_t j = t - r;
            double up = r ? cur_c[r - 1] : pc[j];
            double left = cur_c[r];
            double value = left > up ? left : up; /* up >= left ? up : left, as maxsd */
            /* A branch, predicted not taken: the chain of maxima is then one maxsd a cell
             * (masks instead of the branch were measured 2x slower). */
            if (WLCS_UNLIKELY(tok[r] == y[j - 1])) {
                /* k: the run of matches ending at the diagonal cell, read back along the
                 * diagonal through the strip's rows above, then the row above the strip */
                int64_t k = 0, q = r, jj = j - 1;
                while (q > 0 && tok[q - 1] == y[jj - 1]) {
                    k++;
                    q--;
                    jj--;
                }
                if (q == 0) k += pl[jj];
                double dc = r ? prev_c[r - 1] : pc[j - 1];
                value = dc + f[k + 1] - f[k];
                if (r == WLCS_STRIP - 1) run = k + 1;
            }
            prev_c[r] = cur_c[r];
            cur_c[r] = value;
        }
        int64_t j = t - (WLCS_STRIP - 1);
        cc[j] = cur_c[WLCS_STRIP - 1];
        cl[j] = run;
    }
}

/* The per-pair vocabulary restriction: only tokens that occur in both texts can match, so each
 * run of tokens of x that y lacks is one row that matches nothing.  Such a row is the running
 * maximum of the row above with every run length 0, and a second such row repeats it exactly
 * (the same maxima of the same doubles), so a run of them is one row; a leading run repeats row
 * 0.  Columns likewise.  The gaps of x and of y (WLCS_GAP_X, WLCS_GAP_Y) never equal each other
 * or a token, so the run lengths (consecutive matches in both texts) are kept: a gap
 * breaks a run on its side as the tokens it stands for did.  Writes the restricted x into xs
 * and returns its length. */
static int64_t wlcs_restrict(const int32_t *x, int64_t m, const uint32_t *other, uint32_t stamp,
                             int32_t gap, int32_t *xs) {
    int64_t len = 0;
    uint32_t open = 0; /* the last token written is one of x (a gap follows it if one comes) */
    for (int64_t i = 0; i < m; i++) {
        /* without branches (a token's being in both texts is unpredictable): each token or
         * gap is written at xs[len], and kept when a token, or a gap after a token */
        uint32_t token = (uint32_t)x[i];
        uint32_t keep = other[token] == stamp;
        /* token when kept, else gap: a mask, as the compiler made a branch of `?:` */
        xs[len] = (int32_t)((uint32_t)gap ^ ((token ^ (uint32_t)gap) & (0u - keep)));
        len += keep | open;
        open = keep;
    }
    return len;
}

/* c[m][n] of x (m tokens) and y (n tokens); f holds f(0..min(m, n) + 1). */
static double wlcs_value(WlcsScratch *s, const int32_t *x, int64_t m, const int32_t *y,
                         int64_t n, const double *f) {
    if (m == 0 || n == 0) return 0.0;
    if (!WGROW(s, xs, xs_cap, m + 2 * WLCS_PAD) || !WGROW(s, ys, ys_cap, n + 2 * WLCS_PAD))
        return 0.0;
    int32_t *a = s->xs + WLCS_PAD, *b = s->ys + WLCS_PAD;
    if (s->seen_x && s->seen_y) {
        if (++s->stamp == 0) { /* wrapped: start the stamps again */
            memset(s->seen_x, 0, (size_t)s->vocab * sizeof(uint32_t));
            memset(s->seen_y, 0, (size_t)s->vocab * sizeof(uint32_t));
            s->stamp = 1;
        }
        for (int64_t i = 0; i < m; i++) s->seen_x[x[i]] = s->stamp;
        for (int64_t j = 0; j < n; j++) s->seen_y[y[j]] = s->stamp;
        m = wlcs_restrict(x, m, s->seen_y, s->stamp, WLCS_GAP_X, a);
        n = wlcs_restrict(y, n, s->seen_x, s->stamp, WLCS_GAP_Y, b);
        if (m == 0 || n == 0) return 0.0; /* no token in common: no match anywhere */
    } else {
        memcpy(a, x, (size_t)m * sizeof(int32_t));
        memcpy(b, y, (size_t)n * sizeof(int32_t));
    }
    if (n > m) { /* rows along the shorter text (the value is the same either way) */
        int32_t *t = a;
        a = b;
        b = t;
        int64_t u = m;
        m = n;
        n = u;
    }
    for (int64_t k = 1; k <= WLCS_PAD; k++) b[-k] = b[n - 1 + k] = WLCS_NO_TOKEN;
    if (!wlcs_rows(s, n + 2 * WLCS_PAD)) return 0.0;
    size_t width = (size_t)(n + 1 + 2 * WLCS_PAD);
    memset(s->c0, 0, width * sizeof(double));
    memset(s->c1, 0, width * sizeof(double));
    memset(s->l0, 0, width * sizeof(int64_t));
    memset(s->l1, 0, width * sizeof(int64_t));
    double *pc = s->c0 + WLCS_PAD, *cc = s->c1 + WLCS_PAD;
    int64_t *pl = s->l0 + WLCS_PAD, *cl = s->l1 + WLCS_PAD;
    int64_t lead = (WLCS_STRIP - m % WLCS_STRIP) % WLCS_STRIP; /* below WLCS_PAD */
    for (int64_t k = 1; k <= lead; k++) a[-k] = WLCS_LEAD;
    a -= lead;
    m += lead;
    for (int64_t i = 0; i < m; i += WLCS_STRIP) {
        wlcs_strip(a + i, b, n, f, pc, pl, cc, cl);
        double *tc = pc;
        pc = cc;
        cc = tc;
        int64_t *tl = pl;
        pl = cl;
        cl = tl;
        if (wlcs_tick(s, WLCS_STRIP * n)) return 0.0;
    }
    return pc[n];
}

/* The script's marks of x (model sentence, m tokens) against y (peer sentence, n tokens), OR-ed
 * into mask[0..m); f holds f(0..min(m, n)).  0 when memory ran out or the call stopped. */
static int wlcs_mark(WlcsScratch *s, const int32_t *x, int64_t m, const int32_t *y, int64_t n,
                     const double *f, uint8_t *mask) {
    if (m == 0 || n == 0) return 1;
    int64_t width = n + 1, block = m;
    if (m > WLCS_TABLE_BYTES / width) {
        block = (int64_t)sqrt((double)m);
        while (block * block > m) block--;
        while ((block + 1) * (block + 1) <= m) block++;
        if (block < 1) block = 1;
    }
    int64_t n_checks = (m + block - 1) / block; /* rows 0, block, 2 * block, ... below m */
    if (!wlcs_rows(s, n) || !WGROW(s, check_c, check_c_cap, n_checks * width) ||
        !WGROW(s, check_l, check_l_cap, n_checks * width) ||
        !WGROW(s, moves, moves_cap, block * width))
        return 0;
    memset(s->check_c, 0, (size_t)width * sizeof(double));
    memset(s->check_l, 0, (size_t)width * sizeof(int64_t));
    for (int64_t c = 1; c < n_checks; c++) { /* checkpoint c: row c * block */
        double *pc = s->check_c + (c - 1) * width;
        int64_t *pl = s->check_l + (c - 1) * width;
        for (int64_t i = (c - 1) * block + 1; i <= c * block; i++) {
            int at_check = i == c * block;
            double *dst_c = at_check ? s->check_c + c * width : pc == s->c0 ? s->c1 : s->c0;
            int64_t *dst_l = at_check ? s->check_l + c * width : pl == s->l0 ? s->l1 : s->l0;
            wlcs_row(x[i - 1], y, n, f, pc, pl, dst_c, dst_l, NULL);
            pc = dst_c;
            pl = dst_l;
            if (wlcs_tick(s, n)) return 0;
        }
    }
    int64_t i = m, j = n;
    while (i > 0 && j > 0) {
        int64_t first = (i - 1) / block * block, last = first + block < m ? first + block : m;
        const double *pc = s->check_c + (first / block) * width;
        const int64_t *pl = s->check_l + (first / block) * width;
        for (int64_t r = first + 1; r <= last; r++) {
            double *cc = pc == s->c0 ? s->c1 : s->c0;
            int64_t *cl = pl == s->l0 ? s->l1 : s->l0;
            wlcs_row(x[r - 1], y, n, f, pc, pl, cc, cl, s->moves + (r - first - 1) * width);
            pc = cc;
            pl = cl;
            if (wlcs_tick(s, n)) return 0;
        }
        while (i > first && j > 0) {
            uint8_t step = s->moves[(i - first - 1) * width + j];
            if (step == 1) {
                i--;
                j--;
                mask[i] = 1;
            } else if (step == 2) {
                i--;
            } else {
                j--;
            }
        }
    }
    return 1;
}

/* The script's summary-level ROUGE-W of one pair: model sentences ms[0..n_ms) (offsets into
 * sent_tokens), peer sentences ps[0..n_ps); the whole texts `model` and `peer` give the
 * unigram counts that clip; f holds f(0..longest sentence), the table's f(k) = pow(k, w) that
 * each run and sentence length reads (no pow a run).  Sets *hit and *base; 0 on failure. */
static int wlcs_summary(WlcsScratch *s, const int32_t *st, const int64_t *ss, int64_t m0,
                        int64_t m1, int64_t p0, int64_t p1, const int32_t *model, int64_t lm,
                        const int32_t *peer, int64_t lp, const double *f,
                        double *hit, double *base) {
    int32_t *mc = s->model_count, *pcount = s->peer_count;
    for (int64_t k = 0; k < lm; k++) mc[model[k]]++;
    for (int64_t k = 0; k < lp; k++) pcount[peer[k]]++;
    double h = 0.0, b = 0.0;
    int ok = 1;
    for (int64_t sm = m0; sm < m1 && ok; sm++) {
        const int32_t *x = st + ss[sm];
        int64_t size = ss[sm + 1] - ss[sm];
        b += f[size];
        if (size == 0) continue;
        if (!WGROW(s, mask, mask_cap, size)) {
            ok = 0;
            break;
        }
        memset(s->mask, 0, (size_t)size);
        for (int64_t sp = p0; sp < p1 && ok; sp++)
            ok = wlcs_mark(s, x, size, st + ss[sp], ss[sp + 1] - ss[sp], f, s->mask);
        if (!ok) break;
        int64_t run = 0;
        for (int64_t j = 0; j < size; j++) {
            int32_t token = x[j];
            /* The script's loop, literally: a marked token that fails the clip does not end
             * the current run. */
            if (s->mask[j] == 1 && mc[token] > 0 && pcount[token] > 0) {
                run++;
                if ((j + 1 < size && s->mask[j + 1] == 0) || j + 1 == size) {
                    h += f[run];
                    run = 0;
                }
                mc[token]--;
                pcount[token]--;
            }
        }
    }
    for (int64_t k = 0; k < lm; k++) mc[model[k]] = 0;
    for (int64_t k = 0; k < lp; k++) pcount[peer[k]] = 0;
    *hit = h;
    *base = b;
    return ok;
}

typedef struct {
    const int32_t *tokens;      /* whole texts */
    const int64_t *doc_start;
    const int32_t *sent_tokens; /* sentences (summary level only) */
    const int64_t *sent_start;
    const int64_t *doc_sent;
    const int64_t *pair_a, *pair_b; /* a: prediction / peer; b: reference / model */
    int64_t n_pairs;
    double weight;
    const double *f;            /* f(k) = k^w for k = 0 .. longest text + 1 */
    int64_t vocab;              /* summary level: ids below it */
    int summary;
    double *out;                /* value: one per pair; summary: (hit, base) per pair */
    int64_t block;
    int64_t *next;
    Control *ctl;
} WlcsJob;

typedef struct {
    const WlcsJob *job;
    int status;
} WlcsShard;

static void wlcs_shard(void *arg) {
    WlcsShard *shard = arg;
    const WlcsJob *job = shard->job;
    WlcsScratch s;
    memset(&s, 0, sizeof(s));
    s.ctl = job->ctl;
    if (job->summary) {
        size_t n = (size_t)(job->vocab > 0 ? job->vocab : 1);
        s.model_count = calloc(n, sizeof(int32_t));
        s.peer_count = calloc(n, sizeof(int32_t));
        if (!s.model_count || !s.peer_count) s.failed = RUN_NO_MEMORY;
    } else if (job->vocab > 0 && job->vocab <= WLCS_RESTRICT_VOCAB) {
        /* without the tables (no memory) the whole texts run: the same values, slower */
        s.vocab = job->vocab;
        s.seen_x = calloc((size_t)s.vocab, sizeof(uint32_t));
        s.seen_y = calloc((size_t)s.vocab, sizeof(uint32_t));
    }
    while (!s.failed) {
        int64_t first = FETCH_ADD64(job->next, job->block);
        if (first >= job->n_pairs) break;
        int64_t last = first + job->block < job->n_pairs ? first + job->block : job->n_pairs;
        for (int64_t k = first; k < last && !s.failed; k++) {
            int64_t a = job->pair_a[k], b = job->pair_b[k];
            const int32_t *at = job->tokens + job->doc_start[a];
            const int32_t *bt = job->tokens + job->doc_start[b];
            int64_t la = job->doc_start[a + 1] - job->doc_start[a];
            int64_t lb = job->doc_start[b + 1] - job->doc_start[b];
            if (!job->summary) {
                job->out[k] = wlcs_value(&s, at, la, bt, lb, job->f);
            } else if (!wlcs_summary(&s, job->sent_tokens, job->sent_start, job->doc_sent[b],
                                     job->doc_sent[b + 1], job->doc_sent[a],
                                     job->doc_sent[a + 1], bt, lb, at, la, job->f,
                                     &job->out[2 * k], &job->out[2 * k + 1])) {
                if (!s.failed) s.failed = RUN_NO_MEMORY;
            }
            wlcs_tick(&s, la + lb);
        }
    }
    shard->status = s.failed;
    free(s.c0);
    free(s.c1);
    free(s.l0);
    free(s.l1);
    free(s.check_c);
    free(s.check_l);
    free(s.moves);
    free(s.mask);
    free(s.model_count);
    free(s.peer_count);
    free(s.xs);
    free(s.ys);
    free(s.seen_x);
    free(s.seen_y);
}

/* Run the job on n threads (1 <= n <= MAX_THREADS): RUN_OK, RUN_STOPPED or RUN_NO_MEMORY. */
static int wlcs_run(WlcsJob *job, int n) {
    WlcsShard shards[MAX_THREADS];
    int64_t next = 0;
    job->next = &next;
    job->block = shard_block(job->n_pairs, n);
    for (int k = 0; k < n; k++) {
        shards[k].job = job;
        shards[k].status = RUN_OK;
    }
    run_parallel_polled(wlcs_shard, shards, sizeof(WlcsShard), n, job->ctl);
    int status = RUN_OK;
    for (int k = 0; k < n; k++)
        if (shards[k].status > status) status = shards[k].status;
    return status;
}

#endif /* ROUGE_LCS_WLCS_H */
