/*
 * py_encoder.h: the Encoder's calls (the type itself is in module.c): one call at a time per
 * encoder (encoder_enter / encoder_leave), encode() with the NFKC hints found on threads, and
 * the type's init, getters and dealloc.  The texts' stages are text.h's and tokens.h's.
 *
 * Included by module.c after Python.h and the stage headers (one translation unit).
 */
#ifndef ROUGE_LCS_PY_ENCODER_H
#define ROUGE_LCS_PY_ENCODER_H

PyDoc_STRVAR(encode_doc,
"encode(texts, num_threads=1) -> (ids: bytes, offsets: bytes)\n"
"--\n\n"
"Token ids of every text, concatenated (int32), and the int64 offsets of each text's ids\n"
"(len(texts) + 1 of them).  Ids are stable for the life of the encoder (which ids tokens get\n"
"may depend on num_threads, which tokens share one never does).  The native tokenizers cut\n"
"and look up tokens on up to num_threads threads without the GIL.");

/* Encoder methods run Python code (tokenizers, splitters, the stemmer): one call at a time per
 * encoder, on texts held in a tuple of the method's own (nothing they do to the caller's list
 * can move the items).  Returns the tuple, or NULL with an exception. */
static PyObject *encoder_enter(Encoder *e, PyObject *texts) {
    if (!e->initialized) {
        PyErr_SetString(PyExc_RuntimeError, "Encoder: not initialized");
        return NULL;
    }
    if (e->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Encoder: already encoding (re-entrant call)");
        return NULL;
    }
    if (PyUnicode_Check(texts) || PyBytes_Check(texts)) {
        PyErr_Format(PyExc_TypeError, "texts must be a sequence of str, got %s",
                     Py_TYPE(texts)->tp_name);
        return NULL;
    }
    PyObject *seq = PySequence_Tuple(texts);
    if (seq == NULL) return NULL;
    if (PyTuple_GET_SIZE(seq) >= PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(int64_t)) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    e->busy = 1;
    return seq;
}

/* Whether this encoder's calls collect pieces for the threads (tokens.h): its tokenizer is
 * native.  A Python tokenizer holds the GIL for most of its time; its tokens are interned
 * as they come. */
static int encoder_collects(const Encoder *e) {
    return e->mode != MODE_PYTHON;
}

/* Offsets counted in pieces -> token offsets, once collect_run has cut the pieces. */
static int offsets_to_tokens(Encoder *e, int threads, int64_t *off, Py_ssize_t n) {
    int64_t *ends;
    if (!collect_run(e, threads, &ends)) return 0;
    for (Py_ssize_t k = 0; k < n; k++) off[k] = ends[off[k]];
    free(ends);
    return 1;
}

/* encode()'s and encode_arrow()'s answer: (ids, offsets), the ids copied from the buffer. */
static PyObject *encoder_result(const Encoder *e, PyObject *offsets) {
    PyObject *ids = PyBytes_FromStringAndSize((const char *)e->out,
                                              (Py_ssize_t)(e->out_len * sizeof(int32_t)));
    if (ids == NULL) return NULL;
    PyObject *result = PyTuple_Pack(2, ids, offsets);
    Py_DECREF(ids);
    return result;
}

/* The end of every call that encoder_enter began, whatever its outcome. */
static void encoder_leave(Encoder *e, PyObject *seq) {
    Py_DECREF(seq);
    e->busy = 0;
    /* the output buffer is per call: do not keep a huge one alive */
    if (e->out_cap > ((int64_t)1 << 20)) {
        free(e->out);
        e->out = NULL;
        e->out_cap = 0;
    }
}

/* nfkc_native_ok of texts first .. last - 1 of a call's tuple (its items alive and unchanged
 * while the call runs), on a thread of encode(): only code units read, no Python code. */
typedef struct {
    PyObject *const *items;
    unsigned char *hints;
    Py_ssize_t first, last;
} NfkcHints;

static void nfkc_hints_task(void *arg) {
    const NfkcHints *t = (const NfkcHints *)arg;
    for (Py_ssize_t k = t->first; k < t->last; k++) {
        if (k + PREFETCH_AHEAD < t->last) prefetch_str(t->items[k + PREFETCH_AHEAD]);
        PyObject *text = t->items[k];
        unsigned char hint = NFKC_HINT_NONE; /* a subclass, or ASCII: encode_text decides */
        if (PyUnicode_CheckExact(text) && !PyUnicode_IS_ASCII(text))
            hint = nfkc_native_ok(PyUnicode_KIND(text), PyUnicode_DATA(text),
                                  PyUnicode_GET_LENGTH(text))
                       ? NFKC_HINT_NATIVE
                       : NFKC_HINT_CPYTHON;
        t->hints[k] = hint;
    }
}

/* Texts below which checking them on threads costs more than it saves. */
#define NFKC_HINTS_MIN_TEXTS 2048

/* The texts' NFKC_HINT_* found on up to `threads` threads, so that the calling thread does not
 * read every non-ASCII text once more before the text stage's threads start (~10 ms of a
 * 100,000-pair call of short mixed texts); NULL where not worth it or without memory (each
 * text is then checked as it is prepared).  The caller frees it. */
static unsigned char *nfkc_hints(const Encoder *e, PyObject *const *items, Py_ssize_t n,
                                 int threads) {
    if (!e->nfkc || e->mode != MODE_UNICODE || e->normalize == NULL || n < NFKC_HINTS_MIN_TEXTS)
        return NULL;
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    if (threads < 2) return NULL;
    unsigned char *hints = malloc((size_t)n);
    if (hints == NULL) return NULL;
    NfkcHints tasks[MAX_THREADS];
    for (int t = 0; t < threads; t++)
        tasks[t] = (NfkcHints){items, hints, n * t / threads, n * (t + 1) / threads};
    Py_BEGIN_ALLOW_THREADS
    run_parallel(nfkc_hints_task, tasks, sizeof(NfkcHints), threads);
    Py_END_ALLOW_THREADS
    return hints;
}

/* encode()'s work on its texts' tuple (encoder_enter's): their ids into e->out, each text's
 * offset into off[0 .. n] (token offsets); 0 with an exception. */
static int encode_into(Encoder *e, PyObject *seq, int threads, int64_t *off) {
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    PyObject **items = &PyTuple_GET_ITEM(seq, 0);
    unsigned char *hints = NULL;
    int collect = encoder_collects(e), ok = 0;
    if (collect && !collect_begin(e)) return 0;
    e->out_len = 0;
    off[0] = 0;
    if (collect) hints = nfkc_hints(e, items, n, threads);
    for (Py_ssize_t k = 0; k < n; k++) {
        if (k + PREFETCH_AHEAD < n) prefetch_str(items[k + PREFETCH_AHEAD]);
        e->held = items[k];
        e->nfkc_hint = hints != NULL ? hints[k] : NFKC_HINT_NONE;
        if (!encode_text(e, items[k])) goto done;
        off[k + 1] = collect ? e->n_pieces : e->out_len;
    }
    ok = !collect || offsets_to_tokens(e, threads, off, n + 1);
done:
    e->nfkc_hint = NFKC_HINT_NONE;
    free(hints);
    if (collect) collect_end(e);
    return ok;
}

static PyObject *encoder_encode(Encoder *e, PyObject *args) {
    PyObject *texts;
    int threads = 1;
    if (!PyArg_ParseTuple(args, "O|i:encode", &texts, &threads)) return NULL;
    PyObject *seq = encoder_enter(e, texts);
    if (seq == NULL) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    PyObject *offsets = PyBytes_FromStringAndSize(NULL, (n + 1) * (Py_ssize_t)sizeof(int64_t));
    PyObject *result = NULL;
    if (offsets != NULL && encode_into(e, seq, threads, (int64_t *)PyBytes_AS_STRING(offsets)))
        result = encoder_result(e, offsets);
    Py_XDECREF(offsets);
    encoder_leave(e, seq);
    return result;
}

static PyObject *encoder_vocab_size(Encoder *e, void *closure) {
    return PyLong_FromLongLong(e->n_ids);
}

static PyObject *encoder_last_threads(Encoder *e, void *closure) {
    return PyLong_FromLong(e->last_threads);
}

static PyObject *encoder_last_punkt_threads(Encoder *e, void *closure) {
    return PyLong_FromLong(e->last_punkt_threads);
}

static int encoder_init(Encoder *e, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"mode", "split", "stem", "normalize", "native_nfkc", "name", NULL};
    int mode, native_nfkc = 0;
    PyObject *split = Py_None, *stem = Py_None, *normalize = Py_None, *name = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "i|OOOpO", names, &mode, &split, &stem,
                                     &normalize, &native_nfkc, &name))
        return -1;
    if (name != Py_None && !PyUnicode_CheckExact(name)) {
        PyErr_SetString(PyExc_TypeError, "Encoder: name must be a str or None");
        return -1;
    }
    if (mode < MODE_ROUGE_SCORE || mode > MODE_CHAR) {
        PyErr_SetString(PyExc_ValueError, "Encoder: unknown mode");
        return -1;
    }
    if (mode != MODE_ROUGE_SCORE && !PyCallable_Check(split)) {
        PyErr_SetString(PyExc_TypeError, "Encoder: split must be callable in this mode");
        return -1;
    }
    if ((stem != Py_None && !PyCallable_Check(stem)) ||
        (normalize != Py_None && !PyCallable_Check(normalize))) {
        PyErr_SetString(PyExc_TypeError, "Encoder: stem and normalize must be callable or None");
        return -1;
    }
    if (e->initialized) {
        PyErr_SetString(PyExc_RuntimeError, "Encoder: already initialized");
        return -1;
    }
    e->initialized = 1;
    e->mode = mode;
    e->split = split == Py_None ? NULL : Py_NewRef(split);
    e->split_name = name == Py_None ? NULL : Py_NewRef(name);
    e->stem = stem == Py_None ? NULL : Py_NewRef(stem);
    e->normalize = normalize == Py_None ? NULL : Py_NewRef(normalize);
    /* native_nfkc: `normalize` is NFKC with the joiners removed, which nfkc.h does on the
     * threads under the Unicode version of its table */
    e->nfkc = native_nfkc && NFKC_TABLE_OK;
    return 0;
}

static void encoder_dealloc(Encoder *e) {
    Py_XDECREF(e->split);
    Py_XDECREF(e->split_name);
    Py_XDECREF(e->stem);
    Py_XDECREF(e->normalize);
    free(e->soff);
    free(e->pieces);
    Py_XDECREF(e->keep);
    map_free(&e->raw);
    map_free(&e->forms);
    free(e->out);
    free(e->stem_buf);
    if (e->pair_ws != NULL) {
        workspace_free(e->pair_ws);
        free(e->pair_ws);
    }
    if (e->pair_shard != NULL) {
        token_shard_free(e->pair_shard);
        free(e->pair_shard);
    }
    local_ids_free(&e->pair_ids);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

#endif
