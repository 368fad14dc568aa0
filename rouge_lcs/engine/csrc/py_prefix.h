/*
 * py_prefix.h: prefix_counts(), the counts of every prefix of a prediction (prefix.h).
 *
 * Included by module.c after Python.h and the stage headers (one translation unit).
 */
#ifndef ROUGE_LCS_PY_PREFIX_H
#define ROUGE_LCS_PY_PREFIX_H

PyDoc_STRVAR(prefix_counts_doc,
"prefix_counts(tokens, doc_start, pair_pred, pair_ref, types, vocab, out)\n"
"--\n\n"
"Fill ``out`` (int64, rows x types x 3) with the (hits, prediction total, reference total) of\n"
"every prefix of each pair's prediction against its reference: the rows of a pair are its\n"
"prediction's prefixes of 1, 2, ... tokens, the pairs one after another (so rows is the sum of\n"
"the predictions' lengths).  Buffers: tokens int32 ids below ``vocab``; doc_start int64\n"
"offsets; pair_pred/pair_ref int64 document indices; types int64 (kind, n) pairs with kind\n"
"0 = ROUGE-N (n >= 1) or 1 = ROUGE-L.  The GIL is released while counting.");

static PyObject *py_prefix_counts(PyObject *self, PyObject *args) {
    Py_buffer b[6];
    Py_ssize_t vocab;
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*nw*", &b[0], &b[1], &b[2], &b[3], &b[4], &vocab,
                          &b[5]))
        return NULL;
    PyObject *result = NULL;
    int64_t *row_start = NULL;
    static const BufferArg specs[6] = {
        {"tokens", 4, 0},   {"doc_start", 8, 0}, {"pair_pred", 8, 0},
        {"pair_ref", 8, 0}, {"types", 8, 0},     {"out", 8, 1},
    };
    Py_ssize_t len[6];
    if (!check_buffers(b, specs, 6, len, NULL)) goto done;
    Py_ssize_t n_tok = len[0], n_doc1 = len[1], n_pairs = len[2], n_ref = len[3];
    Py_ssize_t n_codes = len[4], n_out = len[5];
    const int32_t *tokens = b[0].buf;
    const int64_t *doc_start = b[1].buf, *pair_pred = b[2].buf, *pair_ref = b[3].buf;
    const int64_t *types = b[4].buf;
    int64_t *out = b[5].buf;
    if (n_ref != n_pairs || n_codes < 2 || n_codes % 2 != 0) {
        PyErr_SetString(PyExc_ValueError, "prefix_counts: inconsistent buffer sizes");
        goto done;
    }
    Py_ssize_t n_types = n_codes / 2;
    for (Py_ssize_t t = 0; t < n_types; t++) {
        int64_t kind = types[2 * t], order = types[2 * t + 1];
        if (!((kind == KIND_N && order >= 1 && order <= INT32_MAX) || kind == KIND_L)) {
            PyErr_SetString(PyExc_ValueError,
                            "prefix_counts: types must be ROUGE-N (n >= 1) or ROUGE-L");
            goto done;
        }
    }
    if (vocab < 0 || vocab > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "prefix_counts: vocab out of range");
        goto done;
    }
    Py_ssize_t n_docs = n_doc1 - 1;
    if (!check_offsets(doc_start, n_doc1, n_tok, "doc_start") ||
        !check_ids(tokens, n_tok, vocab, "tokens") ||
        !check_index(pair_pred, n_pairs, n_docs, "pair_pred") ||
        !check_index(pair_ref, n_pairs, n_docs, "pair_ref"))
        goto done;
    row_start = PyMem_Malloc((size_t)(n_pairs > 0 ? n_pairs : 1) * sizeof(int64_t));
    if (row_start == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t rows = 0, cells, n_values;
    for (Py_ssize_t q = 0; q < n_pairs; q++) {
        row_start[q] = rows;
        Py_ssize_t m = (Py_ssize_t)(doc_start[pair_pred[q] + 1] - doc_start[pair_pred[q]]);
        if (m > PY_SSIZE_T_MAX - rows) {
            PyErr_SetString(PyExc_ValueError, "prefix_counts: size out of range");
            goto done;
        }
        rows += m;
    }
    if (!checked_mul(rows, n_types, &cells, "prefix_counts") ||
        !checked_mul(cells, 3, &n_values, "prefix_counts"))
        goto done;
    if (n_out != n_values) {
        PyErr_SetString(PyExc_ValueError, "prefix_counts: out has the wrong size");
        goto done;
    }
    if (!check_disjoint(&b[5], b, 5, "prefix_counts")) goto done;
    SignalPoll signals;
    Control control;
    control_init(&control, poll_signals, &signals);
    signals.ts = PyEval_SaveThread();
    int status = prefix_counts(tokens, doc_start, pair_pred, pair_ref, n_pairs, row_start, types,
                               n_types, vocab, &control, out);
    PyEval_RestoreThread(signals.ts);
    if (!kernel_done(status)) goto done;
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(row_start);
    release_buffers(b, 6);
    return result;
}

#endif
