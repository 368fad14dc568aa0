/*
 * py_sentences.h: Encoder.encode_sentences(): texts split into sentences (ROUGE-Lsum), Punkt
 * on the threads without the GIL where the splitter offers its model (punkt.h), then encoded.
 *
 * Included by module.c after Python.h and the stage headers (one translation unit).
 */
#ifndef ROUGE_LCS_PY_SENTENCES_H
#define ROUGE_LCS_PY_SENTENCES_H

PyDoc_STRVAR(encode_sentences_doc,
"encode_sentences(texts, split_mode, splitter, num_threads=1, doc_offsets=False) -> (ids, sentence_offsets, doc_sentences[, doc_offsets])\n"
"--\n\n"
"Split each text into sentences (split_mode 0: newline_split, 1: auto_split, 2: nltk_split;\n"
"Punkt itself is ``splitter``, called only when the text needs it) and encode them: int32 ids,\n"
"int64 offsets of each sentence's ids, int64 offsets of each text's sentences (threads as\n"
"in encode); with doc_offsets, also the int64 offsets of each text's ids (where its first\n"
"sentence's start: the sentences put together are the text's tokens).  When ``splitter.punkt_model()`` gives a PunktModel, the texts that need Punkt\n"
"are split with it on num_threads threads without the GIL (last_punkt_threads says how\n"
"many), the others by ``splitter``.");

/* The model the splitter offers for the threads (its punkt_model()), called once per call when
 * a text needs it; NULL (no exception) when it offers none. */
static PunktModelObject *splitter_model(PyObject *splitter) {
    PyObject *factory = PyObject_GetAttr(splitter, PUNKT_MODEL_NAME);
    if (factory == NULL) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) PyErr_Clear();
        return NULL;
    }
    PyObject *model = PyObject_CallNoArgs(factory);
    Py_DECREF(factory);
    if (model == NULL) return NULL;
    if (!PyObject_TypeCheck(model, &PunktModelType)) {
        Py_DECREF(model);
        if (model != Py_None)
            PyErr_SetString(PyExc_TypeError, "splitter.punkt_model() must return a PunktModel");
        return NULL;
    }
    return (PunktModelObject *)model;
}

static void punkt_jobs_free(PunktJob *jobs, int64_t n) {
    for (int64_t k = 0; k < n; k++) free(jobs[k].spans);
    free(jobs);
}

/* Code units below which the texts' splits run with the GIL held: releasing and taking it
 * back cost more than a short text's split (the per-call path's texts), and no other thread
 * waits long. */
#define PUNKT_GIL_UNITS 4096

/* run_punkt_shards, without the GIL where the texts are long enough (or threads may run). */
static int punkt_shards_run(const PunktTables *m, PunktJob *jobs, int64_t n_jobs, int threads) {
    int64_t total = 0;
    for (int64_t k = 0; k < n_jobs; k++) total += jobs[k].t.n;
    if (threads <= 1 && total < PUNKT_GIL_UNITS) return run_punkt_shards(m, jobs, n_jobs, threads);
    int used;
    Py_BEGIN_ALLOW_THREADS
    used = run_punkt_shards(m, jobs, n_jobs, threads);
    Py_END_ALLOW_THREADS
    return used;
}

/* The texts' splits on the threads without the GIL (punkt.h): the shortcut decided, then
 * Punkt where it is needed, with the splitter's model (asked for only then, or found in the
 * calling plan's slot, e->model_slot).  A job the threads leave to Python (a character the
 * case tables do not decide, 。！？ to cut after, or no model offered) is PJ_PYTHON.  0 with
 * an exception on error. */
static int split_on_threads(Encoder *e, PunktJob *jobs, int64_t n_jobs, PyObject *splitter,
                            int threads, PunktModelObject **model) {
    int used = punkt_shards_run(NULL, jobs, n_jobs, threads);
    int64_t needed = 0;
    for (int64_t k = 0; k < n_jobs; k++) needed += jobs[k].how == PJ_NEEDS_PUNKT;
    if (used < 0 || needed == 0) return used < 0 ? (PyErr_NoMemory(), 0) : 1;
    PyObject **slot = e->model_slot;
    if (slot != NULL && *slot != NULL) {
        *model = (PunktModelObject *)Py_NewRef(*slot);
    } else if ((*model = splitter_model(splitter)) != NULL) {
        if (slot != NULL) *slot = Py_NewRef((PyObject *)*model);
    } else {
        if (PyErr_Occurred()) return 0;
        for (int64_t k = 0; k < n_jobs; k++)
            if (jobs[k].how == PJ_NEEDS_PUNKT) jobs[k].how = PJ_PYTHON;
        return 1;
    }
    used = punkt_shards_run(&(*model)->t, jobs, n_jobs, threads);
    if (used < 0) {
        PyErr_NoMemory();
        return 0;
    }
    e->last_punkt_threads = used;
    return 1;
}

/* A text the threads split (split_on_threads) into the encoder; 0 on error. */
static int encode_job_sentences(Encoder *e, PyObject *text, const PunktJob *job,
                                PyObject *splitter) {
    if (job->how == PJ_PUNKT) return encode_spans(e, text, job->spans, job->n_spans);
    if (job->how == PJ_PYTHON) return split_python(e, splitter, text);
    return job->last < 0 || encode_sentence(e, text, 0, (Py_ssize_t)job->last + 1);
}

/* encode_sentences()'s work on its texts' tuple (encoder_enter's), its arguments checked:
 * the sentences' ids into e->out, their offsets into e->soff (e->soff_len of them), each
 * text's first sentence into doc_sent[0 .. n]; 0 with an exception. */
static int sentences_into(Encoder *e, PyObject *seq, int split_mode, PyObject *splitter,
                          int threads, int64_t *doc_sent) {
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    PyObject **items = &PyTuple_GET_ITEM(seq, 0);
    PyObject *exact = NULL;
    PunktModelObject *model = NULL;
    PunktJob *jobs = NULL;
    int64_t n_jobs = 0, *job_of = NULL;
    Py_ssize_t *first_nl = NULL; /* each text's first '\n', looked for once */
    int collect = encoder_collects(e), ok = 0;
    e->last_punkt_threads = 0;
    if (collect && !collect_begin(e)) return 0;
    /* Each text as the str it is (a subclass's copy), kept for the call: the threads and the
     * pieces point into them. */
    exact = PyTuple_New(n);
    job_of = malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
    first_nl = malloc((size_t)(n > 0 ? n : 1) * sizeof(Py_ssize_t));
    jobs = malloc((size_t)(n > 0 ? n : 1) * sizeof(PunktJob));
    if (exact == NULL || job_of == NULL || first_nl == NULL || jobs == NULL) {
        if (exact != NULL) PyErr_NoMemory();
        goto done;
    }
    /* The texts Punkt may split go to the threads when the case tables match this interpreter
     * and the splitter offers a model in C; the others are split below as before. */
    int threaded = split_mode != SPLIT_NEWLINE && CASE_TABLE_OK &&
                   ((e->model_slot != NULL && *e->model_slot != NULL) ||
                    PyObject_HasAttr(splitter, PUNKT_MODEL_NAME));
    for (Py_ssize_t k = 0; k < n; k++) {
        job_of[k] = -1;
        if (!PyUnicode_Check(items[k])) {
            PyErr_Format(PyExc_TypeError, "expected str, got %s", Py_TYPE(items[k])->tp_name);
            goto done;
        }
        PyObject *text = as_exact_str(items[k], "text");
        if (text == NULL) goto done;
        PyTuple_SET_ITEM(exact, k, text);
        first_nl[k] = next_newline(text, 0);
        if (!threaded || splits_lines(first_nl[k], split_mode)) continue;
        PunktText t = {PyUnicode_DATA(text), PyUnicode_KIND(text), PyUnicode_GET_LENGTH(text)};
        jobs[n_jobs] = (PunktJob){t, PJ_PYTHON, -1, NULL, 0};
        job_of[k] = n_jobs++;
    }
    if (n_jobs > 0 && !split_on_threads(e, jobs, n_jobs, splitter, threads, &model)) goto done;
    e->out_len = 0;
    e->soff_len = 0;
    if (!push_offset(e)) goto done;
    doc_sent[0] = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *text = PyTuple_GET_ITEM(exact, k);
        e->held = text; /* `exact` keeps it (a subclass's copy too) for the call */
        if (!(job_of[k] >= 0 ? encode_job_sentences(e, text, &jobs[job_of[k]], splitter)
                             : encode_text_sentences(e, text, split_mode, splitter, first_nl[k])))
            goto done;
        doc_sent[k + 1] = e->soff_len - 1;
    }
    ok = !collect || offsets_to_tokens(e, threads, e->soff, e->soff_len);
done:
    if (collect) collect_end(e);
    punkt_jobs_free(jobs, n_jobs);
    free(job_of);
    free(first_nl);
    Py_XDECREF((PyObject *)model);
    Py_XDECREF(exact);
    return ok;
}

/* encode_sentences()'s checks of its split; 0 with an exception naming `function`. */
static int split_args_ok(int split_mode, PyObject *splitter, const char *function) {
    if (split_mode < SPLIT_NEWLINE || split_mode > SPLIT_NLTK) {
        PyErr_Format(PyExc_ValueError, "%s: unknown split_mode", function);
        return 0;
    }
    if (split_mode != SPLIT_NEWLINE && !PyCallable_Check(splitter)) {
        PyErr_Format(PyExc_TypeError, "%s: splitter must be callable", function);
        return 0;
    }
    return 1;
}

static PyObject *encoder_encode_sentences(Encoder *e, PyObject *args) {
    PyObject *texts, *splitter;
    int split_mode, threads = 1, want_doc_offsets = 0;
    if (!PyArg_ParseTuple(args, "OiO|ip:encode_sentences", &texts, &split_mode, &splitter,
                          &threads, &want_doc_offsets))
        return NULL;
    if (!split_args_ok(split_mode, splitter, "encode_sentences")) return NULL;
    PyObject *seq = encoder_enter(e, texts);
    if (seq == NULL) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    PyObject *docs = PyBytes_FromStringAndSize(NULL, (n + 1) * (Py_ssize_t)sizeof(int64_t));
    PyObject *result = NULL;
    if (docs == NULL) goto done;
    int64_t *doc_sent = (int64_t *)PyBytes_AS_STRING(docs);
    if (!sentences_into(e, seq, split_mode, splitter, threads, doc_sent)) goto done;
    PyObject *ids = PyBytes_FromStringAndSize((const char *)e->out,
                                              (Py_ssize_t)(e->out_len * sizeof(int32_t)));
    PyObject *offs = PyBytes_FromStringAndSize((const char *)e->soff,
                                               (Py_ssize_t)(e->soff_len * sizeof(int64_t)));
    PyObject *doc_offs = NULL;
    if (want_doc_offsets) { /* made here, where it was a Python map() over every text */
        doc_offs = PyBytes_FromStringAndSize(NULL, (n + 1) * (Py_ssize_t)sizeof(int64_t));
        if (doc_offs != NULL) {
            int64_t *at = (int64_t *)PyBytes_AS_STRING(doc_offs);
            for (Py_ssize_t k = 0; k <= n; k++) at[k] = e->soff[doc_sent[k]];
        }
    }
    if (ids != NULL && offs != NULL && (!want_doc_offsets || doc_offs != NULL))
        result = want_doc_offsets ? PyTuple_Pack(4, ids, offs, docs, doc_offs)
                                  : PyTuple_Pack(3, ids, offs, docs);
    Py_XDECREF(ids);
    Py_XDECREF(offs);
    Py_XDECREF(doc_offs);
done:
    Py_XDECREF(docs);
    encoder_leave(e, seq);
    return result;
}

#endif
