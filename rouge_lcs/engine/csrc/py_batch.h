/*
 * py_batch.h: a batch's checks and numbering on the calling thread
 * (rouge_lcs/engine/compute.py): number_texts(), exact_strs(), int_lists(), all_utf8().
 *
 * Included by module.c after Python.h and the stage headers (one translation unit).
 */
#ifndef ROUGE_LCS_PY_BATCH_H
#define ROUGE_LCS_PY_BATCH_H

PyDoc_STRVAR(number_texts_doc,
"number_texts(pair_texts, ref_texts, pair_pred, pair_ref, start=0) -> list[str]\n"
"--\n\n"
"The distinct strings of items start .. start + n - 1 of two lists of equal length (every\n"
"such item exactly a str; n: the length of the buffers), in the order they are first seen,\n"
"pair_texts first; pair_pred[k] and pair_ref[k] (writable buffers of n int64) get the\n"
"numbers of pair_texts[start + k] and ref_texts[start + k].  What the batch engine builds for\n"
"each chunk, from the batch's own lists (a slice per chunk took and dropped a reference to\n"
"every text: ~6 ms of a 100,000-pair call on the calling thread).  The reference engine does\n"
"it with dicts (0.8 ms of a REALSumm call, serial).");

typedef struct {
    PyObject *key; /* borrowed from the lists (no Python code runs meanwhile), NULL: empty */
    Py_hash_t hash;
    int64_t number;
} TextSlot;

/* A text's quick key: its kind, length and first 16 bytes, hashed.  Read next to the str's
 * header, where Python's own hash (SipHash over every byte, then cached in the str) cost ~0.5
 * ms of a fresh process's first REALSumm call: most texts are new to a process once. */
static Py_hash_t quick_text_hash(PyObject *s) {
    int kind = PyUnicode_KIND(s);
    int64_t nbytes = (int64_t)PyUnicode_GET_LENGTH(s) * kind;
    uint64_t head;
    uint64_t h = bytes_key(kind, PyUnicode_DATA(s), nbytes < 16 ? nbytes : 16, &head);
    h = hash_end(h, (uint64_t)nbytes, 8);
    return (Py_hash_t)(h >> 1); /* never -1 */
}

/* Equal quick keys of different texts tolerated in a call before its numbering is redone with
 * Python's hash (texts alike in length and start, such as a template's). */
#define QUICK_COLLISIONS(n) (16 + (n) / 8)

/* Number list's items start .. start + n - 1 into out[], adding the new ones to texts; 0 with
 * an exception, -1 (no exception) when `quick` (quick_text_hash, else Python's hash) met more
 * than *collisions_left texts unequal under equal keys. */
static int number_list(PyObject *list, const char *name, Py_ssize_t start, Py_ssize_t n,
                       int64_t *out, TextSlot *table, uint64_t mask, PyObject *texts,
                       int quick, int64_t *collisions_left) {
    if (n == 0) return 1; /* an empty list may have no item array to point into */
    PyObject **items = &PyList_GET_ITEM(list, start);
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = items[k];
        if (k + PREFETCH_AHEAD < n) PREFETCH(items[k + PREFETCH_AHEAD]);
        if (!PyUnicode_CheckExact(item)) {
            PyErr_Format(PyExc_TypeError, "number_texts: %s[%zd]: expected a str, got %.100s",
                         name, start + k, Py_TYPE(item)->tp_name);
            return 0;
        }
        /* Python's is cached in the str after the first time */
        Py_hash_t h = quick ? quick_text_hash(item) : PyObject_Hash(item);
        if (h == -1) return 0;
        uint64_t s = (uint64_t)h & mask;
        for (;;) {
            TextSlot *slot = &table[s];
            if (slot->key == NULL) {
                slot->key = item;
                slot->hash = h;
                slot->number = PyList_GET_SIZE(texts);
                if (PyList_Append(texts, item) < 0) return 0;
                break;
            }
            if (slot->hash == h) {
                /* exact strs: compared by value, without calling Python code */
                int same = slot->key == item || PyUnicode_Compare(slot->key, item) == 0;
                if (same) break;
                if (PyErr_Occurred()) return 0;
                if (quick && --*collisions_left < 0) return -1;
            }
            s = (s + 1) & mask;
        }
        out[k] = table[s].number;
    }
    return 1;
}

static PyObject *py_number_texts(PyObject *self, PyObject *args) {
    PyObject *pair_texts, *ref_texts;
    Py_buffer b[2];
    Py_ssize_t start = 0;
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "O!O!w*w*|n:number_texts", &PyList_Type, &pair_texts,
                          &PyList_Type, &ref_texts, &b[0], &b[1], &start))
        return NULL;
    PyObject *texts = NULL, *result = NULL;
    TextSlot *table = NULL;
    Py_ssize_t size = PyList_GET_SIZE(pair_texts), n, n_ref;
    static const BufferArg specs[2] = {{"pair_pred", 8, 1}, {"pair_ref", 8, 1}};
    Py_ssize_t len[2];
    if (!check_buffers(b, specs, 2, len, NULL)) goto done;
    n = len[0];
    n_ref = len[1];
    if (PyList_GET_SIZE(ref_texts) != size || n_ref != n) {
        PyErr_SetString(PyExc_ValueError,
                        "number_texts: expected two lists of the same length and two buffers "
                        "of the same length");
        goto done;
    }
    if (start < 0 || start > size || n > size - start) {
        PyErr_Format(PyExc_ValueError,
                     "number_texts: %zd items from start %zd do not fit in lists of %zd", n,
                     start, size);
        goto done;
    }
    if (!check_disjoint(&b[1], b, 1, "number_texts")) goto done;
    uint64_t cap = 16;
    while (cap < 4 * (uint64_t)n) cap <<= 1; /* 2n keys at most: at most half full */
    table = calloc((size_t)cap, sizeof(TextSlot));
    if (table == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* quick keys first; Python's hash when they collide too often (then from the start) */
    int64_t collisions_left = QUICK_COLLISIONS(2 * n);
    for (int quick = 1; quick >= 0; quick--) {
        Py_XDECREF(texts);
        texts = PyList_New(0);
        if (texts == NULL) goto done;
        if (!quick) memset(table, 0, (size_t)cap * sizeof(TextSlot));
        int ok = number_list(pair_texts, "pair_texts", start, n, b[0].buf, table, cap - 1,
                             texts, quick, &collisions_left);
        if (ok == 1)
            ok = number_list(ref_texts, "ref_texts", start, n, b[1].buf, table, cap - 1, texts,
                             quick, &collisions_left);
        if (ok == 0) goto done;
        if (ok == 1) {
            result = Py_NewRef(texts);
            break;
        }
    }
done:
    free(table);
    Py_XDECREF(texts);
    release_buffers(b, 2);
    return result;
}

PyDoc_STRVAR(exact_strs_doc,
"exact_strs(items: list) -> bool\n"
"--\n\n"
"Whether every item of the list is exactly a str (no subclass): the check that validation\n"
"makes of a batch's texts before anything else, one pass in C with the items ahead\n"
"prefetched (set(map(type, items)) waited for each object's header in turn, ~17 ms of a\n"
"100,000-pair call on the calling thread).");

/* The items of a list argument and their number (-1 with a TypeError when it is no list).
 * The callers run no Python code while they read them: the list cannot change under them. */
static Py_ssize_t list_items(PyObject *list, const char *function, PyObject ***items) {
    if (!PyList_Check(list)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a list, got %.100s", function,
                     Py_TYPE(list)->tp_name);
        return -1;
    }
    *items = ((PyListObject *)list)->ob_item;
    return PyList_GET_SIZE(list);
}

static PyObject *py_exact_strs(PyObject *self, PyObject *list) {
    PyObject **items;
    Py_ssize_t n = list_items(list, "exact_strs", &items);
    if (n < 0) return NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (k + PREFETCH_AHEAD < n) PREFETCH(items[k + PREFETCH_AHEAD]);
        if (!PyUnicode_CheckExact(items[k])) Py_RETURN_FALSE;
    }
    Py_RETURN_TRUE;
}

PyDoc_STRVAR(int_lists_doc,
"int_lists(seqs: list) -> tuple[bytes, bytes, int] | None\n"
"--\n\n"
"The ints of a list of lists (or tuples) of ints, concatenated, each one's length (int64) and\n"
"the bytes of one id: 4 (int32) when every id is from 0 to 2**31 - 1, the kernels' ids (half\n"
"the memory, no conversion after), else 8 (int64).  Token ids given as lists (TRL's\n"
"completion_ids) handed to the kernels in one pass,\n"
"where a NumPy conversion and a type check per list cost ~25x the counting of 2,048\n"
"completions.  None when an item is not exactly a list or tuple, or an id not exactly an int\n"
"(a bool, a float, a NumPy scalar) or past int64: the caller's checks then name it.");

/* Ids ahead of the one being read whose int objects are prefetched: a trainer's lists hold
 * ints made one by one, all over the heap (only those below 257 are shared), and reading each
 * in turn waited for memory: ~1.2 ms of 2,048 x 100 ids with the caches cold. */
#define INT_PREFETCH_AHEAD 16

/* The value of an exact int that fits one digit (every id below 2**30) without a call, as
 * PyLong_AsLongLongAndOverflow reads it; 0 for a larger one (the caller then calls it). */
static inline int compact_int(PyObject *item, int64_t *value) {
#if PY_VERSION_HEX >= 0x030C0000
    if (!PyUnstable_Long_IsCompact((PyLongObject *)item)) return 0;
    *value = (int64_t)PyUnstable_Long_CompactValue((PyLongObject *)item);
    return 1;
#else
    Py_ssize_t size = Py_SIZE(item);
    if (size < -1 || size > 1) return 0;
    /* a zero may hold no digit at all (before 3.11): not read */
    *value = size == 0 ? 0 : (int64_t)size * (int64_t)((PyLongObject *)item)->ob_digit[0];
    return 1;
#endif
}

static PyObject *py_int_lists(PyObject *self, PyObject *list) {
    PyObject **seqs;
    Py_ssize_t n = list_items(list, "int_lists", &seqs);
    if (n < 0) return NULL;
    Py_ssize_t total = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *seq = seqs[k];
        if (PyList_CheckExact(seq)) total += PyList_GET_SIZE(seq);
        else if (PyTuple_CheckExact(seq)) total += PyTuple_GET_SIZE(seq);
        else Py_RETURN_NONE;
    }
    /* int32 first; the first id outside 0 .. 2**31 - 1 widens what is written to int64 */
    PyObject *ids = PyBytes_FromStringAndSize(NULL, total * (Py_ssize_t)sizeof(int32_t));
    PyObject *lengths = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int64_t));
    if (ids == NULL || lengths == NULL) {
        Py_XDECREF(ids);
        Py_XDECREF(lengths);
        return NULL;
    }
    int32_t *narrow = (int32_t *)PyBytes_AS_STRING(ids);
    int64_t *out = NULL; /* the int64 ids, once widened */
    Py_ssize_t written = 0;
    int64_t *len = (int64_t *)PyBytes_AS_STRING(lengths);
    /* No Python code runs below (exact ints convert without calling any), so no list can
     * change size between the two passes. */
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *seq = seqs[k];
        int is_list = PyList_CheckExact(seq);
        Py_ssize_t m = is_list ? PyList_GET_SIZE(seq) : PyTuple_GET_SIZE(seq);
        PyObject **items = is_list ? ((PyListObject *)seq)->ob_item : &PyTuple_GET_ITEM(seq, 0);
        len[k] = m;
        for (Py_ssize_t j = 0; j < m && j < INT_PREFETCH_AHEAD; j++) PREFETCH(items[j]);
        for (Py_ssize_t j = 0; j < m; j++) {
            if (j + INT_PREFETCH_AHEAD < m) PREFETCH(items[j + INT_PREFETCH_AHEAD]);
            PyObject *item = items[j];
            if (!PyLong_CheckExact(item)) goto other;
            int64_t value;
            if (!compact_int(item, &value)) {
                int overflow = 0;
                long long wide = PyLong_AsLongLongAndOverflow(item, &overflow);
                if (overflow) goto other;
                value = (int64_t)wide;
            }
            if (out == NULL && value >= 0 && value <= INT32_MAX) {
                narrow[written++] = (int32_t)value;
                continue;
            }
            if (out == NULL) { /* widen: the int32 ids so far, then this one, as int64 */
                PyObject *wide = PyBytes_FromStringAndSize(
                    NULL, total * (Py_ssize_t)sizeof(int64_t));
                if (wide == NULL) {
                    Py_DECREF(ids);
                    Py_DECREF(lengths);
                    return NULL;
                }
                out = (int64_t *)PyBytes_AS_STRING(wide);
                for (Py_ssize_t i = 0; i < written; i++) out[i] = narrow[i];
                out += written;
                Py_SETREF(ids, wide);
            }
            *out++ = value;
        }
    }
    return Py_BuildValue("(NNi)", ids, lengths, out == NULL ? 4 : 8);
other:
    Py_DECREF(ids);
    Py_DECREF(lengths);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(cut_rows_doc,
"cut_rows(array, width: int, pad_id: int) -> tuple[bytes, bytes] | None\n"
"--\n\n"
"The rows (``width`` ids each) of a C-contiguous array of int64 token ids with ``pad_id`` cut\n"
"from both ends\n"
"of each row (padding inside a row is kept), concatenated as int32, and each row's length\n"
"(int64): a padded batch of completions handed to the kernels in one pass, where NumPy's\n"
"masks, argmaxes and boolean index made five temporaries of the array's size.  None when a\n"
"kept id is outside 0 .. 2**31 - 1 (the caller's NumPy path then checks or widens them).");

static PyObject *py_cut_rows(PyObject *self, PyObject *args) {
    PyObject *array;
    Py_ssize_t width;
    long long pad;
    if (!PyArg_ParseTuple(args, "OnL:cut_rows", &array, &width, &pad)) return NULL;
    Py_buffer view;
    memset(&view, 0, sizeof(view));
    static const BufferArg spec = {"array", 8, 0};
    Py_ssize_t count;
    PyObject *ids = NULL, *lengths = NULL, *result = NULL;
    if (!check_buffers(&view, &spec, 1, &count, &array)) goto done;
    if (width < 1 || count % width != 0) {
        PyErr_SetString(PyExc_ValueError, "cut_rows: expected rows of width >= 1 ids");
        goto done;
    }
    Py_ssize_t rows = count / width;
    const int64_t *data = (const int64_t *)view.buf;
    /* first pass: each row's kept span, and every kept id in range */
    lengths = PyBytes_FromStringAndSize(NULL, rows * (Py_ssize_t)sizeof(int64_t));
    if (lengths == NULL) goto done;
    int64_t *len = (int64_t *)PyBytes_AS_STRING(lengths);
    Py_ssize_t total = 0;
    for (Py_ssize_t k = 0; k < rows; k++) {
        const int64_t *row = data + k * width;
        Py_ssize_t first = 0, stop = width;
        while (first < width && row[first] == pad) first++;
        while (stop > first && row[stop - 1] == pad) stop--;
        int bad = 0;
        for (Py_ssize_t j = first; j < stop; j++) bad |= (uint64_t)row[j] > INT32_MAX;
        if (bad) { /* a negative id or one past int32: NumPy's path */
            result = Py_NewRef(Py_None);
            goto done;
        }
        len[k] = stop - first;
        total += stop - first;
    }
    ids = PyBytes_FromStringAndSize(NULL, total * (Py_ssize_t)sizeof(int32_t));
    if (ids == NULL) goto done;
    int32_t *out = (int32_t *)PyBytes_AS_STRING(ids);
    for (Py_ssize_t k = 0; k < rows; k++) {
        const int64_t *row = data + k * width;
        Py_ssize_t first = 0;
        while (first < width && row[first] == pad) first++;
        for (Py_ssize_t j = first; j < first + len[k]; j++) *out++ = (int32_t)row[j];
    }
    result = Py_BuildValue("(OO)", ids, lengths);
done:
    Py_XDECREF(ids);
    Py_XDECREF(lengths);
    release_buffers(&view, 1);
    return result;
}

PyDoc_STRVAR(all_utf8_doc,
"all_utf8(texts: list[str]) -> bool\n"
"--\n\n"
"Whether every text encodes as UTF-8 (holds no lone surrogate U+D800..U+DFFF): the check the\n"
"evaluate module makes of a batch before anything else (evaluate stores UTF-8), one pass in C\n"
"over the code units (ASCII and one-byte texts skipped by their kind).  A join and an encode\n"
"per block of texts took ~2 ms of a 10,000-pair module call on the calling thread.");

/* Whether any of the n code units is a surrogate; each block read whole, which the compiler
 * vectorizes. */
static int has_surrogate(int kind, const void *data, Py_ssize_t n) {
    enum { BLOCK = 256 };
    for (Py_ssize_t start = 0; start < n; start += BLOCK) {
        Py_ssize_t stop = n - start < BLOCK ? n : start + BLOCK;
        int found = 0;
        if (kind == PyUnicode_2BYTE_KIND) {
            const Py_UCS2 *u = (const Py_UCS2 *)data;
            for (Py_ssize_t k = start; k < stop; k++) found |= (u[k] & 0xF800) == 0xD800;
        } else {
            const Py_UCS4 *u = (const Py_UCS4 *)data;
            for (Py_ssize_t k = start; k < stop; k++) found |= (u[k] & 0xFFFFF800u) == 0xD800;
        }
        if (found) return 1;
    }
    return 0;
}

static PyObject *py_all_utf8(PyObject *self, PyObject *list) {
    PyObject **texts;
    Py_ssize_t n = list_items(list, "all_utf8", &texts);
    if (n < 0) return NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (k + PREFETCH_AHEAD < n) prefetch_str(texts[k + PREFETCH_AHEAD]);
        PyObject *text = texts[k];
        if (!PyUnicode_Check(text)) {
            PyErr_Format(PyExc_TypeError, "all_utf8: texts[%zd]: expected a str, got %.100s", k,
                         Py_TYPE(text)->tp_name);
            return NULL;
        }
        int kind = PyUnicode_KIND(text);
        if (kind != PyUnicode_1BYTE_KIND &&
            has_surrogate(kind, PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text)))
            Py_RETURN_FALSE;
    }
    Py_RETURN_TRUE;
}

#endif
