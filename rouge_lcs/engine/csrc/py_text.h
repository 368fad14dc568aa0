/*
 * py_text.h: the text stage's pieces run alone, for tests (tests/engine/native/): NLTK's
 * Porter port (porter.h), the unicode tokenizer (text.h, tokens.h), its code-point classes and
 * nfkc.h's normal form, each against its Python reference.
 *
 * Included by module.c after Python.h and the stage headers (one translation unit).
 */
#ifndef ROUGE_LCS_PY_TEXT_H
#define ROUGE_LCS_PY_TEXT_H

PyDoc_STRVAR(porter_doc,
"_test_porter_stem(word: str) -> str\n"
"--\n\n"
"NLTK's PorterStemmer().stem(word) (NLTK_EXTENSIONS mode, which lowercases the word first);\n"
"ValueError for a word with more than 128 distinct non-ASCII characters (the engine stems\n"
"those with NLTK itself).");

static PyObject *py_porter_stem(PyObject *self, PyObject *word) {
    if (!PyUnicode_Check(word)) {
        PyErr_SetString(PyExc_TypeError, "porter_stem: expected a str");
        return NULL;
    }
    /* str.lower itself, also for a str subclass (whose own lower() could return anything) */
    PyObject *exact = PyUnicode_FromObject(word);
    if (exact == NULL) return NULL;
    PyObject *lowered = str_lower(exact);
    Py_DECREF(exact);
    if (lowered == NULL) return NULL;
    /* NLTK keeps words of at most 2 characters *before* lowercasing ("İy" lowercases to 3) */
    if (PyUnicode_GET_LENGTH(word) <= 2) return lowered;
    PyObject *result = porter_stem_unicode(lowered);
    Py_DECREF(lowered);
    if (result == NULL && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError,
                        "porter_stem: word too long or with more than 128 distinct non-ASCII "
                        "characters");
    return result;
}

/* ------------------------------------------------------------------------------------------ */
/* The unicode tokenizer alone (text.h)                                                         */

static PyObject *py_unicode_class(PyObject *self, PyObject *arg) {
    long cp = PyLong_AsLong(arg);
    if (cp == -1 && PyErr_Occurred()) return NULL;
    if (cp < 0 || cp > 0x10FFFF) {
        PyErr_SetString(PyExc_ValueError, "unicode_class: not a code point");
        return NULL;
    }
    int hint = -1;
    return PyLong_FromLong(unicode_class((Py_UCS4)cp, &hint));
}

PyDoc_STRVAR(nfkc_doc,
"_test_nfkc(text) -> str or None\n"
"--\n\n"
"nfkc.h's normal form of the text (NFKC, str.lower(), the joiners removed), or None where it\n"
"leaves the text to CPython (nfkc_native_ok); for tests.");

static PyObject *py_nfkc(PyObject *self, PyObject *arg) {
    PyObject *text = as_exact_str(arg, "text");
    if (text == NULL) return NULL;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    PyObject *result = NULL;
    if (!NFKC_TABLE_OK || !nfkc_native_ok(kind, data, n)) {
        result = Py_NewRef(Py_None);
    } else {
        NfkcBuf b = {NULL, 0, 0};
        if (!nfkc_lower(&b, kind, data, 0, n)) PyErr_NoMemory();
        else result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, b.u ? b.u : (void *)"", b.len);
        free(b.u);
    }
    Py_DECREF(text);
    return result;
}

PyDoc_STRVAR(unicode_tokens_doc,
"_test_unicode_tokens(text, normalize) -> list[str]\n"
"--\n\n"
"The native ``unicode`` tokenizer (``normalize`` is unicodedata.normalize); for tests.");

/* The one piece tokenize_unicode leaves for the shards, and the string it points into. */
typedef struct {
    TextPiece piece;
    PyObject *owner;
} OnePiece;

static int one_piece(OnePiece *o, PyObject *s, int scan) {
    Py_XSETREF(o->owner, Py_NewRef(s));
    o->piece.data = PyUnicode_DATA(s);
    o->piece.kind = PyUnicode_KIND(s);
    o->piece.start = 0;
    o->piece.end = PyUnicode_GET_LENGTH(s);
    o->piece.scan = scan;
    return 1;
}

static int ascii_to_one(void *ctx, PyObject *s) {
    return one_piece((OnePiece *)ctx, s, SCAN_ASCII);
}

static int scan_to_one(void *ctx, PyObject *s) {
    return one_piece((OnePiece *)ctx, s, SCAN_UNICODE);
}

static PyObject *py_unicode_tokens(PyObject *self, PyObject *args) {
    PyObject *arg, *normalize;
    if (!PyArg_ParseTuple(args, "UO", &arg, &normalize)) return NULL;
    if (!PyCallable_Check(normalize)) {
        PyErr_SetString(PyExc_TypeError, "unicode_tokens: normalize must be callable");
        return NULL;
    }
    PyObject *text = as_exact_str(arg, "text");
    if (text == NULL) return NULL;
    OnePiece one = {{NULL, 0, 0, 1, SCAN_ASCII}, NULL};
    int ok = tokenize_unicode(text, normalize, &one, ascii_to_one, scan_to_one);
    Py_DECREF(text);
    PyObject *list = ok ? PyList_New(0) : NULL;
    if (list == NULL) {
        Py_XDECREF(one.owner);
        return NULL;
    }
    /* the encoder's own cutting (tokens.h) on one thread, with an empty vocabulary: every
     * token is new, and its key is its canonical representation */
    TokenShard shard;
    Map empty;
    memset(&empty, 0, sizeof(empty));
    int ran;
    run_token_shards(&shard, 1, &one.piece, one.owner != NULL, &empty, 0, &ran);
    if (!shard_ok(&shard)) Py_CLEAR(list);
    for (int64_t k = 0; list != NULL && k < shard.out_len; k++) {
        int64_t j = -(int64_t)shard.out[k] - 1;
        const char *key = shard.local.arena + shard.new_at[j];
        PyObject *token = PyUnicode_FromKindAndData(key[0], key + 1, shard.new_len[j] / key[0]);
        if (token == NULL || PyList_Append(list, token) < 0) Py_CLEAR(list);
        Py_XDECREF(token);
    }
    token_shard_free(&shard);
    Py_XDECREF(one.owner);
    return list;
}

#endif
