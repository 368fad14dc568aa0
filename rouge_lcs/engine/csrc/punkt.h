/*
 * punkt.h: Punkt's sentence boundaries in C: rouge_lcs/text/punkt.py (itself NLTK 3.10's
 * PunktSentenceTokenizer.tokenize) step by step, its regular expressions written out as scans.
 * Runs with the GIL held (the parameter tables are Python sets and a dict, and lowercasing is
 * str.lower()); module.c binds it as punkt_spans.  tests/test_punkt.py checks it equal to NLTK.
 *
 * The character classes are the `regex` module's (\s, \w, \d: PUNKT_RANGES in unicode_table.h,
 * generated with the tokenizer's by scripts/gen_unicode_table.py); str.isupper/islower/isspace
 * are CPython's.  range_index comes from text.h.
 */
#ifndef ROUGE_LCS_PUNKT_H
#define ROUGE_LCS_PUNKT_H

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t n;
    Py_UCS4 ends[16]; /* the sentence-end characters */
    int n_ends;
    PyObject *abbrev, *colloc, *starters, *ortho; /* set, set of 2-tuples, set, dict */
    PyObject *text;
} Punkt;

#define PCH(p, i) PyUnicode_READ((p)->kind, (p)->data, (i))

static int punkt_bits(Py_UCS4 c) {
    if (c < 128) {
        if (c == ' ' || (c >= 9 && c <= 13)) return 1;
        if (c >= '0' && c <= '9') return 6;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') return 2;
        return 0;
    }
    int found = range_index(PUNKT_RANGES, PUNKT_RANGE_COUNT, c);
    return found < 0 ? 0 : (int)PUNKT_RANGES[found][2];
}

static inline int p_space(Py_UCS4 c) { return punkt_bits(c) & 1; }

static int p_is_end(const Punkt *p, Py_UCS4 c) {
    for (int k = 0; k < p->n_ends; k++)
        if (p->ends[k] == c) return 1;
    return 0;
}

/* _re_non_word_chars: characters that cannot appear within words */
static int p_nonword(const Punkt *p, Py_UCS4 c) {
    switch (c) {
    case ')': case '"': case ';': case '}': case ']': case '*': case ':': case '@': case '\'':
    case '(': case '{': case '[': case 0x2018: case 0x2019: case 0x201C: case 0x201D:
    case 0xAB: case 0xBB:
        return 1;
    default:
        return c != '.' && p_is_end(p, c);
    }
}

/* _re_multi_char_punct at i (before `end`): its length, 0 if none.
 * (?:\-{2,}|\.{2,}|(?:\.\s){2,}\.) with the regex engine's greedy backtracking. */
static Py_ssize_t p_multichar(const Punkt *p, Py_ssize_t i, Py_ssize_t end) {
    if (i + 1 >= end) return 0;
    Py_UCS4 c = PCH(p, i), d = PCH(p, i + 1);
    if ((c == '-' && d == '-') || (c == '.' && d == '.')) {
        Py_ssize_t j = i + 2;
        while (j < end && PCH(p, j) == c) j++;
        return j - i;
    }
    if (c != '.') return 0;
    Py_ssize_t pairs = 0, j = i;
    while (j + 1 < end && PCH(p, j) == '.' && p_space(PCH(p, j + 1))) {
        pairs++;
        j += 2;
    }
    if (pairs < 2) return 0;
    if (j < end && PCH(p, j) == '.') return 2 * pairs + 1;
    /* one pair fewer: the "." that starts the last pair closes it */
    return pairs >= 3 ? 2 * pairs - 1 : 0;
}

/* _re_word_start excludes these from starting a word */
static int p_no_word_start(Py_UCS4 c) {
    switch (c) {
    case '(': case '"': case '`': case '{': case '[': case ':': case ';': case '&': case '#':
    case '*': case '@': case ')': case '}': case ']': case '-': case ',':
        return 1;
    default:
        return 0;
    }
}

/* The word tokenizer's end lookahead at j of a word ending before `end` */
static int p_word_ends(const Punkt *p, Py_ssize_t j, Py_ssize_t end) {
    if (j >= end) return 1; /* $ (a line has no newline) */
    Py_UCS4 c = PCH(p, j);
    if (p_space(c) || p_nonword(p, c) || p_multichar(p, j, end)) return 1;
    if (c == ',') {
        if (j + 1 >= end) return 1;
        Py_UCS4 d = PCH(p, j + 1);
        return p_space(d) || p_nonword(p, d) || p_multichar(p, j + 1, end) > 0;
    }
    return 0;
}

typedef struct {
    Py_ssize_t start, len;
} Span;

/* PunktLanguageVars.word_tokenize (findall) on the line [a, b); appends to toks */
static int p_word_tokenize(const Punkt *p, Py_ssize_t a, Py_ssize_t b, Span **toks,
                           Py_ssize_t *n, Py_ssize_t *cap) {
    Py_ssize_t i = a;
    while (i < b) {
        Py_UCS4 c = PCH(p, i);
        Py_ssize_t len = p_multichar(p, i, b);
        if (len == 0 && !p_space(c)) {
            len = 1;
            if (!p_no_word_start(c)) {
                Py_ssize_t j = i + 1;
                while (!p_word_ends(p, j, b)) j++; /* stops at whitespace or the end at last */
                len = j - i;
            }
        }
        if (len == 0) {
            i++;
            continue;
        }
        if (*n == *cap) {
            Py_ssize_t grown = *cap ? 2 * *cap : 16;
            Span *more = realloc(*toks, (size_t)grown * sizeof(Span));
            if (more == NULL) {
                PyErr_NoMemory();
                return -1;
            }
            *toks = more;
            *cap = grown;
        }
        (*toks)[(*n)++] = (Span){i, len};
        i += len;
    }
    return 0;
}

static inline int p_ends_period(const Punkt *p, Span t) {
    return PCH(p, t.start + t.len - 1) == '.';
}

/* PunktToken.type: tok.lower(), "##number##" for numbers; new reference or NULL */
static PyObject *p_type(const Punkt *p, Span t) {
    PyObject *tok = PyUnicode_Substring(p->text, t.start, t.start + t.len);
    if (tok == NULL) return NULL;
    PyObject *low = str_lower(tok);
    Py_DECREF(tok);
    if (low == NULL) return NULL;
    /* ^-?[\.,]?\d[\d,\.-]*\.?$ */
    int kind = PyUnicode_KIND(low);
    const void *data = PyUnicode_DATA(low);
    Py_ssize_t n = PyUnicode_GET_LENGTH(low), k = 0;
    if (k < n && PyUnicode_READ(kind, data, k) == '-') k++;
    if (k < n && (PyUnicode_READ(kind, data, k) == '.' || PyUnicode_READ(kind, data, k) == ','))
        k++;
    int number = k < n && (punkt_bits(PyUnicode_READ(kind, data, k)) & 4);
    for (k++; number && k < n; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        number = c == ',' || c == '.' || c == '-' || (punkt_bits(c) & 4);
    }
    if (!number) return low;
    Py_DECREF(low);
    return PyUnicode_FromString("##number##");
}

/* a type without its final period (when longer than one character); steals `typ` */
static PyObject *p_no_period(PyObject *typ) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(typ);
    if (n > 1 && PyUnicode_READ_CHAR(typ, n - 1) == '.') {
        PyObject *out = PyUnicode_Substring(typ, 0, n - 1);
        Py_DECREF(typ);
        return out;
    }
    return typ;
}

/* _first_pass for a period-final token: 1 sentence break, 2 abbreviation, 3 ellipsis, 0 none,
 * -1 error */
static int p_first_pass(const Punkt *p, Span t) {
    if (t.len == 1 && p_is_end(p, PCH(p, t.start))) return 1;
    int all_periods = t.len >= 2;
    for (Py_ssize_t k = 0; all_periods && k < t.len; k++) all_periods = PCH(p, t.start + k) == '.';
    if (all_periods) return 3;
    if (!p_ends_period(p, t)) return 0;
    if (t.len >= 2 && PCH(p, t.start + t.len - 2) == '.') return 0; /* ends with ".." */
    PyObject *word = PyUnicode_Substring(p->text, t.start, t.start + t.len - 1);
    if (word == NULL) return -1;
    PyObject *low = str_lower(word);
    Py_DECREF(word);
    if (low == NULL) return -1;
    int found = PySet_Contains(p->abbrev, low);
    if (found == 0) { /* low.split("-")[-1] */
        Py_ssize_t n = PyUnicode_GET_LENGTH(low);
        Py_ssize_t dash = PyUnicode_FindChar(low, '-', 0, n, -1);
        if (dash >= 0) {
            PyObject *last = PyUnicode_Substring(low, dash + 1, n);
            found = last == NULL ? -1 : PySet_Contains(p->abbrev, last);
            Py_XDECREF(last);
        }
    }
    Py_DECREF(low);
    if (found < 0) return -1;
    return found ? 2 : 1;
}

static int p_ortho_context(const Punkt *p, PyObject *typ, long *out) {
    PyObject *v = PyDict_GetItemWithError(p->ortho, typ);
    if (v == NULL) {
        *out = 0;
        return PyErr_Occurred() ? -1 : 0;
    }
    *out = PyLong_AsLong(v);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

enum { ORTHO_BEG_UC = 2, ORTHO_MID_UC = 4, ORTHO_UNK_UC = 8, ORTHO_BEG_LC = 16,
       ORTHO_MID_LC = 32, ORTHO_UNK_LC = 64 };
#define ORTHO_UC (ORTHO_BEG_UC | ORTHO_MID_UC | ORTHO_UNK_UC)
#define ORTHO_LC (ORTHO_BEG_LC | ORTHO_MID_LC | ORTHO_UNK_LC)

/* _ortho_heuristic: 1 True, 0 False, 2 unknown, -1 error */
static int p_ortho(const Punkt *p, Span t2, PyObject *next_typ) {
    if (t2.len == 1) {
        Py_UCS4 c = PCH(p, t2.start);
        if (c == ';' || c == ':' || c == ',' || c == '.' || c == '!' || c == '?') return 0;
    }
    long ctx;
    if (p_ortho_context(p, next_typ, &ctx) < 0) return -1;
    Py_UCS4 first = PCH(p, t2.start);
    if (Py_UNICODE_ISUPPER(first) && (ctx & ORTHO_LC) && !(ctx & ORTHO_MID_UC)) return 1;
    if (Py_UNICODE_ISLOWER(first) && ((ctx & ORTHO_UC) || !(ctx & ORTHO_BEG_LC))) return 0;
    return 2;
}

/* the sentence break of period-final token t (first pass `first`) followed by t2 (whose first
 * pass broke a sentence: t2_break); 1 / 0, -1 on error */
static int p_second_pass(const Punkt *p, Span t, int first, Span t2, int t2_break) {
    int sentbreak = first == 1, abbr_or_ellipsis = first == 2 || first == 3, result = sentbreak;
    PyObject *typ = p_type(p, t), *next_typ = NULL, *pair = NULL;
    if (typ == NULL || (typ = p_no_period(typ)) == NULL) goto error;
    next_typ = p_type(p, t2);
    if (next_typ == NULL) goto error;
    if (t2_break && (next_typ = p_no_period(next_typ)) == NULL) goto error;
    Py_UCS4 c0 = PCH(p, t.start);
    int initial = t.len == 2 && PCH(p, t.start + 1) == '.' && (punkt_bits(c0) & 6) == 2;
    pair = PyTuple_Pack(2, typ, next_typ);
    if (pair == NULL) goto error;
    int colloc = PySet_Contains(p->colloc, pair);
    if (colloc < 0) goto error;
    if (colloc) {
        result = 0;
        goto done;
    }
    if (abbr_or_ellipsis && !initial) {
        int starter = p_ortho(p, t2, next_typ);
        if (starter < 0) goto error;
        if (starter == 1) {
            result = 1;
            goto done;
        }
        if (Py_UNICODE_ISUPPER(PCH(p, t2.start))) {
            int known = PySet_Contains(p->starters, next_typ);
            if (known < 0) goto error;
            if (known) {
                result = 1;
                goto done;
            }
        }
    }
    if (initial || PyUnicode_CompareWithASCIIString(typ, "##number##") == 0) {
        int starter = p_ortho(p, t2, next_typ);
        if (starter < 0) goto error;
        if (starter == 0) {
            result = 0;
            goto done;
        }
        if (starter == 2 && initial && Py_UNICODE_ISUPPER(PCH(p, t2.start))) {
            long ctx;
            if (p_ortho_context(p, next_typ, &ctx) < 0) goto error;
            if (!(ctx & ORTHO_LC)) result = 0;
        }
    }
done:
    Py_XDECREF(typ);
    Py_XDECREF(next_typ);
    Py_XDECREF(pair);
    return result;
error:
    result = -1;
    goto done;
}

/* text_contains_sentbreak on the context [a, b): 1 / 0, -1 on error */
static int p_contains_sentbreak(const Punkt *p, Py_ssize_t a, Py_ssize_t b, Span **toks,
                                Py_ssize_t *cap) {
    Py_ssize_t n = 0, line = a;
    for (Py_ssize_t i = a; i <= b; i++) {
        if (i < b && PCH(p, i) != '\n') continue;
        int blank = 1; /* line.strip(): str whitespace */
        for (Py_ssize_t k = line; k < i && blank; k++) blank = Py_UNICODE_ISSPACE(PCH(p, k));
        if (!blank && p_word_tokenize(p, line, i, toks, &n, cap) < 0) return -1;
        line = i + 1;
    }
    Span *t = *toks;
    for (Py_ssize_t i = 0; i + 1 < n; i++) {
        if (!p_ends_period(p, t[i])) {
            if (t[i].len == 1 && p_is_end(p, PCH(p, t[i].start))) return 1;
            continue;
        }
        int first = p_first_pass(p, t[i]);
        if (first < 0) return -1;
        int t2_break = 0;
        if (p_ends_period(p, t[i + 1])) {
            t2_break = p_first_pass(p, t[i + 1]);
            if (t2_break < 0) return -1;
            t2_break = t2_break == 1;
        }
        int brk = p_second_pass(p, t[i], first, t[i + 1], t2_break);
        if (brk != 0) return brk;
    }
    return 0;
}

/* _RE_BOUNDARY_REALIGNMENT.match(text[a:b]): the match's end (relative to a) and the length
 * of its text without trailing str whitespace; returns 0 when it does not match */
static int p_realign(const Punkt *p, Py_ssize_t a, Py_ssize_t b, Py_ssize_t *end,
                     Py_ssize_t *kept) {
    Py_ssize_t k = a;
    for (;;) {
        if (k >= b) return 0;
        Py_UCS4 c = PCH(p, k);
        if (!(c == '"' || c == '\'' || c == ')' || c == ']' || c == '}' || c == 0x2018 ||
              c == 0x2019 || c == 0x201C || c == 0x201D || c == 0xAB || c == 0xBB))
            return 0;
        k++; /* one more closer (lazy), then the alternatives */
        Py_ssize_t m = -1;
        if (k < b && p_space(PCH(p, k))) {
            m = k;
            while (m < b && p_space(PCH(p, m))) m++;
        } else if (k + 1 < b && PCH(p, k) == '-' && PCH(p, k + 1) == '-') {
            m = k;
        } else if (k == b) {
            m = k;
        }
        if (m >= 0) {
            Py_ssize_t r = m;
            while (r > a && Py_UNICODE_ISSPACE(PCH(p, r - 1))) r--;
            *end = m - a;
            *kept = r - a;
            return 1;
        }
    }
}

static int p_push(Py_ssize_t **v, Py_ssize_t *n, Py_ssize_t *cap, Py_ssize_t x, Py_ssize_t y) {
    if (*n + 2 > *cap) {
        Py_ssize_t grown = *cap ? 2 * *cap : 32;
        Py_ssize_t *more = realloc(*v, (size_t)grown * sizeof(Py_ssize_t));
        if (more == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        *v = more;
        *cap = grown;
    }
    (*v)[(*n)++] = x;
    (*v)[(*n)++] = y;
    return 0;
}

/* span_tokenize(text, realign_boundaries=True) as a list of (start, end) */
static PyObject *punkt_spans(Punkt *p) {
    Py_ssize_t n = p->n;
    Py_ssize_t *sl = NULL, nsl = 0, capsl = 0;
    Span *toks = NULL;
    Py_ssize_t captoks = 0;
    PyObject *out = NULL;
    /* _match_potential_end_contexts + _slices_from_text */
    Py_ssize_t last_break = 0, prev_start = 0, prev_stop = 0;
    Py_ssize_t prev_i = -1, prev_after = 0, prev_next = -1;
    for (Py_ssize_t i = 0; i <= n; i++) {
        Py_ssize_t after = 0, next = -1;
        if (i < n) {
            if (!p_is_end(p, PCH(p, i)) || i + 1 >= n) continue;
            Py_UCS4 d = PCH(p, i + 1);
            if (p_nonword(p, d)) {
                after = i + 2;
            } else if (p_space(d)) {
                Py_ssize_t j = i + 1;
                while (j < n && p_space(PCH(p, j))) j++;
                if (j == n) continue;
                Py_ssize_t k = j;
                while (k < n && !p_space(PCH(p, k))) k++;
                after = k;
                next = j;
            } else {
                continue;
            }
        }
        Py_ssize_t word_start = 0;
        int yield_prev = prev_i >= 0;
        if (i < n) {
            Py_ssize_t index = 0; /* the last ASCII whitespace after the previous candidate */
            for (Py_ssize_t k = i - 1; k >= prev_stop; k--) {
                Py_UCS4 c = PCH(p, k);
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0B || c == 0x0C) {
                    index = k - prev_stop;
                    break;
                }
            }
            word_start = index ? index + prev_stop + 1 : prev_start;
            yield_prev = prev_i >= 0 && prev_stop <= word_start;
        }
        if (yield_prev) {
            int brk = p_contains_sentbreak(p, prev_start, prev_after, &toks, &captoks);
            if (brk < 0) goto done;
            if (brk) {
                if (p_push(&sl, &nsl, &capsl, last_break, prev_i + 1) < 0) goto done;
                last_break = prev_next >= 0 ? prev_next : prev_i + 1;
            }
        }
        if (i == n) break;
        prev_i = i;
        prev_after = after;
        prev_next = next;
        prev_start = word_start;
        prev_stop = i;
    }
    Py_ssize_t stripped = n;
    while (stripped > 0 && Py_UNICODE_ISSPACE(PCH(p, stripped - 1))) stripped--;
    if (p_push(&sl, &nsl, &capsl, last_break, stripped) < 0) goto done;
    /* _realign_boundaries */
    out = PyList_New(0);
    if (out == NULL) goto done;
    Py_ssize_t realign = 0, count = nsl / 2;
    for (Py_ssize_t k = 0; k < count; k++) {
        Py_ssize_t start = sl[2 * k] + realign, stop = sl[2 * k + 1], end, kept;
        PyObject *span = NULL;
        if (k + 1 < count && p_realign(p, sl[2 * k + 2], sl[2 * k + 3], &end, &kept)) {
            span = Py_BuildValue("(nn)", start, sl[2 * k + 2] + kept);
            realign = end;
        } else {
            realign = 0;
            if (start >= stop) continue;
            span = Py_BuildValue("(nn)", start, stop);
        }
        if (span == NULL || PyList_Append(out, span) < 0) {
            Py_XDECREF(span);
            Py_CLEAR(out);
            goto done;
        }
        Py_DECREF(span);
    }
done:
    free(sl);
    free(toks);
    return out;
}
#endif /* ROUGE_LCS_PUNKT_H */
