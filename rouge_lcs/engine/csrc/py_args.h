/*
 * py_args.h: what every binding of module.c shares.  One check of the buffers that enter
 * from Python (check_buffers: sizes in whole items, or for numpy arrays acquired here their
 * integer format, each error naming the argument) and their release; the checks of offsets, ids
 * and indices in them before a kernel indexes with them; Ctrl-C polling while a kernel runs
 * without the GIL; prefetching a batch's str objects.
 *
 * Included by module.c after Python.h and the stage headers (one translation unit).
 */
#ifndef ROUGE_LCS_PY_ARGS_H
#define ROUGE_LCS_PY_ARGS_H

/* a * b into *out; 0 (and a ValueError naming `name`) when it overflows or a or b < 0 */
static int checked_mul(Py_ssize_t a, Py_ssize_t b, Py_ssize_t *out, const char *name) {
    if (a < 0 || b < 0 || (a != 0 && b > PY_SSIZE_T_MAX / a)) {
        PyErr_Format(PyExc_ValueError, "%s: size out of range", name);
        return 0;
    }
    *out = a * b;
    return 1;
}

/* The output buffer must not share memory with an input: the kernels write it while they
 * read the (already checked) inputs. */
static int check_disjoint(const Py_buffer *out, const Py_buffer *in, int n_in, const char *name) {
    const char *o0 = out->buf, *o1 = o0 + out->len;
    for (int k = 0; k < n_in; k++) {
        const char *i0 = in[k].buf, *i1 = i0 + in[k].len;
        if (out->len > 0 && in[k].len > 0 && o0 < i1 && i0 < o1) {
            PyErr_Format(PyExc_ValueError, "%s: the output buffer overlaps an input", name);
            return 0;
        }
    }
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* The buffers that enter from Python: one check, for every binding                            */

/* One buffer argument: the name its errors give, the bytes of one item (4: int32 ids, 8: int64
 * or float64), and, for a buffer acquired here (check_buffers with objects), whether it must
 * be writable (an output). */
typedef struct {
    const char *name;
    Py_ssize_t item;
    int writable;
} BufferArg;

/* The n buffer arguments of a binding: each one's length in items into count[k]; 0 with an
 * exception naming the first bad one (the views acquired so far are the caller's to release,
 * with release_buffers, on every path).
 *
 * objs == NULL: the views came from PyArg_ParseTuple's y* (read-only) or w* (writable), which
 * took them C-contiguous as bytes; a size that is not a whole number of items is a ValueError.
 * objs != NULL: each view is acquired here from objs[k], C-contiguous, and its format must say
 * signed integers of arg.item bytes (what numpy's int32 / int64 arrays give): else TypeError. */
static int check_buffers(Py_buffer *views, const BufferArg *args, int n, Py_ssize_t *count,
                         PyObject *const *objs) {
    for (int k = 0; k < n; k++) {
        Py_buffer *view = &views[k];
        const BufferArg *arg = &args[k];
        if (objs != NULL) {
            int flags = PyBUF_FORMAT | PyBUF_C_CONTIGUOUS | (arg->writable ? PyBUF_WRITABLE : 0);
            if (PyObject_GetBuffer(objs[k], view, flags) < 0) return 0;
            const char *f = view->format != NULL ? view->format : "B";
            if (*f == '@' || *f == '=' || *f == '<') f++;
            if (view->itemsize != arg->item || f[1] != '\0' || strchr("bhilq", f[0]) == NULL) {
                PyErr_Format(PyExc_TypeError,
                             "%s: expected a buffer of %zd-byte signed integers, got format '%s'",
                             arg->name, arg->item, view->format != NULL ? view->format : "B");
                return 0;
            }
        } else if (view->len % arg->item != 0) {
            PyErr_Format(PyExc_ValueError, "%s: buffer size is not a multiple of %zd", arg->name,
                         arg->item);
            return 0;
        }
        count[k] = view->len / arg->item;
    }
    return 1;
}

/* The end of every binding that took buffers: each view it holds released (a view never
 * acquired is all zeros: the callers memset their arrays first). */
static void release_buffers(Py_buffer *views, int n) {
    for (int k = 0; k < n; k++)
        if (views[k].obj != NULL) PyBuffer_Release(&views[k]);
}

/* ------------------------------------------------------------------------------------------ */
/* Offsets, ids and indices in the checked buffers                                             */

static int check_offsets(const int64_t *start, Py_ssize_t count, int64_t total,
                         const char *name) {
    if (count < 1 || start[0] != 0 || start[count - 1] != total) {
        PyErr_Format(PyExc_ValueError, "%s: offsets must start at 0 and end at the size", name);
        return 0;
    }
    for (Py_ssize_t k = 1; k < count; k++) {
        if (start[k] < start[k - 1]) {
            PyErr_Format(PyExc_ValueError, "%s: offsets must not decrease", name);
            return 0;
        }
    }
    return 1;
}

static int check_ids(const int32_t *ids, Py_ssize_t count, int64_t vocab, const char *name) {
    /* One pass without an early exit, which the compiler vectorizes (every call checks each
     * id of the batch, twice with ROUGE-Lsum, on the calling thread).  The bound is at most
     * 2^31, so that a negative id, 2^31 or more as unsigned, is always out of it. */
    uint32_t bound = vocab <= 0 ? 0 : vocab > INT32_MAX ? (uint32_t)1 << 31 : (uint32_t)vocab;
    uint32_t bad = 0;
    for (Py_ssize_t k = 0; k < count; k++) bad |= (uint32_t)ids[k] >= bound;
    if (bad) {
        PyErr_Format(PyExc_ValueError, "%s: token id out of range", name);
        return 0;
    }
    return 1;
}

static int check_index(const int64_t *index, Py_ssize_t count, int64_t bound, const char *name) {
    for (Py_ssize_t k = 0; k < count; k++) {
        if (index[k] < 0 || index[k] >= bound) {
            PyErr_Format(PyExc_ValueError, "%s: document index out of range", name);
            return 0;
        }
    }
    return 1;
}

/* The sentence buffers of ROUGE-Lsum and the script's summary-level ROUGE-W (counts(), wlcs()):
 * doc_sent has one offset per document plus one, into sent_start's sentences, whose offsets
 * cover sent_tokens, ids below vocab. */
static int check_sentences(const int64_t *sent_start, Py_ssize_t n_sent1, const int64_t *doc_sent,
                           Py_ssize_t n_docsent1, Py_ssize_t n_doc1, const int32_t *sent_tokens,
                           Py_ssize_t n_stok, int64_t vocab) {
    if (n_docsent1 != n_doc1) {
        PyErr_SetString(PyExc_ValueError, "doc_sent: one offset per document plus one");
        return 0;
    }
    return check_offsets(sent_start, n_sent1, n_stok, "sent_start") &&
           check_offsets(doc_sent, n_docsent1, n_sent1 - 1, "doc_sent") &&
           check_ids(sent_tokens, n_stok, vocab, "sent_tokens");
}

/* The threads a kernel over n_pairs pairs runs on: what the caller asked, from 1 to
 * MAX_THREADS and no more than the pairs. */
static int pair_threads(int asked, Py_ssize_t n_pairs) {
    if (asked < 1) asked = 1;
    if (asked > MAX_THREADS) asked = MAX_THREADS;
    if (asked > n_pairs) asked = n_pairs > 0 ? (int)n_pairs : 1;
    return asked;
}

/* ------------------------------------------------------------------------------------------ */
/* Ctrl-C during a long kernel                                                                  */

/* The thread state that released the GIL: poll_signals re-takes the GIL with it. */
typedef struct {
    PyThreadState *ts;
} SignalPoll;

/* kernels.h's PollFn: run Python's pending signal handlers (Ctrl-C's raises KeyboardInterrupt,
 * left set for the caller); nonzero stops the kernel.  Called only on the thread that released
 * the GIL, between pieces of work, at most every POLL_MS. */
static int poll_signals(void *arg) {
    SignalPoll *p = arg;
    PyEval_RestoreThread(p->ts);
    int stop = PyErr_CheckSignals() < 0;
    p->ts = PyEval_SaveThread();
    return stop;
}

/* After a kernel that returned `status`: 1 when it ran to the end, else 0 with the exception
 * set (the one a signal handler raised, or MemoryError).  The output is then half-filled and
 * never returned. */
static int kernel_done(int status) {
    if (status == RUN_OK) return 1;
    if (status == RUN_STOPPED && PyErr_Occurred()) return 0;
    PyErr_NoMemory();
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* A batch's str objects read in turn                                                          */

/* Texts ahead of the one being read whose objects are prefetched: a batch's strings lie all
 * over the heap, and one text after another, each read of an object's header and first
 * characters waited for memory (the serial loops over a batch's texts: numbering, encoding). */
#define PREFETCH_AHEAD 8

/* The header of a str and the line after it (a short text's characters). */
static inline void prefetch_str(PyObject *obj) {
    PREFETCH(obj);
    PREFETCH((const char *)obj + 64);
}

/* Result arrays made by copying a unit array the binding was given (its type and format
 * checked once, where it was given): the one other place where a buffer is acquired. */

/* A unit of a binding's results (scores_plan's, copied per call by filled_copy): a sequence
 * whose buffer holds `count` 8-byte items of one of `formats`; 0 with an exception naming it
 * (`name`: the binding's and the argument's). */
static int unit_ok(PyObject *unit, Py_ssize_t count, const char *formats, const char *name) {
    Py_buffer view;
    if (!PySequence_Check(unit) || PyObject_GetBuffer(unit, &view, PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be an array", name);
        return 0;
    }
    const char *f = view.format != NULL ? view.format : "B";
    int typed = view.itemsize == 8 && f[0] != '\0' && f[1] == '\0' &&
                strchr(formats, f[0]) != NULL;
    int sized = view.len == count * 8;
    PyBuffer_Release(&view);
    if (!typed)
        PyErr_Format(PyExc_TypeError, "%s must be an array of format '%s'", name, formats);
    else if (!sized)
        PyErr_Format(PyExc_ValueError, "%s must hold %zd items", name, count);
    return typed && sized;
}

/* A new copy of `unit` repeated `times` (an array.array's own repetition), `values` written
 * into it; NULL with an exception. */
static PyObject *filled_copy(PyObject *unit, Py_ssize_t times, const void *values,
                             size_t size) {
    PyObject *copy = PySequence_Repeat(unit, times);
    if (copy == NULL) return NULL;
    Py_buffer view;
    if (Py_TYPE(copy) != Py_TYPE(unit) || PyObject_GetBuffer(copy, &view, PyBUF_WRITABLE) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "a unit's copy is not of its type");
        Py_DECREF(copy);
        return NULL;
    }
    int fits = view.len == (Py_ssize_t)size;
    if (fits) memcpy(view.buf, values, size);
    PyBuffer_Release(&view);
    if (!fits) {
        PyErr_SetString(PyExc_ValueError, "a unit's copy has another size");
        Py_CLEAR(copy);
    }
    return copy;
}

#endif
