/*
 * module.c: the Python module rouge_lcs._native, the one translation unit of the native engine
 * (rouge_lcs/engine/native.py drives it; setup.py builds it with the ordinary `pip install`).
 *
 * Two kinds of files, by stage.  The kernels see token ids, code units and bytes only: no
 * Python.h, so they run without the GIL by construction (tests/engine/native/test_native_sources.py compiles
 * each alone without the Python headers):
 *   lcs_step.h       Hyyro's bit-parallel LCS step, the one definition every LCS kernel uses;
 *   kernels.h        the counting kernels on int32 ids (ROUGE-N, bit-parallel LCS, the union-LCS
 *                    backtrack, the per-thread workspace and the shard/thread runner);
 *   porter.h         NLTK's Porter stemmer on bytes;
 *   rouge155.h       the ROUGE-1.5.5 mode's token reader and skip-bigram counts;
 *   prefix.h         the counts of every prefix of a prediction (per-token ROUGE);
 *   scores.h         precision, recall and F from counts, references combined;
 *   wlcs.h           ROUGE-W's weighted LCS (the value, and the script's summary-level marks)
 *                    on the counting kernel's threads;
 *   similarity.h     one-against-many ROUGE similarity on token ids (sim_run);
 *   nfkc.h           unicodedata.normalize("NFKC", ...) for the text stage's threads, from
 *                    nfkc_table.h;
 *   tokens.h         texts -> token ids on several threads: the tokenizers' scans over pieces
 *                    that text.h prepared, hashing and interning;
 *   punkt_tables.h   a Punkt model's tables as C maps, read from the model module's source;
 *   punkt.h          Punkt's sentence boundaries on those maps, on the encoder's threads
 *                    without the GIL (or, for a text case_table.h cannot decide, with
 *                    CPython's str methods, which py_punkt.h supplies);
 *   arrow.h          an Arrow string column's rows read from its buffers: strict UTF-8
 *                    validation and decoding to CPython's representation;
 *   unicode_table.h  code-point classes of one Unicode version, written by the build
 *                    (setup.py) from rouge_lcs/text/unicode_data.py, the Python engine's table;
 *   case_table.h     str's case properties, and nfkc_table.h, NFKC's records: written by the
 *                    build from the interpreter's own str and unicodedata
 *                    (scripts/gen_unicode_table.py, scripts/gen_nfkc_table.py).
 *
 * The files that call CPython, included below after Python.h (one per stage, named py_*.h
 * after the kernel they bind):
 *   text.h           the stages that hold the GIL: the Encoder (interning, stemming), the
 *                    rouge_score and unicode tokenizers, sentence splitting;
 *   py_args.h        what every binding shares: the one buffer check (check_buffers, which
 *                    names the argument in its error), offsets/ids/index checks, Ctrl-C
 *                    polling around a kernel;
 *   py_punkt.h       the PunktModel type, punkt_spans() and the class look-ups for tests;
 *   py_text.h        the text stage alone, for tests: Porter, the unicode tokenizer, NFKC;
 *   py_encoder.h     the Encoder's calls: encode(), and its init, getters and dealloc;
 *   py_arrow.h       Encoder.encode_arrow(): Arrow string columns to token ids;
 *   py_sentences.h   Encoder.encode_sentences(): sentences (Punkt on the threads) to token ids;
 *   py_counts.h      counts() (ROUGE-N/L/Lsum on threads) and Encoder.pair_scores() (one
 *                    example on the calling thread);
 *   py_pair_plan.h   Encoder.pair_plan() and scores_plan(): the per-call path's callables, one
 *                    example's scores as a dict or as flat arrays, their settings checked once;
 *   py_scores.h      combine() and column_sums();
 *   py_prefix.h      prefix_counts();
 *   py_wlcs.h        wlcs() (ROUGE-W);
 *   py_rouge155.h    rouge155_tokens() and rouge155_skip();
 *   py_similarity.h  similarity();
 *   py_batch.h       a batch's checks and numbering: number_texts(), exact_strs(),
 *                    int_lists(), cut_rows(), all_utf8();
 *   module.c         this file: the Encoder type's and the module's method tables, module init.
 *
 * Every value that enters from Python is checked in the py_*.h files (types, sizes, ranges,
 * offsets) before a kernel indexes with it.
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
#include "arrow.h"

/* Whether case_table.h was made from this interpreter's Unicode version (set at module init):
 * only then does Punkt run on its tables without the GIL. */
static int CASE_TABLE_OK;
static int NFKC_TABLE_OK; /* nfkc_table.h is of this interpreter's Unicode version */

#include "text.h"
#include "py_args.h"
#include "py_punkt.h"
#include "py_text.h"
#include "py_encoder.h"
#include "py_arrow.h"
#include "py_sentences.h"
#include "py_counts.h"
#include "py_pair_plan.h"
#include "py_scores.h"
#include "py_prefix.h"
#include "py_wlcs.h"
#include "py_rouge155.h"
#include "py_similarity.h"
#include "py_batch.h"

/* ------------------------------------------------------------------------------------------ */
/* The Encoder type (py_encoder.h, py_arrow.h, py_sentences.h, py_counts.h, py_pair_plan.h)   */

static PyMethodDef encoder_methods[] = {
    {"encode", (PyCFunction)encoder_encode, METH_VARARGS, encode_doc},
    {"encode_arrow", (PyCFunction)encoder_encode_arrow, METH_VARARGS, encode_arrow_doc},
    {"encode_sentences", (PyCFunction)encoder_encode_sentences, METH_VARARGS,
     encode_sentences_doc},
    {"pair_scores", (PyCFunction)encoder_pair_scores, METH_VARARGS, pair_scores_doc},
    {"pair_plan", (PyCFunction)encoder_pair_plan, METH_VARARGS, pair_plan_doc},
    {"scores_plan", (PyCFunction)encoder_scores_plan, METH_VARARGS, scores_plan_doc},
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
/* The method table                                                                             */

static PyMethodDef module_methods[] = {
    /* The engine's entry points (rouge_lcs/engine/native.py; the Encoder type is added by
     * PyInit__native). */
    {"counts", py_counts, METH_VARARGS, counts_doc},
    {"combine", py_combine, METH_VARARGS, combine_doc},
    {"number_texts", py_number_texts, METH_VARARGS, number_texts_doc},
    {"exact_strs", py_exact_strs, METH_O, exact_strs_doc},
    {"int_lists", py_int_lists, METH_O, int_lists_doc},
    {"cut_rows", py_cut_rows, METH_VARARGS, cut_rows_doc},
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
     * For tests only (tests/engine/native/): single stages run alone, to compare them with
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
    if (PUNKT_MODEL_NAME == NULL &&
        (PUNKT_MODEL_NAME = PyUnicode_InternFromString("punkt_model")) == NULL)
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
