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
    /* scores_plan's: its call takes a batch of one example and returns make(counts, p, r, f),
     * new copies of count_unit (one reference's counts) and float_unit (one value a type) */
    PyObject *count_unit, *float_unit;
    PyObject *model; /* the splitter's Punkt model, asked for once (Encoder.model_slot) */
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

/* The example's texts from a call's arguments (borrowed): its prediction, and its n_refs
 * references at *refs.  pair_plan's call: (prediction, references), a str and a non-empty
 * list; scores_plan's: a batch of one example, ([prediction], [reference]) or
 * ([prediction], [[reference, ...]]) in lists or tuples (single_example's rule).  0 when the
 * arguments are none of these, or a text is not exactly a str: then the fallback. */
static int plan_texts(const PairPlan *plan, PyObject *const *args, PyObject **prediction,
                      PyObject *const **refs, Py_ssize_t *n_refs) {
    PyObject *pred = args[0], *references = args[1];
    if (plan->count_unit != NULL) {
        if (!(PyList_CheckExact(pred) || PyTuple_CheckExact(pred)) ||
            !(PyList_CheckExact(references) || PyTuple_CheckExact(references)) ||
            PySequence_Fast_GET_SIZE(pred) != 1 || PySequence_Fast_GET_SIZE(references) != 1)
            return 0;
        pred = PySequence_Fast_ITEMS(pred)[0];
        PyObject *const *item = PySequence_Fast_ITEMS(references);
        if (PyUnicode_CheckExact(item[0])) {
            *refs = item;
            *n_refs = 1;
        } else if (PyList_CheckExact(item[0]) || PyTuple_CheckExact(item[0])) {
            *refs = PySequence_Fast_ITEMS(item[0]);
            *n_refs = PySequence_Fast_GET_SIZE(item[0]);
        } else {
            return 0;
        }
    } else if (PyList_CheckExact(references)) {
        *refs = PySequence_Fast_ITEMS(references);
        *n_refs = PyList_GET_SIZE(references);
    } else {
        return 0;
    }
    *prediction = pred;
    return PyUnicode_CheckExact(pred) && *n_refs >= 1;
}

/* scores_plan's result: make(counts, p, r, f) of the call's values. */
static PyObject *plan_scores(PairPlan *plan, Py_ssize_t n_refs) {
    Py_ssize_t n = plan->n_types;
    size_t floats = (size_t)n * sizeof(double);
    PyObject *v[4] = {
        filled_copy(plan->count_unit, n_refs, plan->counts,
                    (size_t)(n_refs * n * 3) * sizeof(int64_t)),
        filled_copy(plan->float_unit, 1, plan->prf, floats),
        filled_copy(plan->float_unit, 1, plan->prf + n, floats),
        filled_copy(plan->float_unit, 1, plan->prf + 2 * n, floats),
    };
    PyObject *result = NULL;
    if (v[0] != NULL && v[1] != NULL && v[2] != NULL && v[3] != NULL)
        result = PyObject_Vectorcall(plan->make, v, 4, NULL);
    for (int k = 0; k < 4; k++) Py_XDECREF(v[k]);
    return result;
}

static PyObject *pair_plan_call(PyObject *self, PyObject *const *args, size_t nargsf,
                                PyObject *kwnames) {
    PairPlan *plan = (PairPlan *)self;
    if (PyVectorcall_NARGS(nargsf) != 2 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0)) {
        PyErr_SetString(PyExc_TypeError, "PairPlan: expected (prediction, references)");
        return NULL;
    }
    PyObject *prediction, *const *refs;
    Py_ssize_t n_refs;
    if (!plan_texts(plan, args, &prediction, &refs, &n_refs)) return pair_plan_fallback(plan, args);
    int64_t chars = PyUnicode_GET_LENGTH(prediction);
    for (Py_ssize_t k = 0; k < n_refs; k++) {
        if (!PyUnicode_CheckExact(refs[k])) return pair_plan_fallback(plan, args);
        chars += PyUnicode_GET_LENGTH(refs[k]);
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
    /* the texts in a tuple of the call's own (a list may change while a splitter runs) */
    PyObject *texts = PyTuple_New(n_refs + 1);
    if (texts == NULL) return NULL;
    PyTuple_SET_ITEM(texts, 0, Py_NewRef(prediction));
    for (Py_ssize_t k = 0; k < n_refs; k++) PyTuple_SET_ITEM(texts, k + 1, Py_NewRef(refs[k]));
    Py_ssize_t n = plan->n_types;
    double *p = plan->prf, *r = p + n, *f = r + n;
    int ok = pair_core(plan->encoder, texts, n_refs + 1, plan->types, n, plan->mode, plan->beta,
                       plan->split_mode, plan->splitter, &plan->model, plan->counts, p, r, f);
    Py_DECREF(texts);
    if (!ok) return NULL;
    if (plan->count_unit != NULL) return plan_scores(plan, n_refs);
    PyObject *result = PyDict_New();
    for (Py_ssize_t t = 0; t < n && result != NULL; t++) {
        PyObject *value = pair_plan_value(plan, p[t], r[t], f[t]);
        if (value == NULL || PyDict_SetItem(result, PyTuple_GET_ITEM(plan->names, t), value) < 0)
            Py_CLEAR(result);
        Py_XDECREF(value);
    }
    return result;
}

/* pair_plan's and scores_plan's plan, its arguments checked (names NULL and the units given:
 * scores_plan's); NULL with an exception naming `fn`. */
static PyObject *new_plan(Encoder *e, Py_buffer *types, int mode, double beta, int split_mode,
                          PyObject *splitter, PyObject *names, PyObject *make, int tuple_new,
                          PyObject *fallback, long long max_chars, long long max_ids,
                          PyObject *count_unit, PyObject *float_unit, const char *fn) {
    Py_ssize_t len;
    int lsum;
    static const BufferArg specs[1] = {{"types", 8, 0}};
    if (!check_buffers(types, specs, 1, &len, NULL)) return NULL;
    Py_ssize_t n_types = len / 2;
    if (len % 2 || n_types < 1 || (names != NULL && PyTuple_GET_SIZE(names) != n_types)) {
        PyErr_Format(PyExc_ValueError, "%s: expected (kind, n) pairs and one name each", fn);
        return NULL;
    }
    if (!pair_types_ok(types->buf, n_types, &lsum, fn)) return NULL;
    if (mode < COMBINE_MAX_F || mode > COMBINE_MEAN || !(beta > 0) || !(beta * beta < HUGE_VAL)) {
        PyErr_Format(PyExc_ValueError, "%s: expected mode 0-3 and a finite beta > 0", fn);
        return NULL;
    }
    if (lsum && (split_mode < SPLIT_NEWLINE || split_mode > SPLIT_NLTK)) {
        PyErr_Format(PyExc_ValueError, "%s: ROUGE-Lsum needs a split_mode", fn);
        return NULL;
    }
    if (!lsum) split_mode = -1;
    for (Py_ssize_t t = 0; names != NULL && t < n_types; t++) {
        PyObject *name = PyTuple_GET_ITEM(names, t);
        if (!PyUnicode_Check(name) || PyObject_Hash(name) == -1) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "%s: names must be str", fn);
            return NULL;
        }
    }
    if (!PyCallable_Check(make) || !PyCallable_Check(fallback)) {
        PyErr_Format(PyExc_TypeError, "%s: make and fallback must be callable", fn);
        return NULL;
    }
    if (tuple_new && !(PyType_Check(make) && PyType_IsSubtype((PyTypeObject *)make, &PyTuple_Type))) {
        PyErr_Format(PyExc_TypeError, "%s: tuple_new needs a tuple subclass", fn);
        return NULL;
    }
    if (count_unit != NULL &&
        (!unit_ok(count_unit, n_types * 3, "lq", "scores_plan: count_unit") ||
         !unit_ok(float_unit, n_types, "d", "scores_plan: float_unit")))
        return NULL;
    PairPlan *plan = PyObject_GC_New(PairPlan, &PairPlanType);
    if (plan == NULL) return NULL;
    plan->types = malloc((size_t)len * sizeof(int64_t));
    plan->prf = malloc((size_t)n_types * 3 * sizeof(double));
    plan->counts = NULL;
    plan->counts_cap = 0;
    plan->encoder = (Encoder *)Py_NewRef(e);
    plan->splitter = Py_NewRef(splitter);
    plan->names = Py_XNewRef(names);
    plan->make = Py_NewRef(make);
    plan->fallback = Py_NewRef(fallback);
    plan->count_unit = Py_XNewRef(count_unit);
    plan->float_unit = Py_XNewRef(float_unit);
    plan->model = NULL;
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
        Py_DECREF(plan);
        return PyErr_NoMemory();
    }
    memcpy(plan->types, types->buf, (size_t)len * sizeof(int64_t));
    return (PyObject *)plan;
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
    PyObject *plan = new_plan(e, &types, mode, beta, split_mode, splitter, names, make, tuple_new,
                              fallback, max_chars, max_ids, NULL, NULL, "pair_plan");
    PyBuffer_Release(&types);
    return plan;
}

PyDoc_STRVAR(scores_plan_doc,
"scores_plan(types, mode, beta, split_mode, splitter, make, fallback, max_chars, max_ids, count_unit, float_unit) -> PairPlan\n"
"--\n\n"
"pair_plan's callable for a batch of one example: plan(predictions, references) with\n"
"predictions [prediction] and references [reference] or [[reference, ...]] (lists or\n"
"tuples, the texts exactly str) -> make(counts, p, r, f), where counts is a new copy of\n"
"count_unit (an int64 array of types x 3 zeros) repeated once per reference and p, r, f\n"
"new copies of float_unit (a float64 array of one zero per type), holding pair_scores'\n"
"numbers.  Other arguments, fallback and NotImplemented as pair_plan's.");

static PyObject *encoder_scores_plan(Encoder *e, PyObject *args) {
    PyObject *splitter, *make, *fallback, *count_unit, *float_unit;
    int mode, split_mode;
    double beta;
    long long max_chars, max_ids;
    Py_buffer types;
    if (!PyArg_ParseTuple(args, "y*idiOOOLLOO:scores_plan", &types, &mode, &beta, &split_mode,
                          &splitter, &make, &fallback, &max_chars, &max_ids, &count_unit,
                          &float_unit))
        return NULL;
    PyObject *plan = new_plan(e, &types, mode, beta, split_mode, splitter, NULL, make, 0,
                              fallback, max_chars, max_ids, count_unit, float_unit,
                              "scores_plan");
    PyBuffer_Release(&types);
    return plan;
}

static int pair_plan_traverse(PairPlan *plan, visitproc visit, void *arg) {
    Py_VISIT(plan->encoder);
    Py_VISIT(plan->splitter);
    Py_VISIT(plan->names);
    Py_VISIT(plan->make);
    Py_VISIT(plan->fallback);
    Py_VISIT(plan->count_unit);
    Py_VISIT(plan->float_unit);
    Py_VISIT(plan->model);
    return 0;
}

static int pair_plan_clear(PairPlan *plan) {
    Py_CLEAR(plan->encoder);
    Py_CLEAR(plan->splitter);
    Py_CLEAR(plan->names);
    Py_CLEAR(plan->make);
    Py_CLEAR(plan->fallback);
    Py_CLEAR(plan->count_unit);
    Py_CLEAR(plan->float_unit);
    Py_CLEAR(plan->model);
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

static PyObject *pair_plan_encoder(PairPlan *plan, void *closure) {
    (void)closure;
    if (plan->encoder == NULL) Py_RETURN_NONE;
    return Py_NewRef((PyObject *)plan->encoder);
}

static PyGetSetDef pair_plan_getset[] = {
    {"encoder", (getter)pair_plan_encoder, NULL, "The Encoder the plan encodes with.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

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
    .tp_getset = pair_plan_getset,
};

#endif /* ROUGE_LCS_PY_PAIR_PLAN_H */
