/*
 * One-against-many ROUGE similarity on token ids (rouge_lcs/engine/reference/similarity.py in C;
 * the Python caller is rouge_lcs/engine/similarity.py).
 *
 * Plain C, no Python: the binding in py_similarity.h checks every argument and then calls sim_run.
 *
 * A job is a list of rows; row r scores query row_query[r] (prediction) against the choices
 * cands[cand_lo[r] .. cand_hi[r]) (references).  Per pair it finds `hits`:
 *
 *   SIM_LCS      the LCS length of the two token sequences (ROUGE-L), bit-parallel: the query's
 *                match masks are built once per row, each choice token then costs one lookup
 *                and ceil(m/64) steps of lcs_step.h (the one definition of Hyyro's step);
 *   SIM_OVERLAP  the clipped overlap sum_u min(count_q(u), count_c(u)) of the units (the ids
 *                of n-grams: ROUGE-N hits).
 *
 * Bounds: hits <= min(m, n), and for the LCS hits <= the clipped unigram overlap.  The score is
 * monotone in hits for fixed lengths, so a pair whose score at the bound cannot pass the floor
 * (or, for top-k, cannot enter the current top k) is skipped without its LCS.  The score is
 * computed with the operations of rouge_lcs/engine/stats.py::prf, in the same order (the Python
 * twin is rouge_lcs/engine/similarity.py::pair_score), so decisions here are the ones the
 * Python engine takes.
 *
 * Output: k == 0: out_hits[out_start(r) + j] = hits of the j-th candidate of row r, or -1 when
 * it was pruned (its score cannot pass the floor); rows are laid out one after the other.
 * k > 0: for each row its k best candidates (score descending, lower choice index on ties),
 * out_index / out_hits [r * k ...], out_count[r] of them (fewer when fewer pass the floor).
 *
 * Memory is linear in the input.  A query of at most one strip (STRIP_WORDS words, 4,096
 * tokens) keeps a dense mask table (distinct tokens x words: at most 2 MiB), built once per
 * row; a longer query's table would be quadratic (4.8 GB for 200,000 words), so its pairs go
 * to kernels.h's lcs_length, which builds masks per strip of the shorter side with a carry bit
 * per row between strips.  Only then is a Workspace (two vocabulary-sized tables, 8 bytes an
 * id) allocated, once per thread.  A query's distinct ids are looked up in a table indexed by
 * id (12 bytes an id: the distinct-token number, and a one-word query's match mask, so that a
 * short pair costs one load and one step a choice token) where the vocabulary is at most
 * SIM_DENSE_MAX and a few times the shard's tokens; otherwise in a small hash table: either
 * way a call costs O(query + candidates' tokens).  Choice token ids are range-checked as they
 * are read (status SIM_BAD_ID).  Rows are split over threads by their
 * candidate counts; results never depend on the number of threads.
 *
 * It includes kernels.h for the helpers it shares: grow, popcount64, run_parallel and, for long
 * queries, lcs_length.
 */
#ifndef ROUGE_LCS_SIMILARITY_H
#define ROUGE_LCS_SIMILARITY_H

/* clock_gettime and CLOCK_MONOTONIC (kernels.h's signal polling) under -std=c99; before any
 * system header, so that a file compiled on its own sees them too (Python.h sets it anyway). */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "kernels.h" /* grow, popcount64, run_parallel, lcs_length */
#include "lcs_step.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { SIM_LCS = 0, SIM_OVERLAP = 1 };
enum { SIM_FMEASURE = 0, SIM_PRECISION = 1, SIM_RECALL = 2 };
enum { SIM_OK = 0, SIM_NO_MEMORY = 1, SIM_BAD_ID = 2 };
/* sim_pair's answers besides hits >= 0 */
enum { SIM_PRUNED = -1, SIM_PAIR_BAD_ID = -2, SIM_PAIR_NO_MEMORY = -3 };
/* Below this many candidates in all, one thread: starting threads would cost more. */
#define SIM_MIN_PARALLEL 4096
/* Largest vocabulary looked up through a table indexed by id (12 MiB a thread). */
#define SIM_DENSE_MAX (1 << 20)

typedef struct {
    const int32_t *q_ids;
    const int64_t *q_starts;
    const int64_t *row_query;
    const int32_t *ids;
    const int64_t *starts;
    const int64_t *cands;
    const int64_t *cand_lo, *cand_hi;
    int64_t rows;
    int64_t vocab;
    int kind, measure, strict;
    double b2, floor;
    int64_t k;
    int64_t *out_hits, *out_index, *out_count;
    const int64_t *out_start; /* k == 0: where each row's output begins (rows + 1) */
} SimJob;

typedef struct {
    int64_t size;       /* hash slots, a power of two */
    int32_t *key;       /* token id or -1 */
    int32_t *slot;      /* distinct-token number of a hash slot */
    int32_t *qcount;    /* per distinct query token: occurrences in the query */
    int32_t *used;      /* per distinct query token: matched so far in this choice (kept 0) */
    uint64_t *masks;    /* per distinct query token: `words` words of positions (one strip) */
    uint64_t *vec;
    int32_t *cslots;    /* per choice token: its distinct-query-token number, or -1 */
    int64_t key_cap, slot_cap, qcount_cap, used_cap, masks_cap, vec_cap, cslots_cap;
    int64_t m, words, query; /* the query the tables describe (-1: none) */
    const int32_t *q_tokens; /* its tokens */
    double *top_score;  /* k > 0: scores of the row's current top k */
    int32_t *dense;     /* NULL, or per id: the distinct-query-token number, or -1 */
    uint64_t *word_mask; /* with dense, per id: a one-word query's match mask, or 0 */
    Workspace ws;       /* queries longer than a strip: lcs_length's scratch */
    int ws_ready;       /* ws is initialised (and must be freed) */
} SimScratch;

#define SIM_GROW(s, field, cap, need) \
    grow((void **)&(s)->field, &(s)->cap, (need), sizeof(*(s)->field))

static void sim_scratch_free(SimScratch *s) {
    free(s->key);
    free(s->slot);
    free(s->qcount);
    free(s->used);
    free(s->masks);
    free(s->vec);
    free(s->cslots);
    free(s->top_score);
    free(s->dense);
    free(s->word_mask);
    if (s->ws_ready) workspace_free(&s->ws);
}

static inline uint64_t sim_hash(int32_t id) { return (uint64_t)(uint32_t)id * 0x9E3779B97F4A7C15ull; }

static inline int32_t sim_lookup(const SimScratch *s, int32_t id) {
    if (s->dense != NULL) return s->dense[id];
    uint64_t mask = (uint64_t)s->size - 1, h = (sim_hash(id) >> 32) & mask;
    for (;;) {
        int32_t key = s->key[h];
        if (key == id) return s->slot[h];
        if (key < 0) return -1;
        h = (h + 1) & mask;
    }
}

/* Tables for query q: its distinct ids, their counts and, when it fits one strip, match masks
 * (longer queries' pairs go to lcs_length: a table over all their words would be quadratic).
 * 0 on no memory. */
static int sim_build_query(SimScratch *s, const SimJob *job, int64_t q) {
    if (s->query == q) return 1;
    const int32_t *t = job->q_ids + job->q_starts[q];
    int64_t m = job->q_starts[q + 1] - job->q_starts[q];
    int64_t words = (m + 63) / 64, size = 16;
    int dense = words <= STRIP_WORDS;
    while (size < 2 * m) size *= 2;
    if (!SIM_GROW(s, key, key_cap, size) || !SIM_GROW(s, slot, slot_cap, size) ||
        !SIM_GROW(s, qcount, qcount_cap, m + 1) || !SIM_GROW(s, used, used_cap, m + 1) ||
        (dense && (!SIM_GROW(s, masks, masks_cap, (m + 1) * (words + 1)) ||
                   !SIM_GROW(s, vec, vec_cap, words + 1))))
        return 0;
    if (s->dense != NULL && s->query >= 0) /* forget the last query's ids */
        for (int64_t i = 0; i < s->m; i++) {
            s->dense[s->q_tokens[i]] = -1;
            s->word_mask[s->q_tokens[i]] = 0;
        }
    s->size = size;
    if (s->dense == NULL)
        for (int64_t h = 0; h < size; h++) s->key[h] = -1;
    int64_t distinct = 0;
    uint64_t hmask = (uint64_t)size - 1;
    for (int64_t i = 0; i < m; i++) {
        int32_t d;
        int fresh = 0;
        if (s->dense != NULL) {
            d = s->dense[t[i]];
            if (d < 0) {
                d = (int32_t)distinct++;
                s->dense[t[i]] = d;
                fresh = 1;
            }
        } else {
            uint64_t h = (sim_hash(t[i]) >> 32) & hmask;
            while (s->key[h] >= 0 && s->key[h] != t[i]) h = (h + 1) & hmask;
            if (s->key[h] < 0) {
                d = (int32_t)distinct++;
                s->key[h] = t[i];
                s->slot[h] = d;
                fresh = 1;
            } else {
                d = s->slot[h];
            }
        }
        if (fresh) {
            s->qcount[d] = 0;
            s->used[d] = 0;
            if (dense) memset(s->masks + (int64_t)d * words, 0, (size_t)words * sizeof(uint64_t));
        }
        s->qcount[d]++;
        if (dense) s->masks[(int64_t)d * words + i / 64] |= (uint64_t)1 << (i % 64);
    }
    if (s->dense != NULL && words == 1)
        for (int64_t i = 0; i < m; i++) s->word_mask[t[i]] = s->masks[s->dense[t[i]]];
    s->q_tokens = t;
    s->m = m;
    s->words = words;
    s->query = q;
    return 1;
}

/* The score of `hits` for lengths (m prediction, n reference): multiref.py::prf's operations. */
static inline double sim_score(const SimJob *job, int64_t hits, int64_t m, int64_t n) {
    double p = m > 0 ? (double)hits / (double)m : 0.0;
    double r = n > 0 ? (double)hits / (double)n : 0.0;
    if (job->measure == SIM_PRECISION) return p;
    if (job->measure == SIM_RECALL) return r;
    double den = r + job->b2 * p;
    return den > 0 ? (1.0 + job->b2) * p * r / den : 0.0;
}

/* Whether (score, index) may be kept: passes the floor and, for top-k, beats the k-th. */
static inline int sim_may_enter(const SimJob *job, const SimScratch *s, int64_t count,
                                int64_t *top_index, double score, int64_t index) {
    if (job->strict ? !(score > job->floor) : !(score >= job->floor)) return 0;
    if (job->k == 0 || count < job->k) return 1;
    double worst = s->top_score[job->k - 1];
    return score > worst || (score == worst && index < top_index[job->k - 1]);
}

/* Hits of the current query against choice c, or SIM_PRUNED when it cannot enter,
 * SIM_PAIR_BAD_ID, SIM_PAIR_NO_MEMORY. */
static int64_t sim_pair(SimScratch *s, const SimJob *job, int64_t c, int64_t count,
                        int64_t *top_index) {
    const int32_t *t = job->ids + job->starts[c];
    int64_t n = job->starts[c + 1] - job->starts[c], m = s->m;
    int64_t bound = m < n ? m : n;
    if (!sim_may_enter(job, s, count, top_index, sim_score(job, bound, m, n), c))
        return SIM_PRUNED;
    int64_t overlap = 0;
    int32_t *cs = s->cslots;
    if (s->words == 1 && job->kind == SIM_LCS) {
        /* one word: the LCS costs less than the pruning test would save; no carry between
         * words (each step starts from carry 0) */
        uint64_t v = ~(uint64_t)0;
        if (s->word_mask != NULL) {
            for (int64_t j = 0; j < n; j++) {
                int32_t id = t[j];
                if (id < 0 || id >= job->vocab) return SIM_PAIR_BAD_ID;
                uint64_t carry = 0;
                v = lcs_step(v, s->word_mask[id], &carry);
            }
        } else {
            for (int64_t j = 0; j < n; j++) {
                int32_t id = t[j];
                if (id < 0 || id >= job->vocab) return SIM_PAIR_BAD_ID;
                int32_t d = sim_lookup(s, id);
                if (d >= 0) {
                    uint64_t carry = 0;
                    v = lcs_step(v, s->masks[d], &carry);
                }
            }
        }
        uint64_t low = m == 64 ? ~(uint64_t)0 : (((uint64_t)1 << m) - 1);
        return popcount64(~v & low);
    }
    for (int64_t j = 0; j < n; j++) {
        int32_t id = t[j];
        if (id < 0 || id >= job->vocab) {
            for (int64_t i = 0; i < j; i++)
                if (cs[i] >= 0) s->used[cs[i]] = 0;
            return SIM_PAIR_BAD_ID;
        }
        int32_t d = sim_lookup(s, id);
        cs[j] = d;
        if (d >= 0 && s->used[d] < s->qcount[d]) {
            s->used[d]++;
            overlap++;
        }
    }
    for (int64_t j = 0; j < n; j++)
        if (cs[j] >= 0) s->used[cs[j]] = 0;
    if (job->kind == SIM_OVERLAP) return overlap;
    if (!sim_may_enter(job, s, count, top_index, sim_score(job, overlap, m, n), c))
        return SIM_PRUNED;
    if (s->words > STRIP_WORDS) {
        /* no dense table: strip-wise, bits over the shorter side (all ids checked above) */
        if (!s->ws_ready) {
            if (!workspace_init(&s->ws, job->vocab)) {
                workspace_free(&s->ws);
                return SIM_PAIR_NO_MEMORY;
            }
            s->ws_ready = 1;
        }
        int64_t lcs = lcs_length(&s->ws, s->q_tokens, m, t, n);
        return lcs < 0 ? SIM_PAIR_NO_MEMORY : lcs;
    }
    int64_t words = s->words;
    uint64_t *v = s->vec;
    for (int64_t w = 0; w < words; w++) v[w] = ~(uint64_t)0;
    for (int64_t j = 0; j < n; j++) {
        int32_t d = cs[j];
        if (d < 0) continue;
        const uint64_t *mask = s->masks + (int64_t)d * words;
        uint64_t carry = 0;
        for (int64_t w = 0; w < words; w++) v[w] = lcs_step(v[w], mask[w], &carry);
    }
    int64_t lcs = 0;
    for (int64_t w = 0; w < words; w++) {
        uint64_t low = ~(uint64_t)0;
        if (w == words - 1 && m % 64) low = ((uint64_t)1 << (m % 64)) - 1;
        lcs += popcount64(~v[w] & low);
    }
    return lcs;
}

typedef struct {
    const SimJob *job;
    int64_t r0, r1;
    int status;
} SimShard;

static int sim_shard_run(const SimJob *job, int64_t r0, int64_t r1) {
    SimScratch s;
    memset(&s, 0, sizeof(s));
    s.query = -1;
    int status = SIM_OK;
    int64_t max_n = 1, tokens = 0;
    for (int64_t r = r0; r < r1; r++)
        for (int64_t j = job->cand_lo[r]; j < job->cand_hi[r]; j++) {
            int64_t c = job->cands[j], n = job->starts[c + 1] - job->starts[c];
            if (n > max_n) max_n = n;
            tokens += n;
        }
    if (!SIM_GROW(&s, cslots, cslots_cap, max_n) ||
        (job->k > 0 && (s.top_score = malloc((size_t)job->k * sizeof(double))) == NULL)) {
        sim_scratch_free(&s);
        return SIM_NO_MEMORY;
    }
    if (job->vocab <= SIM_DENSE_MAX && job->vocab <= 4 * tokens + 65536) {
        /* a table indexed by id; where it cannot be had, the hash table serves */
        s.dense = malloc((size_t)job->vocab * sizeof(int32_t));
        s.word_mask = calloc((size_t)job->vocab, sizeof(uint64_t));
        if (s.dense == NULL || s.word_mask == NULL) {
            free(s.dense);
            free(s.word_mask);
            s.dense = NULL;
            s.word_mask = NULL;
        } else {
            memset(s.dense, 0xff, (size_t)job->vocab * sizeof(int32_t));
        }
    }
    for (int64_t r = r0; r < r1 && status == SIM_OK; r++) {
        if (!sim_build_query(&s, job, job->row_query[r])) {
            status = SIM_NO_MEMORY;
            break;
        }
        int64_t q = job->row_query[r];
        int64_t m = job->q_starts[q + 1] - job->q_starts[q];
        int64_t *top_index = job->k ? job->out_index + r * job->k : NULL;
        int64_t *top_hits = job->k ? job->out_hits + r * job->k : NULL;
        int64_t count = 0;
        for (int64_t j = job->cand_lo[r]; j < job->cand_hi[r]; j++) {
            int64_t c = job->cands[j];
            int64_t hits = sim_pair(&s, job, c, count, top_index);
            if (hits == SIM_PAIR_BAD_ID || hits == SIM_PAIR_NO_MEMORY) {
                status = hits == SIM_PAIR_BAD_ID ? SIM_BAD_ID : SIM_NO_MEMORY;
                break;
            }
            if (job->k == 0) {
                job->out_hits[job->out_start[r] + (j - job->cand_lo[r])] = hits;
                continue;
            }
            if (hits < 0) continue;
            int64_t n = job->starts[c + 1] - job->starts[c];
            double score = sim_score(job, hits, m, n);
            if (!sim_may_enter(job, &s, count, top_index, score, c)) continue;
            /* insert, best first (score descending, lower index first on ties) */
            int64_t at = count < job->k ? count : job->k - 1;
            while (at > 0 && (score > s.top_score[at - 1] ||
                              (score == s.top_score[at - 1] && c < top_index[at - 1]))) {
                s.top_score[at] = s.top_score[at - 1];
                top_index[at] = top_index[at - 1];
                top_hits[at] = top_hits[at - 1];
                at--;
            }
            s.top_score[at] = score;
            top_index[at] = c;
            top_hits[at] = hits;
            if (count < job->k) count++;
        }
        if (job->k) job->out_count[r] = count;
    }
    sim_scratch_free(&s);
    return status;
}

static void sim_task(void *arg) {
    SimShard *shard = (SimShard *)arg;
    shard->status = sim_shard_run(shard->job, shard->r0, shard->r1);
}

/* Run the job on up to `workers` threads (the first on the calling thread): SIM_OK or an
 * error status.  Rows are split so that each thread gets about as many candidates. */
static int sim_run(const SimJob *job, int workers) {
    int64_t total = 0;
    for (int64_t r = 0; r < job->rows; r++) total += job->cand_hi[r] - job->cand_lo[r];
    if (workers > MAX_THREADS) workers = MAX_THREADS;
    if (workers > job->rows) workers = job->rows > 0 ? (int)job->rows : 1;
    if (total < SIM_MIN_PARALLEL || workers < 1) workers = 1;
    SimShard shards[MAX_THREADS];
    int64_t r = 0, seen = 0;
    for (int w = 0; w < workers; w++) {
        shards[w].job = job;
        shards[w].r0 = r;
        int64_t goal = total * (w + 1) / workers;
        while (r < job->rows && (w == workers - 1 || seen < goal)) {
            seen += job->cand_hi[r] - job->cand_lo[r];
            r++;
        }
        shards[w].r1 = r;
        shards[w].status = SIM_OK;
    }
    run_parallel(sim_task, shards, sizeof(SimShard), workers);
    int status = SIM_OK;
    for (int w = 0; w < workers && status == SIM_OK; w++) status = shards[w].status;
    return status;
}

#endif /* ROUGE_LCS_SIMILARITY_H */
