/*
 * py_scores.h: precision, recall and F from counts (scores.h): combine(), and column_sums(),
 * the exact means of a batch's scores.
 *
 * Included by module.c after Python.h and the stage headers (one translation unit).
 */
#ifndef ROUGE_LCS_PY_SCORES_H
#define ROUGE_LCS_PY_SCORES_H

PyDoc_STRVAR(combine_doc,
"combine(counts, n_types, n_refs, mode, beta, out_p, out_r, out_f) -> None\n"
"--\n\n"
"Per-example precision, recall and F_beta of the pairs' counts (int64, pairs x n_types x 3,\n"
"the n_refs[e] pairs of example e consecutive) into out_p / out_r / out_f (float64,\n"
"examples x n_types); mode 0 max_f, 1 max_recall, 2 pooled, 3 mean (see scores.h).");

static PyObject *py_combine(PyObject *self, PyObject *args) {
    Py_buffer b[5];
    Py_ssize_t n_types, n_counts, n_examples, n_out[3];
    int mode;
    double beta;
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "y*ny*idw*w*w*", &b[0], &n_types, &b[1], &mode, &beta, &b[2],
                          &b[3], &b[4]))
        return NULL;
    PyObject *result = NULL;
    static const BufferArg specs[5] = {
        {"counts", 8, 0}, {"n_refs", 8, 0}, {"out_p", 8, 1}, {"out_r", 8, 1}, {"out_f", 8, 1},
    };
    Py_ssize_t len[5];
    if (!check_buffers(b, specs, 5, len, NULL)) goto done;
    n_counts = len[0];
    n_examples = len[1];
    for (int k = 0; k < 3; k++) n_out[k] = len[2 + k];
    if (n_types < 1 || mode < COMBINE_MAX_F || mode > COMBINE_MEAN || !(beta > 0) ||
        !(beta * beta < HUGE_VAL)) {
        PyErr_SetString(PyExc_ValueError,
                        "combine: expected n_types >= 1, mode 0-3 and a finite beta > 0");
        goto done;
    }
    Py_ssize_t cells;
    if (!checked_mul(n_examples, n_types, &cells, "combine")) goto done;
    const int64_t *n_refs = b[1].buf;
    Py_ssize_t pairs = 0;
    for (Py_ssize_t e = 0; e < n_examples; e++) {
        if (n_refs[e] < 1 || n_refs[e] > n_counts) {
            PyErr_SetString(PyExc_ValueError, "n_refs: expected at least 1 pair per example");
            goto done;
        }
        pairs += (Py_ssize_t)n_refs[e]; /* at most n_examples * n_counts: no overflow */
        if (pairs > n_counts) break;
    }
    Py_ssize_t values;
    if (!checked_mul(pairs, n_types, &values, "combine") ||
        !checked_mul(values, 3, &values, "combine"))
        goto done;
    if (values != n_counts || n_out[0] != cells || n_out[1] != cells || n_out[2] != cells) {
        PyErr_SetString(PyExc_ValueError, "combine: inconsistent buffer sizes");
        goto done;
    }
    for (int k = 0; k < 3; k++)
        if (!check_disjoint(&b[2 + k], b, 2, "combine") ||
            (k > 0 && !check_disjoint(&b[2 + k], b + 2, k, "combine")))
            goto done;
    double b2 = beta * beta;
    Py_BEGIN_ALLOW_THREADS
    combine_scores(b[0].buf, n_types, n_refs, n_examples, mode, b2, b[2].buf, b[3].buf,
                   b[4].buf);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    release_buffers(b, 5);
    return result;
}

PyDoc_STRVAR(column_sums_doc,
"column_sums(values, columns: int) -> list[float]\n"
"--\n\n"
"The correctly rounded sum (math.fsum's) of each of the `columns` interleaved columns of a\n"
"flat float64 buffer (rows x columns, row-major): the means of a batch's scores, where\n"
"math.fsum over a strided slice made a Python float of every value (~2.6 ms of a 10,000-pair\n"
"module call, on the calling thread).  Every value must be finite: else ValueError.");

static PyObject *py_column_sums(PyObject *self, PyObject *args) {
    Py_buffer view;
    Py_ssize_t columns, count;
    if (!PyArg_ParseTuple(args, "y*n:column_sums", &view, &columns)) return NULL;
    PyObject *result = NULL;
    static const BufferArg spec = {"values", 8, 0};
    if (!check_buffers(&view, &spec, 1, &count, NULL)) goto done;
    if (count > 0 && ((uintptr_t)view.buf & 7) != 0) { /* (an empty one may point anywhere) */
        PyErr_SetString(PyExc_ValueError, "column_sums: values: expected an 8-byte-aligned buffer");
        goto done;
    }
    if (columns < 1 || count % columns != 0) {
        PyErr_Format(PyExc_ValueError,
                     "column_sums: expected columns >= 1 dividing the %zd values, got %zd", count,
                     columns);
        goto done;
    }
    const double *values = (const double *)view.buf;
    for (Py_ssize_t k = 0; k < count; k++) {
        if (!isfinite(values[k])) {
            PyErr_Format(PyExc_ValueError, "column_sums: values[%zd]: expected a finite number", k);
            goto done;
        }
    }
    result = PyList_New(columns);
    if (result == NULL) goto done;
    for (Py_ssize_t c = 0; c < columns; c++) {
        double sum = 0.0;
        int ok;
        Py_BEGIN_ALLOW_THREADS
        ok = exact_sum(values + c, count / columns, columns, &sum);
        Py_END_ALLOW_THREADS
        PyObject *item = ok ? PyFloat_FromDouble(sum) : NULL;
        if (item == NULL) {
            if (!ok) PyErr_SetString(PyExc_OverflowError, "column_sums: a sum overflows a double");
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, c, item);
    }
done:
    release_buffers(&view, 1);
    return result;
}

#endif
