/*
 * py_counts.h: ROUGE-N, ROUGE-L and ROUGE-Lsum counts (kernels.h): counts() of a batch's
 * pairs on threads without the GIL, and Encoder.pair_scores(), one example encoded, counted and
 * combined on the calling thread.
 *
 * Included by module.c after Python.h and the stage headers (one translation unit).
 */
#ifndef ROUGE_LCS_PY_COUNTS_H
#define ROUGE_LCS_PY_COUNTS_H

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
    static const BufferArg specs[9] = {
        {"tokens", 4, 0},   {"doc_start", 8, 0}, {"sent_tokens", 4, 0},
        {"sent_start", 8, 0}, {"doc_sent", 8, 0}, {"pair_pred", 8, 0},
        {"pair_ref", 8, 0}, {"types", 8, 0},     {"out", 8, 1},
    };
    Py_ssize_t len[9];
    Job job;
    if (!check_buffers(b, specs, 9, len, NULL)) goto done;
    Py_ssize_t n_tok = len[0], n_doc1 = len[1], n_stok = len[2], n_sent1 = len[3];
    Py_ssize_t n_docsent1 = len[4], n_pairs = len[5], n_ref = len[6], n_types2 = len[7];
    Py_ssize_t n_out = len[8];
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
    Py_ssize_t cells, n_values;
    if (!checked_mul(n_pairs, (Py_ssize_t)job.n_types, &cells, "counts") ||
        !checked_mul(cells, 3, &n_values, "counts"))
        goto done;
    if (n_types2 % 2 || n_ref != n_pairs || n_out != n_values) {
        PyErr_SetString(PyExc_ValueError, "counts: inconsistent buffer sizes");
        goto done;
    }
    if (!check_disjoint(&b[8], b, 8, "counts")) goto done;
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
    if (needs_sentences && !check_sentences(job.sent_start, n_sent1, job.doc_sent, n_docsent1,
                                            n_doc1, job.sent_tokens, n_stok, vocab))
        goto done;
    num_threads = threads_within_budget(pair_threads(num_threads, n_pairs), job.vocab);
    Shard shards[MAX_THREADS];
    int64_t next_pair = 0;
    job.n_pairs = n_pairs;
    job.block = shard_block(n_pairs, num_threads);
    job.next = &next_pair;
    for (int k = 0; k < num_threads; k++) {
        shards[k].job = &job;
        shards[k].status = RUN_OK;
    }
    SignalPoll signals;
    Control control;
    control_init(&control, poll_signals, &signals);
    job.ctl = &control;
    signals.ts = PyEval_SaveThread();
    int status = run_shards(shards, num_threads);
    PyEval_RestoreThread(signals.ts);
    if (!kernel_done(status)) goto done;
    result = PyLong_FromLong(num_threads); /* the threads that ran (tests check the wiring) */
done:
    release_buffers(b, 9);
    return result;
}

PyDoc_STRVAR(pair_scores_doc,
"pair_scores(texts, types, mode, beta, split_mode, splitter, out_counts, out_p, out_r, out_f)\n"
"--\n\n"
"One example in one call: ``texts`` is ``[prediction, *references]`` (at least one reference),\n"
"encoded as encode() does (split_mode -1) or as encode_sentences(texts, split_mode, splitter)\n"
"does, each reference paired with the prediction, counted as counts() counts (types: int64\n"
"(kind, n) pairs) into out_counts (int64, references x types x 3) and combined as combine()\n"
"does into out_p / out_r / out_f (float64, one per type).  On the calling thread, with the\n"
"GIL held (for short texts: the caller sends long ones to counts()), on a workspace the\n"
"encoder keeps between calls, so that no vocabulary-sized table is made per call.");

/* The counts of a Job's pairs on the encoder's kept workspace; 0 with MemoryError (the
 * workspace is then dropped: its tables may be half-cleared). */
static int pair_counts_kept(Encoder *e, Job *job) {
    if (e->pair_ws == NULL) {
        e->pair_ws = malloc(sizeof(Workspace));
        if (e->pair_ws == NULL || !workspace_init(e->pair_ws, 1)) goto fail;
    }
    Workspace *ws = e->pair_ws;
    if (!workspace_reserve(ws, job->vocab)) goto fail;
    ws->failed = RUN_OK;
    ws->ctl = NULL;
    ws->table_for = NULL;
    shard_pairs(job, ws, 0, job->n_pairs);
    release_table(ws); /* its candidate's ids are in this call's buffers */
    ws->table_for = NULL;
    if (ws->failed == RUN_OK) return 1;
fail:
    if (e->pair_ws != NULL) {
        workspace_free(e->pair_ws);
        free(e->pair_ws);
        e->pair_ws = NULL;
    }
    PyErr_NoMemory();
    return 0;
}

/* References of an example whose buffers pair_core keeps on its stack. */
#define PAIR_SMALL 64

/* pair_scores' work after its checks: `texts` (a sequence: the prediction, then its
 * n_texts - 1 references) encoded, each reference paired with the prediction, counted into
 * `counts` and combined into p / r / f; 1, or 0 with an exception. */
static int pair_core(Encoder *e, PyObject *texts, Py_ssize_t n_texts, const int64_t *types,
                     Py_ssize_t n_types, int mode, double beta, int split_mode,
                     PyObject *splitter, PyObject **model_slot, int64_t *counts, double *p,
                     double *r, double *f) {
    /* encode() / encode_sentences()'s own work (encode_into, sentences_into: the same checks
     * and errors), read from the encoder's buffers where those calls copied it into bytes
     * objects; without a stemmer, ids of this call alone (Encoder.local_ids); a plan's kept
     * Punkt model.  The counting runs inside the encoder's call (busy), on what it wrote. */
    if (split_mode >= 0 && !split_args_ok(split_mode, splitter, "pair_scores")) return 0;
    PyObject *seq = encoder_enter(e, texts);
    if (seq == NULL) return 0;
    /* the texts as the call's tuple holds them: as many as the caller sized `counts` for */
    int64_t small[2 * (PAIR_SMALL + 2)], *doc_sent = small, *starts = small + PAIR_SMALL + 2;
    int64_t pair_pred[PAIR_SMALL], pair_ref[PAIR_SMALL], *pp = pair_pred, *pr = pair_ref;
    int64_t n_refs = n_texts - 1;
    int ok = 0;
    if (PyTuple_GET_SIZE(seq) != n_texts) {
        PyErr_SetString(PyExc_ValueError, "pair_scores: texts changed size while read");
        goto done;
    }
    if (n_refs > PAIR_SMALL) {
        doc_sent = malloc((size_t)(n_texts + 1) * 2 * sizeof(int64_t));
        starts = doc_sent + n_texts + 1;
        pp = malloc((size_t)n_refs * sizeof(int64_t));
        pr = malloc((size_t)n_refs * sizeof(int64_t));
        if (doc_sent == NULL || pp == NULL || pr == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    e->local_ids = e->stem == NULL && encoder_collects(e);
    e->model_slot = model_slot;
    int encoded = split_mode < 0 ? encode_into(e, seq, 1, starts)
                                 : sentences_into(e, seq, split_mode, splitter, 1, doc_sent);
    int local = e->local_ids;
    e->local_ids = 0;
    e->model_slot = NULL;
    if (!encoded) goto done;
    /* encode: each text's token offsets; encode_sentences: its sentences', and the text's
     * tokens are its sentences' put together */
    if (split_mode >= 0)
        for (Py_ssize_t k = 0; k <= n_texts; k++) starts[k] = e->soff[doc_sent[k]];
    for (int64_t k = 0; k < n_refs; k++) {
        pp[k] = 0;
        pr[k] = k + 1;
    }
    Job job;
    memset(&job, 0, sizeof(job));
    job.tokens = e->out;
    job.doc_start = starts;
    job.sent_tokens = job.tokens;
    job.sent_start = split_mode < 0 ? NULL : e->soff;
    job.doc_sent = split_mode < 0 ? NULL : doc_sent;
    job.pair_pred = pp;
    job.pair_ref = pr;
    job.types = types;
    job.n_types = n_types;
    int64_t vocab = local ? e->n_local : e->n_ids;
    job.vocab = vocab > 0 ? vocab : 1;
    job.out = counts;
    job.n_pairs = n_refs;
    if (pair_counts_kept(e, &job)) {
        combine_scores(counts, n_types, &n_refs, 1, mode, beta * beta, p, r, f);
        ok = 1;
    }
done:
    if (doc_sent != small) free(doc_sent);
    if (pp != pair_pred) free(pp);
    if (pr != pair_ref) free(pr);
    encoder_leave(e, seq);
    return ok;
}

/* A rouge type list's checks (int64 (kind, n) pairs of the kinds pair_scores counts); *lsum
 * says whether one is ROUGE-Lsum.  0 with a ValueError naming `function`. */
static int pair_types_ok(const int64_t *types, Py_ssize_t n_types, int *lsum,
                         const char *function) {
    *lsum = 0;
    for (Py_ssize_t t = 0; t < n_types; t++) {
        int64_t kind = types[2 * t], n = types[2 * t + 1];
        if (kind < KIND_N || kind > KIND_LSUM || (kind == KIND_N && (n < 1 || n > INT32_MAX))) {
            PyErr_Format(PyExc_ValueError, "%s: bad rouge type", function);
            return 0;
        }
        *lsum |= kind == KIND_LSUM;
    }
    return 1;
}

static PyObject *encoder_pair_scores(Encoder *e, PyObject *args) {
    PyObject *texts, *splitter;
    int mode, split_mode;
    double beta;
    Py_buffer b[5];
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "Oy*idiOw*w*w*w*:pair_scores", &texts, &b[0], &mode, &beta,
                          &split_mode, &splitter, &b[1], &b[2], &b[3], &b[4]))
        return NULL;
    PyObject *result = NULL;
    static const BufferArg specs[5] = {
        {"types", 8, 0}, {"out_counts", 8, 1}, {"out_p", 8, 1}, {"out_r", 8, 1}, {"out_f", 8, 1},
    };
    Py_ssize_t len[5];
    if (!check_buffers(b, specs, 5, len, NULL)) goto done;
    Py_ssize_t n_types = len[0] / 2, n_texts = PySequence_Size(texts);
    if (n_texts < 0) goto done;
    if (len[0] % 2 || n_types < 1 || n_texts < 2 || len[1] != (n_texts - 1) * n_types * 3 ||
        len[2] != n_types || len[3] != n_types || len[4] != n_types) {
        PyErr_SetString(PyExc_ValueError, "pair_scores: inconsistent buffer sizes");
        goto done;
    }
    if (mode < COMBINE_MAX_F || mode > COMBINE_MEAN || !(beta > 0) || !(beta * beta < HUGE_VAL)) {
        PyErr_SetString(PyExc_ValueError, "pair_scores: expected mode 0-3 and a finite beta > 0");
        goto done;
    }
    if (!check_disjoint(&b[1], b, 1, "pair_scores") ||
        !check_disjoint(&b[2], b, 2, "pair_scores") ||
        !check_disjoint(&b[3], b, 3, "pair_scores") || !check_disjoint(&b[4], b, 4, "pair_scores"))
        goto done;
    const int64_t *types = b[0].buf;
    int needs_sentences;
    if (!pair_types_ok(types, n_types, &needs_sentences, "pair_scores")) goto done;
    if (needs_sentences && split_mode < 0) {
        PyErr_SetString(PyExc_ValueError, "pair_scores: ROUGE-Lsum needs a split_mode");
        goto done;
    }
    if (pair_core(e, texts, n_texts, types, n_types, mode, beta, split_mode, splitter, NULL,
                  b[1].buf, b[2].buf, b[3].buf, b[4].buf))
        result = Py_NewRef(Py_None);
done:
    release_buffers(b, 5);
    return result;
}

#endif
