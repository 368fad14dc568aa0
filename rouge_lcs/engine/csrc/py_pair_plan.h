/*
 * py_pair_plan.h: the per-call path's callable, Encoder.pair_plan(...) -> PairPlan.
 *
 * Most code scores one pair a call (rouge_score's RougeScorer.score in a loop).  A PairPlan
 * holds what does not change between those calls, checked once when it is made (the rouge
 * types, the multi-reference mode, beta, the sentence split, the result's keys and the type
 * of its values); a call checks only its texts, then encodes, counts and combines them as
 * Encoder.pair_scores does (pair_core) and builds the result dict here, without a buffer
 * argument to acquire or a Python object per intermediate value.
 *
 * Included by module.c after py_counts.h (pair_core); Python.h is already in.
 */
#ifndef ROUGE_LCS_PY_PAIR_PLAN_H
#define ROUGE_LCS_PY_PAIR_PLAN_H

#include <stddef.h> /* offsetof */

typedef struct {
    PyObject_HEAD
    Encoder *encoder;
    int64_t *types; /* (kind, n) pairs */
    Py_ssize_t n_types;
    int mode, split_mode, tuple_new;
    double beta;
    PyObject *splitter, *names, *make, *fallback;
    int64_t max_chars, max_ids;
    int64_t *counts; /* references x types x 3, grown as needed */
    Py_ssize_t counts_cap;
    double *prf; /* p, r, f: n_types each */
    vectorcallfunc vectorcall;
} PairPlan;

static PyTypeObject PairPlanType;

PyDoc_STRVAR(pair_plan_doc,
"pair_plan(types, mode, beta, split_mode, splitter, names, make, tuple_new, fallback, max_chars, max_ids) -> PairPlan\n"
"--\n\n"
"A callable plan(prediction, references) -> {names[t]: make(p, r, f)} for one example, with\n"
"pair_scores' numbers (types: int64 (kind, n) pairs of the kinds it counts; mode, beta,\n"
"split_mode and splitter as there; names: a tuple of str, one per type).  With tuple_new,\n"
"``make`` is a tuple subclass whose values are made as tuple.__new__(make, (p, r, f)) (a\n"
"namedtuple's own __new__ does just that).  A call whose prediction is not exactly a str,\n"
"whose references are not a non-empty list of exactly str, or whose texts hold more than\n"
"max_chars characters together returns fallback(prediction, references) instead; a call\n"
"made when the encoder holds more than max_ids token ids returns NotImplemented (the caller\n"
"takes a new encoder).");

static PyObject *pair_plan_fallback(PairPlan *plan, PyObject *const *args) {
    return PyObject_Vectorcall(plan->fallback, args, 2, NULL);
}

/* One value of the result: make(p, r, f); NULL with an exception. */
static PyObject *pair_plan_value(PairPlan *plan, double p, double r, double f) {
    PyObject *v[3] = {PyFloat_FromDouble(p), PyFloat_FromDouble(r), PyFloat_FromDouble(f)};
    PyObject *value = NULL;
    if (v[0] != NULL && v[1] != NULL && v[2] != NULL) {
        if (plan->tuple_new) {
            /* tuple.__new__(make, (p, r, f)): what CPython's tuple_subtype_new does */
            PyTypeObject *type = (PyTypeObject *)plan->make;
            value = type->tp_alloc(type, 3);
            if (value != NULL) {
                for (int k = 0; k < 3; k++) {
                    PyTuple_SET_ITEM(value, k, v[k]);
                    v[k] = NULL;
                }
            }
        } else {
            value = PyObject_Vectorcall(plan->make, v, 3, NULL);
        }
    }
    for (int k = 0; k < 3; k++) Py_XDECREF(v[k]);
    return value;
}

static PyObject *pair_plan_call(PyObject *self, PyObject *const *args, size_t nargsf,
                                PyObject *kwnames) {
    PairPlan *plan = (PairPlan *)self;
    if (PyVectorcall_NARGS(nargsf) != 2 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0)) {
        PyErr_SetString(PyExc_TypeError, "PairPlan: expected (prediction, references)");
        return NULL;
    }
    PyObject *prediction = args[0], *references = args[1];
    if (!PyUnicode_CheckExact(prediction) || !PyList_CheckExact(references) ||
        PyList_GET_SIZE(references) < 1)
        return pair_plan_fallback(plan, args);
    Py_ssize_t n_refs = PyList_GET_SIZE(references);
    int64_t chars = PyUnicode_GET_LENGTH(prediction);
    for (Py_ssize_t k = 0; k < n_refs; k++) {
        PyObject *ref = PyList_GET_ITEM(references, k);
        if (!PyUnicode_CheckExact(ref)) return pair_plan_fallback(plan, args);
        chars += PyUnicode_GET_LENGTH(ref);
    }
    if (chars > plan->max_chars) return pair_plan_fallback(plan, args);
    if (plan->encoder->n_ids > plan->max_ids) Py_RETURN_NOTIMPLEMENTED;
    Py_ssize_t need = n_refs * plan->n_types * 3;
    if (need > plan->counts_cap) {
        int64_t *counts = realloc(plan->counts, (size_t)need * sizeof(int64_t));
        if (counts == NULL) return PyErr_NoMemory();
        plan->counts = counts;
        plan->counts_cap = need;
    }
    /* the texts in a tuple of the call's own (the list may change while a splitter runs) */
    PyObject *texts = PyTuple_New(n_refs + 1);
    if (texts == NULL) return NULL;
    PyTuple_SET_ITEM(texts, 0, Py_NewRef(prediction));
    for (Py_ssize_t k = 0; k < n_refs; k++)
        PyTuple_SET_ITEM(texts, k + 1, Py_NewRef(PyList_GET_ITEM(references, k)));
    Py_ssize_t n = plan->n_types;
    double *p = plan->prf, *r = p + n, *f = r + n;
    int ok = pair_core(plan->encoder, texts, n_refs + 1, plan->types, n, plan->mode, plan->beta,
                       plan->split_mode, plan->splitter, plan->counts, p, r, f);
    Py_DECREF(texts);
    if (!ok) return NULL;
    PyObject *result = PyDict_New();
    for (Py_ssize_t t = 0; t < n && result != NULL; t++) {
        PyObject *value = pair_plan_value(plan, p[t], r[t], f[t]);
        if (value == NULL || PyDict_SetItem(result, PyTuple_GET_ITEM(plan->names, t), value) < 0)
            Py_CLEAR(result);
        Py_XDECREF(value);
    }
    return result;
}

static PyObject *encoder_pair_plan(Encoder *e, PyObject *args) {
    PyObject *splitter, *names, *make, *fallback;
    int mode, split_mode, tuple_new;
    double beta;
    long long max_chars, max_ids;
    Py_buffer types;
    if (!PyArg_ParseTuple(args, "y*idiOO!OpOLL:pair_plan", &types, &mode, &beta, &split_mode,
                          &splitter, &PyTuple_Type, &names, &make, &tuple_new, &fallback,
                          &max_chars, &max_ids))
        return NULL;
    PairPlan *plan = NULL;
    Py_ssize_t len;
    int lsum;
    static const BufferArg specs[1] = {{"types", 8, 0}};
    if (!check_buffers(&types, specs, 1, &len, NULL)) goto done;
    Py_ssize_t n_types = len / 2;
    if (len % 2 || n_types < 1 || PyTuple_GET_SIZE(names) != n_types) {
        PyErr_SetString(PyExc_ValueError, "pair_plan: expected (kind, n) pairs and one name each");
        goto done;
    }
    if (!pair_types_ok(types.buf, n_types, &lsum, "pair_plan")) goto done;
    if (mode < COMBINE_MAX_F || mode > COMBINE_MEAN || !(beta > 0) || !(beta * beta < HUGE_VAL)) {
        PyErr_SetString(PyExc_ValueError, "pair_plan: expected mode 0-3 and a finite beta > 0");
        goto done;
    }
    if (lsum && (split_mode < SPLIT_NEWLINE || split_mode > SPLIT_NLTK)) {
        PyErr_SetString(PyExc_ValueError, "pair_plan: ROUGE-Lsum needs a split_mode");
        goto done;
    }
    if (!lsum) split_mode = -1;
    for (Py_ssize_t t = 0; t < n_types; t++) {
        PyObject *name = PyTuple_GET_ITEM(names, t);
        if (!PyUnicode_Check(name) || PyObject_Hash(name) == -1) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "pair_plan: names must be str");
            goto done;
        }
    }
    if (!PyCallable_Check(make) || !PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "pair_plan: make and fallback must be callable");
        goto done;
    }
    if (tuple_new && !(PyType_Check(make) && PyType_IsSubtype((PyTypeObject *)make, &PyTuple_Type))) {
        PyErr_SetString(PyExc_TypeError, "pair_plan: tuple_new needs a tuple subclass");
        goto done;
    }
    plan = PyObject_GC_New(PairPlan, &PairPlanType);
    if (plan == NULL) goto done;
    plan->types = malloc((size_t)len * sizeof(int64_t));
    plan->prf = malloc((size_t)n_types * 3 * sizeof(double));
    plan->counts = NULL;
    plan->counts_cap = 0;
    plan->encoder = (Encoder *)Py_NewRef(e);
    plan->splitter = Py_NewRef(splitter);
    plan->names = Py_NewRef(names);
    plan->make = Py_NewRef(make);
    plan->fallback = Py_NewRef(fallback);
    plan->n_types = n_types;
    plan->mode = mode;
    plan->beta = beta;
    plan->split_mode = split_mode;
    plan->tuple_new = tuple_new;
    plan->max_chars = max_chars;
    plan->max_ids = max_ids;
    plan->vectorcall = pair_plan_call;
    PyObject_GC_Track(plan);
    if (plan->types == NULL || plan->prf == NULL) {
        Py_CLEAR(plan);
        PyErr_NoMemory();
        goto done;
    }
    memcpy(plan->types, types.buf, (size_t)len * sizeof(int64_t));
done:
    PyBuffer_Release(&types);
    return (PyObject *)plan;
}

static int pair_plan_traverse(PairPlan *plan, visitproc visit, void *arg) {
    Py_VISIT(plan->encoder);
    Py_VISIT(plan->splitter);
    Py_VISIT(plan->names);
    Py_VISIT(plan->make);
    Py_VISIT(plan->fallback);
    return 0;
}

static int pair_plan_clear(PairPlan *plan) {
    Py_CLEAR(plan->encoder);
    Py_CLEAR(plan->splitter);
    Py_CLEAR(plan->names);
    Py_CLEAR(plan->make);
    Py_CLEAR(plan->fallback);
    return 0;
}

static void pair_plan_dealloc(PairPlan *plan) {
    PyObject_GC_UnTrack(plan);
    pair_plan_clear(plan);
    free(plan->types);
    free(plan->prf);
    free(plan->counts);
    PyObject_GC_Del(plan);
}

static PyObject *pair_plan_tp_call(PyObject *self, PyObject *args, PyObject *kwargs) {
    return PyVectorcall_Call(self, args, kwargs);
}

static PyTypeObject PairPlanType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "rouge_lcs._native.PairPlan",
    .tp_basicsize = sizeof(PairPlan),
    .tp_dealloc = (destructor)pair_plan_dealloc,
    .tp_vectorcall_offset = offsetof(PairPlan, vectorcall),
    .tp_call = pair_plan_tp_call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "One example's scores a call (Encoder.pair_plan).",
    .tp_traverse = (traverseproc)pair_plan_traverse,
    .tp_clear = (inquiry)pair_plan_clear,
};

#endif /* ROUGE_LCS_PY_PAIR_PLAN_H */
