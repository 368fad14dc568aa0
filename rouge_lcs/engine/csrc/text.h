/*
 * text.h: the stages of rouge_lcs._native that hold the GIL: texts -> token ids.
 *
 *   Encoder         interns tokens to int32 ids by their CPython representation, stems new
 *                   words once (porter.h for ASCII words, porter_stem_unicode for the others,
 *                   NLTK through rouge_lcs.text.stemming.stem for a word too odd for both);
 *   tokenizers      rouge_score's ([a-z0-9] runs of text.lower()) and the ``unicode`` one
 *                   (classes from unicode_table.h, NFKC and str.lower() from CPython); any other
 *                   tokenizer is a Python callable whose tokens are interned here;
 *   sentences       ROUGE-Lsum's newline split, the texts Punkt cannot split, the sentences
 *                   Punkt found on the threads (punkt.h, run from py_sentences.h), and the Python
 *                   splitter for the rest.
 *
 * These call into CPython (str.lower, unicodedata.normalize, Python tokenizers and splitters),
 * so they run with the GIL held; the ids they produce are all that kernels.h sees.  module.c
 * includes Python.h before this file; py_encoder.h and module.c bind the Encoder type.
 */
#ifndef ROUGE_LCS_TEXT_H
#define ROUGE_LCS_TEXT_H

/* made at module init: the per-text calls of the tokenizers build no strings */
static PyObject *STR_LOWER, *STR_NFKC;
static PyObject *PUNKT_MODEL_NAME; /* "punkt_model": a splitter's offer of its model in C */
static PyObject *STR_LOWER_FN; /* str.lower itself (the unbound method of the str type) */

/*
 * Strings from Python are read as the str they are.  A str subclass may override lower(),
 * __eq__ or __hash__, and its lower() may return anything (42, None, another subclass): so a
 * subclass is first copied to an exact str (as_exact_str: characters only, no method of the
 * subclass is called), every lowercasing is str.lower itself (str_lower), and every result of
 * a call into Python is checked before a PyUnicode_* macro reads it.
 */

/* A new reference to `obj` as an exact str: obj itself when it is one, a copy of the
 * characters of a str subclass, else NULL with a TypeError naming `what`. */
static PyObject *as_exact_str(PyObject *obj, const char *what) {
    if (PyUnicode_CheckExact(obj)) return Py_NewRef(obj);
    if (PyUnicode_Check(obj)) return PyUnicode_FromObject(obj); /* a copy, no method call */
    PyErr_Format(PyExc_TypeError, "%s must be str, got %s", what, Py_TYPE(obj)->tp_name);
    return NULL;
}

/* str.lower(s) for any str s (a subclass's own lower() is not called); new reference. */
static PyObject *str_lower(PyObject *s) {
    PyObject *lowered = PyObject_CallOneArg(STR_LOWER_FN, s);
    if (lowered != NULL && !PyUnicode_CheckExact(lowered)) { /* str.lower makes a str */
        Py_DECREF(lowered);
        PyErr_SetString(PyExc_SystemError, "str.lower returned no str");
        return NULL;
    }
    return lowered;
}

/* str.isupper / islower / isspace of one character (Py_UNICODE_IS*: what the str methods are
 * for a one-character string), as punkt.h's PunktCase bits. */
static int cpython_case_bits(uint32_t c) {
    return (Py_UNICODE_ISUPPER(c) ? CASE_UPPER : 0) | (Py_UNICODE_ISLOWER(c) ? CASE_LOWER : 0) |
           (Py_UNICODE_ISSPACE(c) ? CASE_SPACE : 0);
}

/* Porter on any word, exactly as NLTK: NLTK's rules look at characters only through "is it one
 * of a e i o u y", "is it w x y", "is it l s z", equality of neighbours and ASCII suffixes, so
 * every other character is a consonant that matches nothing.  Each distinct non-ASCII code
 * point of the (already lowercased) word is given a distinct byte >= 128, which the byte
 * stemmer treats exactly so, and mapped back afterwards.  Returns the stem as a new str, or
 * NULL without an exception when the word has more than 128 distinct non-ASCII code points
 * (the caller then asks NLTK), or NULL with an exception on error. */
static PyObject *porter_stem_unicode(PyObject *lowered) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(lowered);
    if (n > INT32_MAX - 2) return NULL;
    int kind = PyUnicode_KIND(lowered);
    const void *data = PyUnicode_DATA(lowered);
    Py_UCS4 table[128];
    int used = 0;
    char *bytes = malloc((size_t)n + 2);
    char *out = malloc((size_t)n + 2);
    Py_UCS4 *ucs = malloc(((size_t)n + 2) * sizeof(Py_UCS4));
    PyObject *result = NULL;
    if (bytes == NULL || out == NULL || ucs == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < 128) {
            bytes[i] = (char)c;
            continue;
        }
        int k = 0;
        while (k < used && table[k] != c) k++;
        if (k == used) {
            if (used == 128) goto done; /* no exception: the caller falls back to NLTK */
            table[used++] = c;
        }
        bytes[i] = (char)(128 + k);
    }
    int len = porter_stem(bytes, (int)n, out);
    for (int i = 0; i < len; i++) {
        unsigned char b = (unsigned char)out[i];
        ucs[i] = b < 128 ? b : table[b - 128];
    }
    result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, ucs, len);
done:
    free(bytes);
    free(out);
    free(ucs);
    return result;
}

/* ------------------------------------------------------------------------------------------ */
/* Encoder: texts -> token ids                                                                  */
/*
 * Raw tokens are interned by their CPython representation (kind byte + code units): equal
 * strings have equal representations (CPython strings are canonical), and no encoding step can
 * fail, lone surrogates included.  With stemming, a new raw token is stemmed once (by the C port
 * above; by NLTK through rouge_lcs.text.stemming only for a word with more than 128 distinct
 * non-ASCII characters) and its form interned in a second map, so tokens that stem alike share
 * an id exactly as in rouge_lcs/engine/reference/documents.py (the Python engine's
 * DocumentStore).  The raw map is the per-call stemming memo.
 */

enum { MODE_ROUGE_SCORE = 0, MODE_UNICODE = 1, MODE_PYTHON = 2, MODE_CHAR = 3 };

/* What encode() found out on its threads about a text before preparing it: nothing (the
 * text is checked when prepared), or nfkc_native_ok's answer. */
enum { NFKC_HINT_NONE = 0, NFKC_HINT_NATIVE = 1, NFKC_HINT_CPYTHON = 2 };

/* map_slot / map_add (tokens.h) with a MemoryError set on failure */
static int64_t map_find(Map *map, int kind, const char *data, int64_t nbytes, uint64_t h) {
    int64_t slot = map_slot(map, kind, data, nbytes, h);
    if (slot < 0) PyErr_NoMemory();
    return slot;
}

static int map_put(Map *map, int64_t slot, int kind, const char *data, int64_t nbytes,
                   uint64_t h, int64_t id) {
    if (map_add(map, slot, kind, data, nbytes, h, id)) return 1;
    PyErr_NoMemory();
    return 0;
}

typedef struct {
    PyObject_HEAD
    int mode;
    PyObject *split;  /* Python tokenizer (modes 1, 2 and 3) */
    PyObject *split_name; /* a user tokenizer's name (str): its result must be a list or a
                           * tuple, as CheckedTokenizer requires, and errors name it; NULL for
                           * the built-in splits */
    PyObject *stem;   /* rouge_lcs.text.stemming.stem, for words too odd for the C port, or NULL: no stemming */
    PyObject *normalize; /* unicodedata.normalize for the native unicode tokenizer, or NULL */
    int nfkc;            /* normalize's NFKC (joiners removed) in C on the threads (nfkc.h) */
    int nfkc_hint;       /* the next text's nfkc_native_ok, found on the threads (NFKC_HINT_*) */
    Map raw;          /* raw token -> id of its form */
    Map forms;        /* stemmed form -> id */
    int64_t n_ids;
    /* output of the current call */
    int32_t *out;
    int64_t out_len, out_cap;
    char *stem_buf;
    int64_t stem_cap;
    int64_t *soff; /* sentence offsets of the current call */
    int64_t soff_len, soff_cap;
    /* Collecting (tokens.h): the call's texts are prepared with the GIL into pieces, cut and
     * looked up on threads, then merged; offsets (soff, the encode offsets) count pieces until
     * the merge turns them into token offsets. */
    int collect;
    TextPiece *pieces;
    int64_t n_pieces, pieces_cap;
    PyObject *keep;   /* strings the pieces point into, other than `held` */
    PyObject *held;   /* the text being prepared, kept alive by the call's tuple */
    int last_threads; /* threads the last call cut its pieces on (tests check the wiring) */
    int last_punkt_threads; /* threads the last encode_sentences ran Punkt on (0: none) */
    int initialized; /* __init__ ran */
    int busy;        /* inside encode/encode_sentences (Python code they call must not re-enter) */
    Workspace *pair_ws; /* pair_scores' counting workspace, kept between its calls (or NULL) */
    /* pair_scores without a stemmer: the call's tokens get ids of the call alone (0 ..
     * n_local - 1, by first appearance) from a shard kept between calls, not from the
     * vocabulary: a short pair's few tokens are then looked up in a table that stays in the
     * cache, where the vocabulary of every earlier call is a table of megabytes (its lookups
     * were most of a REALSumm pair's call), and the counting tables are as small. */
    int local_ids;
    int64_t n_local;
    TokenShard *pair_shard; /* for the pieces LocalIds does not take */
    LocalIds pair_ids;
    /* During a PairPlan's call: where the plan keeps its splitter's Punkt model (NULL until a
     * text first needs it), so that the splitter is asked once per plan, not once per call
     * (asking is two Python calls: a sixth of a short pair's Punkt).  NULL otherwise. */
    PyObject **model_slot;
} Encoder;

/* The id of a stemmed form; -1 on error. */
static int64_t form_id(Encoder *e, int kind, const char *data, int64_t nbytes) {
    uint64_t h = bytes_hash(kind, data, nbytes);
    int64_t slot = map_find(&e->forms, kind, data, nbytes, h);
    if (slot < 0) return -1;
    if (map_has(&e->forms, slot)) return map_id(&e->forms, slot);
    if (!map_put(&e->forms, slot, kind, data, nbytes, h, e->n_ids)) return -1;
    return e->n_ids++;
}

/* The id of the form of a new raw token; -1 on error. */
static int64_t new_id(Encoder *e, int kind, const char *data, int64_t nbytes) {
    if (e->stem == NULL) return e->n_ids++;
    if (kind == PyUnicode_1BYTE_KIND) {
        int ascii = 1;
        for (int64_t k = 0; k < nbytes && ascii; k++) ascii = (unsigned char)data[k] < 128;
        if (ascii) { /* lowercased, Porter from 4 characters on (tokens.h) */
            if (nbytes > INT32_MAX - 2 ||
                !grow((void **)&e->stem_buf, &e->stem_cap, nbytes + 2, 1)) {
                PyErr_NoMemory();
                return -1;
            }
            int len = ascii_form(data, (int)nbytes, e->stem_buf);
            return form_id(e, kind, e->stem_buf, len);
        }
    }
    PyObject *token = PyUnicode_FromKindAndData(kind, data, nbytes / kind);
    if (token == NULL) return -1;
    PyObject *form = NULL;
    {
        /* rouge_lcs.text.stemming.stem (e->stem is always it): lowercase, Porter from 4 characters
         * on, here in C; NLTK only for a word porter_stem_unicode declines */
        PyObject *lowered = str_lower(token);
        if (lowered == NULL) {
            Py_DECREF(token);
            return -1;
        }
        if (PyUnicode_GET_LENGTH(lowered) <= MIN_STEM_LENGTH) {
            form = lowered;
        } else {
            form = porter_stem_unicode(lowered);
            Py_DECREF(lowered);
            if (form == NULL && PyErr_Occurred()) {
                Py_DECREF(token);
                return -1;
            }
        }
    }
    if (form == NULL) form = PyObject_CallOneArg(e->stem, token);
    Py_DECREF(token);
    if (form == NULL) return -1;
    PyObject *exact = as_exact_str(form, "stemmer: the result");
    Py_DECREF(form);
    if (exact == NULL) return -1;
    int fkind = PyUnicode_KIND(exact);
    int64_t id =
        form_id(e, fkind, PyUnicode_DATA(exact), (int64_t)PyUnicode_GET_LENGTH(exact) * fkind);
    Py_DECREF(exact);
    return id;
}

/* Append the id of the token (kind, code units, h = bytes_hash of them) to the output; 0 on
 * error. */
static int emit_hashed(Encoder *e, int kind, const char *data, int64_t nbytes, uint64_t h) {
    if (nbytes > INT32_MAX - 1) {
        PyErr_SetString(PyExc_ValueError, "token too long");
        return 0;
    }
    if (e->out_len == e->out_cap &&
        !grow((void **)&e->out, &e->out_cap, e->out_len + 1, sizeof(int32_t))) {
        PyErr_NoMemory();
        return 0;
    }
    int64_t slot = map_find(&e->raw, kind, data, nbytes, h);
    if (slot < 0) return 0;
    if (map_has(&e->raw, slot)) {
        e->out[e->out_len++] = map_id(&e->raw, slot);
        return 1;
    }
    int64_t id = new_id(e, kind, data, nbytes);
    if (id < 0) return 0;
    if (id > INT32_MAX - 1) {
        PyErr_SetString(PyExc_OverflowError, "too many distinct tokens");
        return 0;
    }
    /* new_id may have grown no map but raw's slot is still valid: only forms changed */
    if (!map_put(&e->raw, slot, kind, data, nbytes, h, id)) return 0;
    e->out[e->out_len++] = (int32_t)id;
    return 1;
}

/* Append the id of the token (kind, code units) to the output; 0 on error. */
static int emit(Encoder *e, int kind, const char *data, int64_t nbytes) {
    return emit_hashed(e, kind, data, nbytes, bytes_hash(kind, data, nbytes));
}

/* Record code units [a, b) of the str `obj` as a piece cut by `scan` on the shards (collecting
 * mode); obj is kept alive for the call unless it is the text held by the call's tuple. */
static int add_piece(Encoder *e, PyObject *obj, Py_ssize_t a, Py_ssize_t b, int scan) {
    if (e->n_pieces == e->pieces_cap &&
        !grow((void **)&e->pieces, &e->pieces_cap, e->n_pieces + 1, sizeof(TextPiece))) {
        PyErr_NoMemory();
        return 0;
    }
    Py_ssize_t kept = PyList_GET_SIZE(e->keep);
    if (obj != e->held && !(kept && PyList_GET_ITEM(e->keep, kept - 1) == obj) &&
        PyList_Append(e->keep, obj) < 0)
        return 0;
    TextPiece *p = &e->pieces[e->n_pieces++];
    p->data = PyUnicode_DATA(obj);
    p->kind = PyUnicode_KIND(obj);
    p->start = a;
    p->end = b;
    p->scan = scan;
    return 1;
}

/* A text that is not ASCII as an ASCII str of the same length with the same [a-z0-9] runs
 * after lower(): a character past ASCII whose lowercase is ASCII (KELVIN SIGN -> "k") as that
 * character, any other as a space (never part of a run).  Py_UNICODE_TOLOWER is the simple
 * mapping, str.lower's for every character whose lowercase is one character; the one whose
 * lowercase is two (LATIN CAPITAL LETTER I WITH DOT ABOVE -> "i" + U+0307: the "i" ends its
 * run) gives None, and the caller calls str.lower.  str.lower on a UCS-2 text (a curly quote
 * or a dash in an English summary) made a new string character by character: such texts
 * took ~1.4x an ASCII text's time on the per-call path. */
static PyObject *ascii_runs_text(PyObject *text) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    PyObject *out = PyUnicode_New(n, 127);
    if (out == NULL) return NULL;
    Py_UCS1 *o = PyUnicode_1BYTE_DATA(out);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 u = PyUnicode_READ(kind, data, i);
        if (u < 128) {
            o[i] = (Py_UCS1)u;
            continue;
        }
        if (u == 0x130) {
            Py_DECREF(out);
            return Py_NewRef(Py_None);
        }
        Py_UCS4 low = Py_UNICODE_TOLOWER(u);
        o[i] = low < 128 ? (Py_UCS1)low : ' ';
    }
    return out;
}

/* rouge_score's tokens: the maximal [a-z0-9] runs of text.lower(), as a piece the shards cut
 * (tokens.h); where the text is not ASCII, its runs as an ASCII text (ascii_runs_text), or
 * str.lower() with the GIL (it maps a few non-ASCII characters to ASCII letters, KELVIN SIGN
 * -> "k", LATIN CAPITAL LETTER I WITH DOT ABOVE -> "i" + U+0307, as rouge_score sees). */
static int encode_ascii_runs(Encoder *e, PyObject *text) {
    if (PyUnicode_IS_ASCII(text)) return add_piece(e, text, 0, PyUnicode_GET_LENGTH(text), SCAN_ASCII);
    PyObject *runs = ascii_runs_text(text);
    if (runs == NULL) return 0;
    if (runs != Py_None) {
        int ok = add_piece(e, runs, 0, PyUnicode_GET_LENGTH(runs), SCAN_ASCII);
        Py_DECREF(runs);
        return ok;
    }
    Py_DECREF(runs);
    PyObject *lowered = str_lower(text);
    if (lowered == NULL) return 0;
    int ok = add_piece(e, lowered, 0, PyUnicode_GET_LENGTH(lowered), SCAN_ASCII);
    Py_DECREF(lowered);
    return ok;
}


/* ------------------------------------------------------------------------------------------ */
/* The unicode tokenizer: classes from unicode_table.h, NFKC and lower() from CPython           */

/* tokenize_unicode (below) takes the steps of rouge_lcs.text.tokenizers.unicode_tokenize:
 * lower(); ASCII after lowering -> [a-z0-9]+ runs of that; else NFKC, lower(), then the class
 * scan.  `ascii` handles the ASCII case. */
/* The last step of the unicode tokenizer: `s` (normalized, lowercased) to cut by the class
 * scan, or (`ascii`) an ASCII string to cut into [a-z0-9] runs. */
typedef int (*ScanFn)(void *ctx, PyObject *s);

static int tokenize_unicode(PyObject *text, PyObject *normalize, void *ctx, ScanFn ascii,
                            ScanFn scan) {
    /* Only KELVIN SIGN (U+212A) lowercases to ASCII (checked over all code points by
     * tests/engine/native/test_native_encoder.py), so a text with another non-ASCII character cannot lower to
     * ASCII: skip that first lower() for it. */
    /* A text of ASCII and precomposed Hangul syllables (U+AC00..U+D7A3) only is its own NFKC
     * form: each of these characters is NFKC-stable with combining class 0, and no two of them
     * compose (a syllable composes only with a following conjoining jamo, which is not in the
     * set).  It holds no joiner either, so the `normalize` call (NFKC, joiners removed) is the
     * identity and is skipped: most Korean texts are such texts. */
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text), may_lower_to_ascii = 1, nfkc_stable = 1, upper = 0;
    const void *data = PyUnicode_DATA(text);
    for (Py_ssize_t k = 0; k < n && (may_lower_to_ascii || nfkc_stable); k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        may_lower_to_ascii = may_lower_to_ascii && (c < 128 || c == 0x212A);
        nfkc_stable = nfkc_stable && (c < 128 || (c >= 0xAC00 && c <= 0xD7A3));
        upper |= c >= 'A' && c <= 'Z';
    }
    PyObject *lowered;
    if (nfkc_stable && !may_lower_to_ascii) {
        /* Hangul syllables have no case: without A-Z the text is its own lower() too. */
        if (!upper) return scan(ctx, text);
        lowered = str_lower(text);
        if (lowered == NULL) return 0;
        int ok = scan(ctx, lowered);
        Py_DECREF(lowered);
        return ok;
    }
    if (may_lower_to_ascii) {
        lowered = str_lower(text);
        if (lowered == NULL) return 0;
        if (PyUnicode_IS_ASCII(lowered)) {
            int ok = ascii(ctx, lowered);
            Py_DECREF(lowered);
            return ok;
        }
        Py_DECREF(lowered);
    }
    PyObject *call_args[2] = {STR_NFKC, text};
    PyObject *nfkc = PyObject_Vectorcall(normalize, call_args, 2, NULL);
    if (nfkc == NULL) return 0;
    PyObject *exact = as_exact_str(nfkc, "normalize: the result");
    Py_DECREF(nfkc);
    if (exact == NULL) return 0;
    lowered = str_lower(exact);
    Py_DECREF(exact);
    if (lowered == NULL) return 0;
    int ok = scan(ctx, lowered);
    Py_DECREF(lowered);
    return ok;
}

static int encode_token_list(Encoder *e, PyObject *tokens) {
    if (e->split_name != NULL) {
        /* rouge_lcs.text.tokenizers.CheckedTokenizer's checks, here as the tokens are read
         * (its Python loop over every token was ~10% of a call with a Python tokenizer) */
        if (!PyList_Check(tokens) && !PyTuple_Check(tokens)) {
            PyErr_Format(PyExc_TypeError, "tokenizer: %U must return a list of str, got %s",
                         e->split_name, Py_TYPE(tokens)->tp_name);
            return 0;
        }
    } else if (PyUnicode_Check(tokens) || PyBytes_Check(tokens)) {
        PyErr_Format(PyExc_TypeError, "tokenizer: must return a list of str, got %s",
                     Py_TYPE(tokens)->tp_name);
        return 0;
    }
    /* A tuple of its own: the stemmer (Python) runs while the items are read, and nothing it
     * does to the tokenizer's list can move them. */
    PyObject *seq = PySequence_Tuple(tokens);
    if (seq == NULL) return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    PyObject **items = &PyTuple_GET_ITEM(seq, 0);
    int ok = 1;
    for (Py_ssize_t k = 0; k < n && ok; k++) {
        PyObject *token = items[k];
        if (!PyUnicode_Check(token)) { /* a str subclass counts by its characters */
            if (e->split_name != NULL)
                PyErr_Format(PyExc_TypeError,
                             "tokenizer: %U must return a list of str, got an item of type %s",
                             e->split_name, Py_TYPE(token)->tp_name);
            else
                PyErr_Format(PyExc_TypeError,
                             "tokenizer: must return a list of str, got an item of type %s",
                             Py_TYPE(token)->tp_name);
            ok = 0;
            break;
        }
        int kind = PyUnicode_KIND(token);
        ok = e->collect ? add_piece(e, token, 0, PyUnicode_GET_LENGTH(token), SCAN_TOKEN)
                        : emit(e, kind, PyUnicode_DATA(token),
                               (int64_t)PyUnicode_GET_LENGTH(token) * kind);
    }
    Py_DECREF(seq);
    return ok;
}

static int scan_to_piece(void *ctx, PyObject *s) {
    return add_piece((Encoder *)ctx, s, 0, PyUnicode_GET_LENGTH(s), SCAN_UNICODE);
}

static int ascii_to_encoder(void *ctx, PyObject *lowered) {
    return encode_ascii_runs((Encoder *)ctx, lowered);
}

static int encode_text_exact(Encoder *e, PyObject *text);

/* Whether the char tokenizer may cut the text natively (tokens.h's char_plain). */
static int char_plain_text(PyObject *text) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    if (PyUnicode_IS_ASCII(text)) return 1;
    for (Py_ssize_t k = 0; k < n; k++)
        if (!char_plain(PyUnicode_READ(kind, data, k))) return 0;
    return 1;
}

/* Encode one text (any str; a subclass as the str it is); 0 on error. */
static int encode_text(Encoder *e, PyObject *text) {
    if (PyUnicode_CheckExact(text)) return encode_text_exact(e, text);
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "expected str, got %s", Py_TYPE(text)->tp_name);
        return 0;
    }
    PyObject *exact = as_exact_str(text, "text");
    if (exact == NULL) return 0;
    int ok = encode_text_exact(e, exact);
    Py_DECREF(exact);
    return ok;
}

static int encode_text_exact(Encoder *e, PyObject *text) {
    int hint = e->nfkc_hint; /* about this text only */
    e->nfkc_hint = NFKC_HINT_NONE;
    if (e->mode == MODE_ROUGE_SCORE || (e->mode == MODE_UNICODE && PyUnicode_IS_ASCII(text)))
        return encode_ascii_runs(e, text);
    if (e->mode == MODE_UNICODE && e->normalize != NULL) {
        /* NFKC and lower() on the threads where nfkc.h decides the text alone */
        Py_ssize_t n = PyUnicode_GET_LENGTH(text);
        /* the hint where the threads found it, else the check (only where it can matter) */
        if (e->nfkc && e->collect &&
            (hint != NFKC_HINT_NONE
                 ? hint == NFKC_HINT_NATIVE
                 : nfkc_native_ok(PyUnicode_KIND(text), PyUnicode_DATA(text), n)))
            return add_piece(e, text, 0, n, SCAN_NFKC);
        return tokenize_unicode(text, e->normalize, e, ascii_to_encoder, scan_to_piece);
    }
    if (e->mode == MODE_CHAR && e->collect && char_plain_text(text))
        return add_piece(e, text, 0, PyUnicode_GET_LENGTH(text), SCAN_CHAR);
    PyObject *tokens = PyObject_CallOneArg(e->split, text);
    if (tokens == NULL) return 0;
    int ok = encode_token_list(e, tokens);
    Py_DECREF(tokens);
    return ok;
}

/* Sentence splitting for ROUGE-Lsum, natively where rouge_lcs.text.sentences allows it. */
enum { SPLIT_NEWLINE = 0, SPLIT_AUTO = 1, SPLIT_NLTK = 2 };

static int push_offset(Encoder *e) {
    if (!grow((void **)&e->soff, &e->soff_cap, e->soff_len + 1, sizeof(int64_t))) {
        PyErr_NoMemory();
        return 0;
    }
    e->soff[e->soff_len++] = e->collect ? e->n_pieces : e->out_len;
    return 1;
}

static int encode_sentence(Encoder *e, PyObject *text, Py_ssize_t a, Py_ssize_t b) {
    /* Collecting, a line of an ASCII text is a piece of the text itself (no copy): its
     * tokens are the substring's, which encode_ascii_runs would cut. */
    if (e->collect && e->mode != MODE_PYTHON && PyUnicode_IS_ASCII(text))
        return add_piece(e, text, a, b, e->mode == MODE_CHAR ? SCAN_CHAR : SCAN_ASCII) &&
               push_offset(e);
    if (a == 0 && b == PyUnicode_GET_LENGTH(text)) /* the whole text: no copy */
        return encode_text(e, text) && push_offset(e);
    PyObject *sub = PyUnicode_Substring(text, a, b);
    if (sub == NULL) return 0;
    int ok = encode_text(e, sub) && push_offset(e);
    Py_DECREF(sub);
    return ok;
}

/* The first '\n' of text[start:] at or after start, -1 if none (memchr on one-byte text). */
static Py_ssize_t next_newline(PyObject *text, Py_ssize_t start) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (start >= n) return -1;
    if (PyUnicode_KIND(text) == PyUnicode_1BYTE_KIND) {
        const char *data = (const char *)PyUnicode_DATA(text);
        const char *at = memchr(data + start, '\n', (size_t)(n - start));
        return at != NULL ? (Py_ssize_t)(at - data) : -1;
    }
    Py_ssize_t at = PyUnicode_FindChar(text, '\n', start, n, 1);
    return at < 0 ? -1 : at; /* -2 (an error) cannot happen: the range is valid */
}

/* sentences.newline_split: the non-empty lines; `first`: the text's first '\n' (-1: none). */
static int split_lines(Encoder *e, PyObject *text, Py_ssize_t first) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), start = 0, end = first;
    while (start <= n) {
        if (end < 0) end = n;
        if (end > start && !encode_sentence(e, text, start, end)) return 0;
        start = end + 1;
        end = next_newline(text, start);
    }
    return 1;
}

/* sentences.nltk_split's shortcut: texts Punkt cannot split are one sentence, text.rstrip()
 * (none when blank).  Two sufficient conditions, each checked conservatively:
 * - at most one sentence end (.?!。！？), closing the text;
 * - no 。！？ (which are cut without a following space), and no . ? ! that Punkt's
 *   period_context_re can match: it needs the end to be followed by punctuation or by
 *   whitespace and a further token, so an end followed by an ASCII letter or digit or a Hangul
 *   syllable ("0.47", "A.B"), or by ASCII whitespace only up to the end of the text, is no
 *   candidate; anything else counts as one.  With no candidate, NLTK's _slices_from_text
 *   yields the single slice [0, len(text.rstrip())).
 * punkt.h's punkt_short_end (also run on the encoder's threads) with CPython's str.isspace:
 * the index of the last character of text.rstrip() when it applies (-1: the text is blank, no
 * sentence), -2 when Punkt is needed; *cjk_end says whether the text has 。！？. */
static Py_ssize_t short_sentence_end(PyObject *text, int *cjk_end) {
    PunktText t = {PyUnicode_DATA(text), PyUnicode_KIND(text), PyUnicode_GET_LENGTH(text)};
    return (Py_ssize_t)punkt_short_end(&t, cpython_case_bits, cjk_end);
}

/* Whether split_mode splits the text at its lines (auto_split on a text with a newline);
 * `first`: the text's first '\n' (next_newline(text, 0)). */
static int splits_lines(Py_ssize_t first, int split_mode) {
    return split_mode == SPLIT_NEWLINE || (split_mode == SPLIT_AUTO && first >= 0);
}

/* The shortcut (short_sentence_end) when it applies: 1, 0 when Punkt is needed, -1 on error. */
static int split_short(Encoder *e, PyObject *text) {
    int cjk;
    Py_ssize_t last = short_sentence_end(text, &cjk);
    if (last == -2) return 0;
    if (last < 0) return 1; /* blank: no sentence */
    return encode_sentence(e, text, 0, last + 1) ? 1 : -1;
}

static int split_python(Encoder *e, PyObject *splitter, PyObject *text) {
    PyObject *sentences = PyObject_CallOneArg(splitter, text);
    if (sentences == NULL) return 0;
    if (PyUnicode_Check(sentences) || PyBytes_Check(sentences)) {
        PyErr_Format(PyExc_TypeError, "lsum_split: must return a list of str, got %s",
                     Py_TYPE(sentences)->tp_name);
        Py_DECREF(sentences);
        return 0;
    }
    /* a tuple of its own (see encode_token_list); each item checked, a subclass as its str */
    PyObject *seq = PySequence_Tuple(sentences);
    Py_DECREF(sentences);
    if (seq == NULL) return 0;
    int ok = 1;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(seq) && ok; k++) {
        PyObject *sentence = PyTuple_GET_ITEM(seq, k);
        if (!PyUnicode_Check(sentence)) {
            PyErr_Format(PyExc_TypeError,
                         "lsum_split: must return a list of str, got an item of type %s",
                         Py_TYPE(sentence)->tp_name);
            ok = 0;
            break;
        }
        ok = encode_text(e, sentence) && push_offset(e);
    }
    Py_DECREF(seq);
    return ok;
}

/* Encode the sentences Punkt found on the threads (py_sentences.h): n_spans (start, end) pairs of
 * the text, the blank ones dropped as cjk_cuts drops them; 0 on error. */
static int encode_spans(Encoder *e, PyObject *text, const int64_t *spans, int64_t n_spans) {
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    for (int64_t k = 0; k < n_spans; k++) {
        int64_t a = spans[2 * k], b = spans[2 * k + 1], c = a;
        while (c < b && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, c))) c++;
        if (c < b && !encode_sentence(e, text, (Py_ssize_t)a, (Py_ssize_t)b)) return 0;
    }
    return 1;
}

/* Split one text as split_mode says and encode its sentences (`first`: its first '\n', looked
 * for once per text); 0 on error. */
static int encode_text_sentences(Encoder *e, PyObject *text, int split_mode, PyObject *splitter,
                                 Py_ssize_t first) {
    if (splits_lines(first, split_mode)) return split_lines(e, text, first);
    int shortcut = split_short(e, text);
    return !(shortcut < 0 || (shortcut == 0 && !split_python(e, splitter, text)));
}

/* ------------------------------------------------------------------------------------------ */
/* Collecting: prepare with the GIL, cut on threads, merge                                      */

/* Start collecting pieces for one call; 0 on error. */
static int collect_begin(Encoder *e) {
    e->keep = PyList_New(0);
    if (e->keep == NULL) return 0;
    e->collect = 1;
    e->n_pieces = 0;
    e->held = NULL;
    return 1;
}

/* Stop collecting: drop the strings kept for the pieces (and a huge piece buffer). */
static void collect_end(Encoder *e) {
    e->collect = 0;
    e->held = NULL;
    Py_CLEAR(e->keep);
    if (e->pieces_cap > ((int64_t)1 << 16)) {
        free(e->pieces);
        e->pieces = NULL;
        e->pieces_cap = 0;
    }
}

/* The vocabulary id of a shard's new token j that the vocabulary lacks (its stemmed form
 * computed on the shard where it could); -1 with an exception on error. */
static int64_t shard_new_id(Encoder *e, const TokenShard *s, int64_t j) {
    const char *key = s->local.arena + s->new_at[j];
    int64_t id = s->form_at[j] >= 0
                     ? form_id(e, PyUnicode_1BYTE_KIND, s->forms + s->form_at[j], s->form_len[j])
                     : new_id(e, key[0], key + 1, s->new_len[j]);
    if (id > INT32_MAX - 1) {
        PyErr_SetString(PyExc_OverflowError, "too many distinct tokens");
        return -1;
    }
    return id;
}

/* The shard's tokens into e->out, its new ones as ids[j].  `take` (e->out is empty): the
 * shard's output buffer, rewritten in place, becomes e->out, where a first call allocated and
 * faulted in a copy of it.  0 with an exception on error. */
static int shard_output(Encoder *e, TokenShard *s, const int32_t *ids, int take) {
    /* nothing to append: e->out may still be NULL, and NULL + 0 is undefined in C (clang's
     * UBSan reports it; the fuzz run found it with an empty text) */
    if (s->out_len == 0) return 1;
    if (take) {
        for (int64_t k = 0; k < s->out_len; k++)
            if (s->out[k] < 0) s->out[k] = ids[-(int64_t)s->out[k] - 1];
        free(e->out);
        e->out = s->out;
        e->out_cap = s->out_cap;
        s->out = NULL;
        s->out_cap = 0;
        return 1;
    }
    if (!grow((void **)&e->out, &e->out_cap, e->out_len + s->out_len, sizeof(int32_t))) {
        PyErr_NoMemory();
        return 0;
    }
    int32_t *out = e->out + e->out_len;
    for (int64_t k = 0; k < s->out_len; k++) {
        int32_t v = s->out[k];
        out[k] = v >= 0 ? v : ids[-(int64_t)v - 1];
    }
    return 1;
}

/* The shard's new tokens into the vocabulary, in the shard's order of first appearance, then
 * its ids into e->out (shard_output); `trans` is scratch for the shard's new-token ids.  0
 * with an exception on error. */
static int merge_shard(Encoder *e, TokenShard *s, int32_t **trans, int64_t *trans_cap,
                       int take) {
    if (!grow((void **)trans, trans_cap, s->n_new, sizeof(int32_t))) {
        PyErr_NoMemory();
        return 0;
    }
    int32_t *ids = *trans;
    for (int64_t j = 0; j < s->n_new; j++) {
        const char *key = s->local.arena + s->new_at[j];
        int kind = key[0];
        int64_t nbytes = s->new_len[j];
        uint64_t h = s->new_hash[j];
        int64_t slot = map_find(&e->raw, kind, key + 1, nbytes, h);
        if (slot < 0) return 0;
        if (map_has(&e->raw, slot)) { /* an earlier shard added it */
            ids[j] = map_id(&e->raw, slot);
            continue;
        }
        int64_t id = shard_new_id(e, s, j);
        if (id < 0) return 0;
        /* forms may have changed, raw did not: the slot is still the key's */
        if (!map_put(&e->raw, slot, kind, key + 1, nbytes, h, id)) return 0;
        ids[j] = (int32_t)id;
    }
    return shard_output(e, s, ids, take);
}

/* merge_shard for a shard into an empty vocabulary: every one of its new tokens is new to the
 * vocabulary, so its own map (the same keys and arena layout, each slot's shard-local id
 * turned into the vocabulary id) becomes the vocabulary.  A fresh process's first call
 * inserted every distinct token into a second table (a chain of cache misses) and faulted in
 * that table's memory. */
static int adopt_shard(Encoder *e, TokenShard *s, int32_t **trans, int64_t *trans_cap,
                       int take) {
    if (!grow((void **)trans, trans_cap, s->n_new, sizeof(int32_t))) {
        PyErr_NoMemory();
        return 0;
    }
    int32_t *ids = *trans;
    for (int64_t j = 0; j < s->n_new; j++) { /* in order: ids as merge_shard gives them */
        int64_t id = shard_new_id(e, s, j);
        if (id < 0) return 0;
        ids[j] = (int32_t)id;
    }
    MapSlot *slots = s->local.slots;
    for (int64_t k = 0; k < s->local.cap; k++)
        if (slots[k].key_at >= 0) slots[k].id = ids[slots[k].id];
    map_free(&e->raw);
    e->raw = s->local;
    memset(&s->local, 0, sizeof(s->local));
    return shard_output(e, s, ids, take);
}

/* Whether the shard succeeded; else 0 with the exception its status names. */
static int shard_ok(const TokenShard *s) {
    if (s->status == SHARD_OK) return 1;
    if (s->status == SHARD_TOO_LONG) PyErr_SetString(PyExc_ValueError, "token too long");
    else if (s->status == SHARD_TOO_MANY)
        PyErr_SetString(PyExc_OverflowError, "too many distinct tokens");
    else PyErr_NoMemory();
    return 0;
}

/* Cut the collected pieces on up to `threads` threads (the GIL released), merge, and fill
 * e->out; *piece_end gets n_pieces + 1 token offsets (the caller frees it).  0 with an
 * exception on error. */
static int collect_run_local(Encoder *e, int64_t **piece_end);

static int collect_run(Encoder *e, int threads, int64_t **piece_end) {
    if (e->local_ids) return collect_run_local(e, piece_end);
    TokenShard shards[MAX_THREADS];
    int used, ran;
    Py_BEGIN_ALLOW_THREADS
    used = run_token_shards(shards, threads, e->pieces, e->n_pieces, &e->raw, e->stem != NULL,
                            &ran);
    Py_END_ALLOW_THREADS
    e->last_threads = ran;
    int ok = 1;
    for (int t = 0; t < used && ok; t++) ok = shard_ok(&shards[t]);
    int64_t *ends = ok ? malloc((size_t)(e->n_pieces + 1) * sizeof(int64_t)) : NULL;
    if (ok && ends == NULL) {
        PyErr_NoMemory();
        ok = 0;
    }
    int32_t *trans = NULL;
    int64_t trans_cap = 0;
    e->out_len = 0;
    if (ok) ends[0] = 0;
    /* an empty vocabulary takes the first shard's map (adopt_shard); one shard's output
     * buffer becomes e->out when e->out is too small for it (shard_output) */
    int adopt = e->raw.size == 0, take = 0;
    if (ok && used > 0) {
        /* Sized once: the output for every shard's tokens, and the vocabulary for the first
         * shard's new tokens (exact on one thread; later shards' are mostly the same words).
         * On a new vocabulary the doublings were a chain of new blocks to fault in. */
        int64_t total = 0;
        for (int t = 0; t < used; t++) total += shards[t].out_len;
        const TokenShard *first = &shards[0];
        take = used == 1 && e->out_cap < total;
        if ((!take && !grow((void **)&e->out, &e->out_cap, total, sizeof(int32_t))) ||
            (!adopt && !map_reserve(&e->raw, first->n_new, first->local.arena_len)) ||
            (e->stem != NULL && !map_reserve(&e->forms, first->n_new, first->forms_len + first->n_new))) {
            PyErr_NoMemory();
            ok = 0;
        }
    }
    for (int t = 0; t < used && ok; t++) {
        TokenShard *s = &shards[t];
        ok = t == 0 && adopt ? adopt_shard(e, s, &trans, &trans_cap, take)
                             : merge_shard(e, s, &trans, &trans_cap, take);
        if (!ok) break;
        for (int64_t k = s->first; k < s->last; k++)
            ends[k + 1] = e->out_len + s->piece_end[k - s->first];
        e->out_len += s->out_len;
    }
    free(trans);
    for (int t = 0; t < used; t++) token_shard_free(&shards[t]);
    if (!ok) {
        free(ends);
        return 0;
    }
    *piece_end = ends;
    return 1;
}

/* collect_run for local ids (Encoder.local_ids): the pieces cut on the calling thread by the
 * encoder's kept shard, looked up in no vocabulary, so that every token is new to it and its
 * shard-local id -(j + 1) is local id j; e->n_local gets their number. */
static int collect_run_local(Encoder *e, int64_t **piece_end) {
    static const Map no_vocab; /* cap 0: map_lookup finds nothing */
    if (local_ascii_ok(e->pieces, e->n_pieces)) {
        int64_t units = 0;
        for (int64_t k = 0; k < e->n_pieces; k++) units += e->pieces[k].end - e->pieces[k].start;
        int64_t *ends = malloc((size_t)(e->n_pieces + 1) * sizeof(int64_t));
        if (ends == NULL || !local_ids_reserve(&e->pair_ids, units, e->n_pieces) ||
            !grow((void **)&e->out, &e->out_cap, units / 2 + e->n_pieces + 1, sizeof(int32_t))) {
            free(ends);
            local_ids_free(&e->pair_ids);
            PyErr_NoMemory();
            return 0;
        }
        e->n_local = local_ascii_ids(&e->pair_ids, e->pieces, e->n_pieces, e->out, ends);
        e->out_len = ends[e->n_pieces];
        e->last_threads = 1;
        *piece_end = ends;
        return 1;
    }
    if (e->pair_shard == NULL && (e->pair_shard = calloc(1, sizeof(TokenShard))) == NULL) {
        PyErr_NoMemory();
        return 0;
    }
    TokenShard *s = e->pair_shard;
    token_shard_reset(s);
    s->pieces = e->pieces;
    s->first = 0;
    s->last = e->n_pieces;
    s->vocab = &no_vocab;
    s->stem = 0;
    token_shard_task(s);
    e->last_threads = 1;
    int64_t *ends = NULL;
    int ok = shard_ok(s);
    if (ok && ((ends = malloc((size_t)(e->n_pieces + 1) * sizeof(int64_t))) == NULL ||
               (s->out_len > 0 &&
                !grow((void **)&e->out, &e->out_cap, s->out_len, sizeof(int32_t))))) {
        PyErr_NoMemory();
        ok = 0;
    }
    if (!ok) {
        free(ends);
        token_shard_free(s); /* a failed shard's buffers are not trusted again */
        free(s);
        e->pair_shard = NULL;
        return 0;
    }
    ends[0] = 0;
    for (int64_t k = 0; k < e->n_pieces; k++) ends[k + 1] = s->piece_end[k];
    for (int64_t k = 0; k < s->out_len; k++) e->out[k] = -s->out[k] - 1;
    e->out_len = s->out_len;
    e->n_local = s->n_new;
    *piece_end = ends;
    return 1;
}

#endif /* ROUGE_LCS_TEXT_H */
