/*
 * py_similarity.h: similarity(), one query against many choices (similarity.h;
 * rouge_lcs/engine/similarity.py).
 *
 * Included by module.c after Python.h and the stage headers (one translation unit).
 */
#ifndef ROUGE_LCS_PY_SIMILARITY_H
#define ROUGE_LCS_PY_SIMILARITY_H

PyDoc_STRVAR(similarity_doc,
"similarity(q_ids, q_starts, row_query, ids, starts, cands, cand_lo, cand_hi, vocab, kind,\n"
"           measure, beta, floor, strict, k, workers, out_hits, out_index, out_count)\n"
"--\n\n"
"Score query row_query[r] (token ids q_ids[q_starts[q]:q_starts[q+1]]) against the choices\n"
"cands[cand_lo[r]:cand_hi[r]] (ids[starts[c]:starts[c+1]]) for every row r; see\n"
"similarity.h.  kind 0 = LCS, 1 = clipped overlap; measure 0 = F, 1 = P, 2 = R; a pair is\n"
"kept when its score is > floor (strict) or >= floor.  k = 0: out_hits gets each pair's hits\n"
"(-1: pruned); k > 0: each row's k best (out_index, out_hits, out_count).  int32 ids, int64\n"
"everything else; every index and offset used is checked; the GIL is released.");

static PyObject *py_similarity(PyObject *self, PyObject *args) {
    PyObject *obj[11];
    Py_buffer b[11];
    Py_ssize_t len[11];
    /* numpy arrays of the engine's own dtypes: int32 ids, int64 the rest; the outputs written */
    static const BufferArg specs[11] = {
        {"q_ids", 4, 0},   {"q_starts", 8, 0}, {"row_query", 8, 0}, {"ids", 4, 0},
        {"starts", 8, 0},  {"cands", 8, 0},    {"cand_lo", 8, 0},   {"cand_hi", 8, 0},
        {"out_hits", 8, 1}, {"out_index", 8, 1}, {"out_count", 8, 1},
    };
    Py_ssize_t vocab, k;
    int kind, measure, strict, workers;
    double beta, floor_;
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "OOOOOOOOniiddpniOOO", &obj[0], &obj[1], &obj[2], &obj[3],
                          &obj[4], &obj[5], &obj[6], &obj[7], &vocab, &kind, &measure, &beta,
                          &floor_, &strict, &k, &workers, &obj[8], &obj[9], &obj[10]))
        return NULL;
    PyObject *result = NULL;
    int64_t *out_start = NULL;
    if (!check_buffers(b, specs, 11, len, obj)) goto done;
    if (vocab < 1 || vocab > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "vocab: expected 1 to %d, got %zd", INT32_MAX, vocab);
        goto done;
    }
    if ((kind != SIM_LCS && kind != SIM_OVERLAP) || measure < 0 || measure > 2) {
        PyErr_Format(PyExc_ValueError, "kind/measure: expected 0-1 / 0-2, got %d / %d", kind,
                     measure);
        goto done;
    }
    if (!(beta > 0) || !(beta * beta < HUGE_VAL) || floor_ != floor_ || k < 0 || k > (1 << 24) ||
        workers < 1 || workers > MAX_THREADS) {
        PyErr_SetString(PyExc_ValueError,
                        "similarity: expected beta > 0, a number floor, 0 <= k <= 2**24 and "
                        "1 <= workers <= 64");
        goto done;
    }
    const int32_t *q_ids = b[0].buf, *ids = b[3].buf;
    const int64_t *q_starts = b[1].buf, *row_query = b[2].buf, *starts = b[4].buf;
    const int64_t *cands = b[5].buf, *lo = b[6].buf, *hi = b[7].buf;
    Py_ssize_t rows = len[2], n_docs = len[4] - 1;
    if (!check_offsets(q_starts, len[1], len[0], "q_starts") ||
        !check_ids(q_ids, len[0], vocab, "q_ids") ||
        !check_index(row_query, rows, len[1] - 1, "row_query"))
        goto done;
    if (len[6] != rows || len[7] != rows || n_docs < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "cand_lo, cand_hi: expected one per row; starts: at least one offset");
        goto done;
    }
    out_start = malloc((size_t)(rows + 1) * sizeof(int64_t));
    if (out_start == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    out_start[0] = 0;
    for (Py_ssize_t r = 0; r < rows; r++) {
        if (lo[r] < 0 || lo[r] > hi[r] || hi[r] > len[5]) {
            PyErr_Format(PyExc_ValueError, "cand_lo, cand_hi: row %zd: range out of bounds", r);
            goto done;
        }
        for (int64_t j = lo[r]; j < hi[r]; j++) {
            int64_t c = cands[j];
            if (c < 0 || c >= n_docs || starts[c] < 0 || starts[c] > starts[c + 1] ||
                starts[c + 1] > len[3]) {
                PyErr_Format(PyExc_ValueError,
                             "cands: choice %lld out of range or with bad offsets",
                             (long long)c);
                goto done;
            }
        }
        out_start[r + 1] = out_start[r] + (hi[r] - lo[r]);
    }
    if (k == 0 ? len[8] != out_start[rows]
               : (len[8] != rows * k || len[9] != rows * k || len[10] != rows)) {
        PyErr_SetString(PyExc_ValueError, "out_hits, out_index, out_count: wrong sizes");
        goto done;
    }
    SimJob job = {q_ids, q_starts, row_query, ids, starts, cands, lo, hi, rows, vocab, kind,
                  measure, strict, beta * beta, floor_, k, b[8].buf, b[9].buf, b[10].buf,
                  out_start};
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = sim_run(&job, workers);
    Py_END_ALLOW_THREADS
    if (status == SIM_NO_MEMORY) {
        PyErr_NoMemory();
        goto done;
    }
    if (status == SIM_BAD_ID) {
        PyErr_SetString(PyExc_ValueError, "ids: token id out of range");
        goto done;
    }
    result = Py_NewRef(Py_None);
done:
    free(out_start);
    release_buffers(b, 11);
    return result;
}

#endif
