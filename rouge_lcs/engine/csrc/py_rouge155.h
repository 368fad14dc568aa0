/*
 * py_rouge155.h: the ROUGE-1.5.5 mode (rouge155.h): rouge155_tokens(), the script's token
 * reader, and rouge155_skip(), its ROUGE-S/SU counts.
 *
 * Included by module.c after Python.h and the stage headers (one translation unit).
 */
#ifndef ROUGE_LCS_PY_ROUGE155_H
#define ROUGE_LCS_PY_ROUGE155_H

PyDoc_STRVAR(rouge155_tokens_doc,
"rouge155_tokens(blob, lower) -> (ids, tokens)\n"
"--\n\n"
"The tokens of ROUGE-1.5.5's reader in ``blob`` (bytes): maximal runs of ASCII ``[a-z0-9]``\n"
"(``A-Z`` lower-cased first when ``lower``, else separators like any other byte).  ``ids``\n"
"(bytes of native int32) holds, in order, token k's number k by first occurrence, and -1 for\n"
"each ``\\n``; ``tokens[k]`` is token k as a str.");

static PyObject *py_rouge155_tokens(PyObject *self, PyObject *args) {
    Py_buffer view;
    int lower;
    if (!PyArg_ParseTuple(args, "y*p", &view, &lower)) return NULL;
    PyObject *result = NULL, *tokens = NULL, *ids_bytes = NULL;
    R155Tokens r;
    int status = r155_read(view.buf, (int64_t)view.len, lower, &r);
    PyBuffer_Release(&view);
    if (status == R155_NO_MEMORY) return PyErr_NoMemory();
    if (status == R155_TOKEN_TOO_LONG) {
        PyErr_SetString(PyExc_ValueError, "rouge155_tokens: token too long");
        return NULL;
    }
    if (status == R155_TOO_MANY_TOKENS) {
        PyErr_SetString(PyExc_ValueError, "rouge155_tokens: too many distinct tokens");
        return NULL;
    }
    tokens = PyList_New((Py_ssize_t)r.n_tokens);
    if (tokens == NULL) goto done;
    for (int64_t t = 0; t < r.n_tokens; t++) {
        PyObject *word =
            PyUnicode_DecodeASCII((const char *)r.text + r.tok_start[t], r.tok_len[t], NULL);
        if (word == NULL) goto done;
        PyList_SET_ITEM(tokens, (Py_ssize_t)t, word);
    }
    ids_bytes = PyBytes_FromStringAndSize((const char *)r.ids,
                                          (Py_ssize_t)r.n_ids * (Py_ssize_t)sizeof(int32_t));
    if (ids_bytes == NULL) goto done;
    result = PyTuple_Pack(2, ids_bytes, tokens);
done:
    Py_XDECREF(ids_bytes);
    Py_XDECREF(tokens);
    r155_free(&r);
    return result;
}

PyDoc_STRVAR(rouge155_skip_doc,
"rouge155_skip(tokens, doc_start, pair_peer, pair_model, skip, unigrams, out)\n"
"--\n\n"
"ROUGE-1.5.5's ROUGE-S/SU counts (createSkipBigram): fill ``out`` (int64, pairs x 3) with the\n"
"clipped skip-bigram hits, the peer's and the model's unit counts of each pair.  Units of a\n"
"document t[0..L): (t[i], t[j]) for i < j <= i + skip + 1 (any j when skip < 0) and, when\n"
"``unigrams``, t[i] alone for i < L - 1 (the script's loop stops one short).  Buffers: tokens\n"
"int32 (>= 0), doc_start int64 offsets (documents + 1), pair_peer/pair_model int64.");

static PyObject *py_rouge155_skip(PyObject *self, PyObject *args) {
    Py_buffer b[5];
    Py_ssize_t skip;
    int unigrams;
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "y*y*y*y*npw*", &b[0], &b[1], &b[2], &b[3], &skip, &unigrams,
                          &b[4]))
        return NULL;
    PyObject *result = NULL;
    static const BufferArg specs[5] = {
        {"tokens", 4, 0},     {"doc_start", 8, 0}, {"pair_peer", 8, 0},
        {"pair_model", 8, 0}, {"out", 8, 1},
    };
    Py_ssize_t len[5];
    if (!check_buffers(b, specs, 5, len, NULL)) goto done;
    Py_ssize_t n_tok = len[0], n_doc1 = len[1], n_pairs = len[2], n_model = len[3];
    Py_ssize_t n_out = len[4];
    const int32_t *tokens = b[0].buf;
    const int64_t *doc_start = b[1].buf, *pair_peer = b[2].buf, *pair_model = b[3].buf;
    int64_t *out = b[4].buf;
    Py_ssize_t n_values;
    if (!checked_mul(n_pairs, 3, &n_values, "rouge155_skip")) goto done;
    if (n_model != n_pairs || n_out != n_values) {
        PyErr_SetString(PyExc_ValueError, "rouge155_skip: inconsistent buffer sizes");
        goto done;
    }
    if (!check_disjoint(&b[4], b, 4, "rouge155_skip")) goto done;
    /* Any distance past the longest document is all of it (skip < 0 means that too); the
     * kernel then never adds `skip` to an index near INT64_MAX. */
    if (skip > n_tok) skip = n_tok;
    Py_ssize_t n_docs = n_doc1 - 1;
    if (!check_offsets(doc_start, n_doc1, n_tok, "doc_start") ||
        !check_ids(tokens, n_tok, INT32_MAX, "tokens") ||
        !check_index(pair_peer, n_pairs, n_docs, "pair_peer") ||
        !check_index(pair_model, n_pairs, n_docs, "pair_model"))
        goto done;
    SignalPoll signals;
    Control control;
    control_init(&control, poll_signals, &signals);
    signals.ts = PyEval_SaveThread();
    int status = skip_counts(tokens, doc_start, n_docs, pair_peer, pair_model, n_pairs, skip,
                             unigrams, &control, out);
    PyEval_RestoreThread(signals.ts);
    if (!kernel_done(status)) goto done;
    result = Py_NewRef(Py_None);
done:
    release_buffers(b, 5);
    return result;
}

#endif
