/*
 * py_arrow.h: Encoder.encode_arrow(): Arrow string columns to token ids, their rows read
 * from the buffers (arrow.h validates and decodes them on threads) without a str per row where
 * the native tokenizer takes the text as it is.
 *
 * Included by module.c after Python.h and the stage headers (one translation unit).
 */
#ifndef ROUGE_LCS_PY_ARROW_H
#define ROUGE_LCS_PY_ARROW_H

PyDoc_STRVAR(encode_arrow_doc,
"encode_arrow(columns, num_threads=1) -> (ids: bytes, offsets: bytes)\n"
"--\n\n"
"encode() of the rows of Arrow string columns, read from their buffers (no str per row where\n"
"the native tokenizer takes the text as it is).  columns: a sequence of tuples (offsets,\n"
"data, width, first, length, name, base): the offsets and data buffers of a column (width 4\n"
"or 8: int32 or int64 offsets), its rows first .. first + length - 1, and for messages its\n"
"name and the number of its row `first`.  The texts are the columns' rows in order.\n"
"Offsets must lie in their buffer, not decrease and stay within the data; every row must be\n"
"valid UTF-8: else ValueError naming the row.");

/* *total += add unless past PY_SSIZE_T_MAX; 0 when it would be. */
static int checked_add64(int64_t *total, int64_t add) {
    if (add < 0 || *total > (int64_t)PY_SSIZE_T_MAX - add) return 0;
    *total += add;
    return 1;
}

typedef struct {
    Py_buffer off, data;
    int width;
    long long first, length, base;
    PyObject *name;
} ArrowColumn;

/* A raw piece: code units [0, n) at `data` (an Arrow buffer or the call's arena). */
static int add_raw_piece(Encoder *e, const void *data, int kind, int64_t n, int scan) {
    if (e->n_pieces == e->pieces_cap &&
        !grow((void **)&e->pieces, &e->pieces_cap, e->n_pieces + 1, sizeof(TextPiece))) {
        PyErr_NoMemory();
        return 0;
    }
    TextPiece *p = &e->pieces[e->n_pieces++];
    p->data = data;
    p->kind = kind;
    p->start = 0;
    p->end = n;
    p->scan = scan;
    return 1;
}

/* Whether each of the n code units is char_plain (the char tokenizer's native cut). */
static int char_plain_units(int kind, const void *data, int64_t n) {
    for (int64_t k = 0; k < n; k++)
        if (!char_plain(unit_at(kind, data, k))) return 0;
    return 1;
}

/* What decides an Arrow row's scan (arrow_classify): the encoder's flags, read on the threads. */
typedef struct {
    int collect, unicode, nfkc, char_mode;
} ArrowRules;

/* The unicode tokenizer's rules for a row, read as it is decoded: whether it is ASCII without
 * A-Z and precomposed Hangul syllables only (its own NFKC form and lower(): tokenize_unicode's
 * rule, SCAN_UNICODE), else whether nfkc_native_ok holds (nfkc_needs_python of no
 * character: SCAN_NFKC), else -1.  A loop per code-unit size (as utf8_decode's), with the rules
 * beside the decoding, so that the decoded units are not read a second time (~6 ms of a
 * one-thread call on bench_arrow.py's short pairs). */
#define ARROW_DECODE_UNICODE(NAME, T, FOUR)                                                   \
    static int NAME(const unsigned char *s, int64_t n, T *out, int nfkc) {                    \
        int hangul = 1, native = nfkc, other = 0; /* other: nfkc_native_ok's */               \
        for (int64_t k = 0; k < n;) {                                                         \
            uint32_t c = utf8_next(s, &k, FOUR);                                              \
            *out++ = (T)c;                                                                    \
            if (c < 0x80) {                                                                   \
                hangul &= !(c >= 'A' && c <= 'Z');                                            \
                continue;                                                                     \
            }                                                                                 \
            other |= c != 0x212A;                                                             \
            if (c >= 0xAC00 && c <= 0xD7A3) continue;                                         \
            hangul = 0;                                                                       \
            if (native && nfkc_needs_python(c)) native = 0;                                   \
        }                                                                                     \
        return hangul ? SCAN_UNICODE : native && other ? SCAN_NFKC : -1;                      \
    }
ARROW_DECODE_UNICODE(arrow_unicode_1, uint8_t, 0)
ARROW_DECODE_UNICODE(arrow_unicode_2, uint16_t, 0)
ARROW_DECODE_UNICODE(arrow_unicode_4, uint32_t, 1)
#undef ARROW_DECODE_UNICODE

/* A non-ASCII row decoded (arrow.h's ArrowClassify) and its scan mode, or -1 when the text
 * needs CPython (str.lower of a non-ASCII text for rouge_score's tokenizer, a Python
 * tokenizer, characters nfkc.h leaves to unicodedata): the rules encode_text_exact applies to
 * a str, on the code units alone. */
static int arrow_classify(const void *ctx, const unsigned char *bytes, int64_t nbytes, int kind,
                          void *units, int64_t chars) {
    const ArrowRules *r = (const ArrowRules *)ctx;
    if (r->collect && r->unicode) {
        if (kind == 1) return arrow_unicode_1(bytes, nbytes, (uint8_t *)units, r->nfkc);
        if (kind == 2) return arrow_unicode_2(bytes, nbytes, (uint16_t *)units, r->nfkc);
        return arrow_unicode_4(bytes, nbytes, (uint32_t *)units, r->nfkc);
    }
    utf8_decode(bytes, nbytes, kind, units);
    if (r->collect && r->char_mode && char_plain_units(kind, units, chars)) return SCAN_CHAR;
    return -1;
}

/* Parse and check one column tuple; 0 with an exception (views released) on error. */
static int arrow_column(PyObject *item, ArrowColumn *c, int64_t *rows) {
    if (!PyTuple_Check(item)) {
        PyErr_Format(PyExc_TypeError, "encode_arrow: each column must be a tuple, got %s",
                     Py_TYPE(item)->tp_name);
        return 0;
    }
    if (!PyArg_ParseTuple(item, "y*y*iLLUL:encode_arrow", &c->off, &c->data, &c->width,
                          &c->first, &c->length, &c->name, &c->base))
        return 0;
    const char *why = NULL;
    if (c->width != 4 && c->width != 8) why = "offset width must be 4 or 8";
    else if (c->first < 0 || c->length < 0 || c->base < 0) why = "first, length, base must be >= 0";
    else if (c->first > (INT64_MAX / 8) - c->length - 1 ||
             (c->first + c->length + 1) * c->width > (long long)c->off.len)
        why = "the offsets buffer is too short for the rows";
    if (why == NULL && c->length > 0) {
        const unsigned char *ob = (const unsigned char *)c->off.buf;
        int64_t prev = arrow_offset(ob, c->width, c->first);
        if (prev < 0) why = "offsets must not be negative";
        for (int64_t k = 1; why == NULL && k <= c->length; k++) {
            int64_t next = arrow_offset(ob, c->width, c->first + k);
            if (next < prev) {
                PyErr_Format(PyExc_ValueError, "%U[%lld]: Arrow offsets decrease (%lld after %lld)",
                             c->name, c->base + k - 1, (long long)next, (long long)prev);
                goto fail;
            }
            if (next > (int64_t)c->data.len) {
                PyErr_Format(PyExc_ValueError,
                             "%U[%lld]: Arrow offset %lld past the end of the data (%zd bytes)",
                             c->name, c->base + k - 1, (long long)next, c->data.len);
                goto fail;
            }
            prev = next;
        }
    }
    if (why != NULL) {
        PyErr_Format(PyExc_ValueError, "encode_arrow: %U: %s", c->name, why);
        goto fail;
    }
    *rows += c->length;
    return 1;
fail:
    PyBuffer_Release(&c->off);
    PyBuffer_Release(&c->data);
    return 0;
}

static PyObject *encoder_encode_arrow(Encoder *e, PyObject *args) {
    PyObject *columns;
    int threads = 1;
    if (!PyArg_ParseTuple(args, "O|i:encode_arrow", &columns, &threads)) return NULL;
    PyObject *seq = encoder_enter(e, columns);
    if (seq == NULL) return NULL;
    Py_ssize_t n_cols = PyTuple_GET_SIZE(seq), parsed = 0;
    ArrowColumn *cols = calloc((size_t)n_cols + 1, sizeof(ArrowColumn));
    int64_t n = 0; /* rows */
    ArrowRow *rows = NULL;
    char *arena = NULL;
    PyObject *offsets = NULL, *result = NULL;
    int collect = encoder_collects(e), collecting = 0;
    if (cols == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (; parsed < n_cols; parsed++)
        if (!arrow_column(PyTuple_GET_ITEM(seq, parsed), &cols[parsed], &n)) goto done;
    if (n >= PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(ArrowRow) - 1) {
        PyErr_NoMemory();
        goto done;
    }
    rows = malloc(((size_t)n + 1) * sizeof(ArrowRow));
    if (rows == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* Each row's bytes (arrow_column checked the offsets: in their buffer, not decreasing,
     * within the data). */
    int64_t row = 0;
    for (Py_ssize_t c = 0; c < n_cols; c++) {
        const ArrowColumn *col = &cols[c];
        const unsigned char *ob = (const unsigned char *)col->off.buf;
        const unsigned char *db = (const unsigned char *)col->data.buf;
        for (long long k = 0; k < col->length; k++, row++) {
            int64_t a = arrow_offset(ob, col->width, col->first + k);
            rows[row] = (ArrowRow){db + a, arrow_offset(ob, col->width, col->first + k + 1) - a,
                                   0, 0, 0, -1};
        }
    }
    ArrowRange ranges[MAX_THREADS];
    int n_ranges = arrow_ranges(ranges, rows, n, threads);
    /* Pass 1, on the threads: validate every row's UTF-8, count its code points. */
    Py_BEGIN_ALLOW_THREADS
    arrow_pass(arrow_scan_range, ranges, n_ranges);
    Py_END_ALLOW_THREADS
    for (int t = 0; t < n_ranges; t++) {
        if (ranges[t].bad_row < 0) continue;
        /* the first invalid row: ranges are in row order */
        int64_t bad = ranges[t].bad_row, first = 0;
        Py_ssize_t c = 0;
        while (bad >= first + cols[c].length) first += cols[c++].length;
        PyErr_Format(PyExc_ValueError, "%U[%lld]: invalid UTF-8 at byte %lld", cols[c].name,
                     cols[c].base + (bad - first), (long long)ranges[t].bad_byte);
        goto done;
    }
    /* The arena: each non-ASCII row's decoded code units, in row order, each row aligned to
     * its code unit (a 2-byte row after a 1-byte row of odd length was written misaligned). */
    int64_t arena_len = 0;
    for (int64_t k = 0; k < n; k++) {
        int64_t kind = rows[k].kind ? rows[k].kind : 1;
        if (!checked_add64(&arena_len, (kind - arena_len % kind) % kind)) {
            PyErr_NoMemory();
            goto done;
        }
        rows[k].at = arena_len;
        if (rows[k].kind && !checked_add64(&arena_len, rows[k].chars * rows[k].kind)) {
            PyErr_NoMemory();
            goto done;
        }
    }
    arena = malloc((size_t)arena_len + 1);
    offsets = PyBytes_FromStringAndSize(NULL, (n + 1) * (Py_ssize_t)sizeof(int64_t));
    if (arena == NULL || offsets == NULL) {
        if (arena == NULL) PyErr_NoMemory();
        goto done;
    }
    /* Pass 2, on the threads: decode, and choose each row's scan. */
    ArrowRules rules = {collect, e->mode == MODE_UNICODE && e->normalize != NULL, e->nfkc,
                        e->mode == MODE_CHAR};
    int ascii_scan = !collect ? -1 : e->mode == MODE_CHAR ? SCAN_CHAR : SCAN_ASCII;
    for (int t = 0; t < n_ranges; t++) {
        ranges[t].arena = arena;
        ranges[t].classify = arrow_classify;
        ranges[t].ctx = &rules;
        ranges[t].ascii_scan = ascii_scan;
    }
    Py_BEGIN_ALLOW_THREADS
    arrow_pass(arrow_decode_range, ranges, n_ranges);
    Py_END_ALLOW_THREADS
    if (collect) {
        if (!collect_begin(e)) goto done;
        collecting = 1;
    }
    int64_t *off = (int64_t *)PyBytes_AS_STRING(offsets);
    e->out_len = 0;
    off[0] = 0;
    /* Each row as a piece of its buffer (ASCII) or of the arena (decoded), or as the str it
     * is where the text needs CPython. */
    for (int64_t k = 0; k < n; k++) {
        const ArrowRow *r = &rows[k];
        int kind = r->kind ? r->kind : 1;
        const void *units = r->kind ? (const void *)(arena + r->at) : (const void *)r->bytes;
        if (r->scan >= 0) {
            if (!add_raw_piece(e, units, kind, r->chars, r->scan)) goto done;
        } else {
            PyObject *text = PyUnicode_FromKindAndData(kind, units, r->chars);
            if (text == NULL) goto done;
            e->held = NULL; /* the pieces keep it (add_piece) */
            int ok = encode_text_exact(e, text);
            Py_DECREF(text);
            if (!ok) goto done;
        }
        off[k + 1] = collect ? e->n_pieces : e->out_len;
    }
    if (collect && !offsets_to_tokens(e, threads, off, n + 1)) goto done;
    result = encoder_result(e, offsets);
done:
    if (collecting) collect_end(e);
    for (Py_ssize_t c = 0; c < parsed; c++) {
        PyBuffer_Release(&cols[c].off);
        PyBuffer_Release(&cols[c].data);
    }
    free(cols);
    free(rows);
    free(arena);
    Py_XDECREF(offsets);
    encoder_leave(e, seq);
    return result;
}

#endif
