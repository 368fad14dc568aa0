/*
 * py_wlcs.h: wlcs(), ROUGE-W's weighted LCS and the script's summary-level marks (wlcs.h).
 *
 * Included by module.c after Python.h and the stage headers (one translation unit).
 */
#ifndef ROUGE_LCS_PY_WLCS_H
#define ROUGE_LCS_PY_WLCS_H

PyDoc_STRVAR(wlcs_doc,
"wlcs(tokens, doc_start, sent_tokens, sent_start, doc_sent, pair_a, pair_b, weight, vocab,\n"
"     summary, out, num_threads)\n"
"--\n\n"
"ROUGE-W's weighted LCS with f(k) = k ** weight (csrc/wlcs.h).  Without ``summary``: fill\n"
"``out`` (float64, one per pair) with the table's value of documents pair_a[k] and pair_b[k].\n"
"With ``summary``: ROUGE-1.5.5's summary-level ROUGE-W of peer pair_a[k] and model pair_b[k]\n"
"(their sentences' marks, runs clipped by the whole documents' unigram counts): ``out`` gets\n"
"(hit, base) per pair, base the sum over model sentences of len ** weight.  Buffers: int32\n"
"ids below ``vocab``, int64 offsets and indices; weight from 1 to 10.  The GIL is released;\n"
"pairs are split over ``num_threads`` threads.");

static PyObject *py_wlcs(PyObject *self, PyObject *args) {
    Py_buffer b[8];
    double weight;
    Py_ssize_t vocab;
    int summary, num_threads;
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*dnpw*i", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
                          &b[6], &weight, &vocab, &summary, &b[7], &num_threads))
        return NULL;
    PyObject *result = NULL;
    double *f = NULL;
    static const BufferArg specs[8] = {
        {"tokens", 4, 0},   {"doc_start", 8, 0}, {"sent_tokens", 4, 0}, {"sent_start", 8, 0},
        {"doc_sent", 8, 0}, {"pair_a", 8, 0},    {"pair_b", 8, 0},      {"out", 8, 1},
    };
    Py_ssize_t len[8];
    if (!check_buffers(b, specs, 8, len, NULL)) goto done;
    Py_ssize_t n_tok = len[0], n_doc1 = len[1], n_stok = len[2], n_sent1 = len[3];
    Py_ssize_t n_docsent1 = len[4], n_pairs = len[5], n_b = len[6], n_out = len[7];
    if (!(weight >= 1.0 && weight <= 10.0)) { /* NaN fails too */
        PyErr_SetString(PyExc_ValueError, "wlcs: weight must be from 1 to 10");
        goto done;
    }
    if (vocab < 0 || vocab > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "wlcs: vocab out of range");
        goto done;
    }
    if (n_b != n_pairs || n_out != (summary ? 2 * n_pairs : n_pairs)) {
        PyErr_SetString(PyExc_ValueError, "wlcs: inconsistent buffer sizes");
        goto done;
    }
    if (!check_disjoint(&b[7], b, 7, "wlcs")) goto done;
    WlcsJob job;
    memset(&job, 0, sizeof(job));
    job.tokens = b[0].buf;
    job.doc_start = b[1].buf;
    job.pair_a = b[5].buf;
    job.pair_b = b[6].buf;
    job.n_pairs = n_pairs;
    job.weight = weight;
    job.vocab = vocab;
    job.summary = summary;
    job.out = b[7].buf;
    Py_ssize_t n_docs = n_doc1 - 1;
    if (!check_offsets(job.doc_start, n_doc1, n_tok, "doc_start") ||
        !check_ids(job.tokens, n_tok, vocab, "tokens") ||
        !check_index(job.pair_a, n_pairs, n_docs, "pair_a") ||
        !check_index(job.pair_b, n_pairs, n_docs, "pair_b"))
        goto done;
    int64_t longest = 0;
    for (Py_ssize_t d = 0; d < n_docs; d++)
        if (job.doc_start[d + 1] - job.doc_start[d] > longest)
            longest = job.doc_start[d + 1] - job.doc_start[d];
    if (summary) {
        job.sent_tokens = b[2].buf;
        job.sent_start = b[3].buf;
        job.doc_sent = b[4].buf;
        if (!check_sentences(job.sent_start, n_sent1, job.doc_sent, n_docsent1, n_doc1,
                             job.sent_tokens, n_stok, vocab))
            goto done;
        for (Py_ssize_t t = 0; t + 1 < n_sent1; t++)
            if (job.sent_start[t + 1] - job.sent_start[t] > longest)
                longest = job.sent_start[t + 1] - job.sent_start[t];
    }
    /* f(0 .. longest + 1): every run and every (k + 1) of the table is at most that */
    f = PyMem_Malloc((size_t)(longest + 2) * sizeof(double));
    if (f == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (int64_t k = 0; k < longest + 2; k++) f[k] = pow((double)k, weight);
    job.f = f;
    num_threads = pair_threads(num_threads, n_pairs);
    if (summary) num_threads = threads_within_budget(num_threads, vocab);
    SignalPoll signals;
    Control control;
    control_init(&control, poll_signals, &signals);
    job.ctl = &control;
    signals.ts = PyEval_SaveThread();
    int status = wlcs_run(&job, num_threads);
    PyEval_RestoreThread(signals.ts);
    if (!kernel_done(status)) goto done;
    result = PyLong_FromLong(num_threads); /* the threads that ran (tests check the wiring) */
done:
    PyMem_Free(f);
    release_buffers(b, 8);
    return result;
}

#endif
